//! Datagram sources with random timing, for mixed traffic that runs unchanged in cell and in
//! packet mode: a Poisson source and an on/off source of UDP datagrams. Like the constant-rate
//! UDP source, a rate is the first hop's bit rate the datagrams fill (`wire_bits` per datagram:
//! its cells × 424 on ATM, its framed octets × 8 on a packet link), so one scenario offers the
//! same load to either network.

use celltrain_core::ids::FlowId;
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;

use crate::source::{draw, OnOffPeriods};

/// Poisson datagrams: independent exponential gaps of mean `wire_bits / rate`, so that the
/// mean load on the first hop is `rate`. The first datagram leaves one gap after the start
/// (a Poisson process observed from its start).
#[derive(Clone, Debug)]
pub struct PoissonSource {
    pub flow: FlowId,
    /// Application bytes per datagram.
    pub app_bytes: u64,
    mean_gap: SimDuration,
    rng: RngStream,
    /// Datagrams emitted so far (the next one's sequence number).
    pub sent: u64,
    /// The source emits nothing at or after this time (`SimTime::MAX`: never stops).
    pub stop: SimTime,
}

impl PoissonSource {
    /// A source of datagrams of `app_bytes` (`wire_bits` each on the first hop) at mean
    /// `rate`, from `start`; returns it and its first departure.
    pub fn new(
        flow: FlowId,
        (app_bytes, wire_bits): (u64, u64),
        rate: BitRate,
        mut rng: RngStream,
        start: SimTime,
    ) -> (Self, SimTime) {
        // At least 1 ps, so that a huge rate cannot pin the clock.
        let mean_gap = rate.tx_time_ceil(wire_bits).max(SimDuration::from_picos(1));
        let first = start + draw(&mut rng, mean_gap);
        (PoissonSource { flow, app_bytes, mean_gap, rng, sent: 0, stop: SimTime::MAX }, first)
    }

    /// One datagram leaves now; returns when the next one does.
    pub fn step(&mut self, now: SimTime) -> SimTime {
        self.sent += 1;
        now + draw(&mut self.rng, self.mean_gap)
    }
}

/// On/off datagrams: exponential on and off periods; while on, datagrams back to back at
/// `peak` (the k-th of a burst at `on_start + ceil(k · wire_bits / peak)`), at least one per
/// burst. The first burst starts as in the stationary process: on at the start with
/// probability on/(on+off), else after an off period.
#[derive(Clone, Debug)]
pub struct OnOffPacketSource {
    pub flow: FlowId,
    pub app_bytes: u64,
    wire_bits: u64,
    peak: BitRate,
    periods: OnOffPeriods,
    /// Datagrams emitted in the current burst.
    k: u64,
    /// Datagrams emitted so far (the next one's sequence number).
    pub sent: u64,
    /// The source emits nothing at or after this time (`SimTime::MAX`: never stops).
    pub stop: SimTime,
}

impl OnOffPacketSource {
    pub fn new(
        flow: FlowId,
        (app_bytes, wire_bits): (u64, u64),
        peak: BitRate,
        (mean_on, mean_off): (SimDuration, SimDuration),
        rng: RngStream,
        start: SimTime,
    ) -> (Self, SimTime) {
        let (periods, first) = OnOffPeriods::new(mean_on, mean_off, rng, start);
        (OnOffPacketSource { flow, app_bytes, wire_bits, peak, periods, k: 0, sent: 0, stop: SimTime::MAX }, first)
    }

    /// One datagram leaves now; returns when the source next needs waking.
    pub fn step(&mut self, now: SimTime) -> SimTime {
        if self.k == 0 {
            self.periods.start_burst(now);
        }
        self.k += 1;
        self.sent += 1;
        let next = self.periods.on_start() + self.peak.tx_time_ceil(self.k.saturating_mul(self.wire_bits));
        self.periods.continue_at(next).unwrap_or_else(|next_burst| {
            self.k = 0;
            next_burst
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIRE_BITS: u64 = 12_000; // 1500-octet frames

    #[test]
    fn poisson_mean_rate_and_exponential_gaps() {
        let rate = BitRate::from_bps(10_000_000);
        let (mut s, mut t) =
            PoissonSource::new(FlowId(0), (1472, WIRE_BITS), rate, RngStream::derive(7, "p"), SimTime::ZERO);
        let mut gaps = Vec::new();
        let end = SimTime::ZERO + SimDuration::from_secs(100);
        while t < end {
            let next = s.step(t);
            gaps.push(next.saturating_since(t).as_secs_f64());
            t = next;
        }
        // 100 s at 10 Mbit/s of 12 000-bit datagrams: 83 333 expected; a Poisson count has a
        // standard deviation of 289, so 1 % (3 σ) bounds the mean rate.
        let mean_bps = s.sent as f64 * WIRE_BITS as f64 / 100.0;
        assert!((mean_bps / 1e7 - 1.0).abs() < 0.01, "mean {mean_bps}");
        // Exponential gaps: the coefficient of variation is 1 (a constant source's is 0).
        let n = gaps.len() as f64;
        let mean = gaps.iter().sum::<f64>() / n;
        let sd = (gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n).sqrt();
        assert!((sd / mean - 1.0).abs() < 0.03, "cv {}", sd / mean);
        // P(gap > mean) = e^-1 for an exponential.
        let over = gaps.iter().filter(|&&g| g > mean).count() as f64 / n;
        assert!((over - (-1f64).exp()).abs() < 0.01, "tail {over}");
    }

    #[test]
    fn poisson_is_deterministic_per_seed() {
        let run = |seed| {
            let r = BitRate::from_bps(1_000_000);
            let (mut s, mut t) =
                PoissonSource::new(FlowId(0), (100, 1000), r, RngStream::derive(seed, "p"), SimTime::ZERO);
            (0..50)
                .map(|_| {
                    let now = t;
                    t = s.step(now);
                    now
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }

    #[test]
    fn onoff_packet_mean_rate_and_peak_spacing() {
        let peak = BitRate::from_bps(12_000_000);
        let on_off = (SimDuration::from_millis(20), SimDuration::from_millis(60));
        let (mut s, mut t) = OnOffPacketSource::new(
            FlowId(0),
            (1472, WIRE_BITS),
            peak,
            on_off,
            RngStream::derive(3, "o"),
            SimTime::ZERO,
        );
        let end = SimTime::ZERO + SimDuration::from_secs(300);
        let mut min_gap = SimDuration::from_secs(1);
        while t < end {
            let next = s.step(t);
            min_gap = min_gap.min(next.saturating_since(t));
            t = next;
        }
        // Mean rate = peak · on / (on + off) = 3 Mbit/s; bursts of mean 20 datagrams every
        // 80 ms, about 3750 of them in 300 s: 3 % covers several standard deviations.
        let mean_bps = s.sent as f64 * WIRE_BITS as f64 / 300.0;
        assert!((mean_bps / 3e6 - 1.0).abs() < 0.03, "mean {mean_bps}");
        // While on, datagrams leave exactly one datagram time apart at the peak (1 ms).
        assert_eq!(min_gap, SimDuration::from_millis(1));
    }
}
