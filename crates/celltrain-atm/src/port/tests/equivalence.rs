//! The port against the port as it was (`legacy`): random configurations and random
//! arrivals, departures and runs give the same decisions, the same cell sequence out of the
//! scheduler and the same counters; and the per-VC occupancy the port keeps equals a hand
//! count.

use super::legacy::LegacyPort;
use super::*;
use crate::port::buffer::EpdConfig;
use celltrain_core::rng::RngStream;
use std::collections::VecDeque;

/// The legacy port's configuration and the new port's (the same policy), and the VCs'
/// categories.
fn random_setup(rng: &mut RngStream) -> (PortConfig, PortConfig, Vec<ServiceCategory>) {
    let threshold = EpdThreshold::Cells(rng.below(24) as u32);
    // (EPD in half the rounds.)
    let discard = match rng.below(4) {
        0 => DiscardConfig::TailDrop(()),
        1 => DiscardConfig::Ppd(()),
        _ => DiscardConfig::Epd(EpdConfig::new(threshold)),
    };
    let categories = [ServiceCategory::Cbr, ServiceCategory::NrtVbr, ServiceCategory::Abr, ServiceCategory::Ubr];
    let vcs = (0..1 + rng.below(5)).map(|_| categories[rng.below(4) as usize]).collect();
    let config = PortConfig {
        buffer_cells: 4 + rng.below(30) as u32,
        reserved: if rng.below(2) == 0 { vec![] } else { vec![(ServiceCategory::NrtVbr, 2 + rng.below(8) as u32)] },
        discard,
        per_vc_queues: rng.below(2) == 0,
        clp1_threshold: [None, Some(rng.below(12) as u32)][rng.below(2) as usize],
        efci_threshold: None,
        scheduler: Default::default(),
    };
    let new_config = config.clone();
    (config, new_config, vcs)
}

/// Per VC: the frames it sends, cell by cell (VC k has slot k).
struct Frames {
    /// (frame, next index, length)
    state: Vec<(u32, u16, u16)>,
}

impl Frames {
    fn new(vcs: usize, rng: &mut RngStream) -> Self {
        Frames { state: (0..vcs as u32).map(|v| (v * 100_000, 0, 1 + rng.below(10) as u16)).collect() }
    }
    /// The next cell of VC `v`, CLP = 1 with probability 1/4.
    fn next(&mut self, v: usize, rng: &mut RngStream) -> Cell {
        let (frame, index, len) = self.state[v];
        let eof = index + 1 == len;
        self.state[v] = if eof { (frame + 1, 0, 1 + rng.below(10) as u16) } else { (frame, index + 1, len) };
        Cell { clp: rng.below(4) == 0, ..cell(v as u32, frame, index, eof) }
    }
    /// Cells left in VC `v`'s current frame.
    fn left(&self, v: usize) -> u32 {
        let (_, index, len) = self.state[v];
        u32::from(len - index)
    }
}

/// Whether the port counts cells per VC (asked with probability 1/2: none of today's policies
/// reads the counts), and for how many VCs.
#[derive(Clone)]
struct Counting {
    on: bool,
    vcs: usize,
}

impl Counting {
    fn choose(port: &mut OutputPort, vcs: usize, rng: &mut RngStream) -> Self {
        let on = rng.below(2) == 0;
        if on {
            port.count_vc_cells();
        }
        Counting { on, vcs }
    }
}

/// The counters agree with the legacy port's, and each VC's occupancy with the hand count
/// (or is 0 when the port does not count).
fn assert_same(new: &OutputPort, old: &LegacyPort, hand: &[u32], counting: &Counting, round: u32) {
    assert_eq!(new.stats, old.stats, "round {round}: counters");
    assert_eq!(new.occupancy(), old.occupancy(), "round {round}: occupancy");
    for (slot, &count) in hand.iter().enumerate() {
        let expected = if counting.on { count } else { 0 };
        assert_eq!(new.vc_cells(slot as u32), expected, "round {round}: VC {slot}'s occupancy");
    }
    if counting.on {
        assert_eq!(hand.iter().sum::<u32>(), new.occupancy(), "round {round}: VCs sum to the port");
    }
}

/// Cells offered, queued and taken by the scheduler, in random order and timing.
fn run_queued(new: &mut OutputPort, old: &mut LegacyPort, counting: &Counting, rng: &mut RngStream, round: u32) -> u64 {
    let vcs = counting.vcs;
    let mut frames = Frames::new(vcs, rng);
    let mut hand = vec![0u32; vcs];
    let mut now = SimTime::ZERO;
    let mut taken = 0;
    for step in 0..1500 {
        now += SimDuration::from_picos(rng.below(3));
        match rng.below(10) {
            0..=4 => {
                let v = rng.below(vcs as u64) as usize;
                let c = frames.next(v, rng);
                let result = new.offer(c, v as u32, now);
                assert_eq!(result, old.offer(c, v as u32, now), "round {round} step {step}: offer");
                hand[v] += u32::from(result.is_ok());
            }
            5..=8 => {
                let out = new.take_next(now);
                assert_eq!(out, old.take_next(now), "round {round} step {step}: the scheduler's choice");
                if let Some(c) = out {
                    hand[c.vc.index()] -= 1;
                    taken += 1;
                }
            }
            _ if new.is_empty() => {
                let v = rng.below(vcs as u64) as usize;
                let c = frames.next(v, rng);
                assert_eq!(new.pass_through(&c, v as u32), old.pass_through(&c, v as u32), "round {round}");
            }
            _ => {
                new.open_window(now);
                old.open_window(now);
            }
        }
        assert_same(new, old, &hand, counting, round);
    }
    assert!(new.queued_cells().eq(old.queued_cells().copied()), "round {round}: the cells still queued");
    taken
}

/// A single-FIFO port whose cells wait only virtually: single admissions, runs, departures in
/// arrival order, pass-throughs.
fn run_virtual(
    new: &mut OutputPort,
    old: &mut LegacyPort,
    counting: &Counting,
    rng: &mut RngStream,
    round: u32,
) -> u64 {
    let vcs = counting.vcs;
    let mut frames = Frames::new(vcs, rng);
    let mut hand = vec![0u32; vcs];
    let mut order: VecDeque<usize> = VecDeque::new();
    let mut now = SimTime::ZERO;
    let mut runs = 0;
    for step in 0..1500 {
        now += SimDuration::from_picos(rng.below(3));
        let v = rng.below(vcs as u64) as usize;
        match rng.below(10) {
            0..=2 => {
                let c = frames.next(v, rng);
                let result = new.admit_virtual(&c, v as u32, now);
                assert_eq!(result, old.admit_virtual(&c, v as u32, now), "round {round} step {step}: admission");
                if result.is_ok() {
                    hand[v] += 1;
                    order.push_back(v);
                }
            }
            3 | 4 => {
                let cells = frames.left(v);
                let any_clp1 = rng.below(3) == 0;
                let taken = new.admit_virtual_run(v as u32, cells, any_clp1, now);
                assert_eq!(taken, old.admit_virtual_run(v as u32, cells, any_clp1, now), "round {round}: run");
                if taken {
                    for _ in 0..cells {
                        let _ = frames.next(v, rng);
                    }
                    hand[v] += cells;
                    order.extend((0..cells).map(|_| v));
                    runs += 1;
                }
            }
            5..=8 if !order.is_empty() => {
                new.depart_virtual(now);
                old.depart_virtual(now);
                hand[order.pop_front().expect("not empty")] -= 1;
            }
            _ if new.is_empty() => {
                let c = frames.next(v, rng);
                assert_eq!(new.pass_through(&c, v as u32), old.pass_through(&c, v as u32), "round {round}");
                if new.policy_name() == "tail-drop" {
                    new.pass_virtual(3);
                    old.pass_virtual(3);
                }
            }
            _ => {}
        }
        assert_same(new, old, &hand, counting, round);
    }
    runs
}

#[test]
fn the_port_decides_schedules_and_counts_as_before() {
    let mut rng = RngStream::derive(5, "port-equivalence");
    let (mut taken, mut runs, mut virtual_rounds) = (0, 0, 0);
    for round in 0..300u32 {
        let (old_config, new_config, vcs) = random_setup(&mut rng);
        let mut old = LegacyPort::new(&old_config, &vcs);
        let mut new = OutputPort::new(&new_config, &vcs);
        let counting = Counting::choose(&mut new, vcs.len(), &mut rng);
        assert_eq!(new.policy_name(), old.policy_name());
        assert_eq!(new.is_single_fifo(), old.is_single_fifo());
        if new.is_single_fifo() && rng.below(2) == 0 {
            runs += run_virtual(&mut new, &mut old, &counting, &mut rng, round);
            virtual_rounds += 1;
        } else {
            taken += run_queued(&mut new, &mut old, &counting, &mut rng, round);
        }
    }
    assert!(taken > 50_000 && runs > 250 && virtual_rounds > 30, "taken {taken}, runs {runs}, {virtual_rounds}");
}
