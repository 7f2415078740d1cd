//! Host timing variability: a host's per-packet processing time drawn afresh for every
//! packet around its mean. Real hosts jitter (Bonaventure, Klovning & Danthine 1997, §4.1:
//! "there were some variations in the Inter-AAL-SDU times", e.g. when TCP had to process an
//! acknowledgement or fetch data from the user's buffer); a constant time locks a run into
//! one timing regime, so that several seeds are one draw.

use celltrain_core::{RngStream, SimDuration};

/// How a host's per-packet processing time varies around its mean.
#[derive(Clone, Debug, Default)]
pub enum ProcessingJitter {
    /// Every packet takes exactly the mean.
    #[default]
    Fixed,
    /// Uniform on `[mean − spread, mean + spread]` in whole picoseconds (`spread` = a
    /// fraction of the mean, at most all of it), so the mean is kept exactly.
    Uniform { fraction: f64, rng: RngStream },
}

impl ProcessingJitter {
    /// Uniform jitter of `fraction` (0..=1) of the mean, drawn from `rng`; `Fixed` for 0.
    pub fn uniform(fraction: f64, rng: RngStream) -> Self {
        if fraction > 0.0 {
            ProcessingJitter::Uniform { fraction: fraction.min(1.0), rng }
        } else {
            ProcessingJitter::Fixed
        }
    }

    /// The processing time of the next packet.
    pub fn draw(&mut self, mean: SimDuration) -> SimDuration {
        match self {
            ProcessingJitter::Fixed => mean,
            ProcessingJitter::Uniform { fraction, rng } => {
                let m = mean.as_picos();
                let spread = spread_picos(m, *fraction);
                let k = rng.below(spread.saturating_mul(2).saturating_add(1));
                SimDuration::from_picos(m - spread + k)
            }
        }
    }

    /// The least time a draw around `mean` can take.
    pub fn least(&self, mean: SimDuration) -> SimDuration {
        match self {
            ProcessingJitter::Fixed => mean,
            ProcessingJitter::Uniform { fraction, .. } => {
                let m = mean.as_picos();
                SimDuration::from_picos(m - spread_picos(m, *fraction))
            }
        }
    }
}

/// Half the width of the uniform draw around a mean of `m` picoseconds: `fraction` of it, at
/// most all of it.
fn spread_picos(m: u64, fraction: f64) -> u64 {
    (((m as f64) * fraction).round() as u64).min(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_is_the_mean_and_zero_fraction_is_fixed() {
        let mean = SimDuration::from_micros(900);
        assert_eq!(ProcessingJitter::Fixed.draw(mean), mean);
        let mut zero = ProcessingJitter::uniform(0.0, RngStream::derive(1, "h"));
        assert!(matches!(zero, ProcessingJitter::Fixed));
        assert_eq!(zero.draw(mean), mean);
    }

    /// ±30 % around 900 µs: every draw within [630, 1170] µs, the sample mean within 1 % of
    /// 900 µs, the sample variance within 5 % of the uniform's (2·270)² / 12, both halves hit,
    /// and another seed gives another sequence.
    #[test]
    fn uniform_draws_keep_the_mean_and_the_spread() {
        let mean = SimDuration::from_micros(900);
        let mut j = ProcessingJitter::uniform(0.3, RngStream::derive(7, "sender/processing"));
        let n = 20_000;
        let xs: Vec<f64> = (0..n).map(|_| j.draw(mean).as_picos() as f64 / 1e6).collect();
        assert!(xs.iter().all(|&x| (630.0..=1170.0).contains(&x)), "outside ±30 %");
        let avg = xs.iter().sum::<f64>() / n as f64;
        assert!((avg - 900.0).abs() < 9.0, "mean {avg}");
        let var = xs.iter().map(|x| (x - avg).powi(2)).sum::<f64>() / (n - 1) as f64;
        let expected = 540.0f64.powi(2) / 12.0;
        assert!((var / expected - 1.0).abs() < 0.05, "variance {var} vs {expected}");
        assert!(xs.iter().any(|&x| x < 700.0) && xs.iter().any(|&x| x > 1100.0));
        let mut other = ProcessingJitter::uniform(0.3, RngStream::derive(8, "sender/processing"));
        let ys: Vec<f64> = (0..10).map(|_| other.draw(mean).as_picos() as f64 / 1e6).collect();
        assert_ne!(&xs[..10], &ys[..]);
    }

    #[test]
    fn full_spread_never_goes_negative() {
        let mean = SimDuration::from_picos(3);
        let mut j = ProcessingJitter::uniform(2.0, RngStream::derive(1, "x"));
        for _ in 0..100 {
            assert!(j.draw(mean).as_picos() <= 6);
        }
    }

    /// The least draw is the bottom of the range, reached by some draw: 0 with the full spread
    /// (a packet may then take no time), the mean without jitter.
    #[test]
    fn least_is_the_least_draw() {
        for (fraction, mean_ps, least_ps) in [(1.0, 3, 0), (0.5, 3, 1), (0.4, 1, 1), (0.3, 1000, 700)] {
            let mean = SimDuration::from_picos(mean_ps);
            let mut j = ProcessingJitter::uniform(fraction, RngStream::derive(3, "least"));
            assert_eq!(j.least(mean).as_picos(), least_ps, "{fraction} of {mean_ps} ps");
            let drawn = (0..5000).map(|_| j.draw(mean).as_picos()).min();
            assert_eq!(drawn, Some(least_ps), "{fraction} of {mean_ps} ps");
        }
        assert_eq!(ProcessingJitter::Fixed.least(SimDuration::from_picos(9)).as_picos(), 9);
    }
}
