//! The differential test of the fast paths: every built-in scenario (run short) and random
//! variants of them, each run in the reference mode (every cell by events) and with each fast
//! path alone and all of them together. Every summary field must agree; only the event count,
//! the trace hash and the wall time may differ (the fast paths exist to save events).

use celltrain::builtin;
use celltrain::metrics::Summary;
use celltrain::network::SimOptions;
use celltrain::scenario::{compile_source, Source};

/// The fast-path sets compared with the reference: each alone (run admission and burst
/// hand-off need analytic ports, so they come with them), and all together.
fn option_sets() -> Vec<(&'static str, SimOptions)> {
    let none = SimOptions::reference();
    vec![
        ("analytic", SimOptions { analytic_ports: true, ..none }),
        ("carry", SimOptions { carry_ahead: true, ..none }),
        ("analytic+runs", SimOptions { analytic_ports: true, run_admission: true, ..none }),
        ("analytic+bursts", SimOptions { analytic_ports: true, burst_handoff: true, ..none }),
        ("all", SimOptions::default()),
    ]
}

/// Short versions of the built-ins (the differential test runs each six times).
fn short(name: &str) -> Vec<(&'static str, &'static str)> {
    match name {
        "E1-mux" => vec![("duration", "1 s"), ("warmup", "0.2 s"), ("n_rt", "8"), ("n_nrt", "8")],
        "A1-tcp" | "A2-ubr" | "A3" | "A5-tcp" | "A12-ubr" => vec![("duration", "1 s"), ("warmup", "0.3 s")],
        "E2" | "E3" | "E4" => vec![("duration", "2 s"), ("warmup", "0.5 s")],
        "T1" => vec![("duration", "1 s")],
        "V1" | "V2" | "V3" | "V4" | "V5" | "V6" | "V7" => vec![("duration", "10 s")],
        _ => vec![("duration", "0.3 s"), ("warmup", "0.1 s")],
    }
}

fn summary(file: &str, text: &str, sets: &[(String, String)], seed: u64, options: SimOptions) -> Option<Summary> {
    let c = compile_source(Source::new(file, text.to_string()), sets, Some(seed)).ok()?;
    let mut net = c.network;
    net.set_options(options);
    net.run(&mut |_| {});
    Some(Summary::from_network(&net, c.meta, 0.0))
}

/// Runs one scenario every way and checks it; `None` when it does not compile (a random draw
/// may not), else per option set whether it saved events (the fast path applied).
fn assert_fast_paths_exact(file: &str, text: &str, sets: &[(String, String)], seed: u64) -> Option<Vec<bool>> {
    let reference = summary(file, text, sets, seed, SimOptions::reference())?;
    let mut saved = Vec::new();
    for (label, options) in option_sets() {
        let mut fast = summary(file, text, sets, seed, options).expect("compiled once already");
        assert!(fast.events <= reference.events, "{file} {sets:?} seed {seed}, {label}: a fast path added events");
        saved.push(fast.events < reference.events);
        fast.events = reference.events;
        fast.trace_hash = reference.trace_hash.clone();
        if fast != reference {
            panic!("{file} {sets:?} seed {seed}: {label} differs from the reference\n{}", diff(&reference, &fast));
        }
    }
    Some(saved)
}

/// Adds one scenario's savings to the tally per option set.
fn tally(total: &mut [usize], saved: &[bool]) {
    for (t, &s) in total.iter_mut().zip(saved) {
        *t += usize::from(s);
    }
}

/// The fields that differ, as JSON lines.
fn diff(a: &Summary, b: &Summary) -> String {
    let (a, b) = (serde_json::to_string_pretty(a).unwrap(), serde_json::to_string_pretty(b).unwrap());
    let lines: Vec<String> = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .take(20)
        .map(|(i, (x, y))| format!("line {i}: reference {x} / fast {y}"))
        .collect();
    lines.join("\n")
}

fn owned(sets: &[(&str, &str)]) -> Vec<(String, String)> {
    sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn every_builtin_gives_the_reference_results_on_every_fast_path() {
    let mut extra = vec![
        ("T1", vec![("duration", "1 s"), ("mode", "packet")]),
        ("A5-udp", vec![("duration", "0.3 s"), ("warmup", "0.1 s"), ("n_sources", "15"), ("discard", "ppd")]),
        ("V1", vec![("duration", "10 s"), ("shaping", "dual"), ("adapter_rate", "10 Mbit/s")]),
        ("V1", vec![("duration", "10 s"), ("pdu_gap", "2 ms")]),
    ];
    let mut cases: Vec<(&str, Vec<(&str, &str)>)> = builtin::all().iter().map(|b| (b.name, short(b.name))).collect();
    cases.append(&mut extra);
    let mut applied = vec![0; option_sets().len()];
    for (name, sets) in cases {
        let text = builtin::find(name).unwrap().text;
        let saved = assert_fast_paths_exact(&format!("{name}.toml"), text, &owned(&sets), 1);
        tally(&mut applied, &saved.unwrap_or_else(|| panic!("{name} does not compile")));
    }
    // Each fast path must have been taken somewhere, or this test proves nothing about it.
    for ((label, _), n) in option_sets().iter().zip(&applied) {
        assert!(*n >= 3, "{label} saved events in only {n} built-ins");
    }
    eprintln!("built-ins where each fast path saved events: {applied:?}");
}

/// A small deterministic generator (xorshift), so CI sees the same draws every run.
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }
}

/// A random value for parameter `key` whose default is `default`: keywords from their set,
/// quantities scaled (same unit), counts redrawn small.
fn draw_param(d: &mut Draws, key: &str, default: &str) -> Option<String> {
    let v = match key {
        "duration" | "warmup" | "bytes" | "mode" | "start_jitter" => return None,
        "discard" => d.pick(&["tail-drop", "ppd", "epd"]).to_string(),
        "variant" => d.pick(&["tahoe", "reno", "newreno", "sack"]).to_string(),
        "shaping" => d.pick(&["off", "dual"]).to_string(),
        "delayed_ack" => d.pick(&["bsd", "off"]).to_string(),
        "n_sources" | "n_senders" | "n_connections" => (1 + d.below(6)).to_string(),
        "n_rt" | "n_nrt" => d.below(6).to_string(),
        "pdu_gap" => d.pick(&["0 s", "100 us", "1 ms"]).to_string(),
        _ => {
            let (number, unit) = default.split_once(' ').unwrap_or((default, ""));
            let x: f64 = number.parse().ok()?;
            let factor = [0.05, 0.2, 0.5, 1.0, 2.0, 4.0][d.below(6)];
            let scaled = x * factor;
            let scaled =
                if number.contains('.') { format!("{scaled:.3}") } else { format!("{}", scaled.round().max(1.0)) };
            if unit.is_empty() {
                scaled
            } else {
                format!("{scaled} {unit}")
            }
        }
    };
    Some(v)
}

/// The `[params]` of a scenario text: (key, default value without quotes).
fn params(text: &str) -> Vec<(String, String)> {
    let start = text.find("[params]").map_or(text.len(), |i| i + "[params]".len());
    let body = &text[start..];
    let body = &body[..body.find("\n[").unwrap_or(body.len())];
    body.lines()
        .filter_map(|line| {
            let line = line.split('#').next()?.trim();
            let (k, v) = line.split_once('=')?;
            Some((k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        })
        .collect()
}

/// Random variants of the built-ins: a few parameters redrawn, a random seed, sometimes the
/// adapter's preventive tagging on. Runs are very short, so that a few hundred fit in CI.
#[test]
fn random_scenarios_give_the_reference_results_on_every_fast_path() {
    let mut d = Draws(0x2545_F491_4F6C_DD1D);
    let names: Vec<&str> = builtin::all().iter().map(|b| b.name).collect();
    let (mut ran, mut tried) = (0, 0);
    let mut applied = vec![0; option_sets().len()];
    while tried < 240 {
        tried += 1;
        let name = names[d.below(names.len())];
        let mut text = builtin::find(name).unwrap().text.to_string();
        if name.starts_with('V') && d.below(3) == 0 {
            text = text
                .replace("conformance = \"vbr.1\"", "conformance = \"vbr.2\"")
                .replace("shaping = \"${shaping}\"", "shaping = \"${shaping}\"\npreventive_tagging = true");
        }
        if name == "E1-mux" && d.below(2) == 0 {
            // Sources slower than their VC's PCR: their adapters do not pace them.
            text = text.replacen("kind = \"onoff\",", "kind = \"onoff\", peak = \"12 Mbit/s\",", 1);
        }
        let mut sets: Vec<(String, String)> = short(name).iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        // A fifth to a half of the short run: the random cases are many.
        for (k, v) in &mut sets {
            if k == "duration" || k == "warmup" {
                let (n, unit) = v.split_once(' ').unwrap();
                let n: f64 = n.parse().unwrap();
                *v = format!("{} {unit}", n * [0.2, 0.3, 0.5][d.below(3)]);
            }
        }
        for (key, default) in params(&text) {
            if d.below(3) == 0 {
                if let Some(value) = draw_param(&mut d, &key, &default) {
                    sets.retain(|(k, _)| *k != key);
                    sets.push((key, value));
                }
            }
        }
        let seed = 1 + d.next() % 1000;
        if let Some(saved) = assert_fast_paths_exact(&format!("random-{name}.toml"), &text, &sets, seed) {
            ran += 1;
            tally(&mut applied, &saved);
        }
    }
    assert!(ran >= 150, "only {ran} of {tried} random scenarios compiled");
    for ((label, _), n) in option_sets().iter().zip(&applied) {
        assert!(*n >= 20, "{label} saved events in only {n} random scenarios");
    }
    eprintln!("random scenarios run: {ran}; where each fast path saved events: {applied:?}");
}
