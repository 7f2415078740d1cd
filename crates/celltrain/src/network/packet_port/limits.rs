//! A packet port's buffer limits, as a router's or a packet-mode switch's table gives them
//! (`buffer_bytes`, `buffer_packets`): their defaults and their checks. The scenario reader hands
//! the node's table over as [`Keys`] with the largest limits it allows.

use celltrain_core::keys::Keys;

/// A packet buffer when the scenario gives no packet limit: far more than any run here queues,
/// yet a bound, so a fast link into a slow one cannot take every byte of memory (once: 980 MB
/// after 100 simulated seconds, then an abort).
pub const DEFAULT_BUFFER_PACKETS: u64 = 1_000_000;

/// A packet port's limits: at most `bytes` queued, and at most `packets` if given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketLimits {
    pub bytes: u64,
    pub packets: Option<u64>,
}

impl Default for PacketLimits {
    /// No byte limit (half the range, so sums cannot overflow) and [`DEFAULT_BUFFER_PACKETS`].
    fn default() -> Self {
        PacketLimits { bytes: u64::MAX / 2, packets: Some(DEFAULT_BUFFER_PACKETS) }
    }
}

impl PacketLimits {
    /// The keys [`read`](Self::read) reads.
    pub const KEYS: &'static [&'static str] = &["buffer_bytes", "buffer_packets"];

    /// Reads `buffer_bytes` and `buffer_packets`, each positive and within its maximum: `None`
    /// when neither is given, else the limits with the default in place of the one not given.
    pub fn read<K: Keys>(keys: &K, max_bytes: u64, max_packets: u64) -> Result<Option<Self>, K::Error> {
        let bytes = keys.bytes("buffer_bytes")?;
        let packets = keys.count("buffer_packets")?;
        if bytes == Some(0) || packets == Some(0) {
            let key = if bytes == Some(0) { "buffer_bytes" } else { "buffer_packets" };
            return Err(keys.key_error(key, "must be positive".to_string()));
        }
        if let Some(b) = bytes.filter(|&b| b > max_bytes) {
            return Err(keys.key_error("buffer_bytes", format!("{b} B is too large (max {max_bytes} B)")));
        }
        if let Some(p) = packets.filter(|&p| p > max_packets) {
            return Err(keys.key_error("buffer_packets", format!("{p} packets is too large (max {max_packets})")));
        }
        if bytes.is_none() && packets.is_none() {
            return Ok(None);
        }
        let default = Self::default();
        Ok(Some(PacketLimits { bytes: bytes.unwrap_or(default.bytes), packets: packets.or(default.packets) }))
    }
}
