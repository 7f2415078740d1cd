//! AAL5: segmentation arithmetic, the CRC-32 and HEC of the standard, and reassembly as real
//! adapters do it.
//!
//! Reassembly rule (ITU-T I.363.5; `docs/references.md#aal5-reassembly`): cells of a VC
//! accumulate until a cell with AUU = 1; the
//! accumulated cells form a good frame only if the trailer's Length matches the cell count and
//! the CRC matches. We do not carry payload bytes, so the check is decided by the equivalent
//! rule "the buffer holds exactly the cells 0..n−1 of one frame, in order". The consequence that
//! matters is kept: a lost last cell merges a frame with the next one, and both are lost.

use crate::cell::Cell;
use celltrain_core::ids::FrameId;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::{Bytes, CELL_BYTES, CELL_PAYLOAD_BYTES};

/// Octets of the AAL5 CPCS-PDU trailer (UU, CPI, Length, CRC-32).
pub const TRAILER_BYTES: Bytes = 8;
/// Octets of the RFC 1483/2684 LLC/SNAP header for routed IPv4.
pub const LLC_SNAP_BYTES: Bytes = 8;
/// Largest CPCS-PDU payload (the 16-bit Length field).
pub const MAX_PAYLOAD_BYTES: Bytes = 65_535;

/// Cells needed for a CPCS-PDU payload of `payload_bytes`: ceil((L + 8) / 48).
pub fn cells_for_payload(payload_bytes: Bytes) -> u64 {
    (payload_bytes + TRAILER_BYTES).div_ceil(CELL_PAYLOAD_BYTES)
}

/// Pad octets (0..47) so that payload + pad + trailer fills whole cells.
pub fn pad_for_payload(payload_bytes: Bytes) -> Bytes {
    cells_for_payload(payload_bytes) * CELL_PAYLOAD_BYTES - (payload_bytes + TRAILER_BYTES)
}

/// Cells for an IP datagram of `ip_bytes` carried with LLC/SNAP encapsulation.
pub fn cells_for_ip_datagram(ip_bytes: Bytes) -> u64 {
    cells_for_payload(ip_bytes + LLC_SNAP_BYTES)
}

/// Maximum goodput of a link carrying back-to-back frames of `app_bytes` of application data
/// each, with `header_bytes` of transport + IP headers, over LLC/SNAP and AAL5, in bit/s.
/// G_max = R · MSS / (53 · ceil((MSS + H + 16) / 48)) (`docs/references.md#maximum-goodput`).
pub fn max_goodput_bps(link_bps: f64, app_bytes: Bytes, header_bytes: Bytes) -> f64 {
    let cells = cells_for_ip_datagram(app_bytes + header_bytes);
    link_bps * app_bytes as f64 / (cells * CELL_BYTES) as f64
}

/// CRC-32 of AAL5 (generator 0x04C11DB7, MSB first, init and final XOR 0xFFFFFFFF:
/// "CRC-32/BZIP2"), bit by bit: it is used in tests and tools, never per cell.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc: u32 = 0xFFFF_FFFF;
    for &b in bytes {
        crc ^= u32::from(b) << 24;
        for _ in 0..8 {
            crc = if crc & 0x8000_0000 != 0 { (crc << 1) ^ 0x04C1_1DB7 } else { crc << 1 };
        }
    }
    !crc
}

/// The CPCS-PDU (payload, pad, UU = 0, CPI = 0, Length, CRC) of `payload`, as bytes.
pub fn cpcs_pdu(payload: &[u8]) -> Vec<u8> {
    let len = payload.len();
    let pad = pad_for_payload(len as Bytes) as usize;
    let mut pdu = Vec::with_capacity(len + pad + 8);
    pdu.extend_from_slice(payload);
    pdu.resize(len + pad, 0);
    pdu.extend_from_slice(&[0, 0]);
    pdu.extend_from_slice(&u16::try_from(len).expect("AAL5 payload over 65535 octets").to_be_bytes());
    let crc = crc32(&pdu);
    pdu.extend_from_slice(&crc.to_be_bytes());
    pdu
}

/// Header Error Control: CRC-8 (x^8 + x^2 + x + 1) of the first four header octets, XOR 0x55.
pub fn hec(header: [u8; 4]) -> u8 {
    let mut crc: u8 = 0;
    for b in header {
        crc ^= b;
        for _ in 0..8 {
            crc = if crc & 0x80 != 0 { (crc << 1) ^ 0x07 } else { crc << 1 };
        }
    }
    crc ^ 0x55
}

/// What the reassembler did with a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reassembly {
    /// The cell was buffered; no frame boundary yet.
    Pending,
    /// A good frame completed with this cell.
    Delivered(FrameId),
    /// An end-of-frame cell closed a buffer that fails the length/CRC check: everything
    /// buffered is discarded (`cells` cells, spanning `frames` distinct frames).
    Corrupted { cells: u32, frames: u32 },
    /// The reassembly timer had expired: the stale partial frame (`cells` cells) was
    /// discarded before this cell started a new buffer, whose outcome is `then`.
    TimedOut { cells: u32, then: ReassemblyAfterTimeout },
}

/// What became of the cell that found an expired partial frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReassemblyAfterTimeout {
    Pending,
    Delivered(FrameId),
    Corrupted,
}

/// What the receiver knows of the frame a cell belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// Cells of the CPCS-PDU, which the real receiver reads from the trailer's Length field
    /// of the end-of-frame cell.
    pub cells: u32,
    /// Unique over the run. Frame ids are reused once a frame's every cell is accounted for,
    /// so an id alone could let the head of one frame and the tail of a later frame with the
    /// same id pass for one intact frame; the real receiver's CRC would reject that merge.
    pub serial: u64,
}

/// Per-VC receive state of an AAL5 adapter.
#[derive(Clone, Debug, Default)]
pub struct Reassembler {
    /// Cells buffered since the last end-of-frame cell.
    buffered_cells: u32,
    /// Distinct frames among the buffered cells (a merge spans several).
    buffered_frames: u32,
    /// Frame (its serial) of the first buffered cell.
    first_frame: Option<u64>,
    /// Frame (its serial) and index of the last buffered cell.
    last: Option<(u64, u16)>,
    /// The buffered cells are still exactly the prefix of one frame.
    intact: bool,
    /// When the first buffered cell arrived (for the reassembly timer).
    first_at: SimTime,
}

impl Reassembler {
    /// As [`on_cell`](Self::on_cell), with the adapter's reassembly timer: a partial frame
    /// whose first cell arrived more than `timeout` before `now` is discarded first, so a
    /// lost end-of-frame cell no longer merges two frames (BKD97's RAS timer). The timer
    /// is checked when the next cell arrives, which gives the same deliveries as a timer
    /// that fires on its own.
    pub fn on_cell_timed(&mut self, cell: &Cell, frame: FrameInfo, now: SimTime, timeout: SimDuration) -> Reassembly {
        if self.buffered_cells > 0 && now.saturating_since(self.first_at) > timeout {
            let cells = self.buffered_cells;
            *self = Reassembler::default();
            let then = match self.on_cell(cell, frame) {
                Reassembly::Pending => ReassemblyAfterTimeout::Pending,
                Reassembly::Delivered(f) => ReassemblyAfterTimeout::Delivered(f),
                _ => ReassemblyAfterTimeout::Corrupted,
            };
            if self.buffered_cells > 0 {
                self.first_at = now;
            }
            return Reassembly::TimedOut { cells, then };
        }
        if self.buffered_cells == 0 {
            self.first_at = now;
        }
        self.on_cell(cell, frame)
    }

    /// Feeds one cell of `frame`.
    #[inline]
    pub fn on_cell(&mut self, cell: &Cell, frame: FrameInfo) -> Reassembly {
        // Most cells continue the frame they follow and do not end it: only the count and the
        // last index move.
        if let Some((serial, index)) = &mut self.last {
            if *serial == frame.serial && cell.index == *index + 1 && !cell.end_of_frame {
                *index = cell.index;
                self.buffered_cells += 1;
                return Reassembly::Pending;
            }
        }
        let continues = match self.last {
            None => {
                self.first_frame = Some(frame.serial);
                self.intact = cell.index == 0;
                self.buffered_frames = 1;
                true
            }
            Some((serial, index)) => {
                if serial != frame.serial {
                    self.buffered_frames += 1;
                }
                serial == frame.serial && cell.index == index + 1
            }
        };
        self.intact &= continues;
        self.buffered_cells += 1;
        self.last = Some((frame.serial, cell.index));
        if !cell.end_of_frame {
            return Reassembly::Pending;
        }
        let good = self.intact && self.first_frame == Some(frame.serial) && self.buffered_cells == frame.cells;
        let outcome = if good {
            Reassembly::Delivered(cell.frame)
        } else {
            Reassembly::Corrupted { cells: self.buffered_cells, frames: self.buffered_frames }
        };
        *self = Reassembler::default();
        outcome
    }

    /// Cells held waiting for an end-of-frame cell.
    pub fn buffered_cells(&self) -> u32 {
        self.buffered_cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellKind;
    use celltrain_core::ids::VcId;

    #[test]
    fn segmentation_vectors_reference_1_7() {
        // 1.a: MSS 9140 + 40 headers + LLC/SNAP -> 192 cells, pad 20, 10176 wire octets.
        assert_eq!(cells_for_ip_datagram(9180), 192);
        assert_eq!(pad_for_payload(9188), 20);
        assert_eq!(cells_for_ip_datagram(9180) * CELL_BYTES, 10_176);
        assert!((max_goodput_bps(149.76e6, 9140, 40) / 1e6 - 134.5132).abs() < 5e-5);
        // 1.b: timestamps.
        assert_eq!(cells_for_ip_datagram(9128 + 52), 192);
        assert!((max_goodput_bps(149.76e6, 9128, 52) / 1e6 - 134.3366).abs() < 5e-5);
        // 1.c, 1.d
        assert_eq!((cells_for_ip_datagram(1500), pad_for_payload(1508)), (32, 20));
        assert!((max_goodput_bps(149.76e6, 1460, 40) / 1e6 - 128.9208).abs() < 5e-5);
        assert_eq!((cells_for_ip_datagram(552), pad_for_payload(560)), (12, 8));
        assert!((max_goodput_bps(149.76e6, 512, 40) / 1e6 - 120.5615).abs() < 5e-5);
        // 1.e pure ACKs
        assert_eq!((cells_for_ip_datagram(40), pad_for_payload(48)), (2, 40));
        assert_eq!((cells_for_ip_datagram(52), pad_for_payload(60)), (2, 28));
        // 1.e'
        assert_eq!((cells_for_ip_datagram(8192 + 40), pad_for_payload(8240)), (172, 8));
        assert!((max_goodput_bps(149.76e6, 8192, 40) / 1e6 - 134.5803).abs() < 5e-5);
        assert!((max_goodput_bps(149.76e6, 8192, 40) * 31.0 / 32.0 / 1e6 - 130.3747).abs() < 5e-5);
    }

    fn pdu_crc(payload: &[u8]) -> u32 {
        let pdu = cpcs_pdu(payload);
        u32::from_be_bytes(pdu[pdu.len() - 4..].try_into().unwrap())
    }

    #[test]
    fn crc_vectors_reference_1_7() {
        assert_eq!(crc32(b"123456789"), 0xFC89_1918);
        assert_eq!(pdu_crc(&[0u8; 40]), 0x864D_7F99);
        assert_eq!(pdu_crc(&[0xFFu8; 40]), 0xC55E_457A);
        let ramp: Vec<u8> = (1..=40).collect();
        assert_eq!(pdu_crc(&ramp), 0xBF67_1ED0);
        assert_eq!(cpcs_pdu(&ramp).len(), 48);
    }

    #[test]
    fn hec_vectors() {
        assert_eq!(hec([0, 0, 0, 1]), 0x52);
        assert_eq!(hec([0, 0, 0, 0]), 0x55);
    }

    fn cells(frame: u32, n: u16) -> Vec<Cell> {
        (0..n)
            .map(|i| Cell {
                vc: VcId(0),
                frame: FrameId(frame),
                index: i,
                hop: 0,
                end_of_frame: i + 1 == n,
                clp: false,
                efci: false,
                kind: CellKind::Aal5,
                entered: celltrain_core::time::SimTime::ZERO,
            })
            .collect()
    }

    /// In these tests a frame's serial is its id (no reuse), unless a test says otherwise.
    fn info(c: &Cell, cells: u32) -> FrameInfo {
        FrameInfo { cells, serial: u64::from(c.frame.0) }
    }

    fn feed(r: &mut Reassembler, cs: &[Cell], frame_cells: u32) -> Vec<Reassembly> {
        cs.iter().map(|c| r.on_cell(c, info(c, frame_cells))).filter(|o| *o != Reassembly::Pending).collect()
    }

    /// Frame ids are reused: the head of one frame and the tail of a later frame that got the
    /// same id are two frames (the CRC fails), not one.
    #[test]
    fn a_reused_frame_id_does_not_join_two_frames() {
        let mut r = Reassembler::default();
        let (first, later) = (cells(7, 10), cells(7, 10));
        let mut out = Vec::new();
        for c in &first[..4] {
            out.push(r.on_cell(c, FrameInfo { cells: 10, serial: 1 }));
        }
        for c in &later[4..] {
            out.push(r.on_cell(c, FrameInfo { cells: 10, serial: 2 }));
        }
        assert_eq!(out.last(), Some(&Reassembly::Corrupted { cells: 10, frames: 2 }));
    }

    #[test]
    fn intact_frames_are_delivered() {
        let mut r = Reassembler::default();
        assert_eq!(feed(&mut r, &cells(1, 192), 192), vec![Reassembly::Delivered(FrameId(1))]);
        assert_eq!(feed(&mut r, &cells(2, 2), 2), vec![Reassembly::Delivered(FrameId(2))]);
    }

    #[test]
    fn lost_last_cell_kills_the_next_frame_too_vector_1_k() {
        let mut r = Reassembler::default();
        let mut a = cells(1, 192);
        a.pop(); // the AUU = 1 cell of frame A is lost
        assert!(feed(&mut r, &a, 192).is_empty());
        let out = feed(&mut r, &cells(2, 192), 192);
        assert_eq!(out, vec![Reassembly::Corrupted { cells: 383, frames: 2 }]);
        // The adapter is clean again afterwards.
        assert_eq!(feed(&mut r, &cells(3, 192), 192), vec![Reassembly::Delivered(FrameId(3))]);
    }

    #[test]
    fn reassembly_timer_stops_the_merge() {
        let mut r = Reassembler::default();
        let t = |us: u64| SimTime::ZERO + SimDuration::from_micros(us);
        let timeout = SimDuration::from_millis(1);
        let mut a = cells(1, 10);
        a.pop(); // frame A loses its end-of-frame cell
        for (i, c) in a.iter().enumerate() {
            assert_eq!(r.on_cell_timed(c, info(c, 10), t(i as u64), timeout), Reassembly::Pending);
        }
        // Frame B starts 5 ms later: the stale 9 cells are dropped, B is delivered whole.
        let b = cells(2, 10);
        let mut outcomes = Vec::new();
        for (i, c) in b.iter().enumerate() {
            outcomes.push(r.on_cell_timed(c, info(c, 10), t(5_000 + i as u64), timeout));
        }
        assert_eq!(outcomes[0], Reassembly::TimedOut { cells: 9, then: ReassemblyAfterTimeout::Pending });
        assert_eq!(outcomes[9], Reassembly::Delivered(FrameId(2)));
        // Without the timer (or with B arriving in time), both frames are lost.
        let mut r = Reassembler::default();
        for c in &a {
            r.on_cell_timed(c, info(c, 10), t(0), timeout);
        }
        let last = b.iter().map(|c| r.on_cell_timed(c, info(c, 10), t(500), timeout)).last().unwrap();
        assert_eq!(last, Reassembly::Corrupted { cells: 19, frames: 2 });
    }

    #[test]
    fn lost_middle_cell_kills_only_its_frame() {
        let mut r = Reassembler::default();
        let mut a = cells(1, 10);
        a.remove(4);
        assert_eq!(feed(&mut r, &a, 10), vec![Reassembly::Corrupted { cells: 9, frames: 1 }]);
        assert_eq!(feed(&mut r, &cells(2, 10), 10), vec![Reassembly::Delivered(FrameId(2))]);
        // Losing the first cell is detected too.
        let b = cells(3, 10);
        assert_eq!(feed(&mut r, &b[1..], 10), vec![Reassembly::Corrupted { cells: 9, frames: 1 }]);
    }
}
