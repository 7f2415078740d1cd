//! celltrain: a cell-level discrete-event simulator of TCP/IP over ATM.
//!
//! ```text
//! scenario (TOML) ─► scenario::load (params, units, expansion, errors with file:line:key)
//!                 ─► scenario::build ─► NetworkBuilder ─► Network (arenas of ports, VCs, flows)
//!
//! source tick ─► packet ─► AAL5 segmentation ─► NIC port (paced at the VC's PCR) ─► pipe
//!   ─► switch port (buffer policy ─► class queues ─► scheduler) ─► pipe ─► … ─► reassembly
//!   ─► flow counters (goodput, packets) ; every drop and delivery ─► VC and port counters
//! ```
//!
//! The library never prints and never reads files except through [`scenario`]; progress is
//! reported through a callback.
#![forbid(unsafe_code)]

pub mod abr_summary;
pub mod bench;
pub mod builtin;
pub mod delay;
pub mod experiments;
pub mod file_names;
pub mod gfr_metrics;
pub mod metrics;
pub mod network;
pub mod packet;
pub mod packet_sources;
pub mod papers;
pub mod port_efficiency;
pub mod report;
pub mod scenario;
pub mod source;
pub mod summary_warnings;
pub mod trace;

pub use metrics::Summary;
pub use network::{Network, NetworkBuilder};

/// The simulator's version, recorded in every result: the package version and a fingerprint
/// of the sources it was built from (`build.rs`), so results of different code never compare
/// equal.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+src.", env!("CELLTRAIN_SOURCE_ID"));
