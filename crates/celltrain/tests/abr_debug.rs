use celltrain::scenario::{compile_source, Source};
#[test]
fn dbg() {
    let text = std::fs::read_to_string("/tmp/a1abr.toml").unwrap();
    let c = compile_source(Source::new("x", text), &[], None).unwrap();
    let mut net = c.network;
    net.run(&mut |_| {});
    for e in &net.abr().ends {
        eprintln!("{} acr {} counts {:?} turn {:?} end {:?} q {}", net.vcs()[e.vc.index()].name, e.source.acr(), e.source.counts, e.turnaround.counts, e.counts, e.queued_cells());
    }
}
