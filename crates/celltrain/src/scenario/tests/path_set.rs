//! `--set` by dotted path reaches any key of a scenario.

use super::super::compile;
use super::*;

fn sets(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn loaded_with(text: &str, pairs: &[(&str, &str)]) -> Result<Loaded, ScenarioError> {
    load(src(text), &sets(pairs))
}

const TEXT: &str = r#"[scenario]
id = "p"
title = "p"
[params]
buffer = "100 cells"
[simulation]
duration = "1 s"
[[switch]]
name = "s{i}"
count = 2
buffer = "${buffer}"
[[switch]]
names = ["a", "b"]
[[flow]]
name = "f1"
app = { kind = "tcp", window_segments = 10 }
"#;

fn get<'a>(l: &'a Loaded, path: &[&str]) -> &'a Value {
    let mut node = l.root.get(path[0]).expect("section");
    for seg in &path[1..] {
        node = match (&node.value, seg.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => &items[i],
            (Value::Table(t), _) => t.get(seg).unwrap_or_else(|| panic!("no {seg}")),
            _ => panic!("cannot enter {seg}"),
        };
    }
    &node.value
}

#[test]
fn a_key_of_a_table_is_set_or_created() {
    let l = loaded_with(TEXT, &[("simulation.mode", "packet"), ("record.pcap", "[\"h1\"]")]).unwrap();
    assert_eq!(get(&l, &["simulation", "mode"]), &Value::Str("packet".into()));
    let Value::Array(items) = get(&l, &["record", "pcap"]) else { panic!("an array") };
    assert_eq!(items[0].value, Value::Str("h1".into()));
    // Recorded beside the parameters, for the summary.
    assert!(l.params.iter().any(|(n, v)| n == "simulation.mode" && *v == ParamValue::Str("packet".into())));
}

#[test]
fn elements_are_entered_by_name_template_names_position_or_star() {
    let l = loaded_with(TEXT, &[("switch.s2.buffer", "\"7 cells\"")]).unwrap();
    assert_eq!(get(&l, &["switch", "0", "buffer"]), &Value::Str("7 cells".into()), "template s{{i}} matches s2");
    let l = loaded_with(TEXT, &[("switch.b.buffer", "9")]).unwrap();
    assert_eq!(get(&l, &["switch", "1", "buffer"]), &Value::Int(9));
    let l = loaded_with(TEXT, &[("switch.2.discard", "epd")]).unwrap();
    assert_eq!(get(&l, &["switch", "1", "discard"]), &Value::Str("epd".into()));
    let l = loaded_with(TEXT, &[("switch.*.queueing", "per-vc")]).unwrap();
    for k in ["0", "1"] {
        assert_eq!(get(&l, &["switch", k, "queueing"]), &Value::Str("per-vc".into()));
    }
    let l = loaded_with(TEXT, &[("flow.f1.app.window_segments", "20")]).unwrap();
    assert_eq!(get(&l, &["flow", "0", "app", "window_segments"]), &Value::Int(20));
}

#[test]
fn an_override_replaces_a_parameter_use_and_arrays_can_grow() {
    let l = loaded_with(TEXT, &[("buffer", "\"5 cells\""), ("switch.s1.buffer", "\"6 cells\"")]).unwrap();
    assert_eq!(get(&l, &["switch", "0", "buffer"]), &Value::Str("6 cells".into()));
    let l = loaded_with(TEXT, &[("record.pcap", "[\"h1\"]"), ("record.pcap+", "[\"h2\"]")]).unwrap();
    let Value::Array(items) = get(&l, &["record", "pcap"]) else { panic!("an array") };
    assert_eq!(items.len(), 2);
}

#[test]
fn mistakes_name_the_path() {
    let e = loaded_with(TEXT, &[("switch.nosuch.buffer", "3")]).unwrap_err().to_string();
    assert!(e.contains("switch.nosuch.buffer") && e.contains("no [[switch]] named"), "{e}");
    let e = loaded_with(TEXT, &[("simulation.duration.x", "3")]).unwrap_err().to_string();
    assert!(e.contains("not a table"), "{e}");
    let e = loaded_with(TEXT, &[("switch.buffer", "3")]).unwrap_err().to_string();
    assert!(e.contains("switch.NAME.KEY"), "{e}");
    // A misspelt key is found by the builder, at the line of the table it was put in.
    let e = compile("A4", &sets(&[("switch.sw1.bufer", "3")]), None).err().expect("an error").to_string();
    assert!(e.contains("switch[1].bufer: unknown key"), "{e}");
}

#[test]
fn a_builtin_runs_in_packet_mode_by_path() {
    let c = compile("A3", &sets(&[("simulation.mode", "packet")]), None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.network.mode(), crate::network::Mode::Packet);
    assert!(c.meta.warnings.iter().any(|w| w.contains("switch[1].discard: ignored in packet mode")));
}

#[test]
fn an_integer_too_large_for_64_bits_is_named_as_such() {
    let huge = "99999999999999999999999";
    for (name, key) in [("buffer", "params.buffer"), ("simulation.seed", "simulation.seed")] {
        let e = loaded_with(TEXT, &[(name, huge)]).expect_err("refused").to_string();
        assert_eq!(
            e,
            format!("s.toml: {key}: --set: the integer {huge} is too large (integers are 64-bit: 9223372036854775807 at the most)")
        );
    }
    let e = loaded_with(TEXT, &[("simulation.seed", "-99_999_999_999_999_999_999")]).expect_err("refused");
    assert!(e.to_string().contains("is too small"), "{e}");
    // In range, or not an integer at all: as before.
    assert!(loaded_with(TEXT, &[("simulation.seed", "9223372036854775807")]).is_ok());
    assert!(loaded_with(TEXT, &[("buffer", "\"99999999999999999999999 cells\"")]).is_ok());
}
