//! The path of a cell through the ATM network: it arrives at an output port (an adapter or a
//! switch port), waits or passes, starts on the wire, crosses the link's pipe, is policed where
//! it enters its VC's first switch, and reaches the next port of its VC or its destination.
//! How a port runs — analytic, a FIFO by events, or queues by events — is its plan's
//! [`PortPath`](super::PortPath).

use super::*;
use celltrain_core::Place;

/// What is known of a port before a cell reaches it. On the general path nothing is: each step
/// asks the port and the cell. A fan-in group that crosses its target directly (`fan_in_direct`)
/// has had the plan answer some of those questions once for every cell. Either way the cell
/// takes the same steps, in one body; an answer known beforehand only takes its question out of
/// the monomorphised copy.
pub(super) trait Known {
    /// The port is a switch port with no adapter rules or capture, carried ahead, and no VC
    /// that crosses it is ABR: an analytic FIFO with no burst handed to it, keeping no start
    /// times by runs (a fan-in group's target crossed directly, `crosses_directly`; a cell
    /// arriving at such a port, `arrive_analytic_known`), or a port with queues sending its
    /// cells on (`transmit_as`; both `plan_onward`). Over ABR, the same but for the ABR VCs:
    /// the last port of ABR VCs (`ABR_END`), or a port carried into such ports (`OverAbr`).
    const DIRECT: bool;
    /// With `DIRECT`: AAL5 cells may cross (else only ATM-layer cells do).
    const FRAMES: bool;
    /// With `DIRECT`: the port is the last of every VC that crosses it (else each goes on to
    /// its next port, by the general path).
    const LAST: bool;
    /// With `DIRECT`: a VC may be policed where it enters the port (its first switch).
    const POLICED: bool;
    /// With `DIRECT` and not `LAST`: what is known of the next port of each VC on the port.
    type Next: Known;
    /// With `DIRECT` and `LAST`: the port is the last of ABR VCs (`abr_last_link`), its RM
    /// cells going on by `arrive_rm` and into the pipe, its data cells carried into their end
    /// systems (`carry_into_abr_ends`); where the plan says so, it answers as of an instant
    /// (`as_of`).
    const ABR_END: bool = false;
}

/// The general path: every question asked.
pub(super) struct Asked;

impl Known for Asked {
    const DIRECT: bool = false;
    const FRAMES: bool = true;
    const LAST: bool = false;
    const POLICED: bool = true;
    type Next = Asked;
}

/// The target of a fan-in group crossed directly, AAL5 cells crossing or not (`FRAMES`), the
/// last port of every VC on it or not (`LAST`), VCs policed where they enter it or not
/// (`POLICED`); over ABR, the last port of ABR VCs or not (`ABR_END`).
pub(super) struct Direct<
    const FRAMES: bool,
    const LAST: bool,
    const POLICED: bool,
    N: Known = Asked,
    const ABR_END: bool = false,
>(std::marker::PhantomData<N>);

impl<const F: bool, const L: bool, const P: bool, N: Known, const A: bool> Known for Direct<F, L, P, N, A> {
    const DIRECT: bool = true;
    const FRAMES: bool = F;
    const LAST: bool = L;
    const POLICED: bool = P;
    type Next = N;
    const ABR_END: bool = A;
}

/// Where a port sends its cells, as the plan knows it (`plan_onward`: switch ports carried
/// ahead whole, analytic or with queues): nowhere known (`General`), or it is the last port of
/// every VC on it (`End`), or each VC goes on to a next port, from whose far end the cell takes
/// the general path (`Through`), or which is the last of every VC on it and known too
/// (`ThroughToEnd`). A cell arriving at the analytic port (`arrive_analytic_known`), or leaving
/// the port with queues (`transmit_as`), then takes the general path's steps with those answers
/// known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Onward {
    General,
    End,
    Through,
    ThroughToEnd,
}

/// What `Onward::End` knows of a port (its cells' end: AAL5 cells may land, none is policed on
/// the way in, which a port past its VCs' first switch never is), and what `ThroughToEnd`
/// knows of the next port.
pub(super) type KnownEnd = Direct<true, true, false>;
/// What `Onward::Through` knows of a port: its cells go on, from its far end by the general path.
type KnownThrough = Direct<true, false, false>;
/// What `Onward::ThroughToEnd` knows of a port: its cells go on to a next port known as `KnownEnd`.
type KnownThroughToEnd = Direct<true, false, false, KnownEnd>;

/// What `OverAbr::End` knows of a port: what `KnownEnd` knows, the port the last of ABR VCs.
pub(super) type KnownAbrEnd = Direct<true, true, false, Asked, true>;

/// What `OverAbr::ThroughToEnd` knows of a port: its cells go on to a next port known as
/// `KnownAbrEnd`.
type KnownThroughToAbrEnd = Direct<true, false, false, KnownAbrEnd>;

/// Over ABR, where `Onward` is `General` (the plan leaves ABR's ports out of it): a port
/// answering as of an instant, asked (`AsOf`); the last port of every VC on it, the last of
/// ABR VCs, known (`End`, answering as of an instant or not); a port whose VCs each go on to
/// such a port, known too (`ThroughToEnd`). (Not arms of `Onward`: an arm more in
/// `arrive_analytic_known`'s match cost the null pipeline 0.6 to 1.9 % more instructions, from
/// the code's layout alone; here the general branch's one test stands for them all.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OverAbr {
    No,
    AsOf,
    End,
    ThroughToEnd,
}

impl Network {
    /// When a cell arriving at `now` may start on an adapter whose rules time its cells (an
    /// analytic port: the transmitter is free at `free_at` once the cells before it have left).
    #[cold]
    pub(super) fn adapter_start(port: &mut Port, cell: &Cell, now: SimTime) -> SimTime {
        let rules = port.rules.as_mut().expect("an adapter with rules");
        let not_before = rules.not_before(now);
        rules.start(port.tx.clock.free_at(), not_before, Self::first_of_pdu(cell))
    }

    /// A PDU's first cell: the one the gap between PDUs applies to.
    #[inline]
    pub(super) fn first_of_pdu(cell: &Cell) -> bool {
        cell.index == 0 && cell.kind == CellKind::Aal5
    }

    /// A cell arrives at output port `p`, where its VC has `slot`.
    #[inline]
    pub(super) fn arrive(&mut self, p: PortId, slot: u32, cell: Cell) {
        match self.ports[p.index()].plan.path {
            PortPath::Analytic => self.arrive_analytic(p, slot, cell),
            PortPath::FifoEvents => self.arrive_fifo(p, slot, cell),
            PortPath::Queues => self.arrive_queued(p, slot, cell),
        }
    }

    /// A cell reaches port `p` with nothing queued and the transmitter free by `at`: its buffer
    /// policy, asked at `decided` (when the cell arrives), lets it straight onto the wire at
    /// `at`, or it is lost. (Inlined into each caller, which holds the port already: a call
    /// cost E1 about 5 %.)
    #[inline(always)]
    pub(super) fn pass_or_lose(&mut self, p: PortId, slot: u32, cell: Cell, decided: SimTime, at: SimTime) {
        match self.ports[p.index()].queue.pass_through_at(&cell, slot, decided) {
            Ok(()) => self.start_cell(p, cell, at),
            Err(_) => self.cell_lost(cell),
        }
    }

    /// A cell arrives at an analytic port: it is put on the wire now, at its start time.
    #[inline]
    fn arrive_analytic(&mut self, p: PortId, slot: u32, cell: Cell) {
        // (Start times are kept by runs on the links of fan-in groups, and of no group where
        // trains go (`trains`), only: the other ports skip the runs' tests, `bench null` 3 %
        // fewer instructions.)
        let plan = &self.ports[p.index()].plan;
        if plan.fan_in.is_some() {
            self.arrive_analytic_at::<true, Asked>(p, slot, cell);
        } else if plan.onward == Onward::General {
            if plan.over_abr != OverAbr::No {
                self.arrive_over_abr(p, slot, cell);
                return;
            }
            self.arrive_analytic_at::<false, Asked>(p, slot, cell);
        } else {
            self.arrive_analytic_known(p, slot, cell);
        }
    }

    /// [`arrive_analytic`](Self::arrive_analytic) at a port of which the plan knows where its
    /// cells go (`Onward`).
    #[inline(never)]
    fn arrive_analytic_known(&mut self, p: PortId, slot: u32, cell: Cell) {
        match self.ports[p.index()].plan.onward {
            Onward::General => unreachable!("asked as known"),
            Onward::End => self.arrive_analytic_at::<false, KnownEnd>(p, slot, cell),
            Onward::Through => self.arrive_analytic_at::<false, KnownThrough>(p, slot, cell),
            Onward::ThroughToEnd => self.arrive_analytic_at::<false, KnownThroughToEnd>(p, slot, cell),
        }
    }

    /// [`arrive_analytic`](Self::arrive_analytic) at a port `OverAbr` places (out of line).
    #[inline(never)]
    fn arrive_over_abr(&mut self, p: PortId, slot: u32, cell: Cell) {
        match self.ports[p.index()].plan.over_abr {
            OverAbr::No => unreachable!("a port over ABR"),
            OverAbr::AsOf => {
                // (A port answering as of an instant: see `as_of`.)
                self.take_loads_due(p);
                self.arrive_analytic_at::<false, Asked>(p, slot, cell);
            }
            OverAbr::End => self.arrive_analytic_at::<false, KnownAbrEnd>(p, slot, cell),
            OverAbr::ThroughToEnd => self.arrive_analytic_at::<false, KnownThroughToAbrEnd>(p, slot, cell),
        }
    }

    /// [`arrive_analytic`](Self::arrive_analytic), at a port that may keep start times by runs
    /// or not (`RUNS`, see `Port::admit_analytic`), of which `K` is known.
    #[inline(always)]
    pub(super) fn arrive_analytic_at<const RUNS: bool, K: Known>(&mut self, p: PortId, slot: u32, cell: Cell) {
        if K::ABR_END && self.ports[p.index()].plan.as_of {
            // (A port answering as of an instant: see `as_of`.)
            self.take_loads_due(p);
        }
        let now = self.now;
        if RUNS {
            self.release_started(p, now);
        } else if K::DIRECT {
            // (No burst is handed to it: only its queued cells can leave.)
            self.ports[p.index()].release_queued(now);
        } else {
            Self::release_in_one_by_one(&mut self.ports, &mut self.vcs, p, now);
        }
        let port = &mut self.ports[p.index()];
        let start = if !K::DIRECT && port.facts.adapter_rules {
            Self::adapter_start(port, &cell, now)
        } else {
            port.tx.clock.free_at().max(now)
        };
        match port.admit_analytic::<RUNS>(&cell, slot, start, now) {
            Ok(()) => self.start_cell_as::<K>(p, cell, start),
            Err(_) => self.cell_lost(cell),
        }
    }

    /// A cell arrives at a port with queues and a scheduler. (Inlined into each caller: left to
    /// the inliner, a profile-guided build kept it inside the fan-in group's hand-out or put it
    /// out of line as unrelated code moved, 4-9 % of the UBR runs' CPU.)
    #[inline(always)]
    fn arrive_queued(&mut self, p: PortId, slot: u32, cell: Cell) {
        self.settle_deferred(p);
        let now = self.now;
        // Two transmitters at the same rate round their slot grids independently, so a cell
        // can arrive up to a picosecond before the next slot of an idle port; it then starts
        // on that slot without an event (exact to the picosecond, and no queueing decision
        // can intervene: the port holds nothing else).
        let port = &mut self.ports[p.index()];
        let transmitter_free = now + ROUNDING_SLACK >= port.tx.clock.free_at();
        if !port.tx.waits() && transmitter_free && port.facts.work_conserving {
            debug_assert!(port.queue.is_empty(), "no free event pending, yet cells queued");
            let at = now.max(port.tx.clock.free_at());
            self.pass_or_lose(p, slot, cell, now, at);
            return;
        }
        if port.queue.offer(cell, slot, now).is_err() {
            self.cell_lost(cell);
            return;
        }
        if !port.tx.waits() {
            // (An idle transmitter's `free_at` is past when a scheduler that is not
            // work-conserving holds the cell.)
            let at = port.tx.clock.free_at().max(now);
            port.tx.await_event(at);
            self.schedule_port_free(p, at);
        }
    }

    /// `cells` cells arrive together at output port `p`, where their VC has `slot` (a frame's
    /// cells from segmentation): the k-th is `cell_at(k)`. The same as
    /// `cells` calls of [`arrive`](Self::arrive); on an adapter that only paces (a single FIFO
    /// with a tail-drop buffer that holds them all, not shaping, captured or carried ahead)
    /// the admission is done once and the cells go straight onto the wire at their start times.
    pub(super) fn arrive_run(
        &mut self,
        p: PortId,
        slot: u32,
        cells: u32,
        any_clp1: bool,
        cell_at: impl Fn(u32) -> Cell,
    ) {
        let mut k = 0;
        if self.ports[p.index()].plan.paces_only {
            // A cell that starts at once passes through (or is refused): the per-cell path.
            let now = self.now;
            while k < cells {
                self.release_started(p, now);
                let port = &mut self.ports[p.index()];
                if !port.all_started() || port.tx.clock.free_at() > now {
                    break;
                }
                self.arrive(p, slot, cell_at(k));
                k += 1;
            }
            let port = &mut self.ports[p.index()];
            if k < cells && port.queue.admit_virtual_run(slot, cells - k, any_clp1, now) {
                // Every cell waits for the one before it: each starts when the transmitter is free.
                self.tally.run_admitted_cells += u64::from(cells - k);
                self.put_run_on_wire(p, k..cells, true, |_| now, cell_at);
                return;
            }
        }
        for j in k..cells {
            self.arrive(p, slot, cell_at(j));
        }
    }

    /// The transmitter of `p` is free: start the next queued cell, if any, sent on with what
    /// the plan knows of where it goes.
    pub(super) fn transmit(&mut self, p: PortId) {
        match self.ports[p.index()].plan.onward {
            Onward::General if self.ports[p.index()].plan.over_abr == OverAbr::ThroughToEnd => {
                self.transmit_into_abr_ends_while(p, |_| None, true);
            }
            Onward::General => self.transmit_as::<Asked>(p),
            Onward::End => self.transmit_as::<KnownEnd>(p),
            Onward::Through => self.transmit_as::<KnownThrough>(p),
            Onward::ThroughToEnd => self.transmit_as::<KnownThroughToEnd>(p),
        }
    }

    /// [`transmit`](Self::transmit) at `p` at each time `due` gives, the clock set to it, until
    /// it gives none: the plan's answers asked once for the whole loop, not once a departure.
    #[inline(always)]
    pub(super) fn transmit_while(&mut self, p: PortId, due: impl FnMut(&mut Self) -> Option<SimTime>) {
        match self.ports[p.index()].plan.onward {
            Onward::General if self.ports[p.index()].plan.over_abr == OverAbr::ThroughToEnd => {
                self.transmit_into_abr_ends_while(p, due, false);
            }
            Onward::General => self.transmit_as_while::<Asked>(p, due),
            Onward::End => self.transmit_as_while::<KnownEnd>(p, due),
            Onward::Through => self.transmit_as_while::<KnownThrough>(p, due),
            Onward::ThroughToEnd => self.transmit_as_while::<KnownThroughToEnd>(p, due),
        }
    }

    /// [`transmit_while`](Self::transmit_while) (after a departure at once, if `first`) at a
    /// port whose VCs each go on to the last of ABR VCs, known (`OverAbr::ThroughToEnd`).
    #[inline(never)]
    fn transmit_into_abr_ends_while(&mut self, p: PortId, due: impl FnMut(&mut Self) -> Option<SimTime>, first: bool) {
        if first {
            self.transmit_as::<KnownThroughToAbrEnd>(p);
        }
        self.transmit_as_while::<KnownThroughToAbrEnd>(p, due);
    }

    #[inline(always)]
    fn transmit_as_while<K: Known>(&mut self, p: PortId, mut due: impl FnMut(&mut Self) -> Option<SimTime>) {
        while let Some(at) = due(self) {
            self.now = at;
            self.transmit_as::<K>(p);
        }
    }

    /// [`transmit`](Self::transmit) from a port of which `K` is known.
    #[inline(always)]
    fn transmit_as<K: Known>(&mut self, p: PortId) {
        let Some(cell) = self.ports[p.index()].queue.take_next(self.now) else {
            self.wait_for_scheduler(p);
            return;
        };
        let at = self.now.max(self.ports[p.index()].tx.clock.free_at());
        self.start_cell_as::<K>(p, cell, at);
        let port = &mut self.ports[p.index()];
        if !port.queue.is_empty() {
            let at = port.tx.clock.free_at();
            if !self.defer_departure(p, at) {
                self.ports[p.index()].tx.await_event(at);
                self.schedule_port_free(p, at);
            }
        }
    }

    /// The transmitter of `p`, a port with queues, is to be free at `at`: its `PortFree` event,
    /// in the queue or among its fan-in group's heads. Its place is last in its instant, by
    /// rule: the scheduler chooses among the cells that arrive at that instant too, whenever
    /// either event was scheduled. (The order the events' history nearly always gave, and the
    /// only one on the built-ins' runs; as a rule, it lets a port run without these events:
    /// see `queues_ahead`, and docs/architecture.md for the runs it changed.)
    #[inline]
    pub(super) fn schedule_port_free(&mut self, p: PortId, at: SimTime) {
        match self.ports[p.index()].plan.free_in_group {
            None => self.queue.schedule_last(at, Event::PortFree(p)),
            Some(g) => self.fan_in_enter_free(g, at),
        }
    }

    /// The scheduler of `p` sent nothing: its queues are empty, or no cell is eligible yet (a
    /// scheduler that is not work-conserving), and the port tries again when one is.
    #[cold]
    pub(super) fn wait_for_scheduler(&mut self, p: PortId) {
        use celltrain_atm::port::sched::Next;
        let port = &mut self.ports[p.index()];
        match port.queue.dequeue(self.now) {
            Next::Empty => {}
            Next::NotBefore(t) => {
                port.tx.await_event(t);
                self.schedule_port_free(p, t);
            }
            Next::Cell(_) => unreachable!("the scheduler sends what it refused a moment ago"),
        }
    }

    /// Puts `cell` on the wire of `p` at `at` (now, the slot that starts within the rounding
    /// slack, or an analytic port's computed start) and into the pipe towards the far end.
    /// (`put_run_on_wire` does this for runs of cells on the adapters that only pace, and for
    /// an ABR end system's data cells sent in runs: a duty added here must be added there, or
    /// excluded by its callers' conditions.)
    #[inline(always)]
    pub(super) fn start_cell(&mut self, p: PortId, cell: Cell, at: SimTime) {
        self.start_cell_as::<Asked>(p, cell, at);
    }

    /// [`start_cell`](Self::start_cell) at a port of which `K` is known: inlined where the
    /// answers are known (each such caller is a loop or step of its own kind of port), left to
    /// the compiler on the general path.
    #[inline(always)]
    fn start_cell_as<K: Known>(&mut self, p: PortId, cell: Cell, at: SimTime) {
        if K::DIRECT {
            self.start_cell_body::<K>(p, cell, at);
        } else {
            self.start_cell_asked(p, cell, at);
        }
    }

    /// [`start_cell_as`](Self::start_cell_as) on the general path.
    #[inline]
    fn start_cell_asked(&mut self, p: PortId, cell: Cell, at: SimTime) {
        self.start_cell_body::<Asked>(p, cell, at);
    }

    /// The body of [`start_cell_as`](Self::start_cell_as).
    #[inline(always)]
    fn start_cell_body<K: Known>(&mut self, p: PortId, mut cell: Cell, at: SimTime) {
        if !K::DIRECT && cell.hop == 0 {
            cell.entered = at;
        }
        let port = &mut self.ports[p.index()];
        if !K::DIRECT && cell.end_of_frame && cell.kind == CellKind::Aal5 {
            if let Some(i) = port.link.capture() {
                let (packet, from) = (self.frames.get(cell.frame).payload, port.from);
                self.capture_into(i as usize, &packet, from);
            }
        }
        let port = &mut self.ports[p.index()];
        self.tally.cell_hops += 1;
        let end = port.tx.clock.start(at);
        if !K::DIRECT && port.facts.adapter_rules {
            port.rules.as_mut().expect("an adapter with rules").on_started(end, cell.end_of_frame);
        }
        let arrival = end + port.link.delay();
        let carried = if K::DIRECT { arrival < self.carry_before } else { self.may_carry(p, arrival) };
        if carried {
            self.carry_as::<K>(p, cell, arrival);
            return;
        }
        self.put_in_pipe(p, cell, arrival);
    }

    /// `cell`, put on the wire of `p`, goes into the link's pipe, to reach the far end at
    /// `arrival` by the pipe's events.
    #[inline(always)]
    pub(super) fn put_in_pipe(&mut self, p: PortId, cell: Cell, arrival: SimTime) {
        let port = &mut self.ports[p.index()];
        if port.link.is_empty() {
            // (A pipe carrying a train, a fan-in group's or a lone link's, is empty: see
            // `fan_in`.)
            match port.plan.fan_in {
                None => self.pipe_gets_head(p, cell.kind, arrival),
                Some(slot) => {
                    if self.fan_in_push(slot, p, cell, arrival) {
                        return;
                    }
                }
            }
        } else if port.link.trains_behind() {
            // Behind the frames' trains behind the pipe's cells (a paced adapter's link with
            // trains), it joins them as a train of its own, or they go in as cells first
            // (see `joins_trains`).
            let group = port.plan.fan_in.expect("trains wait on links with trains only");
            if self.joins_trains(group) {
                self.fan_in_push_behind_trains(group, p, cell, arrival);
                return;
            }
            self.fan_in_before_push(group, p);
        }
        self.ports[p.index()].link.push(arrival, cell);
    }

    /// The empty pipe of `p` gets a head, a cell of `kind` arriving at `arrival`: its
    /// `PipeHead` event takes its place now. On a link with trains (a fan-in group's member
    /// or a lone link) the place is among its group's heads (`fan_in_enter`); else it is last in
    /// its instant by rule for an RM cell at its VC's end or any cell into ports answering as of
    /// an instant (`PortPlan::head_last`), and otherwise the empty pipe's place
    /// ([`empty_pipe_head_place`](Self::empty_pipe_head_place)). A cell put in a pipe
    /// (`put_in_pipe`) and a run of them (`put_run_on_wire`) both take this step.
    #[inline(always)]
    pub(super) fn pipe_gets_head(&mut self, p: PortId, kind: CellKind, arrival: SimTime) {
        let plan = &self.ports[p.index()].plan;
        if let Some(slot) = plan.fan_in {
            self.fan_in_enter(slot, arrival);
            return;
        }
        let last = plan.head_last(kind);
        let place = self.empty_pipe_head_place(p, arrival);
        let place = if last { Place::last(arrival) } else { place };
        self.queue.schedule_reserved(place, Event::PipeHead(p));
    }

    pub(super) fn pipe_head(&mut self, p: PortId) {
        let port = &mut self.ports[p.index()];
        if let Some(slot) = port.plan.fan_in {
            // (A link of no group with trains: see `fan_in`.)
            self.pipe_head_with_trains(p, slot.group);
            return;
        }
        // A carried pipe may have been emptied ahead of its event (see `carry`).
        if port.link.head().is_none_or(|(arrival, _)| arrival > self.now) {
            return;
        }
        // (Copied out whole, then dropped from the pipe: an `Option` of the cell returned by a pop
        // is copied in pieces that overlap around the cell's niche byte, and reading those back
        // as words stalls store forwarding.)
        let (_, cell) = port.link.head().expect("pipe head checked");
        port.link.pop_head();
        if let Some((next, behind)) = port.link.head() {
            let last = port.plan.head_last(behind.kind);
            self.schedule_pipe_head(p, next, last);
        } else {
            self.pipe_emptied(p);
        }
        self.cross(cell);
    }

    /// The `PipeHead` event of `p` for its head, arriving at `at`, scheduled as the head before
    /// it leaves: `last` in its instant by rule (an RM cell at its VC's end), else in order
    /// ([`schedule_head_in_order`](Self::schedule_head_in_order)).
    #[inline(always)]
    pub(super) fn schedule_pipe_head(&mut self, p: PortId, at: SimTime, last: bool) {
        if last {
            self.queue.schedule_last(at, Event::PipeHead(p));
        } else {
            self.schedule_head_in_order(p, at);
        }
    }

    /// The `PipeHead` event of `p` for its head, arriving at `at`, scheduled now in order: late
    /// in its instant by rule off some adapters (`PortPlan::heads_late`).
    #[inline(always)]
    pub(super) fn schedule_head_in_order(&mut self, p: PortId, at: SimTime) {
        let place = self.head_place(p, at);
        self.queue.schedule_reserved(place, Event::PipeHead(p));
    }

    /// The place a `PipeHead` event of `p` for a head arriving at `at` takes now, in order:
    /// late in its instant by rule (`PortPlan::heads_late`).
    #[inline(always)]
    pub(super) fn head_place(&mut self, p: PortId, at: SimTime) -> Place {
        head_place_in(&mut self.queue, self.ports[p.index()].plan.heads_late, || p, at)
    }

    /// The pipe of `p` has emptied: the place its chain would give a next head at this instant
    /// is kept. The departures deferred to before this instant (see `queues_ahead`), which the
    /// events would have made before its head left, are made first: the first one's cell is the
    /// pipe's next head, and its event takes the place it would have taken then (none is taken
    /// in between). One due at this instant or later becomes an event again: nothing but the
    /// pipe's heads was sure to meet the port in time.
    #[inline]
    pub(super) fn pipe_emptied(&mut self, p: PortId) {
        if self.ports[p.index()].tx.is_deferred() {
            self.settle_deferred(p);
            if !self.ports[p.index()].link.is_empty() {
                return;
            }
            if self.ports[p.index()].tx.is_deferred() {
                self.undefer(p);
            }
        }
        self.ports[p.index()].link.set_emptied(self.queue.reserve(self.now));
    }

    /// Where the `PipeHead` event of a cell arriving at `arrival`, put now into the empty pipe
    /// of `p`, stands among the events of its instant: at the place the pipe's chain kept if the
    /// pipe emptied at this instant (see `Link::emptied`), else at a place of its own; late in
    /// its instant by rule off an ABR end system's adapter (`PortPlan::heads_late`).
    #[inline]
    pub(super) fn empty_pipe_head_place(&mut self, p: PortId, arrival: SimTime) -> Place {
        let kept = self.ports[p.index()].link.take_emptied();
        if self.ports[p.index()].plan.heads_late {
            return self.head_place(p, arrival);
        }
        match kept {
            Some(kept) if kept.time() == self.now => kept.moved_to(arrival),
            _ => self.queue.reserve(arrival),
        }
    }

    /// A cell reaches the far end of a link: the next port of its VC, or its destination.
    #[inline(always)]
    pub(super) fn cross(&mut self, cell: Cell) {
        self.cross_as::<Asked>(cell, None);
    }

    /// [`cross`](Self::cross), into a port of which `K` is known: with `DIRECT`, `q`, the VC's
    /// next port, and the VC's slot there when the caller knows it (`at`).
    #[inline(always)]
    pub(super) fn cross_as<K: Known>(&mut self, mut cell: Cell, at: Option<(PortId, Option<u32>)>) {
        cell.hop += 1;
        if (!K::DIRECT || K::POLICED) && cell.hop == 1 {
            let vc = &mut self.vcs[cell.vc.index()];
            if let Some(policer) = &mut vc.policer {
                use celltrain_atm::contract::UpcAction;
                match policer.police(self.now, &mut cell) {
                    UpcAction::Pass => {}
                    UpcAction::Tag => vc.stats.cells_tagged += 1,
                    UpcAction::Discard => {
                        vc.stats.cells_policed += 1;
                        self.cell_lost(cell);
                        return;
                    }
                }
            }
        }
        if K::DIRECT {
            // (The port from the route where the caller does not know it: the next port of a
            // port crossed directly.)
            let (q, slot) = at.unwrap_or_else(|| (self.vcs[cell.vc.index()].route[usize::from(cell.hop)].0, None));
            debug_assert_eq!(self.vcs[cell.vc.index()].route[usize::from(cell.hop)].0, q);
            debug_assert!(K::FRAMES || cell.kind == CellKind::Raw);
            debug_assert!(K::POLICED || cell.hop > 1 || self.vcs[cell.vc.index()].policer.is_none());
            let slot = slot.unwrap_or_else(|| self.vcs[cell.vc.index()].route[usize::from(cell.hop)].1);
            if K::ABR_END && cell.kind == CellKind::Rm {
                self.arrive_rm(q, slot, cell);
                return;
            }
            self.arrive_analytic_at::<false, K>(q, slot, cell);
            return;
        }
        let vc = &self.vcs[cell.vc.index()];
        match vc.route.get(usize::from(cell.hop)) {
            Some(&(next, slot)) if cell.kind == CellKind::Rm => self.arrive_rm(next, slot, cell),
            Some(&(next, slot)) => self.arrive(next, slot, cell),
            None => self.receive(cell),
        }
    }
}

/// The place a `PipeHead` event of link `p()` for a head arriving at `at` takes now: `late` in
/// its instant by rule, by link (`PortPlan::heads_late`), else in order. (Also for a lifted
/// loop, which holds the queue alone, and asks which link only when it must.)
#[inline(always)]
pub(super) fn head_place_in(
    queue: &mut EventQueue<Event>,
    late: bool,
    p: impl FnOnce() -> PortId,
    at: SimTime,
) -> Place {
    if late {
        queue.reserve_late(at, p().0)
    } else {
        queue.reserve(at)
    }
}
