//! Direct crossing: a fan-in group hands each head through its target in one step; every switch
//! port carried ahead whole sends its cells on with the same answers known.
//!
//! A head handed out by a fan-in group takes the general cell path: `cross` asks whether the
//! cell is policed and where its VC goes next, `arrive` which way the port runs, the analytic
//! port whether an adapter's rules time it, `start_cell` whether the cell is its VC's first,
//! whether an AAL5 frame ends on a captured link, whether the far end is carried, and `carry`
//! what kind of cell it is and whether its VC ends there. Where the group's target is an
//! analytic FIFO switch port carried ahead, with cells that are not policed on the way in, the
//! plan has answered all of these once for the group: the target is the last port of every VC
//! that reaches it (the on/off multiplexer of peer twin `a`, the EPD port of twin `b` in front
//! of its TCP receiver), or each goes on to its next port (`Through`: the first switch of
//! BKD97's TCP topologies, T1 to E4), from whose far end the cell takes the general path.
//! Each head then takes the general path's own steps (`arrive_analytic_at`, `start_cell_as`,
//! `carry_as`), monomorphised for a port of which those answers are known ([`Direct`]): the
//! same bodies with the questions taken out, so nothing about the run changes, not even the
//! event count or the trace hash. A cell that may not be carried yet (an observation of the
//! network comes first) goes into the pipe, as on the general path.
//!
//! The gain is more than the questions skipped: the general path, one body for every kind of
//! port and cell, keeps little in registers across it. Twin `a` runs about a quarter faster
//! (benches/README.md). (Until the fifteenth session of issue 37 the crossing restated those
//! steps in a body of its own; through the general path's bodies, the twins' instructions
//! moved by less than 0.01 %.)
//!
//! Where only ATM-layer cells cross and the target is a single FIFO under tail drop with no
//! per-VC counts or change trace (twin `a`'s multiplexer), a group goes one step further while
//! its heads are its trains' cells (`Network::cross_lifted`, in `fan_in::lifted`): it lifts the
//! target's counts out of the port into registers
//! ([`TailDropFifo`](celltrain_atm::port::TailDropFifo)), holds each part of the network the
//! cells touch by a reference of its own and the counters it bumps in locals, and puts all back
//! when a head it cannot take this way comes (a pipe's cell, a train's last cell, a cell that
//! may not be carried yet) or the turn ends. Each cell runs the same steps in the same order as
//! above. Twin `a` with 20 sources: a quarter less CPU a cell.
//!
//! Where AAL5 cells cross too (twin `b`), the same loop runs, the other way (`LiftedFrames`
//! where twin `a`'s is `LiftedCells`: one body, monomorphised, each way saying only what it
//! takes, admits, loses and lands), while each head is an ATM-layer cell or a frame's inner cell
//! (not its last, of a VC with no reassembly timer), through a single FIFO under any policy that
//! reads no per-VC counts: the policy (EPD's frame state) is lifted out with the counts
//! ([`LiftedFifo`](celltrain_atm::port::LiftedFifo)). A cell that is lost, or settles a frame
//! whose end was lost, ends the run; its last step goes by the general path once everything
//! is back. Twin `b`: 4 % fewer instructions (3 % since the two loops are one, benches/HISTORY.md).
//!
//! The same answers serve every switch port carried ahead whole with no capture (`plan_onward`;
//! its far end hears from it alone, and no ABR VC crosses it), analytic or with queues: a
//! cell's steps there (`start_cell_as`, `carry_as`, and on at the next port
//! `arrive_analytic_at`) need not ask where it goes: to its end there (`Onward::End`), or on to
//! its next port (`Through`), known too where that is the last of every VC on it
//! (`ThroughToEnd`). A cell arriving at such an analytic port (`arrive_analytic_known`), or
//! leaving such a port with queues (`transmit_as`: by its event, made late by `queues_ahead`,
//! or among a fan-in group's heads alike), takes those steps monomorphised. The multiplexers
//! with queues under UBR (A-series, G2's and G4's GFR ports, E1's delay-priority port) and the
//! analytic ports after them, and every chain of FIFO ports: G2 and A3 14-16 % fewer
//! instructions per cell-hop, the null pipeline 12 %; runs over ABR, whose ports are not
//! carried whole, pay 0.3 % for the test (benches/HISTORY.md, seventeenth session).

use super::cell_path::{Direct, Known, Onward, OverAbr};
use super::{Adaptation, Network, PortPath};
use celltrain_atm::cell::Cell;
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::PortId;

/// How a fan-in group hands its heads to its target: by the general cell path, or each in one
/// step, landed at the target's far end where only ATM-layer cells cross (peer twin `a`) or AAL5
/// cells too (twin `b`), or taken on from there (`Through`, `ThroughToEnd`): each way its own
/// loop, so that the one of ATM-layer cells tests no cell's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Crossing {
    General,
    Cells,
    Frames,
    /// Through a target carried on to the next port of every VC that crosses it (not their
    /// last): the cells go on from there by the general path.
    Through,
    /// As `Through`, each VC's next port its last, which the plan has answered the same
    /// questions for (`Direct` there too).
    ThroughToEnd,
}

impl Network {
    /// How a fan-in group into `q` hands its heads out: in one step through `q` when `q` runs
    /// analytically, with no adapter rules, no capture and no burst handed to it, is carried
    /// ahead (so its far end hears only from it: see `plan_carry`; no ABR VC crosses it then).
    /// Where some VC goes on past `q`, each head goes on from the far end by the general path,
    /// policed where it enters `q` if its VC is (`Through`); where `q` is the last port of
    /// every VC on it and none is policed there, each head lands at its destination in that
    /// step (`Cells`, `Frames`: the lifted loops police none).
    pub(super) fn crosses_directly(&self, q: PortId) -> Crossing {
        let target = &self.ports[q.index()];
        let plain = self.options.direct_crossing && self.plainly_carried(q);
        // (A carried link is no group's member, so `q` keeps no start times by runs.)
        debug_assert!(!target.plan.carry || target.plan.fan_in.is_none());
        let hops = || self.hops_at(q);
        // (No ABR VC crosses a port carried whole: its destination turns RM cells around, so
        // its links are carried into it alone, and for data cells only: `abr_last_link`.)
        debug_assert!(!plain || hops().all(|(vc, _)| vc.category != ServiceCategory::Abr));
        if !plain {
            return Crossing::General;
        }
        match self.onward_of(q) {
            Onward::Through => Crossing::Through,
            Onward::ThroughToEnd => Crossing::ThroughToEnd,
            // (The lifted loops, which land the cells, police none.)
            _ if !hops().all(|(vc, h)| h != 1 || vc.policer.is_none()) => Crossing::General,
            _ if self.aal5_crosses(q) => Crossing::Frames,
            _ => Crossing::Cells,
        }
    }

    /// Where the cells of `q`, a port carried ahead that is no VC's first, go on to: `End` where
    /// `q` is the last port of every VC on it, else `Through`, or `ThroughToEnd` where each
    /// VC's next port is the last of every VC on it, crossed with its answers known too. (`q`
    /// is carried into that port, so it hears from `q` alone, is an analytic FIFO switch port
    /// with no capture, and is carried in turn: `plan_carry`.)
    fn onward_of(&self, q: PortId) -> Onward {
        let last_of_all = |q: PortId| self.hops_at(q).all(|(vc, h)| h + 1 == vc.route.len());
        if last_of_all(q) {
            return Onward::End;
        }
        let ends = |q2: PortId| {
            let port = &self.ports[q2.index()];
            debug_assert!(port.plainly_analytic() && port.plan.carry && !port.plan.burst_handoff);
            last_of_all(q2)
        };
        if self.hops_at(q).all(|(vc, h)| vc.route.get(h + 1).is_some_and(|&(q2, _)| ends(q2))) {
            Onward::ThroughToEnd
        } else {
            Onward::Through
        }
    }

    /// Each VC that crosses port `q`, with the index of `q` on its route.
    pub(super) fn hops_at(&self, q: PortId) -> impl Iterator<Item = (&super::Vc, usize)> + '_ {
        self.vcs.iter().filter_map(move |vc| Some((vc, vc.route.iter().position(|&(p, _)| p == q)?)))
    }

    /// Whether `q` has no adapter rules and no capture, and is carried ahead (whole, or for its
    /// data cells on the last link of ABR VCs): a port whose questions the plan may answer.
    fn answerable(&self, q: PortId) -> bool {
        let port = &self.ports[q.index()];
        !port.facts.adapter_rules && !port.link.is_captured() && port.plan.carry
    }

    /// Whether `q` is an analytic FIFO with no burst handed to it.
    fn plain_analytic(&self, q: PortId) -> bool {
        let port = &self.ports[q.index()];
        port.plainly_analytic() && !port.plan.burst_handoff && port.starts.handed().pending() == 0
    }

    /// Whether `q` is a port with queues (a cell port: packet mode's ports are planned apart).
    fn with_queues(&self, q: PortId) -> bool {
        let port = &self.ports[q.index()];
        port.plan.path == PortPath::Queues && port.packets.is_none()
    }

    /// Whether `q` is answerable and carried ahead whole (so its far end hears only from it, see
    /// `plan_carry`, and no ABR VC crosses it): analytic (`plainly_carried`) or with queues.
    fn carried_whole(&self, q: PortId) -> bool {
        let plan = &self.ports[q.index()].plan;
        self.answerable(q) && !plan.abr_last_link && !plan.arrivals_last
    }

    /// Whether `q` is an analytic FIFO carried ahead whole with no burst handed to it.
    fn plainly_carried(&self, q: PortId) -> bool {
        self.plain_analytic(q) && self.carried_whole(q)
    }

    /// Decides, for each switch port carried ahead whole with no capture (so no ABR VC crosses
    /// it), what is known of where it sends its cells (`onward_of`): an analytic FIFO's
    /// arrivals (`arrive_analytic_known`) and a port with queues' departures (`transmit_as`)
    /// then take the general path's steps with those answers known, as a group's heads cross a
    /// target directly. Not where an adapter's rules time the cells, nor at a VC's first port
    /// (where a cell's entry time is set). Over ABR (`OverAbr`), the same for an analytic port on
    /// the last link of ABR VCs, carried for their data (`End`), and for a port whose link is
    /// carried into such ports answering as of an instant (`ThroughToEnd`); a port answering as
    /// of an instant and not known so takes the general path's steps (`AsOf`).
    pub(super) fn plan_onward(&mut self) {
        let on = self.options.direct_crossing;
        let past_first = |net: &Self, p: PortId| net.hops_at(p).all(|(_, h)| h > 0);
        let abr_end: Vec<bool> = (0..self.ports.len())
            .map(|i| {
                let p = PortId::from_index(i);
                let last = self.ports[i].plan.abr_last_link;
                on && self.answerable(p) && self.plain_analytic(p) && last && past_first(self, p)
            })
            .collect();
        for i in 0..self.ports.len() {
            let p = PortId::from_index(i);
            let port = &self.ports[i];
            let queued = self.with_queues(p) && self.carried_whole(p);
            let known = on && (queued || self.plainly_carried(p)) && past_first(self, p);
            // (Its link carried into ports answering as of an instant, each known as an end.)
            let into_abr_ends = on
                && self.answerable(p)
                && (self.plain_analytic(p) || self.with_queues(p))
                && port.plan.arrivals_last
                && past_first(self, p)
                && self.hops_at(p).all(|(vc, h)| vc.route.get(h + 1).is_some_and(|&(q, _)| abr_end[q.index()]));
            let over_abr = if known {
                OverAbr::No
            } else if abr_end[i] {
                OverAbr::End
            } else if into_abr_ends {
                OverAbr::ThroughToEnd
            } else if port.plan.as_of {
                OverAbr::AsOf
            } else {
                OverAbr::No
            };
            debug_assert!(!port.plan.as_of || matches!(over_abr, OverAbr::AsOf | OverAbr::End));
            let onward = if known { self.onward_of(p) } else { Onward::General };
            let plan = &mut self.ports[i].plan;
            (plan.onward, plan.over_abr) = (onward, over_abr);
        }
    }

    /// Ports whose cells take the general path with answers known, by what is known
    /// (`plan_onward`): the last port of every VC on it, carried on to a next port, carried on to
    /// a next port that is the last of every VC on it, and over ABR (`OverAbr`: the last of ABR
    /// VCs, or carried on to it); analytic ports, then ports with queues.
    pub fn ports_sending_on_known(&self) -> [(usize, usize, usize, usize); 2] {
        let count = |queues: bool, onward| {
            let of = |p: &&super::Port| (p.plan.path == PortPath::Queues) == queues && p.plan.onward == onward;
            self.ports.iter().filter(of).count()
        };
        let over_abr = |queues: bool| {
            let of = |p: &&super::Port| {
                (p.plan.path == PortPath::Queues) == queues
                    && matches!(p.plan.over_abr, OverAbr::End | OverAbr::ThroughToEnd)
            };
            self.ports.iter().filter(of).count()
        };
        let by = |queues| {
            (
                count(queues, Onward::End),
                count(queues, Onward::Through),
                count(queues, Onward::ThroughToEnd),
                over_abr(queues),
            )
        };
        [by(false), by(true)]
    }

    /// Whether an AAL5 VC crosses port `q` (its cells may then be frames').
    pub(super) fn aal5_crosses(&self, q: PortId) -> bool {
        self.vcs.iter().any(|vc| vc.adaptation == Adaptation::Aal5 && vc.route.iter().any(|&(p, _)| p == q))
    }

    /// `cell`, the head of a member's pipe, crosses the link into `q`, the target of a group
    /// that crosses directly, and `q` itself, by the steps of `cross` and the analytic port's,
    /// the plan's answers known (`Direct`). `slot` is the cell's VC's index at `q`, when the
    /// cell's train knows it; `FRAMES`: AAL5 cells may cross (else only ATM-layer cells do);
    /// `LAST`: `q` is the last port of every VC on it; `POLICED`: VCs may be policed there.
    #[inline(always)]
    pub(super) fn cross_directly<const FRAMES: bool, const LAST: bool, const POLICED: bool, N: Known>(
        &mut self,
        q: PortId,
        cell: Cell,
        slot: Option<u32>,
    ) {
        self.cross_as::<Direct<FRAMES, LAST, POLICED, N>>(cell, Some((q, slot)));
    }
}
