//! UPC per conformance definition, descriptor validation, interval rounding.

use super::super::{
    burst_tolerance_from_rates, CellInterval, Clp, ConformanceDef, ContractError, ContractParams, Gcra, GcraParams,
    Rounding, TrafficDescriptor, Upc, UpcAction, UpcCounters,
};
use super::{d, iv, t};
use celltrain_core::{BitRate, SimDuration, SimTime};
use UpcAction::{Discard, Pass, Tag};

/// Tp = 2, τp = 0, Ts = 10, τs = BT = 32 (vector 2.b parameters).
fn upc_2b(def: ConformanceDef) -> Upc {
    let scr = def.has_scr().then_some(GcraParams { increment: iv(10), limit: d(32) });
    let pcr = GcraParams { increment: iv(2), limit: d(0) };
    Upc::from_params(def, ContractParams { pcr, scr }).unwrap()
}

#[track_caller]
fn feed(upc: &mut Upc, cells: &[(u64, Clp, UpcAction)]) {
    for &(ta, clp, want) in cells {
        assert_eq!(upc.on_cell(t(ta), clp), want, "{} cell at {ta} {clp:?}", upc.def());
    }
}

#[track_caller]
fn assert_conserved(c: &UpcCounters, seen: u64) {
    assert_eq!(c.seen(), seen, "counter conservation: {c:?}");
}

#[test]
fn vbr3_tags_and_tagging_advances_pcr_but_not_scr() {
    let mut u = upc_2b(ConformanceDef::Vbr3);
    let z = Clp::Zero;
    feed(&mut u, &[(0, z, Pass), (2, z, Pass), (4, z, Pass), (6, z, Pass), (8, z, Pass)]);
    feed(&mut u, &[(10, z, Tag)]);
    assert_eq!(u.pcr().tat(), t(12), "tagged cell must update PCR(0+1)");
    assert_eq!(u.scr().unwrap().tat(), t(50), "tagged cell must not update SCR(0)");
    // 11 < TATp 12: discarded by PCR. Had the tag not advanced TATp (10), it would have passed
    // PCR and been tagged instead.
    feed(&mut u, &[(11, z, Discard), (12, z, Tag), (18, z, Pass)]);
    assert_eq!(u.scr().unwrap().tat(), t(60));
    let c = *u.counters();
    assert_eq!(c.passed, [6, 0]);
    assert_eq!(c.tagged, 2);
    assert_eq!(c.discarded_pcr, [1, 0]);
    assert_eq!(c.discarded_scr, [0, 0]);
    assert_eq!(c.conforming(Clp::Zero), 8);
    assert_conserved(&c, 9);
}

#[test]
fn vbr3_clp1_cells_are_only_pcr_policed_and_never_tagged() {
    let mut u = upc_2b(ConformanceDef::Vbr3);
    let one = Clp::One;
    feed(&mut u, &[(0, one, Pass), (1, one, Discard), (2, one, Pass), (4, one, Pass)]);
    assert_eq!(u.scr().unwrap().tat(), SimTime::ZERO);
}

#[test]
fn vbr2_clp1_cells_only_checked_against_pcr() {
    let mut u = upc_2b(ConformanceDef::Vbr2);
    let one = Clp::One;
    // Eight CLP=1 cells every 2 slots all pass (VBR.1 would discard 10, 12, 14).
    for k in 0..8 {
        feed(&mut u, &[(2 * k, one, Pass)]);
    }
    assert_eq!(u.scr().unwrap().tat(), SimTime::ZERO, "SCR(0) saw no CLP=1 cell");
    // A CLP=0 burst then finds a fresh SCR bucket: 5 cells, the 6th fails SCR and, VBR.2 not
    // tagging, is discarded. TATs: 26, 36, 46, 56, 66; 26 < 66 − 32.
    let z = Clp::Zero;
    for ta in [16, 18, 20, 22, 24] {
        feed(&mut u, &[(ta, z, Pass)]);
    }
    feed(&mut u, &[(26, z, Discard), (28, one, Pass)]);
    let c = *u.counters();
    assert_eq!(c.passed, [5, 9]);
    assert_eq!(c.discarded_scr, [1, 0]);
    assert_eq!(c.tagged, 0);
    assert_conserved(&c, 15);
}

#[test]
fn vbr1_polices_clp1_cells_against_scr_too() {
    let mut u = upc_2b(ConformanceDef::Vbr1);
    let one = Clp::One;
    let want = [Pass, Pass, Pass, Pass, Pass, Discard, Discard, Discard];
    for (k, &w) in want.iter().enumerate() {
        feed(&mut u, &[(2 * k as u64, one, w)]);
    }
    assert_eq!(u.counters().discarded_scr, [0, 3]);
}

#[test]
fn cbr_and_ubr_police_pcr_only() {
    for def in [ConformanceDef::Cbr1, ConformanceDef::Ubr1, ConformanceDef::Ubr2] {
        let mut u = upc_2b(def);
        assert!(u.scr().is_none());
        let z = Clp::Zero;
        feed(&mut u, &[(0, z, Pass), (1, z, Discard), (2, z, Pass), (4, Clp::One, Pass)]);
        feed(&mut u, &[(5, Clp::One, Discard), (6, z, Pass)]);
        let c = *u.counters();
        assert_eq!(c.discarded_pcr, [1, 1]);
        assert_conserved(&c, 6);
    }
}

#[test]
fn from_params_rejects_mismatched_scr() {
    let pcr = GcraParams { increment: iv(2), limit: d(0) };
    let scr = Some(pcr);
    assert_eq!(
        Upc::from_params(ConformanceDef::Vbr1, ContractParams { pcr, scr: None }),
        Err(ContractError::MissingScr(ConformanceDef::Vbr1))
    );
    assert_eq!(
        Upc::from_params(ConformanceDef::Cbr1, ContractParams { pcr, scr }),
        Err(ContractError::UnexpectedScr(ConformanceDef::Cbr1))
    );
}

fn mbps(m: u64) -> BitRate {
    BitRate::from_bps(m * 1_000_000)
}

#[test]
fn descriptor_validation_errors() {
    let ok = TrafficDescriptor::vbr(ConformanceDef::Vbr1, mbps(155), d(0), mbps(10), 1000);
    assert_eq!(ok.validate(), Ok(()));
    assert_eq!(TrafficDescriptor::cbr1(mbps(10), d(0)).validate(), Ok(()));

    let cases: [(TrafficDescriptor, ContractError); 8] = [
        (TrafficDescriptor { pcr: mbps(0), ..ok }, ContractError::ZeroPcr),
        (TrafficDescriptor { scr: Some(mbps(0)), ..ok }, ContractError::ZeroScr),
        (
            TrafficDescriptor { scr: Some(mbps(156)), ..ok },
            ContractError::ScrAbovePcr { scr: mbps(156), pcr: mbps(155) },
        ),
        (TrafficDescriptor { mbs: Some(0), ..ok }, ContractError::ZeroMbs),
        (TrafficDescriptor { mbs: None, ..ok }, ContractError::ScrWithoutMbs),
        (TrafficDescriptor { scr: None, ..ok }, ContractError::MbsWithoutScr),
        (TrafficDescriptor { scr: None, mbs: None, ..ok }, ContractError::MissingScr(ConformanceDef::Vbr1)),
        (TrafficDescriptor { def: ConformanceDef::Cbr1, ..ok }, ContractError::UnexpectedScr(ConformanceDef::Cbr1)),
    ];
    for (desc, want) in cases {
        assert_eq!(desc.validate(), Err(want.clone()), "{desc:?}");
        assert_eq!(Upc::new(&desc).err(), Some(want));
    }
    // SCR = PCR and MBS = 1 are legal edges.
    let edge = TrafficDescriptor { scr: Some(mbps(155)), mbs: Some(1), ..ok };
    assert_eq!(edge.validate(), Ok(()));
    assert_eq!(
        ContractError::ScrAbovePcr { scr: mbps(156), pcr: mbps(155) }.to_string(),
        "SCR (156 Mbit/s) must not exceed PCR (155 Mbit/s)"
    );
    assert_eq!(ContractError::ScrWithoutMbs.to_string(), "SCR is given but MBS is not: give both or neither");
}

#[test]
fn intervals_name_their_rounding() {
    // 424 bit / 155.52 Mbit/s = 2 726 337.45 ps; 424 bit / 10 Mbit/s = 42.4 µs exactly.
    let line = BitRate::from_bps(155_520_000);
    assert_eq!(CellInterval::from_rate_floor(line), Some(iv(2_726_337)));
    assert_eq!(CellInterval::from_rate_ceil(line), Some(iv(2_726_338)));
    assert_eq!(CellInterval::from_rate_ceil(mbps(10)), Some(iv(42_400_000)));
    assert_eq!(CellInterval::from_rate_floor(mbps(10)), Some(iv(42_400_000)));
    assert_eq!(CellInterval::from_cells_per_sec_floor(3), Some(iv(333_333_333_333)));
    assert_eq!(CellInterval::from_cells_per_sec_ceil(3), Some(iv(333_333_333_334)));
    assert_eq!(CellInterval::from_rate_ceil(mbps(0)), None);
    assert_eq!(CellInterval::from_cells_per_sec_floor(0), None);
    // BT for MBS 1000 at PCR 155.52 / SCR 10 Mbit/s: 999 · 39 673 662.551… = 39 633 988 888.9 ps.
    let bt = |r| burst_tolerance_from_rates(line, mbps(10), 1000, r);
    assert_eq!(bt(Rounding::Lenient), Some(d(39_633_988_889)));
    assert_eq!(bt(Rounding::Strict), Some(d(39_633_988_888)));
    let desc = TrafficDescriptor::vbr(ConformanceDef::Vbr1, line, d(0), mbps(10), 1000);
    let lenient = desc.params(Rounding::Lenient).unwrap();
    assert_eq!(lenient.pcr.increment, iv(2_726_337));
    assert_eq!(lenient.scr.unwrap().limit, d(39_633_988_889));
    let strict = desc.params(Rounding::Strict).unwrap();
    assert_eq!(strict.pcr.increment, iv(2_726_338));
    assert_eq!(strict.scr.unwrap().limit, d(39_633_988_888));
}

#[test]
fn lenient_policer_accepts_a_link_at_exactly_pcr_but_a_ceil_policer_would_not() {
    // A 155.52 Mbit/s link sends cells back to back at origin + ⌈n·424/R⌉ (no drift); the
    // contract's PCR is the line rate with CDVT = 0, as in BKD97.
    let line = BitRate::from_bps(155_520_000);
    let arrivals = (0..10_000u64).map(|n| SimTime::ZERO + line.cell_offset_ceil(n));
    let mut upc = Upc::new(&TrafficDescriptor::cbr1(line, SimDuration::ZERO)).unwrap();
    let mut ceil = Gcra::new(CellInterval::from_rate_ceil(line).unwrap(), SimDuration::ZERO);
    let mut ceil_rejects = 0;
    for ta in arrivals {
        assert_eq!(upc.on_cell(ta, Clp::Zero), Pass, "cell at {ta:?}");
        ceil_rejects += u64::from(!ceil.check(ta).is_conforming());
    }
    assert!(ceil_rejects > 1000, "ceil policer rejected only {ceil_rejects}");
}
