//! Repetition: one array-of-tables element standing for `count` similar elements.
//!
//! ```toml
//! [[host]]
//! names = "src{i}"        # src1, src2, …, src5
//! count = "${n_sources}"  # substituted to an integer by `load`
//! ```
//!
//! [`expand`] reads `count` (an integer ≥ 0, at most [`MAX_COUNT`]; 1 if absent) and
//! returns that many copies of the element without its `count` key, in which every
//! string anywhere in the element has `{i}` replaced by the copy's number 1..=count and
//! `{i0}` by 0..count. Keys are not rewritten.
//!
//! The copies are owned tables: read each through [`Instance::view`] and call `finish`
//! on that view, because the original element's keys are all marked read by `expand`
//! (the copies take over the checking). With `count = 0` nothing is checked beyond
//! `count` itself.
//!
//! Whether `{i}` without a `count` is allowed is the model builder's decision; it can
//! ask [`has_index_placeholder`].

use super::access::TableView;
use super::error::ScenarioError;
use super::value::{Node, Source, Table, Value};
use std::ops::Range;

/// Largest accepted `count`: beyond it a typo (or a wrong parameter) would exhaust
/// memory before any error could be reported.
pub const MAX_COUNT: u64 = 100_000;

/// One copy of an expanded element.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// 1-based number of the copy (the value of `{i}`).
    pub index: u64,
    pub table: Table,
    path: String,
    header: Option<Range<usize>>,
}

impl Instance {
    /// A view with the element's path (e.g. `flow[2]`) and header line; errors in copies
    /// point at the element's text, where the user can fix them.
    pub fn view<'s>(&'s self, source: &'s Source) -> TableView<'s> {
        TableView::new(source, &self.table, self.path.clone(), self.header.clone())
    }
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// Expands `element` by its `count` (see the module docs); errors name `<path>.count`.
pub fn expand(element: &TableView<'_>) -> Result<Vec<Instance>, ScenarioError> {
    let count = match element.get("count") {
        None => 1,
        Some(v) => {
            let n = v.as_u64()?;
            if n > MAX_COUNT {
                return Err(v.error(format!("count {n} is too large (at most {MAX_COUNT})")));
            }
            n
        }
    };
    element.consume_all();
    let template: Vec<_> = element.table().entries.iter().filter(|(k, _)| k.name != "count").collect();
    Ok((1..=count)
        .map(|i| Instance {
            index: i,
            table: Table { entries: template.iter().map(|(k, n)| (k.clone(), with_index(n, i))).collect() },
            path: element.path().to_string(),
            header: element.header_span(),
        })
        .collect())
}

/// A copy of `node` with `{i}` replaced by `i` (1-based) and `{i0}` by `i - 1` in every
/// string.
pub fn with_index(node: &Node, i: u64) -> Node {
    let value = match &node.value {
        Value::Str(s) if s.contains("{i") => {
            Value::Str(s.replace("{i}", &i.to_string()).replace("{i0}", &i.saturating_sub(1).to_string()))
        }
        Value::Array(items) => Value::Array(items.iter().map(|n| with_index(n, i)).collect()),
        Value::Table(t) => {
            Value::Table(Table { entries: t.entries.iter().map(|(k, n)| (k.clone(), with_index(n, i))).collect() })
        }
        other => other.clone(),
    };
    Node { value, span: node.span.clone() }
}

/// Whether any string in `node` contains `{i}` or `{i0}`.
pub fn has_index_placeholder(node: &Node) -> bool {
    match &node.value {
        Value::Str(s) => s.contains("{i}") || s.contains("{i0}"),
        Value::Array(items) => items.iter().any(has_index_placeholder),
        Value::Table(t) => table_has_index_placeholder(t),
        _ => false,
    }
}

/// Whether any string in `table` contains `{i}` or `{i0}` (its `count` included).
pub fn table_has_index_placeholder(table: &Table) -> bool {
    table.entries.iter().any(|(_, n)| has_index_placeholder(n))
}
