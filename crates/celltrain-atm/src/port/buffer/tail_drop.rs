//! Cell-level tail drop: accept while the pool has room.

use super::Admission;
use crate::drop_reason::DropReason;

/// Cell-level tail drop. Keeps no state, so runs of cells that fit may be admitted at once.
#[derive(Clone, Debug, Default)]
pub struct TailDrop;

impl TailDrop {
    #[inline]
    /// `room`: the pool can take one more cell.
    pub fn admit(&mut self, room: bool) -> Admission {
        if room {
            Admission::Accept
        } else {
            Admission::Drop(DropReason::BufferFull)
        }
    }
}
