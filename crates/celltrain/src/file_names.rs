//! Names a scenario chooses that become file names (`<host>.pcap`, `<from>_<to>.pcap`): each
//! must stay one plain file name inside the output directory, whatever the scenario says.

/// The longest name a file may be made from: 255 bytes, the longest file name of ext4, XFS,
/// APFS and NTFS, less the `.pcap` it is given. Checked with the scenario, so that the error
/// names the key rather than the output directory the file could not be created in.
pub const MAX_STEM_BYTES: usize = 250;

/// Why `name` cannot be part of a file name in the output directory, or `None` when it can:
/// no path separator (so no absolute path and no `..` step), not `.` or `..`, no control or
/// Unicode format character (bidi controls would disguise the name in a listing), at most
/// [`MAX_STEM_BYTES`] bytes.
pub fn file_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if name.len() > MAX_STEM_BYTES {
        return Some("is longer than 250 bytes (a file name holds 255, with its .pcap)");
    }
    if name == "." || name == ".." {
        return Some("is a directory step");
    }
    if name.contains(['/', '\\']) {
        return Some("contains a path separator");
    }
    if name.contains(':') {
        return Some("contains ':' (a drive or stream on some systems)");
    }
    if name.chars().any(|c| c.is_control() || is_format_char(c)) {
        return Some("contains a control or format character");
    }
    None
}

/// Unicode format characters (category Cf) that can reorder or hide text: the bidi controls,
/// zero-width characters and the byte-order mark.
pub fn is_format_char(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// `name` with control and format characters written as `\u{…}` escapes, for messages and
/// tables where a bidi control would otherwise reorder what the reader sees.
pub fn escape_for_display(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.chars().any(|c| c.is_control() || is_format_char(c)) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if c.is_control() || is_format_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A file `stem.ext` inside `dir`, refused (as invalid input) unless `stem` is a safe name.
pub fn file_in(dir: &std::path::Path, stem: &str, ext: &str) -> std::io::Result<std::path::PathBuf> {
    match file_name_problem(stem) {
        None => Ok(dir.join(format!("{stem}.{ext}"))),
        Some(why) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("'{}' cannot name a file: it {why}", escape_for_display(stem)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_directory_are_refused() {
        for bad in ["../../x", "/abs/path", "..", ".", "a\\b", "c:x", "a\nb", "a\u{202E}b", ""] {
            assert!(file_name_problem(bad).is_some(), "{bad:?} accepted");
            assert!(file_in(std::path::Path::new("out"), bad, "pcap").is_err(), "{bad:?}");
        }
        for good in ["h1", "src-3", "a.b", "tcp,1", "Ünïcode"] {
            assert_eq!(file_name_problem(good), None, "{good:?} refused");
        }
        assert_eq!(file_in(std::path::Path::new("out"), "h1", "pcap").unwrap(), std::path::Path::new("out/h1.pcap"));
    }

    #[test]
    fn format_characters_are_escaped_for_display() {
        assert_eq!(escape_for_display("h1"), "h1");
        assert_eq!(escape_for_display("a\u{202E}b\n"), "a\\u{202e}b\\u{a}");
    }
}
