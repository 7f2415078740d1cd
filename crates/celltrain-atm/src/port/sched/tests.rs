//! The weighted fair schedulers against hand-computed sequences and their promises.

use super::{weights, Pick, Scheduler, SchedulerKind};
use celltrain_core::time::SimTime;

/// A scheduler over one queue per VC with these weights.
fn build((kind, vc_weights): &(SchedulerKind, Vec<u64>), queues: usize) -> Scheduler {
    let identity: Vec<u16> = (0..queues as u16).collect();
    kind.build(&weights::per_queue(vc_weights, &identity, queues))
}

/// Serves `cells` cells from queues whose backlog is `backlog[q]` (u32::MAX: endless) and
/// returns the queues served, in order.
fn serve(s: &mut Scheduler, backlog: &mut [u32], cells: usize) -> Vec<u16> {
    let now = SimTime::ZERO;
    for (q, &b) in backlog.iter().enumerate() {
        if b > 0 {
            s.on_backlogged(q as u16, 4, now);
        }
    }
    let mut order = Vec::new();
    for _ in 0..cells {
        // (As a port serves: the scheduler is told whether the queue empties in the same call.)
        let Pick::Queue(q) = s.serve(now, |q| backlog[usize::from(q)] as usize) else { break };
        let left = &mut backlog[usize::from(q)];
        assert!(*left > 0, "served an empty queue");
        if *left != u32::MAX {
            *left -= 1;
        }
        order.push(q);
    }
    order
}

fn letters(order: &[u16]) -> String {
    order.iter().map(|&q| char::from(b'A' + q as u8)).collect()
}

#[test]
fn virtual_spacing_vector_5b() {
    // δ_A = 2, δ_B = 4: weights 2:1.
    let mut vs = build(&(SchedulerKind::VirtualSpacing, vec![2, 1]), 2);
    assert_eq!(letters(&serve(&mut vs, &mut [u32::MAX, u32::MAX], 9)), "AABAABAAB");
    // δ = 3, 3, 6: weights 2:2:1.
    let mut vs = build(&(SchedulerKind::VirtualSpacing, vec![2, 2, 1]), 3);
    assert_eq!(letters(&serve(&mut vs, &mut [u32::MAX; 3], 10)), "ABABCABABC");
}

#[test]
fn virtual_spacing_restarts_a_queue_from_the_spacing_time() {
    // A alone for 3 cells (stamps 2, 4, 6: SpacT = 6), then B arrives: B's stamp is
    // SpacT + 4 = 10, A's next 8, 10 → A A B (tie: A first).
    let mut vs = build(&(SchedulerKind::VirtualSpacing, vec![2, 1]), 2);
    assert_eq!(letters(&serve(&mut vs, &mut [u32::MAX, 0], 3)), "AAA");
    vs.on_backlogged(1, 4, SimTime::ZERO);
    let mut order = Vec::new();
    for _ in 0..3 {
        let Pick::Queue(q) = vs.pick(SimTime::ZERO) else { panic!("backlogged") };
        vs.on_dequeue(q, false, SimTime::ZERO);
        order.push(q);
    }
    assert_eq!(letters(&order), "AAB");
}

#[test]
fn wf2q_hand_sequence() {
    // Weights 2:1, δ_A = 1.5, δ_B = 3 cell times. V=0: A(F 1.5) | V=1: B(S 0, F 3), A not
    // started (1.5) | V=2: A(F 3) | V=3: A(S 3, F 4.5) before B(F 6) | V=4: B (A starts 4.5).
    let mut s = build(&(SchedulerKind::Wf2qPlus, vec![2, 1]), 2);
    assert_eq!(letters(&serve(&mut s, &mut [u32::MAX, u32::MAX], 6)), "ABAABA");
}

/// After every cell, each continuously backlogged queue has had its weighted share of the
/// cells sent so far, within one cell.
fn assert_within_one_cell(order: &[u16], weights: &[u64], active: &[usize]) {
    let total: u64 = active.iter().map(|&q| weights[q]).sum();
    let mut served = vec![0u64; weights.len()];
    for (n, &q) in order.iter().enumerate() {
        served[usize::from(q)] += 1;
        for &a in active {
            let fair = (n as f64 + 1.0) * weights[a] as f64 / total as f64;
            let lag = served[a] as f64 - fair;
            assert!(lag.abs() <= 1.0 + 1e-9, "queue {a} after {} cells: {} served, fair {fair:.3}", n + 1, served[a]);
        }
    }
}

#[test]
fn wf2q_serves_backlogged_queues_in_proportion_within_one_cell() {
    let weights = vec![10_000_000, 8_000_000, 6_000_000, 4_000_000, 2_000_000, 3];
    let mut s = build(&(SchedulerKind::Wf2qPlus, weights.clone()), weights.len());
    let order = serve(&mut s, &mut [u32::MAX; 6], 20_000);
    assert_within_one_cell(&order, &weights, &[0, 1, 2, 3, 4, 5]);
}

#[test]
fn an_idle_queue_share_goes_to_the_others() {
    for config in [(SchedulerKind::Wf2qPlus, vec![6, 1, 2]), (SchedulerKind::VirtualSpacing, vec![6, 1, 2])] {
        let mut s = build(&config, 3);
        // Queue 0 (two thirds of the weight) is idle: 1 and 2 share 1:2, and nothing waits.
        let order = serve(&mut s, &mut [0, u32::MAX, u32::MAX], 3000);
        assert_eq!(order.len(), 3000, "{}: work-conserving", config.0.name());
        assert_within_one_cell(&order, &[6, 1, 2], &[1, 2]);
    }
}

#[test]
fn a_queue_that_was_idle_earns_no_credit() {
    // Queue 0 joins after 3000 cells of queue 1 alone: from then on, 1:1, not a catch-up burst.
    for config in [(SchedulerKind::Wf2qPlus, vec![1, 1]), (SchedulerKind::VirtualSpacing, vec![1, 1])] {
        let mut s = build(&config, 2);
        serve(&mut s, &mut [0, u32::MAX], 3000);
        let order = serve(&mut s, &mut [u32::MAX, 0], 0);
        assert!(order.is_empty());
        let mut order = Vec::new();
        for _ in 0..100 {
            let Pick::Queue(q) = s.pick(SimTime::ZERO) else { panic!("backlogged") };
            s.on_dequeue(q, false, SimTime::ZERO);
            order.push(q);
        }
        let first = order.iter().filter(|&&q| q == 0).count();
        assert!((49..=51).contains(&first), "{}: queue 0 got {first} of 100", config.0.name());
    }
}

#[test]
fn vc_weights_add_up_in_a_shared_queue() {
    // VCs 0 and 1 share queue 0 (weights 1 + 1), VC 2 has queue 1 (weight 2): 1:1.
    let mut s = SchedulerKind::VirtualSpacing.build(&weights::per_queue(&[1, 1, 2], &[0, 0, 1], 2));
    let order = serve(&mut s, &mut [u32::MAX, u32::MAX], 10);
    assert_eq!(letters(&order), "ABABABABAB");
}

#[test]
fn wrr_vector_5c() {
    // Weights A:3, B:1, C:2, all backlogged: AAABCC AAABCC ...
    let mut s = build(&(SchedulerKind::WeightedRoundRobin, vec![3, 1, 2]), 3);
    assert_eq!(letters(&serve(&mut s, &mut [u32::MAX; 3], 12)), "AAABCCAAABCC");
}

#[test]
fn wrr_skips_empty_queues_and_ends_a_turn_when_its_queue_empties() {
    // A holds 2 of its quantum of 3; B is idle: A A C C, then C's next turn after A's.
    let mut s = build(&(SchedulerKind::WeightedRoundRobin, vec![3, 1, 2]), 3);
    assert_eq!(letters(&serve(&mut s, &mut [2, 0, u32::MAX], 6)), "AACCCC");
    // The shares of the backlogged queues over whole rounds are their weights'.
    let mut s = build(&(SchedulerKind::WeightedRoundRobin, vec![6, 1, 2]), 3);
    let order = serve(&mut s, &mut [0, u32::MAX, u32::MAX], 3000);
    assert_eq!(order.len(), 3000, "work-conserving");
    assert_eq!(order.iter().filter(|&&q| q == 2).count(), 2000);
}

#[test]
fn wrr_quanta_keep_small_ratios_and_cap_large_ones() {
    use super::wrr::{quanta, MAX_QUANTUM};
    assert_eq!(quanta(&[10_000_000, 5_000_000, 2_500_000]), vec![4, 2, 1]);
    assert_eq!(quanta(&[0, 0]), vec![1, 1], "zero counts as one");
    // No small ratio: the largest gets MAX_QUANTUM, a VC without an MCR (1 bit/s) one cell.
    let q = quanta(&[10_000_000, 2_000_000, 1]);
    assert_eq!(q, vec![MAX_QUANTUM as u32, 13, 1]);
}

/// Virtual spacing keeps its backlogged queues in a heap: it serves what the definition's scan
/// serves (the least stamp, ties to the lower queue), over random arrivals and services with
/// ties of stamps, against a scan written out here.
#[test]
fn virtual_spacing_serves_the_least_stamp_as_a_scan_would() {
    let weights: Vec<u64> = vec![1, 2, 2, 3, 6, 1, 4, 12];
    let mut vs = build(&(SchedulerKind::VirtualSpacing, weights.clone()), weights.len());
    serves_as_the_scan(&mut vs, &weights, 0, 20_000);
}

/// The heap keeps its stamps from a base that moves up before they outgrow their 48 bits: across
/// that move, and with the largest spacings there are (a weight 2^24 times another's), it still
/// serves what the scan of the whole stamps serves.
#[test]
fn virtual_spacing_serves_as_the_scan_across_its_base_moving_up() {
    let near = (1u64 << 47) - (super::weights::CELL_UNIT << 16);
    for weights in [vec![1, 2, 2, 3, 6, 1, 4, 12], vec![1 << 24, 1, 3, 1 << 20]] {
        let spacing = super::weights::spacings(&weights);
        let mut vs = Scheduler::VirtualSpacing(Box::new(super::VirtualSpacing::starting_at(spacing, near)));
        serves_as_the_scan(&mut vs, &weights, near, 200_000);
        let Scheduler::VirtualSpacing(vs) = &vs else { unreachable!() };
        assert!(vs.spacing_time() < near, "the base never moved: the run did not cross it");
    }
}

/// Random arrivals and services of `steps` steps into queues of these weights, each pick
/// against the scan's, from SpacT = `spacing_time`.
fn serves_as_the_scan(vs: &mut Scheduler, weights: &[u64], spacing_time: u64, steps: usize) {
    use celltrain_core::rng::RngStream;
    // The scan, with the scheduler's own δ_i (checked by the vectors above).
    let spacing = super::weights::spacings(weights);
    let (mut stamps, mut spacing_time) = (vec![None::<u64>; weights.len()], spacing_time);
    let mut backlog = vec![0u32; weights.len()];
    let mut rng = RngStream::derive(5, "virtual-spacing-heap");
    let now = SimTime::ZERO;
    for step in 0..steps {
        if rng.uniform() < 0.45 {
            let q = (rng.uniform() * weights.len() as f64) as usize;
            backlog[q] += 1;
            if backlog[q] == 1 {
                vs.on_backlogged(q as u16, 4, now);
                stamps[q] = Some(spacing_time + spacing[q]);
            }
            continue;
        }
        let expected = (0..weights.len()).filter_map(|q| stamps[q].map(|s| (s, q))).min();
        match (vs.pick(now), expected) {
            (Pick::Empty, None) => {}
            (Pick::Queue(q), Some((stamp, want))) => {
                assert_eq!(usize::from(q), want, "step {step}");
                let q = usize::from(q);
                backlog[q] -= 1;
                spacing_time = stamp;
                stamps[q] = (backlog[q] > 0).then_some(stamp + spacing[q]);
                vs.on_dequeue(q as u16, backlog[q] == 0, now);
            }
            (got, want) => panic!("step {step}: {got:?} against {want:?}"),
        }
    }
}

/// `serve` is `pick` and then `on_dequeue` of the queue picked, told whether it empties: two
/// copies of each scheduler, one served by the port's one call and one by the two steps, give
/// the same queues over random arrivals and services (queues emptying and coming back).
#[test]
fn serve_is_pick_then_dequeue() {
    use celltrain_core::rng::RngStream;
    let weights: Vec<u64> = vec![3, 1, 4, 1, 5, 9];
    for kind in [
        SchedulerKind::PriorityRoundRobin,
        SchedulerKind::Wf2qPlus,
        SchedulerKind::VirtualSpacing,
        SchedulerKind::WeightedRoundRobin,
    ] {
        let mut one_call = build(&(kind, weights.clone()), weights.len());
        let mut two_steps = one_call.clone();
        let mut backlog = vec![0usize; weights.len()];
        let mut rng = RngStream::derive(9, "serve");
        let now = SimTime::ZERO;
        let mut served = 0;
        for step in 0..20_000 {
            if rng.uniform() < 0.5 {
                let q = rng.below(weights.len() as u64) as usize;
                backlog[q] += 1;
                if backlog[q] == 1 {
                    // (Queues of two classes, so that strict priority has classes to order.)
                    let class = (q % 2) as u8;
                    one_call.on_backlogged(q as u16, class, now);
                    two_steps.on_backlogged(q as u16, class, now);
                }
                continue;
            }
            let picked = one_call.serve(now, |q| backlog[usize::from(q)]);
            let expected = two_steps.pick(now);
            assert_eq!(picked, expected, "{}: step {step}", kind.name());
            if let Pick::Queue(q) = expected {
                let left = &mut backlog[usize::from(q)];
                *left -= 1;
                two_steps.on_dequeue(q, *left == 0, now);
                served += 1;
            }
        }
        assert!(served > 5_000, "{}: {served} cells served", kind.name());
    }
}
