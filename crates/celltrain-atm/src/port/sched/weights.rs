//! Weights of the weighted fair schedulers, as integer spacings in virtual time.
//!
//! A queue of weight w_i among weights summing to W is owed the share w_i/W of the link: one cell
//! every W/w_i cell times. Virtual time counts [`CELL_UNIT`] per cell time, so the spacing of
//! queue i is δ_i = CELL_UNIT·W/w_i, an integer: every decision is exact and repeatable. The
//! weights are normalised by their sum, which shares the rate no weight reserves among the
//! queues in proportion to their weights (BN01's expected goodput: MCR plus the unreserved
//! rate shared in proportion to MCR).

/// Virtual time of one cell time (2^20: spacings keep six significant digits, and a 64-bit
/// virtual clock lasts 2^43 cell times, about 280 days at 155 Mbit/s).
pub const CELL_UNIT: u64 = 1 << 20;

/// The largest spacing: a queue whose weight is below 2^-24 of the sum is spaced as if it
/// had that share (it is still served whenever the others are idle).
const MAX_SPACING: u64 = CELL_UNIT << 24;

/// Spacings δ_i = CELL_UNIT·W/w_i for per-queue weights (a zero weight counts as 1).
pub fn spacings(weights: &[u64]) -> Vec<u64> {
    let weights: Vec<u128> = weights.iter().map(|&w| u128::from(w.max(1))).collect();
    let sum: u128 = weights.iter().sum();
    weights
        .iter()
        .map(|&w| {
            let spacing = (u128::from(CELL_UNIT) * sum).div_ceil(w);
            u64::try_from(spacing.min(u128::from(MAX_SPACING))).expect("capped")
        })
        .collect()
}

/// Per-queue weights from per-VC weights: a queue's weight is the sum of its VCs' (`queue_of`
/// gives each VC's queue).
pub fn per_queue(vc_weights: &[u64], queue_of: &[u16], queues: usize) -> Vec<u64> {
    let mut out = vec![0u64; queues];
    for (&w, &q) in vc_weights.iter().zip(queue_of) {
        out[usize::from(q)] = out[usize::from(q)].saturating_add(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacings_are_inverse_to_the_weights() {
        assert_eq!(spacings(&[2, 1]), vec![CELL_UNIT * 3 / 2, CELL_UNIT * 3]);
        assert_eq!(spacings(&[2, 2, 1]), vec![CELL_UNIT * 5 / 2, CELL_UNIT * 5 / 2, CELL_UNIT * 5]);
        assert_eq!(spacings(&[0, 0]), vec![2 * CELL_UNIT, 2 * CELL_UNIT], "zero counts as one");
        assert_eq!(spacings(&[u64::MAX, 1])[1], MAX_SPACING, "tiny weights are capped");
    }

    #[test]
    fn queue_weights_sum_their_vcs() {
        assert_eq!(per_queue(&[5, 7, 1], &[0, 1, 0], 2), vec![6, 7]);
    }
}
