//! IP over ATM at the hosts and routers: a packet goes hop by hop along its route, is
//! segmented into AAL5 cells (preventively tagged if the adapter says so) onto a VC, and goes
//! on from the VC's far end.

use super::*;

impl Network {
    /// Sends `packet` on its next hop, or hands it to its destination when the route ends.
    pub(super) fn forward(&mut self, packet: Packet) {
        match self.routes[packet.route.index()].hops.get(usize::from(packet.hop)) {
            Some(&Hop::Port(p)) => self.packet_arrive(p, packet),
            Some(&Hop::Vc(vc)) => self.segment(vc, packet),
            None => self.packet_receive(packet),
        }
    }

    /// Preventive tagging: would a PDU of `cells` cells, leaving adapter `p` now, conform
    /// whole to the VC's contract (see [`AdapterRules::tags_pdu`])? True: tag it.
    pub(super) fn preventive_tag(&mut self, p: PortId, cells: u32) -> bool {
        let now = self.now;
        let port = &self.ports[p.index()];
        if port.rules.as_ref().is_none_or(|r| !r.tags()) {
            return false;
        }
        let clock =
            if port.plan.path == PortPath::FifoEvents { Self::clock_after_queue(port) } else { port.tx.clock.clone() };
        self.ports[p.index()].rules.as_mut().expect("checked").tags_pdu(clock, now, cells)
    }

    /// A host sends `packet` along `route`.
    pub(super) fn send(&mut self, route: RouteId, mut packet: Packet) {
        packet.route = route;
        packet.hop = 0;
        self.capture(self.routes[route.index()].src, &packet);
        self.forward(packet);
    }

    /// Segments a datagram into AAL5 cells and hands them to the first port of `vc_id`.
    pub(super) fn segment(&mut self, vc_id: VcId, packet: Packet) {
        let cells = aal5::cells_for_ip_datagram(packet.ip_bytes);
        let cells32 = u32::try_from(cells).expect("frame size checked at build");
        let frame = self.frames.insert(packet, cells32);
        let vc = &mut self.vcs[vc_id.index()];
        vc.stats.frames_sent += 1;
        vc.stats.cells_sent += cells;
        let (first, slot) = vc.route[0];
        if let Some(a) = self.abr.of(vc_id) {
            // An ABR VC's cells wait in its source end system, which paces them at ACR.
            self.abr_enqueue(a, cells32, |index| frame_cell(vc_id, frame, index, cells32, false));
            return;
        }
        let tag = self.preventive_tag(first, cells32);
        if tag {
            self.vcs[vc_id.index()].stats.frames_tagged += 1;
        }
        let any_clp1 = tag && cells32 > 1;
        // Preventive tagging keeps the last cell CLP = 0, so the frame stays delimited.
        // (The cell's fields captured by value: the loops that put a run on the wire read them
        // from registers, not through the closure's references.)
        self.arrive_run(first, slot, cells32, any_clp1, move |index| {
            frame_cell(vc_id, frame, index, cells32, tag && index + 1 < cells32)
        });
    }
}

/// Cell `index` of the `cells` cells of AAL5 frame `frame` on `vc`.
#[inline(always)]
fn frame_cell(vc: VcId, frame: celltrain_core::ids::FrameId, index: u32, cells: u32, clp: bool) -> Cell {
    debug_assert!(index < cells && cells <= u32::from(u16::MAX), "frame size checked at build");
    Cell {
        vc,
        frame,
        // (A frame has at most 1366 cells: its size is checked at build.)
        index: index as u16,
        hop: 0,
        end_of_frame: index + 1 == cells,
        clp,
        efci: false,
        kind: CellKind::Aal5,
        entered: celltrain_core::time::SimTime::ZERO,
    }
}
