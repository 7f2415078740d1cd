use super::*;
use celltrain_atm::port::buffer::{DiscardConfig, EpdConfig, EpdThreshold};
use celltrain_atm::port::PortConfig;

const OC3: BitRate = BitRate::from_bps(149_760_000);

/// n greedy UDP sources → sw1 → sw2 → n sinks (MSc98's two-node configuration).
fn two_node(n: usize, discard: DiscardConfig, warmup_ms: u64, duration_ms: u64) -> Network {
    two_node_paced(n, discard, warmup_ms, duration_ms, None)
}

/// As [`two_node`]; with `rate`, sources are paced and start staggered by an odd offset so
/// that their cells interleave at the bottleneck.
fn two_node_paced(
    n: usize,
    discard: DiscardConfig,
    warmup_ms: u64,
    duration_ms: u64,
    rate: Option<BitRate>,
) -> Network {
    let mut b = NetworkBuilder::new(1, SimDuration::from_millis(duration_ms), SimDuration::from_millis(warmup_ms));
    let port = PortConfig {
        buffer_cells: 8192,
        reserved: vec![],
        discard,
        per_vc_queues: true,
        clp1_threshold: None,
        efci_threshold: None,
        scheduler: Default::default(),
    };
    let sw1 = b.add_switch("sw1", port.clone()).unwrap();
    let sw2 = b.add_switch("sw2", port).unwrap();
    b.add_link(sw1, sw2, OC3, SimDuration::from_millis(5)).unwrap();
    for i in 1..=n {
        let s = b.add_host(&format!("src{i}"), build::DEFAULT_NIC_BUFFER_CELLS).unwrap();
        let d = b.add_host(&format!("dst{i}"), build::DEFAULT_NIC_BUFFER_CELLS).unwrap();
        b.add_link(s, sw1, OC3, SimDuration::from_micros(50)).unwrap();
        b.add_link(sw2, d, OC3, SimDuration::from_micros(50)).unwrap();
        let vc = b
            .add_route(
                VcSpec {
                    name: format!("vc{i}"),
                    path: vec![s, sw1, sw2, d],
                    category: ServiceCategory::Ubr,
                    pcr: None,
                    contract: None,
                    vc_name: None,
                },
                Adaptation::Aal5,
            )
            .unwrap();
        let start = if rate.is_some() { SimTime::from_picos(i as u64 * 137_777_777) } else { SimTime::ZERO };
        b.add_udp(&format!("udp{i}"), vc, 9140, rate, start).unwrap();
    }
    b.build().unwrap()
}

fn run(net: &mut Network) {
    net.run(&mut |_| {});
}

/// Every cell that entered a port left it, was dropped, or is still queued.
fn assert_port_identities(net: &Network) {
    for p in &net.ports {
        let s = &p.queue.stats;
        assert_eq!(
            s.cells_in + u64::from(s.queued_at_start),
            s.cells_out + s.dropped_total() + u64::from(p.queue.occupancy()),
            "port {} identity",
            p.name
        );
    }
}

#[test]
fn one_greedy_udp_source_reaches_the_theoretical_goodput() {
    let mut net = two_node(1, DiscardConfig::TailDrop(()), 100, 1100);
    run(&mut net);
    assert_port_identities(&net);
    let delivered = net.flows[0].stats.bytes_delivered as f64 * 8.0;
    let goodput = delivered / 1.0;
    // MSc98 Table 5.1: 134.513 Mbit/s (9140 / 10176 of 149.76 Mbit/s).
    assert!((goodput / 134.5132e6 - 1.0).abs() < 1e-3, "goodput {goodput}");
    assert_eq!(net.vcs[0].stats.cells_dropped, 0);
    assert_eq!(net.vcs[0].stats.frames_lost, 0);
}

#[test]
fn cells_are_conserved_per_vc() {
    // No warm-up, so counters cover the whole run.
    let mut net = two_node(3, DiscardConfig::TailDrop(()), 0, 200);
    run(&mut net);
    assert_port_identities(&net);
    let sent: u64 = net.vcs.iter().map(|v| v.stats.cells_sent).sum();
    let delivered: u64 = net.vcs.iter().map(|v| v.stats.cells_delivered).sum();
    let dropped: u64 = net.vcs.iter().map(|v| v.stats.cells_dropped).sum();
    assert!(dropped > 0, "3 greedy sources must overload the bottleneck");
    assert_eq!(sent, delivered + dropped + net.cells_in_flight());
    // Frames: every frame is delivered, lost, or still in flight.
    let frames_sent: u64 = net.vcs.iter().map(|v| v.stats.frames_sent).sum();
    let settled: u64 = net.vcs.iter().map(|v| v.stats.frames_delivered + v.stats.frames_lost).sum();
    assert_eq!(frames_sent, settled + net.frames_in_flight() as u64);
}

#[test]
fn tail_drop_wastes_bandwidth_that_epd_saves() {
    let paced = Some(BitRate::from_bps(60_000_000));
    let mut tail = two_node_paced(5, DiscardConfig::TailDrop(()), 200, 1200, paced);
    let mut epd =
        two_node_paced(5, DiscardConfig::Epd(EpdConfig::new(EpdThreshold::MSc98 { mtu_cells: 192 })), 200, 1200, paced);
    run(&mut tail);
    run(&mut epd);
    assert_port_identities(&tail);
    assert_port_identities(&epd);
    let goodput = |n: &Network| n.flows.iter().map(|f| f.stats.bytes_delivered).sum::<u64>() as f64 * 8.0;
    // Cell-level tail drop corrupts many frames whose cells still cross the bottleneck.
    let corrupted: u64 = tail.vcs.iter().map(|v| v.stats.corrupted_pdus).sum();
    assert!(corrupted > 0);
    assert!(goodput(&epd) > 1.2 * goodput(&tail), "epd {} tail {}", goodput(&epd), goodput(&tail));
    // EPD drops whole frames: nearly every frame that reaches the receiver is intact.
    let epd_corrupted: u64 = epd.vcs.iter().map(|v| v.stats.corrupted_pdus).sum();
    let epd_delivered: u64 = epd.vcs.iter().map(|v| v.stats.frames_delivered).sum();
    assert!(epd_corrupted * 50 < epd_delivered, "corrupted {epd_corrupted} delivered {epd_delivered}");
}

#[test]
fn same_seed_same_trace() {
    let paced = Some(BitRate::from_bps(100_000_000));
    let mut a = two_node_paced(3, DiscardConfig::Ppd(()), 10, 60, paced);
    let mut b = two_node_paced(3, DiscardConfig::Ppd(()), 10, 60, paced);
    run(&mut a);
    run(&mut b);
    assert_eq!(a.trace_hash(), b.trace_hash());
    assert_eq!(a.events(), b.events());
    let mut c = two_node_paced(3, DiscardConfig::TailDrop(()), 10, 60, paced);
    run(&mut c);
    assert_ne!(a.trace_hash(), c.trace_hash());
}

#[test]
fn build_errors_are_reported_not_panicked() {
    let mut b = NetworkBuilder::new(1, SimDuration::from_millis(10), SimDuration::ZERO);
    let h1 = b.add_host("h1", 100).unwrap();
    let h2 = b.add_host("h2", 100).unwrap();
    assert!(b.add_host("h1", 100).unwrap_err().message.contains("duplicate node name 'h1'"));
    let e = b
        .add_route(
            VcSpec {
                name: "v".into(),
                path: vec![h1, h2],
                category: ServiceCategory::Ubr,
                pcr: None,
                contract: None,
                vc_name: None,
            },
            Adaptation::Aal5,
        )
        .unwrap_err();
    assert_eq!(e.message, "no link between 'h1' and 'h2'");
    b.add_link(h1, h2, OC3, SimDuration::ZERO).unwrap();
    let e = b
        .add_route(
            VcSpec {
                name: "v".into(),
                path: vec![h1, h2],
                category: ServiceCategory::Ubr,
                pcr: Some(BitRate::from_bps(200_000_000)),
                contract: None,
                vc_name: None,
            },
            Adaptation::Aal5,
        )
        .map(|_| ())
        .and_then(|()| b.build().map(|_| ()));
    assert!(e.unwrap_err().message.contains("exceeds the first link's rate"));
}

/// Ports keep no table over all the network's VCs: 12 000 VCs over 48 000 ports (a dense
/// per-port table would need 576 million entries) build and run.
#[test]
fn many_vcs_over_many_ports_need_no_dense_tables() {
    let mut net = two_node(12_000, DiscardConfig::TailDrop(()), 0, 1);
    assert_eq!(net.vcs.len(), 12_000);
    assert!(net.ports.len() >= 48_000, "{} ports", net.ports.len());
    run(&mut net);
    assert_port_identities(&net);
    assert!(net.vcs.iter().all(|v| v.stats.cells_sent > 0), "every source sent cells");
}

/// A handed-over burst counts its cells in at the start times an idle adapter's transmitter
/// gives them: the closed form against the transmitter's own slots, released at every start,
/// a picosecond either side, and at random instants, for rates whose cell time is and is not a
/// whole number of picoseconds.
#[test]
fn handed_burst_counts_cells_at_the_transmitters_start_times() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut draw = move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    };
    for bps in [31_100_000, 149_760_000, 424_000_000, 1_000_000, 599_040_000] {
        let rate = BitRate::from_bps(bps);
        let origin = SimTime::from_picos(1_000_000 + draw(1_000_000));
        let cells = 1 + draw(3000) as u32;
        let mut clock = TxClock::new(OC3.max(rate), rate);
        let starts: Vec<SimTime> = (0..cells)
            .map(|k| {
                let start = if k == 0 { origin } else { clock.free_at() };
                clock.start(start);
                start
            })
            .collect();
        let mut instants: Vec<SimTime> = starts
            .iter()
            .flat_map(|&t| [t, t + SimDuration::from_picos(1), SimTime::from_picos(t.as_picos() - 1)])
            .collect();
        let last = starts[starts.len() - 1].as_picos();
        instants
            .extend((0..200).map(|_| SimTime::from_picos(origin.as_picos() - 5 + draw(last - origin.as_picos() + 10))));
        instants.sort();
        let mut burst = HandedBurst { vc: VcId(0), start: origin, rate, cells, started: 0 };
        let mut counted = 0u32;
        for now in instants {
            counted += burst.release(now);
            let expected = starts.iter().filter(|&&s| s <= now).count() as u32;
            assert_eq!(counted, expected, "{bps} bit/s, {cells} cells, at {now:?}");
            assert_eq!(burst.pending(), cells - expected);
        }
    }
}

/// Every kind of event survives the queue's encoding, at the largest id, and its kind is one
/// the fit check counts.
#[test]
fn every_event_kind_round_trips_its_code() {
    use super::{Event, EVENT_KINDS, MAX_COMPONENTS};
    use celltrain_core::ids::{ConnId, NodeId, PortId, SourceId, VcId};
    use celltrain_core::EventCode;
    let id = MAX_COMPONENTS as u32;
    let events = [
        Event::PortFree(PortId(id)),
        Event::PipeHead(PortId(id)),
        Event::Source(SourceId(id)),
        Event::OpenWindow,
        Event::TcpWake(ConnId(id)),
        Event::HostSend(NodeId(id)),
        Event::HostRecv(NodeId(id)),
        Event::Sample,
        Event::RmInterval(PortId(id)),
        Event::AbrSend(VcId(id)),
        Event::FanIn(id),
        Event::RmStep(PortId(id)),
    ];
    let mut kinds: Vec<u32> = events.iter().map(|e| e.trace_key().0).collect();
    kinds.dedup();
    assert_eq!(kinds.len() as u32, EVENT_KINDS, "one kind per variant");
    for e in events {
        assert!(e.trace_key().0 < EVENT_KINDS);
        assert!(e.encode() < 1 << celltrain_core::event_queue::CODE_BITS);
        assert_eq!(Event::decode(e.encode()), e);
    }
}

/// Each builder call names the field at fault, so the scenario layer can point at its key
/// without reading the message.
#[test]
fn build_errors_name_their_field() {
    use super::Field;
    let mut b = NetworkBuilder::new(1, SimDuration::from_millis(10), SimDuration::ZERO);
    let h = b.add_host("h", 100).unwrap();
    let d = b.add_host("d", 100).unwrap();
    assert_eq!(b.add_host("h", 100).unwrap_err().field, Field::Name);
    assert_eq!(b.add_host("z", 0).unwrap_err().field, Field::Buffer);
    assert_eq!(b.add_link(h, h, OC3, SimDuration::ZERO).unwrap_err().field, Field::Link);
    assert_eq!(b.add_link(h, d, BitRate::from_bps(0), SimDuration::ZERO).unwrap_err().field, Field::Link);
    b.add_link(h, d, OC3, SimDuration::ZERO).unwrap();
    let spec = |name: &str, pcr: Option<BitRate>| VcSpec {
        name: name.into(),
        path: vec![h, d],
        category: ServiceCategory::Ubr,
        pcr,
        contract: None,
        vc_name: None,
    };
    assert_eq!(b.add_route(spec("zero", Some(BitRate::from_bps(0))), Adaptation::Aal5).unwrap_err().field, Field::Pcr);
    let mut backwards = spec("one-node", None);
    backwards.path = vec![h];
    assert_eq!(b.add_route(backwards, Adaptation::Aal5).unwrap_err().field, Field::Path);
    let r = b.add_route(spec("vc", None), Adaptation::Aal5).unwrap();
    assert_eq!(b.add_route(spec("vc", None), Adaptation::Aal5).unwrap_err().field, Field::Name);
    assert_eq!(b.add_udp("u0", r, 0, None, SimTime::ZERO).unwrap_err().field, Field::Datagram);
    assert_eq!(b.add_udp("u1", r, 100, Some(BitRate::from_bps(0)), SimTime::ZERO).unwrap_err().field, Field::Rate);
    b.add_udp("u", r, 100, None, SimTime::ZERO).unwrap();
    assert_eq!(b.add_udp("u", r, 100, None, SimTime::ZERO).unwrap_err().field, Field::Name);
    let zero = SimDuration::ZERO;
    assert_eq!(b.add_onoff("o", r, None, zero, zero, SimTime::ZERO).unwrap_err().field, Field::Period);
    assert_eq!(b.set_bottleneck(d, d).unwrap_err().field, Field::Bottleneck);
    // An error found at build names its subject: a PCR above the first link's rate.
    let mut b2 = NetworkBuilder::new(1, SimDuration::from_millis(10), SimDuration::ZERO);
    let (h, d) = (b2.add_host("h", 100).unwrap(), b2.add_host("d", 100).unwrap());
    b2.add_link(h, d, OC3, SimDuration::ZERO).unwrap();
    let fast = VcSpec { pcr: Some(BitRate::from_bps(2 * OC3.as_bps())), ..spec("fast", None) };
    let fast = VcSpec { path: vec![h, d], ..fast };
    let r = b2.add_route(fast, Adaptation::Aal5).unwrap();
    b2.add_udp("f", r, 100, None, SimTime::ZERO).unwrap();
    let e = b2.build().err().expect("a PCR above the link's rate");
    assert_eq!((e.subject, e.field), (Some(super::Subject::Vc("fast".into())), Field::Pcr));
}

/// RM cells cross the network like the cells of their VC and release their records when they
/// leave it; a port with an explicit-rate algorithm gets one interval event per interval and
/// nothing else changes.
#[test]
fn rm_cells_cross_and_intervals_tick() {
    use celltrain_atm::abr::{AbrRate, ExplicitRate, RmCell};
    let run = |er: bool, rm_cells: usize| {
        let mut net = two_node(2, DiscardConfig::TailDrop(()), 0, 10);
        let trunk = net.ports.iter().position(|p| p.name == "sw1->sw2").map(PortId::from_index).unwrap();
        if er {
            net.set_explicit_rate(trunk, ExplicitRate::default(), SimDuration::from_millis(1));
        }
        let rm = RmCell::forward(AbrRate::from_cells_per_sec(1e5), AbrRate::from_cells_per_sec(1e4), AbrRate::ZERO);
        for _ in 0..rm_cells {
            net.send_rm_cell(VcId(0), rm, false);
        }
        assert_eq!(net.rm_cells_in_flight(), rm_cells);
        net.run(&mut |_| {});
        assert!(net.explicit_rate(trunk).is_some() == er);
        net
    };
    let (plain, ticking) = (run(false, 0), run(true, 0));
    assert_eq!(ticking.events(), plain.events() + 10, "one interval event a millisecond for 10 ms");
    let with_rm = run(true, 3);
    assert_eq!(with_rm.rm_cells_in_flight(), 0, "delivered or dropped, every RM record is released");
    let (a, b) = (&plain.vcs[0].stats, &with_rm.vcs[0].stats);
    // Sent before the window opened (at 0), the RM cells count as in flight at its start.
    assert_eq!(b.cells_sent + b.cells_in_flight_at_start, a.cells_sent + a.cells_in_flight_at_start + 3);
    // Every cell, the RM cells included, is delivered, dropped or still in flight.
    let end = with_rm.vc_cells_in_flight()[0];
    assert_eq!(b.cells_sent + b.cells_in_flight_at_start, b.cells_delivered + b.cells_dropped + end);
}

/// When the change rows run out, the quantities cut are named with the instant of their first
/// missing change, earliest first: here the busy bottleneck queue, long before the TCP senders.
#[test]
fn change_rows_that_run_out_name_what_was_cut_and_when() {
    let text = format!("{}\n[record]\non_change = true\n", crate::builtin::find("A3").unwrap().text);
    let sets = [("duration".to_string(), "\"1.5 s\"".to_string())];
    let source = crate::scenario::Source::new("a3.toml", text);
    let mut net = crate::scenario::compile_source(source, &sets, None).unwrap().network;
    // A pool small enough to run out in a short run.
    let pool = celltrain_core::RowPool::new(20_000);
    let spec = &net.recorder.spec;
    let log = record_changes::ChangeLog::new(&spec.senders, &spec.abr_vcs, pool.clone());
    net.recorder.changes = Some(Box::new(log));
    for p in net.recorder.spec.ports.clone() {
        net.ports[p.index()].queue.record_changes(pool.clone());
    }
    run(&mut net);
    assert_eq!(net.change_rows().len() + pool.left(), 20_000, "every row comes from the pool");
    let cut = net.changes_cut();
    let &(subject, quantity, at) = cut.first().expect("a quantity was cut");
    assert_eq!((subject, quantity), ("sw1->sw2", "queue_cells"), "{cut:?}");
    assert!(cut.windows(2).all(|w| w[0].2 <= w[1].2), "earliest first: {cut:?}");
    let summary = crate::metrics::Summary::from_network(&net, crate::metrics::RunMeta::default(), 0.0);
    let warning = summary.warnings.iter().find(|w| w.contains("ran out")).expect("a warning");
    let at_s = at.as_secs_f64();
    let named = format!("ran out at {at_s} s; missing are the changes of sw1->sw2 queue_cells from {at_s} s");
    assert!(warning.contains(&named), "{warning}");
}

/// A cell port's record stays small: what only packet mode, rare paths or set-up read lives out
/// of line (packet mode's queue is boxed; it made every cell port 544 bytes larger when inline).
#[test]
fn a_port_record_keeps_packet_mode_out_of_line() {
    let size = std::mem::size_of::<Port>();
    assert!(size < 1024, "Port is {size} bytes");
    assert!(std::mem::size_of::<PacketQueue>() > 256, "the boxed queue is the large part");
}

/// The rule for a host that takes no time (`ProcessingQueue::closes_instant`, decided from the
/// network alone): its deliveries close their instant when every TCP segment it receives comes
/// over one link, ATM or packet, over ABR too. A receiver fed by two routers does not; its
/// senders, each hearing ACKs over one packet link, do; so does every host of T1 in packet mode,
/// and of A3 over ABR.
#[test]
fn hosts_close_their_instants_over_one_link_only() {
    const TWO_ROUTERS: &str = r#"
[scenario]
id = "two-routers"
title = "TCP into one host over two packet links"

[simulation]
duration = "10 ms"
mode = "packet"

[[router]]
names = ["r1", "r2"]

[[host]]
names = ["s1", "s2", "dst"]

[[link]]
between = [["s1", "r1"], ["r1", "dst"], ["s2", "r2"], ["r2", "dst"]]
rate = "100 Mbit/s"
delay = "1 ms"

[[flow]]
name = "tcp1"
path = ["s1", "r1", "dst"]
app = { kind = "tcp" }

[[flow]]
name = "tcp2"
path = ["s2", "r2", "dst"]
app = { kind = "tcp" }
"#;
    let closing = |text: &str, sets: &[(String, String)], mode: Mode| -> Vec<(String, bool)> {
        let source = crate::scenario::Source::new("closing.toml", text.to_string());
        let net = crate::scenario::compile_source(source, sets, None).unwrap().network;
        assert_eq!(net.mode(), mode);
        let hosts = net.nodes.iter().enumerate().filter(|(_, n)| n.kind == NodeKind::Host);
        hosts.map(|(h, n)| (n.name.clone(), net.hosts[h].recv.closes_instant)).collect()
    };
    let two = closing(TWO_ROUTERS, &[], Mode::Packet);
    assert_eq!(two.iter().filter(|(_, closes)| *closes).count(), 2, "{two:?}");
    assert!(two.iter().any(|(name, closes)| name == "dst" && !closes), "{two:?}");
    let t1 = crate::builtin::find("T1").unwrap().text;
    let t1 = closing(t1, &[("mode".to_string(), "\"packet\"".to_string())], Mode::Packet);
    assert!(t1.len() == 16 && t1.iter().all(|(_, closes)| *closes), "{t1:?}");
    let a3 = crate::builtin::find("A3").unwrap().text;
    let a3 = closing(a3, &[("service".to_string(), "\"abr\"".to_string())], Mode::Cell);
    assert!(a3.len() >= 2 && a3.iter().all(|(_, closes)| *closes), "{a3:?}");
}
