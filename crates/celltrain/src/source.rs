//! Traffic sources as small state machines: each says what it emits now and when it next
//! needs waking. They never touch the network; the network turns emissions into cells.

use celltrain_core::ids::FlowId;
use celltrain_core::rng::RngStream;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::{BitRate, SlotCounter};

/// Constant-rate UDP: one datagram every `wire_bits / rate` seconds, the n-th at
/// `start + ceil(n · wire_bits / rate)` (no drift), where `wire_bits` is what one datagram
/// occupies on the first hop (its cells × 424 on ATM, its framed octets × 8 on a packet link).
/// At the first hop's own rate it keeps that link exactly busy ("greedy at line rate"); below
/// it, datagrams are paced.
#[derive(Clone, Debug)]
pub struct UdpSource {
    pub flow: FlowId,
    /// Application bytes per datagram.
    pub app_bytes: u64,
    /// Bits one datagram occupies on the first hop, encapsulation included (sets the spacing).
    pub wire_bits: u64,
    /// Datagram rate expressed as the first hop's bit rate it fills.
    pub rate: BitRate,
    pub start: SimTime,
    /// Datagrams emitted so far.
    pub sent: u64,
    /// The source emits nothing at or after this time (`SimTime::MAX`: never stops).
    pub stop: SimTime,
}

impl UdpSource {
    /// Time of the next datagram.
    pub fn next_time(&self) -> SimTime {
        self.start + self.rate.tx_time_ceil(self.sent * self.wire_bits)
    }
}

/// An ATM-layer on/off source: exponential on and off periods; while on, cells at the peak
/// cell rate, the k-th of a burst at `on_start + ceil(k · 424 / pcr)`.
#[derive(Clone, Debug)]
pub struct OnOffSource {
    pub flow: FlowId,
    pub pcr: BitRate,
    periods: OnOffPeriods,
    /// Cells emitted in the current burst.
    k: u64,
    /// Offsets of the cells of the current burst.
    slots: SlotCounter,
    /// The source emits nothing at or after this time (`SimTime::MAX`: never stops).
    pub stop: SimTime,
}

/// An exponential draw of mean `mean`, in whole picoseconds (on/off periods, Poisson gaps).
pub(crate) fn draw(rng: &mut RngStream, mean: SimDuration) -> SimDuration {
    SimDuration::from_picos(rng.exponential(mean.as_picos() as f64).round() as u64)
}

/// The periods of an on/off source, whatever it emits while on (cells, datagrams):
/// exponential on and off periods, each drawn when it begins, and a first burst that starts as
/// in the stationary process (at the start with probability on/(on+off), else after an off
/// period).
#[derive(Clone, Debug)]
pub(crate) struct OnOffPeriods {
    mean_on: SimDuration,
    mean_off: SimDuration,
    rng: RngStream,
    on_start: SimTime,
    on_end: SimTime,
}

impl OnOffPeriods {
    /// The periods from `start`, and when the first burst starts.
    pub(crate) fn new(
        mean_on: SimDuration,
        mean_off: SimDuration,
        mut rng: RngStream,
        start: SimTime,
    ) -> (Self, SimTime) {
        let p_on = mean_on.as_secs_f64() / (mean_on.as_secs_f64() + mean_off.as_secs_f64());
        let first = if rng.uniform() < p_on { start } else { start + draw(&mut rng, mean_off) };
        (OnOffPeriods { mean_on, mean_off, rng, on_start: first, on_end: first }, first)
    }

    /// A burst starts at `now`: its on period is drawn. Returns when it ends.
    #[inline]
    pub(crate) fn start_burst(&mut self, now: SimTime) -> SimTime {
        self.on_start = now;
        self.on_end = now + draw(&mut self.rng, self.mean_on);
        self.on_end
    }

    /// When the current burst started.
    #[inline]
    pub(crate) fn on_start(&self) -> SimTime {
        self.on_start
    }

    /// The burst's next emission would be at `next`: `Ok(next)` while the burst lasts; once
    /// `next` reaches its end the burst is over and `Err` holds when the next one starts
    /// ([`end_burst`](Self::end_burst)).
    #[inline]
    pub(crate) fn continue_at(&mut self, next: SimTime) -> Result<SimTime, SimTime> {
        if next < self.on_end {
            Ok(next)
        } else {
            Err(self.end_burst(next))
        }
    }

    /// The burst is over, its next emission having been due at `next`: an off period is drawn
    /// now; returns when the next burst starts (from the later of the burst's end and `next`).
    #[inline]
    pub(crate) fn end_burst(&mut self, next: SimTime) -> SimTime {
        self.on_end.max(next) + draw(&mut self.rng, self.mean_off)
    }
}

impl OnOffSource {
    /// A source whose first burst starts after an off period drawn from the stationary
    /// distribution: with probability on/(on+off) it starts on at `start`.
    pub fn new(
        flow: FlowId,
        pcr: BitRate,
        mean_on: SimDuration,
        mean_off: SimDuration,
        rng: RngStream,
        start: SimTime,
    ) -> (Self, SimTime) {
        let (periods, first) = OnOffPeriods::new(mean_on, mean_off, rng, start);
        (OnOffSource { flow, pcr, periods, k: 0, slots: SlotCounter::new(pcr), stop: SimTime::MAX }, first)
    }

    /// Whether the next wake-up starts a burst (no cell of a burst emitted cell by cell is due).
    pub fn at_burst_start(&self) -> bool {
        self.k == 0
    }

    /// Called at the time the source asked to be woken: it emits one cell now and returns
    /// when it next needs waking.
    pub fn step(&mut self, now: SimTime) -> SimTime {
        if self.k == 0 {
            // A burst starts: its length is drawn now; it always carries at least one cell.
            self.periods.start_burst(now);
            self.slots.reset();
        }
        self.k += 1;
        let next = self.periods.on_start() + self.slots.advance();
        self.periods.continue_at(next).unwrap_or_else(|next_burst| {
            self.k = 0;
            next_burst
        })
    }
}

impl OnOffSource {
    /// A whole burst at once, for a source whose adapter paces cells at exactly the PCR: the
    /// cells a burst starting at `now` holds (at least one) and when the source next needs
    /// waking — the same cells and wake-up as successive [`step`](Self::step) calls, since the
    /// k-th cell of a burst leaves the adapter at `now + ceil(k · 424 / pcr)` either way.
    pub fn burst(&mut self, now: SimTime) -> (u64, SimTime) {
        debug_assert_eq!(self.k, 0, "burst in the middle of a per-cell burst");
        let on_end = self.periods.start_burst(now);
        // The first cell, and each later one that starts before the burst ends.
        let cells = 1 + self.pcr.cells_starting_within(on_end.saturating_since(now));
        let next = now + self.pcr.cell_offset_ceil(cells);
        (cells, self.periods.end_burst(next))
    }

    /// Cells of a burst starting at `now` that the source emits before it stops: the k-th
    /// (k = 0, 1, …) starts at `now + ceil(k · 424 / pcr)`, and none starts at or after `stop`.
    pub fn cells_before_stop(&self, now: SimTime) -> u64 {
        if self.stop == SimTime::MAX {
            return u64::MAX;
        }
        1 + self.pcr.cells_starting_within(self.stop.saturating_since(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use celltrain_core::units::CELL_BITS;

    #[test]
    fn udp_spacing_does_not_drift() {
        let s = UdpSource {
            flow: FlowId(0),
            app_bytes: 9140,
            wire_bits: 192 * CELL_BITS,
            rate: BitRate::from_bps(149_760_000),
            start: SimTime::ZERO,
            sent: 1000,
            stop: SimTime::MAX,
        };
        // 1000 datagrams of 192 cells at 149.76 Mbit/s = 1000·192·424/149.76e6 s exactly.
        assert_eq!(
            s.next_time().as_picos(),
            (1000u128 * 192 * 424 * 1_000_000_000_000u128).div_ceil(149_760_000) as u64
        );
    }

    #[test]
    fn onoff_mean_rate() {
        let pcr = BitRate::from_bps(31_100_000);
        let (mut s, mut t) = OnOffSource::new(
            FlowId(0),
            pcr,
            SimDuration::from_millis(20),
            SimDuration::from_millis(80),
            RngStream::derive(3, "x"),
            SimTime::ZERO,
        );
        let end = SimTime::ZERO + SimDuration::from_secs(200);
        let mut cells = 0u64;
        while t < end {
            cells += 1;
            t = s.step(t);
        }
        let mean_bps = cells as f64 * 424.0 / 200.0;
        // Whole bursts give the same cells and wake-ups as cell-by-cell steps, burst by burst.
        let new = || {
            OnOffSource::new(
                FlowId(0),
                pcr,
                SimDuration::from_millis(20),
                SimDuration::from_millis(80),
                RngStream::derive(9, "y"),
                SimTime::ZERO,
            )
        };
        let ((mut by_cell, mut t1), (mut by_burst, mut t2)) = (new(), new());
        for _ in 0..300 {
            let mut n = 0;
            loop {
                n += 1;
                t1 = by_cell.step(t1);
                if by_cell.k == 0 {
                    break;
                }
            }
            let (m, next) = by_burst.burst(t2);
            t2 = next;
            assert_eq!((n, t1), (m, t2));
        }
        // Mean rate = PCR · on/(on+off) = 6.22 Mbit/s.
        assert!((mean_bps / 6.22e6 - 1.0).abs() < 0.03, "mean {mean_bps}");
    }
}
