//! A host adapter's rules for its cells: when each may start (a dual-leaky-bucket shaper to
//! the VC's contract, BKD97's least gap between PDUs) and whether a PDU leaves tagged
//! (BKD97's preventive tagging). Both ways of running a port ask these same queries: the
//! analytic path when a cell arrives, the event path when the cell reaches the head of the
//! queue, so the rules hold on every single-FIFO adapter whichever path runs it.

use celltrain_atm::contract::{Clp, Shaper, Upc, UpcAction};
use celltrain_atm::port::TxClock;
use celltrain_core::time::SimTime;

use super::pdu_gap::PduGap;

/// The rules one adapter applies (built only for adapters that have some).
#[derive(Clone, Debug, Default)]
pub(crate) struct AdapterRules {
    /// Cells leave at their earliest conforming time for the VC's contract.
    shaper: Option<Shaper>,
    /// A UPC for the VC's contract under VBR.2 rules: a PDU that would not conform whole is
    /// sent with every cell but the last CLP = 1.
    tagger: Option<Upc>,
    /// The least idle time between the end of one PDU and the first cell of the next
    /// (Bonaventure, Klovning & Danthine 1997, eq. 3), fixed or drawn per PDU.
    pdu_gap: Option<PduGap>,
    /// When the last PDU's last cell finished leaving.
    pdu_end: SimTime,
}

impl AdapterRules {
    /// The adapter keeps `gap` between PDUs (before the run).
    pub(super) fn keep_pdu_gap(&mut self, gap: PduGap) {
        self.pdu_gap = Some(gap);
    }

    /// The adapter tags PDUs that would not conform whole to `tagger`'s contract (before the run).
    pub(super) fn tag_with(&mut self, tagger: Upc) {
        self.tagger = Some(tagger);
    }

    /// The adapter shapes its cells with `shaper` (before the run).
    pub(super) fn shape_with(&mut self, shaper: Shaper) {
        self.shaper = Some(shaper);
    }

    /// Whether the adapter tags PDUs preventively.
    pub(super) fn tags(&self) -> bool {
        self.tagger.is_some()
    }

    /// Whether the rules decide start times (a shaper or a PDU gap), not only tagging.
    pub(crate) fn times_cells(&self) -> bool {
        self.shaper.is_some() || self.pdu_gap.is_some()
    }

    /// The earliest a cell arriving at `now` may start by the shaper (`now` without one). Asked
    /// once per arriving cell, in arrival order, whether the buffer then takes the cell or not:
    /// the shaper's buckets see every arrival.
    pub(crate) fn not_before(&mut self, now: SimTime) -> SimTime {
        match &mut self.shaper {
            Some(shaper) => {
                // The shaper's own queue is the port's buffer: unbounded here.
                let departure = shaper.on_arrival(now).expect("shaper queue is unbounded");
                shaper.on_departure();
                departure
            }
            None => now,
        }
    }

    /// When a cell may start: once the transmitter is free (`free_at`), not before its
    /// shaper's time, and, the first cell of a PDU, no sooner than the gap after the last PDU.
    pub(crate) fn start(&self, free_at: SimTime, not_before: SimTime, first_of_pdu: bool) -> SimTime {
        let start = free_at.max(not_before);
        match &self.pdu_gap {
            Some(gap) if first_of_pdu => start.max(self.pdu_end + gap.before_next()),
            _ => start,
        }
    }

    /// A cell started; it leaves the port at `end`.
    pub(crate) fn on_started(&mut self, end: SimTime, end_of_frame: bool) {
        if end_of_frame {
            self.pdu_end = end;
            if let Some(gap) = &mut self.pdu_gap {
                gap.on_pdu_end();
            }
        }
    }

    /// Preventive tagging: would a PDU of `cells` cells conform whole to the contract, sent
    /// back to back from `from` by a transmitter in the state `clock` is in once the cells
    /// queued before it have left? Decided on a copy of the UPC at the cells' own departure
    /// times; the UPC then takes the cells as they will be sent. True: tag the PDU.
    pub(crate) fn tags_pdu(&mut self, clock: TxClock, from: SimTime, cells: u32) -> bool {
        let Some(tagger) = &mut self.tagger else { return false };
        // The cells' departure times, replayed on a copy of the clock (twice rather than kept:
        // no allocation per PDU).
        let departures = |mut clock: TxClock| {
            let mut t = from.max(clock.free_at());
            (0..cells).map(move |_| {
                let at = t;
                clock.start(at);
                t = clock.free_at();
                at
            })
        };
        let mut trial = tagger.clone();
        if departures(clock.clone()).all(|t| trial.on_cell(t, Clp::Zero) == UpcAction::Pass) {
            *tagger = trial;
            return false;
        }
        for (i, t) in departures(clock).enumerate() {
            tagger.on_cell(t, if i + 1 < cells as usize { Clp::One } else { Clp::Zero });
        }
        true
    }
}
