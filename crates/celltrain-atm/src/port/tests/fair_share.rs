//! Selective Drop and FBA: vector 3.b (`docs/references.md#test-vectors`), and the count of
//! active VCs against the port's own per-VC counts on random streams.

use super::*;
use crate::port::buffer::{AcceptancePolicy, Admission, FairShareConfig, Fba, Occupancy, SelectiveDrop};

fn at(slot: u32, pool_cells: u32, vc_cells: u32) -> Occupancy {
    Occupancy { slot, pool_cells, capacity_cells: 1000, vc_cells }
}

/// Makes VCs 0..10 active: a one-cell frame of each, accepted into a lightly filled pool.
fn ten_active(policy: &mut impl AcceptancePolicy) {
    for v in 0..10 {
        assert_eq!(policy.admit(&cell(v, 0, 0, true), SimTime::ZERO, at(v, v, 0)), Admission::Accept);
    }
}

#[test]
fn vector_3b() {
    // K = 1000, R = 900, X = 950, N_a = 10, Z = 0.8.
    let mut sd = SelectiveDrop::new(12, 900, 1000, 0.8);
    let mut fba = Fba::new(12, 900, 1000, 0.8);
    ten_active(&mut sd);
    ten_active(&mut fba);
    assert_eq!((sd.active_vcs(), fba.active_vcs()), (10, 10));
    let refused = Admission::Drop(DropReason::EarlyPacketDiscard);
    // X_i = 120: load ratio 1.2632 > Z, so Selective Drop refuses; FBA's bound is
    // 0.8·(1000 − 900)/(950 − 900) = 1.6, so FBA accepts.
    assert_eq!(sd.admit(&cell(0, 1, 0, false), SimTime::ZERO, at(0, 950, 120)), refused);
    assert_eq!(fba.admit(&cell(0, 1, 0, false), SimTime::ZERO, at(0, 950, 120)), Admission::Accept);
    // X_i = 200: ratio 2.1053, above both.
    assert_eq!(sd.admit(&cell(1, 1, 0, false), SimTime::ZERO, at(1, 950, 200)), refused);
    assert_eq!(fba.admit(&cell(1, 1, 0, false), SimTime::ZERO, at(1, 950, 200)), refused);
    // At X = R nothing is refused, whatever the VC holds.
    assert_eq!(sd.admit(&cell(2, 1, 0, false), SimTime::ZERO, at(2, 900, 800)), Admission::Accept);
    assert_eq!(fba.admit(&cell(2, 1, 0, false), SimTime::ZERO, at(2, 900, 800)), Admission::Accept);
    // The rest of a refused frame goes with it; its end included.
    assert_eq!(sd.admit(&cell(0, 1, 1, true), SimTime::ZERO, at(0, 950, 120)), refused);
}

#[test]
fn fba_bound_falls_to_z_at_a_full_buffer() {
    // X = K = 1000: the bound is Z; X = 901 (just above R): 0.8·100/1 = 80.
    let mut fba = Fba::new(12, 900, 1000, 0.8);
    ten_active(&mut fba);
    // Ratio 79·10/901 = 0.877 < 80: accepted; at X = K a ratio of 81·10/1000 = 0.81 > 0.8 is
    // refused while 79·10/1000 = 0.79 is not (the pool is full, so that frame meets PPD).
    assert_eq!(fba.admit(&cell(3, 1, 0, true), SimTime::ZERO, at(3, 901, 79)), Admission::Accept);
    let full = Occupancy { slot: 4, pool_cells: 1000, capacity_cells: 1000, vc_cells: 81 };
    assert_eq!(fba.admit(&cell(4, 1, 0, true), SimTime::ZERO, full), Admission::Drop(DropReason::EarlyPacketDiscard));
    let full = Occupancy { vc_cells: 79, slot: 5, ..full };
    assert_eq!(fba.admit(&cell(5, 1, 0, true), SimTime::ZERO, full), Admission::Drop(DropReason::BufferFull));
}

/// The policy's count of active VCs, from the port's pool 0.
fn active_vcs(port: &OutputPort) -> u32 {
    match &port.pools[0].acceptance {
        BufferAcceptance::SelectiveDrop(p) => p.active_vcs(),
        BufferAcceptance::Fba(p) => p.active_vcs(),
        other => panic!("not a fair-share policy: {}", other.name()),
    }
}

#[test]
fn active_vcs_follow_the_port_on_random_streams() {
    use celltrain_core::rng::RngStream;
    const VCS: u32 = 6;
    const THRESHOLD: u32 = 24;
    for round in 0..24u64 {
        let mut rng = RngStream::derive(round, "fair-share");
        let share = FairShareConfig { threshold: EpdThreshold::Cells(THRESHOLD), z: 0.5 + 0.1 * (round % 6) as f64 };
        let discard = if round % 2 == 0 { DiscardConfig::SelectiveDrop(share) } else { DiscardConfig::Fba(share) };
        let config = PortConfig {
            buffer_cells: 32,
            reserved: vec![],
            discard,
            per_vc_queues: round % 4 < 2,
            clp1_threshold: None,
            efci_threshold: None,
            scheduler: Default::default(),
        };
        let mut port = OutputPort::new(&config, &[ServiceCategory::Ubr; VCS as usize]);
        let mut next: Vec<(u32, u16, u16)> = (0..VCS).map(|v| (v * 1000, 0, 1 + rng.below(12) as u16)).collect();
        let mut refused_frames = 0;
        for step in 0..4000u64 {
            let now = SimTime::from_picos(step);
            // Skewed load: VC 0 offers about half of the cells.
            let v = if rng.below(2) == 0 { 0 } else { rng.below(u64::from(VCS)) as u32 };
            let (frame, index, len) = next[v as usize];
            let (occupancy, own) = (port.occupancy(), port.vc_cells(v));
            let result = offer(&mut port, cell(v, frame, index, index + 1 == len), now);
            if result == Err(DropReason::EarlyPacketDiscard) && index == 0 {
                refused_frames += 1;
                assert!(occupancy > THRESHOLD && own > 0, "refused at X = {occupancy}, X_i = {own}");
            }
            next[v as usize] =
                if index + 1 == len { (frame + 1, 0, 1 + rng.below(12) as u16) } else { (frame, index + 1, len) };
            for _ in 0..rng.below(3) {
                port.take_next(now);
            }
            let busy = (0..VCS).filter(|&s| port.vc_cells(s) > 0).count() as u32;
            assert_eq!(active_vcs(&port), busy, "round {round}, step {step}");
        }
        assert!(refused_frames > 0, "round {round} never refused a frame: the test shows nothing");
        let s = &port.stats;
        assert_eq!(s.cells_in, s.cells_out + s.dropped_total() + u64::from(port.occupancy()));
    }
}
