//! The explicit-rate algorithm of a switch port: ERICA and ERICA+ (Kalyanaraman, Jain,
//! Fahmy, Goyal, Vandalore, "The ERICA switch algorithm for ABR traffic management in ATM
//! networks", IEEE/ACM Transactions on Networking, 2000) and binary (CI) marking with
//! hysteresis, each implementing [`ExplicitRateAlgorithm`] (the contract), dispatched through
//! the enum [`ExplicitRate`] declared from one table.
//!
//! The network calls the port's algorithm for every forward RM cell that crosses the port
//! (ERICA records the VC's CCR there), for every backward RM cell of a VC that crosses the
//! port forward (it lowers ER and may set CI there, at the switch the backward cell passes),
//! and at the end of each averaging interval with the load measured over it (ERICA computes
//! its load factor and fair share there).

use super::erica::{Erica, EricaConfig};
use super::rm::RmCell;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::Keys;

/// What the algorithm sees of the port when an RM cell crosses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RmContext {
    pub now: SimTime,
    /// The RM cell's VC's dense per-port index.
    pub slot: u32,
    /// Cells queued in the port now: given to an algorithm that reads them
    /// ([`ExplicitRateAlgorithm::QUEUE_AT_RM`]); 0 for the others at a port whose arrivals are
    /// carried ahead of its readers.
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
    /// Whether the port is congested now that its queue holds `queue_cells`.
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

/// The contract of a port's explicit-rate algorithm.
///
/// - It is told of every forward RM cell of a VC crossing the port
///   ([`on_forward_rm`](Self::on_forward_rm)), of every backward RM cell of such a VC as it
///   passes the port's switch on its way back ([`on_backward_rm`](Self::on_backward_rm):
///   `context.queue_cells` is this port's queue), and of the end of each averaging interval
///   with the load measured over it ([`on_interval`](Self::on_interval)).
/// - It may only lower an RM cell's ER and set its CI and NI bits (never raise a rate another
///   switch has lowered), and keeps only its own state.
/// - The algorithm's file owns its configuration: the switch keys it reads
///   ([`KEYS`](Self::KEYS)), their defaults and validation, and the algorithm built from them
///   ([`read`](Self::read)). (`averaging_interval`, the port's measurement, is every
///   algorithm's.)
///
/// A new algorithm is a file implementing this trait and one line in the table of
/// [`ExplicitRate`] (`explicit_rate_algorithms!` below).
pub trait ExplicitRateAlgorithm: Sized {
    /// The names `explicit_rate = "..."` takes for it.
    const NAMES: &'static [&'static str];
    /// The switch keys of the algorithm's own, each with the names that take it: a scenario
    /// that gives one with another algorithm is told which take it.
    const KEYS: &'static [(&'static str, &'static [&'static str])] = &[];

    /// The algorithm for `explicit_rate = name` (one of [`NAMES`](Self::NAMES)), from a
    /// switch's keys, with their defaults, validated.
    fn read<K: Keys>(name: &str, keys: &K) -> Result<Self, K::Error>;

    /// Whether it reads the port's queue when an RM cell crosses (`RmContext::queue_cells`);
    /// an algorithm that does not is given none where the port cannot tell it cheaply (a port
    /// whose arrivals are carried ahead of its readers: `celltrain`'s `as_of`).
    const QUEUE_AT_RM: bool = false;

    /// The name in reports (the configured variant).
    fn report_name(&self) -> &'static str {
        Self::NAMES[0]
    }

    #[inline(always)]
    fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        let _ = (context, rm);
    }

    #[inline(always)]
    fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        let _ = (context, rm);
    }

    #[inline(always)]
    fn on_interval(&mut self, load: &IntervalLoad) {
        let _ = load;
    }
}

/// No algorithm: RM cells cross the port unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoExplicitRate;

impl ExplicitRateAlgorithm for NoExplicitRate {
    const NAMES: &'static [&'static str] = &["none"];

    fn read<K: Keys>(_name: &str, _keys: &K) -> Result<Self, K::Error> {
        Ok(NoExplicitRate)
    }
}

impl ExplicitRateAlgorithm for BinaryMarking {
    const NAMES: &'static [&'static str] = &["binary"];
    const QUEUE_AT_RM: bool = true;
    const KEYS: &'static [(&'static str, &'static [&'static str])] =
        &[("binary_thresholds", &["binary"]), ("ni_threshold", &["binary"])];

    /// `binary_thresholds = [high, low]` is required; `ni_threshold` is optional (no NI
    /// marking without it).
    fn read<K: Keys>(_name: &str, keys: &K) -> Result<Self, K::Error> {
        let key = "binary_thresholds";
        let thresholds = keys.cell_list(key)?.ok_or_else(|| keys.missing(key))?;
        let [high, low] = thresholds[..] else {
            return Err(keys.key_error(key, "give [high, low] queue thresholds".into()));
        };
        if low > high {
            return Err(keys.key_error(key, "the low threshold is above the high one".into()));
        }
        let cells = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let ni_cells = keys.cells("ni_threshold")?.map(cells);
        Ok(BinaryMarking { high_cells: cells(high), low_cells: cells(low), ni_cells, congested: false })
    }

    #[inline]
    fn on_forward_rm(&mut self, context: &RmContext, _rm: &mut RmCell) {
        self.update(context.queue_cells);
    }

    #[inline]
    fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        if self.update(context.queue_cells) {
            rm.ci = true;
        } else if self.ni_cells.is_some_and(|n| context.queue_cells > n) {
            rm.ni = true;
        }
    }
}

/// A boxed algorithm (kept out of the port's record) is the algorithm.
impl<A: ExplicitRateAlgorithm> ExplicitRateAlgorithm for Box<A> {
    const NAMES: &'static [&'static str] = A::NAMES;
    const KEYS: &'static [(&'static str, &'static [&'static str])] = A::KEYS;
    const QUEUE_AT_RM: bool = A::QUEUE_AT_RM;

    fn read<K: Keys>(name: &str, keys: &K) -> Result<Self, K::Error> {
        A::read(name, keys).map(Box::new)
    }

    fn report_name(&self) -> &'static str {
        (**self).report_name()
    }

    #[inline(always)]
    fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        (**self).on_forward_rm(context, rm);
    }

    #[inline(always)]
    fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        (**self).on_backward_rm(context, rm);
    }

    #[inline(always)]
    fn on_interval(&mut self, load: &IntervalLoad) {
        (**self).on_interval(load);
    }
}

/// Declares [`ExplicitRate`], one variant per algorithm.
macro_rules! explicit_rate_algorithms {
    ($($variant:ident($t:ty)),+ $(,)?) => {
        /// A port's explicit-rate algorithm.
        #[derive(Clone, Debug)]
        pub enum ExplicitRate {
            $($variant($t),)+
        }

        /// Every name `explicit_rate = "..."` takes, in the table's order.
        pub const EXPLICIT_RATE_NAMES: &[&[&str]] = &[$(<$t as ExplicitRateAlgorithm>::NAMES,)+];

        /// Every algorithm's own keys, each with the names that take it, in the table's order.
        pub const EXPLICIT_RATE_KEYS: &[&[(&str, &[&str])]] = &[$(<$t as ExplicitRateAlgorithm>::KEYS,)+];

        impl ExplicitRate {
            /// The algorithm `explicit_rate = name` names, read from a switch's keys (None for
            /// a name no algorithm takes).
            pub fn read<K: Keys>(name: &str, keys: &K) -> Option<Result<Self, K::Error>> {
                $(if <$t as ExplicitRateAlgorithm>::NAMES.contains(&name) {
                    return Some(<$t as ExplicitRateAlgorithm>::read(name, keys).map(Self::$variant));
                })+
                None
            }

            /// The algorithm's name for reports.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant(a) => a.report_name(),)+
                }
            }

            /// Whether the algorithm reads the port's queue when an RM cell crosses.
            pub fn queue_at_rm(&self) -> bool {
                match self {
                    $(Self::$variant(_) => <$t as ExplicitRateAlgorithm>::QUEUE_AT_RM,)+
                }
            }

            /// A forward RM cell crosses the port.
            #[inline]
            pub fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
                match self {
                    $(Self::$variant(a) => a.on_forward_rm(context, rm),)+
                }
            }

            /// A backward RM cell of a VC crossing the port passes the port's switch on its way
            /// back to the source.
            #[inline]
            pub fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
                match self {
                    $(Self::$variant(a) => a.on_backward_rm(context, rm),)+
                }
            }

            /// An averaging interval ended.
            #[inline]
            pub fn on_interval(&mut self, load: &IntervalLoad) {
                match self {
                    $(Self::$variant(a) => a.on_interval(load),)+
                }
            }
        }
    };
}

explicit_rate_algorithms! {
    None(NoExplicitRate),
    Erica(Box<Erica>),
    Binary(BinaryMarking),
}

impl Default for ExplicitRate {
    fn default() -> Self {
        Self::None(NoExplicitRate)
    }
}

impl ExplicitRate {
    pub fn erica(config: EricaConfig) -> Self {
        Self::Erica(Box::new(Erica::new(config)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::rm::{AbrRate, RmDirection};

    #[test]
    fn none_leaves_rm_cells_and_itself_unchanged() {
        let mut er = ExplicitRate::default();
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
        assert!(matches!(er, ExplicitRate::None(_)));
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
