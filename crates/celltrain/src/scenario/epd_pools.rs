//! EPD's threshold is one rule resolved against every buffer pool of a port: the shared pool
//! and each reserved one. A rule that suits the shared pool can be meaningless for a small
//! reserved pool (MSc98's min{0.8·B, B − 3·MTU} is negative below three MTUs, so every
//! cell of the pool would be refused), so each pool is checked and a bad one is an error
//! naming its own key.
//!
//! EPD also applies to VCs whose cells carry no AAL5 frames (CBR and on/off cell sources): to
//! EPD each such cell is a one-cell frame, refused when its pool holds the threshold or more.

use super::{ScenarioError, TableView};
use celltrain_atm::port::buffer::EpdThreshold;

/// Checks `threshold` against the shared pool of `buffer` cells and every pool of `reserved`.
pub(super) fn check(v: &TableView<'_>, threshold: EpdThreshold, buffer: u32) -> Result<(), ScenarioError> {
    let key = ["epd_excess", "epd_threshold"].into_iter().find(|k| v.contains(k));
    let cells = threshold.resolve(buffer);
    if cells > i64::from(buffer) {
        let key = if v.contains("epd_threshold") { "epd_threshold" } else { "epd_excess" };
        return Err(v.key_error(key, format!("EPD threshold of {cells} cells is above the buffer of {buffer} cells")));
    }
    if cells < 0 {
        // The automatic threshold min{0.8·B, B − 3·MTU} comes from the buffer itself.
        return Err(v.key_error(
            key.unwrap_or("buffer"),
            format!("EPD threshold of {cells} cells is below zero (buffer of {buffer} cells)"),
        ));
    }
    let Some(pools) = v.opt_table("reserved")? else { return Ok(()) };
    for (name, node) in pools.entries() {
        let cells = u32::try_from(node.cells()?).unwrap_or(u32::MAX);
        if let Some(problem) = problem(threshold, cells) {
            let hint = match key {
                None => "; give epd_threshold as a share of each pool, e.g. \"80 %\"",
                Some(_) => "",
            };
            return Err(pools.key_error(&name.name, format!("{problem} (this reserved pool of {cells} cells){hint}")));
        }
    }
    Ok(())
}

/// What is wrong with `threshold` for a pool of `capacity` cells, if anything.
fn problem(threshold: EpdThreshold, capacity: u32) -> Option<String> {
    let cells = threshold.resolve(capacity);
    let rule = match threshold {
        EpdThreshold::MSc98 { mtu_cells } => format!(" (auto: min{{0.8·B, B − 3·MTU}}, MTU {mtu_cells} cells)"),
        EpdThreshold::ExcessMtus { b, mtu_cells } => format!(" (B − {b}·MTU, MTU {mtu_cells} cells)"),
        EpdThreshold::Cells(_) | EpdThreshold::Fraction(_) => String::new(),
    };
    if cells < 0 {
        Some(format!("EPD threshold of {cells} cells{rule} is below zero: every frame would be refused"))
    } else if cells > i64::from(capacity) {
        Some(format!("EPD threshold of {cells} cells{rule} is above the pool: EPD would never act"))
    } else {
        None
    }
}
