//! The size of the whole network, checked before any of it is built: `count` caps one
//! element, but twenty elements of 100 000 hosts each once built 11 GB before anything looked.
//! Each kind's total (`count` × the names or pairs of each element) is summed from the text
//! alone, and the element at which it first goes past its limit is named.

use super::value::{Table, Value};
use super::{ScenarioError, TableView};

/// Most nodes (switches, routers and hosts) in one scenario.
pub const MAX_NODES: u64 = 200_000;
/// Most links in one scenario.
pub const MAX_LINKS: u64 = 200_000;
/// Most flows (each with its VC) in one scenario.
pub const MAX_FLOWS: u64 = 200_000;

/// What an element of a kind adds: its `count` times the entries of `per` (1 without it).
struct Kind {
    arrays: &'static [&'static str],
    per: Option<&'static str>,
    what: &'static str,
    max: u64,
}

const KINDS: [Kind; 3] = [
    Kind {
        arrays: &["switch", "router", "host"],
        per: Some("names"),
        what: "nodes (switches, routers, hosts)",
        max: MAX_NODES,
    },
    Kind { arrays: &["link"], per: Some("between"), what: "links", max: MAX_LINKS },
    Kind { arrays: &["flow"], per: None, what: "flows", max: MAX_FLOWS },
];

/// Refuses a scenario whose nodes, links or flows number more than their limits, at the
/// `count` (or list) of the element that goes past it. Malformed counts are left to the
/// reading that follows, which names them.
pub(super) fn check(root: &TableView<'_>) -> Result<(), ScenarioError> {
    for kind in &KINDS {
        let mut total: u64 = 0;
        for array in kind.arrays {
            let Some(Value::Array(items)) = root.table().get(array).map(|n| &n.value) else { continue };
            for (i, item) in items.iter().enumerate() {
                let Value::Table(t) = &item.value else { continue };
                total = total.saturating_add(copies(t, kind.per));
                if total > kind.max {
                    let element =
                        TableView::new(root.source(), t, format!("{array}[{}]", i + 1), Some(item.span.clone()));
                    let key = if t.get("count").is_some() { "count" } else { kind.per.unwrap_or("count") };
                    return Err(element.key_error(
                        key,
                        format!("{total} {} by this element: too many (max {})", kind.what, kind.max),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// How many of its kind an element stands for.
fn copies(t: &Table, per: Option<&str>) -> u64 {
    let count = match t.get("count").map(|n| &n.value) {
        Some(Value::Int(n)) => u64::try_from(*n).unwrap_or(0),
        _ => 1,
    };
    let each = match per.and_then(|k| t.get(k)).map(|n| &n.value) {
        Some(Value::Array(items)) => items.len() as u64,
        _ => 1,
    };
    count.saturating_mul(each)
}
