//! Why a port dropped a cell: the one table of names, used for counters, reports and CSV columns.

/// Why a cell was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DropReason {
    /// The pool was full (cell-level tail drop, or the first loss of a frame under PPD/EPD).
    BufferFull,
    /// EPD refused a whole frame at its first cell (occupancy at or above the threshold).
    EarlyPacketDiscard,
    /// The rest of a frame that already lost a cell (PPD).
    PartialPacketDiscard,
    /// A CLP = 1 cell arrived with the pool at or above the port's CLP = 1 threshold.
    ClpThreshold,
}

impl DropReason {
    pub const COUNT: usize = 4;
    /// Every reason, in the order of the counters (`reason as usize`) and of report columns.
    pub const ALL: [DropReason; Self::COUNT] =
        [Self::BufferFull, Self::EarlyPacketDiscard, Self::PartialPacketDiscard, Self::ClpThreshold];

    /// The reason's name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BufferFull => "buffer_full",
            Self::EarlyPacketDiscard => "epd",
            Self::PartialPacketDiscard => "ppd",
            Self::ClpThreshold => "clp1",
        }
    }

    /// The reason's column in port tables: `dropped_` + [`name`](Self::name). Written out
    /// (rather than formatted) so that a column is a `&'static str`; a test keeps the two equal.
    pub const fn column(self) -> &'static str {
        match self {
            Self::BufferFull => "dropped_buffer_full",
            Self::EarlyPacketDiscard => "dropped_epd",
            Self::PartialPacketDiscard => "dropped_ppd",
            Self::ClpThreshold => "dropped_clp1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DropReason;

    #[test]
    fn the_table_is_consistent() {
        for (i, r) in DropReason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "ALL is in counter order");
            assert_eq!(r.column(), format!("dropped_{}", r.name()));
        }
        let mut names: Vec<_> = DropReason::ALL.iter().map(|r| r.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DropReason::COUNT, "names are unique");
    }
}
