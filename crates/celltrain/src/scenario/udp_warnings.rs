//! Warnings about constant-rate (UDP) sources whose run is not what it looks like, found once
//! every flow is read:
//!
//! - a source faster than its VC's PCR or its first link: the excess waits in the sending
//!   adapter, whose queue grows for the whole run while no loss is counted for it;
//! - identical sources that start at the same instant and share an overloaded port: being
//!   deterministic, they stay in phase, so their cells reach the shared buffer in the same
//!   order every period and the buffer's discard rule can pick the same losers for the whole
//!   run (MSc98's A5-udp with 15 sources: one flow gets everything).

use super::link_rates::LinkRates;
use super::ScenarioError;
use celltrain_core::ids::NodeId;
use celltrain_core::time::SimTime;
use celltrain_core::units::BitRate;
use std::collections::BTreeMap;

/// A UDP source as the warnings need it.
struct UdpSource {
    name: String,
    /// Where the scenario wrote the flow's `app`, for the warning's `file:line: key:`.
    at: ScenarioError,
    datagram_bytes: u64,
    rate: BitRate,
    start: SimTime,
    /// The path's nodes with their names.
    path: Vec<(NodeId, String)>,
}

/// The UDP sources of a scenario, collected while its flows are read.
#[derive(Default)]
pub(super) struct UdpSources {
    sources: Vec<UdpSource>,
    /// The sources faster than their first hop, as they were read.
    too_fast: Vec<String>,
}

impl UdpSources {
    /// Records flow `name`'s UDP source (`at`: its `app` key) sending datagrams of
    /// `datagram_bytes` at `rate` (its effective rate) on a VC of `pcr` (None: none given)
    /// whose first link runs at `line`.
    pub(super) fn push(
        &mut self,
        name: &str,
        at: ScenarioError,
        (datagram_bytes, rate): (u64, BitRate),
        start: SimTime,
        (path, path_names): (&[NodeId], &[String]),
        (pcr, line): (Option<BitRate>, BitRate),
    ) {
        if let Some(message) = above_line(name, rate, pcr, line) {
            self.too_fast.push(ScenarioError { message, ..at.clone() }.to_string());
        }
        let path = path.iter().copied().zip(path_names.iter().cloned()).collect();
        self.sources.push(UdpSource { name: name.to_string(), at, datagram_bytes, rate, start, path });
    }

    /// The warnings about the sources: each too fast for its first hop, then the groups in phase.
    pub(super) fn warnings(&self, links: &LinkRates) -> Vec<String> {
        self.too_fast.iter().cloned().chain(self.in_phase(links)).collect()
    }

    /// One warning per group of identical sources that start together and overload a port
    /// they share, naming them and the port.
    fn in_phase(&self, links: &LinkRates) -> Vec<String> {
        let mut groups: BTreeMap<(u64, u64, SimTime), Vec<&UdpSource>> = BTreeMap::new();
        for s in &self.sources {
            groups.entry((s.datagram_bytes, s.rate.as_bps(), s.start)).or_default().push(s);
        }
        groups
            .into_values()
            .filter(|group| group.len() >= 2)
            .filter_map(|group| {
                let ((a, c), sharing) = overloaded_shared_port(&group, links)?;
                let message = format!(
                    "{} identical UDP sources ({}) start together at {} s and share the overloaded port {}->{}: \
                     deterministic sources keep their phase, which decides for the whole run which of them lose; \
                     vary it with start_jitter or start_stagger (and several seeds) before reading their shares",
                    sharing.len(),
                    names(&sharing),
                    sharing[0].start.as_secs_f64(),
                    a,
                    c,
                );
                Some(ScenarioError { message, ..sharing[0].at.clone() }.to_string())
            })
            .collect()
    }
}

/// The first port (in the order of the group's paths) that two or more of `group` cross and
/// whose link their rates together exceed, with the sources crossing it.
fn overloaded_shared_port<'a>(
    group: &[&'a UdpSource],
    links: &LinkRates,
) -> Option<((&'a str, &'a str), Vec<&'a UdpSource>)> {
    type Port<'a> = (&'a (NodeId, String), &'a (NodeId, String));
    let mut by_port: BTreeMap<Port<'a>, Vec<&UdpSource>> = BTreeMap::new();
    let mut order = Vec::new();
    for &s in group {
        for hop in s.path.windows(2) {
            let port = (&hop[0], &hop[1]);
            let sharing = by_port.entry(port).or_default();
            if sharing.is_empty() {
                order.push(port);
            }
            sharing.push(s);
        }
    }
    order.into_iter().find_map(|port| {
        let sharing = by_port.remove(&port)?;
        let offered: u128 = sharing.iter().map(|s| u128::from(s.rate.as_bps())).sum();
        let capacity = links.between(port.0 .0, port.1 .0)?;
        let names = (port.0 .1.as_str(), port.1 .1.as_str());
        (sharing.len() >= 2 && offered > u128::from(capacity.as_bps())).then_some((names, sharing))
    })
}

/// The sources' names, the middle ones elided when there are many.
fn names(sources: &[&UdpSource]) -> String {
    match sources {
        [first, second, .., last] if sources.len() > 4 => {
            format!("{}, {}, ..., {}", first.name, second.name, last.name)
        }
        _ => sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "),
    }
}

/// The warning for a UDP source of `rate` on a VC of `pcr` (None: no PCR given) whose first
/// link runs at `line`, when the rate is more than they carry.
fn above_line(name: &str, rate: BitRate, pcr: Option<BitRate>, line: BitRate) -> Option<String> {
    let (what, limit) = match pcr {
        Some(p) if p < line => ("its VC's PCR", p),
        _ => ("its first link's rate", line),
    };
    (rate > limit).then(|| {
        format!(
            "flow '{name}' sends at {rate}, above {what} ({limit}): the excess waits at the sender, whose queue \
             grows for the whole run without counting as lost (see the flow's packets queued at the end); \
             lower the rate or raise the PCR"
        )
    })
}
