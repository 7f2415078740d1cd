//! A packet port's buffer limits (`buffer_bytes`, `buffer_packets` on a switch in packet mode or
//! on a router): what they bound, and their errors, whichever table gives them.

mod common;

use celltrain::scenario::{compile_source, Source};

/// One Reno connection through switch `r` (packet mode) into a 10 Mbit/s link: the port `r->dst`
/// queues. `LIMITS` is replaced by the keys under test.
const BOTTLENECK: &str = r#"
[scenario]
id = "limited"
title = "One TCP connection into a slower link"

[simulation]
duration = "3 s"
warmup = "0 s"
seed = 1
mode = "packet"

[[switch]]
name = "r"
LIMITS

[[host]]
names = ["src", "dst"]

[[link]]
between = ["src", "r"]
rate = "155 Mbit/s"
delay = "1 ms"

[[link]]
between = ["r", "dst"]
rate = "10 Mbit/s"
delay = "1 ms"

[[flow]]
name = "tcp"
path = ["src", "r", "dst"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "tcp", variant = "reno", mss = "1460 B", window = "1 MB" }
"#;

/// The compile error of the scenario with these limits.
fn error(limits: &str) -> String {
    match compile_source(Source::new("limited.toml", BOTTLENECK.replace("LIMITS", limits)), &[], None) {
        Ok(_) => panic!("{limits}: compiled"),
        Err(e) => e.to_string(),
    }
}

/// (most bytes queued at `r->dst`, packets it dropped)
fn bottleneck(limits: &str) -> (u64, u64) {
    let (_, s) = common::run_text(&BOTTLENECK.replace("LIMITS", limits), &[]);
    let p = s.ports.iter().find(|p| p.name == "r->dst").expect("the bottleneck port");
    (p.max_queue_bytes.expect("a packet port"), p.packets_dropped.expect("a packet port"))
}

/// A limit in packets, in bytes, or both (the tighter binds); without either, the cell buffer's
/// payload (8192 cells × 48 bytes) in bytes. Each limit is reached and packets are dropped there.
#[test]
fn each_limit_bounds_the_queue() {
    let packet = 1500;
    let (most, dropped) = bottleneck(r#"buffer_packets = 3"#);
    assert!(most <= 3 * packet && most > 2 * packet && dropped > 0, "{most} B, {dropped} dropped");
    let (most, dropped) = bottleneck(r#"buffer_bytes = "5000 B""#);
    assert!(most <= 5000 && most > 5000 - packet && dropped > 0, "{most} B, {dropped} dropped");
    let (most, _) = bottleneck("buffer_bytes = \"1 MB\"\nbuffer_packets = 4");
    assert!(most <= 4 * packet && most > 3 * packet, "{most} B");
    let (most, _) = bottleneck("");
    assert!(most <= 8192 * 48 && most > 8192 * 48 - packet, "{most} B");
}

/// Bad limits give one line naming file, line and key, at a switch and at a router alike.
#[test]
fn bad_limits_name_their_key() {
    let cases = [
        (r#"buffer_bytes = "0 B""#, "buffer_bytes: must be positive"),
        (r#"buffer_packets = 0"#, "buffer_packets: must be positive"),
        ("buffer_bytes = \"1 MB\"\nbuffer_packets = 0", "buffer_packets: must be positive"),
        (r#"buffer_bytes = "20 GiB""#, "buffer_bytes: 21474836480 B is too large (max 17179869184 B)"),
        (r#"buffer_packets = 20000000"#, "buffer_packets: 20000000 packets is too large (max 10000000)"),
        (r#"buffer_packets = "many""#, "buffer_packets"),
    ];
    let router = celltrain::builtin::find("A10-udp").expect("A10-udp is built in").text;
    let at = router.find("[[router]]\n").expect("a router table") + "[[router]]\n".len();
    for (keys, expected) in cases {
        let e = error(keys);
        let line = BOTTLENECK.lines().position(|l| l == "LIMITS").expect("the limits' line") + 1;
        let line = line + keys.lines().position(|l| l.starts_with(expected.split(':').next().unwrap())).unwrap_or(0);
        assert!(e.starts_with(&format!("limited.toml:{line}:")), "{keys}: {e}");
        assert!(e.contains(expected) && e.lines().count() == 1, "{keys}: {e}");
        let text = format!("{}{keys}\n{}", &router[..at], &router[at..]);
        let e = match compile_source(Source::new("routers.toml", text), &[], None) {
            Ok(_) => panic!("{keys}: compiled"),
            Err(e) => e.to_string(),
        };
        assert!(e.starts_with("routers.toml:") && e.contains(expected) && e.lines().count() == 1, "{keys}: {e}");
    }
}
