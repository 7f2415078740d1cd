//! `[record] on_change`: a row whenever a recorded quantity changes, rather than on a grid.
//!
//! The TCP senders' cwnd, ssthresh, RTO and SRTT are compared with their last recorded values each
//! time the network has driven the endpoint ([`Network::tcp_service`]); an ABR source's ACR each
//! time backward feedback reached it or it took a send opportunity; the recorded ports note
//! their own queue's changes (see `OutputPort::record_changes`). Each quantity keeps one
//! [`ChangeTrace`]; the rows are written in long form (`time_s,subject,quantity,value`), since
//! each subject changes at its own instants and a wide table would be mostly empty cells.

use super::Network;
use crate::trace::timeseries::csv_field;
use celltrain_core::ids::{ConnId, VcId};
use celltrain_core::time::SimTime;
use celltrain_core::{ChangeTrace, RowPool};

/// The most change rows a run keeps over all its quantities (as `[record] interval`'s samples),
/// drawn on by each as it changes.
pub const MAX_CHANGE_ROWS: usize = 10_000_000;

/// The file the change records are written to.
pub const CHANGES_FILE: &str = "timeseries_changes.csv";

/// The quantities recorded of each TCP sender, in order.
const TCP_QUANTITIES: [&str; TCP_QUANTITY_COUNT] = ["cwnd_bytes", "ssthresh_bytes", "rto_s", "srtt_s"];

/// How many quantities each recorded TCP sender has.
pub(super) const TCP_QUANTITY_COUNT: usize = 4;

/// The quantity recorded of each ABR source.
const ACR_QUANTITY: &str = "acr_cells_per_s";

/// The TCP senders' and ABR sources' change records.
#[derive(Debug, Default)]
pub struct ChangeLog {
    /// Per connection: the index of its sender in `senders`, if it is recorded.
    sender_of_conn: Vec<Option<u32>>,
    /// Per recorded sender: its flow's name and the traces of [`TCP_QUANTITIES`].
    senders: Vec<(String, [ChangeTrace; TCP_QUANTITY_COUNT])>,
    /// Per VC: the index of its ABR source in `abr`, if it is recorded.
    abr_of_vc: Vec<Option<u32>>,
    /// Per recorded ABR source: its VC's name and its ACR's trace.
    abr: Vec<(String, ChangeTrace)>,
    /// The rows every recorded quantity of the run (ports' queues too) takes its own from.
    pub(super) rows: RowPool,
}

impl ChangeLog {
    /// A log for the recorded `senders` (connection, flow name) and ABR sources (`abr_vcs`: VC,
    /// VC name), whose quantities take their rows from `rows`.
    pub fn new(senders: &[(ConnId, String)], abr_vcs: &[(VcId, String)], rows: RowPool) -> Self {
        let conns = senders.iter().map(|(c, _)| c.index() + 1).max().unwrap_or(0);
        let mut sender_of_conn = vec![None; conns];
        for (k, (c, _)) in senders.iter().enumerate() {
            sender_of_conn[c.index()] = Some(k as u32);
        }
        let vcs = abr_vcs.iter().map(|(v, _)| v.index() + 1).max().unwrap_or(0);
        let mut abr_of_vc = vec![None; vcs];
        for (k, (v, _)) in abr_vcs.iter().enumerate() {
            abr_of_vc[v.index()] = Some(k as u32);
        }
        let fresh = || ChangeTrace::new(f64::NAN, rows.clone());
        ChangeLog {
            sender_of_conn,
            senders: senders.iter().map(|(_, f)| (f.clone(), std::array::from_fn(|_| fresh()))).collect(),
            abr_of_vc,
            abr: abr_vcs.iter().map(|(_, name)| (name.clone(), fresh())).collect(),
            rows,
        }
    }

    /// Whether the ACR of `vc`'s source is recorded.
    pub(super) fn records_acr_of(&self, vc: VcId) -> bool {
        self.abr_of_vc.get(vc.index()).is_some_and(Option::is_some)
    }
}

/// One change row in long form.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeRow<'a> {
    pub time: SimTime,
    pub subject: &'a str,
    pub quantity: &'static str,
    pub value: f64,
}

impl Network {
    /// Connection `c`'s endpoint has been driven: its changed quantities are noted.
    pub(super) fn note_tcp_change(&mut self, c: ConnId) {
        let now = self.now;
        let Some(log) = self.recorder.changes.as_deref_mut() else { return };
        let Some(k) = log.sender_of_conn.get(c.index()).copied().flatten() else { return };
        let e = &self.conns[c.index()].endpoint;
        // The SRTT is NaN (no row) until the first RTT sample.
        let srtt = e.srtt().map_or(f64::NAN, |d| d.as_secs_f64());
        let values = [f64::from(e.cwnd()), f64::from(e.ssthresh()), e.rto().as_secs_f64(), srtt];
        for (trace, v) in log.senders[k as usize].1.iter_mut().zip(values) {
            trace.note(now, v);
        }
    }

    /// The source of ABR VC `vc` may have changed its ACR (feedback, or a send opportunity).
    pub(super) fn note_acr_change(&mut self, vc: VcId, acr_cells_per_s: f64) {
        let now = self.now;
        let Some(log) = self.recorder.changes.as_deref_mut() else { return };
        let Some(k) = log.abr_of_vc.get(vc.index()).copied().flatten() else { return };
        log.abr[k as usize].1.note(now, acr_cells_per_s);
    }

    /// Every change row of the run, in time order (at one instant: senders, ABR sources, then ports, in
    /// the order they are recorded); empty when the run records no changes.
    pub fn change_rows(&self) -> Vec<ChangeRow<'_>> {
        let mut rows = Vec::new();
        for (subject, quantity, trace) in self.change_traces() {
            rows.extend(trace.rows().iter().map(|&(time, value)| ChangeRow { time, subject, quantity, value }));
        }
        // Stable: rows of one instant keep the order above.
        rows.sort_by_key(|r| r.time);
        rows
    }

    /// Every recorded quantity as (subject, quantity, its trace): senders, ABR sources, then
    /// ports, in the order they are recorded.
    fn change_traces(&self) -> impl Iterator<Item = (&str, &'static str, &ChangeTrace)> {
        let log = self.recorder.changes.as_deref();
        let senders = log.into_iter().flat_map(|log| &log.senders).flat_map(|(flow, traces)| {
            traces.iter().zip(TCP_QUANTITIES).map(move |(trace, quantity)| (flow.as_str(), quantity, trace))
        });
        let abr = log.into_iter().flat_map(|log| &log.abr).map(|(vc, trace)| (vc.as_str(), ACR_QUANTITY, trace));
        let ports = self.port_traces().map(|(port, trace)| {
            let quantity = if port.packets.is_some() { "queue_bytes" } else { "queue_cells" };
            (port.name.as_str(), quantity, trace)
        });
        senders.chain(abr).chain(ports)
    }

    /// The recorded ports with their queue's change trace.
    fn port_traces(&self) -> impl Iterator<Item = (&super::Port, &ChangeTrace)> {
        self.recorder.spec.ports.iter().filter_map(|p| {
            let port = &self.ports[p.index()];
            let trace = match &port.packets {
                Some(q) => q.changes(),
                None => port.queue.changes(),
            };
            trace.map(|t| (port, t))
        })
    }

    /// The quantities whose changes stopped being kept when the rows ran out, as (subject,
    /// quantity, the first change missing), earliest first.
    pub fn changes_cut(&self) -> Vec<(&str, &'static str, SimTime)> {
        let mut cut: Vec<_> = self.change_traces().filter_map(|(s, q, t)| t.cut_at().map(|at| (s, q, at))).collect();
        cut.sort_by_key(|&(_, _, at)| at);
        cut
    }

    /// The text of `timeseries_changes.csv`, if the run records changes: `time_s,subject,
    /// quantity,value`, times exact to the picosecond, values in shortest round-trip form.
    pub fn changes_csv(&self) -> Option<String> {
        use std::fmt::Write as _;
        self.recorder.changes.as_ref()?;
        let mut text = String::from("time_s,subject,quantity,value\n");
        for r in self.change_rows() {
            let ps = r.time.as_picos();
            let _ = write!(
                text,
                "{}.{:012},{},{},",
                ps / 1_000_000_000_000,
                ps % 1_000_000_000_000,
                csv_field(r.subject),
                r.quantity
            );
            if !r.value.is_nan() {
                let _ = write!(text, "{}", r.value);
            }
            text.push('\n');
        }
        Some(text)
    }
}
