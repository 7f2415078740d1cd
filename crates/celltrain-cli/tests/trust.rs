//! Results a user can trust: a number that cannot be measured is reported as undefined with a
//! warning, never as a plausible value.

mod common;

use common::{celltrain, json, root, stderr};
use std::process::Command;

/// Jain's index of flows that all delivered nothing is undefined, not 1.0 ("perfectly fair").
#[test]
fn fairness_of_flows_that_delivered_nothing_is_null_with_a_warning() {
    let out = celltrain(&["run", "tests/trust/nothing-delivered.toml", "--json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = json(&out);
    assert!(summary["aggregate"]["fairness_index"].is_null(), "{}", summary["aggregate"]);
    let warnings = summary["warnings"].as_array().expect("a warnings list");
    assert!(warnings.iter().any(|w| w.as_str().unwrap().contains("no flow delivered anything")), "{warnings:?}");
    assert!(stderr(&out).contains("warning: no flow delivered anything"), "{}", stderr(&out));
}

/// A run whose flows deliver has a defined index and no warning (the list is left out).
#[test]
fn a_run_that_delivers_has_no_warnings() {
    let out = celltrain(&["run", "tests/good-minimal.toml", "--json", "--quiet"]);
    let summary = json(&out);
    assert!(summary["aggregate"]["fairness_index"].as_f64().is_some());
    assert!(summary.get("warnings").is_none(), "{}", summary["warnings"]);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// Packet mode's switches are drop-tail FIFO routers: EPD and per-VC queueing asked of one are
/// accepted (a scenario switches modes with one `--set`) but each gives a warning with its
/// file, line and key, from `check` and from `run` (stderr and summary.json).
#[test]
fn switch_keys_packet_mode_ignores_are_warned_about_with_file_line_and_key() {
    let file = "tests/trust/packet-mode-epd.toml";
    let expected = [(11, "discard"), (12, "epd_threshold"), (13, "queueing")];
    let out = celltrain(&["check", file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    for (line, key) in expected {
        let want = format!("warning: {file}:{line}: switch[1].{key}: ignored in packet mode");
        assert!(err.contains(&want), "{want:?} in {err}");
    }
    assert!(!err.contains("buffer"), "the buffer is used: {err}");
    let out = celltrain(&["run", file, "--json", "--quiet"]);
    let warnings = json(&out)["warnings"].as_array().expect("warnings").clone();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    // The same keys in cell mode are used: no warning.
    let text = std::fs::read_to_string(root().join(file)).unwrap().replace("mode = \"packet\"", "mode = \"cell\"");
    let cell = std::env::temp_dir().join(format!("celltrain-cell-epd-{}.toml", std::process::id()));
    std::fs::write(&cell, text).unwrap();
    let out = celltrain(&["check", cell.to_str().unwrap()]);
    std::fs::remove_file(&cell).ok();
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
}

/// Ctrl-C (SIGINT) stops a long run within a fraction of a second, exits 130 and leaves no
/// result file and no cut-off capture behind.
#[test]
fn sigint_stops_a_run_promptly_writes_nothing_and_exits_130() {
    let out = common::fresh_dir("sigint");
    let mut child = Command::new(env!("CARGO_BIN_EXE_celltrain"))
        .args(["run", "tests/trust/long-capture.toml", "--quiet", "--out", out.to_str().unwrap()])
        .current_dir(root())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // Well into the run: the capture file is open (in the run's staging directory, which is
    // moved into place only when the run completes).
    let capture = out.join(format!(".celltrain-staging-{}", child.id())).join("h1.pcap");
    let started = std::time::Instant::now();
    while !capture.exists() && started.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(capture.exists() && child.try_wait().unwrap().is_none(), "the run is under way");
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let signalled = std::time::Instant::now();
    let status = child.wait().expect("exits");
    let took = signalled.elapsed();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(took.as_millis() < 500, "stopped {took:?} after SIGINT");
    assert!(err.contains("interrupted"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&out).map(|d| d.map(|e| e.unwrap().file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "nothing half-finished is left: {left:?}");
    let _ = std::fs::remove_dir_all(&out);
}

/// `--set` reaches any key by its dotted path; `--pcap HOST` and `--record INTERVAL` are
/// shortcuts for the [record] keys; dotted overrides are recorded with the parameters.
#[test]
fn dotted_set_and_the_record_shortcuts() {
    let out = common::fresh_dir("shortcuts");
    let o = celltrain(&[
        "run",
        "A1-udp",
        "--quiet",
        "--json",
        "--set",
        "duration=\"0.1 s\"",
        "--set",
        "warmup=\"0 s\"",
        "--set",
        "switch.sw1.buffer=\"2000 cells\"",
        "--pcap",
        "src1",
        "--record",
        "1 ms",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = json(&o);
    assert_eq!(summary["params"]["switch.sw1.buffer"], "2000 cells");
    for file in ["src1.pcap", "timeseries.csv", "summary.json"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let _ = std::fs::remove_dir_all(&out);
    let o = celltrain(&["check", "A4", "--set", "simulation.mode=pakket"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("simulation.mode: unknown value \"pakket\""), "{}", stderr(&o));
}

/// `check --expand` prints the network a scenario expands to; `--dot` writes it for Graphviz.
#[test]
fn check_expand_and_dot_show_the_expanded_network() {
    let o = celltrain(&["check", "A7-tcp", "--expand"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    for want in ["nodes (20)", "ports (38", "s0->s1", "VCs (16)", "vc1-ack", "h1->s0 s0->s1 s1->s2 s2->s3 s3->d1"] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    assert!(text.contains("bottleneck s0->s1"), "{text}");
    let o = celltrain(&["check", "A4", "--dot", "-"]);
    let graph = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(graph.starts_with("digraph celltrain {") && graph.trim_end().ends_with('}'), "{graph}");
    assert!(graph.contains("\"sw1\" -> \"sw2\"") && graph.contains("color=red"), "{graph}");
    // Every port is an edge (A4: 11 duplex links).
    assert_eq!(graph.matches(" -> ").count(), 22, "{graph}");
    assert!(stderr(&o).contains("A4: ok"), "the verdict leaves stdout to the graph");
}

/// A packet port's policy in `check --expand` is the one the run's summary reports: push-out
/// where the router serves by priority, tail drop elsewhere.
#[test]
fn check_expand_names_a_packet_ports_policy_as_the_summary_does() {
    let shown = celltrain(&["show", "T1"]);
    let text = String::from_utf8(shown.stdout).unwrap().replace("queueing = \"fifo\"", "queueing = \"priority\"");
    let file = std::env::temp_dir().join(format!("celltrain-priority-{}.toml", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let o = celltrain(&["check", file.to_str().unwrap(), "--expand", "--set", "mode=packet"]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let policy = |port: &str| text.lines().find(|l| l.trim_start().starts_with(port)).map(|l| l.trim_end().to_string());
    assert!(policy("R1->S1 ").is_some_and(|l| l.ends_with("push-out")), "{text}");
    assert!(policy("S1->R1 ").is_some_and(|l| l.ends_with("tail-drop")), "{text}");
}

/// `celltrain completions bash` gives a script bash can load and complete with, offering the
/// Python front's commands too.
#[test]
fn bash_completion_completes_commands_and_options() {
    let o = celltrain(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = std::env::temp_dir().join(format!("celltrain-completion-{}.bash", std::process::id()));
    std::fs::write(&script, &o.stdout).unwrap();
    let complete = |words: &str| {
        let probe = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             _celltrain celltrain \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\"; echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = Command::new("bash").args(["-c", &probe]).output().expect("bash runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let commands = complete("celltrain ''");
    for c in ["run", "check", "completions", "sweep", "reproduce"] {
        assert!(commands.split_whitespace().any(|w| w == c), "{c} in {commands}");
    }
    let options = complete("celltrain check --ex");
    assert!(options.contains("--expand"), "{options}");
    std::fs::remove_file(&script).ok();
    for shell in ["zsh", "fish"] {
        let o = celltrain(&["completions", shell]);
        assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("expand"), "{shell}");
    }
}

/// On a non-terminal (a batch log) a long run prints one progress line now and then.
#[test]
fn a_long_run_prints_progress_lines_to_a_log() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_celltrain"))
        .args(["run", "tests/trust/long-capture.toml"])
        .env("CELLTRAIN_PROGRESS_SECONDS", "0.1")
        .current_dir(root())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(std::time::Duration::from_millis(800));
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    child.wait().unwrap();
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(lines[0].contains("% ") && lines[0].contains("of 1000.000 s") && lines[0].contains("eta"), "{err}");
}

/// Captures come with `addresses.csv`: the IP address of every node and the ports of every
/// flow, the very ones the packets in the capture carry.
#[test]
fn the_address_map_beside_captures_matches_the_packets() {
    let out = common::fresh_dir("addresses");
    let o = celltrain(&[
        "run",
        "A1-tcp",
        "--quiet",
        "--set",
        "duration=\"0.05 s\"",
        "--set",
        "warmup=\"0 s\"",
        "--pcap",
        "src1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let map = std::fs::read_to_string(out.join("addresses.csv")).expect("the address map");
    let row = |name: &str| -> Vec<String> {
        let line =
            map.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap_or_else(|| panic!("{name} in {map}"));
        line.split(',').map(str::to_string).collect()
    };
    assert_eq!(row("src1")[1], "host");
    let flow = row("tcp1");
    assert_eq!((flow[1].as_str(), flow[4].as_str()), ("tcp flow", "dst1"));
    // The first record of the capture: 24-byte file header, 16-byte record header, IPv4.
    let pcap = std::fs::read(out.join("src1.pcap")).unwrap();
    let ip = &pcap[40..];
    let addr = |b: &[u8]| format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
    assert_eq!(addr(&ip[12..16]), flow[2], "source address");
    assert_eq!(addr(&ip[16..20]), flow[5], "destination address");
    let ihl = usize::from(ip[0] & 0x0f) * 4;
    let port = |b: &[u8]| u16::from_be_bytes([b[0], b[1]]).to_string();
    assert_eq!(port(&ip[ihl..]), flow[3], "source port");
    assert_eq!(port(&ip[ihl + 2..]), flow[6], "destination port");
    assert_eq!(row("src1")[2], flow[2]);
    let _ = std::fs::remove_dir_all(&out);
}

/// On a parking lot (A7: VCs 1 and 2 cross three links, local pairs one each) efficiency
/// counts the flows crossing each link: never above 100 %, the aggregate's equal to its
/// bottleneck port's, and every port has its own utilisation.
#[test]
fn efficiency_is_per_bottleneck_over_the_flows_crossing_it() {
    let o =
        celltrain(&["run", "A7-udp", "--json", "--quiet", "--set", "duration=\"1 s\"", "--set", "warmup=\"0.2 s\""]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json(&o);
    let a = &s["aggregate"];
    let efficiency = a["efficiency"].as_f64().unwrap();
    assert!(efficiency <= 1.001, "{a}");
    assert!(
        a["goodput_bps"].as_f64().unwrap() > a["max_goodput_bps"].as_f64().unwrap(),
        "flows elsewhere count in goodput"
    );
    let ports = s["ports"].as_array().unwrap();
    let bottleneck = ports.iter().find(|p| p["name"] == a["bottleneck"]).expect("the bottleneck port");
    assert!((bottleneck["efficiency"].as_f64().unwrap() - efficiency).abs() < 1e-12);
    for p in ports {
        assert!(p["utilization"].as_f64().is_some(), "{}", p["name"]);
        if let Some(e) = p["efficiency"].as_f64() {
            assert!((0.0..=1.001).contains(&e), "{}: {e}", p["name"]);
        }
    }
    // Ports no packet flow crosses have no efficiency.
    assert!(ports.iter().any(|p| p["efficiency"].is_null()));
}

/// The docs' worked custom topology runs: the parking lot expands to three switches and eight
/// links, and its long flow, crossing both bottlenecks, gets less than either cross flow.
#[test]
fn the_worked_parking_lot_example_runs() {
    let o = celltrain(&["check", "examples/parking-lot.toml", "--expand"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("ports (16") && text.contains("long->s1 s1->s2 s2->s3 s3->long-dst"), "{text}");
    let o = celltrain(&["run", "examples/parking-lot.toml", "--json", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = json(&o);
    let goodput = |name: &str| {
        s["flows"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap()["goodput_bps"].as_f64().unwrap()
    };
    assert!(goodput("long") < goodput("x1") && goodput("long") < goodput("x2"), "{}", s["flows"]);
    assert!(s["aggregate"]["efficiency"].as_f64().unwrap() <= 1.001);
}

/// The MSc98 fabric variant of A3 in `examples/` (cited by a finding of the reproduction)
/// runs, and its fabric hops lose no cell, as the finding says.
#[test]
fn the_fabric_example_runs_and_its_core_loses_nothing() {
    let o = celltrain(&["run", "examples/A3-fabric.toml", "--set", "duration=2 s", "--json", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = json(&o);
    let ports = summary["ports"].as_array().expect("ports");
    let core = |name: &str| ports.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{name}"));
    assert_eq!(core("core1->sw1")["dropped_total"], 0);
    assert!(core("core1->sw1")["cells_out"].as_u64().unwrap() > 100_000);
    assert!(core("sw1->core2")["dropped_total"].as_u64().unwrap() > 0, "the EPD port drops");
}
