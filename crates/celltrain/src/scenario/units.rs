//! Quantities written as text with their unit: rates, durations, cell counts, byte sizes
//! and fractions.
//!
//! Scenario files carry units in the text (`"149.76 Mbit/s"`, `"5 ms"`) so that a
//! reader never has to guess whether `5` meant seconds or milliseconds. A space between
//! number and unit is optional; `_` may separate digits (`"149_760_000 bit/s"`); an
//! exponent is allowed (`"1e-3 s"`).
//!
//! | quantity | units | result |
//! |----------|-------|--------|
//! | rate     | `bit/s` `bps`, `kbit/s` `kbps`, `Mbit/s` `Mbps`, `Gbit/s` `Gbps`, `cells/s` (× 424 bit) | [`BitRate`], > 0 |
//! | duration | `ps`, `ns`, `us` `µs` `μs`, `ms`, `s` | [`SimDuration`], ≥ 0 |
//! | cells    | `cells` `cell` (or a bare integer, handled by the accessor) | `u64` |
//! | bytes    | `B` `byte` `bytes`; `KB` `kB` = 1000, `MB` = 10⁶, `GB` = 10⁹; `KiB` = 1024, `MiB` = 2²⁰, `GiB` = 2³⁰ | `u64` |
//! | fraction | `%` (or a bare number in 0..=1, handled by the accessor) | `f64` in 0..=1 |
//!
//! Numbers are read as exact decimals and converted with integer arithmetic, rounding
//! to the nearest bit/s or picosecond (halves away from zero), so `"0.1 s"` is exactly
//! 100 000 000 000 ps and large values lose nothing to floating point.
//!
//! Every error message starts with `bad <quantity> "<text>": ` and says what to write.

use celltrain_core::{BitRate, SimDuration, CELL_BITS};

/// A rate that may be the keyword `"line"`: the rate of the link it leaves on, which
/// only the model builder knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateSpec {
    Line,
    Rate(BitRate),
}

// Rate and cell units are read in any case: no two of them differ only by case. Durations and
// sizes are not: "Ms" would be megaseconds beside "ms", "Mb" megabits beside "MB".
const RATE_UNITS: &str =
    "use bit/s (bps, b/s), kbit/s (kbps), Mbit/s (Mbps), Gbit/s (Gbps) or cells/s (cell/s), in any case";
const DURATION_UNITS: &str = "use ps, ns, us (µs, μs), ms or s; case matters";
const BYTE_UNITS: &str = "use B (byte, bytes), KB (kB), MB, GB, KiB, MiB or GiB; case matters";
const CELL_UNITS: &str = "use cells (cell), in any case";

/// Parses a rate such as `"149.76 Mbit/s"` or `"353207 cells/s"`.
pub fn parse_rate(text: &str) -> Result<BitRate, String> {
    let bad = |why: &str| format!("bad rate {text:?}: {why}");
    let (num, unit) = split(text).map_err(|why| bad(&why))?;
    let lower = unit.to_lowercase();
    if unit.contains('B') && !lower.contains("bit") {
        // Any case but this one: "MBps" read as "mbps" would be eight times too fast.
        return Err(bad(&format!("unknown unit '{unit}': B is a byte, rates are in bits ({RATE_UNITS})")));
    }
    let per_unit: u128 = match lower.as_str() {
        "bit/s" | "bps" | "b/s" => 1,
        "kbit/s" | "kbps" => 1_000,
        "mbit/s" | "mbps" => 1_000_000,
        "gbit/s" | "gbps" => 1_000_000_000,
        "cells/s" | "cell/s" => u128::from(CELL_BITS),
        "" => return Err(bad(&format!("missing unit ({RATE_UNITS})"))),
        _ => return Err(bad(&format!("unknown unit '{unit}' ({RATE_UNITS})"))),
    };
    if num.negative {
        return Err(bad("must be positive"));
    }
    let bps = num.scaled(per_unit).ok_or_else(|| bad("too large (max 18446744073709551615 bit/s)"))?;
    if bps == 0 {
        return Err(bad("must be positive"));
    }
    Ok(BitRate::from_bps(bps))
}

/// Parses `"line"` or a rate.
pub fn parse_rate_spec(text: &str) -> Result<RateSpec, String> {
    let t = text.trim();
    if t == "line" {
        return Ok(RateSpec::Line);
    }
    if !t.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c)) {
        return Err(format!("bad rate {text:?}: expected \"line\" or a number with a unit such as \"10 Mbit/s\""));
    }
    parse_rate(text).map(RateSpec::Rate)
}

/// Parses a duration such as `"5 ms"`, `"50 µs"` or `"0 s"`.
pub fn parse_duration(text: &str) -> Result<SimDuration, String> {
    let bad = |why: &str| format!("bad duration {text:?}: {why}");
    let (num, unit) = split(text).map_err(|why| bad(&why))?;
    let ps_per_unit: u128 = match unit {
        "ps" => 1,
        "ns" => 1_000,
        "us" | "µs" | "μs" => 1_000_000,
        "ms" => 1_000_000_000,
        "s" => 1_000_000_000_000,
        "" => return Err(bad(&format!("missing unit ({DURATION_UNITS})"))),
        u => return Err(bad(&format!("unknown unit '{u}' ({DURATION_UNITS})"))),
    };
    if num.negative && !num.is_zero() {
        return Err(bad("must not be negative"));
    }
    let ps = num.scaled(ps_per_unit).ok_or_else(|| bad("too large (max 18446744 s)"))?;
    Ok(SimDuration::from_picos(ps))
}

/// Parses a cell count such as `"8192 cells"` (a whole number).
pub fn parse_cells(text: &str) -> Result<u64, String> {
    let bad = |why: &str| format!("bad cell count {text:?}: {why}");
    let (num, unit) = split(text).map_err(|why| bad(&why))?;
    match unit.to_lowercase().as_str() {
        "cells" | "cell" => {}
        "" => return Err(bad(&format!("missing unit ({CELL_UNITS})"))),
        _ => return Err(bad(&format!("unknown unit '{unit}' ({CELL_UNITS})"))),
    }
    whole(&num, 1, "cells").map_err(|why| bad(&why))
}

/// Parses a byte size such as `"9140 B"`, `"64 KB"` (64 000) or `"48 KiB"` (49 152).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad = |why: &str| format!("bad size {text:?}: {why}");
    let (num, unit) = split(text).map_err(|why| bad(&why))?;
    let per_unit: u128 = match unit {
        "B" | "byte" | "bytes" => 1,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "" => return Err(bad(&format!("missing unit ({BYTE_UNITS})"))),
        u => return Err(bad(&format!("unknown unit '{u}' ({BYTE_UNITS})"))),
    };
    whole(&num, per_unit, "bytes").map_err(|why| bad(&why))
}

/// Parses a percentage such as `"80 %"` into a fraction (0.8) in 0..=1.
pub fn parse_percent(text: &str) -> Result<f64, String> {
    let bad = |why: &str| format!("bad fraction {text:?}: {why}");
    let (num, unit) = split(text).map_err(|why| bad(&why))?;
    match unit {
        "%" => {}
        "" => return Err(bad("missing unit (use %, or write a number like 0.8)")),
        u => return Err(bad(&format!("unknown unit '{u}' (use %)"))),
    }
    check_fraction(num.to_f64() / 100.0).map_err(|why| bad(&why))
}

/// Checks that `x` is a fraction in 0..=1; the message says what is wrong.
pub fn check_fraction(x: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err("must be between 0 and 1 (0 % and 100 %)".to_string())
    }
}

/// `num × per_unit` as a whole `u64`, or why it is not one.
fn whole(num: &Decimal, per_unit: u128, noun: &str) -> Result<u64, String> {
    if num.negative && !num.is_zero() {
        return Err("must not be negative".to_string());
    }
    match num.exact(per_unit) {
        Exact::Whole(n) => u64::try_from(n).map_err(|_| format!("too large (max {} {noun})", u64::MAX)),
        Exact::Fractional => Err(format!("not a whole number of {noun}")),
        Exact::Overflow => Err(format!("too large (max {} {noun})", u64::MAX)),
    }
}

enum Exact {
    Whole(u128),
    Fractional,
    Overflow,
}

/// A decimal number `mantissa × 10^exp10`, read without rounding.
#[derive(Debug, Clone, PartialEq)]
struct Decimal {
    negative: bool,
    mantissa: u128,
    exp10: i32,
}

/// More significant digits than this cannot occur in a sensible scenario and would risk
/// overflow in the integer conversion.
const MAX_DIGITS: usize = 30;

impl Decimal {
    fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// `self × per_unit` rounded to the nearest integer, if it fits in a `u64`.
    fn scaled(&self, per_unit: u128) -> Option<u64> {
        let mut n = self.mantissa.checked_mul(per_unit)?;
        if self.exp10 >= 0 {
            n = n.checked_mul(10u128.checked_pow(self.exp10.unsigned_abs())?)?;
            return u64::try_from(n).ok();
        }
        let mut shift = self.exp10.unsigned_abs();
        // 10^38 is the largest power of ten in a u128; digits beyond it cannot change
        // the rounded result of a value this small.
        while shift > 38 {
            n /= 10;
            shift -= 1;
        }
        let d = 10u128.pow(shift);
        u64::try_from(n / d + u128::from(n % d >= d - d / 2)).ok()
    }

    /// `self × per_unit`, if it is a whole number.
    fn exact(&self, per_unit: u128) -> Exact {
        let Some(n) = self.mantissa.checked_mul(per_unit) else {
            return Exact::Overflow;
        };
        let pow = 10u128.checked_pow(self.exp10.unsigned_abs());
        match pow {
            _ if n == 0 => Exact::Whole(0),
            Some(p) if self.exp10 >= 0 => n.checked_mul(p).map_or(Exact::Overflow, Exact::Whole),
            None if self.exp10 >= 0 => Exact::Overflow,
            Some(d) if n % d == 0 => Exact::Whole(n / d),
            _ => Exact::Fractional,
        }
    }

    fn to_f64(&self) -> f64 {
        let x = self.mantissa as f64 * 10f64.powi(self.exp10);
        if self.negative {
            -x
        } else {
            x
        }
    }
}

/// Splits `"149.76 Mbit/s"` into its number and its unit (`""` if there is none).
fn split(text: &str) -> Result<(Decimal, &str), String> {
    let t = text.trim();
    let bytes = t.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let (mut mantissa, mut exp10, mut digits, mut seen_dot) = (0u128, 0i32, 0usize, false);
    let mut any_digit = false;
    while i < bytes.len() {
        match bytes[i] {
            b @ b'0'..=b'9' => {
                any_digit = true;
                if mantissa > 0 || b != b'0' {
                    digits += 1;
                }
                if digits > MAX_DIGITS {
                    return Err("too many digits".to_string());
                }
                mantissa = mantissa * 10 + u128::from(b - b'0');
                if seen_dot {
                    exp10 -= 1;
                }
            }
            b'.' if !seen_dot => seen_dot = true,
            b'_' if any_digit => {}
            _ => break,
        }
        i += 1;
    }
    if !any_digit {
        return Err("expected a number before the unit".to_string());
    }
    // An exponent only if 'e' is followed by digits, so "5 e" is not mistaken for one.
    if let Some((exp, len)) = exponent(&t[i..]) {
        exp10 = exp10.checked_add(exp).ok_or_else(|| "exponent too large".to_string())?;
        i += len;
    }
    let rest = &t[i..];
    Ok((Decimal { negative, mantissa, exp10 }, rest.trim()))
}

/// Reads `e-3` / `E+12` at the start of `s`: the exponent and the bytes it used.
fn exponent(s: &str) -> Option<(i32, usize)> {
    let b = s.as_bytes();
    if !matches!(b.first(), Some(b'e' | b'E')) {
        return None;
    }
    let mut i = 1;
    let negative = match b.get(1) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    let mut v: i32 = 0;
    while let Some(d @ b'0'..=b'9') = b.get(i) {
        v = v.saturating_mul(10).saturating_add(i32::from(d - b'0')).min(10_000);
        i += 1;
    }
    (i > start).then_some((if negative { -v } else { v }, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bps(text: &str) -> u64 {
        parse_rate(text).unwrap().as_bps()
    }
    fn ps(text: &str) -> u64 {
        parse_duration(text).unwrap().as_picos()
    }

    #[test]
    fn rates() {
        assert_eq!(bps("149.76 Mbit/s"), 149_760_000);
        assert_eq!(bps("10 Mbit/s"), 10_000_000);
        assert_eq!(bps("155.52 Mbps"), 155_520_000);
        assert_eq!(bps("64 kbit/s"), 64_000);
        assert_eq!(bps("1 Gbit/s"), 1_000_000_000);
        assert_eq!(bps("9600 bit/s"), 9600);
        assert_eq!(bps("9600bit/s"), 9600);
        assert_eq!(bps("1.5 bit/s"), 2);
        assert_eq!(bps("1.49 bit/s"), 1);
        assert_eq!(bps("149_760_000 bit/s"), 149_760_000);
        assert_eq!(bps("1.4976e8 bit/s"), 149_760_000);
        assert_eq!(bps("353207 cells/s"), 353_207 * 424);
        assert_eq!(bps("0.5 cells/s"), 212);
    }

    #[test]
    fn rate_and_cell_units_in_any_case_but_bytes_never_bits() {
        assert_eq!(bps("10 mbit/s"), 10_000_000);
        assert_eq!(bps("10 MBIT/S"), 10_000_000);
        assert_eq!(bps("10 mbps"), 10_000_000);
        assert_eq!(bps("64 KBIT/s"), 64_000);
        assert_eq!(bps("2 gbps"), 2_000_000_000);
        assert_eq!(bps("1 Cells/s"), 424);
        assert_eq!(parse_cells("8 Cells"), Ok(8));
        for bytes in ["10 MB/s", "10 MBps", "10 Bps"] {
            let e = parse_rate(bytes).unwrap_err();
            assert!(e.contains(": B is a byte, rates are in bits (use "), "{e}");
        }
        // Case decides between units here: milli and mega seconds, megabits and megabytes.
        assert!(parse_duration("5 MS").unwrap_err().contains("(use ps, ns, us (µs, μs), ms or s; case matters)"));
        assert!(parse_bytes("64 Mb").unwrap_err().contains("MiB or GiB; case matters)"));
    }

    #[test]
    fn rate_errors() {
        let e = |t: &str| parse_rate(t).unwrap_err();
        assert_eq!(
            e("149.76 Mbits"),
            "bad rate \"149.76 Mbits\": unknown unit 'Mbits' (use bit/s (bps, b/s), kbit/s (kbps), Mbit/s (Mbps), Gbit/s (Gbps) or cells/s (cell/s), in any case)"
        );
        assert_eq!(e("100"), "bad rate \"100\": missing unit (use bit/s (bps, b/s), kbit/s (kbps), Mbit/s (Mbps), Gbit/s (Gbps) or cells/s (cell/s), in any case)");
        assert_eq!(e("0 Mbit/s"), "bad rate \"0 Mbit/s\": must be positive");
        assert_eq!(e("0.0000001 bit/s"), "bad rate \"0.0000001 bit/s\": must be positive");
        assert_eq!(e("-1 Mbit/s"), "bad rate \"-1 Mbit/s\": must be positive");
        assert_eq!(e("Mbit/s"), "bad rate \"Mbit/s\": expected a number before the unit");
        assert_eq!(e("NaN bit/s"), "bad rate \"NaN bit/s\": expected a number before the unit");
        assert_eq!(e("1e30 Gbit/s"), "bad rate \"1e30 Gbit/s\": too large (max 18446744073709551615 bit/s)");
        assert_eq!(parse_rate_spec("line"), Ok(RateSpec::Line));
        assert_eq!(parse_rate_spec("2 Mbit/s"), Ok(RateSpec::Rate(BitRate::from_bps(2_000_000))));
        assert_eq!(
            parse_rate_spec("lines").unwrap_err(),
            "bad rate \"lines\": expected \"line\" or a number with a unit such as \"10 Mbit/s\""
        );
        assert!(parse_rate_spec("5 lines").unwrap_err().contains("unknown unit 'lines'"));
    }

    #[test]
    fn durations() {
        assert_eq!(ps("5 ms"), 5_000_000_000);
        assert_eq!(ps("50 us"), 50_000_000);
        assert_eq!(ps("50 µs"), 50_000_000);
        assert_eq!(ps("50μs"), 50_000_000);
        assert_eq!(ps("2 s"), 2_000_000_000_000);
        assert_eq!(ps("100 ns"), 100_000);
        assert_eq!(ps("1.5 s"), 1_500_000_000_000);
        assert_eq!(ps("0 s"), 0);
        assert_eq!(ps("0.1 s"), 100_000_000_000);
        assert_eq!(ps("2.8311975 us"), 2_831_198);
        assert_eq!(ps("7 ps"), 7);
        assert_eq!(ps("1e-3 s"), 1_000_000_000);
        assert_eq!(ps("-0 s"), 0);
    }

    #[test]
    fn duration_errors() {
        let e = |t: &str| parse_duration(t).unwrap_err();
        assert_eq!(
            e("5 sec"),
            "bad duration \"5 sec\": unknown unit 'sec' (use ps, ns, us (µs, μs), ms or s; case matters)"
        );
        assert_eq!(e("5"), "bad duration \"5\": missing unit (use ps, ns, us (µs, μs), ms or s; case matters)");
        assert_eq!(e("-5 ms"), "bad duration \"-5 ms\": must not be negative");
        assert_eq!(e("1e9 s"), "bad duration \"1e9 s\": too large (max 18446744 s)");
        assert_eq!(
            e("5 e s"),
            "bad duration \"5 e s\": unknown unit 'e s' (use ps, ns, us (µs, μs), ms or s; case matters)"
        );
        assert_eq!(
            e("1.2.3 s"),
            "bad duration \"1.2.3 s\": unknown unit '.3 s' (use ps, ns, us (µs, μs), ms or s; case matters)"
        );
        assert_eq!(
            e("1234567890123456789012345678901 s"),
            "bad duration \"1234567890123456789012345678901 s\": too many digits"
        );
    }

    #[test]
    fn cells() {
        assert_eq!(parse_cells("8192 cells"), Ok(8192));
        assert_eq!(parse_cells("1 cell"), Ok(1));
        assert_eq!(parse_cells("8192cells"), Ok(8192));
        assert_eq!(parse_cells("1e3 cells"), Ok(1000));
        assert_eq!(
            parse_cells("8192 cels").unwrap_err(),
            "bad cell count \"8192 cels\": unknown unit 'cels' (use cells (cell), in any case)"
        );
        assert_eq!(
            parse_cells("8192").unwrap_err(),
            "bad cell count \"8192\": missing unit (use cells (cell), in any case)"
        );
        assert_eq!(parse_cells("2.5 cells").unwrap_err(), "bad cell count \"2.5 cells\": not a whole number of cells");
        assert_eq!(parse_cells("-3 cells").unwrap_err(), "bad cell count \"-3 cells\": must not be negative");
    }

    #[test]
    fn bytes() {
        assert_eq!(parse_bytes("9140 B"), Ok(9140));
        assert_eq!(parse_bytes("9140 bytes"), Ok(9140));
        assert_eq!(parse_bytes("64 KB"), Ok(64_000));
        assert_eq!(parse_bytes("64 kB"), Ok(64_000));
        assert_eq!(parse_bytes("4 MB"), Ok(4_000_000));
        assert_eq!(parse_bytes("48 KiB"), Ok(49_152));
        assert_eq!(parse_bytes("1.5 KiB"), Ok(1536));
        assert_eq!(parse_bytes("2 MiB"), Ok(2 << 20));
        assert_eq!(parse_bytes("1 GiB"), Ok(1 << 30));
        assert_eq!(
            parse_bytes("64 Kb").unwrap_err(),
            "bad size \"64 Kb\": unknown unit 'Kb' (use B (byte, bytes), KB (kB), MB, GB, KiB, MiB or GiB; case matters)"
        );
        assert_eq!(parse_bytes("1.5 B").unwrap_err(), "bad size \"1.5 B\": not a whole number of bytes");
        assert_eq!(
            parse_bytes("99999999999 GB").unwrap_err(),
            "bad size \"99999999999 GB\": too large (max 18446744073709551615 bytes)"
        );
    }

    #[test]
    fn percent() {
        assert_eq!(parse_percent("80 %"), Ok(0.8));
        assert_eq!(parse_percent("80%"), Ok(0.8));
        assert_eq!(parse_percent("0 %"), Ok(0.0));
        assert_eq!(parse_percent("100 %"), Ok(1.0));
        assert_eq!(
            parse_percent("120 %").unwrap_err(),
            "bad fraction \"120 %\": must be between 0 and 1 (0 % and 100 %)"
        );
        assert_eq!(parse_percent("80 pct").unwrap_err(), "bad fraction \"80 pct\": unknown unit 'pct' (use %)");
        assert!(check_fraction(f64::NAN).is_err());
    }
}
