//! What a run records besides its counters: pcap captures of chosen hosts and time series of
//! TCP windows and queue lengths sampled at a fixed interval.
//!
//! Captures are opened only when the run has an output directory ([`Network::attach_output`]);
//! the time series is kept in memory and written by the caller.

use super::{Event, Network};
use crate::packet::{Packet, Payload};
use crate::trace::{PacketRecord, PcapWriter, Sampler, TimeSeries};
use celltrain_core::ids::{ConnId, NodeId, PortId, VcId};
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::RowPool;
use std::fs::File;
use std::io::{self, BufWriter};
use std::net::Ipv4Addr;
use std::path::Path;

/// What to record, resolved to ids by the scenario compiler.
#[derive(Clone, Debug, Default)]
pub struct RecordSpec {
    /// Hosts whose sent and received packets are captured to `<host>.pcap`.
    pub pcap_hosts: Vec<NodeId>,
    /// Links (output ports) whose packets are captured to `<from>_<to>.pcap`; on an ATM link
    /// a packet is recorded when the last cell of its frame crosses.
    pub pcap_ports: Vec<PortId>,
    /// Sampling interval of the time series (None: no time series).
    pub interval: Option<SimDuration>,
    /// TCP senders whose cwnd, ssthresh and RTO are sampled, with the flow's name.
    pub senders: Vec<(ConnId, String)>,
    /// Ports whose queue length is sampled.
    pub ports: Vec<PortId>,
    /// ABR VCs whose source's ACR and end-system queue are sampled, with the VC's name.
    pub abr_vcs: Vec<(VcId, String)>,
    /// Each recorded flow's delivered bytes are sampled too.
    pub delivered: bool,
    /// Parts of the recorded ports' queues sampled too (pools or classes), with their columns.
    pub port_parts: Vec<(PortId, super::record_parts::QueuePart, String)>,
    /// Every change of the senders' cwnd, ssthresh, RTO and SRTT, of the ABR sources' ACR and of
    /// the ports' queues is recorded.
    pub on_change: bool,
}

/// Live recording state of a run.
#[derive(Default)]
pub struct Recorder {
    pub spec: RecordSpec,
    /// Per node: index into `pcaps` when the node is captured.
    capture_of: Vec<Option<usize>>,
    pcaps: Vec<PcapWriter<BufWriter<File>>>,
    /// The files of `pcaps` (removed if the run is interrupted).
    capture_paths: Vec<std::path::PathBuf>,
    /// Next IP identification per node.
    ip_id: Vec<u16>,
    sampler: Option<Sampler>,
    pub series: Option<TimeSeries>,
    /// Per flow: bytes delivered before the measurement window opened (the flows' counters
    /// restart then; the `delivered_bytes` column counts from the start of the run).
    pub(super) delivered_before_window: Vec<u64>,
    /// The TCP senders' change records (`[record] on_change`).
    pub(super) changes: Option<Box<super::record_changes::ChangeLog>>,
    /// The first capture error (disk full, …); the run goes on, the caller reports it.
    pub error: Option<io::Error>,
}

/// The address of a node in captures: 10.x.y.z from its index (stable, unique up to 2²⁴ nodes).
pub fn node_address(node: NodeId) -> Ipv4Addr {
    let n = node.0 + 1;
    Ipv4Addr::new(10, (n >> 16) as u8, (n >> 8) as u8, n as u8)
}

impl Recorder {
    /// `queue_columns` names the queue column of every port of the network
    /// (`<port>.queue_cells`, or `<port>.queue_bytes` on a packet link).
    pub fn new(spec: RecordSpec, nodes: usize, queue_columns: &[String]) -> Self {
        let series = spec.interval.map(|_| {
            let names = Self::series_columns(&spec, queue_columns);
            TimeSeries::new(&names.iter().map(String::as_str).collect::<Vec<_>>())
        });
        Recorder {
            sampler: spec.interval.map(|i| Sampler::new(SimTime::ZERO, i)),
            capture_of: vec![None; nodes],
            ip_id: vec![0; nodes],
            changes: spec.on_change.then(|| {
                let rows = RowPool::new(super::record_changes::MAX_CHANGE_ROWS);
                Box::new(super::record_changes::ChangeLog::new(&spec.senders, &spec.abr_vcs, rows))
            }),
            spec,
            series,
            ..Recorder::default()
        }
    }

    /// The names of the sampled columns, in order.
    pub fn series_columns(spec: &RecordSpec, queue_columns: &[String]) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (_, flow) in &spec.senders {
            names.extend([
                format!("{flow}.cwnd_bytes"),
                format!("{flow}.ssthresh_bytes"),
                format!("{flow}.rto_s"),
                format!("{flow}.srtt_s"),
                format!("{flow}.rtt_s"),
            ]);
            if spec.delivered {
                names.push(format!("{flow}.delivered_bytes"));
            }
        }
        names.extend(spec.ports.iter().map(|p| queue_columns[p.index()].clone()));
        names.extend(spec.port_parts.iter().map(|(_, _, name)| name.clone()));
        for (_, vc) in &spec.abr_vcs {
            names.extend([format!("{vc}.acr_cells_per_s"), format!("{vc}.edge_queue_cells")]);
        }
        names
    }

    /// The rows every changing quantity takes its own from (`[record] on_change`: one pool of
    /// [`MAX_CHANGE_ROWS`](super::record_changes::MAX_CHANGE_ROWS)), or None if changes are not
    /// recorded.
    pub fn change_rows(&self) -> Option<RowPool> {
        self.changes.as_ref().map(|log| log.rows.clone())
    }

    /// First sampling instant, to be scheduled at build.
    pub fn first_sample(&self) -> Option<SimTime> {
        self.next_sample()
    }

    /// The next sampling instant, if the run samples.
    pub fn next_sample(&self) -> Option<SimTime> {
        self.sampler.as_ref().map(Sampler::next_at)
    }

    /// Whether `host`'s packets are captured.
    pub fn captures(&self, host: NodeId) -> bool {
        self.capture_of.get(host.index()).is_some_and(Option::is_some)
    }
}

impl Network {
    /// Opens the pcap captures of the recorded hosts in `dir` (named `<host>.pcap`).
    pub fn attach_output(&mut self, dir: &Path) -> io::Result<()> {
        use crate::file_names::file_in;
        let ports = self.recorder.spec.pcap_ports.clone();
        let hosts = self.recorder.spec.pcap_hosts.clone();
        // Every name is checked before anything is created: a name that would leave `dir`
        // writes nothing at all.
        let mut port_files = Vec::with_capacity(ports.len());
        for &p in &ports {
            let port = &self.ports[p.index()];
            let stem = format!("{}_{}", self.nodes[port.from.index()].name, self.nodes[port.to.index()].name);
            port_files.push(file_in(dir, &stem, "pcap")?);
        }
        let host_files =
            hosts.iter().map(|h| file_in(dir, &self.nodes[h.index()].name, "pcap")).collect::<io::Result<Vec<_>>>()?;
        std::fs::create_dir_all(dir)?;
        for (&p, path) in ports.iter().zip(port_files) {
            let writer = PcapWriter::create(&path)?;
            self.recorder.capture_paths.push(path);
            self.ports[p.index()].link.capture_with(u32::try_from(self.recorder.pcaps.len()).expect("few captures"));
            self.recorder.pcaps.push(writer);
        }
        for (&host, path) in hosts.iter().zip(host_files) {
            let writer = PcapWriter::create(&path)?;
            self.recorder.capture_paths.push(path);
            self.recorder.capture_of[host.index()] = Some(self.recorder.pcaps.len());
            self.recorder.pcaps.push(writer);
        }
        if !self.recorder.pcaps.is_empty() {
            let map = self.write_address_map(dir)?;
            self.recorder.capture_paths.push(map);
        }
        // A captured link or host must see its packets in time order: no carrying into it.
        self.plan();
        Ok(())
    }

    /// Closes the captures of an interrupted run and removes their files: a capture cut off
    /// mid-run is not written (removal is best effort: a file that cannot be removed stays).
    pub fn abandon_output(&mut self) {
        self.recorder.pcaps.clear();
        for path in self.recorder.capture_paths.drain(..) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Flushes the captures; returns the first error any capture met.
    pub fn finish_output(&mut self) -> io::Result<()> {
        for w in self.recorder.pcaps.drain(..) {
            w.finish()?;
        }
        match self.recorder.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Captures `packet` at `host` if that host is recorded.
    #[inline]
    pub(super) fn capture(&mut self, host: NodeId, packet: &Packet) {
        let Some(i) = self.recorder.capture_of.get(host.index()).copied().flatten() else { return };
        self.capture_into(i, packet, host);
    }

    /// Writes `packet` to capture `i`; `host` is the node where it is seen (the IP
    /// identification advances when its source sends it).
    pub(super) fn capture_into(&mut self, i: usize, packet: &Packet, host: NodeId) {
        let route = &self.routes[packet.route.index()];
        let (src, dst) = (node_address(route.src), node_address(route.dst));
        let mut record = match packet.payload {
            Payload::Tcp { segment, .. } => PacketRecord::tcp(src, dst, segment),
            Payload::Udp { .. } => {
                PacketRecord::udp(src, dst, 5000, 5001, u32::try_from(packet.app_bytes).unwrap_or(u32::MAX))
            }
        };
        let sender = route.src.index();
        record.ip_id = self.recorder.ip_id[sender];
        if host == route.src {
            self.recorder.ip_id[sender] = self.recorder.ip_id[sender].wrapping_add(1);
        }
        if let Err(e) = self.recorder.pcaps[i].write(self.now, &record) {
            self.recorder.error.get_or_insert(e);
        }
    }

    /// A sampling instant: one row of the time series.
    pub(super) fn sample(&mut self) {
        let now = self.now;
        let mut row = Vec::with_capacity(3 * self.recorder.spec.senders.len() + self.recorder.spec.ports.len());
        for (c, _) in &self.recorder.spec.senders {
            let e = &self.conns[c.index()].endpoint;
            // Smoothed and last raw RTT: NaN (an empty CSV field) before the first sample.
            let secs = |d: Option<celltrain_core::time::SimDuration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
            row.extend([
                f64::from(e.cwnd()),
                f64::from(e.ssthresh()),
                e.rto().as_secs_f64(),
                secs(e.srtt()),
                secs(e.last_rtt_sample()),
            ]);
            if self.recorder.spec.delivered {
                let flow = self.conns[c.index()].flow;
                let before = self.recorder.delivered_before_window.get(flow.index()).copied().unwrap_or(0);
                row.push((before + self.flows[flow.index()].stats.bytes_delivered) as f64);
            }
        }
        for k in 0..self.recorder.spec.ports.len() {
            let p = self.recorder.spec.ports[k];
            self.settle_port(p);
            let port = &self.ports[p.index()];
            let queue = match &port.packets {
                Some(q) => q.queued_bytes() as f64,
                None => f64::from(port.queue.occupancy()),
            };
            row.push(queue);
        }
        for k in 0..self.recorder.spec.port_parts.len() {
            let (p, part, _) = self.recorder.spec.port_parts[k];
            row.push(self.part_cells(p, part));
        }
        for (vc, _) in &self.recorder.spec.abr_vcs {
            match self.abr.of(*vc).map(|a| &self.abr.ends[a]) {
                Some(end) => row.extend([end.source.acr(), end.queued_cells() as f64]),
                None => row.extend([f64::NAN, f64::NAN]),
            }
        }
        if let Some(series) = &mut self.recorder.series {
            series.push(now, &row);
        }
        if let Some(sampler) = &mut self.recorder.sampler {
            let next = sampler.advance();
            if next <= self.end {
                self.queue.schedule(next, Event::Sample);
            }
        }
        self.refresh_carry_bound();
    }
}
