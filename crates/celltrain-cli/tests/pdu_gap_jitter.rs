//! `pdu_gap_jitter` on the command line: a value outside [0, 1] is one error line naming the
//! file, the line and the key, exit code 2.

mod common;

use common::{celltrain, stderr};

#[test]
fn a_bad_gap_jitter_names_file_line_and_key() {
    for bad in ["2", "-0.5"] {
        let set = format!("pdu_gap_jitter={bad}");
        let out = celltrain(&["check", "V5", "--set", "pdu_gap=7618 us", "--set", &set]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let place = err.strip_prefix("error: built-in:V5:").unwrap_or_else(|| panic!("no file: {err}"));
        assert!(place.starts_with(|c: char| c.is_ascii_digit()), "no line: {err}");
        assert!(err.contains("pdu_gap_jitter") && err.contains("between 0 and 1"), "{err}");
    }
    let ok = celltrain(&["check", "V5", "--set", "pdu_gap=7618 us", "--set", "pdu_gap_jitter=0.2"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
}
