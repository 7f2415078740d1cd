//! What the library's test binaries share. (Each uses part of it.)
#![allow(dead_code)]

/// A small deterministic generator (xorshift64), so CI sees the same draws every run.
pub struct Draws(pub u64);

impl Draws {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A draw in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }
}

use celltrain::metrics::Summary;
use celltrain::scenario::{compile_source, Source};
use celltrain::Network;

/// Compiles scenario `text` with `sets` (seed 1), runs it, and returns the network and its
/// summary.
pub fn run_text(text: &str, sets: &[(&str, &str)]) -> (Network, Summary) {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let compiled = compile_source(Source::new("case.toml", text.to_string()), &sets, Some(1)).expect("compiles");
    let mut network = compiled.network;
    network.run(&mut |_| {});
    let summary = Summary::from_network(&network, compiled.meta, 0.0);
    (network, summary)
}

/// Compiles scenario `text` (named `name` in its errors) with `sets` and its own seed, runs it,
/// and returns the network and its summary.
pub fn run_named(name: &str, text: &str, sets: &[(&str, &str)]) -> (Network, Summary) {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let compiled = compile_source(Source::new(name, text.to_string()), &sets, None).expect("compiles");
    let mut network = compiled.network;
    network.run(&mut |_| {});
    let summary = Summary::from_network(&network, compiled.meta, 0.0);
    (network, summary)
}

/// The run of `text` in the reference mode (every cell by events) gives `summary` but for the
/// event count and the trace hash.
pub fn assert_the_reference_agrees(name: &str, text: &str, sets: &[(&str, &str)], summary: &Summary) {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let compiled = compile_source(Source::new(name, text.to_string()), &sets, None).expect("compiles");
    let mut reference = compiled.network;
    reference.set_options(celltrain::network::SimOptions::reference());
    reference.run(&mut |_| {});
    let mut by_events = Summary::from_network(&reference, compiled.meta, 0.0);
    by_events.events = summary.events;
    by_events.trace_hash = summary.trace_hash.clone();
    assert_eq!(&by_events, summary, "the reference mode gives another run");
}

/// Runs built-in scenario `name` with `sets` and `seed`; returns its summary.
pub fn run_builtin(name: &str, sets: &[(&str, &str)], seed: u64) -> Summary {
    let sets: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let compiled = celltrain::scenario::compile(name, &sets, Some(seed)).expect("compiles");
    let mut network = compiled.network;
    network.run(&mut |_| {});
    Summary::from_network(&network, compiled.meta, 0.0)
}
