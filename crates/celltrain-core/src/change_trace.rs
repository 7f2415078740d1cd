//! A record of one quantity's changes: a row `(time, value)` whenever the value differs from
//! the last row, with at most one row per instant.
//!
//! Several changes at one instant leave one row, the value at the end of the instant, and
//! none if the instant ends where it began (a cell that enters an idle port and leaves it at
//! once): so two runs that reach the same values by different steps (events, or a fast path
//! that skips the intermediate steps) leave the same rows.
//!
//! The rows of all the quantities of a run come from one [`RowPool`], first come first served:
//! a busy queue may use what quiet quantities do not need, where equal shares cut the queue
//! early while most of the others' rows stayed unused.

use crate::time::SimTime;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The rows that the change records of one run may still keep, together.
#[derive(Clone, Debug, Default)]
pub struct RowPool(Arc<AtomicUsize>);

impl RowPool {
    /// A pool of `rows` rows.
    pub fn new(rows: usize) -> Self {
        RowPool(Arc::new(AtomicUsize::new(rows)))
    }

    /// Takes a row if one is left.
    #[inline]
    fn take(&self) -> bool {
        self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(1)).is_ok()
    }

    /// Gives back a row that was taken.
    #[inline]
    fn give_back(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// The rows left.
    pub fn left(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// Pools are equal when as many rows are left in them.
impl PartialEq for RowPool {
    fn eq(&self, other: &Self) -> bool {
        self.left() == other.left()
    }
}

/// The changes of one quantity, kept while its pool has rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChangeTrace {
    rows: Vec<(SimTime, f64)>,
    /// The value before the first row (the quantity's initial value).
    initial: f64,
    pool: RowPool,
    /// The first change the pool had no row for: none after it is kept, so that the rows never
    /// skip a change.
    cut_at: Option<SimTime>,
}

impl ChangeTrace {
    /// An empty record of a quantity whose value is `initial` until it first changes (NaN: not
    /// known, so the first note makes a row), taking its rows from `pool`.
    pub fn new(initial: f64, pool: RowPool) -> Self {
        ChangeTrace { rows: Vec::new(), initial, pool, cut_at: None }
    }

    /// Notes the value at `now` (not earlier than the previous note).
    #[inline]
    pub fn note(&mut self, now: SimTime, value: f64) {
        if self.cut_at.is_some() {
            return;
        }
        let n = self.rows.len();
        let last = self.rows.last().copied();
        match last {
            Some((t, _)) if t == now => {
                // The instant ends where it began: it leaves no row.
                let before = n.checked_sub(2).map_or(self.initial, |i| self.rows[i].1);
                if same(before, value) {
                    self.rows.pop();
                    self.pool.give_back();
                } else {
                    self.rows[n - 1].1 = value;
                }
            }
            Some((_, v)) if same(v, value) => {}
            None if same(self.initial, value) => {}
            _ if !self.pool.take() => self.cut_at = Some(now),
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

    /// When the pool first had no row for a change: from then on no change was kept.
    pub fn cut_at(&self) -> Option<SimTime> {
        self.cut_at
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
        let mut c = ChangeTrace::new(0.0, RowPool::new(10));
        c.note(t(1), 0.0);
        c.note(t(2), 3.0);
        c.note(t(3), 3.0);
        c.note(t(4), 1.0);
        assert_eq!(c.rows(), &[(t(2), 3.0), (t(4), 1.0)]);
    }

    #[test]
    fn an_instant_leaves_its_last_value_or_nothing() {
        let mut c = ChangeTrace::new(0.0, RowPool::new(10));
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
        let mut c = ChangeTrace::new(f64::NAN, RowPool::new(10));
        c.note(t(0), 4.0);
        c.note(t(1), 4.0);
        assert_eq!(c.rows(), &[(t(0), 4.0)]);
    }

    #[test]
    fn stops_when_its_pool_is_empty_and_says_when() {
        let mut c = ChangeTrace::new(0.0, RowPool::new(2));
        for k in 1..=4 {
            c.note(t(k), k as f64);
        }
        assert_eq!(c.rows(), &[(t(1), 1.0), (t(2), 2.0)]);
        assert_eq!(c.cut_at(), Some(t(3)));
    }

    #[test]
    fn quantities_share_one_pool_by_use() {
        let pool = RowPool::new(10);
        let (mut busy, mut quiet) = (ChangeTrace::new(0.0, pool.clone()), ChangeTrace::new(0.0, pool.clone()));
        quiet.note(t(0), 1.0);
        for k in 1..=12 {
            busy.note(t(k), k as f64);
        }
        // Equal shares would have cut the busy quantity after 5 rows.
        assert_eq!((busy.rows().len(), quiet.rows().len()), (9, 1));
        assert_eq!((busy.cut_at(), quiet.cut_at()), (Some(t(10)), None));
        quiet.note(t(13), 2.0);
        assert_eq!(quiet.cut_at(), Some(t(13)));
    }

    #[test]
    fn a_row_an_instant_takes_back_returns_to_the_pool_and_a_cut_trace_stays_cut() {
        let pool = RowPool::new(1);
        let mut c = ChangeTrace::new(0.0, pool.clone());
        c.note(t(1), 1.0);
        c.note(t(1), 0.0);
        assert_eq!(pool.left(), 1);
        c.note(t(2), 1.0);
        c.note(t(3), 2.0);
        assert_eq!(c.cut_at(), Some(t(3)));
        pool.give_back();
        c.note(t(4), 3.0);
        assert_eq!(c.rows(), &[(t(2), 1.0)], "no row after the cut: a row would hide the missing change");
    }
}
