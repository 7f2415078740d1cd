//! Port tests: reference vectors and promises here; equivalence with the port as it was
//! (`legacy`), per-VC occupancy and the scheduler in `equivalence`; EPD's options and RM cells
//! in `acceptance`.

mod acceptance;
mod equivalence;
mod fair_share;
mod gfr;
mod legacy;

use super::buffer::{DiscardConfig, DropReason, EpdConfig, EpdThreshold, GfrFifoConfig, PerVcThresholdConfig};
use super::*;
use crate::cell::CellKind;
use celltrain_core::ids::{FrameId, VcId};
use celltrain_core::time::SimDuration;
use celltrain_core::units::BitRate;

fn cell(vc: u32, frame: u32, index: u16, eof: bool) -> Cell {
    Cell {
        vc: VcId(vc),
        frame: FrameId(frame),
        index,
        hop: 0,
        end_of_frame: eof,
        clp: false,
        efci: false,
        kind: CellKind::Aal5,
        entered: celltrain_core::time::SimTime::ZERO,
    }
}

/// Offers `c` to `port`; in these tests VC k has slot k.
fn offer(port: &mut OutputPort, c: Cell, now: SimTime) -> Result<(), DropReason> {
    port.offer(c, c.vc.0, now)
}

/// Vector 3.a (`docs/references.md#test-vectors`): K = 4, one arrival per slot, one departure at the end of every
/// odd slot, three 6-cell frames. Returns (accepted, dropped) per frame.
fn run_3a(discard: DiscardConfig) -> Vec<(u32, u32)> {
    let config = PortConfig {
        buffer_cells: 4,
        reserved: vec![],
        discard,
        per_vc_queues: false,
        clp1_threshold: None,
        efci_threshold: None,
        scheduler: Default::default(),
    };
    let mut port = OutputPort::new(&config, &[ServiceCategory::Ubr]);
    let mut per_frame = vec![(0, 0); 3];
    for t in 0..18u16 {
        let now = SimTime::from_picos(u64::from(t));
        let frame = t / 6;
        let c = cell(0, u32::from(frame), t % 6, t % 6 == 5);
        match offer(&mut port, c, now) {
            Ok(()) => per_frame[frame as usize].0 += 1,
            Err(_) => per_frame[frame as usize].1 += 1,
        }
        if t % 2 == 1 {
            port.take_next(now);
        }
    }
    let s = &port.stats;
    assert_eq!(s.cells_in, s.cells_out + s.dropped_total() + u64::from(port.occupancy()), "port identity");
    per_frame
}

#[test]
fn vector_3a_tail_drop() {
    assert_eq!(run_3a(DiscardConfig::TailDrop(())), vec![(6, 0), (3, 3), (3, 3)]);
}

#[test]
fn vector_3a_ppd_keeps_the_end_of_frame_cell() {
    assert_eq!(run_3a(DiscardConfig::Ppd(())), vec![(6, 0), (2, 4), (4, 2)]);
}

#[test]
fn vector_3a_epd() {
    assert_eq!(run_3a(DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(2)))), vec![(6, 0), (0, 6), (6, 0)]);
}

#[test]
fn epd_decides_only_at_the_first_cell_and_falls_back_to_ppd() {
    let config = PortConfig {
        buffer_cells: 5,
        reserved: vec![],
        discard: DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(2))),
        per_vc_queues: false,
        clp1_threshold: None,
        efci_threshold: None,
        scheduler: Default::default(),
    };
    let mut port = OutputPort::new(&config, &[ServiceCategory::Ubr]);
    let now = SimTime::ZERO;
    // Frame 0 (8 cells) starts with an empty buffer: accepted until the pool (5) is full, then
    // PPD drops the middle and keeps the end-of-frame cell once there is room.
    let outcomes: Vec<_> = (0..7).map(|i| offer(&mut port, cell(0, 0, i, false), now)).collect();
    assert_eq!(outcomes[..5], [Ok(()); 5]);
    assert_eq!(outcomes[5], Err(DropReason::BufferFull));
    assert_eq!(outcomes[6], Err(DropReason::PartialPacketDiscard));
    port.take_next(now);
    assert_eq!(offer(&mut port, cell(0, 0, 7, true), now), Ok(()), "EOM kept");
    // Next frame: occupancy 5 >= threshold 2: refused whole, EOM included.
    assert_eq!(offer(&mut port, cell(0, 1, 0, false), now), Err(DropReason::EarlyPacketDiscard));
    for _ in 0..5 {
        port.take_next(now);
    }
    assert_eq!(
        offer(&mut port, cell(0, 1, 1, true), now),
        Err(DropReason::EarlyPacketDiscard),
        "decision holds for the frame"
    );
    assert_eq!(offer(&mut port, cell(0, 2, 0, true), now), Ok(()), "new frame, empty buffer");
}

#[test]
fn epd_threshold_rules() {
    // MSc98: min{0.8·8192, 8192 − 3·192} = min{6553.6, 7616} -> 6553.
    assert_eq!(EpdThreshold::MSc98 { mtu_cells: 192 }.resolve(8192), 6553);
    // LRP97: 1088 − 0.5·192 = 992; b = 0 is the whole buffer (PPD).
    assert_eq!(EpdThreshold::ExcessMtus { b: 0.5, mtu_cells: 192 }.resolve(1088), 992);
    assert_eq!(EpdThreshold::ExcessMtus { b: 0.0, mtu_cells: 192 }.resolve(1088), 1088);
    assert_eq!(EpdThreshold::Fraction(0.8).resolve(1000), 800);
}

#[test]
fn strict_priority_and_round_robin() {
    let config = PortConfig {
        buffer_cells: 100,
        reserved: vec![(ServiceCategory::NrtVbr, 10)],
        discard: DiscardConfig::TailDrop(()),
        per_vc_queues: true,
        clp1_threshold: None,
        efci_threshold: None,
        scheduler: Default::default(),
    };
    let vcs = [ServiceCategory::Ubr, ServiceCategory::Ubr, ServiceCategory::NrtVbr];
    let mut port = OutputPort::new(&config, &vcs);
    let now = SimTime::ZERO;
    for i in 0..3 {
        offer(&mut port, cell(0, 0, i, false), now).unwrap();
    }
    offer(&mut port, cell(1, 1, 0, false), now).unwrap();
    offer(&mut port, cell(2, 2, 0, false), now).unwrap();
    let order: Vec<u32> = std::iter::from_fn(|| port.take_next(now)).map(|c| c.vc.0).collect();
    assert_eq!(order, vec![2, 0, 1, 0, 0]);
    // The reserved VBR pool fills independently of the shared pool.
    for i in 0..10 {
        offer(&mut port, cell(2, 3, i, false), now).unwrap();
    }
    assert_eq!(offer(&mut port, cell(2, 3, 10, false), now), Err(DropReason::BufferFull));
    assert_eq!(offer(&mut port, cell(0, 4, 0, false), now), Ok(()));
}

#[test]
fn mean_queue_is_time_weighted() {
    let mut port = OutputPort::new(&PortConfig::fifo(10), &[ServiceCategory::Ubr]);
    port.open_window(SimTime::ZERO);
    offer(&mut port, cell(0, 0, 0, false), SimTime::from_picos(0)).unwrap();
    offer(&mut port, cell(0, 0, 1, false), SimTime::from_picos(10)).unwrap();
    port.take_next(SimTime::from_picos(30));
    // 1 cell for 10 ps, 2 for 20 ps, 1 for 10 ps over 40 ps = 60/40.
    assert!((port.stats.mean_queue_cells(SimTime::from_picos(40), port.occupancy()) - 1.5).abs() < 1e-12);
    assert_eq!(port.stats.max_queue_cells, 2);
}

#[test]
fn tx_clock_does_not_drift_and_paces() {
    let line = BitRate::from_bps(149_760_000);
    let mut clock = TxClock::new(line, line);
    let mut now = SimTime::ZERO;
    let mut done = SimTime::ZERO;
    for _ in 0..353_207 {
        done = clock.start(now);
        now = clock.free_at();
    }
    assert_eq!(done, SimTime::ZERO + line.cell_offset_ceil(353_207));
    assert!(done <= SimTime::ZERO + SimDuration::from_secs(1));
    // A NIC paced at 10 Mbit/s: cells start one 42.4 us slot apart but each lasts 2.83 us.
    let mut paced = TxClock::new(line, BitRate::from_bps(10_000_000));
    let end = paced.start(SimTime::ZERO);
    assert_eq!(end, SimTime::ZERO + line.cell_time_ceil());
    assert_eq!(paced.free_at().as_picos(), 42_400_000);
}

/// Random frame streams from several VCs into a small buffer under each policy, with random
/// service: the buffer never overflows, the identity holds, EPD refuses a frame only at its
/// first cell, and once PPD/EPD drop a cell of a frame no later cell of it but the EOM enters.
#[test]
fn policies_keep_their_promises_on_random_streams() {
    use celltrain_core::rng::RngStream;
    for (round, discard) in [
        DiscardConfig::TailDrop(()),
        DiscardConfig::Ppd(()),
        DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(20))),
    ]
    .iter()
    .cycle()
    .take(30)
    .enumerate()
    {
        let mut rng = RngStream::derive(round as u64, "policy");
        let config = PortConfig {
            buffer_cells: 32,
            reserved: vec![],
            discard: *discard,
            per_vc_queues: round % 2 == 0,
            clp1_threshold: None,
            efci_threshold: None,
            scheduler: Default::default(),
        };
        let mut port = OutputPort::new(&config, &[ServiceCategory::Ubr; 4]);
        // Per VC: (frame, next index, frame length, a cell of this frame was dropped, first cell outcome)
        let mut state: Vec<(u32, u16, u16, bool)> =
            (0..4).map(|v| (v * 1000, 0, 1 + rng.below(12) as u16, false)).collect();
        for step in 0..4000u64 {
            let now = SimTime::from_picos(step);
            let v = rng.below(4) as usize;
            let (frame, index, len, dropped_before) = state[v];
            let eof = index + 1 == len;
            let occupancy = port.occupancy();
            let result = offer(&mut port, cell(v as u32, frame, index, eof), now);
            assert!(port.occupancy() <= 32);
            if let Err(reason) = result {
                if reason == DropReason::EarlyPacketDiscard && index == 0 {
                    assert!(occupancy >= 20, "EPD refused a frame below the threshold");
                }
            } else if dropped_before && !eof && !matches!(discard, DiscardConfig::TailDrop(())) {
                panic!("{discard:?} accepted a middle cell of a damaged frame");
            }
            if index == 0 && result.is_ok() {
                assert!(
                    !matches!(discard, DiscardConfig::Epd(_)) || occupancy < 20,
                    "EPD accepted a frame at/above the threshold"
                );
            }
            state[v] = if eof {
                (frame + 1, 0, 1 + rng.below(12) as u16, false)
            } else {
                (frame, index + 1, len, dropped_before || result.is_err())
            };
            if rng.below(3) == 0 {
                port.take_next(now);
            }
        }
        let s = &port.stats;
        assert_eq!(s.cells_in, s.cells_out + s.dropped_total() + u64::from(port.occupancy()));
    }
}

#[test]
fn clp1_cells_are_refused_above_their_threshold() {
    let config = PortConfig { clp1_threshold: Some(2), ..PortConfig::fifo(4) };
    let mut port = OutputPort::new(&config, &[ServiceCategory::NrtVbr]);
    let now = SimTime::ZERO;
    let tagged = |i| Cell { clp: true, ..cell(0, 0, i, false) };
    assert_eq!(offer(&mut port, tagged(0), now), Ok(()));
    assert_eq!(offer(&mut port, cell(0, 0, 1, false), now), Ok(()));
    assert_eq!(offer(&mut port, tagged(2), now), Err(DropReason::ClpThreshold), "2 queued: CLP 1 refused");
    assert_eq!(offer(&mut port, cell(0, 0, 3, false), now), Ok(()), "CLP 0 still accepted");
    assert_eq!(port.stats.dropped[DropReason::ClpThreshold as usize], 1);
}

/// A run admitted at once leaves the port as that many single virtual admissions would, or is
/// refused whole where one of them would not be accepted or the policy keeps per-cell state:
/// random pre-filled single-FIFO ports (shared or reserved pool, CLP = 1 thresholds, every
/// policy) against a copy offered the same cells one by one.
#[test]
fn a_run_admitted_at_once_is_as_single_admissions() {
    use celltrain_core::rng::RngStream;
    let mut rng = RngStream::derive(3, "runs");
    let (mut taken, mut refused) = (0, 0);
    for round in 0..2000u32 {
        let discard = match rng.below(3) {
            0 => DiscardConfig::TailDrop(()),
            1 => DiscardConfig::Ppd(()),
            _ => DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(6))),
        };
        let category = if rng.below(2) == 0 { ServiceCategory::Ubr } else { ServiceCategory::NrtVbr };
        let config = PortConfig {
            buffer_cells: 12,
            reserved: if rng.below(2) == 0 { vec![] } else { vec![(ServiceCategory::NrtVbr, 9)] },
            discard,
            per_vc_queues: false,
            clp1_threshold: [None, Some(0), Some(3)][rng.below(3) as usize],
            efci_threshold: None,
            scheduler: Default::default(),
        };
        let (mut one, mut each) = (OutputPort::new(&config, &[category]), OutputPort::new(&config, &[category]));
        let mut now = SimTime::from_picos(0);
        for _ in 0..rng.below(14) {
            let c = cell(0, 0, 0, true);
            let (a, b) = (one.admit_virtual(&c, 0, now), each.admit_virtual(&c, 0, now));
            assert_eq!(a, b);
            now += SimDuration::from_picos(1 + rng.below(5));
        }
        let cells = rng.below(6) as u32;
        let any_clp1 = rng.below(3) == 0;
        let run = |k: u32| Cell { clp: any_clp1 && k + 1 < cells, ..cell(0, 1, k as u16, k + 1 == cells) };
        if one.admit_virtual_run(0, cells, any_clp1 && cells > 1, now) {
            for k in 0..cells {
                assert!(
                    each.admit_virtual(&run(k), 0, now).is_ok(),
                    "round {round}: a run admitted a cell one alone is refused"
                );
            }
            taken += u32::from(cells > 0);
        } else {
            assert_eq!(one.stats, each.stats, "round {round}: a refused run changed the port");
            refused += 1;
            continue;
        }
        let later = now + SimDuration::from_picos(7);
        assert_eq!(one.stats, each.stats, "round {round}");
        assert_eq!(one.occupancy(), each.occupancy());
        assert_eq!(
            one.stats.mean_queue_cells(later, one.occupancy()),
            each.stats.mean_queue_cells(later, each.occupancy())
        );
    }
    assert!(taken > 200 && refused > 200, "runs taken {taken}, refused {refused}");
}

/// A run's cells leave as one-by-one departures at their start times would: the same counters
/// and occupancy area, whether only the counters follow departures or a change trace does too;
/// a cell that starts at the very instant of the release leaves then (it must be gone before
/// an arrival at that instant is offered the buffer).
#[test]
fn a_run_departs_as_its_cells_one_by_one() {
    use crate::port::{StartRun, TxClock};
    use celltrain_core::units::BitRate;
    let mut rng = celltrain_core::rng::RngStream::derive(11, "start-runs");
    for round in 0..200u32 {
        let watched = round % 3 == 0;
        let new_port = || {
            let mut port = OutputPort::new(&PortConfig::fifo(5000), &[ServiceCategory::Ubr]);
            if watched {
                port.record_changes(celltrain_core::RowPool::new(100_000));
            }
            port
        };
        let (mut run_port, mut one_port) = (new_port(), new_port());
        let mut clock = TxClock::new(BitRate::from_bps(155_520_000), BitRate::from_bps(1 + rng.below(155_520_000)));
        let from = SimTime::from_picos(rng.below(1_000_000));
        let cells = 2 + rng.below(300) as u32;
        assert!(run_port.admit_virtual_run(0, cells, false, from) && one_port.admit_virtual_run(0, cells, false, from));
        // The cells' start times, as a run and one by one.
        let first = clock.free_at().max(from);
        clock.start(first);
        let mut run = StartRun { next: first, then: clock.free_at(), slots: clock.cursor(), more: cells - 1 };
        let times: Vec<SimTime> = run.clone().times().collect();
        assert_eq!(times.len(), cells as usize);
        let mut left = times.as_slice();
        let mut ended = false;
        while !ended {
            // Releases at a start time (a tie), just before one, or past several.
            let pick = left[rng.below(left.len() as u64) as usize];
            let now = match rng.below(3) {
                0 => pick,
                1 => SimTime::from_picos(pick.as_picos().saturating_sub(1).max(from.as_picos())),
                _ => pick + celltrain_core::time::SimDuration::from_picos(rng.below(10_000_000)),
            };
            ended = run_port.depart_virtual_run(&mut run, now);
            let gone = left.iter().take_while(|&&t| t <= now).count();
            for &t in &left[..gone] {
                one_port.depart_virtual(t);
            }
            left = &left[gone..];
            assert_eq!(ended, left.is_empty(), "round {round}: the run ends with its last start");
            if !ended {
                assert_eq!(run.next, left[0], "round {round}: the run's next start");
            }
            assert_eq!(run_port.occupancy(), one_port.occupancy(), "round {round}: occupancy at {now:?}");
            assert_eq!(run_port.stats, one_port.stats, "round {round}: counters at {now:?}");
            assert_eq!(run_port.changes(), one_port.changes(), "round {round}: changes at {now:?}");
        }
    }
}

/// A tail-drop FIFO's counts, taken out of the port and changed by `TailDropFifo`, end as the
/// port's own `admit_virtual`, `pass_through_at` and `depart_virtual` leave them: arrivals that
/// pass through, wait or are dropped (full, or CLP = 1 over the threshold), departures at ties
/// with arrivals, counts put back and taken out again midway; and none are given for a port
/// that is no tail-drop FIFO or whose departures are watched.
#[test]
fn a_tail_drop_fifo_counts_as_its_port() {
    let mut rng = celltrain_core::rng::RngStream::derive(17, "tail-drop-fifo");
    let (mut passed, mut dropped, mut clp_dropped) = (0u32, 0u32, 0u32);
    for round in 0..300u32 {
        let config = PortConfig {
            buffer_cells: 1 + rng.below(12) as u32,
            reserved: if rng.below(2) == 0 { vec![] } else { vec![(ServiceCategory::NrtVbr, 5)] },
            discard: DiscardConfig::TailDrop(()),
            per_vc_queues: false,
            clp1_threshold: [None, Some(0), Some(3)][rng.below(3) as usize],
            efci_threshold: None,
            scheduler: Default::default(),
        };
        let category = if rng.below(2) == 0 { ServiceCategory::Ubr } else { ServiceCategory::NrtVbr };
        let (mut port, mut lifted) = (OutputPort::new(&config, &[category]), OutputPort::new(&config, &[category]));
        let mut fifo = lifted.tail_drop_fifo().expect("a tail-drop FIFO");
        // Start times of the queued cells, oldest first.
        let mut starts: std::collections::VecDeque<SimTime> = std::collections::VecDeque::new();
        let mut now = SimTime::ZERO;
        for step in 0..200u32 {
            now += SimDuration::from_picos(rng.below(4));
            while starts.front().is_some_and(|&s| s <= now) {
                let s = starts.pop_front().expect("a start");
                port.depart_virtual(s);
                fifo.depart(s);
            }
            let c = Cell { clp: rng.below(3) == 0, ..cell(0, 0, 0, false) };
            let passes = starts.is_empty() && rng.below(2) == 0;
            let expected = if passes { port.pass_through_at(&c, 0, now) } else { port.admit_virtual(&c, 0, now) };
            let got = fifo.admit(c.clp, passes, now);
            assert_eq!(got, expected, "round {round} step {step}");
            match got {
                Ok(()) if passes => passed += 1,
                Ok(()) => starts.push_back(starts.back().copied().unwrap_or(now).max(now) + SimDuration::from_picos(3)),
                Err(DropReason::ClpThreshold) => clp_dropped += 1,
                Err(_) => dropped += 1,
            }
            if rng.below(20) == 0 {
                lifted.put_tail_drop_fifo(&fifo);
                assert_eq!(lifted.stats, port.stats, "round {round} step {step}");
                assert_eq!(lifted.occupancy(), port.occupancy());
                fifo = lifted.tail_drop_fifo().expect("a tail-drop FIFO");
            }
        }
        lifted.put_tail_drop_fifo(&fifo);
        assert_eq!(lifted.stats, port.stats, "round {round}");
        assert_eq!(lifted.occupancy(), port.occupancy());
        let later = now + SimDuration::from_picos(9);
        assert_eq!(
            lifted.stats.mean_queue_cells(later, lifted.occupancy()),
            port.stats.mean_queue_cells(later, port.occupancy())
        );
    }
    assert!(passed > 1000 && dropped > 1000 && clp_dropped > 1000, "{passed} {dropped} {clp_dropped}");
    let epd =
        PortConfig { discard: DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(6))), ..PortConfig::fifo(12) };
    assert!(OutputPort::new(&epd, &[ServiceCategory::Ubr]).tail_drop_fifo().is_none());
    let mut watched = OutputPort::new(&PortConfig::fifo(12), &[ServiceCategory::Ubr]);
    watched.record_changes(celltrain_core::RowPool::new(100));
    assert!(watched.tail_drop_fifo().is_none());
}

/// A single FIFO's counts and policy, lifted out of the port and changed by `LiftedFifo`, end
/// as the port's own `admit_virtual`, `pass_through_at` and `depart_virtual` leave them, and
/// decide each cell as the port would: frames of several VCs interleaved under tail drop, PPD,
/// EPD and the simple GFR switch, with CLP = 1 cells over a threshold, departures at ties with
/// arrivals, and everything put back and lifted again midway (the policy's frame state with
/// it); and nothing is lifted from a port whose policy reads per-VC counts or whose departures
/// are watched.
#[test]
fn a_lifted_fifo_counts_and_decides_as_its_port() {
    let mut rng = celltrain_core::rng::RngStream::derive(19, "lifted-fifo");
    let (mut passed, mut queued, mut dropped) = ([0u32; 4], [0u32; 4], [0u32; 4]);
    for round in 0..600u32 {
        let kind = (round % 4) as usize;
        let buffer_cells = 4 + rng.below(16) as u32;
        let discard = match kind {
            0 => DiscardConfig::TailDrop(()),
            1 => DiscardConfig::Ppd(()),
            2 => DiscardConfig::Epd(EpdConfig::new(EpdThreshold::Cells(1 + rng.below(u64::from(buffer_cells)) as u32))),
            _ => {
                DiscardConfig::GfrFifo(GfrFifoConfig { low_cells: buffer_cells / 3, high_cells: buffer_cells * 2 / 3 })
            }
        };
        let config = PortConfig {
            buffer_cells,
            reserved: vec![],
            discard,
            per_vc_queues: false,
            clp1_threshold: [None, Some(2)][rng.below(2) as usize],
            efci_threshold: None,
            scheduler: Default::default(),
        };
        let vcs = 1 + rng.below(4) as usize;
        let categories = vec![ServiceCategory::Ubr; vcs];
        let (mut port, mut lifted) = (OutputPort::new(&config, &categories), OutputPort::new(&config, &categories));
        let mut fifo = lifted.lift_fifo().expect("a single FIFO");
        let mut starts: std::collections::VecDeque<SimTime> = std::collections::VecDeque::new();
        // Each VC's frame and the index of its next cell.
        let mut frames: Vec<(u32, u16)> = (0..vcs).map(|v| (v as u32 * 1000, 0)).collect();
        let mut now = SimTime::ZERO;
        for step in 0..200u32 {
            now += SimDuration::from_picos(rng.below(7));
            while starts.front().is_some_and(|&s| s <= now) {
                let s = starts.pop_front().expect("a start");
                port.depart_virtual(s);
                fifo.depart(s);
            }
            let v = rng.below(vcs as u64) as usize;
            let (frame, index) = frames[v];
            let eof = rng.below(5) == 0;
            frames[v] = if eof { (frame + 1, 0) } else { (frame, index + 1) };
            let c = Cell { clp: rng.below(4) == 0, ..cell(v as u32, frame, index, eof) };
            let passes = starts.is_empty() && rng.below(2) == 0;
            let expected =
                if passes { port.pass_through_at(&c, v as u32, now) } else { port.admit_virtual(&c, v as u32, now) };
            let got = fifo.admit(&c, v as u32, passes, now);
            assert_eq!(got, expected, "round {round} step {step}");
            match got {
                Ok(()) if passes => passed[kind] += 1,
                Ok(()) => {
                    queued[kind] += 1;
                    starts.push_back(starts.back().copied().unwrap_or(now).max(now) + SimDuration::from_picos(3));
                }
                Err(_) => dropped[kind] += 1,
            }
            if rng.below(20) == 0 {
                lifted.put_lifted_fifo(fifo);
                assert_eq!(lifted.stats, port.stats, "round {round} step {step}");
                assert_eq!(lifted.occupancy(), port.occupancy());
                fifo = lifted.lift_fifo().expect("a single FIFO");
            }
        }
        lifted.put_lifted_fifo(fifo);
        assert_eq!(lifted.stats, port.stats, "round {round}");
        assert_eq!(lifted.occupancy(), port.occupancy());
        assert_eq!(lifted.policy_name(), port.policy_name());
    }
    for kind in 0..4 {
        assert!(
            passed[kind] > 500 && queued[kind] > 500 && dropped[kind] > 500,
            "{kind}: {passed:?} {queued:?} {dropped:?}"
        );
    }
    let per_vc = DiscardConfig::PerVcThreshold(PerVcThresholdConfig { low_cells: 4, high_cells: 8, vc_cells: 2 });
    let per_vc = PortConfig { discard: per_vc, ..PortConfig::fifo(12) };
    assert!(OutputPort::new(&per_vc, &[ServiceCategory::Ubr]).lift_fifo().is_none());
    let mut watched = OutputPort::new(&PortConfig::fifo(12), &[ServiceCategory::Ubr]);
    watched.record_changes(celltrain_core::RowPool::new(100));
    assert!(watched.lift_fifo().is_none());
}

#[test]
fn efci_marks_the_data_cells_accepted_at_or_above_its_threshold() {
    let config = PortConfig { efci_threshold: Some(2), ..PortConfig::fifo(8) };
    let mut port = OutputPort::new(&config, &[ServiceCategory::Abr]);
    assert!(port.marks_efci());
    let rm = Cell { kind: CellKind::Rm, ..cell(0, 0, 0, false) };
    for (i, c) in [cell(0, 0, 0, false), cell(0, 0, 1, false), cell(0, 0, 2, false), rm, cell(0, 0, 3, true)]
        .into_iter()
        .enumerate()
    {
        offer(&mut port, c, SimTime::from_picos(i as u64)).unwrap();
    }
    let marks: Vec<bool> = std::iter::from_fn(|| port.take_next(SimTime::from_picos(5))).map(|c| c.efci).collect();
    // Held 0, 1: unmarked; 2 and up: marked, but the RM cell (its congestion bits are CI/NI).
    assert_eq!(marks, [false, false, true, false, true]);
    assert!(!OutputPort::new(&PortConfig::fifo(8), &[ServiceCategory::Abr]).marks_efci());
}
