//! LRP97's Fore EPD (`epd_keep_eom = true`): a frame refused at its first cell loses every
//! cell but its last, which still delimits the frame at the receiver; the fast paths give the
//! reference results with it; and the key is refused where it cannot apply.

use celltrain::metrics::Summary;
use celltrain::network::SimOptions;
use celltrain::scenario::{compile_source, Source};

fn e3(keep: bool, options: SimOptions) -> Summary {
    let text = celltrain::builtin::find("E3").unwrap().text.to_string();
    let text = text.replace("epd_keep_eom = true", &format!("epd_keep_eom = {keep}"));
    let sets: Vec<(String, String)> =
        [("duration", "3 s"), ("warmup", "0.5 s"), ("buffer", "1088 cells"), ("epd_excess", "1.0")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    let c = compile_source(Source::new("E3.toml", text), &sets, None).expect("compiles");
    let mut net = c.network;
    net.set_options(options);
    net.run(&mut |_| {});
    Summary::from_network(&net, c.meta, 0.0)
}

#[test]
fn the_fore_epd_keeps_the_last_cell_of_a_refused_frame() {
    let fore = e3(true, SimOptions::default());
    let plain = e3(false, SimOptions::default());
    let port = |s: &Summary| s.ports.iter().find(|p| p.name == "fore->vp").unwrap().clone();
    let (f, p) = (port(&fore), port(&plain));
    assert!(f.policy.contains("keep-eom") && !p.policy.contains("keep-eom"), "{} / {}", f.policy, p.policy);
    let epd = |p: &celltrain::metrics::PortSummary| p.dropped.get("epd").copied().unwrap_or(0);
    assert!(epd(&p) > 0, "the run must refuse frames for the test to mean anything");
    // Every refused frame's EOM is kept: the drop count falls by at least one cell per refusal
    // of the first kind, and the runs diverge.
    assert!(epd(&f) < epd(&p), "kept EOMs: {} vs {}", epd(&f), epd(&p));
    assert_ne!(fore.trace_hash, plain.trace_hash);
}

#[test]
fn the_fore_epd_gives_the_reference_results_on_the_fast_paths() {
    let mut fast = e3(true, SimOptions::default());
    let reference = e3(true, SimOptions::reference());
    fast.events = reference.events;
    fast.trace_hash = reference.trace_hash.clone();
    assert!(fast == reference, "fast paths differ from the reference with the Fore EPD");
}

#[test]
fn epd_keep_eom_needs_epd() {
    let text = celltrain::builtin::find("E2").unwrap().text.to_string();
    let text = text.replace("queueing = \"fifo\"", "queueing = \"fifo\"\nepd_keep_eom = true");
    assert_ne!(text, celltrain::builtin::find("E2").unwrap().text, "the edit applied");
    let e = compile_source(Source::new("E2.toml", text), &[], None).err().expect("an error");
    assert!(e.to_string().contains("epd_keep_eom"), "{e}");
}
