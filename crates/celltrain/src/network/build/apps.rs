//! Applications beyond the constant-rate ones: stop times for any flow's application, and the
//! Poisson and on/off datagram sources (`crate::packet_sources`), which run over AAL5 in cell
//! mode and as plain IP packets in packet mode.

use super::*;

impl NetworkBuilder {
    /// Flow `name`'s application stops at `stop`: a source emits nothing at or after it; a
    /// TCP sender writes nothing more from then and closes its connection (what it already
    /// wrote is still sent and acknowledged; no further file starts).
    pub fn set_stop(&mut self, name: &str, stop: SimTime) {
        self.stops.insert(name.to_string(), stop);
    }

    /// When flow `name`'s application stops (`SimTime::MAX`: never).
    pub(super) fn stop_of(&self, name: &str) -> SimTime {
        self.stops.get(name).copied().unwrap_or(SimTime::MAX)
    }

    /// Node `node`'s packet output ports serve packets by strict priority of their flow's
    /// service category (CBR first, UBR last), FIFO within a category, tail drop on the
    /// shared buffer (`queueing = "priority"`).
    pub fn set_packet_priority(&mut self, node: NodeId) {
        self.priority_nodes.insert(node);
    }

    /// A packet queue of `node`, with its node's queueing.
    pub(super) fn packet_queueing(&self, node: NodeId, queue: PacketQueue) -> PacketQueue {
        if !self.priority_nodes.contains(&node) {
            return queue;
        }
        let classes = crate::network::packet_priority::classes_of(self.routes.iter().map(|(spec, _)| spec.category));
        queue.with_priority(classes)
    }

    /// Poisson datagrams of `app_bytes` on `route` at mean `rate` (the first hop's bit rate
    /// they fill on average).
    pub fn add_poisson(
        &mut self,
        name: &str,
        route: RouteId,
        app_bytes: u64,
        rate: BitRate,
        start: SimTime,
    ) -> Result<FlowId, BuildError> {
        if rate.as_bps() == 0 {
            return err(Field::Rate, "rate must be positive");
        }
        let flow = self.add_udp_flow(name, route, app_bytes)?;
        self.sources.push((name.to_string(), SourceSpec::Poisson { flow, app_bytes, rate, start }));
        Ok(flow)
    }

    /// On/off datagrams of `app_bytes` on `route`: exponential on and off periods, datagrams
    /// back to back at `peak` while on (`None`: the first hop's rate).
    pub fn add_onoff_packet(
        &mut self,
        name: &str,
        route: RouteId,
        app_bytes: u64,
        peak: Option<BitRate>,
        on_off: (SimDuration, SimDuration),
        start: SimTime,
    ) -> Result<FlowId, BuildError> {
        if on_off.0.is_zero() || on_off.1.is_zero() {
            return err(Field::Period, "on and off periods must be positive");
        }
        if peak.is_some_and(|r| r.as_bps() == 0) {
            return err(Field::Rate, "peak must be positive");
        }
        let flow = self.add_udp_flow(name, route, app_bytes)?;
        self.sources.push((name.to_string(), SourceSpec::OnOffPacket { flow, app_bytes, peak, on_off, start }));
        Ok(flow)
    }

    /// A UDP flow of datagrams of `app_bytes`, which must fit one AAL5 frame.
    fn add_udp_flow(&mut self, name: &str, route: RouteId, app_bytes: u64) -> Result<FlowId, BuildError> {
        check_datagram(app_bytes)?;
        self.add_flow(name, FlowKind::Udp, route, app_bytes, UDP_HEADER_BYTES + IPV4_HEADER_BYTES)
    }
}

/// A UDP datagram of `app_bytes` must fit one AAL5 frame with its UDP, IP and LLC/SNAP headers.
pub(super) fn check_datagram(app_bytes: u64) -> Result<(), BuildError> {
    let ip_bytes = app_bytes.saturating_add(UDP_HEADER_BYTES + IPV4_HEADER_BYTES);
    if app_bytes == 0 || ip_bytes.saturating_add(aal5::LLC_SNAP_BYTES) > aal5::MAX_PAYLOAD_BYTES {
        return err(
            Field::Datagram,
            format!(
                "datagram of {app_bytes} bytes does not fit an AAL5 frame (1..={} bytes)",
                aal5::MAX_PAYLOAD_BYTES - 36
            ),
        );
    }
    Ok(())
}
