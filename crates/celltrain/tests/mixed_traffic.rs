//! Mixed traffic in both modes (issue 19 item 12): applications that stop, Poisson and on/off
//! datagram sources, and strict priority at packet routers.

use celltrain::metrics::{FlowSummary, Summary};
use celltrain::scenario::{compile_source, Source};

fn run(text: &str, sets: &[(&str, &str)]) -> Summary {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let c = compile_source(Source::new("mixed.toml", text.to_string()), &sets, None).unwrap_or_else(|e| panic!("{e}"));
    let mut net = c.network;
    net.run(&mut |_| {});
    Summary::from_network(&net, c.meta, 0.0)
}

fn flow<'a>(s: &'a Summary, name: &str) -> &'a FlowSummary {
    s.flows.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no flow {name}"))
}

/// Two sources into one 10 Mbit/s bottleneck at `r1`: `hi` (CBR VC, 3 Mbit/s of 1000-byte
/// datagrams) and `lo` (UBR VC, greedy at 100 Mbit/s): a tenfold overload.
const OVERLOAD: &str = r#"
[scenario]
id = "mixed"
title = "A CBR flow and a greedy UBR flow into a 10 Mbit/s link"

[params]
mode = "packet"
queueing = "priority"
duration = "2 s"

[simulation]
duration = "${duration}"
mode = "${mode}"
seed = 1

[[switch]]
name = "r1"
buffer = "1000 cells"
buffer_bytes = "48000 B"
queueing = "${queueing}"

[[host]]
names = ["hi", "lo", "sink"]

[[link]]
between = [["hi", "r1"], ["lo", "r1"]]
rate = "100 Mbit/s"
delay = "10 us"

[[link]]
between = ["r1", "sink"]
rate = "10 Mbit/s"
delay = "1 ms"

[[flow]]
name = "hi"
path = ["hi", "r1", "sink"]
vc = { category = "cbr" }
app = { kind = "udp", datagram = "1000 B", rate = "3 Mbit/s" }

[[flow]]
name = "lo"
path = ["lo", "r1", "sink"]
vc = { category = "ubr" }
app = { kind = "udp", datagram = "1000 B" }
"#;

/// Under a tenfold overload a priority router keeps the high class whole: no loss, its offered
/// rate delivered, a delay of about one packet behind the low class's packet in service plus
/// its own (1.6 ms at 10 Mbit/s, + 1 ms of propagation); the low class takes the losses. With
/// one FIFO the high class loses most of its packets and waits a full buffer (38 ms).
#[test]
fn priority_router_keeps_the_high_class_under_overload() {
    let prio = run(OVERLOAD, &[]);
    let (hi, lo) = (flow(&prio, "hi"), flow(&prio, "lo"));
    assert_eq!(hi.packets_lost, 0, "{hi:?}");
    assert!(hi.packets_delivered > 600, "{hi:?}");
    // 3 Mbit/s of 1028-byte IP packets carry 1000 application bytes each.
    assert!((hi.goodput_bps / (3e6 * 1000.0 / 1028.0) - 1.0).abs() < 0.02, "{}", hi.goodput_bps);
    let hi_delay = hi.mean_delay_s.unwrap();
    assert!(hi_delay < 3.0e-3 && hi.max_delay_s.unwrap() < 3.5e-3, "{hi:?}");
    assert!(lo.packet_loss_ratio > 0.8, "{lo:?}");
    // The low class has what the high one leaves: 7 Mbit/s less framing (IP headers).
    assert!((lo.goodput_bps / (7e6 * 1000.0 / 1028.0) - 1.0).abs() < 0.03, "{}", lo.goodput_bps);

    let policy = |s: &Summary| s.ports.iter().find(|p| p.name == "r1->sink").map(|p| p.policy.clone());
    assert_eq!(policy(&prio).as_deref(), Some("push-out"));
    let fifo = run(OVERLOAD, &[("queueing", "fifo")]);
    assert_eq!(policy(&fifo).as_deref(), Some("tail-drop"));
    let hi_fifo = flow(&fifo, "hi");
    assert!(hi_fifo.packet_loss_ratio > 0.5, "{hi_fifo:?}");
    assert!(hi_fifo.mean_delay_s.unwrap() > 10.0 * hi_delay, "{hi_fifo:?}");
    eprintln!(
        "priority: hi loss {} delay {:.3} ms, lo loss {:.3} goodput {:.0}; fifo: hi loss {:.3} delay {:.3} ms",
        hi.packets_lost,
        hi_delay * 1e3,
        lo.packet_loss_ratio,
        lo.goodput_bps,
        hi_fifo.packet_loss_ratio,
        hi_fifo.mean_delay_s.unwrap() * 1e3
    );
    assert!(fifo.warnings.is_empty() && prio.warnings.is_empty(), "{:?} {:?}", fifo.warnings, prio.warnings);
}

/// The same scenario in cell mode: the ATM port serves CBR first too, and what keeps the
/// CBR VC's cells from a buffer the UBR VC fills is a reserved pool (there is no push-out in
/// an ATM port), so the comparison of the two networks holds for mixed traffic.
#[test]
fn cell_mode_priority_agrees() {
    let text =
        OVERLOAD.replace("buffer = \"1000 cells\"", "buffer = \"1000 cells\"\nreserved = { cbr = \"100 cells\" }");
    let s = run(&text, &[("mode", "cell")]);
    let hi = flow(&s, "hi");
    assert_eq!(hi.packets_lost, 0, "{hi:?}");
    assert!(hi.mean_delay_s.unwrap() < 3.0e-3, "{hi:?}");
    assert!(flow(&s, "lo").packet_loss_ratio > 0.8);
}

/// Packet mode still warns of the queueing it ignores, and not of the one it honours.
#[test]
fn packet_mode_warns_only_of_ignored_queueing() {
    let warned = run(OVERLOAD, &[("queueing", "per-vc"), ("duration", "0.01 s")]);
    assert!(
        warned.warnings.iter().any(|w| w.contains("queueing") && w.contains("mixed.toml:")),
        "{:?}",
        warned.warnings
    );
    let quiet = run(OVERLOAD, &[("duration", "0.01 s")]);
    assert!(quiet.warnings.is_empty(), "{:?}", quiet.warnings);
}

/// A constant-rate source that stops at 10 ms sends the datagrams due before it: the n-th
/// leaves at ceil(n · wire_bits / rate) (n = 0, 1, …), none at or after the stop.
#[test]
fn udp_stops_in_both_modes() {
    let text = OVERLOAD.replace(
        "app = { kind = \"udp\", datagram = \"1000 B\" }",
        "app = { kind = \"udp\", datagram = \"1000 B\", stop = \"10 ms\" }",
    );
    // Packet mode: 1028 octets at 100 Mbit/s, 82.24 µs apart: 0 … 121 leave before 10 ms.
    let s = run(&text, &[("duration", "0.1 s")]);
    assert_eq!(flow(&s, "lo").packets_sent, 122);
    // Cell mode: 22 cells (9328 bits) at 100 Mbit/s, 93.28 µs apart: 0 … 107.
    let s = run(&text, &[("duration", "0.1 s"), ("mode", "cell")]);
    assert_eq!(flow(&s, "lo").packets_sent, 108);
    // Without the stop it keeps sending (over ten times as many in the 0.1 s run).
    let s = run(OVERLOAD, &[("duration", "0.1 s")]);
    assert!(flow(&s, "lo").packets_sent > 1200);
    // A stop beyond the run changes nothing.
    let late = OVERLOAD.replace("rate = \"3 Mbit/s\" }", "rate = \"3 Mbit/s\", stop = \"5 s\" }");
    let (a, b) = (run(&late, &[("duration", "0.1 s")]), run(OVERLOAD, &[("duration", "0.1 s")]));
    assert_eq!((a.trace_hash, a.events), (b.trace_hash, b.events));
}

/// Poisson and on/off datagram sources, alone on the bottleneck: their mean rates are what
/// the keys say (within 3 standard deviations of the count), in both modes; the source with
/// a stop sends nothing after it.
#[test]
fn random_datagram_sources_in_both_modes() {
    let base = OVERLOAD
        .replace(
            "app = { kind = \"udp\", datagram = \"1000 B\", rate = \"3 Mbit/s\" }",
            "app = { kind = \"poisson\", datagram = \"1000 B\", rate = \"2 Mbit/s\" }",
        )
        .replace(
            "app = { kind = \"udp\", datagram = \"1000 B\" }",
            "app = { kind = \"onoff-packet\", datagram = \"1000 B\", peak = \"4 Mbit/s\", on = \"50 ms\", off = \"50 ms\" }",
        );
    for (mode, wire_bits) in [("packet", 1028.0 * 8.0), ("cell", 22.0 * 424.0)] {
        let s = run(&base, &[("duration", "20 s"), ("mode", mode)]);
        let rate = |name: &str| flow(&s, name).packets_sent as f64 * wire_bits / 20.0;
        // Poisson: about 4300 to 5400 datagrams, σ/mean < 1.6 %.
        assert!((rate("hi") / 2e6 - 1.0).abs() < 0.05, "{mode}: poisson {}", rate("hi"));
        // On/off: 200 cycles of 100 ms, mean 2 Mbit/s; each burst ends with its last
        // datagram's time, so the count runs a little high. 10 % is about 3 σ of 200 bursts.
        assert!((rate("lo") / 2e6 - 1.0).abs() < 0.1, "{mode}: on/off {}", rate("lo"));
        assert_eq!(flow(&s, "hi").packets_lost + flow(&s, "lo").packets_lost, 0, "{mode}: 4 of 10 Mbit/s at most");
    }
    let stopped = base.replace("rate = \"2 Mbit/s\" }", "rate = \"2 Mbit/s\", stop = \"1 s\" }");
    let (a, b) = (run(&stopped, &[("duration", "4 s")]), run(&base, &[("duration", "1 s")]));
    // The same stream of draws: stopped at 1 s, the source sent what a 1 s run sends.
    assert_eq!(flow(&a, "hi").packets_sent, flow(&b, "hi").packets_sent);
    assert!(flow(&a, "hi").packets_sent > 150);
}

/// A TCP sender that stops writing at 0.5 s closes its connection: the receiver sees the end
/// (a completion time) once the send buffer has drained, and the flow delivers far less than
/// without the stop.
#[test]
fn tcp_stops_and_closes() {
    // A window that fits the buffer: no loss, so the run is about the stop, not recovery.
    let tcp = |stop: &str| {
        OVERLOAD.replace("buffer = \"1000 cells\"", "buffer = \"8000 cells\"").replace("48000 B", "384000 B").replace(
            "app = { kind = \"udp\", datagram = \"1000 B\" }",
            &format!("app = {{ kind = \"tcp\", mtu = \"1500 B\", window = \"64 KB\"{stop} }}"),
        )
    };
    for mode in ["packet", "cell"] {
        let s = run(&tcp(", stop = \"0.5 s\""), &[("mode", mode)]);
        let lo = flow(&s, "lo");
        let done = lo.completion_s.unwrap_or_else(|| panic!("{mode}: no FIN seen {lo:?}"));
        // What the socket held at the stop still goes (at most its send buffer), then the FIN.
        assert!(done > 0.5 && done < 1.0, "{mode}: completed at {done}");
        assert_eq!(lo.packets_lost, 0, "{mode}");
        let endless = run(&tcp(""), &[("mode", mode)]);
        let more = flow(&endless, "lo");
        let (a, b) = (more.bytes_delivered, lo.bytes_delivered);
        assert!(more.completion_s.is_none() && a > 2 * b, "{mode}: {a} vs {b}");
    }
}

/// Bad keys are one-line errors naming the file, line and key.
#[test]
fn bad_keys_are_errors_naming_the_key() {
    let cases = [
        ("rate = \"3 Mbit/s\" }", "rate = \"3 Mbit/s\", start = \"1 s\", stop = \"1 s\" }", "stop"),
        ("rate = \"3 Mbit/s\" }", "rate = \"3 Mbit/s\", stop = \"-1 s\" }", "stop"),
        ("kind = \"udp\", datagram = \"1000 B\", rate", "kind = \"poisson\", datagram = \"1000 B\", ratex", "rate"),
        (
            "kind = \"udp\", datagram = \"1000 B\" }",
            "kind = \"onoff-packet\", datagram = \"1000 B\", on = \"0 s\", off = \"1 ms\" }",
            "on",
        ),
        ("kind = \"udp\", datagram = \"1000 B\" }", "kind = \"poisson\", rate = \"1 Mbit/s\" }", "datagram"),
        ("queueing = \"${queueing}\"", "queueing = \"strict\"", "queueing"),
    ];
    for (from, to, key) in cases {
        let text = OVERLOAD.replacen(from, to, 1);
        assert_ne!(text, OVERLOAD, "{to}");
        let Err(e) = compile_source(Source::new("mixed.toml", text), &[], None) else { panic!("{to}: accepted") };
        let e = e.to_string();
        assert!(e.starts_with("mixed.toml:") && e.contains(key) && e.lines().count() == 1, "{to}: {e}");
    }
}
