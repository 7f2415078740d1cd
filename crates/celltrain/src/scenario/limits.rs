//! Checks that keep an accepted scenario from harming the machine it runs on: names that
//! become file names, paths that loop, sizes beyond what a run can hold. Each refuses with a
//! one-line error at the key, before anything runs.

use super::{ScenarioError, TableView};

/// The largest buffer of any kind (switch port, pool, adapter), cells: 2^24 cells hold
/// 805 MB of payload, far beyond any switch studied, and their queue stays within a few
/// hundred MB of memory.
pub(super) const MAX_BUFFER_CELLS: u32 = 1 << 24;
use crate::file_names::{escape_for_display, file_name_problem};
use celltrain_core::time::SimDuration;
use celltrain_core::units::{BitRate, CELL_BITS};

/// A node named in `[record] pcap` or `pcap_links` becomes (part of) a capture's file name:
/// it must stay a plain name inside `--out`.
pub(super) fn capture_name(v: &TableView<'_>, key: &str, name: &str) -> Result<(), ScenarioError> {
    match file_name_problem(name) {
        None => Ok(()),
        Some(why) => Err(v.key_error(
            key,
            format!("'{}' cannot name a capture file: it {why} (rename the node)", escape_for_display(name)),
        )),
    }
}

/// A path that visits a node twice would give its VC two next hops there (its cells split
/// between them): refused at the `path` key.
pub(super) fn path_visits_each_node_once(v: &TableView<'_>, path: &[String]) -> Result<(), ScenarioError> {
    let mut seen = std::collections::BTreeSet::new();
    for name in path {
        if !seen.insert(name.as_str()) {
            return Err(v.key_error("path", format!("visits node '{}' twice", escape_for_display(name))));
        }
    }
    Ok(())
}

/// The largest packet limit a scenario may give.
pub const MAX_BUFFER_PACKETS: u64 = 10_000_000;
/// The largest byte limit a scenario may give (16 GiB).
pub const MAX_BUFFER_BYTES: u64 = 1 << 34;

/// The fastest link: 1 Tbit/s (a cell time of 424 ps; at 424 Tbit/s it would fall below the
/// clock's 1 ps).
pub const MAX_LINK_RATE: BitRate = BitRate::from_bps(1_000_000_000_000);
/// The most cells one direction of a link may hold in flight (rate × delay): each is an entry
/// in the link's pipe.
pub const MAX_CELLS_IN_FLIGHT: u64 = 1 << 24;

/// A source's `rate` within [`MAX_LINK_RATE`]: faster, its datagrams would come picoseconds
/// apart, an event each, and a millisecond would take hours.
pub(super) fn rate_within(v: &TableView<'_>, key: &str, rate: Option<BitRate>) -> Result<(), ScenarioError> {
    match rate {
        Some(r) if r > MAX_LINK_RATE => Err(v.key_error(key, format!("{r} is too fast (max {MAX_LINK_RATE})"))),
        _ => Ok(()),
    }
}

/// A link's rate and delay within [`MAX_LINK_RATE`] and [`MAX_CELLS_IN_FLIGHT`].
pub(super) fn link_capacity(v: &TableView<'_>, rate: BitRate, delay: SimDuration) -> Result<(), ScenarioError> {
    if rate > MAX_LINK_RATE {
        return Err(v.key_error("rate", format!("{rate} is too fast (max {MAX_LINK_RATE})")));
    }
    let in_flight =
        u128::from(rate.as_bps()) * u128::from(delay.as_picos()) / (u128::from(CELL_BITS) * 1_000_000_000_000);
    if in_flight > u128::from(MAX_CELLS_IN_FLIGHT) {
        return Err(v.key_error(
            "delay",
            format!("{in_flight} cells in flight at {rate} (rate × delay) is too many (max {MAX_CELLS_IN_FLIGHT})"),
        ));
    }
    Ok(())
}

/// The most samples a `[record] interval` may take in one run (each a row of the series).
pub const MAX_SAMPLES: u64 = 10_000_000;

/// `[record] interval` takes at most [`MAX_SAMPLES`] samples over the run's `duration`.
pub(super) fn record_samples(
    r: &TableView<'_>,
    interval: Option<SimDuration>,
    duration: SimDuration,
) -> Result<(), ScenarioError> {
    let Some(interval) = interval.filter(|i| !i.is_zero()) else { return Ok(()) };
    let samples = duration.as_picos() / interval.as_picos();
    if samples > MAX_SAMPLES {
        return Err(r.key_error(
            "interval",
            format!("{samples} samples over the run is too many (max {MAX_SAMPLES}): use a longer interval"),
        ));
    }
    Ok(())
}

/// An on/off source's mean periods, each at its own key (a zero `off` was once blamed on `on`).
pub(super) fn onoff_periods(app: &TableView<'_>, on: SimDuration, off: SimDuration) -> Result<(), ScenarioError> {
    for (key, period) in [("on", on), ("off", off)] {
        if period.is_zero() {
            return Err(app.key_error(key, "must be positive"));
        }
    }
    Ok(())
}

/// The most nodes a flow's path can have and still be routed: a route has at most 255 hops and
/// a VC at most 255 links, so any longer path is refused at build; refused here instead, before
/// the nodes along it are built (a path through 100 000 switches took seconds and a GB first).
pub const MAX_PATH_NODES: usize = 255 * 255 + 1;

/// A path within [`MAX_PATH_NODES`].
pub(super) fn path_length_within(v: &TableView<'_>, path: &[String]) -> Result<(), ScenarioError> {
    if path.len() > MAX_PATH_NODES {
        return Err(v.key_error(
            "path",
            format!(
                "{} nodes is too long (max {MAX_PATH_NODES}: at most 255 hops of at most 255 links each)",
                path.len()
            ),
        ));
    }
    Ok(())
}
