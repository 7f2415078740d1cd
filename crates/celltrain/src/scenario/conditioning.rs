//! A `[[link]]`'s token-bucket conditioning of packets (packet links only): `police` at the
//! second node's ingress and `shape` at the first node's egress, both for what the first node
//! of each pair sends to the second. Each conditioner reads its own keys
//! (`crate::network::packet_conditioning`: `TokenPolicer::read`, `Tbf::read`); here its table
//! is opened and finished.

use super::limits::MAX_BUFFER_BYTES;
use super::{ScenarioError, TableView};
use crate::network::packet_conditioning::{Conditioning, PacketPolicerKind, PacketShaperKind, Tbf, TokenPolicer};

/// `police = { rate, burst }` and `shape = { rate, burst, latency }` (None without either, or
/// with `active = "no"` in both).
pub(super) fn read(v: &TableView<'_>) -> Result<Option<Conditioning>, ScenarioError> {
    let police = match v.opt_table("police")? {
        Some(t) => {
            let policer = TokenPolicer::read(&t, MAX_BUFFER_BYTES)?;
            t.finish()?;
            policer.map(PacketPolicerKind::Police)
        }
        None => None,
    };
    let shape = match v.opt_table("shape")? {
        Some(t) => {
            let shaper = Tbf::read(&t, MAX_BUFFER_BYTES)?;
            t.finish()?;
            shaper.map(PacketShaperKind::Tbf)
        }
        None => None,
    };
    Ok((police.is_some() || shape.is_some()).then_some(Conditioning { police, shape }))
}
