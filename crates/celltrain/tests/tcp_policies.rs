//! A TCP app's congestion control and loss recovery chosen apart (`cc`, `recovery`), with
//! today's `variant` names kept as aliases for the pairs they always built.

use celltrain::scenario::{compile_source, Compiled, Source};
use celltrain_tcp::{CcKind, Policies, RecoveryKind, Variant};

/// T1 (AD97 topology 1), two senders for two seconds through a small buffer (so that both
/// lose segments and recover), with `keys` added to the TCP app.
fn t1(keys: &str, variant: &str) -> Result<Compiled, String> {
    let text = celltrain::builtin::find("T1")
        .unwrap()
        .text
        .replace("timestamps = false,", &format!("{keys} timestamps = false,"));
    let sets = [("variant", variant), ("n_senders", "2"), ("duration", "2 s"), ("buffer", "300 cells")];
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    compile_source(Source::new("t1.toml", text), &sets, None).map_err(|e| e.to_string())
}

fn policies(c: &Compiled) -> Vec<Policies> {
    c.network.conns().iter().map(|c| c.endpoint.policies()).collect()
}

/// What the senders did over the run, every counter.
fn run(mut c: Compiled) -> Vec<String> {
    c.network.run(&mut |_| {});
    c.network.conns().iter().map(|c| format!("{:?}", c.endpoint.stats())).collect()
}

#[test]
fn cc_and_recovery_are_chosen_apart_and_replace_the_variants_halves() {
    let pair = |cc, recovery| Policies { cc, recovery };
    let c = t1(r#"cc = "rfc5681", recovery = "tahoe","#, "lite").unwrap();
    assert!(policies(&c).iter().all(|p| *p == pair(CcKind::Rfc5681, RecoveryKind::Tahoe)));
    let c = t1(r#"cc = "rfc5681","#, "lite").unwrap();
    assert!(policies(&c).iter().all(|p| *p == pair(CcKind::Rfc5681, RecoveryKind::Lite)));
    let c = t1(r#"recovery = "vegas-rm-afr","#, "vegas").unwrap();
    assert!(policies(&c).iter().all(|p| *p == Variant::VegasAfr.policies()));
    assert!(c.network.conns().iter().all(|c| c.endpoint.config().initial_cwnd_segments == 2), "Vegas's window");
}

#[test]
fn a_variant_runs_exactly_as_its_pair_spelled_out() {
    for (variant, keys) in [
        ("sack", r#"cc = "rfc5681", recovery = "sack","#),
        ("lite", r#"cc = "bsd", recovery = "lite","#),
        ("vegas-afr", r#"cc = "vegas", recovery = "vegas-rm-afr","#),
    ] {
        let alias = t1("", variant).unwrap();
        assert!(policies(&alias).iter().all(|p| Some(*p) == Variant::from_name(variant).map(Variant::policies)));
        // The spelled-out pair overrides a variant of a different pair.
        let spelled = t1(keys, "tahoe").unwrap();
        let (alias, spelled) = (run(alias), run(spelled));
        // (Vegas keeps its queue short enough to lose nothing here.)
        let lost = alias.iter().any(|s| !s.contains("segments_retransmitted: 0,"));
        assert!(lost || variant.starts_with("vegas"), "{variant}: no loss to recover");
        assert_eq!(alias, spelled, "{variant}");
    }
}

#[test]
fn pairs_that_cannot_run_together_are_one_line_errors_naming_the_key() {
    for (keys, variant, key) in [
        (r#"cc = "vegas","#, "lite", "cc"),
        (r#"recovery = "reno","#, "vegas", "recovery"),
        (r#"cc = "rfc5681", recovery = "vegas-rm","#, "lite", "recovery"),
        (r#"cc = "cubical","#, "lite", "cc"),
        (r#"recovery = "rack","#, "lite", "recovery"),
    ] {
        let e = t1(keys, variant).err().unwrap_or_else(|| panic!("{keys} accepted"));
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with("t1.toml:") && e.contains(&format!(".{key}: ")), "{keys}: {e}");
    }
}
