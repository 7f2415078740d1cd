//! Criterion benchmarks in cell-hops (cells moved across one link, summed over links):
//! the null pipeline, A4 (five greedy UDP sources into UBR+EPD) and E1-mux (ten on/off
//! sources into the delay-priority port). Run: `cargo bench -p celltrain --bench cells`.

use celltrain::network::Network;
use celltrain::scenario::compile;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn scenario(name: &str, sets: &[(&str, &str)]) -> Network {
    let o: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    compile(name, &o, None).expect("built-in scenario compiles").network
}

fn bench_network(c: &mut Criterion, id: &str, make: &dyn Fn() -> Network) {
    let mut probe = make();
    probe.run(&mut |_| {});
    let mut group = c.benchmark_group("cell-hops");
    group.throughput(Throughput::Elements(probe.cell_hops()));
    group.sample_size(10);
    group.bench_function(id, |b| {
        b.iter_batched(make, |mut net| net.run(&mut |_| {}), BatchSize::LargeInput);
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_network(c, "null-8-hops-0.2s", &|| celltrain::bench::null_pipeline(8, 0.2).expect("builds"));
    bench_network(c, "A4-0.3s", &|| scenario("A4", &[("duration", "0.3 s"), ("warmup", "0.1 s")]));
    bench_network(c, "E1-mux-10-sources-10s", &|| scenario("E1-mux", &[("duration", "10 s"), ("warmup", "1 s")]));
}

criterion_group!(cells, benches);
criterion_main!(cells);
