//! Output of a run for outside tools: pcap captures of the simulated TCP/IP traffic and
//! columnar time series of sampled state.
//!
//! Both are written from observer hooks and sampling events (so tracing adds no work to the
//! hot path), never from the
//! per-cell path: the pcap writer sees one record per IP datagram at the point the observer
//! chooses (a host's send or receive), and a [`Sampler`] adds one event per interval.

pub mod pcap;
pub mod timeseries;

#[cfg(test)]
mod tests;

pub use pcap::{segment_header_len, PacketRecord, PcapWriter, Transport};
pub use timeseries::{Sampler, TimeSeries};
