//! How fast can E1-mux go with celltrain's event structure? A single-purpose model of it, for
//! measuring the floor the engine is compared with (benches/HISTORY.md), not a simulator.
//!
//! Same events as the engine: one `Source` event per burst, one `PipeHead` event per cell
//! crossing an access link, one `PortFree` event per cell that had to wait at the multiplexer.
//! The same event keys (time, insertion sequence, code in 128 bits), in one plain binary heap
//! that pops and then pushes (the engine's queue, two heaps with the popped root replaced in
//! place, does less work per event). The engine's own slot arithmetic (`SlotCounter`, `TxClock`,
//! `BitRate`). And the bookkeeping the engine must do per cell: a trace hash folded per event and
//! per delivered cell, the adapters' virtual queues with their time-weighted occupancy, the
//! multiplexer's counters and occupancy integral, per-VC deliveries. What it lacks is
//! generality: one topology, one port kind, no frames, no policies, no warm-up window. Its
//! random streams are its own, so its counts are close to E1's, not equal.
//!
//! ```sh
//! cargo run --release -p celltrain --example e1_floor -- 100    # simulated seconds
//! ```

use celltrain_atm::port::TxClock;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::{BitRate, SlotCounter};
use std::collections::VecDeque;
use std::time::Instant;

/// xorshift64: fast, and good enough for exponential on and off periods.
struct Rng(u64);

impl Rng {
    fn exponential_ps(&mut self, mean_ps: f64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let u = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
        (-(1.0 - u).ln() * mean_ps).round() as u64
    }
}

/// A binary heap of (time, insertion sequence, code) keys, as the engine's.
struct Events {
    heap: Vec<u128>,
    next_seq: u64,
}

impl Events {
    fn schedule(&mut self, time_ps: u64, code: u32) {
        let key = (u128::from(time_ps) << 64) | (u128::from(self.next_seq) << 24) | u128::from(code);
        self.next_seq += 1;
        let mut i = self.heap.len();
        self.heap.push(key);
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[parent] < key {
                break;
            }
            self.heap[i] = self.heap[parent];
            i = parent;
        }
        self.heap[i] = key;
    }
    fn pop(&mut self) -> Option<(u64, u32)> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        let n = self.heap.len();
        if n > 0 {
            let mut i = 0;
            loop {
                let left = 2 * i + 1;
                if left >= n {
                    break;
                }
                let child = if left + 1 < n && self.heap[left + 1] < self.heap[left] { left + 1 } else { left };
                if last < self.heap[child] {
                    break;
                }
                self.heap[i] = self.heap[child];
                i = child;
            }
            self.heap[i] = last;
        }
        Some(((top >> 64) as u64, (top as u64 & 0xFF_FFFF) as u32))
    }
}

const KIND_SHIFT: u32 = 21;
const PORT_FREE: u32 = 0;
const PIPE_HEAD: u32 = 1;
const SOURCE: u32 = 2;

fn fold(trace: &mut u64, time_ps: u64, kind: u32, id: u32) {
    let word = time_ps ^ (u64::from(kind) << 56) ^ (u64::from(id) << 24).rotate_left(7);
    *trace = (trace.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
}

fn main() {
    let seconds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let end_ps = seconds * 1_000_000_000_000;
    let (line, pcr) = (BitRate::from_bps(149_760_000), BitRate::from_bps(31_100_000));
    let line_cell_ps = line.cell_time_ceil().as_picos();
    let delay_ps = 10_000_000u64;
    let (sources, rt_sources) = (10usize, 5usize);
    let (mean_on_ps, mean_off_ps) = (20e9, 80e9);
    let buffer_cells = [48usize, 4000];

    let started = Instant::now();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut events = Events { heap: Vec::with_capacity(64), next_seq: 0 };
    for s in 0..sources {
        events.schedule(rng.exponential_ps(mean_off_ps), (SOURCE << KIND_SHIFT) | s as u32);
    }
    // Access links: arrival times at the multiplexer; adapters: start times still ahead, and
    // the time-weighted occupancy of their virtual queues.
    let mut pipes: Vec<VecDeque<u64>> = vec![VecDeque::new(); sources];
    let mut starts: Vec<VecDeque<u64>> = vec![VecDeque::new(); sources];
    let (mut nic_cells, mut nic_area, mut nic_changed) =
        (vec![0u64; sources], vec![0u128; sources], vec![0u64; sources]);
    // The multiplexer: one FIFO per class (rt first), its slot clock, counters.
    let mut queues: [VecDeque<u16>; 2] = [VecDeque::new(), VecDeque::new()];
    let mut tx = TxClock::new(line, line);
    let mut free_pending = false;
    let (mut queued, mut area, mut changed, mut max_queued) = (0u64, 0u128, 0u64, 0u64);
    let (mut cells_in, mut cells_out, mut dropped, mut sent, mut event_count) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut delivered = vec![0u64; sources];
    let mut trace = 0u64;

    while let Some((now, code)) = events.pop() {
        if now > end_ps {
            break;
        }
        event_count += 1;
        let (kind, id) = (code >> KIND_SHIFT, code & ((1 << KIND_SHIFT) - 1));
        fold(&mut trace, now, kind, id);
        let s = id as usize;
        match kind {
            SOURCE => {
                // The adapter's cells that started leave its virtual queue.
                while let Some(&start) = starts[s].front() {
                    if start > now {
                        break;
                    }
                    starts[s].pop_front();
                    nic_area[s] += u128::from(nic_cells[s]) * u128::from(start - nic_changed[s]);
                    nic_changed[s] = start;
                    nic_cells[s] -= 1;
                }
                // A whole burst at once: its cells' start times at the peak rate.
                let on_ps = rng.exponential_ps(mean_on_ps);
                let cells = 1 + pcr.cells_starting_within(SimDuration::from_picos(on_ps));
                nic_area[s] += u128::from(nic_cells[s]) * u128::from(now - nic_changed[s]);
                nic_changed[s] = now;
                nic_cells[s] += cells;
                let was_empty = pipes[s].is_empty();
                let mut slots = SlotCounter::new(pcr);
                let mut offset = 0;
                for _ in 0..cells {
                    starts[s].push_back(now + offset);
                    pipes[s].push_back(now + offset + line_cell_ps + delay_ps);
                    offset = slots.advance().as_picos();
                }
                sent += cells;
                if was_empty {
                    events.schedule(pipes[s][0], (PIPE_HEAD << KIND_SHIFT) | id);
                }
                events.schedule(now + offset.max(on_ps) + rng.exponential_ps(mean_off_ps), code);
            }
            PIPE_HEAD => {
                pipes[s].pop_front();
                if let Some(&next) = pipes[s].front() {
                    events.schedule(next, code);
                }
                cells_in += 1;
                let class = usize::from(s >= rt_sources);
                let free_at = tx.free_at().as_picos();
                if !free_pending && now + 1 >= free_at {
                    cells_out += 1;
                    max_queued = max_queued.max(1);
                    let at = now.max(free_at);
                    let end = tx.start(SimTime::from_picos(at)).as_picos();
                    fold(&mut trace, end + delay_ps, PIPE_HEAD, 99);
                    delivered[s] += 1;
                } else if queues[class].len() < buffer_cells[class] {
                    area += u128::from(queued) * u128::from(now - changed);
                    changed = now;
                    queued += 1;
                    max_queued = max_queued.max(queued);
                    queues[class].push_back(s as u16);
                    if !free_pending {
                        free_pending = true;
                        events.schedule(free_at, PORT_FREE << KIND_SHIFT);
                    }
                } else {
                    dropped += 1;
                }
            }
            _ => {
                free_pending = false;
                let class = usize::from(queues[0].is_empty());
                if let Some(vc) = queues[class].pop_front() {
                    area += u128::from(queued) * u128::from(now - changed);
                    changed = now;
                    queued -= 1;
                    cells_out += 1;
                    let end = tx.start(SimTime::from_picos(now)).as_picos();
                    fold(&mut trace, end + delay_ps, PIPE_HEAD, 99);
                    delivered[usize::from(vc)] += 1;
                    if queued > 0 {
                        free_pending = true;
                        events.schedule(tx.free_at().as_picos(), PORT_FREE << KIND_SHIFT);
                    }
                }
            }
        }
    }
    // The adapters' occupancy integrals run to the end.
    for s in 0..sources {
        let ahead = starts[s].iter().filter(|&&start| start <= end_ps);
        for &start in ahead {
            nic_area[s] += u128::from(nic_cells[s]) * u128::from(start - nic_changed[s]);
            nic_changed[s] = start;
            nic_cells[s] -= 1;
        }
        nic_area[s] += u128::from(nic_cells[s]) * u128::from(end_ps.saturating_sub(nic_changed[s]));
    }
    let wall = started.elapsed().as_secs_f64();
    let mean_queue = area as f64 / end_ps as f64;
    println!(
        "{seconds} s simulated in {wall:.3} s wall: {sent} cells sent, {} delivered, {dropped} dropped, \
         {event_count} events; mux {cells_in} in, {cells_out} out, max queue {max_queued}, mean {mean_queue:.2}; \
         adapters' mean queue {:.1}; trace {trace:016x}",
        delivered.iter().sum::<u64>(),
        nic_area.iter().sum::<u128>() as f64 / end_ps as f64 / sources as f64,
    )
}
