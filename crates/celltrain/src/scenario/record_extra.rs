//! The `[record]` keys of the richer time series: `on_change`, `delivered` and `queues`.

use super::access::TableView;
use super::error::ScenarioError;
use crate::network::{QueueDetail, RecordRequest};

/// Reads `on_change`, `delivered` and `queues` into `req` (whose `interval` is read already).
pub(super) fn read(r: &TableView<'_>, req: &mut RecordRequest) -> Result<(), ScenarioError> {
    req.on_change = r.opt_bool("on_change")?.unwrap_or(false);
    req.delivered = r.opt_bool("delivered")?.unwrap_or(false);
    if let Some(detail) = r.opt_keyword("queues", &QueueDetail::KEYWORDS)? {
        req.queues = QueueDetail::parse(detail).expect("a listed keyword");
    }
    // The grid's extra columns need the grid: without it they would be accepted and lost.
    if req.interval.is_none() {
        for (key, asked) in [("delivered", req.delivered), ("queues", req.queues != QueueDetail::Total)] {
            if asked {
                return Err(r.key_error(key, "adds columns to the sampled series: set `interval` too"));
            }
        }
    }
    Ok(())
}
