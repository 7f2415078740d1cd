//! Endpoint-level tests, grouped by concern (smoltcp style): every expectation is computed
//! by hand in the comments, never by re-running the algorithm under test.

mod pair;

mod closing;
mod congestion;
mod cubic;
mod delack;
mod handshake;
mod hystart;
mod linux_reno;
mod linux_stack;
mod options;
mod pacing;
mod property;
mod prr;
mod rack_tlp;
mod recovery;
mod timers;
mod vegas;

use crate::{DelayedAck, MssChoice, TcpConfig, TimerGranularity, Variant};
use celltrain_core::SimDuration;

/// A compact configuration for scripted tests: MSS 512 without options, 64 KB − 1 buffers,
/// delayed ACKs off, 500 ms ticks at phase 0.
pub fn plain(variant: Variant) -> TcpConfig {
    TcpConfig {
        policies: variant.policies(),
        mss: MssChoice::Fixed(512),
        timestamps: false,
        window_scaling: false,
        delayed_ack: DelayedAck::Off,
        timer_granularity: TimerGranularity::BSD_500MS,
        ..TcpConfig::default()
    }
}

pub fn millis(x: u64) -> SimDuration {
    SimDuration::from_millis(x)
}
