//! Warnings carried by a summary: conditions under which a number in it must not be read as a
//! measurement (one sentence each, stable text: tests and users grep for them).

use crate::metrics::Aggregate;
use celltrain_core::time::SimTime;

/// The text of the warning given when every flow delivered nothing.
pub const NOTHING_DELIVERED: &str =
    "no flow delivered anything in the measurement window: the fairness index is undefined (null)";

/// The warnings of a summary with `packet_flows` flows of packets (cell sources have no
/// goodput and take no part in the fairness index) and this aggregate.
pub fn of(packet_flows: usize, aggregate: &Aggregate) -> Vec<String> {
    let mut warnings = Vec::new();
    if packet_flows > 0 && aggregate.fairness_index.is_none() {
        warnings.push(NOTHING_DELIVERED.to_string());
    }
    warnings
}

/// The quantities named in full when the change rows ran out; the others are counted.
const CUT_NAMED: usize = 3;

/// The warning when `[record] on_change` ran out of rows: which quantities lost their later
/// changes (`cut`: subject, quantity, the first change missing; earliest first), and from when.
pub fn changes_cut(cut: &[(&str, &str, SimTime)]) -> Option<String> {
    let &(_, _, first) = cut.first()?;
    let limit = crate::network::MAX_CHANGE_ROWS;
    let named: Vec<String> = cut
        .iter()
        .take(CUT_NAMED)
        .map(|(subject, quantity, at)| format!("{subject} {quantity} from {} s", at.as_secs_f64()))
        .collect();
    let more = match cut.len().saturating_sub(CUT_NAMED) {
        0 => String::new(),
        n => format!(" and {n} more quantities"),
    };
    Some(format!(
        "[record] on_change: the run's {limit} change rows ran out at {} s; missing are the changes of {}{more}: \
         record a shorter run or fewer ports",
        first.as_secs_f64(),
        named.join(", ")
    ))
}
