//! A record of one quantity's changes: a row `(time, value)` whenever the value differs from
//! the last row, with at most one row per instant.
//!
//! Several changes at one instant leave one row, the value at the end of the instant, and
//! none if the instant ends where it began (a cell that enters an idle port and leaves it at
//! once): so two runs that reach the same values by different steps (events, or a fast path
//! that skips the intermediate steps) leave the same rows.

use crate::time::SimTime;

/// The changes of one quantity, kept up to a row limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChangeTrace {
    rows: Vec<(SimTime, f64)>,
    /// The value before the first row (the quantity's initial value).
    initial: f64,
    limit: usize,
    truncated: bool,
}

impl ChangeTrace {
    /// An empty record of a quantity whose value is `initial` until it first changes (NaN: not
    /// known, so the first note makes a row), keeping at most `limit` rows.
    pub fn new(initial: f64, limit: usize) -> Self {
        ChangeTrace { rows: Vec::new(), initial, limit, truncated: false }
    }

    /// Notes the value at `now` (not earlier than the previous note).
    #[inline]
    pub fn note(&mut self, now: SimTime, value: f64) {
        let n = self.rows.len();
        let last = self.rows.last().copied();
        match last {
            Some((t, _)) if t == now => {
                // The instant ends where it began: it leaves no row.
                let before = n.checked_sub(2).map_or(self.initial, |i| self.rows[i].1);
                if same(before, value) {
                    self.rows.pop();
                } else {
                    self.rows[n - 1].1 = value;
                }
            }
            Some((_, v)) if same(v, value) => {}
            None if same(self.initial, value) => {}
            _ if n >= self.limit => self.truncated = true,
            _ => self.rows.push((now, value)),
        }
    }

    /// The rows, in time order.
    pub fn rows(&self) -> &[(SimTime, f64)] {
        &self.rows
    }

    /// The value before the first row.
    pub fn initial(&self) -> f64 {
        self.initial
    }

    /// The row limit was reached: later changes were not kept.
    pub fn truncated(&self) -> bool {
        self.truncated
    }
}

/// Equal values, NaN equal to NaN (an RTT not measured yet stays unmeasured).
#[inline]
fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ps: u64) -> SimTime {
        SimTime::from_picos(ps)
    }

    #[test]
    fn keeps_one_row_per_change() {
        let mut c = ChangeTrace::new(0.0, 10);
        c.note(t(1), 0.0);
        c.note(t(2), 3.0);
        c.note(t(3), 3.0);
        c.note(t(4), 1.0);
        assert_eq!(c.rows(), &[(t(2), 3.0), (t(4), 1.0)]);
    }

    #[test]
    fn an_instant_leaves_its_last_value_or_nothing() {
        let mut c = ChangeTrace::new(0.0, 10);
        c.note(t(5), 1.0);
        c.note(t(5), 0.0);
        assert!(c.rows().is_empty(), "0 → 1 → 0 at one instant is no change");
        c.note(t(6), 1.0);
        c.note(t(6), 2.0);
        c.note(t(7), 3.0);
        c.note(t(7), 2.0);
        assert_eq!(c.rows(), &[(t(6), 2.0)]);
    }

    #[test]
    fn unknown_initial_value_makes_the_first_row() {
        let mut c = ChangeTrace::new(f64::NAN, 10);
        c.note(t(0), 4.0);
        c.note(t(1), 4.0);
        assert_eq!(c.rows(), &[(t(0), 4.0)]);
    }

    #[test]
    fn stops_at_the_limit_and_says_so() {
        let mut c = ChangeTrace::new(0.0, 2);
        for k in 1..=4 {
            c.note(t(k), k as f64);
        }
        assert_eq!(c.rows(), &[(t(1), 1.0), (t(2), 2.0)]);
        assert!(c.truncated());
    }
}
