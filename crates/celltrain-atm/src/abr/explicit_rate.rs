//! The explicit-rate algorithm of a switch port: ERICA and ERICA+ (Kalyanaraman, Jain,
//! Fahmy, Goyal, Vandalore, "The ERICA switch algorithm for ABR traffic management in ATM
//! networks", IEEE/ACM Transactions on Networking, 2000) and binary (CI) marking with
//! hysteresis, as variants of [`ExplicitRate`].
//!
//! The network calls the port's algorithm for every forward RM cell that crosses the port
//! (ERICA records the VC's CCR there), for every backward RM cell of a VC that crosses the
//! port forward (it lowers ER and may set CI there, at the switch the backward cell passes),
//! and at the end of each averaging interval with the load measured over it (ERICA computes
//! its load factor and fair share there).

use super::erica::{Erica, EricaConfig};
use super::rm::RmCell;
use celltrain_core::time::{SimDuration, SimTime};

/// What the algorithm sees of the port when an RM cell crosses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RmContext {
    pub now: SimTime,
    /// The RM cell's VC's dense per-port index.
    pub slot: u32,
    /// Cells queued in the port now.
    pub queue_cells: u32,
}

/// The load of a port over the averaging interval that just ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalLoad {
    pub now: SimTime,
    pub interval: SimDuration,
    /// Cells offered during the interval to the buffer pool ABR draws on.
    pub input_cells: u64,
    /// The link's capacity less what higher-priority categories (CBR, VBR) used in the
    /// interval, cells/s.
    pub abr_capacity: f64,
    /// Cells queued in the port now (ERICA+ steers towards a target queue).
    pub queue_cells: u32,
}

/// Binary feedback with hysteresis: congested once the queue exceeds `high_cells`, no longer
/// once it falls to `low_cells`; while congested, backward RM cells leave with CI = 1, and
/// otherwise with NI = 1 while the queue is above `ni_cells` (no increase: TM 4.0's
/// relative-rate marking in two steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinaryMarking {
    pub high_cells: u32,
    pub low_cells: u32,
    pub ni_cells: Option<u32>,
    pub congested: bool,
}

impl BinaryMarking {
    fn update(&mut self, queue_cells: u32) -> bool {
        if self.congested {
            if queue_cells <= self.low_cells {
                self.congested = false;
            }
        } else if queue_cells > self.high_cells {
            self.congested = true;
        }
        self.congested
    }
}

/// A port's explicit-rate algorithm.
#[derive(Clone, Debug, Default)]
pub enum ExplicitRate {
    /// No algorithm: RM cells cross the port unchanged.
    #[default]
    None,
    /// ERICA or ERICA+ (with queue control).
    Erica(Box<Erica>),
    /// CI marking on the queue (TM 4.0's relative-rate marking, in backward RM cells).
    Binary(BinaryMarking),
}

impl ExplicitRate {
    pub fn erica(config: EricaConfig) -> Self {
        Self::Erica(Box::new(Erica::new(config)))
    }

    /// The algorithm's name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Erica(e) if e.config().queue_control.is_some() => "erica+",
            Self::Erica(_) => "erica",
            Self::Binary(_) => "binary",
        }
    }

    /// A forward RM cell crosses the port.
    #[inline]
    pub fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        match self {
            Self::None => {}
            Self::Erica(e) => e.on_forward_rm(context.now, context.slot, rm),
            Self::Binary(b) => {
                b.update(context.queue_cells);
            }
        }
    }

    /// A backward RM cell of a VC crossing the port passes the port's switch on its way back
    /// to the source (`context.queue_cells` is this port's queue).
    #[inline]
    pub fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        match self {
            Self::None => {}
            Self::Erica(e) => e.on_backward_rm(context.slot, rm),
            Self::Binary(b) => {
                if b.update(context.queue_cells) {
                    rm.ci = true;
                } else if b.ni_cells.is_some_and(|n| context.queue_cells > n) {
                    rm.ni = true;
                }
            }
        }
    }

    /// An averaging interval ended.
    #[inline]
    pub fn on_interval(&mut self, load: &IntervalLoad) {
        match self {
            Self::None | Self::Binary(_) => {}
            Self::Erica(e) => {
                e.on_interval(load.now, load.interval, load.input_cells, load.abr_capacity, load.queue_cells)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::rm::{AbrRate, RmDirection};

    #[test]
    fn none_leaves_rm_cells_and_itself_unchanged() {
        let mut er = ExplicitRate::None;
        let context = RmContext { now: SimTime::from_picos(5), slot: 2, queue_cells: 900 };
        let before = RmCell::forward(AbrRate::MAX, AbrRate::from_cells_per_sec(1e4), AbrRate::ZERO);
        let mut rm = before;
        er.on_forward_rm(&context, &mut rm);
        assert_eq!(rm, before);
        let mut back = before.turned_around();
        er.on_backward_rm(&context, &mut back);
        assert_eq!(back, RmCell { dir: RmDirection::Backward, ..before });
        er.on_interval(&IntervalLoad {
            now: SimTime::from_picos(9),
            interval: SimDuration::from_picos(4),
            input_cells: 1_000,
            abr_capacity: 1e5,
            queue_cells: 900,
        });
        assert!(matches!(er, ExplicitRate::None));
    }
}

#[cfg(test)]
mod binary_tests {
    use super::*;
    use crate::abr::rm::AbrRate;

    #[test]
    fn binary_marking_has_hysteresis() {
        let mut er = ExplicitRate::Binary(BinaryMarking {
            high_cells: 100,
            low_cells: 50,
            ni_cells: Some(80),
            congested: false,
        });
        let at = |q| RmContext { now: SimTime::ZERO, slot: 0, queue_cells: q };
        let brm = RmCell::forward(AbrRate::MAX, AbrRate::ZERO, AbrRate::ZERO).turned_around();
        let marks_at = |er: &mut ExplicitRate, q| {
            let mut rm = brm;
            er.on_backward_rm(&at(q), &mut rm);
            (rm.ci, rm.ni)
        };
        assert_eq!(marks_at(&mut er, 70), (false, false));
        assert_eq!(marks_at(&mut er, 100), (false, true), "above the NI threshold: no increase");
        assert_eq!(marks_at(&mut er, 101), (true, false));
        assert_eq!(marks_at(&mut er, 60), (true, false), "still congested above the low threshold");
        assert_eq!(marks_at(&mut er, 50), (false, false));
        assert_eq!(marks_at(&mut er, 99), (false, true));
        assert_eq!(er.name(), "binary");
    }
}
