//! `--set` by dotted path: any key of a scenario, not only its declared `[params]`.
//!
//! - `simulation.mode=packet`, `record.pcap=["h1"]`, `metrics.bottleneck=["s1", "s2"]`: a key
//!   of a table, created if absent (with the tables leading to it).
//! - `switch.R1.buffer="2000 cells"`, `flow.tcp1.app.window_segments=20`, `link.3.delay="1 ms"`:
//!   an array of tables (`switch`, `host`, `router`, `link`, `flow`) is entered by the name of
//!   an element (`name`, one of `names`, or a `name = "x{i}"` template), by its 1-based
//!   position as errors print it (`switch[1]` is `switch.1`), or by `*` for every element. A
//!   table with `names` or `count` describes several nodes at once: the override changes all.
//! - `record.pcap+=["h2"]` appends to an array instead of replacing it.
//! - A value is read as TOML when it is TOML (`20`, `"2000 cells"`, `["h1"]`), else as text.
//!
//! Overrides are applied after `[params]` is resolved and before `${…}` is substituted, so
//! a key written `"${buffer}"` is replaced by the override and an override may use `${…}`.

use super::error::ScenarioError;
use super::params::ParamValue;
use super::value::{self, join_path, Key, Node, Source, Table, Value};
use std::ops::Range;

/// Sections that are arrays of tables, entered by element.
const ARRAYS: &[&str] = &["switch", "host", "router", "link", "flow"];

/// True for an override of a key path rather than of a declared parameter.
pub fn is_path(name: &str) -> bool {
    name.contains('.')
}

/// Applies the path overrides `(path, text)` to `root`; returns them as parameters for the
/// summary (the path, and the value's text unless it is a scalar).
pub fn apply(
    source: &Source,
    root: &mut Table,
    overrides: &[(String, String)],
) -> Result<Vec<(String, ParamValue)>, ScenarioError> {
    let mut applied = Vec::new();
    for (name, text) in overrides {
        let (path, append) = match name.strip_suffix('+') {
            Some(p) => (p.trim_end(), true),
            None => (name.as_str(), false),
        };
        let segments: Vec<&str> = path.split('.').map(str::trim).collect();
        if segments.iter().any(|s| s.is_empty()) {
            return Err(source.error(None, path, "--set: empty key in a dotted path"));
        }
        if segments[0] == "params" && segments.len() == 2 {
            return Err(source.error(None, path, "--set: give a parameter by its name alone (without params.)"));
        }
        if let Some(message) = ParamValue::out_of_range(text) {
            return Err(source.error(None, path, message));
        }
        let value = parse_value(text);
        let span = 0..0;
        set(source, root, &segments, "", value, span, append)?;
        applied.push((path.to_string(), ParamValue::from_text(text)));
    }
    Ok(applied)
}

/// A value from override text: TOML when it is TOML, else the text as a string.
fn parse_value(text: &str) -> Value {
    let src = Source::new("--set", format!("v = {text}"));
    match value::parse(&src) {
        Ok(t) if t.len() == 1 && t.get("v").is_some() => t.get("v").map(|n| n.value.clone()).expect("present"),
        _ => Value::Str(text.to_string()),
    }
}

/// Sets `segments` below `table` (at `at`, a dotted path) to `value`; new nodes take `span`
/// (that of the table they are put in, so that an error in them points there).
fn set(
    source: &Source,
    table: &mut Table,
    segments: &[&str],
    at: &str,
    value: Value,
    span: Range<usize>,
    append: bool,
) -> Result<(), ScenarioError> {
    let (first, rest) = segments.split_first().expect("at least one segment");
    let here = join_path(at, first);
    if rest.is_empty() {
        return assign(source, table, first, &here, value, span, append);
    }
    if at.is_empty() && ARRAYS.contains(first) {
        return set_in_elements(source, table, segments, value, append);
    }
    let node = match table.position(first) {
        Some(i) => &mut table.entries[i].1,
        None => {
            table.entries.push((Key { name: first.to_string(), span: span.clone() }, table_node(span.clone())));
            &mut table.entries.last_mut().expect("just pushed").1
        }
    };
    let inner_span = node.span.clone();
    match &mut node.value {
        Value::Table(t) => set(source, t, rest, &here, value, inner_span, append),
        other => Err(source.error(
            Some(&inner_span),
            here,
            format!("--set: {} is {}, not a table", rest.join("."), other.describe()),
        )),
    }
}

fn table_node(span: Range<usize>) -> Node {
    Node { value: Value::Table(Table::default()), span }
}

fn assign(
    source: &Source,
    table: &mut Table,
    key: &str,
    path: &str,
    value: Value,
    span: Range<usize>,
    append: bool,
) -> Result<(), ScenarioError> {
    let at = table.position(key);
    let value = match (append, at.map(|i| &table.entries[i].1)) {
        (false, _) => value,
        (true, None) => as_array(value, &span),
        (true, Some(old)) => match (&old.value, as_array(value, &span)) {
            (Value::Array(items), Value::Array(more)) => Value::Array(items.iter().cloned().chain(more).collect()),
            (other, _) => {
                return Err(source.error(
                    Some(&old.span),
                    path,
                    format!("--set …+=: {} is not an array", other.describe()),
                ))
            }
        },
    };
    match at {
        // The new value keeps the replaced one's place, so that errors in it point there.
        Some(i) => {
            let span = table.entries[i].1.span.clone();
            table.entries[i].1 = respan(value, &span);
        }
        None => table.entries.push((Key { name: key.to_string(), span: span.clone() }, respan(value, &span))),
    }
    Ok(())
}

fn as_array(value: Value, span: &Range<usize>) -> Value {
    match value {
        Value::Array(items) => Value::Array(items),
        other => Value::Array(vec![Node { value: other, span: span.clone() }]),
    }
}

/// `value` with every node placed at `span` (override text has no place in the file).
fn respan(value: Value, span: &Range<usize>) -> Node {
    let value = match value {
        Value::Array(items) => Value::Array(items.into_iter().map(|n| respan(n.value, span)).collect()),
        Value::Table(t) => Value::Table(Table {
            entries: t
                .entries
                .into_iter()
                .map(|(k, n)| (Key { name: k.name, span: span.clone() }, respan(n.value, span)))
                .collect(),
        }),
        scalar => scalar,
    };
    Node { value, span: span.clone() }
}

/// `switch.R1.buffer`: the elements of the array `segments[0]` selected by `segments[1]`.
fn set_in_elements(
    source: &Source,
    root: &mut Table,
    segments: &[&str],
    value: Value,
    append: bool,
) -> Result<(), ScenarioError> {
    let (section, selector) = (segments[0], segments[1]);
    let path = segments.join(".");
    if segments.len() < 3 {
        return Err(source.error(
            None,
            path,
            format!("--set: write {section}.NAME.KEY (NAME: a name, a position or *)"),
        ));
    }
    let Some(Node { value: Value::Array(elements), .. }) = root.get(section).cloned() else {
        return Err(source.error(None, path, format!("--set: the scenario has no [[{section}]]")));
    };
    let i = root.position(section).expect("present");
    let Value::Array(elements_mut) = &mut root.entries[i].1.value else { unreachable!("checked above") };
    let mut matched = 0;
    for (k, element) in elements.iter().enumerate() {
        if !selects(selector, k, element) {
            continue;
        }
        matched += 1;
        let node = &mut elements_mut[k];
        let span = node.span.clone();
        let Value::Table(t) = &mut node.value else { continue };
        let at = format!("{section}[{}]", k + 1);
        set(source, t, &segments[2..], &at, value.clone(), span, append)?;
    }
    if matched == 0 {
        return Err(source.error(None, path, format!("--set: no [[{section}]] named or numbered '{selector}'")));
    }
    Ok(())
}

/// Whether `selector` picks element `k` (0-based) of an array of tables.
fn selects(selector: &str, k: usize, element: &Node) -> bool {
    if selector == "*" || selector.parse::<usize>().is_ok_and(|n| n == k + 1) {
        return true;
    }
    let Value::Table(t) = &element.value else { return false };
    let text = |n: &Node| match &n.value {
        Value::Str(s) => Some(s.clone()),
        _ => None,
    };
    if let Some(name) = t.get("name").and_then(text) {
        if name == selector || template_matches(&name, selector) {
            return true;
        }
    }
    match t.get("names").map(|n| &n.value) {
        Some(Value::Array(items)) => items.iter().filter_map(text).any(|n| n == selector),
        _ => false,
    }
}

/// `"sw{i}"` (or `{i0}`) matches `sw3`: the text around the placeholder, digits in its place.
fn template_matches(template: &str, name: &str) -> bool {
    for placeholder in ["{i}", "{i0}"] {
        if let Some((before, after)) = template.split_once(placeholder) {
            if let Some(middle) = name.strip_prefix(before).and_then(|n| n.strip_suffix(after)) {
                return !middle.is_empty() && middle.chars().all(|c| c.is_ascii_digit());
            }
        }
    }
    false
}
