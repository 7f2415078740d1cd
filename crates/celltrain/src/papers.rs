//! The papers whose experiments celltrain reproduces, named as a reader cites them: authors,
//! year and title, with a short id (author initials and year, e.g. `AD97`) that reads as a
//! citation and cannot be taken for a random seed. The id names the paper everywhere: in
//! lists and reports, in its reproduction file (`python/celltrain/reproductions/AD97.toml`) and
//! in its anchor (`docs/references.md#ad97`). Full references:
//! `docs/references.md#reproduced-papers`.

/// A reproduced paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The short id printed in lists and reports: `AD97`.
    pub id: &'static str,
    /// The number the project gave it before it was named by its id (`002`), still accepted as
    /// an alias by `celltrain reproduce 002` so that old command lines keep working.
    pub number: &'static str,
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
        number: "000",
        letter: "V",
        authors: "O. Bonaventure, E. Klovning, A. Danthine",
        year: "1997",
        title: "Is VBR a solution for an ATM LAN?",
    },
    Paper {
        id: "MSc98",
        number: "001",
        letter: "A",
        authors: "M.S. thesis (author not named)",
        year: "c. 1998",
        title: "ABR vs UBR+EPD for TCP and UDP traffic in end-to-end ATM and IP/ATM internetworks",
    },
    Paper {
        id: "AD97",
        number: "002",
        letter: "T",
        authors: "M. Aron, P. Druschel",
        year: "1997",
        title: "End-to-End TCP Congestion Control over ATM Networks",
    },
    Paper {
        id: "BN01",
        number: "003",
        letter: "G",
        authors: "O. Bonaventure, J. Nelissen",
        year: "2001",
        title: "Guaranteed Frame Rate: A Better Service for TCP/IP in ATM Networks",
    },
    Paper {
        id: "LRP97",
        number: "004",
        letter: "E",
        authors: "M. Lorang, T. Renger, H. Pettersen, E. Aarstad, L. Jausse, M. Potts",
        year: "c. 1997",
        title: "Experiments on Integrated Traffic Control for ATM in the ACTS Project EXPERT",
    },
    // No paper: BKD97's question asked of Linux's TCP and traffic control; its report states
    // what the runs show and judges nothing.
    Paper {
        id: "L",
        number: "005",
        letter: "L",
        authors: "celltrain (after O. Bonaventure, E. Klovning, A. Danthine, 1997)",
        year: "2026",
        title: "Today's TCP over token-bucket policers and shapers",
    },
];

/// The paper whose short id is `id`, in any case (`"AD97"`, `"ad97"`).
pub fn by_id(id: &str) -> Option<&'static Paper> {
    PAPERS.iter().find(|p| p.id.eq_ignore_ascii_case(id.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_names_a_known_paper_whose_letter_starts_its_name() {
        for b in crate::builtin::all() {
            let paper = by_id(b.source).unwrap_or_else(|| panic!("{}: unknown paper {}", b.name, b.source));
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
        assert_eq!(by_id("msc98").map(|p| p.id), Some("MSc98"));
        assert_eq!(by_id("AD97").map(|p| p.number), Some("002"));
        assert!(by_id("002").is_none(), "a number is no id");
    }
}
