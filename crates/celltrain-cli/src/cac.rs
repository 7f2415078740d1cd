//! `celltrain cac …`: the admission-control calculators of `celltrain_atm::cac` on the
//! command line. Inputs are text with units (as in scenarios); every error names its flag.

use celltrain::scenario::units::{parse_bytes, parse_cells, parse_duration, parse_rate};
use celltrain_atm::cac::{
    check_target, effective, peak, priority::largest_count, ActiveRate, CacError, DelayPriority, EbMethod,
    LossCriterion, OnOff, Rule, SourceClass, Work,
};
use celltrain_core::CELL_BITS;
use clap::Subcommand;
use std::fmt::Write as _;

#[derive(Subcommand)]
pub enum CacCommand {
    /// Peak-rate allocation: Σ peaks ≤ max-load · capacity.
    Peak {
        #[command(flatten)]
        mix: MixArgs,
        /// The fraction of the capacity peak rates may fill.
        #[arg(long, default_value_t = 1.0)]
        max_load: f64,
    },
    /// Bufferless convolution: the exact distribution of the aggregate rate.
    Convolution {
        #[command(flatten)]
        mix: MixArgs,
        /// The overflow probability or loss ratio to stay within.
        #[arg(long, default_value_t = 1e-6)]
        target: f64,
        /// `overflow` (P(ΣΛ > C)) or `clr` (E[(ΣΛ − C)+] / E[ΣΛ]).
        #[arg(long, default_value = "overflow")]
        criterion: String,
    },
    /// Effective bandwidth with a buffer (Guérin, Ahmadi & Naghshineh 1991), the Gaussian
    /// approximation, or the smaller of the two.
    Effective {
        #[command(flatten)]
        mix: MixArgs,
        /// Buffer, e.g. "4000 cells", "1 Mbit" or "64 KB".
        #[arg(long)]
        buffer: String,
        #[arg(long, default_value_t = 1e-6)]
        target: f64,
        /// `fluid` (Σ ĉ), `gaussian` (m + α'σ) or `min`.
        #[arg(long, default_value = "min")]
        method: String,
    },
    /// LRP97's delay-priority port: for each n_rt, the largest n_nrt every boundary admits.
    Region {
        #[arg(long, default_value = "149.76 Mbit/s")]
        capacity: String,
        /// The rt source: "PEAK, on DUR, off DUR" (or "PEAK, rho X, on DUR").
        #[arg(long, default_value = "31.1 Mbit/s, on 20 ms, off 80 ms")]
        rt: String,
        /// The nrt source, as --rt.
        #[arg(long, default_value = "31.1 Mbit/s, on 20 ms, off 80 ms")]
        nrt: String,
        #[arg(long, default_value = "48 cells")]
        rt_buffer: String,
        #[arg(long, default_value = "4000 cells")]
        nrt_buffer: String,
        #[arg(long, default_value_t = 1e-4)]
        target: f64,
        /// What the convolution tests hold under the target: `overflow` or `clr`.
        #[arg(long, default_value = "clr")]
        criterion: String,
        /// How the effective-bandwidth tests add up: `fluid` (the paper's linear sum), `gaussian`, `min`.
        #[arg(long, default_value = "fluid")]
        method: String,
        #[arg(long, default_value_t = 10)]
        n_rt_max: u32,
        /// The most nrt sources tried ("≥ limit" when a rule never binds below it).
        #[arg(long, default_value_t = 200)]
        limit: u32,
    },
}

#[derive(clap::Args)]
pub struct MixArgs {
    /// Link capacity, e.g. "149.76 Mbit/s".
    #[arg(long, default_value = "149.76 Mbit/s")]
    capacity: String,
    /// A class of sources (repeatable): "COUNT x PEAK[, rho X][, on DUR][, off DUR]", e.g.
    /// "40 x 10 Mbit/s, rho 0.1, on 100 ms" (on and off give rho = on / (on + off)).
    #[arg(long = "class", value_name = "CLASS", required = true)]
    classes: Vec<String>,
    /// Also print the largest count of the last class that is admitted (others fixed).
    #[arg(long)]
    largest: bool,
    /// The most sources --largest tries.
    #[arg(long, default_value_t = 100_000)]
    limit: u32,
}

/// Runs a `cac` subcommand; Err is bad input (exit code 2).
pub fn run(command: CacCommand) -> Result<String, String> {
    match command {
        CacCommand::Peak { mix, max_load } => {
            let (capacity, classes) = mix.parse(false)?;
            if !(max_load.is_finite() && max_load > 0.0) {
                return Err(format!("--max-load: must be positive, got {max_load}"));
            }
            let mut out =
                format!("total peak {} Mbit/s of {} Mbit/s", mbps(peak::total_peak_bps(&classes)), mbps(capacity));
            let decide = |c: &[SourceClass], work: &Work| {
                work.charge(1)?;
                Ok(peak::admits(c, capacity, max_load))
            };
            finish(&mut out, &mix, &classes, "--class", decide)?;
            Ok(out)
        }
        CacCommand::Convolution { mix, target, criterion } => {
            let (capacity, classes) = mix.parse(false)?;
            let criterion = LossCriterion::parse(&criterion).map_err(|e| format!("--criterion: {e}"))?;
            let dist = ActiveRate::of(&classes).map_err(|e| format!("--class: {e}"))?;
            let mut out = format!(
                "mean {} Mbit/s  P(rate > C) {:.4e}  fluid CLR {:.4e}",
                mbps(dist.mean_bps()),
                dist.overflow_probability(capacity),
                dist.fluid_clr(capacity)
            );
            check_target(target).map_err(|e| format!("--target: {e}"))?;
            let decide =
                |c: &[SourceClass], work: &Work| Ok(ActiveRate::within(c, work)?.loss(criterion, capacity) <= target);
            finish(&mut out, &mix, &classes, "--class", decide)?;
            Ok(out)
        }
        CacCommand::Effective { mix, buffer, target, method } => {
            let (capacity, classes) = mix.parse(true)?;
            let buffer_bits = parse_buffer_bits(&buffer).map_err(|e| format!("--buffer: {e}"))?;
            let method = EbMethod::parse(&method).map_err(|e| format!("--method: {e}"))?;
            let flag = |e: CacError| format!("--target/--class: {e}");
            let mut out = String::new();
            for (i, c) in classes.iter().enumerate() {
                let each = effective::equivalent_capacity(&c.source, buffer_bits, target).map_err(flag)?;
                let _ = writeln!(
                    out,
                    "class {}: ĉ {} Mbit/s each, {} Mbit/s for {}",
                    i + 1,
                    mbps(each),
                    mbps(each * f64::from(c.count)),
                    c.count
                );
            }
            let fluid = effective::fluid_sum_bps(&classes, buffer_bits, target).map_err(flag)?;
            let gauss = effective::gaussian_bps(&classes, target).map_err(flag)?;
            let _ = write!(
                out,
                "Σ ĉ {} Mbit/s  Gaussian {} Mbit/s  min {} Mbit/s  (capacity {} Mbit/s)",
                mbps(fluid),
                mbps(gauss),
                mbps(fluid.min(gauss)),
                mbps(capacity)
            );
            let decide = |c: &[SourceClass], work: &Work| {
                work.charge(1)?;
                Ok(effective::aggregate_bps(c, buffer_bits, target, method)? <= capacity)
            };
            finish(&mut out, &mix, &classes, "--target/--class", decide)?;
            Ok(out)
        }
        CacCommand::Region { capacity, rt, nrt, rt_buffer, nrt_buffer, target, criterion, method, n_rt_max, limit } => {
            let port = DelayPriority {
                capacity_bps: parse_rate(&capacity).map_err(|e| format!("--capacity: {e}"))?.as_bps() as f64,
                rt_buffer_bits: parse_buffer_bits(&rt_buffer).map_err(|e| format!("--rt-buffer: {e}"))?,
                nrt_buffer_bits: parse_buffer_bits(&nrt_buffer).map_err(|e| format!("--nrt-buffer: {e}"))?,
                target,
                criterion: LossCriterion::parse(&criterion).map_err(|e| format!("--criterion: {e}"))?,
                eb: EbMethod::parse(&method).map_err(|e| format!("--method: {e}"))?,
            };
            port.validate().map_err(|e| format!("--target: {e}"))?;
            let rt = parse_source(&rt, true).map_err(|e| format!("--rt: {e}"))?;
            let nrt = parse_source(&nrt, true).map_err(|e| format!("--nrt: {e}"))?;
            region_table(&port, rt, nrt, n_rt_max, limit).map_err(|e| format!("--n-rt-max/--limit: {e}"))
        }
    }
}

/// The largest n_nrt per n_rt and rule, one row per n_rt.
fn region_table(port: &DelayPriority, rt: OnOff, nrt: OnOff, n_rt_max: u32, limit: u32) -> Result<String, CacError> {
    let mut out = format!("{:>5}", "n_rt");
    for rule in Rule::ALL {
        let _ = write!(out, " {:>11}", rule.name());
    }
    let work = Work::default();
    for n_rt in 0..=n_rt_max {
        let _ = write!(out, "\n{n_rt:>5}");
        for rule in Rule::ALL {
            let cell = match port.largest_nrt_within(rule, rt, n_rt, nrt, limit, &work)? {
                None => "-".to_string(),
                Some(n) if n == limit => format!("≥{n}"),
                Some(n) => n.to_string(),
            };
            let _ = write!(out, " {cell:>11}");
        }
    }
    Ok(out)
}

/// Appends the verdict on the mix and, with --largest, the largest admitted count of its last class.
fn finish(
    out: &mut String,
    mix: &MixArgs,
    classes: &[SourceClass],
    flag: &str,
    decide: impl Fn(&[SourceClass], &Work) -> Result<bool, CacError>,
) -> Result<(), String> {
    // One budget for the verdict and the whole --largest scan.
    let work = Work::default();
    let admitted = decide(classes, &work).map_err(|e| format!("{flag}: {e}"))?;
    let _ = write!(out, "\n{}", if admitted { "admitted" } else { "refused" });
    if mix.largest {
        let mut trial = classes.to_vec();
        let last = trial.len() - 1;
        let n = largest_count(mix.limit, |n| {
            trial[last].count = n;
            decide(&trial, &work)
        })
        .map_err(|e| format!("--largest/--limit: {e}"))?;
        let _ = match n {
            None => write!(out, "\nlargest count of the last class: none (refused with 0)"),
            Some(n) if n == mix.limit => write!(out, "\nlargest count of the last class: ≥ {n} (--limit)"),
            Some(n) => write!(out, "\nlargest count of the last class: {n}"),
        };
    }
    Ok(())
}

impl MixArgs {
    fn parse(&self, needs_on: bool) -> Result<(f64, Vec<SourceClass>), String> {
        let capacity = parse_rate(&self.capacity).map_err(|e| format!("--capacity: {e}"))?.as_bps() as f64;
        let classes = self
            .classes
            .iter()
            .map(|c| parse_class(c, needs_on).map_err(|e| format!("--class: {e}")))
            .collect::<Result<_, _>>()?;
        Ok((capacity, classes))
    }
}

fn mbps(bps: f64) -> String {
    format!("{:.6}", bps / 1e6)
}

/// "COUNT x PEAK[, …]".
pub fn parse_class(text: &str, needs_on: bool) -> Result<SourceClass, String> {
    let (count, rest) = text
        .split_once(['x', '×'])
        .ok_or_else(|| format!("bad class {text:?}: expected \"COUNT x PEAK[, rho X][, on DUR][, off DUR]\""))?;
    let count =
        count.trim().parse::<u32>().map_err(|_| format!("bad class {text:?}: the count must be a whole number"))?;
    Ok(SourceClass::new(count, parse_source(rest.trim(), needs_on)?))
}

/// "PEAK[, rho X][, on DUR][, off DUR]"; `needs_on`: the mean on-period is required.
pub fn parse_source(text: &str, needs_on: bool) -> Result<OnOff, String> {
    let mut parts = text.split(',').map(str::trim);
    let peak_bps = parse_rate(parts.next().unwrap_or("")).map_err(|e| format!("{text:?}: {e}"))?.as_bps() as f64;
    let (mut rho, mut on, mut off) = (None, None, None);
    for part in parts {
        let (key, value) = part.split_once(' ').map(|(k, v)| (k, v.trim())).unwrap_or((part, ""));
        let secs = || parse_duration(value).map(|d| d.as_secs_f64()).map_err(|e| format!("{text:?}: {e}"));
        match key {
            "rho" => rho = Some(value.parse::<f64>().map_err(|_| format!("{text:?}: rho must be a number"))?),
            "on" => on = Some(secs()?),
            "off" => off = Some(secs()?),
            _ => return Err(format!("{text:?}: unknown field '{key}' (use rho, on, off)")),
        }
    }
    let activity = match (rho, on, off) {
        (Some(r), _, None) => r,
        (None, Some(on), Some(off)) if on + off > 0.0 => on / (on + off),
        (None, _, _) => return Err(format!("{text:?}: give rho X, or on DUR and off DUR")),
        (Some(_), _, Some(_)) => return Err(format!("{text:?}: give rho or off, not both")),
    };
    if needs_on && on.is_none() {
        return Err(format!("{text:?}: the mean on-period is needed (on DUR)"));
    }
    // Without an on-period only the bufferless rules can use the source; 1 s stands in.
    let source = OnOff { peak_bps, activity, mean_on_s: on.unwrap_or(1.0) };
    source.validate().map_err(|e| format!("{text:?}: {e}"))?;
    Ok(source)
}

/// "48 cells" (× 424 bit), "1 Mbit", "500 kbit", "64 KB" (× 8 bit) or "0".
pub fn parse_buffer_bits(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t == "0" {
        return Ok(0.0);
    }
    if t.ends_with("cells") || t.ends_with("cell") {
        return Ok((parse_cells(t)? * CELL_BITS) as f64);
    }
    if t.ends_with("bit") {
        // The rate parser reads bit, kbit, Mbit and Gbit exactly; borrow it.
        return parse_rate(&format!("{t}/s"))
            .map(|r| r.as_bps() as f64)
            .map_err(|_| format!("bad buffer {text:?}: use cells, bit, kbit, Mbit or bytes"));
    }
    parse_bytes(t).map(|b| (b * 8) as f64)
}
