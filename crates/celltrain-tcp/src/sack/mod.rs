//! Selective acknowledgments: the sender's scoreboard (RFC 6675). The receiver's block
//! generation (RFC 2018 §4) lives with the reassembly queue in [`crate::reass`].

mod scoreboard;

pub use scoreboard::Scoreboard;
