//! EPD's keep-EOM option, RM cells under frame-aware policies, and what a policy is shown.

use super::*;
use crate::abr::RmId;
use crate::port::buffer::{Admission, BufferAcceptance, EpdConfig, Occupancy};
use celltrain_core::rng::RngStream;

fn epd(threshold: u32, keep_refused_eom: bool) -> DiscardConfig {
    DiscardConfig::Epd(EpdConfig { threshold: EpdThreshold::Cells(threshold), keep_refused_eom })
}

/// A FIFO port whose VCs are counted one by one.
fn port(buffer_cells: u32, discard: DiscardConfig, vcs: usize) -> OutputPort {
    let config = PortConfig { discard, ..PortConfig::fifo(buffer_cells) };
    let mut port = OutputPort::new(&config, &vec![ServiceCategory::Ubr; vcs]);
    port.count_vc_cells();
    port
}

#[test]
fn keep_eom_keeps_exactly_the_last_cell_of_a_refused_frame() {
    let now = SimTime::ZERO;
    let mut p = port(10, epd(2, true), 2);
    assert_eq!(p.policy_name(), "epd-keep-eom");
    for i in 0..3 {
        offer(&mut p, cell(1, 7, i, false), now).unwrap();
    }
    let outcomes: Vec<_> = (0..5).map(|i| offer(&mut p, cell(0, 0, i, i == 4), now)).collect();
    assert_eq!(outcomes[..4], [Err(DropReason::EarlyPacketDiscard); 4], "refused at its first cell");
    assert_eq!(outcomes[4], Ok(()), "its EOM is kept");
    assert_eq!(p.vc_cells(0), 1);
    // Without the option the same frame is dropped whole.
    let mut q = port(10, epd(2, false), 2);
    for i in 0..3 {
        offer(&mut q, cell(1, 7, i, false), now).unwrap();
    }
    let outcomes: Vec<_> = (0..5).map(|i| offer(&mut q, cell(0, 0, i, i == 4), now)).collect();
    assert_eq!(outcomes, vec![Err(DropReason::EarlyPacketDiscard); 5]);
    // The next frame is decided afresh at its own first cell.
    while p.take_next(now).is_some() {}
    assert_eq!(offer(&mut p, cell(0, 1, 0, false), now), Ok(()));
}

#[test]
fn a_kept_eom_needs_room_and_a_one_cell_frame_is_refused_whole() {
    let now = SimTime::ZERO;
    let mut p = port(4, epd(1, true), 2);
    for i in 0..4 {
        offer(&mut p, cell(1, 7, i, false), now).unwrap();
    }
    assert_eq!(offer(&mut p, cell(0, 0, 0, false), now), Err(DropReason::EarlyPacketDiscard));
    assert_eq!(offer(&mut p, cell(0, 0, 1, true), now), Err(DropReason::BufferFull), "no room for the EOM");
    p.take_next(now);
    assert_eq!(offer(&mut p, cell(0, 1, 0, true), now), Err(DropReason::EarlyPacketDiscard), "a one-cell frame");
    assert_eq!(p.vc_cells(0), 0);
}

/// Random frames from several VCs under EPD with and without keep-EOM: every frame refused at
/// its first cell loses all its cells but the last, and its last is kept exactly when the
/// option is on, the frame has more than one cell and the pool has room.
#[test]
fn keep_eom_on_random_streams() {
    let mut rng = RngStream::derive(9, "keep-eom");
    let mut kept = 0;
    for round in 0..40 {
        let keep = round % 2 == 0;
        let mut p = port(24, epd(12, keep), 4);
        // Per VC: (frame, next index, length, refused at its first cell)
        let mut state: Vec<(u32, u16, u16, bool)> =
            (0..4).map(|v| (v * 1000, 0, 1 + rng.below(8) as u16, false)).collect();
        for step in 0..3000u64 {
            let now = SimTime::from_picos(step);
            let v = rng.below(4) as usize;
            let (frame, index, len, refused) = state[v];
            let eom = index + 1 == len;
            let room = p.occupancy() < 24;
            let result = offer(&mut p, cell(v as u32, frame, index, eom), now);
            let refused = if index == 0 { result == Err(DropReason::EarlyPacketDiscard) } else { refused };
            if refused && index > 0 {
                if eom && keep && room {
                    assert_eq!(result, Ok(()), "round {round}: the refused frame's EOM is kept");
                    kept += 1;
                } else if eom && keep {
                    assert_eq!(result, Err(DropReason::BufferFull));
                } else {
                    assert_eq!(result, Err(DropReason::EarlyPacketDiscard), "round {round}: the rest is dropped");
                }
            }
            state[v] =
                if eom { (frame + 1, 0, 1 + rng.below(8) as u16, false) } else { (frame, index + 1, len, refused) };
            if rng.below(3) == 0 {
                p.take_next(now);
            }
        }
    }
    assert!(kept > 200, "EOMs kept: {kept}");
}

#[test]
fn rm_cells_pass_frame_aware_policies_without_touching_frames() {
    let now = SimTime::ZERO;
    let rm = Cell::rm(VcId(0), RmId(3), false);
    // EPD refusing a frame: an RM cell in the middle of it is queued, and the frame stays refused.
    let mut p = port(8, epd(2, false), 2);
    for i in 0..3 {
        offer(&mut p, cell(1, 7, i, false), now).unwrap();
    }
    assert_eq!(offer(&mut p, cell(0, 0, 0, false), now), Err(DropReason::EarlyPacketDiscard));
    assert_eq!(offer(&mut p, rm, now), Ok(()));
    assert_eq!(offer(&mut p, cell(0, 0, 1, true), now), Err(DropReason::EarlyPacketDiscard));
    // PPD discarding a frame: an RM cell neither ends the frame nor is discarded with it.
    let mut q = port(2, DiscardConfig::Ppd(()), 2);
    offer(&mut q, cell(1, 7, 0, false), now).unwrap();
    offer(&mut q, cell(0, 0, 0, false), now).unwrap();
    assert_eq!(offer(&mut q, cell(0, 0, 1, false), now), Err(DropReason::BufferFull));
    q.take_next(now);
    assert_eq!(offer(&mut q, rm, now), Ok(()));
    q.take_next(now);
    assert_eq!(offer(&mut q, cell(0, 0, 2, false), now), Err(DropReason::PartialPacketDiscard));
    assert_eq!(offer(&mut q, cell(0, 0, 3, true), now), Ok(()), "the EOM is kept");
    let queued: Vec<CellKind> = q.queued_cells().map(|c| c.kind).collect();
    assert_eq!(queued, [CellKind::Rm, CellKind::Aal5]);
    assert_eq!(q.vc_cells(0), 2);
}

#[test]
fn a_policy_sees_the_time_and_both_occupancies() {
    let config =
        PortConfig { reserved: vec![(ServiceCategory::NrtVbr, 5)], per_vc_queues: true, ..PortConfig::fifo(9) };
    let mut p = OutputPort::new(&config, &[ServiceCategory::Ubr, ServiceCategory::NrtVbr, ServiceCategory::Ubr]);
    p.count_vc_cells();
    let now = SimTime::from_picos(40);
    for (v, n) in [(0, 3), (1, 2), (2, 1)] {
        for i in 0..n {
            offer(&mut p, cell(v, v, i, false), now).unwrap();
        }
    }
    assert_eq!((p.vc_cells(0), p.vc_cells(1), p.vc_cells(2)), (3, 2, 1));
    assert_eq!((p.pool_cells(0), p.pool_cells(1)), (4, 2), "VBR draws on its own pool");
    // What the port would show its policy for the next UBR cell of VC 2.
    let c = cell(2, 2, 1, true);
    let shown = Occupancy { slot: 2, pool_cells: p.pool_cells(0), capacity_cells: 9, vc_cells: p.vc_cells(2) };
    assert!(shown.has_room());
    let mut tail_drop = DiscardConfig::TailDrop(()).build(3, 9, RngStream::derive(0, "t"));
    assert_eq!(tail_drop.admit(&c, now, shown), Admission::Accept);
    assert_eq!(tail_drop.admit(&c, now, Occupancy { pool_cells: 9, ..shown }), Admission::Drop(DropReason::BufferFull));
    assert!(matches!(tail_drop, BufferAcceptance::TailDrop(_)) && tail_drop.accepts_while_room());
}
