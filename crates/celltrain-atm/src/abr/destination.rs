//! The ABR destination end system (ATM Forum TM 4.0, §5.10.5): every forward RM cell is turned
//! around as a backward RM cell, with CI set if the last data cell came with EFCI; when a new
//! forward RM cell arrives before the last one went back, only the newest is kept (with the
//! older one's CI, so that no congestion indication is lost).

use super::rm::RmCell;

/// What the destination has done, for reports and the RM-cell identities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnaroundCounts {
    /// Forward RM cells received.
    pub frm_received: u64,
    /// Turned-around cells replaced by a newer one before they could go back.
    pub overwritten: u64,
    /// Forward RM cells turned around with CI set because the data cell before them came with
    /// EFCI.
    pub ci_relayed: u64,
}

/// The turn-around state of one ABR connection's destination.
#[derive(Clone, Debug, Default)]
pub struct Turnaround {
    waiting: Option<RmCell>,
    /// EFCI of the last data cell received (TM 4.0 destination rule 1).
    efci: bool,
    pub counts: TurnaroundCounts,
}

impl Turnaround {
    /// A data cell arrives with its EFCI bit.
    #[inline]
    pub fn on_data_cell(&mut self, efci: bool) {
        self.efci = efci;
    }

    /// A forward RM cell arrives: it waits to go back (replacing one that still waits).
    pub fn on_frm(&mut self, rm: &RmCell) {
        self.counts.frm_received += 1;
        let mut back = rm.turned_around();
        back.bn = false;
        if self.efci {
            back.ci = true;
            self.efci = false;
            self.counts.ci_relayed += 1;
        }
        // A congestion indication must not be lost with the cell it rode on.
        if let Some(old) = self.waiting.replace(back) {
            self.counts.overwritten += 1;
            if old.ci {
                self.waiting.as_mut().expect("just stored").ci = true;
            }
        }
    }

    /// Whether a turned-around cell waits.
    pub fn is_waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// The turned-around cell, to send now.
    pub fn take(&mut self) -> Option<RmCell> {
        self.waiting.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abr::rm::{AbrRate, RmDirection};

    #[test]
    fn turns_around_relays_efci_and_keeps_the_newest() {
        let mut d = Turnaround::default();
        let frm = |ccr: f64| RmCell::forward(AbrRate::MAX, AbrRate::from_cells_per_sec(ccr), AbrRate::ZERO);
        assert!(!d.is_waiting());
        d.on_frm(&frm(1_000.0));
        let back = d.take().unwrap();
        assert_eq!(back.dir, RmDirection::Backward);
        assert!(!back.ci && !back.bn);
        assert_eq!(back.ccr, AbrRate::from_cells_per_sec(1_000.0));
        // EFCI on the last data cell → CI in the next turned-around cell, once.
        d.on_data_cell(true);
        d.on_frm(&frm(2_000.0));
        d.on_frm(&frm(3_000.0));
        assert_eq!(d.counts, TurnaroundCounts { frm_received: 3, overwritten: 1, ci_relayed: 1 });
        let back = d.take().unwrap();
        assert_eq!(back.ccr, AbrRate::from_cells_per_sec(3_000.0), "the newest is kept");
        assert!(back.ci, "the CI of the overwritten cell is kept");
        d.on_data_cell(true);
        d.on_data_cell(false);
        d.on_frm(&frm(4_000.0));
        assert!(!d.take().unwrap().ci, "only the last data cell's EFCI counts");
        d.on_data_cell(true);
        d.on_frm(&frm(5_000.0));
        assert!(d.take().unwrap().ci);
        assert_eq!(d.take(), None);
    }
}
