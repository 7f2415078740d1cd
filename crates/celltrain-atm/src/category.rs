//! ATM service categories and the strict-priority order in which switch ports serve them.

use std::fmt;

/// Service category of a VC (ATM Forum TM 4.0 / 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ServiceCategory {
    Cbr,
    RtVbr,
    NrtVbr,
    Abr,
    Gfr,
    Ubr,
}

impl ServiceCategory {
    pub const ALL: [ServiceCategory; 6] = [Self::Cbr, Self::RtVbr, Self::NrtVbr, Self::Abr, Self::Gfr, Self::Ubr];
    /// Number of categories (= number of priority levels of a port).
    pub const COUNT: usize = 6;

    /// Priority level served first = 0 (MSc98: CBR > VBR > ABR > UBR).
    pub const fn priority(self) -> usize {
        self as usize
    }

    /// Parses the names used in scenario files; "vbr" means nrt-VBR.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "cbr" => Self::Cbr,
            "rt-vbr" => Self::RtVbr,
            "nrt-vbr" | "vbr" => Self::NrtVbr,
            "abr" => Self::Abr,
            "gfr" => Self::Gfr,
            "ubr" => Self::Ubr,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::Cbr => "cbr",
            Self::RtVbr => "rt-vbr",
            Self::NrtVbr => "nrt-vbr",
            Self::Abr => "abr",
            Self::Gfr => "gfr",
            Self::Ubr => "ubr",
        }
    }
}

impl fmt::Display for ServiceCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
