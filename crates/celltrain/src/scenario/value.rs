//! A TOML value tree in which every key and value remembers where it came from.
//!
//! `toml::Value` forgets byte positions (and, without toml's `preserve_order` feature,
//! sorts keys), so errors found while building the model could not point at a line.
//! This tree keeps, for every key and every value, its byte span in the [`Source`] text,
//! and keeps table entries in the order they appear in the file.
//!
//! The tree is deserialized with `toml::de` through our own serde visitor (module
//! `spanned`), which obtains spans the way `toml::Spanned` does.
//!
//! Dates and times are valid TOML but have no meaning in a scenario; they are rejected
//! with an error that points at them.

use super::error::ScenarioError;
use super::spanned::{self, Raw, RawNode};
use std::ops::Range;

/// The text of a scenario and the name to report it under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// File path, or `built-in:<id>` for a scenario compiled into the program.
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source { name: name.into(), text: text.into() }
    }

    /// 1-based line holding byte `offset` (offsets past the end count as the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        1 + self.text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count()
    }

    /// An error located at `span` (its first byte), or with no line when `span` is `None`.
    pub fn error(
        &self,
        span: Option<&Range<usize>>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> ScenarioError {
        ScenarioError::new(self.name.clone(), span.map(|s| self.line_of(s.start)), key, message)
    }
}

/// A table key and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub name: String,
    pub span: Range<usize>,
}

/// A value and where it was written. Values substituted from parameters keep the span of
/// the `"${name}"` string that asked for them, so errors point at the use.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Range<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Node>),
    Table(Table),
}

/// A table with its entries in file order. Keys are unique (TOML guarantees it).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub entries: Vec<(Key, Node)>,
}

impl Table {
    pub fn get(&self, name: &str) -> Option<&Node> {
        self.position(name).map(|i| &self.entries[i].1)
    }
    pub fn position(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k.name == name)
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Value {
    /// The TOML type name used in messages: "string", "integer", "float", "boolean",
    /// "array" or "table".
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "string",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Bool(_) => "boolean",
            Value::Array(_) => "array",
            Value::Table(_) => "table",
        }
    }

    /// The value as a message shows what was found: `integer 5`, `string "5 ms"`, `table`.
    pub fn describe(&self) -> String {
        match self {
            Value::Str(s) => {
                let mut shown: String = s.chars().take(40).collect();
                if shown.len() < s.len() {
                    shown.push('…');
                }
                format!("string {shown:?}")
            }
            Value::Int(i) => format!("integer {i}"),
            Value::Float(x) => format!("float {x}"),
            Value::Bool(b) => format!("boolean {b}"),
            Value::Array(_) => "array".to_string(),
            Value::Table(_) => "table".to_string(),
        }
    }
}

/// Parses scenario text into its root table.
///
/// A TOML syntax error becomes a [`ScenarioError`] with key `(syntax)` and the line of
/// the error; a date or time value becomes an error at its key.
pub fn parse(source: &Source) -> Result<Table, ScenarioError> {
    let raw = spanned::deserialize(&source.text).map_err(|e| syntax_error(source, &e))?;
    match convert(source, raw, "")?.value {
        Value::Table(t) => Ok(t),
        other => Err(source.error(
            None,
            "(syntax)",
            format!("expected a table at the top level, found {}", other.type_name()),
        )),
    }
}

fn syntax_error(source: &Source, e: &toml::de::Error) -> ScenarioError {
    // toml's messages may span several lines ("invalid key\nexpected ..."); one line is
    // the contract of ScenarioError, so the parts are joined.
    let mut message = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ");
    if message.is_empty() {
        message = super::messages::silent_syntax_error(&source.text, e.span());
    }
    source.error(e.span().as_ref(), "(syntax)", message)
}

/// Dotted path of `key` below `parent`, quoting keys that are not bare TOML keys.
pub(super) fn join_path(parent: &str, key: &str) -> String {
    let bare = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let key = if bare { key.to_string() } else { format!("{key:?}") };
    if parent.is_empty() {
        key
    } else {
        format!("{parent}.{key}")
    }
}

fn convert(source: &Source, node: RawNode, path: &str) -> Result<Node, ScenarioError> {
    let value = match node.raw {
        Raw::Str(s) => Value::Str(s),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(x) => Value::Float(x),
        Raw::Bool(b) => Value::Bool(b),
        Raw::Datetime(text) => {
            return Err(source.error(
                Some(&node.span),
                path,
                format!("dates and times are not supported (found {text}); write quantities as text such as \"5 ms\""),
            ))
        }
        Raw::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, n)| convert(source, n, &format!("{path}[{}]", i + 1)))
                .collect::<Result<_, _>>()?,
        ),
        Raw::Table(entries) => Value::Table(Table {
            entries: entries
                .into_iter()
                .map(|(k, n)| {
                    let child = convert(source, n, &join_path(path, &k.name))?;
                    Ok((k, child))
                })
                .collect::<Result<_, ScenarioError>>()?,
        }),
    };
    Ok(Node { value, span: node.span })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source::new("t.toml", text)
    }

    fn at<'t>(t: &'t Table, text: &str, key: &str) -> (&'t Node, String) {
        let n = t.get(key).unwrap();
        (n, text[n.span.clone()].to_string())
    }

    #[test]
    fn spans_and_order_of_keys_and_values() {
        let text = "z = 1\na = \"x\"\n[b]\nc = 2.5\n[[f]]\nn = 1\n[[f]]\nn = true\n";
        let t = parse(&src(text)).unwrap();
        let names: Vec<_> = t.entries.iter().map(|(k, _)| k.name.as_str()).collect();
        assert_eq!(names, ["z", "a", "b", "f"]);
        assert_eq!(at(&t, text, "z").1, "1");
        assert_eq!(at(&t, text, "a").1, "\"x\"");
        let (k, _) = &t.entries[1];
        assert_eq!(&text[k.span.clone()], "a");
        let (b, btext) = at(&t, text, "b");
        assert!(btext.starts_with("[b]"), "{btext}");
        let Value::Table(bt) = &b.value else { panic!() };
        assert_eq!(bt.get("c").unwrap().value, Value::Float(2.5));
        let Value::Array(fs) = &t.get("f").unwrap().value else { panic!() };
        assert_eq!(fs.len(), 2);
        assert!(text[fs[1].span.clone()].starts_with("[[f]]\nn = true"));
    }

    #[test]
    fn implicit_tables_take_their_key_span() {
        let text = "x.y.z = 1\n[a.b]\nc = [1, {d = 2}]\n";
        let t = parse(&src(text)).unwrap();
        let (x, xtext) = at(&t, text, "x");
        assert_eq!(xtext, "x");
        let Value::Table(xt) = &x.value else { panic!() };
        let Value::Table(yt) = &xt.get("y").unwrap().value else { panic!() };
        assert_eq!(yt.get("z").unwrap().value, Value::Int(1));
        let Value::Table(at_) = &t.get("a").unwrap().value else { panic!() };
        let Value::Table(bt) = &at_.get("b").unwrap().value else { panic!() };
        let c = bt.get("c").unwrap();
        assert_eq!(&text[c.span.clone()], "[1, {d = 2}]");
        let Value::Array(items) = &c.value else { panic!() };
        assert_eq!(&text[items[1].span.clone()], "{d = 2}");
    }

    #[test]
    fn syntax_error_has_line_and_one_line_message() {
        let e = parse(&src("a = 1\nb = \n")).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert_eq!(e.key, "(syntax)");
        assert!(!e.to_string().contains('\n'));
        assert!(e.to_string().starts_with("t.toml:2: (syntax): "), "{e}");
        let e = parse(&src("a = 1\n\n[x\n")).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = parse(&src("a = 1\na = 2\n")).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn datetimes_are_rejected_at_their_key() {
        let e = parse(&src("[s]\nx = 1\nwhen = 1979-05-27\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:3: s.when: dates and times are not supported (found 1979-05-27); write quantities as text such as \"5 ms\""
        );
        let e = parse(&src("a = [1, 07:32:00]")).unwrap_err();
        assert_eq!(e.key, "a[2]");
    }

    #[test]
    fn line_of_offsets() {
        let s = src("a\nbc\n\nd");
        assert_eq!(s.line_of(0), 1);
        assert_eq!(s.line_of(2), 2);
        assert_eq!(s.line_of(5), 3);
        assert_eq!(s.line_of(6), 4);
        assert_eq!(s.line_of(999), 4);
    }

    #[test]
    fn paths_quote_non_bare_keys() {
        assert_eq!(join_path("", "a"), "a");
        assert_eq!(join_path("flow[2]", "app"), "flow[2].app");
        assert_eq!(join_path("x", "a.b"), "x.\"a.b\"");
    }
}
