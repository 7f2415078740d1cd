//! Per-segment send times on the sender's own clock, as TCP Vegas keeps them
//! (Brakmo & Peterson 1995, `docs/references.md#vegas`): the fine-grained RTT of every
//! segment sent once, and the age of the oldest unacknowledged segment for Vegas's
//! fine-grained retransmission check.
//!
//! The log is a ring of the segments in flight: a new segment is pushed at the back, an ACK
//! pops from the front, a retransmission updates the entries it covers. After the window has
//! been reached once the ring no longer allocates.

use crate::seq::SeqNum;
use crate::tcb::SentAt;
use celltrain_core::{SimDuration, SimTime};
use std::collections::VecDeque;

/// One transmitted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// First sequence number.
    start: SeqNum,
    /// One past the last.
    end: SeqNum,
    /// Time of the last transmission.
    at: SimTime,
    /// Transmissions so far.
    transmissions: u32,
}

/// The send times of the data in flight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendLog {
    /// Segments in sequence order, oldest first; contiguous.
    entries: VecDeque<Entry>,
}

impl SendLog {
    /// An empty log.
    pub fn new() -> Self {
        SendLog::default()
    }

    /// Data `[start, end)` was transmitted at `now`: a new segment if it starts at or beyond
    /// the newest one's end, otherwise a retransmission of every entry it overlaps.
    pub fn on_send(&mut self, start: SeqNum, end: SeqNum, now: SimTime) {
        if start.ge(end) {
            return;
        }
        let newest_end = self.entries.back().map(|e| e.end);
        match newest_end {
            Some(e) if start.lt(e) => {
                for entry in self.entries.iter_mut() {
                    if entry.end.gt(start) && entry.start.lt(end) {
                        entry.at = now;
                        entry.transmissions += 1;
                    }
                }
                // A retransmission that runs past the newest entry also carries new data.
                if end.gt(e) {
                    self.entries.push_back(Entry { start: e, end, at: now, transmissions: 1 });
                }
            }
            _ => self.entries.push_back(Entry { start, end, at: now, transmissions: 1 }),
        }
    }

    /// An ACK up to `ack` arrived at `now`: drops what it covers and returns the round-trip
    /// time of the newest fully acknowledged segment if that one was sent once (Karn).
    pub fn on_ack(&mut self, ack: SeqNum, now: SimTime) -> Option<SimDuration> {
        let mut sample = None;
        while let Some(front) = self.entries.front_mut() {
            if front.end.le(ack) {
                sample = (front.transmissions == 1).then(|| now.saturating_since(front.at));
                self.entries.pop_front();
            } else {
                if front.start.lt(ack) {
                    front.start = ack;
                }
                break;
            }
        }
        sample
    }

    /// The oldest unacknowledged segment's last send time, if it starts at `snd_una`.
    pub fn oldest(&self, snd_una: SeqNum) -> Option<SentAt> {
        self.entries
            .front()
            .filter(|e| e.start.le(snd_una) && snd_una.lt(e.end))
            .map(|e| SentAt { at: e.at, transmissions: e.transmissions })
    }

    /// Segments in the log.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the log is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(us: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_micros(us)
    }

    #[test]
    fn samples_only_segments_sent_once_and_tracks_the_oldest() {
        let mut log = SendLog::new();
        log.on_send(SeqNum(100), SeqNum(200), t(0));
        log.on_send(SeqNum(200), SeqNum(300), t(10));
        log.on_send(SeqNum(300), SeqNum(400), t(20));
        assert_eq!(log.oldest(SeqNum(100)), Some(SentAt { at: t(0), transmissions: 1 }));
        // Retransmit the first segment at 50 µs: its ACK gives no sample.
        log.on_send(SeqNum(100), SeqNum(200), t(50));
        assert_eq!(log.oldest(SeqNum(100)), Some(SentAt { at: t(50), transmissions: 2 }));
        assert_eq!(log.on_ack(SeqNum(200), t(60)), None);
        // A delayed ACK of two segments: the sample is the newer one's (20 µs → 90 µs).
        assert_eq!(log.on_ack(SeqNum(400), t(90)), Some(SimDuration::from_micros(70)));
        assert!(log.is_empty());
    }

    #[test]
    fn partial_ack_trims_and_go_back_n_updates_every_entry() {
        let mut log = SendLog::new();
        for k in 0..4u32 {
            log.on_send(SeqNum(1000 * k), SeqNum(1000 * (k + 1)), t(u64::from(k)));
        }
        assert_eq!(log.on_ack(SeqNum(1500), t(100)), Some(SimDuration::from_micros(100)));
        assert_eq!(log.oldest(SeqNum(1500)).map(|s| s.at), Some(t(1)));
        // Resending from 1500 after a timeout touches every segment it overlaps.
        log.on_send(SeqNum(1500), SeqNum(3500), t(200));
        assert_eq!(log.oldest(SeqNum(1500)), Some(SentAt { at: t(200), transmissions: 2 }));
        assert_eq!(log.on_ack(SeqNum(3000), t(300)), None, "both were resent");
        assert_eq!(log.oldest(SeqNum(3000)), Some(SentAt { at: t(200), transmissions: 2 }));
        assert_eq!(log.oldest(SeqNum(2000)), None, "not at the front");
        assert_eq!(log.len(), 1);
    }
}
