//! Mutation fuzzing: damaged scenario text must give one-line errors, never a panic.

use super::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

const BASE: &str = r#"[scenario]
id = "A4"
title = "UDP over UBR+EPD, end-to-end ATM, two-node"

[params]
n_sources = 3
buffer = "8192 cells"
rate = "149.76 Mbit/s"

[simulation]
duration = "2 s"
warmup = "0.5 s"
seed = 1

[[switch]]
names = ["sw1", "sw2"]
port = { buffer = "${buffer}", discard = "epd", epd_threshold = "7000 cells", load = "90 %" }

[[host]]
names = "src{i}"
count = "${n_sources}"
[[host]]
names = "dst{i}"
count = "${n_sources}"

[[link]]
between = [["src{i}", "sw1"], ["sw2", "dst{i}"]]
count = "${n_sources}"
rate = "${rate}"
delay = "50 us"
[[link]]
between = [["sw1", "sw2"]]
rate = "${rate}"
delay = "5 ms"

[[flow]]
name = "udp{i}-of-${n_sources}"
count = "${n_sources}"
path = ["src{i}", "sw1", "sw2", "dst{i}"]
vc = { category = "ubr", pcr = "line" }
app = { kind = "udp", rate = "line", datagram = "9140 B", share = 0.5 }

[record]
queues = true
every = "1 ms"
"#;

/// Reads every key of the scenario the way a model builder would.
fn read_all(l: &Loaded) -> Result<usize, ScenarioError> {
    let root = TableView::root(l);
    let mut n = 0;
    let sc = root.req_table("scenario")?;
    sc.req_str("id")?;
    sc.opt_str("title")?;
    let sim = root.req_table("simulation")?;
    sim.req_duration("duration")?;
    sim.opt_duration("warmup")?;
    sim.opt_u64("seed")?;
    for sw in root.array_of_tables("switch")? {
        for c in expand(&sw)? {
            let v = c.view(&l.source);
            n += v.req_str_list("names")?.len();
            if let Some(p) = v.opt_table("port")? {
                p.opt_cells("buffer")?;
                p.opt_keyword("discard", &["tail", "epd", "ppd"])?;
                p.opt_cells("epd_threshold")?;
                p.opt_fraction("load")?;
            }
            v.finish()?;
        }
    }
    for h in root.array_of_tables("host")? {
        for c in expand(&h)? {
            let v = c.view(&l.source);
            n += v.req_str_list("names")?.len();
            v.finish()?;
        }
    }
    for link in root.array_of_tables("link")? {
        for c in expand(&link)? {
            let v = c.view(&l.source);
            for pair in v.req("between")?.as_array()? {
                n += pair.str_list()?.len();
            }
            v.req_rate("rate")?;
            v.req_duration("delay")?;
            v.finish()?;
        }
    }
    for f in root.array_of_tables("flow")? {
        for c in expand(&f)? {
            let v = c.view(&l.source);
            v.req_str("name")?;
            n += v.req_str_list("path")?.len();
            let vc = v.req_table("vc")?;
            vc.req_keyword("category", &["ubr", "cbr", "abr", "gfr"])?;
            vc.opt_rate_spec("pcr")?;
            let app = v.req_table("app")?;
            app.req_keyword("kind", &["udp", "tcp"])?;
            app.opt_rate_spec("rate")?;
            app.opt_bytes("datagram")?;
            app.opt_fraction("share")?;
            v.finish()?;
        }
    }
    if let Some(rec) = root.opt_table("record")? {
        rec.opt_bool("queues")?;
        rec.opt_duration("every")?;
    }
    root.finish()?;
    Ok(n)
}

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INSERTS: &[&[u8]] = &[
    b"\"",
    b"[",
    b"]",
    b"{",
    b"}",
    b"${",
    b"}",
    b"{i}",
    b"{i0}",
    b"=",
    b"\n",
    b"'",
    b",",
    b"${nope}",
    b"${n_sources}",
    b"[[",
    b"]]",
    b"\\",
    b"\xc2\xb5",
    b"\xff",
    b"#",
    b".",
    b"-",
    b"1e999",
    b"0",
    b"99999999999999999999",
    b"nan",
    b"1979-05-27",
    b"count = 7\n",
];

fn mutate(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut text = base.to_vec();
    for _ in 0..1 + rng.below(2) {
        let at = rng.below(text.len() + 1);
        match rng.below(6) {
            0 => {
                if at < text.len() {
                    text[at] = (rng.next() & 0xff) as u8;
                }
            }
            1 => text.truncate(at),
            2 => {
                let end = (at + 1 + rng.below(12)).min(text.len());
                text.drain(at.min(end)..end);
            }
            3 => {
                let line_start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let line_end = text[at..].iter().position(|&b| b == b'\n').map_or(text.len(), |p| at + p + 1);
                let line = text[line_start..line_end].to_vec();
                text.splice(line_end..line_end, line);
            }
            _ => {
                let ins = INSERTS[rng.below(INSERTS.len())];
                text.splice(at..at, ins.iter().copied());
            }
        }
    }
    text
}

#[test]
fn base_scenario_reads_cleanly() {
    let l = load(Source::new("fuzz.toml", BASE), &[]).unwrap();
    // 2 switches + 3 + 3 hosts + 3×4 + 2 link ends + 3×4 path hops.
    assert_eq!(read_all(&l).unwrap(), 2 + 6 + 12 + 2 + 12);
}

#[test]
fn mutated_scenarios_never_panic_and_errors_are_one_line() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut failed) = (0, 0);
    for round in 0..2000 {
        let bytes = mutate(&mut rng, BASE.as_bytes());
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let l = load(Source::new("fuzz.toml", text.clone()), &[])?;
            read_all(&l)
        }));
        match outcome {
            Err(_) => panic!("round {round} panicked on:\n{text}"),
            Ok(Ok(_)) => ok += 1,
            Ok(Err(e)) => {
                failed += 1;
                let s = e.to_string();
                assert!(!s.contains('\n') && !s.contains('\r'), "round {round}: multi-line error {s:?}");
                assert!(s.starts_with("fuzz.toml:") || s.starts_with("fuzz.toml: "), "round {round}: {s:?}");
                assert!(!s.ends_with('.'), "round {round}: {s:?}");
            }
        }
    }
    // Both outcomes must be common, or the mutations test nothing.
    assert!(ok > 50 && failed > 500, "ok {ok}, failed {failed}");
}
