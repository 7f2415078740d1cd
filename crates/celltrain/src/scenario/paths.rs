//! Runs of nodes in a flow's path: "s{0..3}" stands for s0, s1, s2, s3, so that the length of a
//! chain of switches can be a parameter.

use super::{ScenarioError, TableView};

/// A flow's path with each run written "s{0..3}" spelled out (s0, s1, s2, s3; a run may count
/// down, and "{a..b}" may sit between a prefix and a suffix), so a chain's length can be a
/// parameter: `path = ["h1", "s{0..${n_links}}", "d1"]`.
pub(super) fn expand_path(v: &TableView<'_>, names: Vec<&str>) -> Result<Vec<String>, ScenarioError> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let run = name.find('{').and_then(|open| {
            let close = open + name[open..].find('}')?;
            let (a, b) = name[open + 1..close].split_once("..")?;
            Some((open, close, a.trim().parse::<u64>().ok(), b.trim().parse::<u64>().ok()))
        });
        match run {
            None => out.push(name.to_string()),
            Some((open, close, Some(a), Some(b))) => {
                if a.abs_diff(b) > super::expand::MAX_COUNT {
                    return Err(v.key_error("path", format!("the run in '{name}' is too long")));
                }
                let (prefix, suffix) = (&name[..open], &name[close + 1..]);
                let steps: Box<dyn Iterator<Item = u64>> =
                    if a <= b { Box::new(a..=b) } else { Box::new((b..=a).rev()) };
                out.extend(steps.map(|k| format!("{prefix}{k}{suffix}")));
            }
            Some(_) => {
                return Err(v.key_error("path", format!("'{name}': a run of nodes is written like \"s{{0..3}}\"")))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::scenario::{load, Source, TableView};

    fn expand(path: &str) -> Result<Vec<String>, String> {
        let text = format!("path = {path}\n");
        let loaded = load(Source::new("t.toml", text), &[]).map_err(|e| e.to_string())?;
        let root = TableView::root(&loaded);
        super::expand_path(&root, root.req_str_list("path").unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn runs_are_spelled_out() {
        assert_eq!(expand(r#"["h1", "s{0..3}", "d1"]"#).unwrap(), ["h1", "s0", "s1", "s2", "s3", "d1"]);
        assert_eq!(expand(r#"["sw{3..1}x"]"#).unwrap(), ["sw3x", "sw2x", "sw1x"]);
        assert_eq!(expand(r#"["a", "b"]"#).unwrap(), ["a", "b"]);
        let e = expand(r#"["s{0..x}"]"#).unwrap_err();
        assert!(e.contains("path") && e.contains("run of nodes"), "{e}");
        assert!(expand(r#"["s{0..999999999}"]"#).unwrap_err().contains("too long"));
    }
}
