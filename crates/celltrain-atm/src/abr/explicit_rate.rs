//! The explicit-rate algorithm of a switch port: where ERICA and ERICA+ (Kalyanaraman, Jain,
//! Fahmy, Goyal, Vandalore, "The ERICA switch algorithm for ABR traffic management in ATM
//! networks", IEEE/ACM Transactions on Networking, 2000) will live, as variants of
//! [`ExplicitRate`].
//!
//! The network calls the port's algorithm for every forward RM cell that crosses the port
//! (ERICA records the VC's CCR there), for every backward RM cell (it lowers ER and may set CI
//! or NI there), and at the end of each averaging interval with the load measured over it
//! (ERICA computes its overload factor and fair share there). Today only `None` exists: it
//! leaves every RM cell as it is, so an ABR VC runs at the rates its source chooses.

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntervalLoad {
    pub now: SimTime,
    pub interval: SimDuration,
    /// Cells of the algorithm's VCs that arrived at the port during the interval.
    pub input_cells: u64,
    /// Cells queued in the port now (ERICA+ steers towards a target queue).
    pub queue_cells: u32,
}

/// A port's explicit-rate algorithm.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ExplicitRate {
    /// No algorithm: RM cells cross the port unchanged.
    #[default]
    None,
}

impl ExplicitRate {
    /// A forward RM cell crosses the port.
    #[inline]
    pub fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        match self {
            Self::None => {
                let _ = (context, rm);
            }
        }
    }

    /// A backward RM cell crosses the port (on its way back to the source).
    #[inline]
    pub fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        match self {
            Self::None => {
                let _ = (context, rm);
            }
        }
    }

    /// An averaging interval ended.
    #[inline]
    pub fn on_interval(&mut self, load: &IntervalLoad) {
        match self {
            Self::None => {
                let _ = load;
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
            queue_cells: 900,
        });
        assert_eq!(er, ExplicitRate::None);
    }
}
