//! The admission-control models of `celltrain_atm::cac` for Python (`celltrain.cac` wraps
//! them). Rates in bit/s, buffers in bits, durations in seconds; a bad descriptor raises
//! ValueError.

use celltrain_atm::cac::{
    convolution::ActiveRate, effective, CacError, DelayPriority, EbMethod, LossCriterion, OnOff, Rule, SourceClass,
    Work,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(e: CacError) -> PyErr {
    PyValueError::new_err(e.0)
}

/// (count, peak_bps, activity[, mean_on_s]) tuples; the on-period defaults to 1 s where only
/// the bufferless models look at the classes.
type ClassTuple = (u32, f64, f64, Option<f64>);

fn to_classes(tuples: &[ClassTuple]) -> Vec<SourceClass> {
    tuples
        .iter()
        .map(|&(count, peak_bps, activity, on)| {
            SourceClass::new(count, OnOff { peak_bps, activity, mean_on_s: on.unwrap_or(1.0) })
        })
        .collect()
}

fn port(
    capacity_bps: f64,
    (rt_buffer_bits, nrt_buffer_bits): (f64, f64),
    target: f64,
    criterion: &str,
    method: &str,
) -> PyResult<DelayPriority> {
    let p = DelayPriority {
        capacity_bps,
        rt_buffer_bits,
        nrt_buffer_bits,
        target,
        criterion: LossCriterion::parse(criterion).map_err(value_error)?,
        eb: EbMethod::parse(method).map_err(value_error)?,
    };
    p.validate().map_err(value_error)?;
    Ok(p)
}

/// The bufferless model of `classes` at `capacity_bps`: (mean rate bit/s, P(rate > C),
/// fluid CLR E[(rate − C)+] / E[rate]).
#[pyfunction]
fn cac_convolution(classes: Vec<ClassTuple>, capacity_bps: f64) -> PyResult<(f64, f64, f64)> {
    let d = ActiveRate::of(&to_classes(&classes)).map_err(value_error)?;
    Ok((d.mean_bps(), d.overflow_probability(capacity_bps), d.fluid_clr(capacity_bps)))
}

/// Guérin et al.'s effective bandwidth ĉ (bit/s) of one on/off source with a buffer.
#[pyfunction]
fn cac_effective_bandwidth(
    peak_bps: f64,
    activity: f64,
    mean_on_s: f64,
    buffer_bits: f64,
    target: f64,
) -> PyResult<f64> {
    effective::equivalent_capacity(&OnOff { peak_bps, activity, mean_on_s }, buffer_bits, target).map_err(value_error)
}

/// The capacity (bit/s) `classes` need with one buffer: method `fluid` (Σ ĉ), `gaussian`
/// (m + α'σ) or `min`.
#[pyfunction]
fn cac_aggregate(classes: Vec<ClassTuple>, buffer_bits: f64, target: f64, method: &str) -> PyResult<f64> {
    let method = EbMethod::parse(method).map_err(value_error)?;
    effective::aggregate_bps(&to_classes(&classes), buffer_bits, target, method).map_err(value_error)
}

/// Does `rule` (peak, convolution, linear, rt, nrt, combined) admit the mix on a
/// delay-priority port?
#[pyfunction]
#[pyo3(signature = (rule, rt, nrt, capacity_bps, rt_buffer_bits, nrt_buffer_bits, target, criterion="clr", method="fluid"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
fn cac_admits(
    rule: &str,
    rt: Vec<ClassTuple>,
    nrt: Vec<ClassTuple>,
    capacity_bps: f64,
    rt_buffer_bits: f64,
    nrt_buffer_bits: f64,
    target: f64,
    criterion: &str,
    method: &str,
) -> PyResult<bool> {
    let rule = Rule::parse(rule).map_err(value_error)?;
    let p = port(capacity_bps, (rt_buffer_bits, nrt_buffer_bits), target, criterion, method)?;
    p.admits(rule, &to_classes(&rt), &to_classes(&nrt)).map_err(value_error)
}

/// For each n_rt in 0..=n_rt_max, the largest n_nrt ≤ limit that `rule` admits with every
/// smaller n_nrt (None: not even 0), within `WORK_LIMIT` terms of work in all; `rt` and `nrt` are (peak_bps, activity, mean_on_s).
#[pyfunction]
#[pyo3(signature = (rule, rt, nrt, n_rt_max, limit, capacity_bps, rt_buffer_bits, nrt_buffer_bits, target, criterion="clr", method="fluid"))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
fn cac_boundary(
    rule: &str,
    rt: (f64, f64, f64),
    nrt: (f64, f64, f64),
    n_rt_max: u32,
    limit: u32,
    capacity_bps: f64,
    rt_buffer_bits: f64,
    nrt_buffer_bits: f64,
    target: f64,
    criterion: &str,
    method: &str,
) -> PyResult<Vec<Option<u32>>> {
    let rule = Rule::parse(rule).map_err(value_error)?;
    let p = port(capacity_bps, (rt_buffer_bits, nrt_buffer_bits), target, criterion, method)?;
    let on_off = |(peak_bps, activity, mean_on_s)| OnOff { peak_bps, activity, mean_on_s };
    // One budget for the whole boundary (a ValueError naming the limit when it runs out).
    let work = Work::default();
    (0..=n_rt_max)
        .map(|n| p.largest_nrt_within(rule, on_off(rt), n, on_off(nrt), limit, &work).map_err(value_error))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cac_convolution, m)?)?;
    m.add_function(wrap_pyfunction!(cac_effective_bandwidth, m)?)?;
    m.add_function(wrap_pyfunction!(cac_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(cac_admits, m)?)?;
    m.add_function(wrap_pyfunction!(cac_boundary, m)?)?;
    Ok(())
}
