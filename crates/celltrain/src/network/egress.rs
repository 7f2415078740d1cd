//! Where a VC ends: cells delivered to the destination adapter's AAL5 reassembly (a lost last
//! cell merges a frame with the next, and both are lost), cells dropped on the way, and each
//! frame's fate once its last cell is accounted for.

use super::*;

impl Network {
    /// A cell reaches its VC's destination adapter.
    pub(super) fn receive(&mut self, cell: Cell) {
        let vc = &mut self.vcs[cell.vc.index()];
        // Only AAL5 cells are reassembled; an RM cell goes to ABR's end systems.
        if cell.kind != CellKind::Aal5 {
            if let Some(id) = cell.rm_id() {
                vc.stats.cells_delivered += 1;
                let rm = self.retire_rm_cell(cell.vc, id);
                self.abr_rm_delivered(cell.vc, rm);
            } else {
                vc.deliver_user_cell(cell.entered, self.now);
            }
            return;
        }
        // (The end system hears the EFCI bit first: it reads nothing the steps below change.)
        if vc.category == ServiceCategory::Abr {
            self.abr_data_delivered(cell.vc, cell.efci);
        }
        let (vc, frame, last_of_frame) = take_frame_cell(&mut self.vcs, &mut self.frames, &cell, self.now);
        let outcome = match vc.reassembly_timeout {
            None => vc.reassembler.on_cell(&cell, frame),
            Some(timeout) => match vc.reassembler.on_cell_timed(&cell, frame, self.now, timeout) {
                Reassembly::TimedOut { then, .. } => {
                    vc.stats.reassembly_timeouts += 1;
                    match then {
                        ReassemblyAfterTimeout::Pending => Reassembly::Pending,
                        ReassemblyAfterTimeout::Delivered(f) => Reassembly::Delivered(f),
                        ReassemblyAfterTimeout::Corrupted => Reassembly::Corrupted { cells: 0, frames: 0 },
                    }
                }
                other => other,
            },
        };
        self.settle_frame_cell(cell, last_of_frame, outcome);
    }

    /// An AAL5 cell inside its frame (not the frame's last) reaches its VC's destination
    /// adapter at `arrival`, when the VC keeps no reassembly timer (and, on an ABR VC, its end
    /// system has heard the cell's EFCI bit): the steps [`receive`](Self::receive) takes for
    /// it, without the questions it answers for other cells (for a fan-in group's direct
    /// crossing, which lands such cells by the thousand, and the last links of ABR VCs).
    #[inline(always)]
    pub(super) fn receive_inner_cell(&mut self, cell: Cell, arrival: SimTime) {
        if let Some(outcome) = take_inner_cell(&mut self.vcs, &mut self.frames, &cell, arrival) {
            self.settle_inner_cell(cell, arrival, outcome);
        }
    }

    /// The rest of [`receive_inner_cell`](Self::receive_inner_cell) for a cell that is its
    /// frame's last accounted for (the frame's end was lost), with the reassembly's `outcome`.
    #[cold]
    #[inline(never)]
    pub(super) fn settle_inner_cell(&mut self, cell: Cell, arrival: SimTime, outcome: Reassembly) {
        let now = self.now;
        self.now = arrival;
        self.settle_frame_cell(cell, true, outcome);
        self.now = now;
    }

    /// The reassembly's `outcome` for `cell`, which is its frame's last accounted for if
    /// `last_of_frame`: a frame delivered goes on, a frame lost is counted.
    #[inline(always)]
    fn settle_frame_cell(&mut self, cell: Cell, last_of_frame: bool, outcome: Reassembly) {
        let vc = &mut self.vcs[cell.vc.index()];
        match outcome {
            Reassembly::Pending | Reassembly::TimedOut { .. } => {}
            Reassembly::Delivered(frame) => {
                // A frame delivered whole has every cell received, this one last.
                debug_assert!(frame == cell.frame && last_of_frame, "a frame delivered with cells outstanding");
                self.tally.trace.fold(self.now, TRACE_DELIVERY, cell.vc.0);
                vc.stats.frames_delivered += 1;
                let mut packet = self.frames.release(frame);
                // The VC's far end reached: the packet goes on along its route.
                packet.hop += 1;
                self.forward(packet);
                return;
            }
            Reassembly::Corrupted { .. } => vc.stats.corrupted_pdus += 1,
        }
        if last_of_frame {
            // Its last cell received, the frame was not delivered: it is lost.
            let packet = self.frames.release(cell.frame);
            self.frame_lost(cell.vc, packet);
        }
    }

    pub(super) fn cell_lost(&mut self, cell: Cell) {
        // Drops and frame outcomes are folded too: two policies can produce the same event
        // timing while losing different cells.
        count_lost(&mut self.tally.trace, &mut self.vcs, self.now, cell.vc);
        match cell.kind {
            CellKind::Aal5 => {
                if let Some(packet) = self.frames.account_dropped(cell.frame) {
                    self.frame_lost(cell.vc, packet);
                }
            }
            CellKind::Rm => self.rm_cell_gone(&cell),
            CellKind::Raw => {}
        }
    }

    /// `cells` cells of one AAL5 frame, the first `first`, all lost now (a frame's refused tail,
    /// at a full ABR end system): each through `count_lost`, as `cell_lost` counts one, and the
    /// frame accounted for at once. (`cell_lost` calling this for its one cell measured A5-udp
    /// +2 %, A4 +1.6 % instructions: the per-cell path keeps its own two steps.)
    pub(super) fn frame_cells_lost(&mut self, first: &Cell, cells: u32) {
        debug_assert!(first.kind == CellKind::Aal5, "cells of an AAL5 frame");
        for _ in 0..cells {
            count_lost(&mut self.tally.trace, &mut self.vcs, self.now, first.vc);
        }
        if let Some(packet) = self.frames.account_dropped_cells(first.frame, cells) {
            self.frame_lost(first.vc, packet);
        }
    }

    /// A frame of `vc` carrying `packet` is lost, its every cell accounted for.
    #[cold]
    fn frame_lost(&mut self, vc: VcId, packet: Packet) {
        self.vcs[vc.index()].stats.frames_lost += 1;
        self.flows[packet.flow.index()].packet_settled(packet.counted, true);
    }
}

/// What every lost cell of `vc` at `now` changes, whatever its kind (see [`Network::cell_lost`]).
#[inline(always)]
pub(super) fn count_lost(trace: &mut TraceHash, vcs: &mut [Vc], now: SimTime, vc: VcId) {
    trace.fold(now, TRACE_DROP, vc.0);
    vcs[vc.index()].stats.cells_dropped += 1;
}

/// [`Network::receive_inner_cell`] on the parts of the network it changes, up to the frame's
/// fate: the cell is counted and reassembled. Returns the reassembly's outcome when the cell
/// is its frame's last accounted for (its end lost), for
/// [`settle_inner_cell`](Network::settle_inner_cell); else the frame is pending.
#[inline(always)]
pub(super) fn take_inner_cell(
    vcs: &mut [Vc],
    frames: &mut FrameArena<Packet>,
    cell: &Cell,
    arrival: SimTime,
) -> Option<Reassembly> {
    debug_assert!(cell.kind == CellKind::Aal5 && !cell.end_of_frame);
    let (vc, frame, last_of_frame) = take_frame_cell(vcs, frames, cell, arrival);
    debug_assert!(vc.reassembly_timeout.is_none());
    let outcome = vc.reassembler.on_cell(cell, frame);
    // (A cell that does not end its frame leaves it pending; its frame is settled only if it
    // is the frame's last cell accounted for, its end lost.)
    debug_assert!(matches!(outcome, Reassembly::Pending));
    last_of_frame.then_some(outcome)
}

/// An AAL5 cell reaches its VC's destination at `at`: it is counted delivered, and accounted
/// for in its frame at once (nothing reads the count before the frame's fate is settled: one
/// lookup of the frame for both). Returns the VC, the frame, and whether the cell is the
/// frame's last accounted for, for the reassembly ([`Network::receive`], and
/// [`take_inner_cell`] in the loops that land cells inside their frames).
#[inline(always)]
fn take_frame_cell<'v>(
    vcs: &'v mut [Vc],
    frames: &mut FrameArena<Packet>,
    cell: &Cell,
    at: SimTime,
) -> (&'v mut Vc, FrameInfo, bool) {
    let vc = &mut vcs[cell.vc.index()];
    vc.deliver_user_cell(cell.entered, at);
    let (frame, last_of_frame) = frames.account_received(cell.frame);
    (vc, frame, last_of_frame)
}
