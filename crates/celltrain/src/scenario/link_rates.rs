//! Each link's rate (and delay) by its ends, looked up in either order. Flows ask for it at every hop, so a
//! scan of the link list made building O(flows × links) (a quarter of the build time of the
//! largest scenarios); a map keeps the scan's answer: the first link listed between the ends.

use celltrain_core::ids::NodeId;
use celltrain_core::time::SimDuration;
use celltrain_core::units::BitRate;
use std::collections::BTreeMap;

#[derive(Default)]
pub(super) struct LinkRates {
    by_ends: BTreeMap<(NodeId, NodeId), (BitRate, SimDuration)>,
}

impl LinkRates {
    /// Records a link between `a` and `c`; an earlier link between them keeps its place.
    pub(super) fn push(&mut self, a: NodeId, c: NodeId, rate: BitRate, delay: SimDuration) {
        self.by_ends.entry((a, c)).or_insert((rate, delay));
        self.by_ends.entry((c, a)).or_insert((rate, delay));
    }

    /// The rate of the first link listed between `a` and `c`, in either order.
    pub(super) fn between(&self, a: NodeId, c: NodeId) -> Option<BitRate> {
        self.by_ends.get(&(a, c)).map(|&(rate, _)| rate)
    }

    /// The delay of that link.
    pub(super) fn delay_between(&self, a: NodeId, c: NodeId) -> Option<SimDuration> {
        self.by_ends.get(&(a, c)).map(|&(_, delay)| delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn either_order_and_the_first_link_wins() {
        let (a, b, c) = (NodeId::from_index(0), NodeId::from_index(1), NodeId::from_index(2));
        let mut rates = LinkRates::default();
        rates.push(a, b, BitRate::from_bps(10), SimDuration::from_micros(5));
        rates.push(b, a, BitRate::from_bps(20), SimDuration::from_micros(7));
        assert_eq!(rates.between(a, b), Some(BitRate::from_bps(10)));
        assert_eq!(rates.between(b, a), Some(BitRate::from_bps(10)));
        assert_eq!(rates.delay_between(b, a), Some(SimDuration::from_micros(5)));
        assert_eq!(rates.between(a, c), None);
    }
}
