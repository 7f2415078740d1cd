//! ABR end systems in the network (ATM Forum TM 4.0): each ABR VC has a source end system at
//! its first adapter — which holds the VC's cells and sends them at the allowed cell rate,
//! with a forward RM cell every Nrm cells — and is paired with the VC that runs the other way
//! between the same ends, whose destination turns its forward RM cells around. A turned-around
//! RM cell goes back as an in-rate cell of the paired VC, crossing the same switches the
//! other way; at each switch the explicit-rate algorithm of the port the forward cells left by
//! marks it (`rm`). When it reaches the first VC's source, ACR follows.
//!
//! ```text
//!  host A ─ v: data + FRM(v) ───► switch ports (ER sees FRM) ───► host B: turn FRM(v) around
//!  host A ◄─ w: BRM(v) marked at v's ports ◄───────────────────── host B: w's source sends it
//! ```
//! The paired VC is the TCP acknowledgements' VC where there is one; for a one-way flow the
//! builder adds one that carries only RM cells. An edge router's ATM interface is a source end
//! system like a host's adapter (virtual source / virtual destination, MSc98): its VC's
//! cells wait in the end system's buffer, and congestion moves there from the switches.

use super::sent_ahead::SentAhead;
use super::{Event, Network};
use celltrain_atm::abr::{AbrParams, AbrSource, InRate, RmCell, RmId, Turnaround};
use celltrain_atm::cell::Cell;
use celltrain_atm::cell_runs::CellRuns;
use celltrain_core::ids::{PortId, VcId};
use celltrain_core::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// How many of the opportunities `at`, `at + gap`, … come before `horizon` (`at` does).
#[inline]
fn opportunities_before(at: SimTime, gap: SimDuration, horizon: SimTime) -> u64 {
    debug_assert!(at < horizon && !gap.is_zero());
    (horizon.as_picos() - at.as_picos() - 1) / gap.as_picos() + 1
}

/// Counters of one ABR end system beyond its source's and turn-around's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbrEndCounts {
    /// Data cells refused because the end system's buffer was full (tail drop, as MSc98's
    /// edge devices do: no frame-aware discard).
    pub cells_refused: u64,
    /// The most data cells waiting at once.
    pub max_queue_cells: u32,
}

/// The ABR end system at one end of a VC pair: the source of `vc`, and the destination that
/// turns around the forward RM cells of `peer`'s VC.
pub struct AbrEnd {
    pub vc: VcId,
    /// The end system of the paired VC (index in [`AbrSystem::ends`]).
    pub peer: u32,
    pub source: AbrSource,
    /// Forward RM cells of the paired VC waiting to go back on this VC.
    pub turnaround: Turnaround,
    /// The VC's data cells waiting for an in-rate opportunity, a frame's cells as one run.
    data: CellRuns,
    capacity_cells: u32,
    /// When the last in-rate cell went.
    last_sent_at: Option<SimTime>,
    /// The earliest the next out-of-rate RM cell may go.
    next_out_of_rate_at: SimTime,
    /// When the pending `AbrSend` event is due (an event due at another time is stale).
    event_at: Option<SimTime>,
    /// Per hop of this VC's route: the port (and the paired VC's slot in it) whose algorithm
    /// marks a backward RM cell reaching that hop (the paired VC's port at the same switch).
    pub(super) feedback: Vec<Option<(PortId, u32)>>,
    /// The port every cell reaching this end system comes in by (the paired VC's last), and
    /// whether no other VC leaves by this VC's adapter: with both, and the plan allowing it,
    /// cells may be sent ahead (see [`Network::abr_send_ahead`]).
    pub(super) feed: Option<PortId>,
    pub(super) alone_on_adapter: bool,
    /// Plan: cells may be sent ahead.
    pub(super) ahead: bool,
    /// Plan: data cells sent ahead go in runs (see [`Network::abr_send_data_run`]) while the
    /// opportunities are at least this far apart: the adapter's slot, rounded up, so that each
    /// finds the transmitter free. None: one by one.
    runs_from_gap: Option<SimDuration>,
    /// Opportunities of the cells sent ahead, not yet come: those cells still count as
    /// waiting in the end system.
    sent_ahead: SentAhead,
    /// This VC's RM cells in flight (sent, neither delivered nor lost), each with the earliest
    /// it can reach the VC's destination: when it was sent (or, sent ahead, its opportunity)
    /// plus the route's propagation delays, in order of that earliest (the front is the
    /// earliest of them, up to which the paired end system sends ahead).
    rm_in_flight: VecDeque<(RmId, SimTime)>,
    /// The propagation delays of this VC's route, summed: a cell sent at `t` reaches the
    /// destination at `t + route_delay` at the earliest.
    route_delay: SimDuration,
    /// The VC whose policer reads the backward RM cells this VC carries (its peer's VC,
    /// policed by a DGCRA), shown them as they leave that VC's first switch (`rm`).
    pub(super) watched_by: Option<VcId>,
    pub counts: AbrEndCounts,
}

impl AbrEnd {
    /// The next in-rate opportunity at the current ACR, however far past (None: ACR is zero).
    fn in_rate_at(&self) -> Option<SimTime> {
        let gap = self.source.cell_interval()?;
        Some(self.last_sent_at.map_or(SimTime::ZERO, |last| last + gap))
    }

    /// Data cells waiting in the end system (those in `data`; see [`waiting_at`](Self::waiting_at)).
    pub fn queued_cells(&self) -> usize {
        self.data.len()
    }

    /// Cells waiting at `now` as without pacing ahead: those in `data` and those sent ahead
    /// whose opportunity has not come. In an instant, departures come before arrivals: the data
    /// cell of an opportunity at `now` has gone, whether its `AbrSend` event has run yet or not
    /// (the order of the two events in the reference is the history of their scheduling, which
    /// a cell sent ahead has not got).
    fn waiting_at(&mut self, now: SimTime) -> usize {
        self.sent_ahead.take_until(now);
        let leaving_now = self.event_at == Some(now)
            && !self.data.is_empty()
            && self.in_rate_at().is_some_and(|t| t <= now)
            && self.source.takes_data_at(now, self.turnaround.is_waiting());
        self.data.len() + self.sent_ahead.len() - usize::from(leaving_now)
    }
}

/// What the builder gives an end system: its VC, the paired VC, the source's parameters, its
/// buffer (cells), and per hop of its VC the feedback port (see [`AbrEnd`]).
pub(crate) struct AbrEndSpec {
    pub(crate) vc: VcId,
    pub(crate) peer: VcId,
    pub(crate) params: AbrParams,
    pub(crate) capacity_cells: u32,
    pub(crate) feedback: Vec<Option<(PortId, u32)>>,
    pub(crate) feed: Option<PortId>,
    pub(crate) alone_on_adapter: bool,
}

/// Every ABR end system, which VC has which, and the fields of the RM cells in flight.
#[derive(Default)]
pub struct AbrSystem {
    pub ends: Vec<AbrEnd>,
    /// The fields of the RM cells in flight.
    pub(super) rm_cells: celltrain_atm::abr::RmArena,
    /// Per VC: its end system's index, or `u32::MAX`.
    of_vc: Vec<u32>,
    /// RM cells dropped on the way (by a buffer or a policer), since the start.
    pub rm_cells_lost: u64,
    /// Turned-around RM cells go back at once, outside their end system's in-rate
    /// opportunities (`[abr] backward_rm = "ideal"`).
    pub ideal_backward: bool,
    /// Some end system's backward RM cells are read by a policer (see `AbrEnd::watched_by`):
    /// without, an RM cell pays no look for one.
    pub(super) watching: bool,
}

impl AbrSystem {
    /// End systems for the VC pairs `(v, w)` (each VC sources its cells; each turns the
    /// other's RM cells around), with the parameters and buffer of each VC's source, and per
    /// VC the feedback ports of its hops.
    pub(crate) fn new(vcs: usize, ends: Vec<AbrEndSpec>) -> Self {
        let mut of_vc = vec![u32::MAX; vcs];
        for (i, e) in ends.iter().enumerate() {
            of_vc[e.vc.index()] = u32::try_from(i).expect("ABR end systems fit 32 bits");
        }
        let ends = ends
            .into_iter()
            .map(|AbrEndSpec { vc, peer, params, capacity_cells, feedback, feed, alone_on_adapter }| AbrEnd {
                vc,
                peer: of_vc[peer.index()],
                source: AbrSource::new(params),
                turnaround: Turnaround::default(),
                data: CellRuns::new(),
                capacity_cells,
                last_sent_at: None,
                next_out_of_rate_at: SimTime::ZERO,
                event_at: None,
                feedback,
                feed,
                alone_on_adapter,
                ahead: false,
                runs_from_gap: None,
                sent_ahead: SentAhead::default(),
                rm_in_flight: VecDeque::new(),
                route_delay: SimDuration::ZERO,
                watched_by: None,
                counts: AbrEndCounts::default(),
            })
            .collect();
        AbrSystem {
            ends,
            rm_cells: Default::default(),
            of_vc,
            rm_cells_lost: 0,
            ideal_backward: false,
            watching: false,
        }
    }

    /// RM cell `id` of `vc`, leaving its VC's source at `sent` at the earliest, is in flight.
    #[inline]
    pub(super) fn rm_sent(&mut self, vc: VcId, id: RmId, sent: SimTime) {
        if let Some(a) = self.of(vc) {
            let end = &mut self.ends[a];
            let earliest = sent + end.route_delay;
            // (At the back but for an out-of-rate RM cell sent before cells sent ahead.)
            let flight = &mut end.rm_in_flight;
            let k = flight.iter().rposition(|&(_, t)| t <= earliest).map_or(0, |k| k + 1);
            flight.insert(k, (id, earliest));
        }
    }

    /// RM cell `id` of `vc` is no longer in flight (delivered or lost).
    #[inline]
    pub(super) fn rm_gone(&mut self, vc: VcId, id: RmId) {
        if let Some(a) = self.of(vc) {
            let flight = &mut self.ends[a].rm_in_flight;
            // (Usually the oldest: a VC's cells keep their order, but a lost one leaves early.)
            if let Some(k) = flight.iter().position(|&(x, _)| x == id) {
                flight.remove(k);
            }
        }
    }

    /// The end system sourcing `vc`, if it is an ABR VC.
    #[inline]
    pub fn of(&self, vc: VcId) -> Option<usize> {
        match self.of_vc.get(vc.index()) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }
}

impl Network {
    /// The ABR end systems.
    pub fn abr(&self) -> &AbrSystem {
        &self.abr
    }

    /// A frame's `cells` cells (cell `k` is `cell_at(k)`) enter ABR end system `a`: as many as
    /// its buffer has room for wait there, as one run; the rest are refused (tail drop).
    pub(super) fn abr_enqueue(&mut self, a: usize, cells: u32, cell_at: impl Fn(u32) -> Cell) {
        let end = &mut self.abr.ends[a];
        let waiting = end.waiting_at(self.now);
        let room = (end.capacity_cells as usize).saturating_sub(waiting);
        let accepted = cells.min(u32::try_from(room).unwrap_or(u32::MAX));
        if accepted > 0 {
            let count = u16::try_from(accepted).expect("a frame's cells fit 16 bits");
            let (first, last) = (cell_at(0), cell_at(accepted - 1));
            debug_assert_eq!(last.index, first.index + count - 1, "a frame's cells are consecutive");
            end.data.push_run(first, count, last.end_of_frame);
            end.counts.max_queue_cells = end.counts.max_queue_cells.max(waiting as u32 + accepted);
        }
        if accepted < cells {
            self.abr.ends[a].counts.cells_refused += u64::from(cells - accepted);
            self.frame_cells_lost(&cell_at(accepted), cells - accepted);
        }
        self.abr_wake(a);
    }

    /// End system `a` has something to send: its next opportunity is timed if it is not.
    fn abr_wake(&mut self, a: usize) {
        let now = self.now;
        let end = &mut self.abr.ends[a];
        if end.event_at.is_some() {
            return;
        }
        let at = Self::abr_next_opportunity(end, now);
        if at <= self.end {
            end.event_at = Some(at);
            self.queue.schedule(at, Event::AbrSend(end.vc));
        }
    }

    /// The earliest an end system with something waiting may send, at or after `now`: its
    /// next in-rate opportunity at the current ACR, or, while ACR is below TCR, its next
    /// out-of-rate RM cell if that is sooner.
    fn abr_next_opportunity(end: &AbrEnd, now: SimTime) -> SimTime {
        let in_rate = end.in_rate_at().map_or(SimTime::MAX, |t| t.max(now));
        if end.source.needs_out_of_rate() {
            in_rate.min(end.next_out_of_rate_at.max(now))
        } else {
            in_rate
        }
    }

    /// An `AbrSend` event of `vc`'s end system.
    pub(super) fn abr_send(&mut self, vc: VcId) {
        let now = self.now;
        let Some(a) = self.abr.of(vc) else { return };
        let end = &mut self.abr.ends[a];
        if end.event_at != Some(now) {
            return;
        }
        end.event_at = None;
        let (data, brm) = (!end.data.is_empty(), end.turnaround.is_waiting());
        if !data && !brm {
            return;
        }
        if end.in_rate_at().is_some_and(|t| t <= now) {
            end.last_sent_at = Some(now);
            match end.source.next_in_rate(now, data, brm) {
                Some(InRate::Frm(rm)) => self.send_rm_cell(vc, rm, false),
                Some(InRate::Brm) => {
                    let rm = end.turnaround.take().expect("a turned-around cell waits");
                    self.send_rm_cell(vc, rm, false);
                }
                Some(InRate::Data) => {
                    let cell = end.data.pop_front().expect("data waits");
                    let (first, slot) = self.vcs[vc.index()].route[0];
                    self.release_started(first, now);
                    self.arrive(first, slot, cell);
                }
                None => unreachable!("something waits"),
            }
            // (A send opportunity may decay ACR: ADTF, or CRM forward RM cells unanswered.)
            let acr = self.abr.ends[a].source.acr();
            self.note_acr_change(vc, acr);
            if self.abr.ends[a].ahead {
                self.abr_send_ahead(a);
            }
        } else if end.source.needs_out_of_rate() && end.next_out_of_rate_at <= now {
            end.next_out_of_rate_at = now + end.source.out_of_rate_interval();
            let rm = end.source.out_of_rate_rm();
            self.send_rm_cell(vc, rm, true);
        }
        let end = &self.abr.ends[a];
        if !end.data.is_empty() || end.turnaround.is_waiting() {
            self.abr_wake(a);
        }
    }

    /// Pacing ahead: the in-rate cells whose opportunities come before any RM cell can reach
    /// the end system are sent now, each put on its adapter's wire at its opportunity, with no
    /// event of its own. Exact: until then no backward RM cell can change ACR and no forward
    /// one can wait to be turned around (the RM cells that reach it are the paired VC's: those
    /// in flight arrive no earlier than their bounds, and one sent from now on no earlier than
    /// the paired VC's route delay from now), the other cells that reach it (data of the paired
    /// VC) change nothing these cells depend on, data that arrives only joins the queue behind
    /// these cells, the adapter carries this VC alone (its transmitter is free at each
    /// opportunity, as 1/ACR is at least a cell time), and no observation of the network comes
    /// in between (the carry bound). Only data and forward RM cells go ahead; a waiting
    /// turn-around stops it.
    fn abr_send_ahead(&mut self, a: usize) {
        let now = self.now;
        // Two bounds on the earliest RM cell to come, each exact; the later holds.
        let peer = &self.abr.ends[self.abr.ends[a].peer as usize];
        let mut by_flight = now + peer.route_delay;
        if let Some(&(_, earliest)) = peer.rm_in_flight.front() {
            by_flight = by_flight.min(earliest);
        }
        // Any cell at all reaches the end system by its feed port: those on the link first,
        // and one not yet on it the link's delay from now at the earliest. (A feed port with
        // queues may hold departures deferred, `queues_ahead`: their cells go behind those on
        // the link, which is never empty meanwhile, so its first cell still comes first.)
        let mut by_feed = now;
        if let Some(feed) = self.abr.ends[a].feed {
            let port = &self.ports[feed.index()];
            by_feed = now + port.link.delay();
            if let Some((arrival, _)) = port.link.head() {
                by_feed = by_feed.min(arrival);
            }
        }
        let horizon = self.carry_before.min(by_flight.max(by_feed));
        let vc = self.abr.ends[a].vc;
        let (first, slot) = self.vcs[vc.index()].route[0];
        self.release_started(first, now);
        loop {
            let end = &mut self.abr.ends[a];
            let Some(at) = end.in_rate_at() else { break };
            let port = &self.ports[first.index()];
            let adapter_idle = port.all_started() && port.tx.clock.free_at() <= at;
            if at >= horizon
                || end.data.is_empty()
                || end.turnaround.is_waiting()
                || end.source.needs_out_of_rate()
                || !adapter_idle
            {
                break;
            }
            if end.runs_from_gap.is_some() && self.abr_send_data_run(a, at, horizon, first) {
                continue;
            }
            let end = &mut self.abr.ends[a];
            end.last_sent_at = Some(at);
            let cell = match end.source.next_in_rate(at, true, false) {
                Some(InRate::Frm(rm)) => {
                    self.vcs[vc.index()].stats.cells_sent += 1;
                    Cell::rm(vc, self.new_rm_cell(vc, rm, at), false)
                }
                Some(InRate::Data) => {
                    // (Only data cells would have waited in the end system.)
                    end.sent_ahead.push(at);
                    end.data.pop_front().expect("data waits")
                }
                _ => unreachable!("data waits and no turned-around cell does"),
            };
            // As `arrive` would take it at `at`: straight through the idle adapter.
            self.pass_or_lose(first, slot, cell, at, at);
        }
    }

    /// [`abr_send_ahead`](Self::abr_send_ahead) at an opportunity `at` (before `horizon`) that
    /// finds the adapter `first` idle with nothing else to send but data: the data cells of
    /// this opportunity and the next ones in a row, as far as the front frame's run, the
    /// horizon and the source's next forward RM cell allow, go through the adapter at once,
    /// each at its opportunity, by the steps the loop takes for one: the source's choice
    /// ([`AbrSource::take_data_run`]), the buffer's pass-through count
    /// ([`OutputPort::pass_virtual`](celltrain_atm::port::OutputPort::pass_virtual)) and the
    /// wire (`put_run_on_wire`). Nothing in a run changes ACR, so its opportunities stay `gap`
    /// apart, and a gap no shorter than the adapter's slot finds the transmitter free at each.
    /// Returns false, with nothing sent, where the next cell is not data.
    #[inline(never)]
    fn abr_send_data_run(&mut self, a: usize, at: SimTime, horizon: SimTime, first: PortId) -> bool {
        let end = &mut self.abr.ends[a];
        let (Some(gap), Some(least)) = (end.source.cell_interval(), end.runs_from_gap) else { return false };
        if gap < least {
            return false;
        }
        let most = u64::from(end.data.front_run_cells()).min(opportunities_before(at, gap, horizon));
        let taken = end.source.take_data_run(at, gap, u32::try_from(most).expect("a run's cells fit 16 bits"));
        if taken == 0 {
            return false;
        }
        let opportunity = |j: u32| SimTime::from_picos(at.as_picos() + u64::from(j) * gap.as_picos());
        end.last_sent_at = Some(opportunity(taken - 1));
        // (Only data cells would have waited in the end system.)
        end.sent_ahead.push_row(at, gap.as_picos(), u64::from(taken));
        let cells = end.data.take_front(u16::try_from(taken).expect("a run's cells fit 16 bits")).expect("data waits");
        self.ports[first.index()].queue.pass_virtual(taken);
        self.tally.run_admitted_cells += u64::from(taken);
        self.put_run_on_wire(first, 0..taken, false, opportunity, |j| cells.cell(j as u16));
        true
    }

    /// Decides which end systems send ahead (see [`abr_send_ahead`](Self::abr_send_ahead)).
    pub(super) fn plan_abr_ahead(&mut self) {
        let on = self.options.abr_ahead;
        let changes = self.recorder.changes.as_deref();
        for end in &mut self.abr.ends {
            end.route_delay = self.vcs[end.vc.index()]
                .route
                .iter()
                .fold(SimDuration::ZERO, |t, &(p, _)| t + self.ports[p.index()].link.delay());
            // A source whose ACR changes are recorded takes each opportunity by its event, so
            // that every change is noted at its own instant.
            let recorded = changes.is_some_and(|log| log.records_acr_of(end.vc));
            let adapter = &self.ports[self.vcs[end.vc.index()].route[0].0.index()];
            // (A cell turned around on the ideal backward path is sent as its forward cell
            // arrives, by the feed port: no cell sent ahead starts after that.)
            end.ahead = on && !recorded && end.alone_on_adapter && end.feed.is_some() && adapter.plainly_analytic();
            // (Runs go onto the wire as `put_run_on_wire` puts them: not on a carried link.)
            let runs = end.ahead && self.options.run_admission && !adapter.plan.carry && adapter.queue.passes_runs();
            end.runs_from_gap = runs.then(|| adapter.tx.clock.service_rate().cell_time_ceil());
        }
    }

    /// An RM cell of `vc` reaches the VC's destination: a forward one is turned around by the
    /// paired VC's end system; a backward one is feedback for the paired VC's source.
    pub(super) fn abr_rm_delivered(&mut self, vc: VcId, rm: RmCell) {
        let Some(a) = self.abr.of(vc) else { return };
        let peer = self.abr.ends[a].peer as usize;
        match rm.dir {
            celltrain_atm::abr::RmDirection::Forward => {
                self.abr.ends[peer].turnaround.on_frm(&rm);
                if self.abr.ideal_backward {
                    // The ideal path: back at once, as if the backward cell took no slot of
                    // the paired VC's (counted as its source's, for the RM-cell identities).
                    let end = &mut self.abr.ends[peer];
                    let back = end.turnaround.take().expect("just turned around");
                    end.source.counts.brm_sent += 1;
                    let peer_vc = end.vc;
                    self.send_rm_cell(peer_vc, back, false);
                } else {
                    self.abr_wake(peer);
                }
            }
            celltrain_atm::abr::RmDirection::Backward => {
                self.abr.ends[peer].source.on_brm(&rm);
                let (peer_vc, acr) = (self.abr.ends[peer].vc, self.abr.ends[peer].source.acr());
                self.note_acr_change(peer_vc, acr);
                self.abr_rate_changed(peer);
            }
        }
    }

    /// ACR of end system `a` changed: a pending opportunity moves earlier if the new rate
    /// allows (a later one is kept: the event already scheduled stays valid).
    fn abr_rate_changed(&mut self, a: usize) {
        let now = self.now;
        let end = &mut self.abr.ends[a];
        let Some(pending) = end.event_at else { return };
        let at = Self::abr_next_opportunity(end, now);
        if at < pending {
            end.event_at = Some(at);
            self.queue.schedule(at, Event::AbrSend(end.vc));
        }
    }

    /// A data cell of ABR VC `vc` reaches its destination: its EFCI is remembered by the end
    /// system that turns the VC's forward RM cells around.
    #[inline]
    pub(super) fn abr_data_delivered(&mut self, vc: VcId, efci: bool) {
        if let Some(a) = self.abr.of(vc) {
            let peer = self.abr.ends[a].peer as usize;
            self.abr.ends[peer].turnaround.on_data_cell(efci);
        }
    }

    /// The port whose algorithm marks a backward RM cell of `vc` at hop `hop`, with the slot of
    /// the VC the feedback is for.
    pub(super) fn abr_feedback_port(&self, vc: VcId, hop: u8) -> Option<(PortId, u32)> {
        let a = self.abr.of(vc)?;
        self.abr.ends[a].feedback.get(usize::from(hop)).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RM cells in flight keep the earliest each can arrive at the front, whatever order
    /// they are sent in (an out-of-rate RM cell may go before cells sent ahead), and as they
    /// leave the flight in any order.
    #[test]
    fn rm_cells_in_flight_keep_the_earliest_first() {
        let spec = |vc, peer| AbrEndSpec {
            vc: VcId::from_index(vc),
            peer: VcId::from_index(peer),
            params: AbrParams::tm4_defaults(1e5),
            capacity_cells: 100,
            feedback: Vec::new(),
            feed: None,
            alone_on_adapter: true,
        };
        let mut abr = AbrSystem::new(2, vec![spec(0, 1), spec(1, 0)]);
        abr.ends[0].route_delay = SimDuration::from_picos(1_000);
        let (vc, t) = (VcId::from_index(0), SimTime::from_picos);
        let ids: Vec<RmId> = (0..5).map(RmId::from_index).collect();
        let front = |abr: &AbrSystem| abr.ends[0].rm_in_flight.front().copied();
        for (k, sent) in [(0, 300), (1, 500), (2, 100), (3, 500), (4, 700)] {
            abr.rm_sent(vc, ids[k], t(sent));
        }
        let order: Vec<RmId> = abr.ends[0].rm_in_flight.iter().map(|&(id, _)| id).collect();
        assert_eq!(order, [ids[2], ids[0], ids[1], ids[3], ids[4]], "in order of arrival, ties as sent");
        assert_eq!(front(&abr), Some((ids[2], t(1_100))));
        abr.rm_gone(vc, ids[0]);
        assert_eq!(front(&abr), Some((ids[2], t(1_100))));
        abr.rm_gone(vc, ids[2]);
        assert_eq!(front(&abr), Some((ids[1], t(1_500))));
    }

    /// The count is the opportunities one by one, an opportunity on the horizon left out.
    #[test]
    fn opportunities_before_the_horizon() {
        let t = SimTime::from_picos;
        for at in [0, 7, 1_000] {
            for gap in [1, 3, 10, 2_831] {
                for span in 1..40 {
                    let (gap, horizon) = (SimDuration::from_picos(gap), t(at + span * 7));
                    let by_one = (0..).take_while(|&j| at + j * gap.as_picos() < horizon.as_picos()).count();
                    assert_eq!(opportunities_before(t(at), gap, horizon), by_one as u64, "{at} {gap:?} {horizon:?}");
                }
            }
        }
    }
}
