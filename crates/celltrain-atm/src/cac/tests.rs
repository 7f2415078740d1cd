//! Test vectors (computed from the formulas, see `docs/references.md#cac`) and properties.

use super::convolution::{binomial_pmf, work_terms, ActiveRate, LossCriterion};
use super::effective::{aggregate_bps, equivalent_capacity, gaussian_alpha, gaussian_bps, EbMethod};
use super::priority::{largest_count, DelayPriority, Rule};
use super::{peak, OnOff, SourceClass};

const C_BPS: f64 = 149.76e6;

fn src(peak_bps: f64, activity: f64, mean_on_s: f64) -> OnOff {
    OnOff { peak_bps, activity, mean_on_s }
}

fn close(got: f64, want: f64, rel: f64) {
    assert!((got - want).abs() <= rel * want.abs(), "got {got:e}, want {want:e} (±{rel:e} relative)");
}

fn homogeneous(n: u32, s: OnOff) -> ActiveRate {
    ActiveRate::of(&[SourceClass::new(n, s)]).unwrap()
}

#[test]
fn peak_allocation_admits_fourteen_10_mbit_connections() {
    let s = src(10e6, 0.1, 0.1);
    let n = largest_count(100, |n| Ok(peak::admits(&[SourceClass::new(n, s)], C_BPS, 1.0))).unwrap();
    assert_eq!(n, Some(14));
}

#[test]
fn convolution_vectors_homogeneous() {
    let s = src(10e6, 0.1, 0.1);
    let d40 = homogeneous(40, s);
    close(d40.overflow_probability(C_BPS), 3.481e-6, 1e-3);
    close(d40.fluid_clr(C_BPS), 1.956e-7, 1e-3);
    let d50 = homogeneous(50, s);
    close(d50.overflow_probability(C_BPS), 7.384e-5, 1e-3);
    close(d50.fluid_clr(C_BPS), 4.80e-6, 1e-2);
    close(homogeneous(36, s).overflow_probability(C_BPS), 7.112e-7, 1e-3);
    close(homogeneous(37, s).overflow_probability(C_BPS), 1.085e-6, 1e-3);
    let largest = |criterion| largest_count(200, |n| Ok(homogeneous(n, s).loss(criterion, C_BPS) <= 1e-6)).unwrap();
    assert_eq!(largest(LossCriterion::Overflow), Some(36));
    assert_eq!(largest(LossCriterion::FluidClr), Some(44));
}

#[test]
fn convolution_vector_two_classes() {
    let classes = [SourceClass::new(20, src(10e6, 0.1, 0.1)), SourceClass::new(30, src(2e6, 0.5, 0.05))];
    close(ActiveRate::of(&classes).unwrap().overflow_probability(C_BPS), 6.805e-8, 1e-3);
}

#[test]
fn convolution_matches_enumeration_of_every_on_off_state() {
    // Three different sources, enumerated state by state: an independent route to the pmf.
    let sources = [src(7e6, 0.3, 0.1), src(11e6, 0.6, 0.1), src(5e6, 0.9, 0.1)];
    let classes: Vec<SourceClass> = sources.iter().map(|s| SourceClass::new(1, *s)).collect();
    let dist = ActiveRate::of(&classes).unwrap();
    for capacity in [0.0, 6e6, 12e6, 16e6, 18e6, 23e6] {
        let (mut over, mut excess, mut mean) = (0.0, 0.0, 0.0);
        for state in 0..8u32 {
            let mut p = 1.0;
            let mut rate = 0.0;
            for (i, s) in sources.iter().enumerate() {
                if state >> i & 1 == 1 {
                    p *= s.activity;
                    rate += s.peak_bps;
                } else {
                    p *= 1.0 - s.activity;
                }
            }
            mean += p * rate;
            if rate > capacity {
                over += p;
                excess += p * (rate - capacity);
            }
        }
        close(dist.overflow_probability(capacity), over, 1e-12);
        close(dist.fluid_clr(capacity), excess / mean, 1e-12);
    }
}

#[test]
fn binomial_pmf_sums_to_one_and_has_the_right_mean() {
    for (n, p) in [(0u32, 0.3), (1, 0.5), (40, 0.1), (500, 0.2), (7, 0.0), (7, 1.0)] {
        let pmf = binomial_pmf(n, p);
        close(pmf.iter().sum::<f64>(), 1.0, 1e-10); // log-factorials: ~n·ulp of ln n!
        let mean: f64 = pmf.iter().enumerate().map(|(k, w)| k as f64 * w).sum();
        assert!((mean - f64::from(n) * p).abs() < 1e-9 * f64::from(n.max(1)));
    }
}

#[test]
fn guerin_vectors() {
    let s = src(10e6, 0.1, 0.1);
    for (x, want) in
        [(1e6, 9_282_393.0), (0.0, 10_000_000.0), (0.1e6, 9_927_676.0), (10e6, 3_978_830.0), (100e6, 1_124_054.0)]
    {
        close(equivalent_capacity(&s, x, 1e-6).unwrap(), want, 1e-6);
    }
}

#[test]
fn gaussian_vector_and_the_minimum() {
    close(gaussian_alpha(1e-6), 5.07870, 1e-5);
    let fifty = [SourceClass::new(50, src(10e6, 0.1, 0.1))];
    close(gaussian_bps(&fifty, 1e-6).unwrap(), 157.735e6, 1e-5);
    close(aggregate_bps(&fifty, 1e6, 1e-6, EbMethod::Fluid).unwrap(), 464.12e6, 1e-5);
    let min = aggregate_bps(&fifty, 1e6, 1e-6, EbMethod::Min).unwrap();
    close(min, 157.735e6, 1e-5);
    assert!(min > C_BPS, "the 50th source is refused");
}

#[test]
fn gaussian_is_capped_at_the_peak_sum() {
    // One 100 Mbit/s source on 155 Mbit/s: m + α'σ = 50 + 5.08 × 50 Mbit/s, far above its peak.
    let one = [SourceClass::new(1, src(100e6, 0.5, 0.1))];
    assert_eq!(gaussian_bps(&one, 1e-6).unwrap(), 100e6);
    assert_eq!(aggregate_bps(&one, 1e6, 1e-6, EbMethod::Gaussian).unwrap(), 100e6);
    assert_eq!(gaussian_bps(&one, 0.0).unwrap(), 100e6, "no loss at all: the peak");
    // Where the estimate is below the peak sum it is unchanged (50 sources: 157.7 < 500).
    let fifty = [SourceClass::new(50, src(10e6, 0.1, 0.1))];
    close(gaussian_bps(&fifty, 1e-6).unwrap(), 157.735e6, 1e-5);
}

#[test]
fn delay_priority_vector() {
    let rt = src(10e6, 0.1, 0.1);
    let nrt = src(2e6, 0.5, 0.05);
    close(homogeneous(20, rt).overflow_probability(C_BPS), 9.48e-12, 1e-3);
    close(equivalent_capacity(&rt, 10e6, 1e-6).unwrap(), 3.97883e6, 1e-5);
    close(equivalent_capacity(&nrt, 10e6, 1e-6).unwrap(), 1.03450e6, 1e-5);
    let port = DelayPriority {
        capacity_bps: C_BPS,
        rt_buffer_bits: 48.0 * 424.0,
        nrt_buffer_bits: 10e6,
        target: 1e-6,
        criterion: LossCriterion::Overflow,
        eb: EbMethod::Fluid,
    };
    assert_eq!(port.largest_nrt(Rule::Combined, rt, 20, nrt, 1000).unwrap(), Some(67));
    assert_eq!(port.largest_nrt(Rule::NrtBoundary, rt, 20, nrt, 1000).unwrap(), Some(67));
    // The RT boundary alone never binds on nrt sources.
    assert_eq!(port.largest_nrt(Rule::RtBoundary, rt, 20, nrt, 1000).unwrap(), Some(1000));
}

fn sources_for_properties() -> Vec<OnOff> {
    vec![src(10e6, 0.1, 0.1), src(31.1e6, 0.2, 0.02), src(2e6, 0.5, 0.05), src(50e6, 0.05, 0.01)]
}

#[test]
fn losses_never_fall_as_sources_are_added() {
    for s in sources_for_properties() {
        for capacity in [C_BPS, 0.5 * C_BPS] {
            let mut last = (0.0, 0.0);
            for n in 0..=80 {
                let d = homogeneous(n, s);
                let now = (d.overflow_probability(capacity), d.fluid_clr(capacity));
                assert!(now.0 >= last.0 * (1.0 - 1e-12), "{s:?} n={n}: P_over fell");
                assert!(now.1 >= last.1 * (1.0 - 1e-12), "{s:?} n={n}: CLR fell");
                last = now;
            }
        }
    }
}

#[test]
fn effective_bandwidth_falls_with_the_buffer_between_peak_and_mean() {
    for s in sources_for_properties() {
        let mut last = s.peak_bps;
        for k in 0..60 {
            let x = if k == 0 { 0.0 } else { 1e3 * 1.4f64.powi(k) };
            let c = equivalent_capacity(&s, x, 1e-4).unwrap();
            assert!(c <= last * (1.0 + 1e-12), "{s:?} x={x}: ĉ rose");
            assert!(c >= s.mean_bps() * (1.0 - 1e-12) && c <= s.peak_bps, "{s:?} x={x}: ĉ={c} out of [m, R]");
            last = c;
        }
    }
}

#[test]
fn admissible_counts_grow_with_the_buffer_and_with_the_target() {
    for s in sources_for_properties() {
        for method in [EbMethod::Fluid, EbMethod::Min] {
            let largest = |x: f64, eps: f64| {
                largest_count(2000, |n| Ok(aggregate_bps(&[SourceClass::new(n, s)], x, eps, method)? <= C_BPS)).unwrap()
            };
            let mut last = Some(0);
            for x in [0.0, 1e4, 1e5, 1e6, 1e7, 1e8] {
                let now = largest(x, 1e-4);
                assert!(now >= last, "{s:?} {method:?}: fewer sources with a larger buffer x={x}");
                last = now;
            }
            assert!(largest(1e6, 1e-3) >= largest(1e6, 1e-6));
        }
    }
}

#[test]
fn no_buffer_and_no_loss_is_peak_allocation() {
    let mixes: Vec<Vec<SourceClass>> = vec![
        vec![SourceClass::new(0, src(10e6, 0.1, 0.1))],
        vec![SourceClass::new(1, src(31.1e6, 0.2, 0.02)), SourceClass::new(0, src(2e6, 0.5, 0.05))],
        vec![SourceClass::new(3, src(7e6, 0.3, 0.1)), SourceClass::new(2, src(11e6, 0.6, 0.1))],
    ];
    for mix in mixes {
        let base = *mix.last().unwrap();
        for capacity in [10e6, 62.2e6, C_BPS] {
            let with = |n: u32| {
                let mut m = mix.clone();
                m.last_mut().unwrap().count = base.count + n;
                m
            };
            let by_peak = largest_count(500, |n| Ok(peak::admits(&with(n), capacity, 1.0))).unwrap();
            for criterion in [LossCriterion::Overflow, LossCriterion::FluidClr] {
                let by_conv =
                    largest_count(500, |n| Ok(ActiveRate::of(&with(n))?.loss(criterion, capacity) <= 0.0)).unwrap();
                assert_eq!(by_conv, by_peak, "{criterion:?} at C={capacity}");
            }
            for method in [EbMethod::Fluid, EbMethod::Min] {
                let by_eb = largest_count(500, |n| Ok(aggregate_bps(&with(n), 0.0, 0.0, method)? <= capacity)).unwrap();
                assert_eq!(by_eb, by_peak, "{method:?} at C={capacity}");
            }
        }
    }
}

#[test]
fn the_combined_region_lies_inside_the_linear_and_nrt_regions_of_lrp97() {
    // LRP97's E1 port: 31.1 Mbit/s sources, 20 ms on / 80 ms off, 48 and 4000 cells, 1e-4.
    let s = OnOff::from_periods(31.1e6, 0.020, 0.080);
    let port = DelayPriority {
        capacity_bps: C_BPS,
        rt_buffer_bits: 48.0 * 424.0,
        nrt_buffer_bits: 4000.0 * 424.0,
        target: 1e-4,
        criterion: LossCriterion::FluidClr,
        eb: EbMethod::Fluid,
    };
    let edge = |rule, n_rt| port.largest_nrt(rule, s, n_rt, s, 200).unwrap();
    let mut last_combined = Some(200);
    for n_rt in 0..=10 {
        let combined = edge(Rule::Combined, n_rt);
        assert!(combined <= edge(Rule::NrtBoundary, n_rt));
        assert!(
            edge(Rule::Convolution, n_rt) <= combined || combined.is_none() && edge(Rule::Convolution, n_rt).is_none()
        );
        assert!(combined <= last_combined, "the combined edge rose with n_rt={n_rt}");
        last_combined = combined;
    }
    assert!(port.admits(Rule::Peak, &[SourceClass::new(4, s)], &[]).unwrap());
    assert!(!port.admits(Rule::Peak, &[SourceClass::new(5, s)], &[]).unwrap());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(equivalent_capacity(&src(-1.0, 0.1, 0.1), 1e6, 1e-6).is_err());
    assert!(equivalent_capacity(&src(1e6, 1.5, 0.1), 1e6, 1e-6).is_err());
    assert!(equivalent_capacity(&src(1e6, 0.5, 0.1), -1.0, 1e-6).is_err());
    assert!(equivalent_capacity(&src(1e6, 0.5, 0.1), 1e6, 1.0).is_err());
    assert!(ActiveRate::of(&[SourceClass::new(3, src(f64::NAN, 0.5, 0.1))]).is_err());
    assert!(Rule::parse("bogus").is_err());
    assert!(LossCriterion::parse("bogus").is_err());
}

#[test]
fn convolution_work_is_bounded_before_it_starts() {
    let one = [SourceClass::new(100_000, src(10e6, 0.1, 0.1))];
    assert_eq!(work_terms(&one), 200_002, "one class: its weights, each added once");
    // Equal peaks share their rates: the support stays Σ n + 1, not the product.
    let equal = [SourceClass::new(1000, src(10e6, 0.1, 0.1)), SourceClass::new(1000, src(10e6, 0.5, 0.1))];
    assert_eq!(work_terms(&equal), 1001 + 1001 + 1001 + 1001 * 1001);
    let three: Vec<SourceClass> =
        [10e6, 2e6, 1.5e6].iter().map(|&r| SourceClass::new(100_000, src(r, 0.1, 0.1))).collect();
    assert!(work_terms(&three) > super::WORK_LIMIT);
    let started = std::time::Instant::now();
    let e = ActiveRate::of(&three).unwrap_err();
    assert!(e.0.contains("100000000 terms of work (the limit)"), "{e}");
    assert!(started.elapsed().as_secs() < 1, "refused before any work");
}
