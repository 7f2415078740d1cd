//! GFR's scenario keys: a contract and a switch design compile into the network, and every
//! mistake is one line naming the file, line and key.

use super::super::compile_source;
use super::*;

/// G1's shape, small: two GFR VCs through two switches.
fn scenario(switch: &str, vc: &str) -> String {
    format!(
        r#"[scenario]
id = "g"
title = "g"
[simulation]
duration = "0.2 s"
[[switch]]
names = ["sw1", "sw2"]
buffer = "1000 cells"
{switch}
[[host]]
names = ["a1", "a2", "b1", "b2"]
[[link]]
between = [["a1", "sw1"], ["a2", "sw1"], ["sw2", "b1"], ["sw2", "b2"]]
rate = "149.76 Mbit/s"
[[link]]
between = ["sw1", "sw2"]
rate = "30 Mbit/s"
[[flow]]
name = "f{{i}}"
count = 2
path = ["a{{i}}", "sw1", "sw2", "b{{i}}"]
vc = {{ category = "gfr", pcr = "line", {vc} }}
app = {{ kind = "tcp", variant = "sack", files = "100 KB" }}
"#
    )
}

const GFR2: &str = r#"conformance = "gfr.2", mcr = "5 Mbit/s", mbs = 400, mfs = 192"#;

fn error(text: &str) -> String {
    match compile_source(src(text), &[], None) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn each_design_compiles_and_polices_its_vcs() {
    for switch in [
        "discard = \"gfr-fifo\"\nlow_threshold = \"200 cells\"",
        "discard = \"per-vc-threshold\"\nlow_threshold = \"200 cells\"\nhigh_threshold = \"600 cells\"\nvc_threshold = \"100 cells\"\nscheduler = \"wfq\"",
        "discard = \"frame-red\"\nred_min_th = \"200 cells\"\nred_max_th = \"600 cells\"\nred_max_p = \"10 %\"\nvc_low_threshold = \"50 cells\"\nvc_high_threshold = \"100 cells\"\nscheduler = \"virtual-spacing\"",
    ] {
        let c = compile_source(src(&scenario(switch, GFR2)), &[], None).unwrap_or_else(|e| panic!("{e}"));
        let mut net = c.network;
        net.run(&mut |_| {});
        let data = net.vcs().iter().find(|v| v.name == "f1").expect("VC f1");
        let gfr = data.policer.as_ref().and_then(|p| p.gfr()).expect("a GFR policer");
        assert_eq!(gfr.contract().mcr.as_bps(), 5_000_000);
        assert!(gfr.counters().eligible_frames > 0, "{switch}: frames were judged");
        let port = net.ports().iter().find(|p| p.name == "sw1->sw2").expect("backbone port");
        assert!(port.queue.policy_name() != "tail-drop", "{switch}: the design is in place");
    }
}

#[test]
fn contract_mistakes_name_their_key() {
    let e = error(&scenario("", r#"conformance = "gfr.2", mcr = "5 Mbit/s", mbs = 100, mfs = 192"#));
    assert!(e.contains("s.toml:") && e.contains("mbs") && e.contains("below 1 + MFS·PCR/(PCR − MCR)"), "{e}");
    let e = error(&scenario("", r#"conformance = "gfr.1", mcr = "5 Mbit/s", mfs = 192"#));
    assert!(e.contains("mbs"), "{e}");
    let e = error(&scenario("", r#"conformance = "gfr.2", mcr = "200 Mbit/s", mbs = 400, mfs = 192"#));
    assert!(e.contains("mcr") && e.contains("below PCR"), "{e}");
    let e = error(&scenario("", r#"mcr = "5 Mbit/s", mbs = 400, mfs = 192"#));
    assert!(e.contains("needs `conformance`"), "{e}");
    let text = scenario("", GFR2).replace("category = \"gfr\"", "category = \"ubr\"");
    assert!(error(&text).contains("needs category = \"gfr\""));
}

#[test]
fn design_mistakes_name_their_key() {
    let e = error(&scenario("discard = \"gfr-fifo\"", GFR2));
    assert!(e.contains("needs `low_threshold`"), "{e}");
    let e = error(&scenario("discard = \"gfr-fifo\"\nlow_threshold = \"2000 cells\"", GFR2));
    assert!(e.contains("low_threshold") && e.contains("above the buffer"), "{e}");
    let e = error(&scenario(
        "discard = \"per-vc-threshold\"\nlow_threshold = \"700 cells\"\nhigh_threshold = \"600 cells\"\nvc_threshold = \"1 cells\"",
        GFR2,
    ));
    assert!(e.contains("low_threshold") && e.contains("above the high threshold"), "{e}");
    let e = error(&scenario(
        "discard = \"frame-red\"\nred_min_th = \"600 cells\"\nred_max_th = \"200 cells\"\nred_max_p = 0.1",
        GFR2,
    ));
    assert!(e.contains("red_min_th") && e.contains("below red_max_th"), "{e}");
    let e = error(&scenario("discard = \"epd\"\nlow_threshold = \"20 cells\"", GFR2));
    assert!(e.contains("low_threshold"), "a GFR key on another design is refused: {e}");
    assert!(e.contains("only applies with discard = \"gfr-fifo\", \"per-vc-threshold\" or \"frame-red\""), "{e}");
    let e = error(&scenario("scheduler = \"fifo\"", GFR2));
    assert!(e.contains("scheduler"), "{e}");
}

/// A switch key that belongs to another design than the one chosen is named with what it goes
/// with, not as an unknown key of a table whose keys it is among.
#[test]
fn a_key_of_another_design_says_what_it_goes_with() {
    let cases = [
        (
            "low_threshold = \"20 cells\"",
            "low_threshold: only applies with discard = \"gfr-fifo\", \"per-vc-threshold\" or \"frame-red\"",
        ),
        (
            "discard = \"gfr-fifo\"\nlow_threshold = \"20 cells\"\nfairness_z = 0.5",
            "fairness_z: only applies with discard = \"selective-drop\" or \"fba\"",
        ),
        (
            "explicit_rate = \"binary\"\nbinary_thresholds = [\"50 cells\", \"20 cells\"]\ntarget_queue = \"10 cells\"",
            "target_queue: only applies with explicit_rate = \"erica+\"",
        ),
        (
            "explicit_rate = \"erica\"\nni_threshold = \"10 cells\"",
            "ni_threshold: only applies with explicit_rate = \"binary\"",
        ),
        (
            "explicit_rate = \"binary\"\nbinary_thresholds = [\"50 cells\", \"20 cells\"]\ntarget_utilization = 0.9",
            "target_utilization: only applies with explicit_rate = \"erica\" or \"erica+\"",
        ),
    ];
    for (switch, expected) in cases {
        let e = error(&scenario(switch, GFR2));
        assert!(e.contains(expected) && !e.contains("unknown key"), "{switch}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

/// Every key the port, a discard policy, an explicit-rate algorithm or the packet limits take is a
/// switch key, and an algorithm's key is taken only by names of that algorithm.
#[test]
fn policies_keys_are_switch_keys() {
    use celltrain_atm::abr::{EXPLICIT_RATE_KEYS, EXPLICIT_RATE_NAMES};
    use celltrain_atm::port::buffer::DISCARD_POLICIES;
    let policies = DISCARD_POLICIES
        .iter()
        .flat_map(|p| p.keys.iter())
        .chain(celltrain_atm::port::PORT_KEYS)
        .chain(crate::network::PacketLimits::KEYS);
    let algorithms = EXPLICIT_RATE_KEYS.iter().flat_map(|keys| keys.iter().map(|(k, _)| k));
    for key in policies.chain(algorithms).chain([&super::super::abr::AVERAGING_INTERVAL]) {
        assert!(super::super::model::SWITCH_KEYS.contains(key), "{key} is no switch key");
    }
    assert_eq!(EXPLICIT_RATE_KEYS.len(), EXPLICIT_RATE_NAMES.len());
    for (keys, names) in EXPLICIT_RATE_KEYS.iter().zip(EXPLICIT_RATE_NAMES) {
        for (key, takers) in keys.iter() {
            assert!(
                !takers.is_empty() && takers.iter().all(|t| names.contains(t)),
                "{key}: {takers:?} not of {names:?}"
            );
        }
    }
}

/// A weighted scheduler weighs each GFR VC by its MCR: two greedy flows of MCR 5 and 15 Mbit/s
/// share a 30 Mbit/s backbone about 1:3 under WF²Q+, Virtual Spacing and WRR (equal weights
/// would give 1:1, and so does the unweighted priority scheduler).
#[test]
fn a_weighted_scheduler_shares_by_the_mcrs() {
    let flow = |i: u32, mcr: u32| {
        format!(
            "[[flow]]\nname = \"f{i}\"\npath = [\"a{i}\", \"sw1\", \"sw2\", \"b{i}\"]\n\
             vc = {{ category = \"gfr\", pcr = \"line\", conformance = \"gfr.1\", mcr = \"{mcr} Mbit/s\", mbs = 400, mfs = 192 }}\n\
             app = {{ kind = \"udp\", datagram = \"9140 B\", rate = \"line\" }}\n"
        )
    };
    for (scheduler, low, high) in
        [("wfq", 2.5, 3.5), ("virtual-spacing", 2.5, 3.5), ("wrr", 2.5, 3.5), ("priority", 0.8, 1.25)]
    {
        let switch = format!(
            "discard = \"per-vc-threshold\"\nlow_threshold = \"200 cells\"\nhigh_threshold = \"600 cells\"\n\
             vc_threshold = \"100 cells\"\nscheduler = \"{scheduler}\""
        );
        let text = scenario(&switch, GFR2);
        let text = format!("{}{}{}", &text[..text.find("[[flow]]").expect("a flow")], flow(1, 5), flow(2, 15));
        let c = compile_source(src(&text), &[], None).unwrap_or_else(|e| panic!("{e}"));
        let mut net = c.network;
        net.run(&mut |_| {});
        let s = crate::metrics::Summary::from_network(&net, c.meta, 0.0);
        let share = s.flows[1].goodput_bps / s.flows[0].goodput_bps;
        assert!((low..=high).contains(&share), "{scheduler}: f2 / f1 = {share:.2}");
    }
}
