//! Warnings carried by a summary: conditions under which a number in it must not be read as a
//! measurement (one sentence each, stable text: tests and users grep for them).

use crate::metrics::Aggregate;

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
