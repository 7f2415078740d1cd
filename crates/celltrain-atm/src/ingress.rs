//! Ingress policing: the usage parameter control a VC's cells meet where they enter the
//! network (at the first switch), before any output port.
//!
//! ```text
//!  cell ─► IngressCell (CLP, first/last cell of its frame) ─► Policer::on_cell ─► Pass
//!                                                                          ├─► Tag (CLP 0→1)
//!                                                                          └─► Discard
//! ```
//! The decision is the policer's; applying it (setting CLP, counting, dropping) is the
//! caller's, or [`Policer::police`]'s for a cell in hand. The signature is frame-aware so that
//! a frame-based policer (F-GCRA of GFR, [`crate::contract::Fgcra`]) sits beside the cell-based
//! UPC as another variant. Each policer implements [`IngressPolicer`] (its contract); dispatch
//! is by an enum declared from one table.
//!
//! ABR's policer, the dynamic GCRA ([`crate::contract::Dgcra`]), also reads the feedback going
//! back to the source: the network shows it every backward RM cell of its VC that leaves the
//! same switch towards the source ([`Policer::on_backward_rm`]), for the policers that ask
//! ([`IngressPolicer::WATCHES_BACKWARD_RM`]).
//!
//! ```text
//!  backward RM cell of the VC, leaving the first switch towards the source
//!    ─► RmFeedback (ER, CI, NI) ─► Policer::on_backward_rm (only where the policer watches)
//! ```

use crate::abr::{AbrRate, RmCell};
use crate::category::ServiceCategory;
use crate::cell::{Cell, CellKind};
use crate::contract::{
    Clp, Dgcra, DgcraContract, Eligibility, Fgcra, GfrContract, GfrError, TrafficDescriptor, Upc, UpcAction,
};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::{BitRate, Keys};
use std::fmt;

/// What a policer sees of an arriving cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IngressCell {
    pub clp: Clp,
    pub kind: CellKind,
    /// The first cell of an AAL5 frame (raw cells are frames of one cell; RM cells belong to
    /// no frame: neither first nor last).
    pub first_of_frame: bool,
    /// The last cell of a frame (AUU = 1).
    pub last_of_frame: bool,
}

impl IngressCell {
    pub fn of(cell: &Cell) -> Self {
        let clp = if cell.clp { Clp::One } else { Clp::Zero };
        let (first_of_frame, last_of_frame) = match cell.kind {
            CellKind::Aal5 => (cell.index == 0, cell.end_of_frame),
            CellKind::Raw => (true, true),
            CellKind::Rm => (false, false),
        };
        IngressCell { clp, kind: cell.kind, first_of_frame, last_of_frame }
    }
}

/// What a policer may read of a backward RM cell going back to its VC's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RmFeedback {
    pub er: AbrRate,
    pub ci: bool,
    pub ni: bool,
}

impl From<&RmCell> for RmFeedback {
    fn from(rm: &RmCell) -> Self {
        RmFeedback { er: rm.er, ci: rm.ci, ni: rm.ni }
    }
}

/// The contract of an ingress policer.
///
/// - It is shown every cell of its VC where the VC enters its first switch, in arrival order,
///   with what it may read of the cell ([`IngressCell`]: CLP, kind, frame boundaries), and
///   answers pass, tag (CLP 0 → 1) or discard; the caller applies the answer and counts.
/// - It keeps only its own state (GCRA clocks, frame eligibility, its counters); RM cells are
///   shown too, and a frame-based policer passes them (they belong to no frame).
/// - A policer that declares [`WATCHES_BACKWARD_RM`](Self::WATCHES_BACKWARD_RM) is also shown,
///   by [`on_backward_rm`](Self::on_backward_rm), every backward RM cell of its ABR VC that
///   leaves the same switch towards the VC's source (it travels on the paired VC), at the
///   instant it is taken into that port; one the port refuses is not shown. Such a cell may
///   be shown at an instant later than cells of the VC not yet shown (they cross the link
///   from the source meanwhile); never one earlier than a cell already shown. The others are
///   shown nothing, and the network does no work for them.
///
/// - Its contract's file owns the contract's VC keys: it reads them for the conformance
///   definitions it polices ([`read_contract`](Self::read_contract)), with their defaults and
///   validation, and refuses them on a VC whose definition is another's
///   ([`refuse_keys`](Self::refuse_keys)).
///
/// A new policer is a file implementing this trait and one line in the table of [`Policer`]
/// (`policers!` below), which declares [`PolicerContract`] from the same line.
pub trait IngressPolicer {
    /// The policer's name in reports.
    const NAME: &'static str;
    /// The conformance definitions it polices, as a VC's `conformance` key names them.
    const CONFORMANCES: &'static [&'static str];
    /// Its contract, as a VC's keys give it.
    type Contract: Clone + Copy + fmt::Debug + PartialEq;

    /// The contract of `conformance` (one of [`CONFORMANCES`](Self::CONFORMANCES)) from a VC's
    /// keys.
    fn read_contract<K: Keys>(conformance: &str, keys: &K, vc: VcShape) -> Result<Self::Contract, K::Error>;

    /// Refuses, on a VC whose conformance definition is not one of this policer's (`None`: it
    /// gives none), the keys that would mean this policer's contract: GFR's `mfs`, the
    /// DGCRA's `tau2` and `tau3`, and with no definition at all the UPC's `scr`, `mbs` and
    /// `cdvt` (a key two contracts read, as `mbs`, is refused by the one whose definition is
    /// chosen, where it does not belong: the DGCRA's refuses `scr` and `mbs`).
    fn refuse_keys<K: Keys>(conformance: Option<&str>, keys: &K, vc: VcShape) -> Result<(), K::Error>;

    /// The policer reads the backward RM cells going back to its VC's source.
    const WATCHES_BACKWARD_RM: bool = false;

    fn on_cell(&mut self, now: SimTime, cell: &IngressCell) -> UpcAction;

    /// A backward RM cell of the VC leaves the first switch towards the source at `now`.
    fn on_backward_rm(&mut self, _now: SimTime, _rm: &RmFeedback) {}
}

/// What a policer's contract is read against: the VC's category and PCR, and the shortest link
/// delay on its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcShape {
    pub category: ServiceCategory,
    pub pcr: BitRate,
    pub shortest_link_delay: SimDuration,
}

impl IngressPolicer for Upc {
    const NAME: &'static str = "upc";
    const CONFORMANCES: &'static [&'static str] = &TrafficDescriptor::NAMES;
    type Contract = TrafficDescriptor;

    fn read_contract<K: Keys>(conformance: &str, keys: &K, vc: VcShape) -> Result<TrafficDescriptor, K::Error> {
        TrafficDescriptor::read(conformance, keys, vc)
    }

    fn refuse_keys<K: Keys>(conformance: Option<&str>, keys: &K, _vc: VcShape) -> Result<(), K::Error> {
        TrafficDescriptor::refuse_keys(conformance, keys)
    }

    #[inline(always)]
    fn on_cell(&mut self, now: SimTime, cell: &IngressCell) -> UpcAction {
        Upc::on_cell(self, now, cell.clp)
    }
}

/// Declares [`Policer`], one variant per policer: the UPC inline on every policed cell's path,
/// the others boxed and out of line (cold: the network's path of every other cell stays as it
/// was, and the enum keeps the UPC's size).
macro_rules! policers {
    (inline: $inline:ident($inline_t:ty); boxed: $($boxed:ident($boxed_t:ty)),+ $(,)?) => {
        /// The policer of one VC at its ingress.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Policer {
            $inline($inline_t),
            $($boxed(Box<$boxed_t>),)+
        }

        /// A VC's contract, by the policer that polices it.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum PolicerContract {
            $inline(<$inline_t as IngressPolicer>::Contract),
            $($boxed(<$boxed_t as IngressPolicer>::Contract),)+
        }

        /// Every conformance definition's name, by policer, in the table's order.
        pub const CONFORMANCE_NAMES: &[&[&str]] =
            &[<$inline_t as IngressPolicer>::CONFORMANCES, $(<$boxed_t as IngressPolicer>::CONFORMANCES,)+];

        impl PolicerContract {
            /// The contract of a VC whose `conformance` key names `conformance` (None: no
            /// contract), read by the policer that polices it; every other policer refuses its
            /// own keys, in the table's order.
            pub fn read<K: Keys>(conformance: Option<&str>, keys: &K, vc: VcShape) -> Result<Option<Self>, K::Error> {
                let mut contract = None;
                match conformance {
                    Some(c) if <$inline_t as IngressPolicer>::CONFORMANCES.contains(&c) => {
                        contract = Some(Self::$inline(<$inline_t as IngressPolicer>::read_contract(c, keys, vc)?));
                    }
                    _ => <$inline_t as IngressPolicer>::refuse_keys(conformance, keys, vc)?,
                }
                $(match conformance {
                    Some(c) if <$boxed_t as IngressPolicer>::CONFORMANCES.contains(&c) => {
                        contract = Some(Self::$boxed(<$boxed_t as IngressPolicer>::read_contract(c, keys, vc)?));
                    }
                    _ => <$boxed_t as IngressPolicer>::refuse_keys(conformance, keys, vc)?,
                })+
                Ok(contract)
            }
        }

        impl Policer {
            /// Decides for a cell arriving at `now`.
            #[inline]
            pub fn on_cell(&mut self, now: SimTime, cell: &IngressCell) -> UpcAction {
                match self {
                    Self::$inline(p) => IngressPolicer::on_cell(p, now, cell),
                    $(Self::$boxed(p) => IngressPolicer::on_cell(p.as_mut(), now, cell),)+
                }
            }

            /// Decides for `cell`, arriving at `now`, and tags it (CLP := 1) when told to; the
            /// caller still drops a discarded cell and counts what it needs.
            #[inline]
            pub fn police(&mut self, now: SimTime, cell: &mut Cell) -> UpcAction {
                let action = match self {
                    Self::$inline(p) => {
                        let clp = if cell.clp { Clp::One } else { Clp::Zero };
                        // (Only the CLP: the inline policer reads nothing else of the cell.)
                        let seen = IngressCell { clp, kind: cell.kind, first_of_frame: false, last_of_frame: false };
                        IngressPolicer::on_cell(p, now, &seen)
                    }
                    _ => self.police_boxed(now, cell),
                };
                if action == UpcAction::Tag {
                    cell.clp = true;
                }
                action
            }

            #[cold]
            #[inline(never)]
            fn police_boxed(&mut self, now: SimTime, cell: &Cell) -> UpcAction {
                match self {
                    $(Self::$boxed(p) => IngressPolicer::on_cell(p.as_mut(), now, &IngressCell::of(cell)),)+
                    Self::$inline(_) => unreachable!("dispatched in `police`"),
                }
            }

            /// The policer's name in reports.
            pub fn name(&self) -> &'static str {
                match self {
                    Self::$inline(_) => <$inline_t as IngressPolicer>::NAME,
                    $(Self::$boxed(_) => <$boxed_t as IngressPolicer>::NAME,)+
                }
            }

            /// Whether the policer reads the backward RM cells going back to its VC's source.
            pub fn watches_backward_rm(&self) -> bool {
                match self {
                    Self::$inline(_) => <$inline_t as IngressPolicer>::WATCHES_BACKWARD_RM,
                    $(Self::$boxed(_) => <$boxed_t as IngressPolicer>::WATCHES_BACKWARD_RM,)+
                }
            }

            /// A backward RM cell of the VC leaves the first switch towards the source at `now`
            /// (see [`IngressPolicer`]).
            #[cold]
            pub fn on_backward_rm(&mut self, now: SimTime, rm: &RmFeedback) {
                match self {
                    Self::$inline(p) => IngressPolicer::on_backward_rm(p, now, rm),
                    $(Self::$boxed(p) => IngressPolicer::on_backward_rm(p.as_mut(), now, rm),)+
                }
            }
        }
    };
}

policers! {
    inline: Upc(Upc);
    boxed: Gfr(GfrPolicer), Dgcra(Dgcra),
}

impl IngressPolicer for Dgcra {
    const NAME: &'static str = "dgcra";
    const WATCHES_BACKWARD_RM: bool = true;
    const CONFORMANCES: &'static [&'static str] = &DgcraContract::NAMES;
    type Contract = DgcraContract;

    fn read_contract<K: Keys>(conformance: &str, keys: &K, vc: VcShape) -> Result<DgcraContract, K::Error> {
        DgcraContract::read(conformance, keys, vc)
    }

    fn refuse_keys<K: Keys>(_conformance: Option<&str>, keys: &K, _vc: VcShape) -> Result<(), K::Error> {
        DgcraContract::refuse_keys(keys)
    }

    /// Every cell, RM cells included: in-rate RM cells (CLP = 0) count against ACR like data;
    /// out-of-rate ones (CLP = 1) pass.
    #[inline]
    fn on_cell(&mut self, now: SimTime, cell: &IngressCell) -> UpcAction {
        Dgcra::on_cell(self, now, cell.clp)
    }

    fn on_backward_rm(&mut self, now: SimTime, rm: &RmFeedback) {
        self.on_feedback(now, rm.er, rm.ci, rm.ni);
    }
}

/// Counters of a GFR VC's ingress (frames counted at their first cell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GfrCounters {
    pub eligible_frames: u64,
    /// Frames the F-GCRA found not eligible (sent CLP = 0 or CLP = 1).
    pub ineligible_frames: u64,
    /// Frames sent CLP = 0 and tagged CLP = 1 here (GFR.2 only).
    pub tagged_frames: u64,
    pub tagged_cells: u64,
}

/// The F-GCRA of one GFR VC at its ingress, and what it does with frames that are not eligible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GfrPolicer {
    fgcra: Fgcra,
    contract: GfrContract,
    counters: GfrCounters,
}

impl GfrPolicer {
    pub fn new(contract: &GfrContract) -> Result<Self, GfrError> {
        Ok(GfrPolicer { fgcra: contract.fgcra()?, contract: *contract, counters: GfrCounters::default() })
    }

    /// The VC's contract.
    pub fn contract(&self) -> &GfrContract {
        &self.contract
    }

    pub fn counters(&self) -> &GfrCounters {
        &self.counters
    }

    /// The F-GCRA state (TAT, its own per-cell counters).
    pub fn fgcra(&self) -> &Fgcra {
        &self.fgcra
    }
}

impl IngressPolicer for GfrPolicer {
    const NAME: &'static str = "gfr";
    const CONFORMANCES: &'static [&'static str] = &GfrContract::NAMES;
    type Contract = GfrContract;

    fn read_contract<K: Keys>(conformance: &str, keys: &K, vc: VcShape) -> Result<GfrContract, K::Error> {
        GfrContract::read(conformance, keys, vc)
    }

    fn refuse_keys<K: Keys>(_conformance: Option<&str>, keys: &K, vc: VcShape) -> Result<(), K::Error> {
        GfrContract::refuse_keys(keys, vc)
    }

    /// A cell of the VC arrives at `now`. RM cells belong to no frame and pass untouched. (Not
    /// the cell's PCR conformance: the G experiments' sources never exceed their PCR.)
    #[inline]
    fn on_cell(&mut self, now: SimTime, cell: &IngressCell) -> UpcAction {
        if cell.kind == CellKind::Rm {
            return UpcAction::Pass;
        }
        let eligibility = self.fgcra.on_cell(now, cell.clp, cell.last_of_frame);
        if cell.first_of_frame {
            match eligibility {
                Eligibility::Eligible => self.counters.eligible_frames += 1,
                Eligibility::NotEligible => {
                    self.counters.ineligible_frames += 1;
                    if self.contract.conformance.tags() && cell.clp == Clp::Zero {
                        self.counters.tagged_frames += 1;
                    }
                }
            }
        }
        if eligibility == Eligibility::NotEligible && self.contract.conformance.tags() && cell.clp == Clp::Zero {
            self.counters.tagged_cells += 1;
            return UpcAction::Tag;
        }
        UpcAction::Pass
    }
}

impl Policer {
    /// The UPC behind a `Upc` policer (for its counters).
    pub fn upc(&self) -> Option<&Upc> {
        match self {
            Self::Upc(upc) => Some(upc),
            _ => None,
        }
    }

    /// The GFR ingress behind a `Gfr` policer (for its counters).
    pub fn gfr(&self) -> Option<&GfrPolicer> {
        match self {
            Self::Gfr(gfr) => Some(gfr),
            _ => None,
        }
    }

    /// The DGCRA behind a `Dgcra` policer (for its counters).
    pub fn dgcra(&self) -> Option<&Dgcra> {
        match self {
            Self::Dgcra(dgcra) => Some(dgcra),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{CellInterval, ConformanceDef, ContractParams, GcraParams};
    use celltrain_core::ids::{FrameId, VcId};
    use celltrain_core::rng::RngStream;
    use celltrain_core::time::SimDuration;

    fn params(t: u64, tau: u64) -> GcraParams {
        GcraParams { increment: CellInterval::from_picos(t), limit: SimDuration::from_picos(tau) }
    }

    /// Every conformance definition, with small integer contracts so that random arrivals
    /// meet every branch (pass, tag, discard on PCR, discard on SCR).
    fn upcs() -> Vec<Upc> {
        let pcr = params(10, 4);
        let scr = params(25, 40);
        let mut all = Vec::new();
        use ConformanceDef::*;
        for def in [Cbr1, Vbr1, Vbr2, Vbr3, Ubr1, Ubr2] {
            let scr = def.has_scr().then_some(scr);
            all.push(Upc::from_params(def, ContractParams { pcr, scr }).expect("valid contract"));
        }
        all
    }

    #[test]
    fn the_upc_variant_gives_exactly_the_upcs_actions() {
        let mut rng = RngStream::derive(11, "policer");
        let mut seen = [0u32; 3];
        for upc in upcs() {
            let mut reference = upc.clone();
            let mut policer = Policer::Upc(upc);
            let mut now = SimTime::ZERO;
            let mut index = 0u16;
            for _ in 0..5_000 {
                now += SimDuration::from_picos(rng.below(30));
                let eof = rng.below(5) == 0;
                let cell = Cell {
                    vc: VcId(0),
                    frame: FrameId(0),
                    index,
                    hop: 0,
                    end_of_frame: eof,
                    clp: rng.below(3) == 0,
                    efci: false,
                    kind: CellKind::Aal5,
                    entered: celltrain_core::time::SimTime::ZERO,
                };
                index = if eof { 0 } else { index + 1 };
                let expected = reference.on_cell(now, if cell.clp { Clp::One } else { Clp::Zero });
                let mut policed = cell;
                assert_eq!(policer.police(now, &mut policed), expected);
                assert_eq!(policed.clp, cell.clp || expected == UpcAction::Tag, "tagged exactly when told");
                assert_eq!(Cell { clp: cell.clp, ..policed }, cell, "policing changes nothing but CLP");
                seen[expected as usize] += 1;
            }
            assert_eq!(policer.upc(), Some(&reference), "same state and counters");
        }
        assert!(seen.iter().all(|&n| n > 100), "every action occurs: {seen:?}");
    }

    /// Vector 5.a through the GFR ingress: three-cell frames at 0, 3, 6, 9, 12, 40 slots
    /// (T = 10, 1/PCR = 1, MBS = 4); under GFR.2 the frames at 6, 9 and 12 are tagged whole,
    /// under GFR.1 nothing is, and both count 3 eligible and 3 ineligible frames.
    #[test]
    fn gfr_ingress_tags_whole_frames_that_are_not_eligible_under_gfr2_only() {
        use crate::contract::{GfrConformance, GfrContract};
        use celltrain_core::units::BitRate;
        for conformance in [GfrConformance::Gfr1, GfrConformance::Gfr2] {
            // 1 slot = 1 µs: PCR 424 Mbit/s, MCR 42.4 Mbit/s.
            let contract = GfrContract {
                conformance,
                pcr: BitRate::from_bps(424_000_000),
                mcr: BitRate::from_bps(42_400_000),
                mbs_cells: 4,
                mfs_cells: 3,
                cdvt: SimDuration::ZERO,
            };
            // MBS 4 ≥ 1 + 3·10/9 does not hold (4.33): vector 5.a's contract is below TM 4.1's least
            // MBS, so the F-GCRA is built directly for the vector.
            assert!(contract.validate().is_err());
            let fgcra = Fgcra::for_gfr(
                crate::contract::CellInterval::from_picos(10_000_000),
                crate::contract::CellInterval::from_picos(1_000_000),
                4,
                SimDuration::ZERO,
            );
            let mut policer = Policer::Gfr(Box::new(GfrPolicer { fgcra, contract, counters: GfrCounters::default() }));
            let mut tagged_per_frame = Vec::new();
            for start in [0u64, 3, 6, 9, 12, 40] {
                let mut tagged = 0;
                for j in 0..3u16 {
                    let mut cell = Cell {
                        vc: VcId(0),
                        frame: FrameId(0),
                        index: j,
                        hop: 0,
                        end_of_frame: j == 2,
                        clp: false,
                        efci: false,
                        kind: CellKind::Aal5,
                        entered: celltrain_core::time::SimTime::ZERO,
                    };
                    let now = SimTime::from_picos((start + u64::from(j)) * 1_000_000);
                    if policer.police(now, &mut cell) == UpcAction::Tag {
                        assert!(cell.clp);
                        tagged += 1;
                    }
                }
                tagged_per_frame.push(tagged);
            }
            let c = *policer.gfr().expect("a GFR policer").counters();
            assert_eq!((c.eligible_frames, c.ineligible_frames), (3, 3));
            if conformance == GfrConformance::Gfr2 {
                assert_eq!(tagged_per_frame, [0, 0, 3, 3, 3, 0]);
                assert_eq!((c.tagged_frames, c.tagged_cells), (3, 9));
            } else {
                assert_eq!(tagged_per_frame, [0; 6]);
                assert_eq!((c.tagged_frames, c.tagged_cells), (0, 0));
            }
        }
    }

    /// The DGCRA variant: it alone watches backward RM cells, and through `police` and
    /// `on_backward_rm` it decides as the DGCRA does (RM cells with CLP = 0 count, out-of-rate
    /// ones pass).
    #[test]
    fn the_dgcra_variant_reads_feedback_and_polices_as_the_dgcra() {
        use crate::abr::{AbrParams, RmId};
        use crate::contract::{Dgcra, DgcraContract};
        let params = AbrParams { icr: 100_000.0, ..AbrParams::tm4_defaults(200_000.0) };
        let contract = DgcraContract {
            tau3: SimDuration::from_micros(20),
            tau2: SimDuration::from_micros(50),
            cdvt: SimDuration::ZERO,
        };
        let mut reference = Dgcra::new(&params, contract).unwrap();
        let mut policer = Policer::Dgcra(Box::new(reference.clone()));
        assert!(policer.watches_backward_rm() && policer.name() == "dgcra");
        assert!(!Policer::Upc(upcs().remove(0)).watches_backward_rm());
        let mut rng = RngStream::derive(12, "dgcra-policer");
        let mut now = SimTime::ZERO;
        let mut seen = [0u32; 3];
        for i in 0..4_000u32 {
            now += SimDuration::from_picos(rng.below(12_000_000));
            if rng.below(20) == 0 {
                let er = crate::abr::AbrRate::from_cells_per_sec(rng.uniform() * 250_000.0);
                let rm = RmFeedback { er, ci: rng.below(4) == 0, ni: rng.below(4) == 0 };
                policer.on_backward_rm(now, &rm);
                reference.on_feedback(now, rm.er, rm.ci, rm.ni);
                continue;
            }
            let mut cell =
                if rng.below(8) == 0 { Cell::rm(VcId(0), RmId(i), rng.below(2) == 0) } else { Cell::raw(VcId(0)) };
            let clp = if cell.clp { Clp::One } else { Clp::Zero };
            let expected = reference.on_cell(now, clp);
            assert_eq!(policer.police(now, &mut cell), expected);
            seen[expected as usize] += 1;
        }
        assert_eq!(policer.dgcra(), Some(&reference), "same state and counters");
        assert!(seen[0] > 100 && seen[2] > 100, "passes and discards: {seen:?}");
    }

    #[test]
    fn frame_boundaries_of_each_kind_of_cell() {
        let first = Cell {
            vc: VcId(1),
            frame: FrameId(4),
            index: 0,
            hop: 0,
            end_of_frame: false,
            clp: true,
            efci: false,
            kind: CellKind::Aal5,
            entered: celltrain_core::time::SimTime::ZERO,
        };
        let seen = IngressCell::of(&first);
        assert_eq!((seen.clp, seen.first_of_frame, seen.last_of_frame), (Clp::One, true, false));
        let last = IngressCell::of(&Cell { index: 5, end_of_frame: true, clp: false, ..first });
        assert_eq!((last.clp, last.first_of_frame, last.last_of_frame), (Clp::Zero, false, true));
        let raw = IngressCell::of(&Cell::raw(VcId(1)));
        assert!(raw.first_of_frame && raw.last_of_frame);
        let rm = IngressCell::of(&Cell::rm(VcId(1), crate::abr::RmId(0), false));
        assert!(!rm.first_of_frame && !rm.last_of_frame);
    }
}
