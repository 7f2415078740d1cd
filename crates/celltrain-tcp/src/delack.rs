//! Linux's receiver acknowledgment timing (`docs/references.md#delayed-acks`): quick-ACK mode
//! at the connection's start and after an idle period, then ACKs delayed by a timeout `ato`
//! that follows the inter-arrival time of data, within Linux's 40 ms `TCP_DELACK_MIN` and
//! 200 ms `TCP_DELACK_MAX`. The "every second full-sized segment" rule is the endpoint's.

use celltrain_core::{SimDuration, SimTime};

/// `TCP_DELACK_MIN` (and `TCP_ATO_MIN`): the shortest delay, and the first `ato`.
pub const DELACK_MIN: SimDuration = SimDuration::from_millis(40);
/// `TCP_DELACK_MAX`: the longest delay.
pub const DELACK_MAX: SimDuration = SimDuration::from_millis(200);
/// `TCP_MAX_QUICKACKS`: the most segments acknowledged at once on entering quick-ACK mode.
pub const MAX_QUICKACKS: u32 = 16;

/// The receiver's delayed-ACK state under [`crate::DelayedAck::Linux`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinuxDelack {
    /// Segments still to be acknowledged at once (quick-ACK mode while positive).
    quickacks: u32,
    /// The delayed-ACK timeout estimate; zero before any data.
    ato: SimDuration,
    /// Arrival of the last in-sequence data.
    last_data: SimTime,
}

impl LinuxDelack {
    /// In-sequence data arrives at `now`. The first data, and data after an idle gap longer
    /// than `rto`, enter quick-ACK mode for `clamp(rcv_wnd / (2·mss), 2, 16)` segments (a
    /// window's worth of segments half-way, so a sender in slow start is not held back by
    /// delayed ACKs). Otherwise `ato` moves toward the gap: a gap of at most 20 ms moves it
    /// half-way toward 40 ms, a gap below `ato` sets it to `ato/2 + gap` (at most `rto`), a
    /// longer gap leaves it.
    pub fn on_data(&mut self, now: SimTime, rto: SimDuration, rcv_wnd: u32, mss: u32) {
        let gap = now.saturating_since(self.last_data);
        self.last_data = now;
        if self.ato.is_zero() {
            self.ato = DELACK_MIN;
            self.enter_quickack(rcv_wnd, mss);
        } else if gap <= half(DELACK_MIN) {
            self.ato = half(self.ato) + half(DELACK_MIN);
        } else if gap < self.ato {
            self.ato = (half(self.ato) + gap).min(rto);
        } else if gap > rto {
            self.enter_quickack(rcv_wnd, mss);
        }
    }

    fn enter_quickack(&mut self, rcv_wnd: u32, mss: u32) {
        let n = rcv_wnd / (2 * mss.max(1));
        self.quickacks = n.clamp(2, MAX_QUICKACKS);
    }

    /// Whether the segment just received is acknowledged at once; uses up one quick ACK.
    pub fn take_quick(&mut self) -> bool {
        if self.quickacks == 0 {
            return false;
        }
        self.quickacks -= 1;
        true
    }

    /// How long an ACK held now waits: `ato`, at least 40 ms and at most 200 ms, nor longer
    /// than the smoothed RTT (when there is one and it exceeds 40 ms): an ACK held longer
    /// than a round trip would stall the sender.
    pub fn timeout(&self, srtt: Option<SimDuration>) -> SimDuration {
        let max = srtt.map_or(DELACK_MAX, |s| s.max(DELACK_MIN).min(DELACK_MAX));
        self.ato.max(DELACK_MIN).min(max)
    }

    /// The current `ato` (zero before any data).
    pub fn ato(&self) -> SimDuration {
        self.ato
    }
}

fn half(d: SimDuration) -> SimDuration {
    SimDuration::from_picos(d.as_picos() / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    const RTO: SimDuration = SimDuration::from_millis(300);

    #[test]
    fn quickack_at_the_start_then_delayed() {
        let mut d = LinuxDelack::default();
        // 64 KB window, MSS 1000: 65 535 / 2000 = 32 segments, capped at 16.
        d.on_data(at(10), RTO, 65_535, 1000);
        assert_eq!(d.ato(), ms(40));
        let quick: Vec<bool> = (0..18).map(|_| d.take_quick()).collect();
        assert!(quick[..16].iter().all(|&q| q) && !quick[16] && !quick[17], "{quick:?}");
        // A small window: 8 KB / (2·1460) = 2 (and never fewer than 2).
        let mut small = LinuxDelack::default();
        small.on_data(at(0), RTO, 8192, 1460);
        assert_eq!([small.take_quick(), small.take_quick(), small.take_quick()], [true, true, false]);
        let mut tiny = LinuxDelack::default();
        tiny.on_data(at(0), RTO, 1000, 1460);
        assert_eq!([tiny.take_quick(), tiny.take_quick(), tiny.take_quick()], [true, true, false]);
    }

    #[test]
    fn ato_follows_the_inter_arrival_time_within_40_and_200_ms() {
        let mut d = LinuxDelack::default();
        d.on_data(at(0), RTO, 65_535, 1000);
        while d.take_quick() {}
        // Gaps of 5 ms (≤ 20 ms): ato = 40/2 + 20 = 40 ms, stays.
        d.on_data(at(5), RTO, 65_535, 1000);
        assert_eq!(d.ato(), ms(40));
        // A 30 ms gap (below ato): 40/2 + 30 = 50 ms.
        d.on_data(at(35), RTO, 65_535, 1000);
        assert_eq!(d.ato(), ms(50));
        // A 45 ms gap: 25 + 45 = 70 ms; another 60: 35 + 60 = 95 ms.
        d.on_data(at(80), RTO, 65_535, 1000);
        d.on_data(at(140), RTO, 65_535, 1000);
        assert_eq!(d.ato(), ms(95));
        // A gap above ato but within the RTO leaves it.
        d.on_data(at(340), RTO, 65_535, 1000);
        assert_eq!((d.ato(), d.take_quick()), (ms(95), false));
        // The delay: ato within [40, 200] ms and at most the SRTT (if above 40 ms).
        assert_eq!(d.timeout(None), ms(95));
        assert_eq!(d.timeout(Some(ms(60))), ms(60));
        assert_eq!(d.timeout(Some(ms(10))), ms(40));
        // Gaps just below ato drive it up: 47.5 + 90 = 137.5, 68.75 + 130 = 198.75,
        // 99.375 + 190 = 289.375, then 144.6875 + 280 capped at the RTO; the delay stops at
        // 200 ms.
        for t in [430, 560, 750] {
            d.on_data(at(t), RTO, 65_535, 1000);
        }
        assert_eq!(d.ato(), SimDuration::from_micros(289_375));
        d.on_data(at(1_030), RTO, 65_535, 1000);
        assert_eq!((d.ato(), d.timeout(None)), (ms(300), ms(200)), "ato ≤ RTO, delay ≤ TCP_DELACK_MAX");
        // Idle longer than the RTO: quick-ACK mode again.
        d.on_data(at(1_400), RTO, 65_535, 1000);
        assert!(d.take_quick());
    }
}
