//! The papers whose experiments celltrain reproduces, named as a reader cites them: authors,
//! year and title, with a short id (author initials and year, e.g. `AD97`) that reads as a
//! citation and cannot be taken for a random seed. Inside the project the papers are also
//! numbered (`seed 002`: the order in which they were taken up); that number names files
//! (`python/celltrain/reproductions/seed002.toml`) and anchors (`docs/references.md#seed-002`),
//! never a paper in what the product prints. Full references: `docs/references.md#seed-papers`.

/// A reproduced paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The short id printed in lists and reports: `AD97`.
    pub id: &'static str,
    /// The project's number for it, as `Builtin::source` and the catalogue file give it
    /// (`seed 002`).
    pub key: &'static str,
    /// The experiment-id letter of its scenarios (`T` for `T1`).
    pub letter: &'static str,
    pub authors: &'static str,
    /// The year, or `c. 1997` where the text carries none.
    pub year: &'static str,
    pub title: &'static str,
}

impl Paper {
    /// `M. Aron, P. Druschel (1997), End-to-End TCP Congestion Control over ATM Networks`.
    pub fn citation(&self) -> String {
        format!("{} ({}), {}", self.authors, self.year, self.title)
    }
}

/// Every reproduced paper, in the project's order.
pub const PAPERS: &[Paper] = &[
    Paper {
        id: "BKD97",
        key: "seed 000",
        letter: "V",
        authors: "O. Bonaventure, E. Klovning, A. Danthine",
        year: "1997",
        title: "Is VBR a solution for an ATM LAN?",
    },
    Paper {
        id: "MSc98",
        key: "seed 001",
        letter: "A",
        authors: "M.S. thesis (author not named)",
        year: "c. 1998",
        title: "ABR vs UBR+EPD for TCP and UDP traffic in end-to-end ATM and IP/ATM internetworks",
    },
    Paper {
        id: "AD97",
        key: "seed 002",
        letter: "T",
        authors: "M. Aron, P. Druschel",
        year: "1997",
        title: "End-to-End TCP Congestion Control over ATM Networks",
    },
    Paper {
        id: "BN01",
        key: "seed 003",
        letter: "G",
        authors: "O. Bonaventure, J. Nelissen",
        year: "2001",
        title: "Guaranteed Frame Rate: A Better Service for TCP/IP in ATM Networks",
    },
    Paper {
        id: "LRP97",
        key: "seed 004",
        letter: "E",
        authors: "M. Lorang, T. Renger, H. Pettersen, E. Aarstad, L. Jausse, M. Potts",
        year: "c. 1997",
        title: "Experiments on Integrated Traffic Control for ATM in the ACTS Project EXPERT",
    },
];

/// The paper with the project's number `key` (`"seed 002"` or `"seed002"`).
pub fn by_key(key: &str) -> Option<&'static Paper> {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    PAPERS.iter().find(|p| squeeze(p.key) == squeeze(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_names_a_known_paper_whose_letter_starts_its_name() {
        for b in crate::builtin::all() {
            let paper = by_key(b.source).unwrap_or_else(|| panic!("{}: unknown paper {}", b.name, b.source));
            assert!(b.name.starts_with(paper.letter), "{} is not a {} experiment", b.name, paper.id);
        }
    }

    #[test]
    fn short_ids_read_as_citations_not_numbers() {
        for p in PAPERS {
            assert!(p.id.starts_with(|c: char| c.is_ascii_uppercase()), "{}", p.id);
            assert!(!p.id.to_lowercase().contains("seed"));
            assert!(p.citation().contains(p.title) && p.citation().contains(p.year));
        }
        assert_eq!(by_key("seed002").map(|p| p.id), Some("AD97"));
    }
}
