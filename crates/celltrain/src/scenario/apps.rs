//! The application keys beyond the constant-rate sources: `stop` (any kind) and the datagram
//! sources with random timing, `kind = "poisson"` and `kind = "onoff-packet"`.
//!
//! `onoff-packet` is its own kind rather than `onoff` with a datagram size: `onoff` emits raw
//! ATM cells (no AAL5, no IP), which only an ATM path can carry, while `onoff-packet` emits UDP
//! datagrams that run over AAL5 in cell mode and as IP packets in packet mode. Keeping the two
//! kinds apart means one key never changes what a flow's units are.

use super::{RateSpec, ScenarioError, TableView};
use crate::network::{BuildError, Field, NetworkBuilder};
use celltrain_atm::cac::OnOff;
use celltrain_core::ids::RouteId;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;

/// A datagram source with random timing, as read from its `app` table.
pub(super) enum RandomApp {
    Poisson { datagram: u64, rate: BitRate },
    OnOffPacket { datagram: u64, peak: Option<BitRate>, on: SimDuration, off: SimDuration },
}

/// `stop = "<time>"`: when flow `name`'s application stops, counted from the run's start like
/// `start`. It must come after the flow's (effective) start; a stop at or beyond the duration
/// never comes, so it changes nothing.
pub(super) fn read_stop(
    app: &TableView<'_>,
    start: SimTime,
    b: &mut NetworkBuilder,
    name: &str,
) -> Result<(), ScenarioError> {
    let Some(stop) = app.opt_duration("stop")? else { return Ok(()) };
    let stop = SimTime::ZERO + stop;
    if stop <= start {
        let (stop_s, start_s) = (stop.as_secs_f64(), start.as_secs_f64());
        return Err(app.key_error("stop", format!("must be after the start ({stop_s} s is not after {start_s} s)")));
    }
    b.set_stop(name, stop);
    Ok(())
}

/// Reads a `poisson` or `onoff-packet` app (`pcr`: the VC's PCR, what `"line"` means;
/// `line`: the first link's rate), with its descriptor for admission control: a Poisson source
/// at its mean rate, an on/off one at its peak, on on / (on + off) of the time.
pub(super) fn read_random_app(
    app: &TableView<'_>,
    kind: &str,
    pcr: BitRate,
    line: BitRate,
) -> Result<(RandomApp, OnOff), ScenarioError> {
    let datagram = app.req_bytes("datagram")?;
    let or_line = |s: RateSpec| match s {
        RateSpec::Line => pcr,
        RateSpec::Rate(r) => r,
    };
    if kind == "poisson" {
        let rate = or_line(app.req_rate_spec("rate")?);
        if rate.as_bps() == 0 {
            return Err(app.key_error("rate", "must be positive"));
        }
        super::limits::rate_within(app, "rate", Some(rate))?;
        let descriptor = OnOff { peak_bps: rate.as_bps() as f64, activity: 1.0, mean_on_s: 1.0 };
        return Ok((RandomApp::Poisson { datagram, rate }, descriptor));
    }
    let (peak, on, off) = onoff_keys(app, pcr, line)?;
    let (on_s, off_s) = (on.as_secs_f64(), off.as_secs_f64());
    let peak_bps = peak.unwrap_or(pcr).as_bps() as f64;
    let descriptor = OnOff { peak_bps, activity: on_s / (on_s + off_s), mean_on_s: on_s };
    Ok((RandomApp::OnOffPacket { datagram, peak, on, off }, descriptor))
}

/// The `peak` (`"line"`: the VC's PCR `pcr`; at most the first link's rate `line`), `on` and
/// `off` keys of an on/off app, cells or datagrams.
pub(super) fn onoff_keys(
    app: &TableView<'_>,
    pcr: BitRate,
    line: BitRate,
) -> Result<(Option<BitRate>, SimDuration, SimDuration), ScenarioError> {
    let peak = app.opt_rate_spec("peak")?.map(|s| match s {
        RateSpec::Line => pcr,
        RateSpec::Rate(r) => r,
    });
    if peak.is_some_and(|r| r.as_bps() == 0 || r > line) {
        return Err(app.key_error("peak", "must be positive and at most the first link's rate"));
    }
    let on = app.req_duration("on")?;
    let off = app.req_duration("off")?;
    super::limits::onoff_periods(app, on, off)?;
    Ok((peak, on, off))
}

/// Adds the source of a random app on `route`; errors name the app key at fault.
pub(super) fn add_random_app(
    b: &mut NetworkBuilder,
    (v, app): (&TableView<'_>, &TableView<'_>),
    (name, route, start): (&str, RouteId, SimTime),
    spec: RandomApp,
) -> Result<(), ScenarioError> {
    let at_key = |e: BuildError| match e.field {
        Field::Name => v.key_error("name", e.message),
        Field::Rate => app.key_error(if app.contains("peak") { "peak" } else { "rate" }, e.message),
        Field::Period => app.key_error("on", e.message),
        _ => app.key_error("datagram", e.message),
    };
    match spec {
        RandomApp::Poisson { datagram, rate } => b.add_poisson(name, route, datagram, rate, start),
        RandomApp::OnOffPacket { datagram, peak, on, off } => {
            b.add_onoff_packet(name, route, datagram, peak, (on, off), start)
        }
    }
    .map(|_| ())
    .map_err(at_key)
}
