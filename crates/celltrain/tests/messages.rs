//! Messages for wrong input that name what to fix (issue 39, item 12): every key a table
//! takes, and the key whose value cannot become a file name.

use celltrain::scenario::{compile, compile_source, Source};

fn sets(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The keys the `[[switch]]` block of docs/scenarios.md shows: those set or commented out
/// (`key = …`) and those its comments name (snake_case words; "low/high_threshold" skipped).
fn documented_switch_keys() -> Vec<String> {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenarios.md")).unwrap();
    let block = docs.split("\n[[switch]]\n").nth(1).unwrap().split("\n[abr]").next().unwrap();
    let is_key = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let mut keys: Vec<String> = Vec::new();
    for line in block.lines() {
        if let Some((key, _)) = line.trim_start_matches(['#', ' ']).split_once(" = ") {
            keys.push(key.trim().to_string());
        }
        let words = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/'));
        keys.extend(words.filter(|w| w.contains('_') && !w.contains('/')).map(str::to_string));
    }
    keys.retain(|k| is_key(k));
    keys.sort();
    keys.dedup();
    keys
}

#[test]
fn a_misspelt_switch_key_lists_every_key_a_switch_takes() {
    let keys = documented_switch_keys();
    for documented in ["target_queue", "vc_threshold", "red_min_th", "red_weight", "low_threshold", "clp1_threshold"] {
        assert!(keys.iter().any(|k| k == documented), "the docs' switch block shows {documented}: {keys:?}");
    }
    // A4 is a UBR+EPD scenario: none of its switch's settings asks for ABR's, GFR's or RED's keys.
    let e = compile("A4", &sets(&[("switch.sw1.vc_treshold", "\"3 cells\"")]), None).err().expect("refused");
    let message = e.to_string();
    let listed = message.split("expected one of: ").nth(1).expect("a list").trim_end_matches(')');
    let listed: Vec<&str> = listed.split(", ").collect();
    for key in &keys {
        assert!(listed.contains(&key.as_str()), "'{key}' (in the docs) is not listed: {message}");
    }
    for also in ["binary_thresholds", "ni_threshold", "red_idle_unit", "vc_high_threshold", "buffer_packets"] {
        assert!(listed.contains(&also), "'{also}' is not listed: {message}");
    }
}

fn with_host_named(name: &str, record: &str) -> String {
    format!(
        r#"[scenario]
id = "t"
title = "t"
[simulation]
duration = "10 ms"
[[switch]]
name = "sw"
[[host]]
names = ["{name}", "dst"]
[[link]]
between = [["{name}", "sw"], ["sw", "dst"]]
rate = "10 Mbit/s"
delay = "1 us"
[[flow]]
name = "u"
path = ["{name}", "sw", "dst"]
app = {{ kind = "udp", rate = "1 Mbit/s", datagram = "1000 B" }}
[record]
{record}
"#
    )
}

#[test]
fn a_host_name_too_long_for_a_capture_file_is_refused_at_its_key() {
    let fits = "h".repeat(250);
    compile_source(Source::new("s.toml", with_host_named(&fits, &format!("pcap = [\"{fits}\"]"))), &[], None)
        .expect("250 bytes and .pcap make 255");
    let long = "h".repeat(251);
    let e = compile_source(Source::new("s.toml", with_host_named(&long, &format!("pcap = [\"{long}\"]"))), &[], None)
        .err()
        .expect("refused");
    assert_eq!(e.key, "record.pcap");
    assert!(e.message.contains("cannot name a capture file: it is longer than 250 bytes"), "{e}");
    // A link's capture is named after both its ends.
    let e = compile_source(
        Source::new("s.toml", with_host_named(&fits, &format!("pcap_links = [\"{fits}->sw\"]"))),
        &[],
        None,
    )
    .err()
    .expect("refused");
    assert_eq!(e.key, "record.pcap_links", "{e}");
}
