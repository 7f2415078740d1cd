//! Seeded property tests: VSA ≡ leaky bucket, the GCRA window bound, shaped ⇒ policed.

use super::super::{
    CellInterval, Clp, ConformanceDef, ContractParams, DualGcra, Gcra, GcraParams, LeakyBucket, Rounding, Shaper,
    ShaperConfig, TrafficDescriptor, Upc, UpcAction,
};
use super::{d, iv, t};
use celltrain_core::{BitRate, RngStream, SimDuration, SimTime};
use std::collections::VecDeque;

/// Random non-decreasing arrivals: mostly gaps in [0, 2T], sometimes a burst of equal times,
/// sometimes a long silence.
fn random_arrivals(rng: &mut RngStream, n: usize, increment: u64) -> Vec<SimTime> {
    let mut now = 0;
    (0..n)
        .map(|_| {
            now += match rng.below(10) {
                0 => 0,
                1 => rng.below(20 * increment + 1),
                _ => rng.below(2 * increment + 1),
            };
            t(now)
        })
        .collect()
}

/// Asserts the GCRA window bound: no window [t_i, t_j] holds more than 1 + (W + τ)/T cells,
/// W = t_j − t_i. Equivalently (j − i)·T ≤ t_j − t_i + τ for all i < j, i.e. with
/// a_i = i·T − t_i: a_j − min_{i<j} a_i ≤ τ, checked in one pass.
#[track_caller]
fn assert_window_bound(times: &[SimTime], increment: CellInterval, limit: SimDuration, what: &str) {
    let (tt, tau) = (i128::from(increment.as_picos()), i128::from(limit.as_picos()));
    let mut min_a = i128::MAX;
    for (j, &tj) in times.iter().enumerate() {
        let a = j as i128 * tt - i128::from(tj.as_picos());
        assert!(
            min_a == i128::MAX || a - min_a <= tau,
            "{what}: window ending at cell {j} ({tj:?}) exceeds 1 + (W + τ)/T (excess {} ps)",
            a - min_a - tau
        );
        min_a = min_a.min(a);
    }
}

#[test]
fn vsa_and_leaky_bucket_agree_on_500_random_sequences() {
    let mut rng = RngStream::derive(2024, "contract/vsa-vs-lb");
    let mut nonconforming = 0;
    for case in 0..500 {
        let increment = 1 + rng.below(1000);
        let limit = rng.below(3 * increment + 1);
        let mut vsa = Gcra::new(iv(increment), d(limit));
        let mut lb = LeakyBucket::new(iv(increment), d(limit));
        for ta in random_arrivals(&mut rng, 200, increment) {
            let (a, b) = (vsa.check(ta), lb.check(ta));
            assert_eq!(a, b, "case {case} T={increment} τ={limit} at {ta:?}");
            // Invariant linking the two states: X = TAT − LCT.
            assert_eq!(vsa.tat() - lb.last_conformance_time(), lb.content(), "case {case}");
            nonconforming += u64::from(!a.is_conforming());
        }
    }
    assert!(nonconforming > 10_000, "too few rejections to be a test: {nonconforming}");
}

#[test]
fn conforming_cells_of_a_gcra_obey_the_window_bound() {
    let mut rng = RngStream::derive(2024, "contract/window-bound");
    for case in 0..300 {
        let increment = 1 + rng.below(500);
        let limit = rng.below(5 * increment + 1);
        let mut g = Gcra::new(iv(increment), d(limit));
        let kept: Vec<_> =
            random_arrivals(&mut rng, 300, increment).into_iter().filter(|&ta| g.check(ta).is_conforming()).collect();
        assert_window_bound(&kept, iv(increment), d(limit), &format!("case {case}"));
    }
}

#[test]
fn window_bound_check_can_fail() {
    // Three cells at 0, 10, 15 under GCRA(10, 4): 2 cells in W = 5 > 1 + (5 + 4)/10.
    let r = std::panic::catch_unwind(|| {
        assert_window_bound(&[t(0), t(10), t(15)], iv(10), d(4), "deliberate");
    });
    assert!(r.is_err());
}

#[test]
fn dual_gcra_equals_vbr1_upc_on_clp0_cells() {
    let mut rng = RngStream::derive(7, "contract/dual-vs-upc");
    for case in 0..200 {
        let t_pcr = 1 + rng.below(50);
        let t_scr = t_pcr + rng.below(500);
        let mbs = 1 + rng.below(30) as u32;
        let cdvt = rng.below(2 * t_pcr);
        let mut dual = DualGcra::from_contract(iv(t_pcr), d(cdvt), iv(t_scr), mbs, d(0));
        let params = ContractParams {
            pcr: GcraParams { increment: iv(t_pcr), limit: d(cdvt) },
            scr: Some(GcraParams { increment: iv(t_scr), limit: dual.scr().limit() }),
        };
        let mut upc = Upc::from_params(ConformanceDef::Vbr1, params).unwrap();
        for ta in random_arrivals(&mut rng, 300, t_pcr) {
            let want = if dual.check(ta).is_conforming() { UpcAction::Pass } else { UpcAction::Discard };
            assert_eq!(upc.on_cell(ta, Clp::Zero), want, "case {case} at {ta:?}");
        }
    }
}

/// One random VBR contract, PCR in [1, 622] Mbit/s, SCR in [PCR/64, PCR], MBS in [1, 300].
fn random_contract(rng: &mut RngStream) -> TrafficDescriptor {
    let pcr = 1_000_000 + rng.below(621_000_000);
    let scr = (pcr / 64).max(1) + rng.below(pcr - (pcr / 64).max(1) + 1);
    let mbs = 1 + rng.below(300) as u32;
    let cdvt = if rng.below(2) == 0 { 0 } else { rng.below(20_000_000) };
    TrafficDescriptor::vbr(ConformanceDef::Vbr1, BitRate::from_bps(pcr), d(cdvt), BitRate::from_bps(scr), mbs)
}

/// Bursty source: PDUs of 1–200 cells back to back at 622.08 Mbit/s, several PDUs sometimes
/// arriving together, random silences in between.
fn bursty_source(rng: &mut RngStream) -> Vec<SimTime> {
    let src = BitRate::from_bps(622_080_000);
    let mut out = Vec::new();
    let mut start = SimTime::ZERO;
    for _ in 0..(1 + rng.below(25)) {
        let cells = 1 + rng.below(200);
        for n in 0..cells {
            out.push(start + src.cell_offset_ceil(n));
        }
        let back_to_back = src.cell_offset_ceil(cells);
        start += match rng.below(4) {
            0 => back_to_back,
            _ => back_to_back + SimDuration::from_picos(rng.below(5_000_000_000)),
        };
    }
    out
}

/// Drives the sans-IO shaper: a departure due at or before an arrival is reported first.
fn shape(shaper: &mut Shaper, arrivals: &[SimTime]) -> Vec<(SimTime, SimTime)> {
    let mut pending = VecDeque::new();
    let mut out = Vec::new();
    for &ta in arrivals {
        while pending.front().is_some_and(|&dep| dep <= ta) {
            pending.pop_front();
            shaper.on_departure();
        }
        if let Some(dep) = shaper.on_arrival(ta) {
            pending.push_back(dep);
            out.push((ta, dep));
        }
    }
    for _ in pending.drain(..) {
        shaper.on_departure();
    }
    out
}

#[test]
fn shaped_stream_always_conforms_to_a_upc_of_the_same_contract() {
    let mut rng = RngStream::derive(99, "contract/shaped-conforms");
    let (mut unshaped_cases_with_discards, mut cases_with_shaper_loss) = (0, 0);
    for case in 0..200 {
        let desc = random_contract(&mut rng);
        let arrivals = bursty_source(&mut rng);
        let line = (rng.below(2) == 0).then(|| BitRate::from_bps(622_080_000));
        let queue = 1 + rng.below(2000) as usize;
        let cfg = ShaperConfig::from_descriptor(&desc, line, queue).unwrap();
        let mut shaper = Shaper::new(cfg).unwrap();
        let shaped = shape(&mut shaper, &arrivals);

        let sc = *shaper.counters();
        assert_eq!(sc.accepted + sc.dropped, arrivals.len() as u64, "case {case}");
        assert_eq!((sc.departed, shaper.queue_len()), (sc.accepted, 0), "case {case}");
        cases_with_shaper_loss += u32::from(sc.dropped > 0);

        let deps: Vec<_> = shaped.iter().map(|&(_, dep)| dep).collect();
        for (i, &(ta, dep)) in shaped.iter().enumerate() {
            assert!(dep >= ta, "case {case}: cell {i} leaves before it arrives");
            if let (Some(l), Some(&prev)) = (line, deps.get(i.wrapping_sub(1))) {
                assert!(dep - prev >= l.cell_time_ceil(), "case {case}: two cells in one slot");
            }
        }
        assert!(deps.windows(2).all(|w| w[0] <= w[1]), "case {case}: not FIFO");

        let mut upc = Upc::new(&desc).unwrap();
        for &dep in &deps {
            assert_eq!(upc.on_cell(dep, Clp::Zero), UpcAction::Pass, "case {case} {desc:?}");
        }
        for rounding in [Rounding::Strict, Rounding::Lenient] {
            let p = desc.params(rounding).unwrap();
            let what = format!("case {case} {rounding:?}");
            assert_window_bound(&deps, p.pcr.increment, p.pcr.limit, &what);
            let scr = p.scr.unwrap();
            assert_window_bound(&deps, scr.increment, scr.limit, &what);
        }

        // The same arrivals unshaped usually violate the contract: the property is not vacuous.
        let mut raw = Upc::new(&desc).unwrap();
        let discards = arrivals.iter().filter(|&&ta| raw.on_cell(ta, Clp::Zero) == UpcAction::Discard).count();
        unshaped_cases_with_discards += u32::from(discards > 0);
    }
    assert!(unshaped_cases_with_discards > 150, "{unshaped_cases_with_discards}");
    assert!(cases_with_shaper_loss > 10, "{cases_with_shaper_loss}");
}
