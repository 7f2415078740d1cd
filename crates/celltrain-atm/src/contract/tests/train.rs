//! The BKD97 packet-train numbers, as literals computed by hand (python3 integer arithmetic,
//! see the derivation comments), then cross-checked by simulating the dual GCRA / UPC.
//!
//! Contract of the V experiments: PCR = line rate 155.52 Mbit/s (T_PCR = 424 bit / 155.52
//! Mbit/s = 2 726 337.45 ps, floor 2 726 337 ps, the paper's "2.726 µs"), CDVT = 0, SCR = 10
//! Mbit/s (T_SCR = 42 400 000 ps, "42.4 µs"), MBS ∈ {1000, 2000, 3000, 4000}.
//! δ = T_SCR − T_PCR = 39 673 663 ps.

use super::super::train::{cells_per_pdu, cells_per_sdu, Bound, TrainModel};
use super::super::{Clp, ConformanceDef, ContractError, DualGcra, TrafficDescriptor, Upc, UpcAction};
use super::{d, iv};
use celltrain_core::{BitRate, SimDuration, SimTime};

const T_PCR: u64 = 2_726_337;
const T_SCR: u64 = 42_400_000;
const MBS: [u32; 4] = [1000, 2000, 3000, 4000];

fn model(mbs: u32, c: u64) -> TrainModel {
    TrainModel::from_intervals(iv(T_PCR), iv(T_SCR), mbs, c).unwrap()
}

fn us(n: u64) -> SimDuration {
    SimDuration::from_micros(n)
}

#[test]
fn cells_per_pdu_for_the_paper_mtus() {
    // ⌈(MTU + 8 LLC/SNAP + 8 trailer)/48⌉: 568/48 → 12, 1516/48 → 32, 4848/48 = 101,
    // 9204/48 → 192. Reading 9188 as the AAL5 SDU (9180 + LLC/SNAP): 9196/48 → 192 as well.
    assert_eq!([552, 1500, 4832, 9188].map(cells_per_pdu), [12, 32, 101, 192]);
    assert_eq!([552, 1500, 4832, 9188].map(cells_per_sdu), [12, 32, 101, 192]);
    assert_eq!(cells_per_pdu(9180), 192); // LLC/SNAP: 9180 + 8 = 9188 → 192 cells (docs/references.md#aal5)
    assert_eq!(cells_per_pdu(32), 1); // 48 octets exactly
    assert_eq!(cells_per_pdu(33), 2);
}

#[test]
fn eq1_tau_scr() {
    // 999 · 39 673 663 = 39 633 989 337 ps (≈ 39.6 ms).
    assert_eq!(model(1000, 192).tau_scr(), d(39_633_989_337));
    assert_eq!(model(4000, 192).tau_scr(), d(158_654_978_337));
}

/// (MBS, expected p) for each (c, I_p) the tests use.
const TABLE: [(u64, u64, [u64; 4]); 3] = [
    // MTU 9188, I_p = 376 µs (BKD97 §4.1). MBS 1000 by hand: (c−1)δ = 7 577 669 633;
    // τ − (c−1)δ = 808δ = 32 056 319 704; D = 192δ − 376 000 000 = 7 241 343 296;
    // ⌊32 056 319 704 / 7 241 343 296⌋ = 4 → p = 5. MBS 2000: ⌊1808δ / D⌋ = 9 → p = 10,
    // the paper's "burst of about 15 packets, cells from the last 5 discarded".
    (192, 376, [5, 10, 16, 21]),
    // MTU 4832, I_p = 324 µs: D = 101δ − 324 000 000 = 3 683 039 963; MBS 1000:
    // ⌊899δ / D⌋ = ⌊35 666 623 037 / 3 683 039 963⌋ = 9 → p = 10.
    (101, 324, [10, 21, 32, 42]),
    // MTU 1500 with an illustrative I_p = 100 µs (the paper gives none): D = 32δ − 10⁸ =
    // 1 169 557 216; MBS 1000: ⌊968δ / D⌋ = ⌊38 404 105 784 / 1 169 557 216⌋ = 32 → p = 33.
    (32, 100, [33, 67, 101, 135]),
];

#[test]
fn eq2_longest_train_closed_form_and_literal() {
    for (c, idle_us, want) in TABLE {
        for (&mbs, &p) in MBS.iter().zip(&want) {
            let m = model(mbs, c);
            let idle = us(idle_us);
            assert_eq!(m.max_train(idle), Bound::Finite(p), "c={c} MBS={mbs}");
            assert!(m.eq2_holds(idle, p), "eq. (2) literal, p = {p}");
            assert!(!m.eq2_holds(idle, p + 1), "eq. (2) literal, p + 1 = {}", p + 1);
        }
    }
}

/// Runs the dual GCRA (PCR with CDVT 0, SCR with τ from eq. 1) over `pdus` PDUs of the train;
/// returns the index of the first non-conforming cell, if any.
fn first_rejected(m: &TrainModel, mbs: u32, idle: SimDuration, pdus: u64) -> Option<u64> {
    let mut g = DualGcra::from_contract(m.t_pcr(), d(0), m.t_scr(), mbs, d(0));
    (0u64..)
        .zip(m.cell_offsets(idle, pdus))
        .find(|&(_, off)| !g.check(SimTime::ZERO + off).is_conforming())
        .map(|(i, _)| i)
}

#[test]
fn eq2_agrees_with_simulated_dual_gcra() {
    for (c, idle_us, want) in TABLE {
        for (&mbs, &p) in MBS.iter().zip(&want) {
            let m = model(mbs, c);
            let first = first_rejected(&m, mbs, us(idle_us), p + 1).expect("PDU p+1 must fail");
            assert!(first >= p * c, "c={c} MBS={mbs}: cell {first} of the first {p} PDUs rejected");
        }
    }
}

#[test]
fn eq2_agrees_with_the_upc_built_from_the_descriptor() {
    // Upc::new rounds leniently: T_PCR 2 726 337, BT = ⌈999 · 39 673 662.55⌉ = 39 633 988 889 ps;
    // the predictions (5 and 21 PDUs for MTU 9188) do not change.
    let line = BitRate::from_bps(155_520_000);
    for (mbs, p) in [(1000u32, 5u64), (4000, 21)] {
        let desc = TrafficDescriptor::vbr(ConformanceDef::Vbr1, line, d(0), BitRate::from_bps(10_000_000), mbs);
        let m = TrainModel::from_descriptor(&desc, 192).unwrap();
        assert_eq!(m.max_train(us(376)), Bound::Finite(p));
        let mut upc = Upc::new(&desc).unwrap();
        let actions: Vec<_> =
            m.cell_offsets(us(376), p + 1).map(|off| upc.on_cell(SimTime::ZERO + off, Clp::Zero)).collect();
        let split = (p * 192) as usize;
        assert!(actions[..split].iter().all(|&a| a == UpcAction::Pass), "MBS {mbs}");
        assert!(actions[split..].contains(&UpcAction::Discard), "MBS {mbs}");
    }
}

#[test]
fn eq3_minimum_idle_for_an_infinite_train() {
    let m = model(1000, 192);
    // 192 · 39 673 663 = 7 617 343 296 ps ≈ 7.6 ms (eq. 2 reading: idle link time).
    assert_eq!(m.min_idle_infinite(), Some(d(7_617_343_296)));
    // Eq. (3) as written: T_SCR + 191δ = 7 620 069 633 ps = the above + T_PCR.
    assert_eq!(m.min_spacing_eq3(), Some(d(7_620_069_633)));
    assert_eq!(m.max_cells_eq3(d(7_620_069_633)), Bound::Finite(192));
    assert_eq!(m.max_cells_eq3(d(7_620_069_632)), Bound::Finite(191));
    assert_eq!(m.max_cells_eq3(d(T_SCR - 1)), Bound::Finite(0));
    assert_eq!(m.max_cells_eq3(SimDuration::from_secs(1)), Bound::Finite(1000)); // = MBS
    assert_eq!(m.max_train(d(7_617_343_296)), Bound::Unbounded);
    assert_eq!(m.max_train(d(7_617_343_295)), Bound::Finite(808 * 39_673_663 + 1));

    let m1500 = model(1000, 32);
    // 32 · 39 673 663 = 1 269 557 216 ps; + T_PCR = 1 272 283 553 ps.
    assert_eq!(m1500.min_idle_infinite(), Some(d(1_269_557_216)));
    assert_eq!(m1500.min_spacing_eq3(), Some(d(1_272_283_553)));
}

#[test]
fn eq3_bound_is_tight_in_simulation() {
    // MBS = c leaves no slack, so one picosecond less idle than c·δ fails at PDU 2's last cell.
    let m = model(192, 192);
    let idle = m.min_idle_infinite().unwrap();
    assert_eq!(first_rejected(&m, 192, idle, 300), None);
    assert_eq!(m.max_train(idle - d(1)), Bound::Finite(1));
    assert_eq!(first_rejected(&m, 192, idle - d(1), 2), Some(2 * 192 - 1));
}

#[test]
fn recovery_idle_after_a_maximal_burst() {
    // A burst of exactly MBS = 1000 cells at T_PCR fills the SCR bucket to the brim; a 192-cell
    // PDU is then accepted whole only after c·δ = 7 617 343 296 ps of idle link.
    let m = model(1000, 192);
    assert_eq!(m.recovery_idle(), d(7_617_343_296));
    for (idle, want_accepted) in [(7_617_343_296, 192), (7_617_343_295, 191)] {
        let mut g = DualGcra::from_contract(iv(T_PCR), d(0), iv(T_SCR), 1000, d(0));
        for n in 0..1000 {
            assert!(g.check(SimTime::ZERO + iv(T_PCR).times(n)).is_conforming());
        }
        let start = SimTime::ZERO + iv(T_PCR).times(1000) + d(idle);
        let accepted = (0..192).filter(|&j| g.check(start + iv(T_PCR).times(j)).is_conforming()).count();
        assert_eq!(accepted, want_accepted, "idle {idle} ps");
    }
}

#[test]
fn degenerate_trains() {
    // PDU longer than MBS: no train, no idle time helps.
    let m = model(100, 192);
    assert_eq!(m.max_train(SimDuration::from_secs(1)), Bound::Finite(0));
    assert_eq!((m.min_idle_infinite(), m.min_spacing_eq3()), (None, None));
    // SCR = PCR: any train at the PCR conforms.
    let flat = TrainModel::from_intervals(iv(T_SCR), iv(T_SCR), 50, 192).unwrap();
    assert_eq!(flat.max_train(SimDuration::ZERO), Bound::Unbounded);
    assert_eq!(flat.max_cells_eq3(d(T_SCR)), Bound::Unbounded);
    assert_eq!(
        TrainModel::from_intervals(iv(T_SCR), iv(T_PCR), 50, 192),
        Err(ContractError::ScrIntervalBelowPcr { t_scr: iv(T_PCR), t_pcr: iv(T_SCR) })
    );
    assert_eq!(model_err(0), Err(ContractError::ZeroCellsPerPdu));
    let cbr = TrafficDescriptor::cbr1(BitRate::from_bps(1_000_000), d(0));
    assert_eq!(TrainModel::from_descriptor(&cbr, 10), Err(ContractError::MissingScr(ConformanceDef::Cbr1)));
}

fn model_err(c: u64) -> Result<TrainModel, ContractError> {
    TrainModel::from_intervals(iv(T_PCR), iv(T_SCR), 1000, c)
}

#[test]
fn report_prints_all_numbers() {
    let text = model(1000, 192).report(us(376)).to_string();
    let want = "packet train: c = 192 cells/PDU, T_PCR = 2.726337us, T_SCR = 42.4us, \
                tau_SCR = 39.633989337ms, I_p = 376us\n\
                (a) longest conforming train, eq. (2): 5 PDUs\n\
                (b) min I_p for an infinite train: 7.617343296ms \
                (eq. (3) as written, cell-to-cell: 7.620069633ms)\n\
                (c) idle after a maximal burst before a whole PDU is accepted: 7.617343296ms";
    assert_eq!(text, want);
    let none = model(100, 192).report(us(376)).to_string();
    assert!(none.contains("impossible (PDU longer than MBS)"), "{none}");
}
