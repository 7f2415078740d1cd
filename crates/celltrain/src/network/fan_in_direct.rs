//! Direct crossing: a fan-in group hands each head through its target in one step.
//!
//! A head handed out by a fan-in group takes the general cell path: `cross` asks whether the
//! cell is policed and where its VC goes next, `arrive` which way the port runs, the analytic
//! port whether an adapter's rules time it, `start_cell` whether the cell is its VC's first,
//! whether an AAL5 frame ends on a captured link, whether the far end is carried, and `carry`
//! what kind of cell it is and whether its VC ends there. Where the group's target is an
//! analytic FIFO switch port carried ahead to the destination of every VC that reaches it, as
//! ATM-layer cells that are not policed on the way in (the on/off multiplexer of peer twin
//! `a`), the plan has answered all of these once for the group. Each head then runs the same
//! steps in the same order, with the same counters, clocks and trace folds, and nothing about
//! the run changes, not even the event count or the trace hash. A cell that may not be carried
//! yet (an observation of the network comes first, or cells wait in the pipe) goes on from the
//! wire by the general path.
//!
//! The gain is more than the questions skipped: the general path, one body for every kind of
//! port and cell, keeps little in registers across it. Twin `a` runs about a quarter faster
//! (benches/README.md).

use super::{Adaptation, Network, PortPath};
use celltrain_atm::cell::Cell;
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::PortId;

impl Network {
    /// Whether a fan-in group into `q` may hand its heads through `q` in one step: `q` runs
    /// analytically, with no adapter rules, no capture and no burst handed to it, is carried
    /// ahead, and is the last port of every VC that crosses it, each an ATM-layer VC (not ABR)
    /// with no policer where `q` is its first switch.
    pub(super) fn crosses_directly(&self, q: PortId) -> bool {
        let target = &self.ports[q.index()];
        let plain = self.options.direct_crossing
            && target.path == PortPath::Analytic
            && target.carry
            && !target.adapter_rules
            && target.capture.is_none()
            && !target.burst_handoff
            && target.handed.pending() == 0;
        plain
            && self.vcs.iter().all(|vc| match vc.route.iter().position(|&(p, _)| p == q) {
                None => true,
                Some(h) => {
                    h + 1 == vc.route.len()
                        && vc.adaptation == Adaptation::Raw
                        && vc.category != ServiceCategory::Abr
                        && (h != 1 || vc.policer.is_none())
                }
            })
    }

    /// `cell`, the head of a member's pipe, crosses the link into `q`, the target of a group
    /// that crosses directly, and `q` itself: what `cross` does with it there. `slot` is the
    /// cell's VC's index at `q`, when the cell's train knows it.
    #[inline(always)]
    pub(super) fn cross_directly(&mut self, q: PortId, mut cell: Cell, slot: Option<u32>) {
        cell.hop += 1;
        let now = self.now;
        let slot = slot.unwrap_or_else(|| self.vcs[cell.vc.index()].route[usize::from(cell.hop)].1);
        // `arrive_analytic`, for a port without adapter rules or a handed burst.
        let port = &mut self.ports[q.index()];
        port.release_queued(now);
        let start = port.clock.free_at().max(now);
        if port.admit_analytic(&cell, slot, start, now).is_err() {
            self.cell_lost(cell);
            return;
        }
        // `start_cell`, for a cell past its VC's first link that ends no AAL5 frame, on a port
        // without adapter rules, then `carry` to its VC's end, where it lands; by `start_cell`
        // itself when the cell might arrive too late to be carried (no later than a cell time
        // after its start), or cells wait in the pipe. (Calling `carry` from here instead would
        // give it a second caller, and the compiler would then take it out of `start_cell`, on
        // the path of every carried cell: `bench null` +9 % instructions.)
        if port.pipe.is_empty() && start + port.clock.line_cell_time() + port.delay < self.carry_before {
            self.cell_hops += 1;
            let arrival = port.clock.start(start) + port.delay;
            self.land_raw(q, &cell, arrival);
        } else {
            self.start_cell(q, cell, start);
        }
    }
}
