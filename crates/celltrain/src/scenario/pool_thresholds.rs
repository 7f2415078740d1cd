//! Thresholds on a buffer pool's occupancy (`clp1_threshold`, GFR's `low_threshold` and
//! `high_threshold`, frame-level RED's `red_min_th` and `red_max_th`) are one number applied to
//! every pool of a port: the shared pool and each `reserved` one. They are checked against the
//! shared buffer when read (above it is an error); a reserved pool smaller than a threshold is
//! legal — the threshold was meant for the shared pool — but the rule then never acts in that
//! pool before it is full, which a reader of the results should know: a warning names the pool.
//! (EPD's threshold is a rule resolved per pool and checked there, by its policy:
//! `celltrain_atm::port::buffer`'s `threshold` module.)

use super::{expand, Loaded, ScenarioError, TableView};
use celltrain_atm::port::buffer::{AcceptancePolicy, DiscardPolicy, TailDrop};
use celltrain_atm::port::PORT_POOL_THRESHOLDS;

/// One warning per reserved pool smaller than a pool threshold of its switch (the first copy of
/// a repeated switch only), in cell mode.
pub(super) fn warnings(root: &TableView<'_>, loaded: &Loaded) -> Result<Vec<String>, ScenarioError> {
    let mut out = Vec::new();
    for sw in root.array_of_tables("switch")? {
        let Some(first) = expand(&sw)?.into_iter().next() else { continue };
        let v = first.view(&loaded.source);
        let Some(pools) = v.opt_table("reserved")? else { continue };
        // The port's pool thresholds, then the chosen policy's (each policy names its own).
        let discard = v.opt_str("discard")?.unwrap_or(TailDrop::NAME);
        let policy = DiscardPolicy::named(discard).map_or(&[][..], |p| p.pool_thresholds);
        let mut thresholds = Vec::new();
        for &key in PORT_POOL_THRESHOLDS.iter().chain(policy) {
            if let Some(cells) = v.opt_cells(key)? {
                thresholds.push((key, cells));
            }
        }
        for (name, node) in pools.entries() {
            let pool_cells = node.cells()?;
            for &(key, cells) in &thresholds {
                if cells >= pool_cells {
                    let message = format!(
                        "this reserved pool of {pool_cells} cells is no larger than {key} = {cells} cells: \
                         the threshold never acts in it before it is full"
                    );
                    out.push(pools.key_error(&name.name, message).to_string());
                }
            }
        }
    }
    Ok(out)
}
