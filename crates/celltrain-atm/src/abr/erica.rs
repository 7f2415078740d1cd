//! ERICA and ERICA+ (Kalyanaraman, Jain, Fahmy, Goyal, Vandalore, "The ERICA switch algorithm
//! for ABR traffic management in ATM networks", IEEE/ACM Transactions on Networking 8(1),
//! 2000): per output port, a load factor and a fair share measured over each averaging
//! interval, and per backward RM cell an explicit rate that moves every VC towards its max-min
//! fair share. ERICA+ replaces the constant target utilisation by a function of the queue,
//! which over-allocates while the queue is below its target and drains it above.

use super::explicit_rate::{ExplicitRateAlgorithm, IntervalLoad, RmContext};
use super::rm::{AbrRate, RmCell};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::Keys;

/// ERICA+'s queue control: the target capacity is f(Q) times the ABR capacity, with
/// f(Q) = b·Q0 / ((b − 1)·Q + Q0) up to the target queue Q0 (from b down to 1) and
/// max(QDLF, a·Q0 / ((a − 1)·Q + Q0)) above it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueControl {
    /// Q0, cells.
    pub target_queue_cells: f64,
    pub a: f64,
    pub b: f64,
    /// Queue drain limit factor: f never falls below it.
    pub qdlf: f64,
}

impl QueueControl {
    /// a = 1.15, b = 1.05, QDLF = 0.5, as commonly used with ERICA+.
    pub fn with_target(target_queue_cells: f64) -> Self {
        QueueControl { target_queue_cells, a: 1.15, b: 1.05, qdlf: 0.5 }
    }

    /// f(Q) for a queue of `queue_cells`.
    pub fn factor(&self, queue_cells: f64) -> f64 {
        let q0 = self.target_queue_cells;
        if q0 <= 0.0 {
            return if queue_cells > 0.0 { self.qdlf } else { self.b };
        }
        if queue_cells <= q0 {
            self.b * q0 / ((self.b - 1.0) * queue_cells + q0)
        } else {
            (self.a * q0 / ((self.a - 1.0) * queue_cells + q0)).max(self.qdlf)
        }
    }
}

/// ERICA's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EricaConfig {
    /// Target utilisation U of the ABR capacity (ERICA; ERICA+ uses its queue control instead).
    pub target_utilization: f64,
    /// The band around a load factor of 1 treated as "not overloaded".
    pub delta: f64,
    /// ERICA+: the queue-dependent target.
    pub queue_control: Option<QueueControl>,
    /// A VC counts as active while its last forward RM cell is this recent.
    pub activity_window: SimDuration,
}

impl EricaConfig {
    /// ERICA with U = 0.9 and δ = 0.1.
    pub fn erica() -> Self {
        EricaConfig {
            target_utilization: 0.9,
            delta: 0.1,
            queue_control: None,
            activity_window: SimDuration::from_millis(10),
        }
    }

    /// ERICA+ steering the queue towards `target_queue_cells`.
    pub fn erica_plus(target_queue_cells: f64) -> Self {
        EricaConfig { queue_control: Some(QueueControl::with_target(target_queue_cells)), ..Self::erica() }
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(self.target_utilization > 0.0 && self.target_utilization <= 1.0) {
            return Err(format!("target utilisation must be in (0, 1], not {}", self.target_utilization));
        }
        if !(self.delta >= 0.0 && self.delta.is_finite()) {
            return Err("delta must be at least 0".into());
        }
        if let Some(q) = &self.queue_control {
            if !(q.target_queue_cells >= 0.0 && q.a > 1.0 && q.b > 1.0 && q.qdlf > 0.0 && q.qdlf <= 1.0) {
                return Err("queue control needs a target queue ≥ 0, a > 1, b > 1, 0 < QDLF ≤ 1".into());
            }
        }
        if self.activity_window.is_zero() {
            return Err("activity window must be positive".into());
        }
        Ok(())
    }
}

/// What ERICA measured over the last averaging interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EricaState {
    /// Target ABR capacity, cells/s.
    pub target: f64,
    /// Load factor z = input rate / target (infinite with no capacity).
    pub load_factor: f64,
    pub fair_share: f64,
    pub active_vcs: u32,
    pub max_alloc_previous: f64,
    pub max_alloc_current: f64,
}

/// ERICA at one output port.
#[derive(Clone, Debug)]
pub struct Erica {
    config: EricaConfig,
    /// Per VC slot at the port: the CCR of its last forward RM cell (cells/s) and when it came.
    ccr: Vec<(f64, Option<SimTime>)>,
    state: EricaState,
}

impl Erica {
    pub fn new(config: EricaConfig) -> Self {
        Erica { config, ccr: Vec::new(), state: EricaState::default() }
    }

    pub fn config(&self) -> &EricaConfig {
        &self.config
    }

    pub fn state(&self) -> &EricaState {
        &self.state
    }

    /// A forward RM cell of the VC in `slot` crosses the port: its CCR is noted.
    pub fn note_ccr(&mut self, now: SimTime, slot: u32, rm: &RmCell) {
        let i = slot as usize;
        if self.ccr.len() <= i {
            self.ccr.resize(i + 1, (0.0, None));
        }
        self.ccr[i] = (rm.ccr.cells_per_sec(), Some(now));
    }

    /// An averaging interval of `interval` ended at `now`: `abr_cells` ABR cells arrived in
    /// it, the ABR capacity is `abr_capacity` cells/s and `queue_cells` cells wait.
    pub fn end_interval(
        &mut self,
        now: SimTime,
        interval: SimDuration,
        abr_cells: u64,
        abr_capacity: f64,
        queue_cells: u32,
    ) {
        let factor = match &self.config.queue_control {
            Some(q) => q.factor(f64::from(queue_cells)),
            None => self.config.target_utilization,
        };
        let target = (factor * abr_capacity).max(0.0);
        let input = abr_cells as f64 / interval.as_secs_f64();
        let window = self.config.activity_window;
        let active =
            self.ccr.iter().filter(|(_, seen)| seen.is_some_and(|t| now.saturating_since(t) <= window)).count().max(1)
                as u32;
        self.set_interval(target, input, active);
    }

    /// The end of an interval with the measures given directly (the test vectors' form).
    pub fn set_interval(&mut self, target: f64, input_rate: f64, active_vcs: u32) {
        let s = &mut self.state;
        s.target = target;
        s.load_factor = if target > 0.0 { input_rate / target } else { f64::INFINITY };
        s.active_vcs = active_vcs.max(1);
        s.fair_share = target / f64::from(s.active_vcs);
        s.max_alloc_previous = s.max_alloc_current;
        s.max_alloc_current = s.fair_share;
    }

    /// The explicit rate for a VC whose current cell rate is `ccr` cells/s.
    pub fn explicit_rate(&mut self, ccr: f64) -> f64 {
        let s = &mut self.state;
        let vc_share = if s.load_factor.is_finite() && s.load_factor > 0.0 { ccr / s.load_factor } else { 0.0 };
        let mut er = if s.load_factor > 1.0 + self.config.delta {
            s.fair_share.max(vc_share)
        } else {
            s.fair_share.max(vc_share).max(s.max_alloc_previous)
        };
        s.max_alloc_current = s.max_alloc_current.max(er);
        // A slow VC is not lifted past the fair share at once. (Compared in the RM cells' rate
        // format: a VC sent exactly the fair share carries it truncated in CCR, and compared
        // with the exact share it would count as slow for ever.)
        let fair_share_as_sent = AbrRate::from_cells_per_sec(s.fair_share).cells_per_sec();
        if er > s.fair_share && ccr < fair_share_as_sent {
            er = s.fair_share;
        }
        er.min(s.target)
    }

    /// A backward RM cell of the VC in `slot` crosses the port on its way back: its ER is
    /// lowered to the VC's explicit rate.
    pub fn limit_backward(&mut self, slot: u32, rm: &mut RmCell) {
        let ccr = match self.ccr.get(slot as usize) {
            Some(&(ccr, Some(_))) => ccr,
            _ => rm.ccr.cells_per_sec(),
        };
        let er = self.explicit_rate(ccr);
        rm.limit_er(AbrRate::from_cells_per_sec(er));
    }
}

impl ExplicitRateAlgorithm for Erica {
    const NAMES: &'static [&'static str] = &["erica", "erica+"];
    const KEYS: &'static [(&'static str, &'static [&'static str])] =
        &[("target_queue", &["erica+"]), ("target_utilization", &["erica", "erica+"])];

    /// ERICA+ needs its target queue; the target utilisation U defaults to 0.9.
    fn read<K: Keys>(name: &str, keys: &K) -> Result<Self, K::Error> {
        let mut config = if name == "erica+" {
            let q = keys
                .cells("target_queue")?
                .ok_or_else(|| keys.key_error("explicit_rate", "erica+ needs target_queue".into()))?;
            EricaConfig::erica_plus(q as f64)
        } else {
            EricaConfig::erica()
        };
        if let Some(u) = keys.number("target_utilization")? {
            config.target_utilization = u;
        }
        config.validate().map_err(|e| keys.key_error("target_utilization", e))?;
        Ok(Erica::new(config))
    }

    fn report_name(&self) -> &'static str {
        Self::NAMES[usize::from(self.config().queue_control.is_some())]
    }

    #[inline]
    fn on_forward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        self.note_ccr(context.now, context.slot, rm);
    }

    #[inline]
    fn on_backward_rm(&mut self, context: &RmContext, rm: &mut RmCell) {
        self.limit_backward(context.slot, rm);
    }

    #[inline]
    fn on_interval(&mut self, load: &IntervalLoad) {
        self.end_interval(load.now, load.interval, load.input_cells, load.abr_capacity, load.queue_cells);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-6 * b.abs().max(1.0)
    }

    /// Reference test vector 4.d.
    #[test]
    fn erica_rates_in_overload_and_underload() {
        let mut e = Erica::new(EricaConfig::erica());
        e.set_interval(90_000.0, 120_000.0, 3);
        assert!(close(e.state().load_factor, 4.0 / 3.0) && close(e.state().fair_share, 30_000.0));
        let ers: Vec<f64> = [60_000.0, 40_000.0, 20_000.0].iter().map(|&c| e.explicit_rate(c)).collect();
        assert!(close(ers[0], 45_000.0) && close(ers[1], 30_000.0) && close(ers[2], 30_000.0), "{ers:?}");
        e.set_interval(90_000.0, 105_000.0, 3);
        let ers: Vec<f64> = [45_000.0, 30_000.0, 30_000.0].iter().map(|&c| e.explicit_rate(c)).collect();
        assert!(close(ers[0], 38_571.428_571) && close(ers[1], 30_000.0) && close(ers[2], 30_000.0), "{ers:?}");
        // Underload, with MaxAllocPrevious = 30,000.
        let mut e = Erica::new(EricaConfig::erica());
        e.set_interval(90_000.0, 0.0, 3);
        e.set_interval(90_000.0, 60_000.0, 3);
        assert!(close(e.state().max_alloc_previous, 30_000.0));
        let ers: Vec<f64> = [30_000.0, 20_000.0, 10_000.0].iter().map(|&c| e.explicit_rate(c)).collect();
        assert!(close(ers[0], 45_000.0) && close(ers[1], 30_000.0) && close(ers[2], 30_000.0), "{ers:?}");
    }

    /// Reference test vector 4.e, in cells: Q0 stands for T0 = 0.5 ms.
    #[test]
    fn erica_plus_queue_factor() {
        let q = QueueControl::with_target(1_000.0);
        for (queue, f) in [
            (0.0, 1.05),
            (500.0, 1.02439),
            (1_000.0, 1.0),
            (2_000.0, 0.88462),
            (4_000.0, 0.71875),
            (10_000.0, 0.5),
            (40_000.0, 0.5),
        ] {
            assert!((q.factor(queue) - f).abs() < 5e-6, "f({queue}) = {} not {f}", q.factor(queue));
        }
    }

    /// A VC at exactly the fair share (as the rate format carries it) is not held there.
    #[test]
    fn a_vc_at_the_fair_share_may_grow() {
        let mut e = Erica::new(EricaConfig::erica());
        e.set_interval(90_000.0, 0.0, 3);
        e.set_interval(90_000.0, 60_000.0, 3);
        let at_share = AbrRate::from_cells_per_sec(30_000.0).cells_per_sec();
        assert!(at_share < 30_000.0, "the format truncates");
        assert!(e.explicit_rate(at_share) > 40_000.0, "underloaded: the VC may grow past the share");
        assert!(close(e.explicit_rate(at_share * 0.99), 30_000.0), "a slower VC is held to the share");
    }

    #[test]
    fn er_is_only_lowered_and_capped_at_the_target() {
        let mut e = Erica::new(EricaConfig::erica());
        e.set_interval(90_000.0, 10_000.0, 1);
        let mut rm = RmCell::forward(
            AbrRate::from_cells_per_sec(50_000.0),
            AbrRate::from_cells_per_sec(40_000.0),
            AbrRate::ZERO,
        );
        e.limit_backward(0, &mut rm);
        assert_eq!(rm.er, AbrRate::from_cells_per_sec(50_000.0), "ERICA never raises ER");
        let mut rm = RmCell::forward(AbrRate::MAX, AbrRate::from_cells_per_sec(80_000.0), AbrRate::ZERO);
        e.limit_backward(0, &mut rm);
        assert_eq!(rm.er, AbrRate::from_cells_per_sec(90_000.0), "capped at the target");
    }

    #[test]
    fn active_vcs_are_those_heard_from_recently() {
        let mut e = Erica::new(EricaConfig::erica());
        let rm = RmCell::forward(AbrRate::MAX, AbrRate::from_cells_per_sec(1_000.0), AbrRate::ZERO);
        let t = |ms| SimTime::ZERO + SimDuration::from_millis(ms);
        e.note_ccr(t(0), 0, &rm);
        e.note_ccr(t(15), 3, &rm);
        e.note_ccr(t(18), 5, &rm);
        e.end_interval(t(20), SimDuration::from_millis(1), 90, 100_000.0, 0);
        assert_eq!(e.state().active_vcs, 2, "slot 0 was last heard 20 ms ago");
        assert!(close(e.state().fair_share, 45_000.0));
        assert!(close(e.state().load_factor, 1.0));
    }
}
