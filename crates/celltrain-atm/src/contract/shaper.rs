//! Source traffic shaper: a dual leaky bucket scheduler (`docs/references.md#shaper`; BKD97
//! §5.3 shapes at the SCR in the sender's adapter).
//!
//! ```text
//!  arrival t_a ─► queue full? ─yes─► None (shaper loss)
//!                     │no
//!                     ▼
//!  d = max(t_a, TATp − τp, TATs − τs, last_departure [+ slot])
//!  TATp = max(d, TATp) + Tp ; TATs = max(d, TATs) + Ts      ─► Some(d)
//!  ... at d the caller sends the cell and calls on_departure()
//! ```
//! Sans-IO: the shaper computes each cell's departure time at its arrival (cells leave in FIFO
//! order, so nothing that arrives later can change it); the caller schedules the departure
//! and reports it with [`Shaper::on_departure`], which frees a queue place. Arrivals must be in
//! non-decreasing time order. A cell occupies a queue place from its arrival until the caller
//! reports its departure, including a cell whose departure equals its arrival.
//!
//! Build it from a descriptor with [`Rounding::Strict`] (T rounded up, BT rounded down) so
//! that its output conforms to the real-valued contract and therefore to a [`super::Upc`]
//! built from the same descriptor.

use super::descriptor::{ContractError, GcraParams, TrafficDescriptor};
use super::gcra::Gcra;
use super::interval::Rounding;
use celltrain_core::{BitRate, SimDuration, SimTime};

/// Shaper parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaperConfig {
    /// Peak-rate bucket GCRA(Tp, τp).
    pub pcr: GcraParams,
    /// Sustainable-rate bucket GCRA(Ts, τs); `None` shapes to the PCR only (CBR/UBR).
    pub scr: Option<GcraParams>,
    /// Minimum time between two departures (one cell per slot of the output line); `None`
    /// lets several cells depart at the same instant if the buckets allow it.
    pub min_spacing: Option<SimDuration>,
    /// Cells the shaper can hold (waiting or due now), ≥ 1; an arrival beyond it is dropped.
    pub queue_limit: usize,
}

impl ShaperConfig {
    /// Strict parameters of `desc`; one cell per slot of `line` (slot = 424 bit / line,
    /// rounded up so the shaper never outruns the line) if given.
    pub fn from_descriptor(
        desc: &TrafficDescriptor,
        line: Option<BitRate>,
        queue_limit: usize,
    ) -> Result<Self, ContractError> {
        let params = desc.params(Rounding::Strict)?;
        if line.is_some_and(|l| l.as_bps() == 0) {
            return Err(ContractError::ZeroPcr);
        }
        Ok(ShaperConfig {
            pcr: params.pcr,
            scr: params.scr,
            min_spacing: line.map(BitRate::cell_time_ceil),
            queue_limit,
        })
    }
}

/// Shaper counters. Conservation: `accepted == departed + queue_len`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaperCounters {
    /// Cells given a departure time.
    pub accepted: u64,
    /// Cells dropped because the queue was full ("shaper loss").
    pub dropped: u64,
    /// Departures reported by the caller.
    pub departed: u64,
}

/// Dual leaky bucket shaper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shaper {
    /// Configuration (validated).
    config: ShaperConfig,
    /// Peak bucket; its TAT is TATp.
    pcr: Gcra,
    /// Sustainable bucket; its TAT is TATs.
    scr: Option<Gcra>,
    /// Departure time given to the previous accepted cell.
    last_departure: Option<SimTime>,
    /// Cells accepted and not yet reported departed; ≤ `config.queue_limit`.
    queued: usize,
    /// Counters.
    counters: ShaperCounters,
}

impl Shaper {
    /// A shaper with empty buckets. Errors on a zero queue limit.
    pub fn new(config: ShaperConfig) -> Result<Self, ContractError> {
        if config.queue_limit == 0 {
            return Err(ContractError::ZeroQueue);
        }
        Ok(Shaper {
            config,
            pcr: config.pcr.gcra(),
            scr: config.scr.map(GcraParams::gcra),
            last_departure: None,
            queued: 0,
            counters: ShaperCounters::default(),
        })
    }

    pub const fn config(&self) -> &ShaperConfig {
        &self.config
    }
    pub const fn counters(&self) -> &ShaperCounters {
        &self.counters
    }
    /// Cells held (accepted, departure not yet reported).
    pub const fn queue_len(&self) -> usize {
        self.queued
    }

    /// A cell arrives at `t`: its departure time, or `None` if it was dropped (queue full).
    pub fn on_arrival(&mut self, t: SimTime) -> Option<SimTime> {
        //= docs/references.md#shaper
        //# (if the shaper queue is full: drop, count "shaper loss")
        if self.queued >= self.config.queue_limit {
            self.counters.dropped += 1;
            return None;
        }
        //# d = max(t_a, TATp - τp, TATs - τs, last_departure [+ 1 slot if one cell per slot])
        let mut d = self.pcr.earliest_conforming(t);
        if let Some(scr) = &self.scr {
            d = d.max(scr.earliest_conforming(t));
        }
        if let Some(last) = self.last_departure {
            d = d.max(last + self.config.min_spacing.unwrap_or(SimDuration::ZERO));
        }
        //# TATp = max(d, TATp) + Tp ; TATs = max(d, TATs) + Ts
        self.pcr.update(d);
        if let Some(scr) = &mut self.scr {
            scr.update(d);
        }
        //# schedule departure at d ; last_departure = d
        self.last_departure = Some(d);
        self.queued += 1;
        self.counters.accepted += 1;
        Some(d)
    }

    /// The caller sent the oldest queued cell.
    pub fn on_departure(&mut self) {
        debug_assert!(self.queued > 0, "shaper departure with an empty queue");
        self.queued = self.queued.saturating_sub(1);
        self.counters.departed += 1;
    }
}
