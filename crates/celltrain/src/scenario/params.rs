//! Scenario parameters: `[params]` defaults, `--set name=value` overrides, and
//! `${name}` substitution.
//!
//! Rules:
//! - `[params]` maps a name (letters, digits, `_`; not starting with a digit) to a
//!   scalar default: string, integer, float or boolean.
//! - An override's text is read as a TOML scalar when it is one (`5` → integer,
//!   `0.5` → float, `true` → boolean, `"5 ms"` → string) and is otherwise kept as a
//!   string (`5ms`, `8192 cells`). An integer given for a parameter whose default is a
//!   float becomes a float, so `--set load=1` works for `load = 0.9`. Types are
//!   otherwise checked where the value is used, with the use site's line. Of several
//!   overrides of one name the last wins. Overriding an undeclared name is an error.
//! - Everywhere outside `[params]`, a string that is exactly `"${name}"` becomes the
//!   parameter's value with its type; `${name}` inside a longer string is replaced by
//!   the value's text. The result keeps the span of the string that asked for it.
//! - `${name|value=text|value=text}` is replaced by the text given for the parameter's
//!   value, or by the value's text when none is (so a title can follow a parameter:
//!   `"over ${service|ubr=UBR+EPD|abr=ABR}"`).
//!   A choice's text may hold references itself (`${conditioning|pace=${rate}|police=off}`):
//!   one parameter can then choose which other one a key takes.
//! - `${` always starts a reference, and a parameter's value is not substituted again, so
//!   parameters cannot refer to parameters. Keys are never substituted.

use super::error::ScenarioError;
use super::value::{join_path, Node, Source, Table, Value};
use std::fmt;
use std::ops::Range;

/// A parameter's value after overrides.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl ParamValue {
    /// Reads override text as a TOML scalar if it is one, else as a plain string.
    pub fn from_text(text: &str) -> ParamValue {
        // `v = <text>` must parse to exactly that one key, so text such as "1\nw = 2"
        // cannot smuggle in more.
        let parsed = toml::from_str::<toml::Table>(&format!("v = {text}"));
        match parsed.ok().filter(|t| t.len() == 1).and_then(|t| t.get("v").cloned()) {
            Some(toml::Value::String(s)) => ParamValue::Str(s),
            Some(toml::Value::Integer(i)) => ParamValue::Int(i),
            Some(toml::Value::Float(x)) => ParamValue::Float(x),
            Some(toml::Value::Boolean(b)) => ParamValue::Bool(b),
            _ => ParamValue::Str(text.to_string()),
        }
    }

    /// Override text written as an integer that TOML's 64-bit integers cannot hold: the
    /// message saying so (read as a string it would fail later as "found string …").
    pub fn out_of_range(text: &str) -> Option<String> {
        let t = text.trim();
        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
        let integer =
            digits.starts_with(|c: char| c.is_ascii_digit()) && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
        if !integer || matches!(ParamValue::from_text(t), ParamValue::Int(_)) {
            return None;
        }
        let (which, bound) = if t.starts_with('-') { ("small", i64::MIN) } else { ("large", i64::MAX) };
        Some(format!("--set: the integer {t} is too {which} (integers are 64-bit: {bound} at the most)"))
    }

    /// The value as it appears in the tree after substitution.
    pub fn to_value(&self) -> Value {
        match self {
            ParamValue::Str(s) => Value::Str(s.clone()),
            ParamValue::Int(i) => Value::Int(*i),
            ParamValue::Float(x) => Value::Float(*x),
            ParamValue::Bool(b) => Value::Bool(*b),
        }
    }

    /// The text spliced into a longer string (strings without quotes).
    pub fn to_text(&self) -> String {
        match self {
            ParamValue::Str(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// TOML notation: strings are quoted, so the type is visible in reports.
impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Str(s) => write!(f, "{s:?}"),
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Float(x) => write!(f, "{x:?}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Reads `[params]` and applies `overrides`: the parameters in declared order.
pub fn resolve(
    source: &Source,
    root: &Table,
    overrides: &[(String, String)],
) -> Result<Vec<(String, ParamValue)>, ScenarioError> {
    let mut params = Vec::new();
    if let Some(node) = root.get("params") {
        let Value::Table(table) = &node.value else {
            return Err(source.error(
                Some(&node.span),
                "params",
                format!("expected a table, found {}", node.value.describe()),
            ));
        };
        for (key, node) in &table.entries {
            let path = join_path("params", &key.name);
            if !is_name(&key.name) {
                return Err(source.error(
                    Some(&key.span),
                    path,
                    "parameter names may use only letters, digits and '_', and must not start with a digit",
                ));
            }
            let value = match &node.value {
                Value::Str(s) => ParamValue::Str(s.clone()),
                Value::Int(i) => ParamValue::Int(*i),
                Value::Float(x) => ParamValue::Float(*x),
                Value::Bool(b) => ParamValue::Bool(*b),
                other => {
                    return Err(source.error(
                        Some(&node.span),
                        path,
                        format!(
                            "a parameter's default must be a string, integer, float or boolean, found {}",
                            other.describe()
                        ),
                    ))
                }
            };
            params.push((key.name.clone(), value));
        }
    }
    for (name, text) in overrides {
        let Some(slot) = params.iter_mut().find(|(n, _)| n == name) else {
            return Err(source.error(
                None,
                join_path("params", name),
                format!("unknown parameter '{name}' (declared: {})", declared(&params)),
            ));
        };
        if let Some(message) = ParamValue::out_of_range(text) {
            return Err(source.error(None, join_path("params", name), message));
        }
        slot.1 = match (ParamValue::from_text(text), &slot.1) {
            (ParamValue::Int(i), ParamValue::Float(_)) => ParamValue::Float(i as f64),
            (v, _) => v,
        };
    }
    Ok(params)
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn declared(params: &[(String, ParamValue)]) -> String {
    if params.is_empty() {
        "none".to_string()
    } else {
        params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// Replaces `${name}` references everywhere in `root` except in `[params]`.
pub fn substitute(source: &Source, root: &mut Table, params: &[(String, ParamValue)]) -> Result<(), ScenarioError> {
    let ctx = Ctx { source, params };
    for (key, node) in &mut root.entries {
        if key.name != "params" {
            ctx.node(node, &join_path("", &key.name))?;
        }
    }
    Ok(())
}

struct Ctx<'c> {
    source: &'c Source,
    params: &'c [(String, ParamValue)],
}

impl Ctx<'_> {
    fn node(&self, node: &mut Node, path: &str) -> Result<(), ScenarioError> {
        match &mut node.value {
            Value::Str(s) if s.contains("${") => {
                let replaced = self.string(s, &node.span, path)?;
                node.value = replaced;
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.node(item, &format!("{path}[{}]", i + 1))?;
                }
            }
            Value::Table(t) => {
                for (key, item) in &mut t.entries {
                    self.node(item, &join_path(path, &key.name))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn lookup(&self, name: &str, span: &Range<usize>, path: &str) -> Result<&ParamValue, ScenarioError> {
        if name.is_empty() {
            return Err(self.source.error(Some(span), path, "empty parameter reference '${}' (write ${name})"));
        }
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| v).ok_or_else(|| {
            self.source.error(
                Some(span),
                path,
                format!("undefined parameter '{name}' (declared: {})", declared(self.params)),
            )
        })
    }

    /// The text of reference `inner` (between `${` and `}`): the parameter's value, or the text
    /// its choices give that value.
    fn reference_text(&self, inner: &str, span: &Range<usize>, path: &str) -> Result<String, ScenarioError> {
        let mut parts = split_choices(inner).into_iter();
        let name = parts.next().unwrap_or_default().trim();
        let value = self.lookup(name, span, path)?.to_text();
        for choice in parts {
            let Some((when, text)) = choice.split_once('=') else {
                let message = format!("choice {choice:?} of '${{{inner}}}' is not value=text");
                return Err(self.source.error(Some(span), path, message));
            };
            if when.trim() == value {
                return self.expand(text.trim(), span, path);
            }
        }
        Ok(value)
    }

    fn string(&self, s: &str, span: &Range<usize>, path: &str) -> Result<Value, ScenarioError> {
        if let Some(inner) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
            if !inner.contains('}') && !inner.contains("${") && !inner.contains('|') {
                return Ok(self.lookup(inner.trim(), span, path)?.to_value());
            }
        }
        self.expand(s, span, path).map(Value::Str)
    }

    /// `s` with every reference replaced by its text.
    fn expand(&self, s: &str, span: &Range<usize>, path: &str) -> Result<String, ScenarioError> {
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(at) = rest.find("${") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let Some(end) = closing_brace(after) else {
                return Err(self.source.error(
                    Some(span),
                    path,
                    format!("unterminated parameter reference in {s:?} (write ${{name}})"),
                ));
            };
            out.push_str(&self.reference_text(&after[..end], span, path)?);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Where the reference whose text starts `after` (just past its `${`) ends: the `}` that
/// closes it, past the references its choices hold.
fn closing_brace(after: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = after.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'$' if bytes.get(i + 1) == Some(&b'{') => depth += 1,
            b'}' if depth == 0 => return Some(i),
            b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A reference's name and choices: split at each `|` outside the references its choices hold.
fn split_choices(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let bytes = inner.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'$' if bytes.get(i + 1) == Some(&b'{') => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'|' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn substituted(text: &str, params: &[(String, ParamValue)]) -> Result<Value, ScenarioError> {
        let source = Source::new("t.toml", "");
        Ctx { source: &source, params }.string(text, &(0..0), "scenario.title")
    }

    #[test]
    fn a_choice_gives_the_text_of_the_value() {
        let service = |v: &str| vec![("service".to_string(), ParamValue::Str(v.into()))];
        let title = "over ${service|ubr=UBR+EPD|abr=ABR (ERICA+)}, two-node";
        assert_eq!(substituted(title, &service("ubr")).unwrap(), Value::Str("over UBR+EPD, two-node".into()));
        assert_eq!(substituted(title, &service("abr")).unwrap(), Value::Str("over ABR (ERICA+), two-node".into()));
        assert_eq!(substituted(title, &service("gfr")).unwrap(), Value::Str("over gfr, two-node".into()));
        assert_eq!(substituted("${service|ubr=UBR}", &service("ubr")).unwrap(), Value::Str("UBR".into()));
        let e = substituted("${service|ubr}", &service("ubr")).unwrap_err().to_string();
        assert!(e.contains("choice \"ubr\"") && e.contains("value=text"), "{e}");
    }

    /// One parameter chooses which other one a key takes; a value's own text is not expanded.
    #[test]
    fn a_choice_may_refer_to_another_parameter() {
        let params = |c: &str| {
            vec![
                ("conditioning".to_string(), ParamValue::Str(c.into())),
                ("rate".to_string(), ParamValue::Str("10 Mbit/s".into())),
                ("raw".to_string(), ParamValue::Str("${rate}".into())),
            ]
        };
        let pacing = "${conditioning|pace+police=${rate}|police=off}";
        assert_eq!(substituted(pacing, &params("pace+police")).unwrap(), Value::Str("10 Mbit/s".into()));
        assert_eq!(substituted(pacing, &params("police")).unwrap(), Value::Str("off".into()));
        assert_eq!(substituted(pacing, &params("shape")).unwrap(), Value::Str("shape".into()));
        let nested = "at ${conditioning|a=${rate|10 Mbit/s=ten|x=y}|b=c} now";
        assert_eq!(substituted(nested, &params("a")).unwrap(), Value::Str("at ten now".into()));
        assert_eq!(substituted("${conditioning|a=${raw}}", &params("a")).unwrap(), Value::Str("${rate}".into()));
        let e = substituted("${conditioning|a=${rate}", &params("a")).unwrap_err().to_string();
        assert!(e.contains("unterminated"), "{e}");
    }

    #[test]
    fn override_text_types() {
        assert_eq!(ParamValue::from_text("5"), ParamValue::Int(5));
        assert_eq!(ParamValue::from_text("-5"), ParamValue::Int(-5));
        assert_eq!(ParamValue::from_text("0.5"), ParamValue::Float(0.5));
        assert_eq!(ParamValue::from_text("true"), ParamValue::Bool(true));
        assert_eq!(ParamValue::from_text("\"5 ms\""), ParamValue::Str("5 ms".into()));
        assert_eq!(ParamValue::from_text("5 ms"), ParamValue::Str("5 ms".into()));
        assert_eq!(ParamValue::from_text("5ms"), ParamValue::Str("5ms".into()));
        assert_eq!(ParamValue::from_text("epd"), ParamValue::Str("epd".into()));
        assert_eq!(ParamValue::from_text(""), ParamValue::Str("".into()));
        assert_eq!(ParamValue::from_text("1\nw = 2"), ParamValue::Str("1\nw = 2".into()));
        assert_eq!(ParamValue::from_text("[1, 2]"), ParamValue::Str("[1, 2]".into()));
        assert_eq!(ParamValue::from_text("1979-05-27"), ParamValue::Str("1979-05-27".into()));
    }

    #[test]
    fn display_and_text() {
        assert_eq!(ParamValue::Str("a b".into()).to_string(), "\"a b\"");
        assert_eq!(ParamValue::Float(1.0).to_string(), "1.0");
        assert_eq!(ParamValue::Float(1.0).to_text(), "1.0");
        assert_eq!(ParamValue::Str("a b".into()).to_text(), "a b");
        assert_eq!(ParamValue::Int(7).to_text(), "7");
    }

    #[test]
    fn names() {
        assert!(is_name("n_sources") && is_name("_x") && is_name("a1"));
        assert!(!is_name("1a") && !is_name("a-b") && !is_name("") && !is_name("a.b"));
    }
}
