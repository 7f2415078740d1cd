//! RED's average and drop probability against Floyd & Jacobson's rules (hand-computed values).

use super::red::{Red, RedParams};
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};

fn red(min_th: f64, max_th: f64, max_p: f64, weight: f64) -> Red {
    let params = RedParams { min_th, max_th, max_p, weight, idle_unit: SimDuration::from_picos(1000) };
    Red::new(params, RngStream::derive(7, "red"))
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn drop_probability_vector_9a() {
    let mut r = red(5.0, 15.0, 0.02, 0.002);
    r.set_average(10.0);
    r.set_count(-1);
    let (pa, count) = r.drop_probability();
    assert!(close(pa, 0.01, 1e-12) && count == 0, "count 0: pa = pb = 0.01, got {pa}");
    r.set_count(49);
    assert!(close(r.drop_probability().0, 0.02, 1e-12), "count 50: pa = 0.02");
    r.set_count(98);
    assert!(close(r.drop_probability().0, 1.0, 1e-9), "count 99: pa = 0.01/(1 − 0.99) = 1");
    r.set_count(99);
    assert_eq!(r.drop_probability().0, 1.0, "count 100: count·pb ≥ 1");
    r.set_average(12.5);
    r.set_count(9);
    let (pa, _) = r.drop_probability();
    assert!(close(pa, 0.015 / (1.0 - 10.0 * 0.015), 1e-12) && close(pa, 0.017647, 1e-6), "{pa}");
    r.set_average(15.0);
    assert_eq!(r.drop_probability().0, 1.0, "at max_th");
    r.set_average(4.9);
    assert_eq!(r.drop_probability(), (0.0, -1), "below min_th");
}

#[test]
fn average_vectors_9b_9c() {
    let mut r = red(5.0, 15.0, 0.02, 0.002);
    r.set_average(10.0);
    r.on_empty(SimTime::ZERO);
    // Idle for 100 units of 1000 ps: avg = 10·0.998^100.
    r.update(0, SimTime::from_picos(100_000));
    assert!(close(r.average(), 8.18567, 1e-5), "{}", r.average());
    let mut r = red(5.0, 15.0, 0.02, 0.002);
    for _ in 0..1000 {
        r.update(20, SimTime::ZERO);
    }
    assert!(close(r.average(), 17.29871, 1e-5), "{}", r.average());
}

#[test]
fn drop_rate_on_a_fixed_average() {
    // avg = 10 between 5 and 15, max_p 0.02: pb = 0.01, and the count makes the gap between
    // drops uniform on 1..=100: one drop every 50.5 arrivals on average.
    let mut r = red(5.0, 15.0, 0.02, 0.0);
    r.set_average(10.0);
    let n = 200_000;
    let drops = (0..n).filter(|_| r.decide()).count();
    let rate = drops as f64 / f64::from(n);
    assert!(close(rate, 1.0 / 50.5, 0.0008), "drop rate {rate}");
    // No gap longer than 1/pb = 100 arrivals.
    let mut gap = 0;
    for _ in 0..20_000 {
        gap += 1;
        if r.decide() {
            assert!(gap <= 100, "gap {gap}");
            gap = 0;
        }
    }
}

#[test]
fn frame_red_decays_from_when_its_buffer_drained() {
    use super::frame_red::{FrameRed, FrameRedConfig};
    use super::{AcceptancePolicy, Admission, Occupancy};
    use crate::cell::{Cell, CellKind};
    use celltrain_core::ids::{FrameId, VcId};
    // w_q = 0.5, s = 10 ps, no RED decision (VC thresholds out of reach).
    let params =
        RedParams { min_th: 100.0, max_th: 200.0, max_p: 0.1, weight: 0.5, idle_unit: SimDuration::from_picos(10) };
    let config = FrameRedConfig { red: params, vc_low_cells: 1000, vc_high_cells: 2000 };
    let mut red = FrameRed::new(2, config, RngStream::derive(1, "red"));
    let cell = Cell {
        vc: VcId(0),
        frame: FrameId(0),
        index: 0,
        hop: 0,
        end_of_frame: true,
        clp: false,
        efci: false,
        kind: CellKind::Aal5,
        entered: celltrain_core::time::SimTime::ZERO,
    };
    let at = |pool_cells| Occupancy { slot: 0, pool_cells, capacity_cells: 100, vc_cells: 0 };
    // A one-cell frame finds 4 cells: avg = 0.5·4 = 2; it leaves 5 cells, drained by t = 50.
    assert_eq!(red.admit(&cell, SimTime::ZERO, at(4)), Admission::Accept);
    assert!(close(red.red().average(), 2.0, 1e-12));
    // The next frame finds the buffer empty at t = 100: idle for (100 − 50)/10 = 5 units.
    assert_eq!(red.admit(&cell, SimTime::from_picos(100), at(0)), Admission::Accept);
    assert!(close(red.red().average(), 2.0 * 0.5f64.powi(5), 1e-12), "{}", red.red().average());
    // Right after it (t = 105, the cell it left not yet drained): no idle time at all.
    assert_eq!(red.admit(&cell, SimTime::from_picos(105), at(0)), Admission::Accept);
    assert!(close(red.red().average(), 2.0 * 0.5f64.powi(5), 1e-12), "{}", red.red().average());
}
