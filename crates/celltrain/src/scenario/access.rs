//! Typed reading of the value tree, with the path of every value known for errors.
//!
//! A [`TableView`] is a cursor over one table. Its accessors convert values to the types
//! the model needs (`req_duration`, `opt_rate`, …) and turn every problem into a
//! [`ScenarioError`] that names the file, the line and the dotted key path
//! (`flow[2].app.rate`; array elements are numbered from 1 in messages).
//!
//! Each view remembers which keys were read and which sub-tables were opened from it.
//! [`TableView::finish`] then rejects, anywhere in that subtree, every key nobody read —
//! so a misspelt key is an error with the list of keys the reader asked for, instead of
//! a silently ignored setting. The "expected" list is therefore whatever the reading code
//! asked for (including optional keys that were absent), and never goes stale.
//!
//! Accessors come in pairs: `req_x(key)` fails with `missing required key 'key'` (at
//! the line of the table's header), `opt_x(key)` returns `Ok(None)` when the key is
//! absent; both fail when the key is present with a wrong value.

use super::error::ScenarioError;
use super::units::{self, RateSpec};
use super::value::{join_path, Key, Node, Source, Table, Value};
use super::Loaded;
use celltrain_core::{BitRate, SimDuration};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// What one view has seen; shared with the views opened below it so that `finish` on a
/// parent also checks the children a reader forgot to finish.
struct Tracker<'a> {
    table: &'a Table,
    path: String,
    /// Span of the table's header or inline table; `None` for the document root.
    header: Option<Range<usize>>,
    used: RefCell<Vec<bool>>,
    asked: RefCell<Vec<String>>,
    children: RefCell<Vec<Rc<Tracker<'a>>>>,
}

/// A cursor over a table that knows its dotted path and tracks the keys read. Clones
/// share the tracking.
#[derive(Clone)]
pub struct TableView<'a> {
    source: &'a Source,
    t: Rc<Tracker<'a>>,
}

/// One value, with the path and source needed to report errors about it.
#[derive(Clone)]
pub struct NodeView<'a> {
    source: &'a Source,
    node: &'a Node,
    path: String,
    /// The view whose table holds this value (directly or inside arrays), so that tables
    /// opened from it are checked by that view's `finish`.
    parent: Option<Rc<Tracker<'a>>>,
}

impl<'a> TableView<'a> {
    /// The top-level table of a loaded scenario. `[params]` counts as read: `load`
    /// consumed it.
    pub fn root(loaded: &'a Loaded) -> Self {
        let view = TableView::new(&loaded.source, &loaded.root, "", None);
        view.get("params");
        view
    }

    /// A view over any table: `path` is its dotted path (`""` for the root) and `header`
    /// the span that missing-key errors point at (`None`: report no line).
    pub fn new(source: &'a Source, table: &'a Table, path: impl Into<String>, header: Option<Range<usize>>) -> Self {
        TableView {
            source,
            t: Rc::new(Tracker {
                table,
                path: path.into(),
                header,
                used: RefCell::new(vec![false; table.len()]),
                asked: RefCell::new(Vec::new()),
                children: RefCell::new(Vec::new()),
            }),
        }
    }

    fn child(&self, table: &'a Table, path: String, header: Range<usize>) -> Self {
        let view = TableView::new(self.source, table, path, Some(header));
        self.t.children.borrow_mut().push(Rc::clone(&view.t));
        view
    }

    pub fn source(&self) -> &'a Source {
        self.source
    }
    pub fn path(&self) -> &str {
        &self.t.path
    }
    pub fn table(&self) -> &'a Table {
        self.t.table
    }
    /// Span of the header (`[flow]`, `{ … }`); `None` for the root.
    pub fn header_span(&self) -> Option<Range<usize>> {
        self.t.header.clone()
    }

    /// An error about this table as a whole, at its header line.
    pub fn error(&self, message: impl Into<String>) -> ScenarioError {
        let key = if self.t.path.is_empty() { "(root)" } else { &self.t.path };
        self.source.error(self.t.header.as_ref(), key, message)
    }

    /// An error about `key` of this table: at the key's line if present, else at the
    /// header line.
    pub fn key_error(&self, key: &str, message: impl Into<String>) -> ScenarioError {
        let span = match self.t.table.position(key) {
            Some(i) => Some(&self.t.table.entries[i].0.span),
            None => self.t.header.as_ref(),
        };
        self.source.error(span, join_path(&self.t.path, key), message)
    }

    fn ask(&self, key: &str) {
        let mut asked = self.t.asked.borrow_mut();
        if !asked.iter().any(|k| k == key) {
            asked.push(key.to_string());
        }
    }

    /// Lists `keys` as expected without reading them: a table whose keys are read only for
    /// some settings (a design's thresholds) still names them all when a key is misspelt.
    pub fn expect(&self, keys: &[&str]) {
        for key in keys {
            self.ask(key);
        }
    }

    /// Whether `key` is present. Does not mark it read, but lists it as expected.
    pub fn contains(&self, key: &str) -> bool {
        self.ask(key);
        self.t.table.position(key).is_some()
    }

    /// The value of `key`, marking it read; `None` if absent.
    pub fn get(&self, key: &str) -> Option<NodeView<'a>> {
        self.ask(key);
        let i = self.t.table.position(key)?;
        self.t.used.borrow_mut()[i] = true;
        Some(NodeView {
            source: self.source,
            node: &self.t.table.entries[i].1,
            path: join_path(&self.t.path, key),
            parent: Some(Rc::clone(&self.t)),
        })
    }

    /// The value of `key`, or `missing required key 'key'` at the header line.
    pub fn req(&self, key: &str) -> Result<NodeView<'a>, ScenarioError> {
        self.get(key).ok_or_else(|| {
            self.source.error(
                self.t.header.as_ref(),
                join_path(&self.t.path, key),
                format!("missing required key '{key}'"),
            )
        })
    }

    /// Every entry in file order, all marked read: for tables whose keys are names
    /// chosen by the user rather than fixed settings.
    pub fn entries(&self) -> Vec<(&'a Key, NodeView<'a>)> {
        let table = self.t.table;
        table.entries.iter().filter_map(|(k, _)| self.get(&k.name).map(|v| (k, v))).collect()
    }

    /// Marks every key of this table read (used by `expand`, whose copies take over the
    /// checking).
    pub(super) fn consume_all(&self) {
        self.t.used.borrow_mut().fill(true);
    }

    /// The elements of `[[key]]` (or of an array of inline tables), each a view with path
    /// `key[1]`, `key[2]`, …; empty if the key is absent.
    pub fn array_of_tables(&self, key: &str) -> Result<Vec<TableView<'a>>, ScenarioError> {
        match self.get(key) {
            Some(v) => v.as_tables(),
            None => Ok(Vec::new()),
        }
    }

    /// Fails on the first key (in file order) that was never read, in this table or in
    /// any table opened from it: `unknown key 'x' (expected one of: a, b, c)`.
    #[doc(alias = "deny_unknown")]
    pub fn finish(&self) -> Result<(), ScenarioError> {
        let mut first: Option<(usize, ScenarioError)> = None;
        unread(self.source, &self.t, &mut first);
        match first {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

/// Keeps in `first` the unread key that comes first in the file.
fn unread(source: &Source, t: &Tracker<'_>, first: &mut Option<(usize, ScenarioError)>) {
    let used = t.used.borrow();
    for (i, (k, _)) in t.table.entries.iter().enumerate() {
        if used[i] || first.as_ref().is_some_and(|(at, _)| *at <= k.span.start) {
            continue;
        }
        let asked = t.asked.borrow();
        let expected = if asked.is_empty() {
            "expected no keys here".to_string()
        } else {
            format!("expected one of: {}", asked.join(", "))
        };
        let e =
            source.error(Some(&k.span), join_path(&t.path, &k.name), format!("unknown key '{}' ({expected})", k.name));
        *first = Some((k.span.start, e));
    }
    for child in t.children.borrow().iter() {
        unread(source, child, first);
    }
}

/// Generates `req_x` / `opt_x` pairs from a `NodeView` conversion.
macro_rules! typed_accessors {
    ($($(#[$doc:meta])* $req:ident, $opt:ident => $conv:ident -> $t:ty;)*) => {
        impl<'a> TableView<'a> {
            $(
                $(#[$doc])*
                pub fn $req(&self, key: &str) -> Result<$t, ScenarioError> {
                    self.req(key)?.$conv()
                }
                $(#[$doc])*
                pub fn $opt(&self, key: &str) -> Result<Option<$t>, ScenarioError> {
                    self.get(key).map(|v| v.$conv()).transpose()
                }
            )*
        }
    };
}

typed_accessors! {
    /// A string.
    req_str, opt_str => as_str -> &'a str;
    /// An integer.
    req_int, opt_int => as_int -> i64;
    /// An integer ≥ 0.
    req_u64, opt_u64 => as_u64 -> u64;
    /// `true` or `false`.
    req_bool, opt_bool => as_bool -> bool;
    /// A finite number (integers accepted).
    req_float, opt_float => as_float -> f64;
    /// A table (`[key]` or an inline table), to be read with its own view.
    req_table, opt_table => as_table -> TableView<'a>;
    /// A duration written with its unit, e.g. `"5 ms"`.
    req_duration, opt_duration => duration -> SimDuration;
    /// A rate written with its unit, e.g. `"149.76 Mbit/s"`; `"line"` is refused.
    req_rate, opt_rate => rate -> BitRate;
    /// A rate or the keyword `"line"`.
    req_rate_spec, opt_rate_spec => rate_spec -> RateSpec;
    /// A cell count: `"8192 cells"` or a bare integer.
    req_cells, opt_cells => cells -> u64;
    /// A byte size: `"9140 B"`, `"64 KB"` (64 000), `"48 KiB"` (49 152).
    req_bytes, opt_bytes => bytes -> u64;
    /// A fraction in 0..=1: a number such as `0.8` or a percentage such as `"80 %"`.
    req_fraction, opt_fraction => fraction -> f64;
    /// One string or an array of strings (`names = "h1"` or `names = ["h1", "h2"]`).
    req_str_list, opt_str_list => str_list -> Vec<&'a str>;
}

impl<'a> TableView<'a> {
    /// A string that must be one of `allowed`.
    pub fn req_keyword(&self, key: &str, allowed: &[&str]) -> Result<&'a str, ScenarioError> {
        self.req(key)?.keyword(allowed)
    }
    pub fn opt_keyword(&self, key: &str, allowed: &[&str]) -> Result<Option<&'a str>, ScenarioError> {
        self.get(key).map(|v| v.keyword(allowed)).transpose()
    }
}

impl<'a> NodeView<'a> {
    /// A view of a node that is not inside a tracked table (tests, ad-hoc values).
    pub fn new(source: &'a Source, node: &'a Node, path: impl Into<String>) -> Self {
        NodeView { source, node, path: path.into(), parent: None }
    }

    pub fn node(&self) -> &'a Node {
        self.node
    }
    pub fn value(&self) -> &'a Value {
        &self.node.value
    }
    pub fn span(&self) -> Range<usize> {
        self.node.span.clone()
    }
    pub fn path(&self) -> &str {
        &self.path
    }
    pub fn source(&self) -> &'a Source {
        self.source
    }

    /// An error about this value, at its line.
    pub fn error(&self, message: impl Into<String>) -> ScenarioError {
        self.source.error(Some(&self.node.span), &self.path, message)
    }

    /// `expected <what>, found <type and value>`.
    pub fn type_error(&self, expected: &str) -> ScenarioError {
        self.error(format!("expected {expected}, found {}", self.node.value.describe()))
    }

    pub fn as_str(&self) -> Result<&'a str, ScenarioError> {
        match &self.node.value {
            Value::Str(s) => Ok(s),
            _ => Err(self.type_error("a string")),
        }
    }

    pub fn as_int(&self) -> Result<i64, ScenarioError> {
        match self.node.value {
            Value::Int(i) => Ok(i),
            _ => Err(self.type_error("an integer")),
        }
    }

    pub fn as_u64(&self) -> Result<u64, ScenarioError> {
        match self.node.value {
            Value::Int(i) if i >= 0 => Ok(i.unsigned_abs()),
            _ => Err(self.type_error("an integer ≥ 0")),
        }
    }

    pub fn as_bool(&self) -> Result<bool, ScenarioError> {
        match self.node.value {
            Value::Bool(b) => Ok(b),
            _ => Err(self.type_error("true or false")),
        }
    }

    pub fn as_float(&self) -> Result<f64, ScenarioError> {
        match self.node.value {
            Value::Float(x) if x.is_finite() => Ok(x),
            Value::Int(i) => Ok(i as f64),
            _ => Err(self.type_error("a number")),
        }
    }

    /// The table, as a view whose unread keys the parent's `finish` will also report.
    pub fn as_table(&self) -> Result<TableView<'a>, ScenarioError> {
        let Value::Table(t) = &self.node.value else {
            return Err(self.type_error("a table"));
        };
        let header = self.node.span.clone();
        Ok(match &self.parent {
            Some(p) => TableView { source: self.source, t: Rc::clone(p) }.child(t, self.path.clone(), header),
            None => TableView::new(self.source, t, self.path.clone(), Some(header)),
        })
    }

    /// The elements, with paths `key[1]`, `key[2]`, ….
    pub fn as_array(&self) -> Result<Vec<NodeView<'a>>, ScenarioError> {
        let Value::Array(items) = &self.node.value else {
            return Err(self.type_error("an array"));
        };
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, node)| NodeView {
                source: self.source,
                node,
                path: format!("{}[{}]", self.path, i + 1),
                parent: self.parent.clone(),
            })
            .collect())
    }

    /// An array whose elements are all tables (`[[key]]` sections or inline tables).
    pub fn as_tables(&self) -> Result<Vec<TableView<'a>>, ScenarioError> {
        let name = self.path.rsplit('.').next().unwrap_or("");
        let expected = format!("an array of tables ([[{name}]])");
        if !matches!(self.node.value, Value::Array(_)) {
            return Err(self.type_error(&expected));
        }
        self.as_array()?.iter().map(NodeView::as_table).collect()
    }

    fn text_quantity<T>(&self, example: &str, parse: fn(&str) -> Result<T, String>) -> Result<T, ScenarioError> {
        match &self.node.value {
            Value::Str(s) => parse(s).map_err(|m| self.error(m)),
            _ => Err(self.type_error(&format!("a string like \"{example}\""))),
        }
    }

    pub fn duration(&self) -> Result<SimDuration, ScenarioError> {
        self.text_quantity("5 ms", units::parse_duration)
    }

    pub fn rate(&self) -> Result<BitRate, ScenarioError> {
        self.text_quantity("10 Mbit/s", units::parse_rate)
    }

    pub fn rate_spec(&self) -> Result<RateSpec, ScenarioError> {
        match &self.node.value {
            Value::Str(s) => units::parse_rate_spec(s).map_err(|m| self.error(m)),
            _ => Err(self.type_error("\"line\" or a string like \"10 Mbit/s\"")),
        }
    }

    pub fn cells(&self) -> Result<u64, ScenarioError> {
        match &self.node.value {
            Value::Int(i) if *i >= 0 => Ok(i.unsigned_abs()),
            Value::Str(s) => units::parse_cells(s).map_err(|m| self.error(m)),
            _ => Err(self.type_error("an integer ≥ 0 or a string like \"8192 cells\"")),
        }
    }

    pub fn bytes(&self) -> Result<u64, ScenarioError> {
        self.text_quantity("9140 B", units::parse_bytes)
    }

    pub fn fraction(&self) -> Result<f64, ScenarioError> {
        let x = match &self.node.value {
            Value::Str(s) => return units::parse_percent(s).map_err(|m| self.error(m)),
            Value::Float(x) => *x,
            Value::Int(i) => *i as f64,
            _ => {
                return Err(self.type_error("a fraction like 0.8 or a string like \"80 %\""));
            }
        };
        units::check_fraction(x).map_err(|m| self.error(format!("bad fraction {x}: {m}")))
    }

    pub fn keyword(&self, allowed: &[&str]) -> Result<&'a str, ScenarioError> {
        let s = self.as_str()?;
        if allowed.contains(&s) {
            Ok(s)
        } else {
            Err(self.error(format!("unknown value {s:?} (expected one of: {})", allowed.join(", "))))
        }
    }

    pub fn str_list(&self) -> Result<Vec<&'a str>, ScenarioError> {
        match &self.node.value {
            Value::Str(s) => Ok(vec![s.as_str()]),
            Value::Array(_) => self
                .as_array()?
                .iter()
                .map(|v| match &v.node.value {
                    Value::Str(s) => Ok(s.as_str()),
                    _ => Err(v.type_error("a string")),
                })
                .collect(),
            _ => Err(self.type_error("a string or an array of strings")),
        }
    }
}

/// A model component's keys (a buffer policy's, an explicit-rate algorithm's, a policer
/// contract's), read from a scenario table: each value as the scenario's typed accessors read it.
impl celltrain_core::Keys for TableView<'_> {
    type Error = ScenarioError;

    fn contains(&self, key: &str) -> bool {
        TableView::contains(self, key)
    }
    fn is_text(&self, key: &str) -> bool {
        let i = self.t.table.position(key);
        i.is_some_and(|i| matches!(self.t.table.entries[i].1.value, Value::Str(_)))
    }
    fn text(&self, key: &str) -> Result<Option<&str>, ScenarioError> {
        self.opt_str(key)
    }
    fn flag(&self, key: &str) -> Result<Option<bool>, ScenarioError> {
        self.opt_bool(key)
    }
    fn count(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        self.opt_u64(key)
    }
    fn number(&self, key: &str) -> Result<Option<f64>, ScenarioError> {
        self.opt_float(key)
    }
    fn fraction(&self, key: &str) -> Result<Option<f64>, ScenarioError> {
        self.opt_fraction(key)
    }
    fn cells(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        self.opt_cells(key)
    }
    fn cell_list(&self, key: &str) -> Result<Option<Vec<u64>>, ScenarioError> {
        let Some(node) = self.get(key) else { return Ok(None) };
        node.as_array()?.iter().map(NodeView::cells).collect::<Result<_, _>>().map(Some)
    }
    fn bytes(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        self.opt_bytes(key)
    }
    fn duration(&self, key: &str) -> Result<Option<SimDuration>, ScenarioError> {
        self.opt_duration(key)
    }
    fn rate(&self, key: &str) -> Result<Option<BitRate>, ScenarioError> {
        self.opt_rate(key)
    }
    fn keyword(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, ScenarioError> {
        self.opt_keyword(key, allowed)
    }
    fn entry_names(&self, key: &str) -> Result<Option<Vec<String>>, ScenarioError> {
        Ok(self.opt_table(key)?.map(|t| t.entries().into_iter().map(|(k, _)| k.name.clone()).collect()))
    }
    fn entry_cells(&self, key: &str, entry: &str) -> Result<u64, ScenarioError> {
        // (Through `entries`, which marks every entry read: each call views the table afresh,
        // and a view with entries left unread fails the switch's table when it is finished.)
        let table = self.req_table(key)?;
        match table.entries().into_iter().find(|(k, _)| k.name == entry) {
            Some((_, node)) => node.cells(),
            None => table.req(entry)?.cells(),
        }
    }
    fn key_error(&self, key: &str, message: String) -> ScenarioError {
        TableView::key_error(self, key, message)
    }
    fn error(&self, message: String) -> ScenarioError {
        TableView::error(self, message)
    }
    fn entry_error(&self, key: &str, entry: &str, message: String) -> ScenarioError {
        match self.opt_table(key) {
            Ok(Some(table)) => table.key_error(entry, message),
            _ => TableView::key_error(self, key, message),
        }
    }
}
