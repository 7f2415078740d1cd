//! The one error type of the scenario layer.
//!
//! Every problem a user can make in a scenario file — a syntax error, a missing or
//! unknown key, a value of the wrong type, a bad unit, an undefined parameter — is
//! reported as a [`ScenarioError`] that names the file, the line (when there is one) and
//! the dotted key path, so a message can be acted on without reading the code.

use std::fmt;

/// A problem in a scenario, located by file, line and key path.
///
/// `Display` is always a single line without a trailing period:
/// `"{file}:{line}: {key}: {message}"`, or `"{file}: {key}: {message}"` when the problem
/// has no line (a `--set` override, a key missing from the top level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The scenario's name: its file path, or `built-in:<id>` for a built-in scenario.
    pub file: String,
    /// 1-based line of the offending text, if it has one.
    pub line: Option<usize>,
    /// Dotted path of the offending key, e.g. `flow[2].app.rate` (array indices are
    /// 1-based), `params.n_sources`, or `(syntax)` for a TOML syntax error.
    pub key: String,
    /// What is wrong, in one line.
    pub message: String,
}

impl ScenarioError {
    pub fn new(
        file: impl Into<String>,
        line: Option<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ScenarioError { file: file.into(), line, key: key.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Users put arbitrary text in quoted keys and strings, which end up in messages;
        // escaping control characters here keeps the one-line promise for every caller.
        let key = if self.key.is_empty() { "(root)" } else { &self.key };
        let message = self.message.trim_end().trim_end_matches('.');
        write!(f, "{}", OneLine(&self.file))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}: {}", OneLine(key), OneLine(message))
    }
}

impl std::error::Error for ScenarioError {}

/// Writes text with control characters escaped, so it cannot break a line.
struct OneLine<'s>(&'s str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() || crate::file_names::is_format_char(c) {
                // A bidi control would reorder what the reader sees: shown as its code.
                write!(
                    f,
                    "{}",
                    if c.is_control() { c.escape_default().to_string() } else { c.escape_unicode().to_string() }
                )?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_line() {
        let e = ScenarioError::new("a.toml", Some(7), "flow[2].app.rate", "bad rate");
        assert_eq!(e.to_string(), "a.toml:7: flow[2].app.rate: bad rate");
        let e = ScenarioError::new("built-in:A4", None, "params.x", "unknown parameter 'x'");
        assert_eq!(e.to_string(), "built-in:A4: params.x: unknown parameter 'x'");
    }

    #[test]
    fn display_is_one_line_without_trailing_period() {
        let e = ScenarioError::new("a\nb.toml", Some(1), "k\r", "two\nlines.");
        let s = e.to_string();
        assert!(!s.contains('\n') && !s.contains('\r'), "{s}");
        assert_eq!(s, "a\\nb.toml:1: k\\r: two\\nlines");
        let e = ScenarioError::new("f", None, "", "m");
        assert_eq!(e.to_string(), "f: (root): m");
    }
}
