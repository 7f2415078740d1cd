//! The three GFR switch designs, frame by frame on hand-made cell sequences through a port.

use super::*;
use crate::port::buffer::{FrameRedConfig, RedParams};

fn port(discard: DiscardConfig, buffer_cells: u32, vcs: usize) -> OutputPort {
    let config = PortConfig {
        buffer_cells,
        reserved: vec![],
        discard,
        per_vc_queues: true,
        clp1_threshold: None,
        efci_threshold: None,
        scheduler: Default::default(),
    };
    OutputPort::new(&config, &vec![ServiceCategory::Gfr; vcs])
}

/// Offers a whole frame of `len` cells of `vc` (CLP `clp`) and returns how many cells entered.
fn frame(port: &mut OutputPort, vc: u32, id: u32, len: u16, clp: bool) -> u16 {
    let mut accepted = 0;
    for i in 0..len {
        let c = Cell { clp, ..cell(vc, id, i, i + 1 == len) };
        if offer(port, c, SimTime::ZERO).is_ok() {
            accepted += 1;
        }
    }
    accepted
}

/// Fills the port with one CLP = 0 frame of `n` cells of `vc`, which must be accepted.
fn fill(port: &mut OutputPort, vc: u32, n: u16) {
    assert_eq!(frame(port, vc, 999, n, false), n, "the filling frame is accepted");
}

#[test]
fn simple_switch_vector_5d() {
    // LBO = 50, HBO = 90: at Q = 60 a CLP = 1 frame is refused and a CLP = 0 frame accepted;
    // at Q = 95 a CLP = 0 frame is refused.
    let mut p = port(DiscardConfig::GfrFifo(GfrFifoConfig { low_cells: 50, high_cells: 90 }), 200, 3);
    fill(&mut p, 0, 60);
    assert_eq!(frame(&mut p, 1, 1, 4, true), 0, "CLP = 1 at 60 ≥ LBO: refused whole");
    assert_eq!(p.stats.dropped[DropReason::ClpThreshold as usize], 4);
    assert_eq!(frame(&mut p, 1, 2, 4, false), 4, "CLP = 0 at 60 < HBO: accepted");
    fill(&mut p, 2, 31); // 95 cells
    assert_eq!(frame(&mut p, 1, 3, 4, false), 0, "CLP = 0 at 95 ≥ HBO: refused whole");
    assert_eq!(p.stats.dropped[DropReason::EarlyPacketDiscard as usize], 4);
}

#[test]
fn simple_switch_decides_at_the_first_cell_only() {
    let mut p = port(DiscardConfig::GfrFifo(GfrFifoConfig { low_cells: 10, high_cells: 20 }), 24, 2);
    fill(&mut p, 0, 8);
    // A CLP = 1 frame starting at 8 < 10 is accepted whole although it crosses the low
    // threshold; a CLP = 0 frame starting at 18 < 20 runs into the full buffer (24): PPD
    // drops its middle and keeps its last cell once there is room.
    assert_eq!(frame(&mut p, 1, 1, 10, true), 10);
    let outcomes: Vec<bool> = (0..8u16).map(|i| offer(&mut p, cell(1, 2, i, false), SimTime::ZERO).is_ok()).collect();
    assert_eq!(outcomes, [true, true, true, true, true, true, false, false]);
    p.take_next(SimTime::ZERO);
    assert_eq!(offer(&mut p, cell(1, 2, 8, true), SimTime::ZERO), Ok(()), "end of frame kept");
    // The next frame starts at 24 ≥ 20: refused whole.
    assert_eq!(frame(&mut p, 1, 3, 2, false), 0);
}

#[test]
fn per_vc_threshold_switch_frame_by_frame() {
    // Low 10, high 20, per-VC threshold 5, buffer 40.
    let mut p =
        port(DiscardConfig::PerVcThreshold(PerVcThresholdConfig { low_cells: 10, high_cells: 20, vc_cells: 5 }), 40, 3);
    assert_eq!(frame(&mut p, 1, 1, 3, true), 3, "below low: CLP = 1 accepted");
    fill(&mut p, 0, 9); // 12 cells
    assert_eq!(frame(&mut p, 1, 2, 3, true), 0, "at or above low: CLP = 1 refused");
    assert_eq!(frame(&mut p, 1, 3, 6, false), 6, "between low and high: every CLP = 0 frame (VC 1 now 9)");
    fill(&mut p, 2, 3); // 21 cells: VC 0 9, VC 1 9, VC 2 3
    assert_eq!(frame(&mut p, 1, 4, 2, false), 0, "above high, VC 1 at 9 ≥ 5: refused");
    assert_eq!(frame(&mut p, 2, 5, 2, false), 2, "above high, VC 2 at 3 < 5: accepted");
    assert_eq!(frame(&mut p, 2, 6, 2, false), 0, "VC 2 now at 5: refused");
    assert_eq!(frame(&mut p, 2, 7, 2, true), 0, "CLP = 1 above low: refused");
    assert_eq!(p.stats.dropped[DropReason::ClpThreshold as usize], 5);
    assert_eq!(p.stats.dropped[DropReason::EarlyPacketDiscard as usize], 4);
    // Back between the thresholds (15 cells): VC 1's CLP = 0 frame is accepted again.
    for _ in 0..8 {
        p.take_next(SimTime::ZERO).expect("queued");
    }
    assert_eq!(p.occupancy(), 15);
    assert!(p.vc_cells(1) >= 5, "VC 1 still above its threshold");
    assert_eq!(frame(&mut p, 1, 8, 2, false), 2);
    assert_eq!(frame(&mut p, 1, 9, 2, true), 0);
}

fn red_config(vc_low: u32, vc_high: u32) -> FrameRedConfig {
    // Average pinned at once (w_q = 1): RED drops every frame it decides for from max_th on.
    let red = RedParams {
        min_th: 10.0,
        max_th: 20.0,
        max_p: 0.1,
        weight: 1.0,
        idle_unit: celltrain_core::time::SimDuration::from_picos(1),
    };
    FrameRedConfig { red, vc_low_cells: vc_low, vc_high_cells: vc_high }
}

#[test]
fn frame_red_switch_frame_by_frame() {
    // Per-VC low 3, high 6; the whole buffer's average (w_q = 1) is the occupancy at each
    // frame's first cell; at or above max_th = 20 RED refuses every frame it decides for.
    let mut p = port(DiscardConfig::FrameRed(red_config(3, 6)), 100, 4);
    fill(&mut p, 0, 25); // average 25 ≥ max_th from the next first cell on
    assert_eq!(frame(&mut p, 1, 1, 2, true), 2, "VC 1 below its low threshold: accepted, CLP = 1 too");
    assert_eq!(frame(&mut p, 1, 2, 2, true), 2, "VC 1 at 2 < 3: accepted");
    assert_eq!(frame(&mut p, 1, 3, 2, true), 0, "VC 1 at 4, between low and high: RED refuses CLP = 1");
    assert_eq!(frame(&mut p, 1, 4, 2, false), 2, "CLP = 0 between low and high: accepted");
    assert_eq!(frame(&mut p, 1, 5, 2, false), 0, "VC 1 at 6 ≥ high: RED decides for CLP = 0 too");
    assert_eq!(p.stats.dropped[DropReason::EarlyPacketDiscard as usize], 4);
    // Below min_th RED accepts everything, above a VC's high threshold included.
    let mut p = port(DiscardConfig::FrameRed(red_config(3, 6)), 100, 4);
    fill(&mut p, 1, 7);
    assert_eq!(frame(&mut p, 1, 1, 2, true), 2, "average 7 < min_th");
}
