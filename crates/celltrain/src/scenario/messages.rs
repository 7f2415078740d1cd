//! Messages for problems the parser leaves unexplained: a scenario that is not a readable
//! text file, and TOML syntax errors that come without words.

use super::{ScenarioError, Source};
use std::path::Path;

/// Reads scenario file `spec` (a path that is a regular file) as UTF-8 text; invalid UTF-8
/// is an error at its line, giving the byte offset.
pub(super) fn read_file(spec: &str) -> Result<Source, ScenarioError> {
    let file_error = |line, message: String| ScenarioError::new(spec.to_string(), line, "(file)", message);
    let bytes = std::fs::read(spec).map_err(|e| file_error(None, format!("cannot read: {e}")))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(spec, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            Err(file_error(Some(line), format!("not UTF-8 text: invalid byte 0x{:02x} at byte {at}", e.as_bytes()[at])))
        }
    }
}

/// Why `spec` names no scenario: a directory, a FIFO or device, or nothing at all.
pub(super) fn not_a_scenario(spec: &str) -> ScenarioError {
    let message = match std::fs::metadata(Path::new(spec)) {
        Ok(m) if m.is_dir() => "is a directory, not a scenario file".to_string(),
        Ok(_) => "is not a regular file (a FIFO, socket or device); give a scenario file".to_string(),
        Err(_) => match crate::experiments::find(spec) {
            Some(e) => crate::experiments::how_to_run(&e),
            None => "no such file, and no built-in scenario of that name (see `celltrain list`)".to_string(),
        },
    };
    let key = if std::fs::metadata(spec).is_ok() { "(file)" } else { "(scenario)" };
    ScenarioError::new(spec.to_string(), None, key, message)
}

/// What to say about a syntax error the TOML parser gave no message for, from the text at
/// `span`: the end of the file (a value cut off), or a control character.
pub(super) fn silent_syntax_error(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let start = span.map_or(text.len(), |s| s.start);
    match text.get(start..).and_then(|rest| rest.chars().next()) {
        None => "the file ends where a value or key is expected (cut off?)".to_string(),
        Some(c) if c.is_control() && c != '\n' && c != '\t' => {
            format!("control character U+{:04X} is not allowed here (not even in a comment)", u32::from(c))
        }
        Some('\n') | Some('\r') => "the line ends where a value is expected".to_string(),
        Some(c) => format!("unexpected character '{}'", c.escape_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silent_syntax_errors_get_words() {
        assert!(silent_syntax_error("id =", Some(4..4)).contains("ends"));
        assert!(silent_syntax_error("# a \u{1} b", Some(4..5)).contains("U+0001"));
        assert!(silent_syntax_error("a = \n", Some(4..5)).contains("line ends"));
    }
}
