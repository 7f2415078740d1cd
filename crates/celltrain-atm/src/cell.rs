//! One ATM cell as a small `Copy` value. Payload bytes are never materialised.

use celltrain_core::ids::{FrameId, VcId};

/// What a cell carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// User data of an AAL5 frame.
    Aal5,
    /// A user cell with no frame (ATM-layer on/off and CBR sources).
    Raw,
}

/// One cell in flight: 12 bytes, copied freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The virtual circuit (network-wide id; per-switch VPI/VCI translation is not modelled).
    pub vc: VcId,
    /// The AAL5 frame the cell belongs to ([`FrameId`] `u32::MAX` for raw cells).
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
}

/// The frame id carried by cells that belong to no frame.
pub const NO_FRAME: FrameId = FrameId(u32::MAX);

impl Cell {
    /// A cell of an ATM-layer source: no frame, every cell delimits itself.
    pub fn raw(vc: VcId) -> Cell {
        Cell { vc, frame: NO_FRAME, index: 0, hop: 0, end_of_frame: true, clp: false, efci: false, kind: CellKind::Raw }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cell_is_small() {
        assert!(std::mem::size_of::<super::Cell>() <= 16);
    }
}
