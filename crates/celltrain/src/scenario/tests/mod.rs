//! Tests of the layer as the model builder uses it: load, read, expand, finish.

mod access;
mod dgcra;
mod fuzz;
mod gfr;
mod load;
mod path_set;
mod pool_thresholds;
mod reserved_pools;
mod udp_warnings;

use super::*;

fn src(text: &str) -> Source {
    Source::new("s.toml", text)
}

fn loaded(text: &str) -> Loaded {
    load(src(text), &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// The one-line message of the error `read` returns for `text`.
fn read_err(text: &str, read: impl Fn(&TableView<'_>) -> Result<(), ScenarioError>) -> String {
    let l = loaded(text);
    let root = TableView::root(&l);
    match read(&root) {
        Ok(()) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}
