//! Which fast path applies where: decided once, before the run (and again when captures
//! open), so that the run reads one field per port instead of testing conditions per cell.
//!
//! Every fast path is exact: it gives every measure the plain events give, only with fewer
//! events (so the event count and the trace hash differ). [`SimOptions::reference`] turns them
//! all off — every cell by events — and the differential test in `tests/fast_paths.rs` runs
//! every built-in and random scenarios both ways, with each fast path alone and all together.
//!
//! - **Analytic ports**: a single-FIFO port puts a cell on the wire when it arrives, with the
//!   start time its queue gives it, so it needs no events (`Network::arrive`); so does a
//!   drop-tail packet FIFO on a link with a delay (`Network::packet_arrive`).
//! - **Carrying ahead**: a link whose far end hears only from it hands its cells over at once
//!   (`carry`); the last link of ABR VCs hands over their data cells (`carry`, data only).
//! - **Run admission**: a frame's cells reaching an adapter that only paces are admitted in one
//!   step (`Network::arrive_run`); the data cells an ABR end system sends ahead pass its idle
//!   adapter in runs, each at its own opportunity (`Network::abr_send_data_run`).
//! - **Burst hand-off**: an on/off source's burst is handed whole to an idle adapter paced at
//!   the source's rate (`Network::hand_over_burst`).
//! - **ABR pacing ahead**: an ABR end system alone on its adapter sends the in-rate cells whose
//!   opportunities come before any feedback can reach it, at once (`Network::abr_send_ahead`).
//! - **Queues ahead**: a port with queues makes its departures without `PortFree` events, each
//!   when the next event that meets the port comes, or a fan-in group's guard for a target
//!   carried ahead (`queues_ahead`).
//! - **Fan-in groups**: the pipes that lead to one port keep their heads in order among
//!   themselves, with one entry in the event queue for the earliest (`fan_in`). It saves no
//!   event: it saves the event heap's work, and keeps the event count and the trace hash.
//! - **Direct crossing**: where the plan has answered a port's questions once (a fan-in group's
//!   target, crossed in one step; every switch port carried ahead whole, analytic or with
//!   queues: `Onward`; over ABR, the last port of ABR VCs and the port carried into it:
//!   `OverAbr`), each cell takes the general path's steps with those answers known
//!   (`fan_in_direct`). It keeps the event count and the trace hash too.
//! - **Trains**: a frame or a burst put whole on an adapter's link that no fan-in group takes
//!   goes as a train, as on a group's links, its cells made as each reaches the pipe's head by
//!   its own `PipeHead` event (`fan_in`, `plan_trains`). It keeps the event count and the trace
//!   hash too.

use super::cell_path::{Onward, OverAbr};
use super::fan_in::FanInSlot;
use super::{Network, PortPath};

/// What the plan decided for one port: how it runs and which fast paths it takes. Kept at the
/// head of the port's record, which every cell reaching the port reads anyway (in a table of
/// its own, each hop would read one more cache line).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct PortPlan {
    pub(super) path: PortPath,
    /// The far end hears only from this link: cells are carried across at once (see `carry`;
    /// on an `abr_last_link`, its data cells).
    pub(super) carry: bool,
    /// The last link of ABR VCs whose data cells may be carried (see `carry`, "Data only"):
    /// carried, it carries those alone, its RM cells going by the pipe's events; carried or not,
    /// an RM cell's `PipeHead` event is last in its instant, by rule.
    pub(super) abr_last_link: bool,
    /// A link into the last switch ports of its VCs, which it alone feeds, one at least the last
    /// of ABR VCs (see `as_of`): carried or not, each cell's `PipeHead` event is last in its
    /// instant, by rule; carried, each RM cell's step at the explicit-rate algorithm takes an
    /// `RmStep` event, last in its instant.
    pub(super) arrivals_last: bool,
    /// The link of an ABR end system's adapter, or of a port whose pipe may empty between its
    /// slots (`Port::pipe_may_empty_between_slots`: a paced adapter): carried or not, each
    /// cell's `PipeHead` event is late in its instant, by rule (after the events placed in
    /// order, before those placed last; among such links' heads by link), so that cells put on
    /// the link before their start (sent ahead of their opportunities, a burst or a frame
    /// handed over, a cell held for its slot) meet the next port's other arrivals of their
    /// instant in the order their events would.
    pub(super) heads_late: bool,
    /// The last port of ABR VCs that such a link is carried into: it answers its readers as of
    /// their instant.
    pub(super) as_of: bool,
    /// An analytic port answering as of an instant, or a switch port carried to the last of ABR
    /// VCs or into such ports, known (see `OverAbr`): its cells leave the general path.
    pub(super) over_abr: OverAbr,
    /// Whole bursts are handed over (see [`Network::hand_over_burst`]).
    pub(super) burst_handoff: bool,
    /// A frame's cells are admitted at once (see [`Network::arrive_run`]).
    pub(super) paces_only: bool,
    /// The fan-in group this link's pipe belongs to (see `fan_in`).
    pub(super) fan_in: Option<FanInSlot>,
    /// The fan-in group that keeps this port's `PortFree` events among its heads.
    pub(super) free_in_group: Option<u32>,
    /// A port with queues whose departures wait for the next event that meets the port (see
    /// `queues_ahead`).
    pub(super) defers: bool,
    /// What is known of where the port sends its cells (a switch port carried ahead whole,
    /// analytic or with queues: see `fan_in_direct`).
    pub(super) onward: Onward,
}

impl PortPlan {
    /// Whether a cell of `kind` at the head of this link's pipe has its `PipeHead` event last in
    /// its instant, by rule (`abr_last_link`, `arrivals_last`), rather than in order.
    #[inline(always)]
    pub(super) fn head_last(&self, kind: celltrain_atm::cell::CellKind) -> bool {
        self.abr_last_link && kind == celltrain_atm::cell::CellKind::Rm || self.arrivals_last
    }

    /// Before any plan: by events, with no fast path.
    pub(super) const NONE: PortPlan = PortPlan {
        path: PortPath::Queues,
        carry: false,
        abr_last_link: false,
        arrivals_last: false,
        heads_late: false,
        as_of: false,
        over_abr: OverAbr::No,
        burst_handoff: false,
        paces_only: false,
        fan_in: None,
        free_in_group: None,
        defers: false,
        onward: Onward::General,
    };
}

/// What a port's routes agree on, seen route by route (the port that feeds it, the port its
/// cells go to next): nothing seen yet, one value, or more than one.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Sole<T> {
    Unseen,
    One(T),
    Many,
}

impl<T: Copy + PartialEq> Sole<T> {
    /// Takes in what one more route says (`Many` when that route alone already has several).
    pub(super) fn meet(&mut self, seen: Sole<T>) {
        *self = if *self == Sole::Unseen || *self == seen { seen } else { Sole::Many };
    }
}

/// The fast paths a run may take (all by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    pub analytic_ports: bool,
    pub carry_ahead: bool,
    pub run_admission: bool,
    pub burst_handoff: bool,
    pub abr_ahead: bool,
    /// Fan-in groups: the pipes that lead to one port share one entry in the event queue.
    /// Unlike the others, this one changes neither the event count nor the trace hash.
    pub fan_in: bool,
    /// A fan-in group whose target sends every cell straight on to its destination hands each
    /// head through the target in one step; every switch port carried ahead whole sends its
    /// cells on with the same answers known (see `fan_in_direct`). Exact to the event count and trace
    /// hash, as `fan_in`.
    pub direct_crossing: bool,
    /// A port with queues sends without `PortFree` events while its link carries cells, or,
    /// carried ahead as a fan-in group's target, while its cells can be carried: each departure
    /// is made when the next event that meets the port comes (`queues_ahead`).
    pub queues_ahead: bool,
    /// A frame or a burst put whole on a link of no fan-in group goes as a train (its cells made
    /// one at a time as they reach the far end), as on a group's links; each head keeps its
    /// `PipeHead` event. Exact to the event count and trace hash, as `fan_in`.
    pub trains: bool,
    /// A link into the last ports of its VCs, each fed by it alone and one at least the last of
    /// ABR VCs, is carried, the ports of ABR VCs answering their readers as of their instant
    /// (`as_of`). The event count goes down.
    pub as_of: bool,
    /// A packet link into a router port that other links feed too is carried when nothing can
    /// reach that port from them before its packet does (`horizon`). The event count goes down.
    pub horizons: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            analytic_ports: true,
            carry_ahead: true,
            run_admission: true,
            burst_handoff: true,
            abr_ahead: true,
            fan_in: true,
            direct_crossing: true,
            queues_ahead: true,
            trains: true,
            as_of: true,
            horizons: true,
        }
    }
}

impl SimOptions {
    /// The fast paths by name (`celltrain run --without NAME`): each with what it does and its
    /// switch.
    #[allow(clippy::type_complexity)]
    pub const FAST_PATHS: [(&'static str, &'static str, fn(&mut SimOptions) -> &mut bool); 11] = [
        ("analytic", "single-FIFO ports put each cell on the wire as it arrives, with no events", |o| {
            &mut o.analytic_ports
        }),
        ("carry", "links whose far end hears only from them hand their cells over at once", |o| &mut o.carry_ahead),
        (
            "runs",
            "a frame's cells reaching an adapter that only paces are admitted in one step (ABR's sent ahead too)",
            |o| &mut o.run_admission,
        ),
        ("bursts", "an on/off burst is handed whole to an idle adapter", |o| &mut o.burst_handoff),
        ("abr-ahead", "ABR end systems send the cells no feedback can change at once", |o| &mut o.abr_ahead),
        ("fan-in", "the pipes that lead to one port share one entry in the event queue (same events)", |o| {
            &mut o.fan_in
        }),
        ("direct", "a fan-in group hands each head through its target in one step, and carried switch ports send cells on, with the plan's answers known (same events)", |o| {
            &mut o.direct_crossing
        }),
        ("queues-ahead", "ports with queues send without PortFree events", |o| &mut o.queues_ahead),
        (
            "trains",
            "a frame or burst put whole on a link of no fan-in group goes as a train (same events)",
            |o| &mut o.trains,
        ),
        (
            "as-of",
            "a link into the last ports of ABR VCs (and of other VCs beside) is carried, those ports answering their readers as of their instant",
            |o| &mut o.as_of,
        ),
        (
            "horizons",
            "a packet link into a router port that other links feed too is carried when nothing can reach the port from them first",
            |o| &mut o.horizons,
        ),
    ];

    /// These options with the fast path named `name` (one of [`FAST_PATHS`](Self::FAST_PATHS))
    /// off, or none if there is no such fast path.
    pub fn without(self, name: &str) -> Option<Self> {
        let (_, _, switch) = Self::FAST_PATHS.iter().find(|(n, ..)| *n == name)?;
        let mut o = self;
        *switch(&mut o) = false;
        Some(o)
    }

    /// No fast path: every cell by events, the reference the fast paths are tested against.
    pub const fn reference() -> Self {
        SimOptions {
            analytic_ports: false,
            carry_ahead: false,
            run_admission: false,
            burst_handoff: false,
            abr_ahead: false,
            fan_in: false,
            direct_crossing: false,
            queues_ahead: false,
            trains: false,
            as_of: false,
            horizons: false,
        }
    }
}

impl Network {
    /// Chooses the fast paths (before the run: a plan cannot change under cells in flight).
    ///
    /// # Panics
    /// If the run has started.
    pub fn set_options(&mut self, options: SimOptions) {
        assert_eq!(self.tally.events, 0, "fast paths are chosen before the run");
        self.options = options;
        self.plan();
    }

    pub fn options(&self) -> SimOptions {
        self.options
    }

    /// Whether cells may be carried ahead (see [`set_options`](Self::set_options)).
    pub fn set_carry_ahead(&mut self, on: bool) {
        self.set_options(SimOptions { carry_ahead: on, ..self.options });
    }

    /// Whether a frame's cells may be admitted to an adapter at once (see
    /// [`set_options`](Self::set_options)).
    pub fn set_run_admission(&mut self, on: bool) {
        self.set_options(SimOptions { run_admission: on, ..self.options });
    }

    /// Which links' heads are late in their instant, by rule, with the options off as on (see
    /// `PortPlan::heads_late`): an ABR end system's adapter's, and a paced port's.
    fn plan_heads_late(&mut self) {
        for port in &mut self.ports {
            port.plan.heads_late = port.packets.is_none() && port.pipe_may_empty_between_slots();
        }
        for end in &self.abr.ends {
            self.ports[self.vcs[end.vc.index()].route[0].0.index()].plan.heads_late = true;
        }
    }

    /// Decides, per port, which fast paths apply.
    pub(super) fn plan(&mut self) {
        let o = self.options;
        for port in &mut self.ports {
            // A captured link writes each cell's packet when the cell starts: by events.
            // So does a link whose queue's changes are recorded: the fast paths would skip steps.
            // A port that marks EFCI changes the cells it holds: by events too.
            let analytic = o.analytic_ports
                && !port.link.is_captured()
                && port.queue.changes().is_none()
                && !port.queue.marks_efci();
            port.plan.path = match (port.facts.single_fifo && port.packets.is_none(), analytic) {
                (true, true) => PortPath::Analytic,
                (true, false) => PortPath::FifoEvents,
                (false, _) => PortPath::Queues,
            };
            // A packet FIFO runs analytically on a link with a delay: a packet put on the link
            // before its start then finds the one before it still there at that start, so that
            // its `PipeHead` event is scheduled as by events (see `packet_arrive_analytic`; a
            // carried link is the exception, see `carry`).
            let delayed = !port.link.delay().is_zero();
            if let Some(q) = &mut port.packets {
                // (Planned before the run: a port that changed its path mid-run would leave
                // the packets it had started analytically uncounted.)
                debug_assert!(q.held() == q.len(), "a packet port planned with packets given starts");
                // A shaped port's packets wait for tokens as well as for the line: by events.
                // (A policer acts where the link delivers, after the pipe: any path suits it.)
                q.plan_analytic(analytic, delayed);
            }
        }
        self.plan_carry();
        self.plan_as_of();
        for port in &mut self.ports {
            let plain = port.plainly_analytic();
            port.plan.paces_only = o.run_admission && plain && !port.plan.carry;
            port.plan.burst_handoff = o.burst_handoff && plain && port.facts.may_take_bursts;
        }
        self.plan_heads_late();
        self.plan_horizons();
        self.plan_abr_ahead();
        self.plan_fan_in();
        self.plan_queues_ahead();
        self.plan_onward();
        self.refresh_carry_bound();
    }
}

#[cfg(test)]
mod tests {
    use super::SimOptions;

    /// Each name turns off one fast path of its own, an unknown name none, and all of them
    /// together leave the reference.
    #[test]
    fn each_fast_path_is_turned_off_by_its_name() {
        let all = SimOptions::default();
        let mut off = all;
        for (name, ..) in SimOptions::FAST_PATHS {
            let one = all.without(name).expect("a fast path's name");
            assert_ne!(one, all, "{name} turned nothing off");
            assert_ne!(off.without(name), Some(off), "{name} turns off what another name did");
            off = off.without(name).unwrap();
        }
        assert_eq!(off, SimOptions::reference());
        assert_eq!(all.without("carry-ahead"), None);
    }
}
