//! One ATM cell as a small `Copy` value. Payload bytes are never materialised.

use crate::abr::rm::RmId;
use celltrain_core::ids::{FrameId, VcId};
use celltrain_core::time::SimTime;

/// What a cell carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// User data of an AAL5 frame.
    Aal5,
    /// A user cell with no frame (ATM-layer on/off and CBR sources).
    Raw,
    /// A resource management cell of ABR (PTI = 110): its fields are in an
    /// [`RmArena`](crate::abr::rm::RmArena), at the id the cell's `frame` field carries.
    Rm,
}

/// One cell in flight: 24 bytes, copied freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The virtual circuit (network-wide id; per-switch VPI/VCI translation is not modelled).
    pub vc: VcId,
    /// The AAL5 frame the cell belongs to ([`FrameId`] `u32::MAX` for raw cells); for an RM
    /// cell, its record in the RM arena (see [`Cell::rm_id`]).
    pub frame: FrameId,
    /// Position of the cell in its CPCS-PDU, from 0.
    pub index: u16,
    /// Index of the hop the cell is at on its VC's precomputed route.
    pub hop: u8,
    /// PTI bit 1 (AUU, "SDU type"): set on the last cell of an AAL5 frame.
    pub end_of_frame: bool,
    /// Cell loss priority: true = CLP 1 (discard-eligible).
    pub clp: bool,
    /// PTI bit 2 (EFCI): set by a congested switch, never cleared.
    pub efci: bool,
    pub kind: CellKind,
    /// When the cell started on its VC's first link (left the source's UNI): cell transfer
    /// delay is measured from here to the destination (ITU-T I.356's measurement points).
    /// Zero until the cell starts on its first link.
    pub entered: SimTime,
}

/// A placeholder (what the empty slots of a ring of cells hold): a raw cell of VC 0.
impl Default for Cell {
    fn default() -> Cell {
        Cell::raw(VcId(0))
    }
}

/// The frame id carried by cells that belong to no frame.
pub const NO_FRAME: FrameId = FrameId(u32::MAX);

impl Cell {
    /// A cell of an ATM-layer source: no frame, every cell delimits itself.
    pub fn raw(vc: VcId) -> Cell {
        Cell {
            vc,
            frame: NO_FRAME,
            index: 0,
            hop: 0,
            end_of_frame: true,
            clp: false,
            efci: false,
            kind: CellKind::Raw,
            entered: SimTime::ZERO,
        }
    }

    /// An RM cell of `vc` whose fields are `rm` in the RM arena; `clp` is true for an
    /// out-of-rate RM cell. It belongs to no frame: it neither starts nor ends one (no AUU
    /// bit in PTI = 110), so frame-aware policies let it by their frame state.
    pub fn rm(vc: VcId, rm: RmId, clp: bool) -> Cell {
        Cell {
            vc,
            frame: FrameId(rm.0),
            index: 0,
            hop: 0,
            end_of_frame: false,
            clp,
            efci: false,
            kind: CellKind::Rm,
            entered: SimTime::ZERO,
        }
    }

    /// The RM record of an RM cell (the id travels in the `frame` field, which an RM cell does
    /// not otherwise use, so the cell stays 24 bytes).
    #[inline]
    pub fn rm_id(&self) -> Option<RmId> {
        (self.kind == CellKind::Rm).then_some(RmId(self.frame.0))
    }
}

#[cfg(test)]
mod tests {
    use super::{Cell, CellKind};
    use crate::abr::rm::RmId;
    use celltrain_core::ids::VcId;

    #[test]
    fn cell_stays_24_bytes() {
        assert_eq!(std::mem::size_of::<Cell>(), 24);
        assert_eq!(std::mem::size_of::<CellKind>(), 1);
    }

    #[test]
    fn only_rm_cells_carry_an_rm_id() {
        let rm = Cell::rm(VcId(3), RmId(7), true);
        assert_eq!((rm.rm_id(), rm.kind, rm.clp, rm.end_of_frame), (Some(RmId(7)), CellKind::Rm, true, false));
        assert_eq!(Cell::raw(VcId(3)).rm_id(), None);
        let data = Cell { kind: CellKind::Aal5, ..rm };
        assert_eq!(data.rm_id(), None);
    }
}
