//! A `[[link]]`'s token-bucket conditioning of packets (packet links only): `police` at the
//! second node's ingress and `shape` at the first node's egress, both for what the first node
//! of each pair sends to the second (`crate::network::packet_conditioning`).

use super::limits::MAX_BUFFER_BYTES;
use super::{ScenarioError, TableView};
use crate::network::packet_conditioning::{
    Conditioning, PacketPolicerKind, PacketShaperKind, Tbf, TokenPolicer, DEFAULT_SHAPER_LATENCY,
};
use celltrain_core::units::BitRate;

/// `police = { rate, burst }` and `shape = { rate, burst, latency }` (None without either, or
/// with `active = "no"` in both).
pub(super) fn read(v: &TableView<'_>) -> Result<Option<Conditioning>, ScenarioError> {
    let police = match v.opt_table("police")? {
        Some(t) => {
            let (rate, burst) = bucket(&t)?;
            let active = active(&t)?;
            t.finish()?;
            active.then(|| PacketPolicerKind::Police(TokenPolicer::new(rate, burst)))
        }
        None => None,
    };
    let shape = match v.opt_table("shape")? {
        Some(t) => {
            let (rate, burst) = bucket(&t)?;
            let latency = t.opt_duration("latency")?.unwrap_or(DEFAULT_SHAPER_LATENCY);
            let active = active(&t)?;
            t.finish()?;
            active.then(|| PacketShaperKind::Tbf(Tbf::new(rate, burst, latency)))
        }
        None => None,
    };
    Ok((police.is_some() || shape.is_some()).then_some(Conditioning { police, shape }))
}

/// `active = "yes" | "no"` (default yes): a parameter cannot remove a key, so a scenario that
/// chooses its conditioning by a parameter (`${conditioning|shape=no|police=yes}`) switches the
/// conditioner off with this instead; an inactive one is checked as ever and does nothing.
fn active(t: &TableView<'_>) -> Result<bool, ScenarioError> {
    Ok(t.opt_keyword("active", &["yes", "no"])?.is_none_or(|k| k == "yes"))
}

/// A token bucket's `rate` and `burst` (its depth in bytes), both required and positive.
fn bucket(t: &TableView<'_>) -> Result<(BitRate, u64), ScenarioError> {
    // (A rate of zero is refused as the value is read.)
    let rate = t.req_rate("rate")?;
    let burst = t.req_bytes("burst")?;
    if burst == 0 {
        return Err(t.key_error("burst", "must be positive (the bucket's depth in bytes)"));
    }
    if burst > MAX_BUFFER_BYTES {
        return Err(t.key_error("burst", format!("{burst} B is too large (max {MAX_BUFFER_BYTES} B)")));
    }
    Ok((rate, burst))
}
