//! What a model component reads of its scenario table: typed values of its own keys, and
//! errors that point at a key. The scenario reader implements [`Keys`]; a component's file
//! (a buffer acceptance policy, an explicit-rate algorithm, an ingress policer's contract)
//! names its keys, reads them with their defaults and validates them, and never sees the
//! scenario's syntax.

use crate::time::SimDuration;
use crate::units::BitRate;

/// A table of keys, as a component reads it. Each `Option` is None when the key is absent;
/// a key present with a value of the wrong kind is an error pointing at it.
pub trait Keys {
    /// An error that names the table, the line and the key.
    type Error;

    fn contains(&self, key: &str) -> bool;
    /// Whether the key's value is a string (a quantity with its unit, or a keyword).
    fn is_text(&self, key: &str) -> bool;
    /// A string.
    fn text(&self, key: &str) -> Result<Option<&str>, Self::Error>;
    /// `true` or `false`.
    fn flag(&self, key: &str) -> Result<Option<bool>, Self::Error>;
    /// An integer ≥ 0.
    fn count(&self, key: &str) -> Result<Option<u64>, Self::Error>;
    /// A finite number (integers accepted).
    fn number(&self, key: &str) -> Result<Option<f64>, Self::Error>;
    /// A fraction in 0..=1: `0.8` or `"80 %"`.
    fn fraction(&self, key: &str) -> Result<Option<f64>, Self::Error>;
    /// A cell count: `"8192 cells"` or an integer.
    fn cells(&self, key: &str) -> Result<Option<u64>, Self::Error>;
    /// A list of cell counts: `["1000 cells", "500 cells"]`.
    fn cell_list(&self, key: &str) -> Result<Option<Vec<u64>>, Self::Error>;
    /// A byte size with its unit: `"9140 B"`, `"64 KB"`.
    fn bytes(&self, key: &str) -> Result<Option<u64>, Self::Error>;
    /// A duration with its unit: `"1 ms"`.
    fn duration(&self, key: &str) -> Result<Option<SimDuration>, Self::Error>;
    /// A rate with its unit: `"10 Mbit/s"`.
    fn rate(&self, key: &str) -> Result<Option<BitRate>, Self::Error>;
    /// A string that must be one of `allowed` (the error names them).
    fn keyword(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, Self::Error>;
    /// The names of the entries of the table under `key`, in order: a table whose keys are
    /// names the scenario chooses (`reserved = { nrt-vbr = "1500 cells" }`).
    fn entry_names(&self, key: &str) -> Result<Option<Vec<String>>, Self::Error>;
    /// The cell count of entry `entry` of the table under `key` (one of its `entry_names`).
    fn entry_cells(&self, key: &str, entry: &str) -> Result<u64, Self::Error>;

    /// An error about `key` of this table.
    fn key_error(&self, key: &str, message: String) -> Self::Error;
    /// An error about the table as a whole.
    fn error(&self, message: String) -> Self::Error;
    /// An error about entry `entry` of the table under `key`.
    fn entry_error(&self, key: &str, entry: &str, message: String) -> Self::Error;

    /// The error for `key`, which must be given and is not.
    fn missing(&self, key: &str) -> Self::Error {
        self.key_error(key, format!("missing required key '{key}'"))
    }

    /// `n`, the value of `key`, as a count that fits 32 bits.
    fn within_u32(&self, key: &str, n: u64) -> Result<u32, Self::Error> {
        u32::try_from(n).map_err(|_| self.key_error(key, format!("too large (max {})", u32::MAX)))
    }
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`: the values an error says a key takes.
pub fn alternatives(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|p| format!("\"{p}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
