//! `celltrain run`'s tables for networks a reader cannot scan whole (issue 39, item 12): the
//! GFR contracts beside their VCs, and the port table cut to its bottleneck and busiest ports.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let short = ["--quiet", "--set", "duration=0.1 s", "--set", "warmup=0.02 s"];
    let out = Command::new(env!("CARGO_BIN_EXE_celltrain")).arg("run").args(args).args(short).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The rows of the table whose header starts with `header`, up to the blank line after it.
fn table<'a>(text: &'a str, header: &str) -> Vec<&'a str> {
    text.lines().skip_while(|l| !l.starts_with(header)).skip(1).take_while(|l| !l.is_empty()).collect()
}

#[test]
fn a_gfr_run_shows_each_vcs_mcr_and_tagged_frames() {
    let text = run(&["G1"]);
    let header = text.lines().find(|l| l.starts_with("gfr vc")).unwrap_or_else(|| panic!("no GFR table: {text}"));
    assert!(header.contains("MCR Mbit/s") && header.contains("tagged fr.") && header.contains("eligible"), "{header}");
    let vc1: Vec<&str> =
        table(&text, "gfr vc").into_iter().find(|l| l.starts_with("vc1 ")).unwrap().split_whitespace().collect();
    assert_eq!(&vc1[..3], ["vc1", "gfr.2", "2.000"], "G1's vc1 has an MCR of 2 Mbit/s");
    // Not a GFR run: no GFR table.
    assert!(!run(&["A1-udp"]).contains("gfr vc"));
}

#[test]
fn a_large_network_shows_its_bottleneck_and_busiest_ports_first() {
    let text = run(&["G3"]);
    let rows = table(&text, "port (busiest)");
    assert_eq!(rows.len(), 17, "16 ports and the note: {text}");
    assert!(rows[0].starts_with("sw1->sw2 "), "the bottleneck first: {}", rows[0]);
    let left_out: usize = rows[16].split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(rows[16].contains("more busy ports") && rows[16].contains("--ports all"), "{}", rows[16]);
    let all = run(&["G3", "--ports", "all"]);
    let every = table(&all, "port (busy)");
    assert_eq!(every.len(), 16 + left_out, "--ports all shows every busy port");
    assert!(every.iter().any(|l| l.starts_with("r10->sw1 ")) && !all.contains("more busy ports"));
    let utilization = |row: &str| row.split_whitespace().nth(5).unwrap().trim_end_matches('%').parse::<f64>().unwrap();
    let shown_least = rows[1..16].iter().map(|r| utilization(r)).fold(f64::INFINITY, f64::min);
    let hidden_most = every.iter().filter(|r| !rows.contains(r)).map(|r| utilization(r)).fold(0.0, f64::max);
    assert!(shown_least >= hidden_most, "the busiest are shown: {shown_least} < {hidden_most}");
    // A small network's table is as it was: every busy port, in the summary's order.
    let small = run(&["A1-udp"]);
    assert!(small.contains("\nport (busy)") && !small.contains("more busy ports"), "{small}");
}

/// A packet link with a policer and one with a shaper: the conditioning table shows each
/// one's counters, "-" for the conditioner a link lacks; a run without either has no table.
#[test]
fn conditioned_packet_links_show_their_counters() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/policed-shaped-udp.toml");
    let out = run(&[path]);
    let rows = table(&out, "conditioned");
    assert_eq!(rows.len(), 2, "{out}");
    let cols = |row: &str| row.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let (src, r) = (cols(rows[0]), cols(rows[1]));
    assert_eq!((src[0].as_str(), &src[3][..], &src[4][..]), ("src->r", "-", "-"), "{out}");
    assert!(src[1].parse::<u64>().unwrap() > 0 && src[2].parse::<u64>().unwrap() > 0, "{out}");
    assert_eq!((r[0].as_str(), &r[1][..], &r[2][..]), ("r->dst", "-", "-"), "{out}");
    assert!(r[3].parse::<u64>().unwrap() > 0 && r[4].parse::<u64>().unwrap() > 0, "{out}");
    assert!(!run(&["A1-udp"]).contains("conditioned"));
}

/// TCP senders get a table of their retransmissions and timeouts, and a transfer of a given
/// size its completion and its own throughput (L1: 1 MB through a 10 Mbit/s policer, whose
/// run lasts 45 s, so the run's goodput is far below the transfer's); a bulk sender without a
/// size shows "-" there; a run without TCP has no such table.
#[test]
fn tcp_senders_show_their_retransmissions_and_a_transfer_its_end() {
    let out = Command::new(env!("CARGO_BIN_EXE_celltrain"))
        .args(["run", "L1", "--quiet", "--set", "transfer=1 MB"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = table(&text, "tcp flow");
    assert_eq!(rows.len(), 1, "{text}");
    let cols: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(cols[0], "tcp", "{text}");
    let (done_s, transfer_mbps): (f64, f64) = (cols[5].parse().unwrap(), cols[6].parse().unwrap());
    assert!(done_s > 0.5 && done_s < 45.0, "1 MB at 10 Mbit/s ends within the run: {text}");
    assert!(
        (transfer_mbps - 8.0 / done_s).abs() < 0.01,
        "the transfer's throughput is its bytes over its time: {text}"
    );
    assert!(transfer_mbps > 1.0 && transfer_mbps <= 10.5, "{text}");
    // A bulk sender: counters, no end.
    let bulk = run(&["A3"]);
    let rows = table(&bulk, "tcp flow");
    assert_eq!(rows.len(), 5, "{bulk}");
    assert!(rows.iter().all(|r| r.split_whitespace().rev().take(2).all(|c| c == "-")), "{bulk}");
    assert!(!run(&["A1-udp"]).contains("tcp flow"));
}
