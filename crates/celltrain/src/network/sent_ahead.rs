//! The opportunities of an ABR end system's cells sent ahead, not yet come, kept as rows.
//!
//! An end system that paces ahead (`abr_send_ahead`) puts cells on its adapter's wire before
//! their opportunities; until an opportunity comes, its cell still counts as waiting in the end
//! system (`AbrEnd::waiting_at`). Between two changes of ACR the opportunities are a fixed gap
//! apart, and a run of data cells sent at once is exactly such a row, so they are kept as
//! arithmetic (first, gap, count) rather than one time a cell.

use celltrain_core::time::SimTime;
use std::collections::VecDeque;

/// `count` opportunities, `gap_ps` apart from `first_ps` (a lone one's gap is 0).
#[derive(Clone, Copy, Debug)]
struct Row {
    first_ps: u64,
    gap_ps: u64,
    count: u64,
}

impl Row {
    fn last_ps(&self) -> u64 {
        self.first_ps + (self.count - 1) * self.gap_ps
    }
}

/// Times in increasing order, taken from the front as they come.
#[derive(Clone, Debug, Default)]
pub(super) struct SentAhead {
    rows: VecDeque<Row>,
    len: usize,
}

impl SentAhead {
    /// Opportunities not yet taken away.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// One more opportunity, at `at` (no earlier than the last).
    pub(super) fn push(&mut self, at: SimTime) {
        self.push_row(at, 0, 1);
    }

    /// `count` more opportunities, `gap_ps` apart from `first` (no earlier than the last).
    pub(super) fn push_row(&mut self, first: SimTime, gap_ps: u64, count: u64) {
        if count == 0 {
            return;
        }
        let first_ps = first.as_picos();
        self.len += usize::try_from(count).expect("opportunities fit a word");
        if let Some(back) = self.rows.back_mut() {
            debug_assert!(first_ps >= back.last_ps(), "opportunities sent ahead out of order");
            let step = first_ps - back.last_ps();
            // The row goes on where it continues the last one by its gap (a lone time takes any).
            if step > 0 && (back.count == 1 || step == back.gap_ps) && (count == 1 || gap_ps == step) {
                back.gap_ps = step;
                back.count += count;
                return;
            }
        }
        self.rows.push_back(Row { first_ps, gap_ps: if count == 1 { 0 } else { gap_ps }, count });
    }

    /// Takes away the opportunities at or before `now`.
    #[inline]
    pub(super) fn take_until(&mut self, now: SimTime) {
        let now_ps = now.as_picos();
        while let Some(front) = self.rows.front_mut() {
            if front.first_ps > now_ps {
                return;
            }
            // (A row of one has no gap: it has come whole.)
            let come =
                (now_ps - front.first_ps).checked_div(front.gap_ps).map_or(front.count, |k| (k + 1).min(front.count));
            self.len -= come as usize;
            if come < front.count {
                front.first_ps += come * front.gap_ps;
                front.count -= come;
                return;
            }
            self.rows.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SentAhead;
    use celltrain_core::time::SimTime;
    use celltrain_core::RngStream;
    use std::collections::VecDeque;

    /// Rows and lone times pushed, and taken away at random instants, against a queue of every
    /// time: the same count after each step.
    #[test]
    fn the_rows_count_as_every_time_would() {
        let mut rng = RngStream::derive(1, "sent ahead");
        let mut next = move |n: u64| rng.below(n);
        for _ in 0..300 {
            let mut rows = SentAhead::default();
            let mut every: VecDeque<u64> = VecDeque::new();
            let mut last = next(50);
            let mut now = 0;
            let mut gap = 1 + next(20);
            for _ in 0..60 {
                match next(5) {
                    0 => gap = 1 + next(20),
                    1 => {
                        // (Sometimes at the last time's gap, sometimes not.)
                        let at = last + if next(2) == 0 { gap } else { next(30) };
                        rows.push(SimTime::from_picos(at));
                        every.push_back(at);
                        last = at;
                    }
                    2 => {
                        let (first, count) = (last + next(2) * gap + next(3), next(6));
                        rows.push_row(SimTime::from_picos(first), gap, count);
                        every.extend((0..count).map(|j| first + j * gap));
                        if count > 0 {
                            last = first + (count - 1) * gap;
                        }
                    }
                    _ => {
                        now += next(40);
                        rows.take_until(SimTime::from_picos(now));
                        while every.front().is_some_and(|&t| t <= now) {
                            every.pop_front();
                        }
                    }
                }
                assert_eq!(rows.len(), every.len());
            }
        }
    }
}
