//! AD97's TCP in scenarios: the keys that reach the endpoints, and their errors.

fn overrides(sets: &[(&str, &str)]) -> Vec<(String, String)> {
    sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// AD97's TCP keys: the Vegas family starts with two segments unless `initial_window`
/// says otherwise, `dupack_threshold` and `initial_rto` reach the endpoints, and bad values are
/// one-line errors naming the key.
#[test]
fn ad97_tcp_keys_reach_the_endpoints() {
    let t1 = || celltrain::builtin::find("T1").unwrap().text.to_string();
    let compile = |text: String, sets: &[(&str, &str)]| {
        celltrain::scenario::compile_source(celltrain::scenario::Source::new("t1.toml", text), &overrides(sets), None)
    };
    let configs = |text: String, sets: &[(&str, &str)]| {
        let c = compile(text, sets).unwrap();
        c.network.conns().iter().map(|c| c.endpoint.config().clone()).collect::<Vec<_>>()
    };
    let cfgs = configs(t1(), &[("variant", "vegas-afr")]);
    assert!(cfgs
        .iter()
        .all(|c| c.policies == celltrain_tcp::Variant::VegasAfr.policies() && c.initial_cwnd_segments == 2));
    assert!(configs(t1(), &[("variant", "lite-afr")]).iter().all(|c| c.initial_cwnd_segments == 1));
    let keyed = t1().replace(
        "timestamps = false,",
        "timestamps = false, initial_window = 3, dupack_threshold = 2, initial_rto = \"1 s\",",
    );
    let cfgs = configs(keyed, &[("variant", "vegas")]);
    assert!(cfgs.iter().all(|c| c.initial_cwnd_segments == 3 && c.dupack_threshold == 2));
    assert!(cfgs.iter().all(|c| c.initial_rto == Some(celltrain_core::SimDuration::from_secs(1))));
    for (bad, key) in [
        ("initial_window = 0", "initial_window"),
        ("dupack_threshold = 0", "dupack_threshold"),
        ("initial_rto = \"0 s\"", "initial_rto"),
    ] {
        let text = t1().replace("timestamps = false,", &format!("timestamps = false, {bad},"));
        let Err(e) = compile(text, &[]) else { panic!("{key}: accepted") };
        let e = e.to_string();
        assert!(e.contains(key) && e.contains("t1.toml") && e.lines().count() == 1, "{e}");
    }
    let Err(e) = compile(t1(), &[("variant", "vegas-ss")]) else { panic!("vegas-ss accepted") };
    let e = e.to_string();
    assert!(e.contains("vegas-afr"), "the error lists the variants: {e}");
}
