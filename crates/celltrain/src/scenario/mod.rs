//! Scenario files: TOML in, a checked, spanned, parameter-substituted tree out.
//!
//! This layer knows nothing of nodes, links or flows. It turns scenario text into a
//! tree the model builder reads with typed accessors, so that every mistake in a
//! scenario is reported as `file:line: key.path: message` (see [`ScenarioError`]).
//!
//! # Pipeline
//! 1. [`value::parse`]: TOML → [`Table`] of [`Node`]s, keys in file order, every key
//!    and value with its byte span. Syntax errors get key `(syntax)`.
//! 2. [`params::resolve`]: `[params]` defaults, then `--set name=value` overrides.
//! 3. [`params::substitute`]: `"${name}"` → the parameter's typed value;
//!    `"…${name}…"` → text.
//! 4. The builder reads sections with [`TableView::root`], expands repeated elements
//!    with [`expand()`], and calls [`TableView::finish`] to reject unknown keys.
//!
//! # Writing quantities
//! Units are part of the text: `"149.76 Mbit/s"`, `"353207 cells/s"`, `"5 ms"`,
//! `"50 µs"`, `"8192 cells"` (or `8192`), `"9140 B"`, `"64 KB"` (= 64 000 B),
//! `"48 KiB"` (= 49 152 B), `"80 %"` (or `0.8`); rates may be `"line"` where the builder
//! allows it. See [`units`] for the full table.
//!
//! # Example
//! ```toml
//! [params]
//! n_sources = 5
//! buffer = "8192 cells"
//!
//! [[flow]]
//! name = "udp{i}"            # udp1 … udp5
//! count = "${n_sources}"     # becomes the integer 5
//! app = { kind = "udp", rate = "line", datagram = "9140 B" }
//! ```
//! ```ignore
//! let loaded = load(Source::new("a4.toml", text), &[("n_sources".into(), "20".into())])?;
//! let root = TableView::root(&loaded);
//! for element in root.array_of_tables("flow")? {
//!     for copy in expand(&element)? {
//!         let flow = copy.view(&loaded.source);
//!         let name = flow.req_str("name")?;
//!         let app = flow.req_table("app")?;
//!         let rate = app.req_rate_spec("rate")?;
//!         // …
//!         flow.finish()?;
//!     }
//! }
//! root.finish()?;
//! ```

mod abr;
pub mod access;
mod admission;
mod apps;
mod conditioning;
pub mod error;
pub mod expand;
mod limits;
mod link_rates;
mod messages;
mod model;
mod packet_mode;
pub mod params;
pub mod path_set;
mod paths;
mod pool_thresholds;
mod record_extra;
mod spanned;
mod switch_port;
mod tcp_app;
mod tcp_policies;
mod tcp_stack;
mod totals;
mod udp_warnings;
pub mod units;
pub mod value;

#[cfg(test)]
mod tests;

pub use access::{NodeView, TableView};
pub use error::ScenarioError;
pub use expand::{expand, has_index_placeholder, table_has_index_placeholder, Instance};
pub use model::{compile, compile_source, Compiled};
pub use params::ParamValue;
pub use units::RateSpec;
pub use value::{Key, Node, Source, Table, Value};

/// A scenario after parsing and parameter substitution.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub source: Source,
    /// Every declared parameter with its final value, in declared order (for
    /// `summary.json` and for keying sweep results).
    pub params: Vec<(String, ParamValue)>,
    /// The substituted tree. `[params]` is still in it, unsubstituted.
    pub root: Table,
}

/// Parses `source`, applies `overrides` (`--set name=value`, in order, last wins; a dotted
/// name sets any key, see [`path_set`]) and substitutes parameters.
pub fn load(source: Source, overrides: &[(String, String)]) -> Result<Loaded, ScenarioError> {
    let mut root = value::parse(&source)?;
    let (paths, plain): (Vec<_>, Vec<_>) = overrides.iter().cloned().partition(|(name, _)| path_set::is_path(name));
    let mut params = params::resolve(&source, &root, &plain)?;
    let by_path = path_set::apply(&source, &mut root, &paths)?;
    params::substitute(&source, &mut root, &params)?;
    params.extend(by_path);
    Ok(Loaded { source, params, root })
}
