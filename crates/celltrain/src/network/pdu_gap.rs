//! The least idle time an adapter keeps between two PDUs (Bonaventure, Klovning & Danthine
//! 1997, eq. 3: PDU-level rate control in the driver), optionally drawn afresh for every PDU
//! around its mean: adapter service jitter, as a host's processing time jitters
//! ([`ProcessingJitter`]). The gap before a PDU is drawn when the PDU before it ends, once
//! per PDU, so the analytic and the event path of a port, which both report each started
//! cell in order, see the same sequence of gaps.

use super::ProcessingJitter;
use celltrain_core::{RngStream, SimDuration};

/// One adapter's PDU gap: its mean, how it varies, and the gap before the next PDU.
#[derive(Clone, Debug)]
pub(crate) struct PduGap {
    mean: SimDuration,
    jitter: ProcessingJitter,
    next: SimDuration,
}

impl PduGap {
    /// A gap of `mean`, each one drawn uniformly within ±`fraction` (0..=1) of it from
    /// `<host>/pdu-gap` of `seed` (a stream of its own, so that the other draws of a run do
    /// not move when the jitter is set); fixed for 0.
    pub(crate) fn new(mean: SimDuration, fraction: f64, seed: u64, host: &str) -> Self {
        let mut jitter = if fraction > 0.0 {
            ProcessingJitter::uniform(fraction, RngStream::derive(seed, &format!("{host}/pdu-gap")))
        } else {
            ProcessingJitter::Fixed
        };
        let next = jitter.draw(mean);
        PduGap { mean, jitter, next }
    }

    /// The least idle between the end of the last PDU and the first cell of the next.
    pub(crate) fn before_next(&self) -> SimDuration {
        self.next
    }

    /// A PDU's last cell started: the gap before the next PDU is drawn.
    pub(crate) fn on_pdu_end(&mut self) {
        self.next = self.jitter.draw(self.mean);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gaps(fraction: f64, seed: u64, n: usize) -> Vec<u64> {
        let mut g = PduGap::new(SimDuration::from_micros(7618), fraction, seed, "src1");
        (0..n)
            .map(|_| {
                let d = g.before_next().as_picos();
                g.on_pdu_end();
                d
            })
            .collect()
    }

    #[test]
    fn without_jitter_every_gap_is_the_mean() {
        assert!(gaps(0.0, 1, 50).iter().all(|&d| d == 7_618_000_000));
    }

    /// ±20 % around 7.618 ms: within the bounds, the mean kept within 0.5 %, both ends reached,
    /// the same seed the same gaps, another seed others.
    #[test]
    fn jittered_gaps_keep_the_mean_within_the_bounds() {
        let xs = gaps(0.2, 3, 20_000);
        let (lo, hi) = (6_094_400_000u64, 9_141_600_000u64);
        assert!(xs.iter().all(|&d| (lo..=hi).contains(&d)), "a gap outside ±20 %");
        let avg = xs.iter().map(|&d| d as f64).sum::<f64>() / xs.len() as f64;
        assert!((avg / 7.618e9 - 1.0).abs() < 0.005, "mean {avg}");
        assert!(xs.iter().any(|&d| d < 6_300_000_000) && xs.iter().any(|&d| d > 8_900_000_000));
        assert_eq!(gaps(0.2, 3, 100), xs[..100].to_vec());
        assert_ne!(gaps(0.2, 4, 100), xs[..100].to_vec());
    }
}
