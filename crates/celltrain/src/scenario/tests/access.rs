//! Typed access: values, missing keys, wrong types, unknown keys, paths and lines.

use super::*;
use celltrain_core::{BitRate, SimDuration};

const SIM: &str = "\
[simulation]
duration = \"2 s\"
warmup = \"0.5 s\"
seeed = 3
";

#[test]
fn reads_typed_values() {
    let l = loaded(
        "[simulation]\nduration = \"2 s\"\nseed = 7\nverbose = true\nscale = 2\n\
         [port]\nbuffer = 8192\nepd = \"7000 cells\"\nframe = \"9140 B\"\n\
         rate = \"149.76 Mbit/s\"\npcr = \"line\"\nload = 0.8\nshare = \"25 %\"\n\
         discard = \"epd\"\nnames = [\"a\", \"b\"]\none = \"c\"\n",
    );
    let root = TableView::root(&l);
    let sim = root.req_table("simulation").unwrap();
    assert_eq!(sim.req_duration("duration").unwrap(), SimDuration::from_secs(2));
    assert_eq!(sim.opt_duration("warmup").unwrap(), None);
    assert_eq!(sim.req_int("seed").unwrap(), 7);
    assert_eq!(sim.opt_bool("verbose").unwrap(), Some(true));
    assert_eq!(sim.req_float("scale").unwrap(), 2.0);
    let port = root.req_table("port").unwrap();
    assert_eq!(port.req_cells("buffer").unwrap(), 8192);
    assert_eq!(port.req_cells("epd").unwrap(), 7000);
    assert_eq!(port.req_bytes("frame").unwrap(), 9140);
    assert_eq!(port.req_rate("rate").unwrap(), BitRate::from_bps(149_760_000));
    assert_eq!(port.req_rate_spec("pcr").unwrap(), RateSpec::Line);
    assert_eq!(port.req_fraction("load").unwrap(), 0.8);
    assert_eq!(port.opt_fraction("share").unwrap(), Some(0.25));
    assert_eq!(port.req_keyword("discard", &["tail", "epd"]).unwrap(), "epd");
    assert_eq!(port.req_str_list("names").unwrap(), ["a", "b"]);
    assert_eq!(port.req_str_list("one").unwrap(), ["c"]);
    root.finish().unwrap();
}

#[test]
fn missing_key_points_at_the_table_header() {
    let text = "[scenario]\nid = \"A4\"\n\n[simulation]\nwarmup = \"0.5 s\"\n";
    let e = read_err(text, |root| {
        root.req_table("simulation")?.req_duration("duration")?;
        Ok(())
    });
    assert_eq!(e, "s.toml:4: simulation.duration: missing required key 'duration'");
    let e = read_err(text, |root| root.req_table("flows").map(drop));
    assert_eq!(e, "s.toml: flows: missing required key 'flows'");
    let e = read_err("[[flow]]\nx = 1\n[[flow]]\nname = \"b\"\n", |root| {
        for f in root.array_of_tables("flow")? {
            f.req_str("name")?;
        }
        Ok(())
    });
    assert_eq!(e, "s.toml:1: flow[1].name: missing required key 'name'");
    let e = read_err("a = 1\nb = { c = 2 }\n", |root| {
        root.req_table("b")?.req_int("d")?;
        Ok(())
    });
    assert_eq!(e, "s.toml:2: b.d: missing required key 'd'");
}

#[test]
fn unknown_key_lists_the_keys_asked_for() {
    let e = read_err(SIM, |root| {
        let sim = root.req_table("simulation")?;
        sim.req_duration("duration")?;
        sim.opt_duration("warmup")?;
        sim.opt_int("seed")?;
        sim.finish()
    });
    assert_eq!(e, "s.toml:4: simulation.seeed: unknown key 'seeed' (expected one of: duration, warmup, seed)");
}

#[test]
fn parent_finish_checks_children_and_reports_the_first_in_the_file() {
    let text = "top = 1\n[a]\nx = 1\ntypo_a = 2\n[b]\ny = 1\ntypo_b = 3\n";
    let e = read_err(text, |root| {
        root.req_int("top")?;
        // Opened in reverse order; the report still follows the file.
        root.req_table("b")?.req_int("y")?;
        root.req_table("a")?.req_int("x")?;
        root.finish()
    });
    assert_eq!(e, "s.toml:4: a.typo_a: unknown key 'typo_a' (expected one of: x)");
    let e = read_err("z = 1\n[a]\n", |root| root.finish());
    assert_eq!(e, "s.toml:1: z: unknown key 'z' (expected one of: params)");
    let e = read_err("[a]\nz = 1\n", |root| {
        root.req_table("a")?;
        root.finish()
    });
    assert_eq!(e, "s.toml:2: a.z: unknown key 'z' (expected no keys here)");
}

#[test]
fn unknown_key_inside_array_of_tables_and_inline_tables() {
    let text = "[[flow]]\nname = \"a\"\n[[flow]]\nname = \"b\"\napp = { kind = \"udp\", rat = \"1 Mbit/s\" }\n";
    let e = read_err(text, |root| {
        for f in root.array_of_tables("flow")? {
            f.req_str("name")?;
            if let Some(app) = f.opt_table("app")? {
                app.req_str("kind")?;
                app.opt_rate("rate")?;
            }
        }
        root.finish()
    });
    assert_eq!(e, "s.toml:5: flow[2].app.rat: unknown key 'rat' (expected one of: kind, rate)");
}

#[test]
fn wrong_types_name_what_was_expected_and_found() {
    let text = "[s]\nd = 5\nr = 10\nn = 3\nt = \"x\"\nb = \"yes\"\nc = 2.5\nf = 1.5\narr = 4\nk = \"lifo\"\nl = [\"a\", 1]\nrs = 3\nbig = -2\nz = nan\n";
    let check = |key: &str, want: &str| {
        let e = read_err(text, |root| {
            let s = root.req_table("s")?;
            match key {
                "d" => s.req_duration("d").map(drop),
                "r" => s.req_rate("r").map(drop),
                "n" => s.req_str("n").map(drop),
                "t" => s.req_table("t").map(drop),
                "b" => s.req_bool("b").map(drop),
                "c" => s.req_cells("c").map(drop),
                "f" => s.req_fraction("f").map(drop),
                "arr" => s.array_of_tables("arr").map(drop),
                "k" => s.req_keyword("k", &["fifo", "wrr"]).map(drop),
                "l" => s.req_str_list("l").map(drop),
                "rs" => s.req_rate_spec("rs").map(drop),
                "big" => s.req_u64("big").map(drop),
                "z" => s.req_float("z").map(drop),
                _ => s.req_int("t").map(drop),
            }
        });
        assert_eq!(e, want, "key {key}");
    };
    check("d", "s.toml:2: s.d: expected a string like \"5 ms\", found integer 5");
    check("r", "s.toml:3: s.r: expected a string like \"10 Mbit/s\", found integer 10");
    check("n", "s.toml:4: s.n: expected a string, found integer 3");
    check("t", "s.toml:5: s.t: expected a table, found string \"x\"");
    check("b", "s.toml:6: s.b: expected true or false, found string \"yes\"");
    check("c", "s.toml:7: s.c: expected an integer ≥ 0 or a string like \"8192 cells\", found float 2.5");
    check("f", "s.toml:8: s.f: bad fraction 1.5: must be between 0 and 1 (0 % and 100 %)");
    check("arr", "s.toml:9: s.arr: expected an array of tables ([[arr]]), found integer 4");
    check("k", "s.toml:10: s.k: unknown value \"lifo\" (expected one of: fifo, wrr)");
    check("l", "s.toml:11: s.l[2]: expected a string, found integer 1");
    check("rs", "s.toml:12: s.rs: expected \"line\" or a string like \"10 Mbit/s\", found integer 3");
    check("big", "s.toml:13: s.big: expected an integer ≥ 0, found integer -2");
    check("z", "s.toml:14: s.z: expected a number, found float NaN");
    check("other", "s.toml:5: s.t: expected an integer, found string \"x\"");
}

#[test]
fn unit_errors_carry_line_and_path() {
    let text = "[[flow]]\napp = { rate = \"1 Mbit/s\" }\n\n[[flow]]\napp = { rate = \"149.76 Mbits\" }\n";
    let e = read_err(text, |root| {
        for f in root.array_of_tables("flow")? {
            f.req_table("app")?.req_rate("rate")?;
        }
        Ok(())
    });
    assert_eq!(
        e,
        "s.toml:5: flow[2].app.rate: bad rate \"149.76 Mbits\": unknown unit 'Mbits' (use bit/s (bps, b/s), kbit/s (kbps), Mbit/s (Mbps), Gbit/s (Gbps) or cells/s (cell/s), in any case)"
    );
    let e = read_err("[l]\ndelay = \"5 sec\"\n", |root| root.req_table("l")?.req_duration("delay").map(drop));
    assert_eq!(e, "s.toml:2: l.delay: bad duration \"5 sec\": unknown unit 'sec' (use ps, ns, us (µs, μs), ms or s; case matters)");
    let e = read_err("[p]\nbuffer = \"8 kcells\"\n", |root| root.req_table("p")?.req_cells("buffer").map(drop));
    assert_eq!(
        e,
        "s.toml:2: p.buffer: bad cell count \"8 kcells\": unknown unit 'kcells' (use cells (cell), in any case)"
    );
}

#[test]
fn array_elements_dotted_keys_and_custom_errors() {
    let text = "[[link]]\nbetween = [[\"a\", \"b\"], [\"c\", 4]]\nport.buffer = \"1 cells\"\n";
    let l = loaded(text);
    let root = TableView::root(&l);
    let links = root.array_of_tables("link").unwrap();
    let link = &links[0];
    let between = link.req("between").unwrap().as_array().unwrap();
    assert_eq!(between[0].str_list().unwrap(), ["a", "b"]);
    assert_eq!(
        between[1].str_list().unwrap_err().to_string(),
        "s.toml:2: link[1].between[2][2]: expected a string, found integer 4"
    );
    let port = link.req_table("port").unwrap();
    assert_eq!(port.req_cells("buffer").unwrap(), 1);
    assert_eq!(port.error("buffer too small").to_string(), "s.toml:3: link[1].port: buffer too small");
    assert_eq!(
        link.key_error("between", "unknown node 'c'").to_string(),
        "s.toml:2: link[1].between: unknown node 'c'"
    );
    assert_eq!(link.key_error("delay", "needs a delay").to_string(), "s.toml:1: link[1].delay: needs a delay");
    assert_eq!(root.error("empty topology").to_string(), "s.toml: (root): empty topology");
    root.finish().unwrap();
}

#[test]
fn entries_keep_file_order_and_count_as_read() {
    let l = loaded("[record]\nzeta = 1\nalpha = 2\nmid = 3\n");
    let root = TableView::root(&l);
    let rec = root.req_table("record").unwrap();
    let names: Vec<_> = rec.entries().iter().map(|(k, _)| k.name.clone()).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
    assert!(rec.contains("mid") && !rec.contains("nope"));
    root.finish().unwrap();
}

#[test]
fn quoted_keys_are_quoted_in_paths_and_escaped_in_messages() {
    let e = read_err("[s]\n\"a.b\" = 1\n\"x\\ny\" = 2\n", |root| {
        root.req_table("s")?.req_int("a.b")?;
        root.finish()
    });
    assert_eq!(e, "s.toml:3: s.\"x\\ny\": unknown key 'x\\ny' (expected one of: a.b)");
    assert!(!e.contains('\n'));
}
