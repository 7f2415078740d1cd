//! Columnar time series of sampled simulator state, and a fixed-interval sampling clock.
//!
//! A sampler is one ordinary scheduled event (as htsim's `TcpSinkLoggerSampling`):
//! when it fires it reads the quantities of interest and appends one row to a [`TimeSeries`],
//! whose storage is one `Vec` per column, so the columns can be handed to Python as arrays
//! without reshaping. Values are `f64`; integer counters are exact up to 2^53.

use celltrain_core::{SimDuration, SimTime};
use std::io::{self, BufWriter, Write};

const PS_PER_SEC: u64 = 1_000_000_000_000;

/// Named `f64` columns sampled at instants, stored column by column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeSeries {
    names: Vec<String>,
    times: Vec<SimTime>,
    columns: Vec<Vec<f64>>,
}

impl TimeSeries {
    /// An empty series with the given columns.
    ///
    /// # Panics
    /// If a name is empty, repeated, or `time_s` (a model bug: the builder names columns
    /// uniquely). A name with a comma, quote or line break is quoted in the CSV header.
    pub fn new(columns: &[&str]) -> Self {
        for (i, name) in columns.iter().enumerate() {
            assert!(!name.is_empty(), "time series column names must be non-empty");
            assert!(*name != "time_s", "time series column name \"time_s\" is reserved for the time column");
            assert!(!columns[..i].contains(name), "time series column {name:?} is repeated");
        }
        TimeSeries {
            names: columns.iter().map(|s| s.to_string()).collect(),
            times: Vec::new(),
            columns: vec![Vec::new(); columns.len()],
        }
    }

    /// Reserves room for `additional` more samples in every column, so a run of known length
    /// never reallocates.
    pub fn reserve(&mut self, additional: usize) {
        self.times.reserve(additional);
        for c in &mut self.columns {
            c.reserve(additional);
        }
    }

    /// Appends one sample: `values[i]` goes to column `i`.
    ///
    /// # Panics
    /// If `values` has the wrong length, or `time` is earlier than the previous sample (both
    /// are model bugs; a silently misaligned or unsorted series would mislead every plot).
    pub fn push(&mut self, time: SimTime, values: &[f64]) {
        assert_eq!(values.len(), self.columns.len(), "time series sample has the wrong number of values");
        if let Some(&last) = self.times.last() {
            assert!(time >= last, "time series samples out of order: {time:?} after {last:?}");
        }
        self.times.push(time);
        for (c, &v) in self.columns.iter_mut().zip(values) {
            c.push(v);
        }
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True if no sample has been pushed.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The column names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The sample instants.
    pub fn times(&self) -> &[SimTime] {
        &self.times
    }

    /// The values of the column called `name`, if there is one.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.names.iter().position(|n| n == name).map(|i| self.columns[i].as_slice())
    }

    /// Writes `time_s,<col>,…` then one row per sample.
    ///
    /// Times are printed exactly, as seconds with 12 decimals (integer picoseconds, no float
    /// rounding); values use Rust's shortest round-trip form, so parsing the file gives back
    /// the same `f64` bits (`NaN` and `inf` included).
    pub fn write_csv<W: Write>(&self, w: W) -> io::Result<()> {
        // Buffered here because the rows are many small writes and callers often pass a File.
        let mut w = BufWriter::new(w);
        w.write_all(b"time_s")?;
        for name in &self.names {
            write!(w, ",{}", csv_field(name))?;
        }
        w.write_all(b"\n")?;
        for (row, t) in self.times.iter().enumerate() {
            let ps = t.as_picos();
            write!(w, "{}.{:012}", ps / PS_PER_SEC, ps % PS_PER_SEC)?;
            for c in &self.columns {
                // A value not defined yet (a TCP sender's RTT before its first sample) is empty.
                if c[row].is_nan() {
                    w.write_all(b",")?;
                } else {
                    write!(w, ",{}", c[row])?;
                }
            }
            w.write_all(b"\n")?;
        }
        w.flush()
    }
}

/// `name` as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a
/// quote or a line break.
pub fn csv_field(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains([',', '"', '\n', '\r']) {
        std::borrow::Cow::Owned(format!("\"{}\"", name.replace('"', "\"\"")))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// A fixed-interval sampling clock: the simulator keeps one pending sampling event at
/// [`Sampler::next_at`] and, when it fires, samples and calls [`Sampler::advance`].
///
/// ```ignore
/// if sampler.due(now) {
///     series.push(sampler.next_at(), &[cwnd, queue_len]);
///     sampler.advance();
///     schedule(sampler.next_at(), Event::Sample);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    interval: SimDuration,
    next: SimTime,
}

impl Sampler {
    /// A clock whose first sample is due at `first`, then every `interval`.
    ///
    /// # Panics
    /// If `interval` is zero: the clock would never leave `first`.
    pub fn new(first: SimTime, interval: SimDuration) -> Self {
        assert!(!interval.is_zero(), "sampling interval must be positive");
        Sampler { interval, next: first }
    }

    /// The sampling interval.
    pub fn interval(&self) -> SimDuration {
        self.interval
    }

    /// The instant of the next sample.
    pub fn next_at(&self) -> SimTime {
        self.next
    }

    /// True if the next sample is due at or before `now`.
    pub fn due(&self, now: SimTime) -> bool {
        now >= self.next
    }

    /// Moves to the following instant (saturating at [`SimTime::MAX`]) and returns it.
    pub fn advance(&mut self) -> SimTime {
        self.next += self.interval;
        self.next
    }

    /// Moves to the first instant strictly after `now`, keeping the grid
    /// `first + k·interval`; returns how many instants were passed over (0 if none was due).
    /// For a simulator that was idle past several sampling instants and samples once.
    pub fn advance_past(&mut self, now: SimTime) -> u64 {
        if !self.due(now) {
            return 0;
        }
        // Integer arithmetic: instants next, next+i, … up to and including now.
        let k = (now - self.next).as_picos() / self.interval.as_picos() + 1;
        self.next += self.interval.saturating_mul(k);
        k
    }
}
