//! The ATM layer of celltrain: cells, AAL5 segmentation and reassembly, service categories,
//! and switch output ports (buffer acceptance, queues, schedulers, counters).
//!
//! ```text
//! packet ─► aal5::segment (LLC/SNAP + pad + trailer, ceil((L+8)/48) cells)
//!        ─► OutputPort::offer ─► BufferPolicy (tail drop / PPD / EPD) per buffer pool
//!        ─► class queues (FIFO or per-VC) ─► strict priority, round robin inside a class
//!        ─► OutputPort::take_next ─► pipe ─► … ─► aal5::Reassembler (length/CRC rule)
//! ```
//!
//! What is abstracted away: payload bytes (a cell refers to its frame; CRC failure is
//! decided by the exact "cells of one frame, in order, complete" rule, which gives the same
//! delivered/discarded outcome as computing the length and CRC), HEC errors and cell
//! misinsertion (links are error-free), and switch fabrics (output-buffered switches with an
//! infinitely fast fabric).
#![forbid(unsafe_code)]

pub mod aal5;
pub mod category;
pub mod cell;
pub mod contract;
pub mod frame;
pub mod port;

pub use category::ServiceCategory;
pub use cell::{Cell, CellKind};
pub use frame::FrameArena;
