//! No allocation per cell on the hot path.
//!
//! Cells are `Copy` values, queues are `VecDeque`s that grow amortised and AAL5 frames live in an
//! arena that reuses its slots, so once a run has warmed up (its queues, pipes, event heap and
//! frame arena at their steady-state capacity) moving further cells must not touch the heap.
//! This binary installs a counting global allocator (it is its own test binary, so no other test
//! sees it), runs a built-in scenario to a pause point past its warm-up, then counts the
//! allocations of the rest of the run against the cells moved meanwhile.
//!
//! The count is per thread (a thread-local flag arms it), so the tests may run in parallel.
//! To find where a stretch allocates, run with `CELLTRAIN_ALLOC_TRACE=5` (a number of
//! allocations): the first ones counted are printed with a backtrace.
//!
//! The pause uses the progress callback of [`celltrain::Network::run`]: at the first callback
//! past the pause time it unwinds with a private payload (silenced in the panic hook), which
//! leaves the network between two events; `run` called again carries on from there.

#![allow(unsafe_code)] // the counting allocator: `GlobalAlloc` is an unsafe trait.

use celltrain::scenario::{compile, compile_source, Source};
use celltrain::Network;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// The system allocator, counting the allocations (and reallocations) of armed threads.
struct Counting;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
    /// Allocations still to print with a backtrace (`CELLTRAIN_ALLOC_TRACE`).
    static TRACE_LEFT: Cell<u32> = const { Cell::new(0) };
}

fn note(size: usize) {
    // `try_with`: never panic in the allocator (the thread-locals here have no destructor, so
    // they are always there, but the allocator must not depend on that).
    let armed = ARMED.try_with(Cell::get).unwrap_or(false);
    if !armed {
        return;
    }
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + size as u64));
    if TRACE_LEFT.try_with(Cell::get).unwrap_or(0) > 0 {
        // Disarmed while printing: the backtrace allocates.
        let _ = ARMED.try_with(|a| a.set(false));
        let _ = TRACE_LEFT.try_with(|t| t.set(t.get() - 1));
        eprintln!("hot_path_alloc: allocation of {size} bytes at\n{}", std::backtrace::Backtrace::force_capture());
        let _ = ARMED.try_with(|a| a.set(true));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: as `alloc`; `ptr` was allocated by `System` with `layout` (every allocation
        // of this program goes through here).
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as `realloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Counts the allocations `f` makes on this thread.
fn counting<R>(f: impl FnOnce() -> R) -> (R, u64, u64) {
    let trace = std::env::var("CELLTRAIN_ALLOC_TRACE").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    TRACE_LEFT.with(|t| t.set(trace));
    ALLOCS.with(|c| c.set(0));
    BYTES.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    let r = f();
    ARMED.with(|a| a.set(false));
    (r, ALLOCS.with(Cell::get), BYTES.with(Cell::get))
}

/// The payload that pauses a run from its progress callback.
struct Pause;

fn silence_pauses() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<Pause>().is_none() {
                previous(info);
            }
        }));
    });
}

/// Runs `net` to the first progress callback at or past `at` seconds (before its end).
fn run_until(net: &mut Network, at: f64) {
    silence_pauses();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        net.run(&mut |p| {
            if p.now < p.end && p.now.as_secs_f64() >= at {
                panic::panic_any(Pause);
            }
        })
    }));
    match outcome {
        Err(payload) if payload.is::<Pause>() => {}
        Err(payload) => panic::resume_unwind(payload),
        Ok(()) => panic!("the run ended before the pause at {at} s"),
    }
}

/// What the measured stretch of a run did.
#[derive(Debug)]
struct Stretch {
    /// Simulated seconds measured.
    seconds: f64,
    allocs: u64,
    bytes: u64,
    cell_hops: u64,
    events: u64,
    /// TCP segments sent (every endpoint, data and ACKs).
    segments: u64,
}

fn segments(net: &Network) -> u64 {
    net.conns().iter().map(|c| c.endpoint.stats().segments_sent).sum()
}

/// Compiles built-in `name` with `sets`, runs it to `pause_at` seconds (past its warm-up), then
/// counts the allocations of the rest of the run.
fn measure(name: &str, sets: &[(&str, &str)], pause_at: f64) -> Stretch {
    let overrides: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let net = compile(name, &overrides, None).unwrap_or_else(|e| panic!("{name}: {e}")).network;
    measure_network(name, net, pause_at)
}

/// [`measure`] on a network already compiled.
fn measure_network(name: &str, mut net: Network, pause_at: f64) -> Stretch {
    assert!(pause_at >= net.warmup().as_secs_f64(), "{name}: pause inside the warm-up");
    run_until(&mut net, pause_at);
    let (from, hops, events, segs) = (net.now().as_secs_f64(), net.cell_hops(), net.events(), segments(&net));
    let ((), allocs, bytes) = counting(|| net.run(&mut |_| {}));
    let s = Stretch {
        seconds: net.now().as_secs_f64() - from,
        allocs,
        bytes,
        cell_hops: net.cell_hops() - hops,
        events: net.events() - events,
        segments: segments(&net) - segs,
    };
    println!(
        "{name}: {:.2} s measured from {from:.2} s: {} allocations ({} bytes) for {} cell-hops, {} events, {} TCP segments",
        s.seconds, s.allocs, s.bytes, s.cell_hops, s.events, s.segments
    );
    s
}

/// At most one allocation per `per` cell-hops.
fn assert_at_most_one_per_hops(name: &str, s: &Stretch, per: u64) {
    assert!(
        s.allocs * per <= s.cell_hops,
        "{name}: {} allocations for {} cell-hops (limit one per {per}); CELLTRAIN_ALLOC_TRACE=5 shows where",
        s.allocs,
        s.cell_hops
    );
}

/// At most one allocation per `per` TCP segments (so the endpoint does not allocate per segment).
fn assert_at_most_one_per_segments(name: &str, s: &Stretch, per: u64) {
    assert!(s.segments > 1_000, "{name}: too few TCP segments to measure: {}", s.segments);
    assert!(
        s.allocs * per <= s.segments,
        "{name}: {} allocations for {} TCP segments (limit one per {per}); CELLTRAIN_ALLOC_TRACE=5 shows where",
        s.allocs,
        s.segments
    );
}

#[test]
fn the_counter_counts() {
    // Without this, a counter that never arms would pass every test below.
    let (v, allocs, bytes) = counting(|| std::hint::black_box(Vec::<u64>::with_capacity(3)));
    drop(v);
    assert_eq!((allocs, bytes), (1, 24));
    let ((), allocs, _) = counting(|| {
        let mut v = std::hint::black_box(Vec::<u8>::with_capacity(1));
        v.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9]); // one reallocation
    });
    assert_eq!(allocs, 2);
    let (_, allocs, _) = counting(|| std::hint::black_box([7u8; 64]).iter().map(|&b| u64::from(b)).sum::<u64>());
    assert_eq!(allocs, 0);
}

// Every stretch below moves millions of cells; one allocation per cell, per AAL5 frame (about
// 190 cells here) or per on/off burst (about 1 500 cells) would break its limit many times
// over. What the limits let through is the amortised growth of a queue that meets a longer
// backlog than any before (a rare long on/off burst, say): a doubling, then never again.

#[test]
fn udp_over_ubr_epd_moves_cells_without_allocating() {
    // A4: 5 greedy UDP sources over UBR, per-VC queueing with EPD at the bottleneck.
    let s = measure("A4", &[("duration", "3 s"), ("warmup", "0.5 s")], 1.0);
    assert!(s.cell_hops > 2_000_000, "A4 moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("A4", &s, 10_000);
}

#[test]
fn on_off_multiplexer_moves_cells_without_allocating() {
    // E1-mux: on/off sources into a delay-priority port. Each adapter is handed a whole burst
    // at once (its pipe and start times hold the burst), so an adapter's first burst longer
    // than any before doubles those two deques: about ten such doublings in this stretch.
    let s = measure("E1-mux", &[("duration", "20 s"), ("warmup", "1 s"), ("n_rt", "6"), ("n_nrt", "6")], 5.0);
    assert!(s.cell_hops > 2_000_000, "E1-mux moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("E1-mux", &s, 10_000);
}

#[test]
fn tcp_lite_over_atm_moves_cells_and_segments_without_allocating() {
    // T1 (cell mode): 8 TCP-Lite senders through a tail-drop bottleneck. The sans-IO endpoint
    // works on `Copy` segments without payload bytes: no allocation per segment either.
    let s = measure("T1", &[("duration", "6 s")], 2.0);
    assert!(s.cell_hops > 2_000_000, "T1 moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("T1", &s, 10_000);
    assert_at_most_one_per_segments("T1", &s, 100);
}

#[test]
fn tcp_linux_recovery_over_atm_moves_cells_and_segments_without_allocating() {
    // T1 with CUBIC and Linux's recovery (SACK, D-SACK, RACK-TLP, PRR): RACK's per-segment
    // ring and the SACK scoreboard reuse their capacity.
    let text = celltrain::builtin::find("T1")
        .unwrap()
        .text
        .replace("timestamps = false,", r#"cc = "cubic", recovery = "linux", timestamps = false,"#);
    let sets = [("duration", "6 s")].map(|(k, v)| (k.to_string(), v.to_string()));
    let compiled = compile_source(Source::new("t1-linux.toml", text), &sets, None).unwrap();
    let s = measure_network("T1 linux", compiled.network, 2.0);
    assert!(s.cell_hops > 2_000_000, "T1 moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("T1 linux", &s, 10_000);
    assert_at_most_one_per_segments("T1 linux", &s, 100);
}

#[test]
fn tcp_reno_over_ubr_epd_moves_cells_and_segments_without_allocating() {
    // A3: 5 TCP Reno senders over UBR+EPD: losses, fast retransmit and recovery, reassembly.
    let s = measure("A3", &[("duration", "4 s"), ("warmup", "1 s")], 1.5);
    assert!(s.cell_hops > 2_000_000, "A3 moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("A3", &s, 10_000);
    assert_at_most_one_per_segments("A3", &s, 100);
}

#[test]
fn udp_over_dgcra_policed_abr_moves_cells_without_allocating() {
    // A4 over ABR, each VC policed by a DGCRA at its first switch: the policer's records of
    // backward RM cells stay within the capacity it was built with.
    let plain = r#"vc = { category = "${service}", pcr = "line" }"#;
    let text = celltrain::builtin::find("A4").unwrap().text;
    assert!(text.contains(plain), "the test's edit of A4 applies");
    let text = text.replace(
        plain,
        r#"vc = { category = "${service}", pcr = "line", conformance = "abr", tau2 = "2 ms", tau3 = "10 us" }"#,
    );
    let sets =
        [("duration", "3 s"), ("warmup", "0.5 s"), ("service", "abr")].map(|(k, v)| (k.to_string(), v.to_string()));
    let compiled = compile_source(Source::new("a4-dgcra.toml", text), &sets, None).unwrap();
    assert!(compiled.network.vcs().iter().any(|vc| vc.policer.as_ref().is_some_and(|p| p.dgcra().is_some())));
    let s = measure_network("A4 abr dgcra", compiled.network, 1.0);
    assert!(s.cell_hops > 2_000_000, "A4 moved too few cells to measure: {}", s.cell_hops);
    assert_at_most_one_per_hops("A4 abr dgcra", &s, 10_000);
}
