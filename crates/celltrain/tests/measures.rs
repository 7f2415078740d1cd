//! The aggregate measures as the papers define them: which VCs the mean CLR averages, which
//! packets a flow's counts are of, and the most a bottleneck of each medium can carry.

mod common;

use common::{run_builtin, run_text};

/// Short TCP runs, where packets sent before the window are delivered in it: a flow's
/// delivered and lost packets are of those it sent in the window (A3's `tcp1` once read 8
/// delivered against 1 sent).
#[test]
fn a_flow_never_delivers_more_than_it_sent() {
    for name in ["A3", "A5-tcp", "A6", "A10-tcp", "A12-ubr", "E4"] {
        for (duration, warmup) in [("0.15 s", "0.05 s"), ("0.3 s", "0.2 s")] {
            let s = run_builtin(name, &[("duration", duration), ("warmup", warmup)], 1);
            for f in &s.flows {
                assert!(
                    f.packets_delivered + f.packets_lost <= f.packets_sent,
                    "{name} over {duration}: {} sent {}, delivered {}, lost {}",
                    f.name,
                    f.packets_sent,
                    f.packets_delivered,
                    f.packets_lost
                );
            }
        }
    }
}

/// Over the whole run (no warm-up) with the sources stopped early, every data packet's fate
/// is known: delivered and lost add up to sent, and the loss ratio is of those packets.
#[test]
fn with_every_fate_known_the_counts_add_up() {
    let s = run_builtin("A5-udp", &[("duration", "1 s"), ("warmup", "0 s"), ("flow.*.app.stop", "\"0.6 s\"")], 1);
    let mut lost = 0;
    for f in &s.flows {
        assert_eq!(f.packets_delivered + f.packets_lost, f.packets_sent, "{}", f.name);
        lost += f.packets_lost;
    }
    assert!(lost > 0, "A5-udp's EPD switch drops frames");
}

/// MSc98 averages the CLR over the connections' data VCs: the acknowledgement VCs, which
/// lose almost nothing, are reported apart and not averaged in (they halved A3's figure).
#[test]
fn mean_clr_is_over_the_data_vcs() {
    let s = run_builtin("A3", &[("duration", "1.5 s"), ("warmup", "0.5 s")], 1);
    let data: Vec<&str> = s.flows.iter().map(|f| f.vc.as_str()).collect();
    let mean = |keep: &dyn Fn(&str) -> bool| {
        let clrs: Vec<f64> = s.vcs.iter().filter(|v| keep(&v.name)).map(|v| v.clr).collect();
        clrs.iter().sum::<f64>() / clrs.len() as f64
    };
    let (of_data, of_acks) = (mean(&|n| data.contains(&n)), mean(&|n| !data.contains(&n)));
    assert_eq!(s.vcs.len(), 2 * data.len(), "a data VC and an acknowledgement VC per connection");
    assert!((s.aggregate.mean_clr.unwrap() - of_data).abs() < 1e-15);
    assert!((s.aggregate.mean_clr_reverse.unwrap() - of_acks).abs() < 1e-15);
    assert!(of_data > 0.0, "A3's data VCs lose cells");
    assert!(s.aggregate.mean_clr.unwrap() > mean(&|_| true), "the mean over every VC is lower");
    // Without TCP there is no acknowledgement VC.
    let udp = run_builtin("A5-udp", &[("duration", "0.3 s"), ("warmup", "0.1 s")], 1);
    assert_eq!(udp.aggregate.mean_clr_reverse, None);
    assert!(udp.aggregate.mean_clr.is_some());
}

/// A cell-mode network whose bottleneck is a router-to-router packet link: its maximum is of
/// whole datagrams on that link, not of AAL5 cells (which read 113 % efficiency), and a
/// greedy UDP source fills it.
#[test]
fn a_packet_bottleneck_is_measured_by_its_own_medium() {
    let text = |medium: &str| {
        format!(
            r#"
[scenario]
id = "packet-bottleneck"
title = "a packet link between two routers"

[simulation]
duration = "2 s"
warmup = "0.5 s"

[[router]]
names = ["r1", "r2"]

[[host]]
names = ["h1", "h2"]

[[link]]
between = [["h1", "r1"], ["r2", "h2"]]
rate = "149.76 Mbit/s"
delay = "50 us"

[[link]]
between = ["r1", "r2"]
rate = "10 Mbit/s"
delay = "1 ms"
medium = "{medium}"

[[flow]]
name = "udp"
path = ["h1", "r1", "r2", "h2"]
app = {{ kind = "udp", datagram = "1472 B", rate = "20 Mbit/s" }}

[metrics]
bottleneck = ["r1", "r2"]
"#
        )
    };
    let (_, bare) = run_text(&text("packet"), &[]);
    let max = bare.aggregate.max_goodput_bps.unwrap();
    assert!((max - 10e6 * 1472.0 / 1500.0).abs() < 1e-6, "whole 1500-byte datagrams: {max}");
    let e = bare.aggregate.efficiency.unwrap();
    assert!(e > 0.99 && e <= 1.0, "efficiency {e}");
    // Ethernet's framing (38 bytes a frame) is overhead too.
    let (_, lan) = run_text(&text("ethernet"), &[]);
    let max = lan.aggregate.max_goodput_bps.unwrap();
    assert!((max - 10e6 * 1472.0 / 1538.0).abs() < 1e-6, "Ethernet frames: {max}");
    let e = lan.aggregate.efficiency.unwrap();
    assert!(e > 0.99 && e <= 1.0, "efficiency {e}");
}
