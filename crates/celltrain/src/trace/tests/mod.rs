//! Tests of the trace writers: byte-exact pcap checks, an external check with tshark when it
//! is installed, and the time-series CSV and sampler.
//!
//! The checksum verifiers here are written independently of the writer's, so a wrong
//! checksum in the writer cannot be cancelled by the same mistake in the test.

mod pcap_bytes;
mod pcap_tshark;
mod timeseries;

/// Ones'-complement sum of `data` as big-endian 16-bit words, odd tail padded with zero.
/// A header (or pseudo-header + segment) with a correct checksum sums to 0xffff.
pub(super) fn ones_sum(data: &[u8]) -> u16 {
    let mut acc: u64 = 0;
    for (i, b) in data.iter().enumerate() {
        acc += if i % 2 == 0 { u64::from(*b) << 8 } else { u64::from(*b) };
    }
    while acc >> 16 != 0 {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u16
}
