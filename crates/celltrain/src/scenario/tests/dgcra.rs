//! ABR conformance's scenario keys: `conformance = "abr"` puts a DGCRA at the VC's first
//! switch, and every mistake is one line naming the file, line and key.

use super::super::compile_source;
use super::*;
use celltrain_core::time::SimDuration;

/// Two hosts 40 µs and 60 µs from two switches, one UDP flow over ABR; `vc` completes its
/// `vc` table.
fn scenario(category: &str, vc: &str) -> String {
    let vc = if vc.is_empty() { String::new() } else { format!(", {vc}") };
    format!(
        r#"[scenario]
id = "d"
title = "d"
[simulation]
duration = "0.1 s"
[[switch]]
names = ["sw1", "sw2"]
explicit_rate = "erica"
[[host]]
names = ["a", "b"]
[[link]]
between = ["a", "sw1"]
rate = "149.76 Mbit/s"
delay = "40 us"
[[link]]
between = ["sw1", "sw2"]
rate = "149.76 Mbit/s"
delay = "1 ms"
[[link]]
between = ["sw2", "b"]
rate = "149.76 Mbit/s"
delay = "60 us"
[[flow]]
name = "f"
path = ["a", "sw1", "sw2", "b"]
vc = {{ category = "{category}", pcr = "line"{vc} }}
app = {{ kind = "udp", datagram = "9140 B", rate = "50 Mbit/s" }}
"#
    )
}

fn error(text: &str) -> String {
    match compile_source(src(text), &[], None) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// The keys compile into the VC's DGCRA; τ3 defaults to twice the shortest link delay on the
/// path (2 × 40 µs), τ1 to 0.
#[test]
fn the_keys_make_the_vcs_dgcra() {
    let text = scenario("abr", r#"conformance = "abr", tau2 = "300 us", cdvt = "3 us""#);
    let c = compile_source(src(&text), &[], None).unwrap_or_else(|e| panic!("{e}"));
    let vc = c.network.vcs().iter().find(|v| v.name == "f").expect("VC f");
    let d = vc.policer.as_ref().and_then(|p| p.dgcra()).expect("a DGCRA");
    let us = SimDuration::from_micros;
    assert_eq!((d.contract().tau3, d.contract().tau2, d.contract().cdvt), (us(80), us(300), us(3)));
    let text = scenario("abr", r#"conformance = "abr", tau2 = "300 us", tau3 = "150 us""#);
    let c = compile_source(src(&text), &[], None).unwrap_or_else(|e| panic!("{e}"));
    let vc = c.network.vcs().iter().find(|v| v.name == "f").expect("VC f");
    assert_eq!(vc.policer.as_ref().and_then(|p| p.dgcra()).expect("a DGCRA").contract().tau3, us(150));
    let c = compile_source(src(&scenario("abr", "")), &[], None).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.network.vcs().iter().all(|v| v.policer.is_none()), "no conformance, no policer");
}

#[test]
fn mistakes_name_their_key() {
    let e = error(&scenario("abr", r#"conformance = "abr""#));
    assert!(e.contains("s.toml:") && e.contains("vc.tau2") && e.contains("needs tau2"), "{e}");
    let e = error(&scenario("abr", r#"conformance = "abr", tau2 = "300 us", tau3 = "400 us""#));
    assert!(e.contains("vc.tau3") && e.contains("exceeds tau2"), "{e}");
    let e = error(&scenario("abr", r#"conformance = "abr", tau2 = "300 us", tau3 = "0 us""#));
    assert!(e.contains("vc.tau3") && e.contains("positive"), "{e}");
    let e = error(&scenario("abr", r#"conformance = "abr", tau2 = "50 us""#));
    assert!(e.contains("vc.tau2") && e.contains("default 80us") && e.contains("give tau3"), "{e}");
    let e = error(&scenario("ubr", r#"conformance = "abr", tau2 = "300 us""#));
    assert!(e.contains("vc.conformance") && e.contains("needs category = \"abr\""), "{e}");
    let e = error(&scenario("abr", r#"tau2 = "300 us""#));
    assert!(e.contains("vc.tau2") && e.contains("applies with conformance = \"abr\""), "{e}");
    let e = error(&scenario("abr", r#"conformance = "cbr.1", tau3 = "300 us""#));
    assert!(e.contains("vc.tau3") && e.contains("applies with"), "{e}");
    let e = error(&scenario("abr", r#"conformance = "abr", tau2 = "300 us", scr = "10 Mbit/s""#));
    assert!(e.contains("vc.scr") && e.contains("no SCR"), "{e}");
    let e = error(&scenario("abr", r#"conformance = "abr", tau2 = "300 furlongs""#));
    assert!(e.contains("vc.tau2"), "{e}");
    // An unknown key's message names the VC's keys in one order, whatever the conformance.
    let keys = "expected one of: category, pcr, name, reverse_of, conformance, scr, mbs, cdvt, mcr, mfs, tau2, tau3)";
    for vc in [r#"conformance = "abr", tau2 = "300 us", bogus = 1"#, "bogus = 1"] {
        let e = error(&scenario("abr", vc));
        assert!(e.contains("vc.bogus: unknown key") && e.ends_with(keys), "{e}");
    }
    // A contract's key with no conformance would police nothing: refused, not ignored.
    let e = error(&scenario("ubr", r#"cdvt = "1 us""#));
    assert!(e.contains("vc.cdvt") && e.contains("applies with a `conformance`"), "{e}");
    let e = error(&scenario("ubr", r#"mbs = 10"#));
    assert!(e.contains("vc.mbs") && e.contains("needs `conformance`"), "{e}");
    for e in [
        error(&scenario("abr", r#"conformance = "abr""#)),
        error(&scenario("abr", r#"conformance = "abr", tau2 = "300 us", tau3 = "400 us""#)),
    ] {
        assert_eq!(e.lines().count(), 1, "one line: {e}");
    }
}
