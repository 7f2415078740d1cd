//! The command line as a user meets it: exit codes, one-line errors naming file, line and
//! key, result files, determinism.

mod common;

use common::{celltrain, json, root, stderr};
use std::path::Path;
use std::process::Command;

/// Every file in tests/bad-scenarios declares on its first line `# expect: LINE: KEY: TEXT`;
/// `celltrain check` must exit with 2 and print exactly one line
/// `error: FILE:LINE: KEY: …TEXT…`.
#[test]
fn bad_scenarios_give_one_line_errors_and_exit_code_2() {
    let dir = root().join("tests/bad-scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 12, "the bad-input table lost cases");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let expect =
            text.lines().next().unwrap().strip_prefix("# expect: ").expect("first line declares the expectation");
        let (line, rest) = expect.split_once(": ").unwrap();
        let (key, message) = rest.split_once(": ").unwrap();
        let rel = format!("tests/bad-scenarios/{}", file.file_name().unwrap().to_string_lossy());
        for command in ["check", "run"] {
            let out = celltrain(
                &[command, &rel, "--quiet"]
                    .iter()
                    .copied()
                    .filter(|a| command == "run" || *a != "--quiet")
                    .collect::<Vec<_>>(),
            );
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{rel} ({command}): exit code; stderr: {err}");
            assert_eq!(err.lines().count(), 1, "{rel}: one line, got: {err}");
            let prefix = format!("error: {rel}:{line}: {key}: ");
            assert!(err.starts_with(&prefix), "{rel}: expected prefix {prefix:?}, got {err:?}");
            assert!(err.contains(message), "{rel}: expected {message:?} in {err:?}");
            assert!(out.stdout.is_empty(), "{rel}: nothing on stdout");
        }
    }
}

#[test]
fn the_minimal_good_scenario_passes_check() {
    let out = celltrain(&["check", "tests/good-minimal.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn unknown_scenarios_and_parameters_exit_with_2() {
    let out = celltrain(&["run", "no-such-scenario"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no built-in scenario of that name"));
    let out = celltrain(&["check", "A4", "--set", "n_sourcez=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("params.n_sourcez"), "{}", stderr(&out));
    assert!(stderr(&out).contains("unknown parameter 'n_sourcez'"), "{}", stderr(&out));
    let out = celltrain(&["check", "A4", "--set", "n_sources"]);
    assert_eq!(out.status.code(), Some(2));
    let out = celltrain(&["check", "A4", "--set", "buffer=12 cellz"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1);
}

/// An experiment of the paper reproductions that is no scenario of its own says how it is run,
/// in one line, exit 2 and no result written.
#[test]
fn a_report_experiment_given_as_a_scenario_says_how_it_is_run() {
    let out_dir = std::env::temp_dir().join(format!("celltrain-t3-{}", std::process::id()));
    let out = celltrain(&["run", "T3", "--out", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: T3: (scenario): T3 ("), "{err}");
    assert!(err.contains("`celltrain reproduce T3`") && err.contains("built-in T1"), "{err}");
    assert!(!out_dir.exists(), "no result for a run that did not happen");
}

/// A title follows the parameters that change it: A3 over ABR does not say UBR+EPD.
#[test]
fn the_title_follows_the_service_parameter() {
    let out = celltrain(&["run", "A3", "--set", "service=abr", "--set", "duration=0.2 s", "--set", "warmup=0.1 s"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let title = text.lines().next().unwrap_or_default();
    assert_eq!(title, "A3 — 5 TCP sources over ABR (ERICA+), end-to-end ATM, two-node");
    let out = celltrain(&["run", "A3", "--set", "n_sources=2", "--set", "duration=0.2 s", "--set", "warmup=0.1 s"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("A3 — 2 TCP sources over UBR+EPD,"), "{text}");
}

#[test]
fn list_shows_every_builtin() {
    let out = celltrain(&["list"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for name in ["A1-udp", "A4", "A5-udp", "E1-mux"] {
        assert!(text.contains(name), "{name} missing from list");
    }
}

/// Issue 39, item 13: `list` and every built-in's text (`show`: its header and `source`) name
/// the papers by id; "seed" is the random seed's word only.
#[test]
fn list_and_show_name_papers_by_id_not_as_seeds() {
    let list = String::from_utf8(celltrain(&["list"]).stdout).unwrap();
    assert!(list.contains("A3         MSc98"), "{list}");
    let mut texts = vec![("list".to_string(), list)];
    for b in celltrain::builtin::all() {
        let out = celltrain(&["show", b.name]);
        assert_eq!(out.status.code(), Some(0), "show {}", b.name);
        texts.push((b.name.to_string(), String::from_utf8(out.stdout).unwrap()));
    }
    for (name, text) in texts {
        for line in text.lines() {
            assert!(!names_a_paper_as_seed(line), "{name}: a paper named as a seed: {line}");
        }
    }
    let a3 = String::from_utf8(celltrain(&["show", "A3"]).stdout).unwrap();
    assert!(a3.contains("source = \"MSc98, Table 5.3\""), "{a3}");
}

/// "seed" followed by a paper's old number (`0…`) or by "paper": the random seed's word used
/// for a paper ("seed = 1", "(seeded)", "from the seed" are the random seed).
fn names_a_paper_as_seed(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.match_indices("seed").any(|(at, word)| {
        let rest = lower[at + word.len()..].trim_start_matches('s').trim_start_matches([' ', '-', '_']);
        rest.starts_with('0') || rest.starts_with("paper")
    })
}

#[test]
fn a_paper_named_as_a_seed_is_recognised() {
    let (old, seed) = ("seed", "seed = 1");
    for line in [format!("({old} 001 §5.3)"), format!("{old}-000's timer"), format!("the {old} papers")] {
        assert!(names_a_paper_as_seed(&line), "{line}");
    }
    for line in [seed, "random start offset (seeded)", "drawn from the seed", "MSc98 §5.3"] {
        assert!(!names_a_paper_as_seed(line), "{line}");
    }
}

#[test]
fn run_writes_a_complete_summary_and_is_deterministic() {
    let tmp = std::env::temp_dir().join(format!("celltrain-cli-test-{}", std::process::id()));
    let out_dir = tmp.join("a");
    let args = [
        "run",
        "A4",
        "--set",
        "duration=0.3 s",
        "--set",
        "warmup=0.1 s",
        "--set",
        "start_jitter=1 ms",
        "--quiet",
        "--out",
    ];
    let first = celltrain(&[&args[..], &[out_dir.to_str().unwrap()]].concat());
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap()).unwrap();
    for key in [
        "scenario",
        "seed",
        "params",
        "duration_s",
        "warmup_s",
        "aggregate",
        "flows",
        "vcs",
        "ports",
        "events",
        "wall_s",
        "trace_hash",
    ] {
        assert!(summary.get(key).is_some(), "summary.json lacks {key}");
    }
    for key in ["goodput_bps", "max_goodput_bps", "efficiency", "fairness_index"] {
        assert!(summary["aggregate"].get(key).is_some(), "aggregate lacks {key}");
    }
    assert_eq!(summary["flows"].as_array().unwrap().len(), 5);
    assert_eq!(summary["params"]["duration"], "0.3 s");
    for f in ["flows.csv", "vcs.csv", "ports.csv"] {
        assert!(out_dir.join(f).is_file(), "{f} missing");
    }
    // Same seed: identical trace hash; another seed changes the random start offsets.
    let again = celltrain(&[&args[..], &[tmp.join("b").to_str().unwrap()]].concat());
    assert_eq!(again.status.code(), Some(0));
    let hash = |d: &str| -> String {
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(tmp.join(d).join("summary.json")).unwrap()).unwrap();
        s["trace_hash"].as_str().unwrap().to_string()
    };
    assert_eq!(hash("a"), hash("b"));
    let other = celltrain(&[&args[..], &[tmp.join("c").to_str().unwrap(), "--seed", "2"]].concat());
    assert_eq!(other.status.code(), Some(0));
    assert_ne!(hash("a"), hash("c"));
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `segments_retransmitted` of flow `name` in the run written to `out`.
fn retransmitted_segments(out: &Path, name: &str) -> u64 {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let flow = summary["flows"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone();
    flow["segments_retransmitted"].as_u64().unwrap()
}

/// How many packets of the capture `file` tshark's display `filter` matches.
fn tshark_count(file: &Path, filter: &str) -> u64 {
    let o = Command::new("tshark").args(["-r", file.to_str().unwrap(), "-Y", filter]).output().unwrap();
    assert!(o.status.success(), "tshark failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).lines().count() as u64
}

/// A lossy TCP run captured at the sender: the pcap is well formed, and tshark's TCP analysis
/// counts the same retransmissions as the summary (skipped, with a message, without tshark).
#[test]
fn pcap_capture_agrees_with_tshark() {
    let tmp = std::env::temp_dir().join(format!("celltrain-pcap-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let scenario = tmp.join("e2rec.toml");
    let text = std::fs::read_to_string(root().join("scenarios/E2.toml")).unwrap()
        + "\n[record]\npcap = [\"src1\"]\npcap_links = [\"fore->vp\"]\ninterval = \"10 ms\"\nflows = [\"tcp1\"]\nports = [\"fore->vp\"]\n";
    std::fs::write(&scenario, text).unwrap();
    let out = tmp.join("out");
    let run = celltrain(&[
        "run",
        scenario.to_str().unwrap(),
        "--set",
        "buffer=1200 cells",
        "--set",
        "warmup=0 s",
        "--set",
        "duration=10 s",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let retransmitted = retransmitted_segments(&out, "tcp1");
    assert!(retransmitted > 0, "the small buffer must cause retransmissions");
    let pcap = std::fs::read(out.join("src1.pcap")).unwrap();
    assert_eq!(&pcap[..4], &0xa1b2_3c4du32.to_le_bytes(), "nanosecond pcap magic");
    let series = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    assert!(series.starts_with(
        "time_s,tcp1.cwnd_bytes,tcp1.ssthresh_bytes,tcp1.rto_s,tcp1.srtt_s,tcp1.rtt_s,fore->vp.queue_cells\n"
    ));
    assert!(series.lines().count() > 900, "one row per 10 ms over 10 s");
    let Ok(tshark) = Command::new("tshark").arg("-v").output() else {
        eprintln!("SKIPPED pcap_capture_agrees_with_tshark's tshark part: tshark is not installed");
        return;
    };
    assert!(tshark.status.success());
    let file = out.join("src1.pcap");
    let count = |filter: &str| tshark_count(&file, filter);
    assert_eq!(count("_ws.malformed"), 0, "malformed packets");
    assert_eq!(count("tcp.analysis.retransmission && tcp.srcport == 1024"), retransmitted);
    // The bottleneck link's capture: both flows' data, well formed.
    let link = out.join("fore_vp.pcap");
    let o = Command::new("tshark").args(["-r", link.to_str().unwrap(), "-Y", "_ws.malformed"]).output().unwrap();
    assert!(o.status.success() && o.stdout.is_empty(), "malformed packets on the link capture");
    let o = Command::new("tshark")
        .args(["-r", link.to_str().unwrap(), "-T", "fields", "-e", "tcp.srcport"])
        .output()
        .unwrap();
    let ports: std::collections::BTreeSet<String> =
        String::from_utf8_lossy(&o.stdout).lines().map(str::to_string).collect();
    assert!(ports.len() >= 2, "both connections cross the bottleneck: {ports:?}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Every TCP variant (the Vegas family and adaptive fast retransmit included), on AD97's
/// topology with a small buffer: the sender's
/// capture shows exactly the retransmissions the summary counts. Wireshark labels a
/// retransmission sent soon after the segment before it (SACK, NewReno partial ACKs)
/// "out-of-order" rather than "retransmission"; on the sender's own capture both mean a
/// segment below the highest sequence number sent, so both are counted.
#[test]
fn every_tcp_variant_retransmits_what_tshark_sees() {
    if Command::new("tshark").arg("-v").output().is_err() {
        eprintln!("SKIPPED every_tcp_variant_retransmits_what_tshark_sees: tshark is not installed");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("celltrain-variants-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let scenario = tmp.join("t1rec.toml");
    let text = std::fs::read_to_string(root().join("scenarios/T1.toml")).unwrap() + "\n[record]\npcap = [\"S1\"]\n";
    std::fs::write(&scenario, text).unwrap();
    for variant in
        ["tahoe", "reno", "lite", "newreno", "sack", "lite-afr", "vegas-rm", "vegas-rm-afr", "vegas", "vegas-afr"]
    {
        let out = tmp.join(variant);
        // Vegas's congestion avoidance keeps 1000 cells loss-free for 4 s: half as many.
        let buffer = if variant.starts_with("vegas") { "buffer=500 cells" } else { "buffer=1000 cells" };
        let sets = [format!("variant={variant}"), buffer.into(), "duration=4 s".into()];
        let mut args = vec!["run", scenario.to_str().unwrap(), "--quiet", "--out", out.to_str().unwrap()];
        for s in &sets {
            args.extend(["--set", s.as_str()]);
        }
        let run = celltrain(&args);
        assert_eq!(run.status.code(), Some(0), "{variant}: {}", stderr(&run));
        let retransmitted = retransmitted_segments(&out, "tcp1");
        assert!(retransmitted > 0, "{variant}: the small buffer must cause retransmissions");
        let file = out.join("S1.pcap");
        let filter = "(tcp.analysis.retransmission || tcp.analysis.out_of_order) && tcp.len > 0";
        assert_eq!(tshark_count(&file, filter), retransmitted, "{variant}: tshark vs summary");
        assert_eq!(tshark_count(&file, "_ws.malformed"), 0, "{variant}: malformed packets");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// BKD97's packet-train calculator: 192-cell PDUs (MTU 9188) at SCR 10 Mbit/s, PCR line
/// rate, MBS 1000: a whole PDU is accepted again after 192 · (42.4 − 2.726) µs ≈ 7.6 ms.
#[test]
fn gcra_train_calculator() {
    let out = celltrain(&["gcra", "train", "--scr", "10 Mbit/s", "--mbs", "1000", "--mtu", "9188", "--gap", "376 us"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("c = 192 cells/PDU"), "{text}");
    assert!(text.contains("eq. (2): 5 PDUs"), "{text}");
    assert!(text.contains("whole PDU is accepted: 7.617343296ms"), "{text}");
    // The host's inter-AAL-SDU time instead: 900 µs less 192 cells at T_PCR leaves I_p ≈ 376 µs.
    let out =
        celltrain(&["gcra", "train", "--scr", "10 Mbit/s", "--mbs", "1000", "--mtu", "9188", "--inter-pdu", "900 us"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("I_p = 376.543296us") && text.contains("eq. (2): 5 PDUs"), "{text}");
    let bad = celltrain(&["gcra", "train", "--scr", "200 Mbit/s", "--mbs", "1000", "--mtu", "9188"]);
    assert_eq!(bad.status.code(), Some(2), "SCR above PCR is bad input");
    assert_eq!(stderr(&bad).lines().count(), 1);
}

/// `bench` on an internetwork (LANs behind edge routers on an ATM backbone) reports its
/// packet-hops first, as a packet network's, and then its cells, which are most of its work;
/// a cell network reports its cells alone.
#[test]
fn bench_reports_an_internetworks_cells_beside_its_packets() {
    let count = |text: &str, unit: &str| -> u64 {
        let at = text.find(&format!(" {unit}")).unwrap_or_else(|| panic!("no {unit} in {text}"));
        text[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    let out = celltrain(&["bench", "A10-udp", "--set", "duration=20 ms", "--set", "warmup=5 ms", "--repeat", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(count(first, "packet-hops,") > 0, "{text}");
    let cells = text.lines().find(|l| l.trim_start().starts_with("cells: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(count(cells, "cell-hops") > count(first, "packet-hops,"), "{text}");
    let out = celltrain(&["bench", "A4", "--set", "duration=20 ms", "--set", "warmup=5 ms", "--repeat", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(count(&text, "cell-hops,") > 0 && !text.contains("cells: "), "{text}");
}

/// `--without NAME` turns one fast path off: the same results, and the same events where the
/// fast path saves none (fan-in groups keep every event's place), more where it does
/// (carrying ahead); an unknown name is refused with the names there are.
#[test]
fn a_fast_path_turned_off_gives_the_same_results() {
    let run = |extra: &[&str]| {
        let args = [&["run", "benches/twins/a-onoff-mux.toml", "--set", "duration=50 ms", "--json", "--quiet"], extra];
        let out = celltrain(&args.concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let mut summary = json(&out);
        summary.as_object_mut().unwrap().remove("wall_s");
        summary
    };
    let plain = run(&[]);
    assert_eq!(run(&["--without", "fan-in"]), plain);
    let mut carried = run(&["--without", "carry"]);
    assert!(carried["events"].as_u64() > plain["events"].as_u64(), "carrying saved no event");
    let object = carried.as_object_mut().unwrap();
    for key in ["events", "trace_hash"] {
        object.insert(key.into(), plain[key].clone());
    }
    assert_eq!(carried, plain);
    let out = celltrain(&["bench", "A4", "--without", "carry-ahead"]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(text.contains("'carry-ahead'") && text.contains("queues-ahead"), "{text}");
}
