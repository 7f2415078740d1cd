//! Hand-computed test vectors 2.a, 2.b, 2.c and 5.a (`docs/references.md#test-vectors`).

use super::super::{
    burst_tolerance, Clp, Conformance, DualGcra, Eligibility, Fgcra, Gcra, GcraParams, LeakyBucket, Shaper,
    ShaperConfig, Violation,
};
use super::{d, iv, t};
use Conformance::{Conforming as C, NonConforming as N};

const ARRIVALS_2A: [u64; 10] = [0, 10, 15, 18, 20, 25, 27, 40, 41, 42];
const DECISIONS_2A: [Conformance; 10] = [C, C, C, N, N, C, N, C, N, N];

#[test]
fn vector_2a_virtual_scheduling() {
    // GCRA(T=10, τ=5); TAT after each cell: 10,20,30,30,30,40,40,50,50,50.
    let tat_after = [10, 20, 30, 30, 30, 40, 40, 50, 50, 50];
    let mut g = Gcra::new(iv(10), d(5));
    for ((&ta, &want), &tat) in ARRIVALS_2A.iter().zip(&DECISIONS_2A).zip(&tat_after) {
        let tested = g.test(t(ta));
        assert_eq!(g.check(t(ta)), want, "cell at {ta}");
        assert_eq!(tested, want.is_conforming(), "test() at {ta} disagrees with check()");
        assert_eq!(g.tat(), t(tat), "TAT after cell at {ta}");
    }
}

#[test]
fn vector_2a_boundary_cell_conforms_exactly() {
    // t = 25 conforms on the boundary 25 ≥ 30 − 5; one picosecond earlier it would not.
    let mut g = Gcra::new(iv(10), d(5));
    for ta in [0, 10, 15] {
        assert_eq!(g.check(t(ta)), C);
    }
    assert!(g.test(t(25)));
    assert!(!g.test(t(24)));
}

#[test]
fn vector_2a_leaky_bucket() {
    // Same decisions; X after each cell: 10,10,15,15,15,15,15,10,10,10.
    let x_after = [10, 10, 15, 15, 15, 15, 15, 10, 10, 10];
    let mut lb = LeakyBucket::new(iv(10), d(5));
    for ((&ta, &want), &x) in ARRIVALS_2A.iter().zip(&DECISIONS_2A).zip(&x_after) {
        assert_eq!(lb.check(t(ta)), want, "cell at {ta}");
        assert_eq!(lb.content(), d(x), "X after cell at {ta}");
    }
    assert_eq!(lb.last_conformance_time(), t(40));
}

#[test]
fn vector_2a_test_does_not_change_state() {
    let mut g = Gcra::new(iv(10), d(5));
    g.check(t(0));
    let before = g;
    assert!(!g.test(t(1)));
    assert!(g.test(t(5)));
    assert_eq!(g, before);
}

#[test]
fn vector_2b_burst_tolerance() {
    // Tp = 2, Ts = 10, MBS = 5 → BT = (5−1)(10−2) = 32.
    assert_eq!(burst_tolerance(iv(2), iv(10), 5), d(32));
    assert_eq!(burst_tolerance(iv(2), iv(10), 1), d(0));
    assert_eq!(Gcra::for_scr(iv(10), iv(2), 5, d(3)).limit(), d(35));
}

#[test]
fn vector_2b_dual_gcra() {
    // Cells every 2 slots at 0..14: first 5 (0..8) conform, 10, 12, 14 fail the SCR GCRA.
    let mut g = DualGcra::from_contract(iv(2), d(0), iv(10), 5, d(0));
    let want = [C, C, C, C, C, N, N, N];
    for (i, &w) in want.iter().enumerate() {
        let ta = t(2 * i as u64);
        let v = g.first_violation(ta);
        assert_eq!(g.check(ta), w, "cell at {ta:?}");
        assert_eq!(v, (w == N).then_some(Violation::Scr), "violation at {ta:?}");
    }
    // SCR TAT stopped at 50 (5 cells); PCR TAT stopped at 10: rejected cells updated neither.
    assert_eq!(g.scr().tat(), t(50));
    assert_eq!(g.pcr().tat(), t(10));
}

#[test]
fn vector_2b_pcr_violation_does_not_update_scr() {
    let mut g = DualGcra::from_contract(iv(2), d(0), iv(10), 5, d(0));
    assert_eq!(g.check(t(0)), C);
    assert_eq!(g.first_violation(t(1)), Some(Violation::Pcr));
    assert_eq!(g.check(t(1)), N);
    assert_eq!(g.scr().tat(), t(10));
    assert_eq!(g.pcr().tat(), t(2));
}

#[test]
fn mbs_burst_conforms_and_one_more_does_not() {
    // Dual GCRA (docs/references.md#dual-gcra): with CDVT = 0 a back-to-back burst of exactly MBS
    // cells conforms.
    for mbs in [1u32, 2, 5, 17] {
        let mut g = DualGcra::from_contract(iv(3), d(0), iv(11), mbs, d(0));
        for n in 0..u64::from(mbs) {
            assert_eq!(g.check(t(3 * n)), C, "mbs {mbs} cell {n}");
        }
        assert_eq!(g.check(t(3 * u64::from(mbs))), N, "mbs {mbs}: cell MBS+1");
    }
}

fn shaper_2c(min_spacing: Option<u64>, queue_limit: usize) -> Shaper {
    Shaper::new(ShaperConfig {
        pcr: GcraParams { increment: iv(2), limit: d(0) },
        scr: Some(GcraParams { increment: iv(10), limit: burst_tolerance(iv(2), iv(10), 5) }),
        min_spacing: min_spacing.map(d),
        queue_limit,
    })
    .unwrap()
}

#[test]
fn vector_2c_shaper() {
    // 8 cells all at t = 0 → departures 0, 2, 4, 6, 8, 18, 28, 38.
    let mut s = shaper_2c(None, 100);
    let deps: Vec<_> = (0..8).map(|_| s.on_arrival(t(0)).unwrap()).collect();
    assert_eq!(deps, [0, 2, 4, 6, 8, 18, 28, 38].map(t));
    assert_eq!(s.queue_len(), 8);
}

#[test]
fn vector_2c_shaper_with_slot_and_queue_limit() {
    // One cell per slot of 3: d = 0,3,6,9,12 (TATs 10..50), then max(14, 50−32, 15) = 18.
    // Queue of 6: the 7th and 8th arrivals are shaper loss. After one departure a cell at
    // t = 1 leaves at max(TATp 20, TATs 60 − 32, 18 + 3) = 28.
    let mut s = shaper_2c(Some(3), 6);
    let deps: Vec<_> = (0..8).map(|_| s.on_arrival(t(0))).collect();
    let want = [Some(0), Some(3), Some(6), Some(9), Some(12), Some(18), None, None];
    assert_eq!(deps, want.map(|o| o.map(t)));
    assert_eq!(s.counters().dropped, 2);
    s.on_departure();
    assert_eq!(s.on_arrival(t(1)), Some(t(28)));
    assert_eq!(s.counters().accepted, 7);
    assert_eq!(s.counters().departed, 1);
}

#[test]
fn vector_5a_fgcra() {
    use Eligibility::{Eligible as E, NotEligible as X};
    // T = 10, L = (4−1)(10−1) = 27; three-cell frames (cells 1 apart) at 0,3,6,9,12,40.
    let mut f = Fgcra::for_gfr(iv(10), iv(1), 4, d(0));
    assert_eq!(f.limit(), d(27));
    let mut frame = |start: u64| -> Vec<(Eligibility, u64)> {
        (0..3)
            .map(|j| {
                let e = f.on_cell(t(start + j), Clp::Zero, j == 2);
                (e, f.tat().as_picos())
            })
            .collect()
    };
    assert_eq!(frame(0), [(E, 10), (E, 20), (E, 30)]);
    assert_eq!(frame(3), [(E, 40), (E, 50), (E, 60)]); // 3 ≥ 30 − 27 exactly
    for start in [6, 9, 12] {
        assert_eq!(frame(start), [(X, 60), (X, 60), (X, 60)], "frame at {start}");
    }
    assert_eq!(frame(40), [(E, 70), (E, 80), (E, 90)]);
    let c = *f.counters();
    assert_eq!((c.eligible_frames, c.ineligible_frames), (3, 3));
    assert_eq!((c.eligible_cells, c.ineligible_cells), (9, 9));
}

#[test]
fn fgcra_clp1_first_cell_makes_frame_ineligible() {
    let mut f = Fgcra::new(iv(10), d(27));
    assert_eq!(f.on_cell(t(0), Clp::One, false), Eligibility::NotEligible);
    // Decision inherited even though the second cell has CLP = 0.
    assert_eq!(f.on_cell(t(1), Clp::Zero, true), Eligibility::NotEligible);
    assert_eq!(f.tat(), t(0));
    assert_eq!(f.on_cell(t(2), Clp::Zero, true), Eligibility::Eligible);
    assert_eq!(f.tat(), t(12));
}

#[test]
fn fgcra_later_cells_catch_up_with_their_arrival() {
    // BN01's Fig. 1: later cells of an eligible frame do TAT = max(t_a, TAT) + T. A slow
    // frame (second cell 100 slots later) moves TAT to 110, not 20; the next frame, at 101, is
    // still eligible (101 ≥ 110 − 27) and TAT goes to 120. (With TAT = TAT + T it would be 20,
    // then 111.)
    let mut f = Fgcra::new(iv(10), d(27));
    assert_eq!(f.on_cell(t(0), Clp::Zero, false), Eligibility::Eligible);
    assert_eq!(f.on_cell(t(100), Clp::Zero, true), Eligibility::Eligible);
    assert_eq!(f.tat(), t(110));
    assert_eq!(f.on_cell(t(101), Clp::Zero, true), Eligibility::Eligible);
    assert_eq!(f.tat(), t(120));
    // Three cells at t = 121 (first: eligible, TAT = max(121, 120) + 10 = 131), 200 (210) and
    // 201 (max(201, 210) + 10 = 220).
    assert_eq!(f.on_cell(t(121), Clp::Zero, false), Eligibility::Eligible);
    assert_eq!(f.on_cell(t(200), Clp::Zero, false), Eligibility::Eligible);
    assert_eq!(f.on_cell(t(201), Clp::Zero, true), Eligibility::Eligible);
    assert_eq!(f.tat(), t(220));
}
