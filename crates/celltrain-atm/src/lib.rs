//! The ATM layer of celltrain: cells, AAL5 segmentation and reassembly, service categories,
//! ingress policing, switch output ports (buffer acceptance, queues, schedulers, counters) and
//! the ABR resource-management cells.
//!
//! ```text
//! packet ─► aal5::segment (LLC/SNAP + pad + trailer, ceil((L+8)/48) cells)
//!        ─► ingress::Policer (UPC: pass / tag / discard) at the first switch
//!        ─► OutputPort::offer ─► BufferAcceptance (tail drop / PPD / EPD) per buffer pool
//!        ─► class queues (FIFO or per-VC) ─► Scheduler (strict priority, round robin in a class)
//!        ─► OutputPort::dequeue ─► pipe ─► … ─► aal5::Reassembler (length/CRC rule)
//! RM cells (abr::rm) ride the same path; a port's abr::ExplicitRate sees them go by.
//! ```
//!
//! What is abstracted away: payload bytes (a cell refers to its frame; CRC failure is
//! decided by the exact "cells of one frame, in order, complete" rule, which gives the same
//! delivered/discarded outcome as computing the length and CRC), HEC errors and cell
//! misinsertion (links are error-free), and switch fabrics (output-buffered switches with an
//! infinitely fast fabric).
#![forbid(unsafe_code)]

pub mod aal5;
pub mod abr;
pub mod cac;
pub mod category;
pub mod cell;
pub mod cell_runs;
pub mod contract;
pub mod drop_reason;
pub mod frame;
pub mod ingress;
pub mod port;

#[cfg(test)]
mod keys_tests;

pub use category::ServiceCategory;
pub use cell::{Cell, CellKind};
pub use drop_reason::DropReason;
pub use frame::FrameArena;
