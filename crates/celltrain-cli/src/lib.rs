//! The `celltrain` command line: `run`, `check`, `list`, `show`, `bench`, `gcra`, `cac`.
//!
//! Exit codes: 0 success; 2 bad input (a scenario error, an unknown scenario, a malformed
//! `--set`), printed as one line naming the file, line and key; 1 any other failure (I/O).
//! The same entry point serves the `celltrain` binary and `python -m celltrain` (through the
//! extension's `main`); the binary hands `sweep` and `reproduce` to the latter (`python_front`).

#![forbid(unsafe_code)]

pub mod cac;
mod expand;
mod output;
pub mod panic_report;
pub mod python_front;

use celltrain::metrics::Summary;
use celltrain::network::{Progress, SimOptions};
use celltrain::scenario::{self, Compiled, ScenarioError};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Parser)]
#[command(name = "celltrain", version, about = "Cell-level simulator of TCP/IP over ATM")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct ScenarioArgs {
    /// A scenario file, or the name of a built-in scenario (see `celltrain list`).
    scenario: String,
    /// Override a parameter of the scenario's [params] table, or any key by its dotted path:
    /// simulation.mode=packet, switch.R1.buffer="2000 cells", record.pcap+=["h2"] (repeatable;
    /// docs/scenarios.md).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Seed of every random stream (overrides the scenario's).
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario, print its summary and write DIR/summary.json and CSV tables.
    Run {
        #[command(flatten)]
        scenario: ScenarioArgs,
        /// Directory for the results (created if needed).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the summary as JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// Capture HOST's packets to DIR/HOST.pcap (repeatable; needs --out; adds to the
        /// scenario's [record] pcap list).
        #[arg(long, value_name = "HOST")]
        pcap: Vec<String>,
        /// Sample a time series every INTERVAL (e.g. "10 ms"; [record] interval) into
        /// DIR/timeseries.csv.
        #[arg(long, value_name = "INTERVAL")]
        record: Option<String>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// The port table's rows: `all`, or at most N. The default, 16, shows every port of a
        /// small network; a large one (G3: 42 access ports) shows the bottleneck and the busiest
        /// ports first, and how many were left out.
        #[arg(long, value_name = "all|N", value_parser = output::PortRows::parse, default_value = "16")]
        ports: output::PortRows,
        /// Move every cell across every link by a pipe event, never carried at once (the
        /// reference carrying is checked against; slower).
        #[arg(long)]
        pipe_events: bool,
        /// No fast path: every cell by events, at every port and on every link (the
        /// reference the fast paths are tested against: the same results, more events, slower).
        #[arg(long)]
        reference: bool,
        /// Turn one fast path off (repeatable): the same results (by more events, but for
        /// fan-in and direct); what each is worth on a scenario (`bench --without`).
        #[arg(long, value_name = "FAST_PATH", value_parser = fast_path_names())]
        without: Vec<String>,
    },
    /// Validate a scenario without running it.
    Check {
        #[command(flatten)]
        scenario: ScenarioArgs,
        /// Print the expanded network: nodes, ports, each VC's route, each flow's hops, the
        /// bottleneck.
        #[arg(long)]
        expand: bool,
        /// Write the network as a Graphviz digraph to FILE ("-": standard output).
        #[arg(long, value_name = "FILE")]
        dot: Option<PathBuf>,
    },
    /// List the built-in scenarios.
    List,
    /// Print the text of a built-in scenario.
    Show {
        /// The built-in scenario's name (see `celltrain list`).
        name: String,
    },
    /// Print a shell completion script: `celltrain completions bash > /etc/bash_completion.d/celltrain`,
    /// zsh into a directory of $fpath as `_celltrain`, fish into ~/.config/fish/completions/.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Traffic-contract calculators (the GCRA family).
    Gcra {
        #[command(subcommand)]
        command: GcraCommand,
    },
    /// Connection admission control calculators (peak, convolution, effective bandwidth,
    /// LRP97's delay-priority boundaries).
    Cac {
        #[command(subcommand)]
        command: cac::CacCommand,
    },
    /// Measure simulation speed in cell-hops per wall-clock second.
    Bench {
        /// A scenario, or `null` for a chain of FIFO links with no policy.
        scenario: String,
        /// Override a parameter or a key of the scenario (as `run --set`; repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Runs to time (the best is reported).
        #[arg(long, default_value_t = 3)]
        repeat: u32,
        /// Hops of the null pipeline.
        #[arg(long, default_value_t = 8)]
        hops: u32,
        /// Simulated seconds of the null pipeline.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Move every cell by pipe and port events (see `run --pipe-events`).
        #[arg(long)]
        pipe_events: bool,
        /// No fast path (see `run --reference`).
        #[arg(long)]
        reference: bool,
        /// Turn one fast path off (repeatable; see `run --without`).
        #[arg(long, value_name = "FAST_PATH", value_parser = fast_path_names())]
        without: Vec<String>,
    },
}

#[derive(Subcommand)]
enum GcraCommand {
    /// BKD97's packet-train model: the longest train of PDUs a dual GCRA (PCR, SCR, MBS)
    /// accepts (eq. 2), the smallest inter-PDU idle time for an endless train (eq. 3), and the
    /// idle time after which a whole PDU is accepted again.
    Train {
        /// Peak cell rate, e.g. "155.52 Mbit/s" (the V experiments: line rate).
        #[arg(long, default_value = "155.52 Mbit/s")]
        pcr: String,
        /// Sustainable cell rate, e.g. "10 Mbit/s".
        #[arg(long)]
        scr: String,
        /// Maximum burst size, cells.
        #[arg(long)]
        mbs: u32,
        /// Cells per PDU (or give --mtu).
        #[arg(long, conflicts_with = "mtu")]
        cells_per_pdu: Option<u64>,
        /// IP MTU in bytes: cells per PDU = ceil((MTU + 8 LLC/SNAP + 8 trailer) / 48).
        #[arg(long)]
        mtu: Option<u64>,
        /// Idle time between PDUs on the link, I_p, e.g. "376 us".
        #[arg(long, default_value = "0 us")]
        gap: String,
        /// Or the host's inter-PDU time (start to start), e.g. "900 us": I_p is what remains
        /// of it once the PDU's c cells are sent at the PCR.
        #[arg(long, conflicts_with = "gap")]
        inter_pdu: Option<String>,
    },
}

/// The command line with the commands the Python front adds (`sweep`, `reproduce`), so that
/// shell completion offers every command of the installed `celltrain`.
fn with_python_commands() -> clap::Command {
    use clap::{Arg, ArgAction, CommandFactory};
    let sweep = clap::Command::new("sweep")
        .about("Run a scenario over a grid of parameters and seeds, in parallel, into a result store (Python)")
        .arg(Arg::new("scenario").required(true))
        .args(["grid", "set", "seeds", "store", "jobs", "dask", "parquet"].map(|n| Arg::new(n).long(n).num_args(1)))
        .arg(Arg::new("quiet").long("quiet").action(ArgAction::SetTrue));
    let reproduce = clap::Command::new("reproduce")
        .about("Run the paper reproductions and write a report (Python)")
        .arg(Arg::new("target").required(true))
        .args(["out", "jobs"].map(|n| Arg::new(n).long(n).num_args(1)))
        .args(["quick", "quiet"].map(|n| Arg::new(n).long(n).action(ArgAction::SetTrue)));
    Cli::command().subcommand(sweep).subcommand(reproduce)
}

/// Runs the command line `args` (program name first); returns the process exit code.
pub fn main_with_args(args: Vec<String>) -> i32 {
    let top_level_help = python_front::is_top_level_help(&args);
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            if top_level_help {
                print_python_commands(code);
            }
            return code;
        }
    };
    match execute(cli.command) {
        Ok(()) | Err(Failure::Closed) => 0,
        Err(Failure::Interrupted) => {
            eprintln!("interrupted: nothing written");
            130
        }
        Err(Failure::Input(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// The Python commands under clap's help, on the stream clap used (standard error for the usage
/// error of a bare `celltrain`).
fn print_python_commands(code: i32) {
    use std::io::Write as _;
    let help = python_front::HELP.as_bytes();
    let _ = if code == 0 { std::io::stdout().write_all(help) } else { std::io::stderr().write_all(help) };
}

/// Writes to standard output; a reader that went away (`celltrain run … | head`) ends the
/// command quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*).map_err(Failure::from)
    }};
}
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err(Failure::from)
    }};
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Other(format!("standard output: {e}"))
        }
    }
}

enum Failure {
    /// Standard output was closed by its reader: stop, exit 0.
    Closed,
    /// The user's input is wrong: exit code 2.
    Input(String),
    /// Anything else (I/O): exit code 1.
    Other(String),
    /// Ctrl-C (SIGINT) stopped the run: exit code 130 (128 + SIGINT), as a shell reports it.
    Interrupted,
}

/// Set by Ctrl-C while a run goes on; the event loop looks at it every few milliseconds.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Catches Ctrl-C from now on, so that a run stops cleanly instead of dying mid-write.
fn catch_interrupts() {
    INTERRUPTED.store(false, Ordering::SeqCst);
    // Once per process: a second call finds the handler in place, which is as good.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
}

impl From<ScenarioError> for Failure {
    fn from(e: ScenarioError) -> Self {
        Failure::Input(e.to_string())
    }
}

fn parse_sets(sets: &[String]) -> Result<Vec<(String, String)>, Failure> {
    sets.iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
            _ => Err(Failure::Input(format!("--set {s}: expected NAME=VALUE"))),
        })
        .collect()
}

/// `--pcap HOST` and `--record INTERVAL` as the `--set` overrides they stand for.
fn record_shortcuts(pcap: &[String], record: Option<&str>) -> Vec<String> {
    let mut sets = Vec::new();
    if !pcap.is_empty() {
        let hosts: Vec<String> = pcap.iter().map(|h| format!("{h:?}")).collect();
        sets.push(format!("record.pcap+=[{}]", hosts.join(", ")));
    }
    if let Some(interval) = record {
        sets.push(format!("record.interval={interval:?}"));
    }
    sets
}

fn compile(args: &ScenarioArgs) -> Result<Compiled, Failure> {
    let overrides = parse_sets(&args.set)?;
    Ok(scenario::compile(&args.scenario, &overrides, args.seed)?)
}

/// The fast paths `--without` takes, each with what it does.
fn fast_path_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        SimOptions::FAST_PATHS.map(|(name, help, _)| clap::builder::PossibleValue::new(name).help(help)),
    )
}

/// `--pipe-events`: no carrying ahead; `--reference`: no fast path at all; `--without NAME`:
/// not that one.
fn choose_fast_paths(
    network: &mut celltrain::network::Network,
    pipe_events: bool,
    reference: bool,
    without: &[String],
) {
    let mut options = if reference { SimOptions::reference() } else { network.options() };
    if pipe_events {
        options.carry_ahead = false;
    }
    for name in without {
        options = options.without(name).expect("a name clap accepted");
    }
    if options != network.options() {
        network.set_options(options);
    }
}

fn execute(command: Command) -> Result<(), Failure> {
    match command {
        Command::Run { mut scenario, out, json, pcap, record, quiet, ports, pipe_events, reference, without } => {
            scenario.set.extend(record_shortcuts(&pcap, record.as_deref()));
            let mut compiled = compile(&scenario)?;
            choose_fast_paths(&mut compiled.network, pipe_events, reference, &without);
            let io_err = |dir: &PathBuf, e: std::io::Error| Failure::Other(format!("{}: {e}", dir.display()));
            // Written into a staging directory, moved into place whole at the end (found
            // unwritable before the run starts).
            let staged = match &out {
                Some(dir) => Some(output::stage(&mut compiled.network, dir).map_err(|e| io_err(dir, e))?),
                None => {
                    if !compiled.network.recorder().spec.pcap_hosts.is_empty() {
                        eprintln!("note: the scenario asks for pcap captures; they are written only with --out DIR");
                    }
                    None
                }
            };
            let (summary, mut network) = run_compiled(compiled, !quiet);
            let Some(summary) = summary else {
                // Ctrl-C: the captures are cut off mid-run and the counters are no run's; the
                // staging directory goes with them.
                network.abandon_output();
                drop(staged);
                return Err(Failure::Interrupted);
            };
            for warning in &summary.warnings {
                eprintln!("warning: {warning}");
            }
            // The summary reaches standard output even when the files fail.
            let written = match (&out, staged) {
                (Some(dir), Some(staged)) => output::commit(staged, &mut network, &summary).map_err(|e| io_err(dir, e)),
                _ => Ok(()),
            };
            if json {
                outln!("{}", serde_json::to_string_pretty(&summary).expect("summary serialises"))?;
            } else {
                out!("{}", output::summary_table(&summary, ports))?;
                if let (Some(dir), Ok(())) = (&out, &written) {
                    outln!("results written to {}", dir.join("summary.json").display())?;
                }
            }
            written
        }
        Command::Check { scenario, expand, dot } => {
            let compiled = compile(&scenario)?;
            for warning in &compiled.meta.warnings {
                eprintln!("warning: {warning}");
            }
            if expand {
                out!("{}\n", expand::text(&compiled.network))?;
            }
            match dot.as_deref() {
                Some(path) if path == std::path::Path::new("-") => out!("{}", expand::dot(&compiled.network))?,
                Some(path) => std::fs::write(path, expand::dot(&compiled.network))
                    .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))?,
                None => {}
            }
            let line = format!(
                "{}: ok ({} nodes, {} ports, {} VCs, {} flows)",
                scenario.scenario,
                compiled.network.nodes().len(),
                compiled.network.ports().len(),
                compiled.network.vcs().len(),
                compiled.network.flows().len()
            );
            // With the graph on standard output, the verdict goes to standard error.
            if dot.as_deref() == Some(std::path::Path::new("-")) {
                eprintln!("{line}");
            } else {
                outln!("{line}")?;
            }
            Ok(())
        }
        Command::List => {
            use celltrain::papers;
            outln!("{:<10} {:<8} DESCRIPTION", "NAME", "PAPER")?;
            for b in celltrain::builtin::all() {
                outln!("{:<10} {:<8} {}", b.name, b.source, b.title)?;
            }
            outln!("\nPAPERS (docs/references.md#reproduced-papers)")?;
            for p in papers::PAPERS {
                outln!("{:<10} {}", p.id, p.citation())?;
            }
            Ok(())
        }
        Command::Show { name } => {
            let b = celltrain::builtin::find(&name)
                .ok_or_else(|| Failure::Input(format!("no built-in scenario named '{name}' (see `celltrain list`)")))?;
            out!("{}", b.text)?;
            Ok(())
        }
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut with_python_commands(), "celltrain", &mut buf);
            out!("{}", String::from_utf8_lossy(&buf))?;
            Ok(())
        }
        Command::Bench { scenario, set, repeat, hops, seconds, pipe_events, reference, without } => {
            bench(&scenario, &set, repeat.max(1), hops, seconds, (pipe_events, reference, &without))
        }
        Command::Cac { command } => {
            let report = cac::run(command).map_err(Failure::Input)?;
            outln!("{report}")?;
            Ok(())
        }
        Command::Gcra { command: GcraCommand::Train { pcr, scr, mbs, cells_per_pdu, mtu, gap, inter_pdu } } => {
            let cells = match (cells_per_pdu, mtu) {
                (Some(c), None) => PduSize::Cells(c),
                (None, Some(m)) => PduSize::Mtu(m),
                _ => return Err(Failure::Input("give --cells-per-pdu or --mtu".into())),
            };
            let spacing = match &inter_pdu {
                Some(t) => PduSpacing::InterPdu(t),
                None => PduSpacing::Idle(&gap),
            };
            let report = train_report(&pcr, &scr, mbs, cells, spacing).map_err(Failure::Input)?;
            outln!("{report}")?;
            Ok(())
        }
    }
}

/// The size of the PDUs of a packet train.
#[derive(Clone, Copy, Debug)]
pub enum PduSize {
    /// c cells per PDU.
    Cells(u64),
    /// An IP MTU in bytes: c = ceil((MTU + 8 LLC/SNAP + 8 trailer) / 48).
    Mtu(u64),
}

/// How the PDUs of a packet train are spaced, as text ("376 us").
#[derive(Clone, Copy, Debug)]
pub enum PduSpacing<'a> {
    /// I_p: the idle time between the last cell of a PDU and the first of the next.
    Idle(&'a str),
    /// The host's inter-PDU time, start to start; I_p = it − c·T_PCR (at least 0).
    InterPdu(&'a str),
}

/// BKD97's packet-train model for a VBR contract (PCR, SCR, MBS; no CDVT) and PDUs spaced
/// by `spacing`, from the rates and durations as text: what `celltrain gcra train` prints, and
/// what the Python front asks for. Errors name the flag.
pub fn train_report(
    pcr: &str,
    scr: &str,
    mbs: u32,
    size: PduSize,
    spacing: PduSpacing<'_>,
) -> Result<celltrain_atm::contract::TrainReport, String> {
    use celltrain::scenario::units::{parse_duration, parse_rate};
    use celltrain_atm::contract::{train, ConformanceDef, TrafficDescriptor, TrainModel};
    let pcr = parse_rate(pcr).map_err(|e| format!("--pcr: {e}"))?;
    let scr = parse_rate(scr).map_err(|e| format!("--scr: {e}"))?;
    let cells = match size {
        PduSize::Cells(c) => c,
        PduSize::Mtu(m) => train::cells_per_pdu(m),
    };
    let desc = TrafficDescriptor::vbr(ConformanceDef::Vbr1, pcr, celltrain_core::SimDuration::ZERO, scr, mbs);
    desc.validate().map_err(|e| e.to_string())?;
    let model = TrainModel::from_descriptor(&desc, cells).map_err(|e| e.to_string())?;
    let gap = match spacing {
        PduSpacing::Idle(t) => parse_duration(t).map_err(|e| format!("--gap: {e}"))?,
        PduSpacing::InterPdu(t) => {
            let period = parse_duration(t).map_err(|e| format!("--inter-pdu: {e}"))?;
            let sending = model.t_pcr().times(model.cells_per_pdu());
            celltrain_core::SimDuration::from_picos(period.as_picos().saturating_sub(sending.as_picos()))
        }
    };
    Ok(model.report(gap))
}

/// Runs a compiled scenario with a progress bar on a terminal; returns the summary (None when
/// Ctrl-C stopped the run) and the network (for its recordings).
fn run_compiled(compiled: Compiled, show_progress: bool) -> (Option<Summary>, celltrain::Network) {
    let Compiled { mut network, meta } = compiled;
    let bar = (show_progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(1000);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {percent:>3}% sim {msg} (eta {eta})")
                .expect("valid template"),
        );
        bar
    });
    // Not a terminal (a batch log): one line now and then instead of a bar.
    let mut lines = (show_progress && bar.is_none()).then(ProgressLines::new);
    catch_interrupts();
    panic_report::test_panic_point("run");
    let started = Instant::now();
    let finished = network.run_interruptible(&mut |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_position((p.fraction() * 1000.0) as u64);
            bar.set_message(format!("{:.3} s", p.now.as_secs_f64()));
        }
        if let Some(lines) = &mut lines {
            lines.tick(&p, started);
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = finished.then(|| Summary::from_network(&network, meta, started.elapsed().as_secs_f64()));
    (summary, network)
}

/// Progress as a line on standard error every [`ProgressLines::every`] of wall time (10 s;
/// `CELLTRAIN_PROGRESS_SECONDS` changes it), for logs where a bar would be noise.
struct ProgressLines {
    every: std::time::Duration,
    last: Instant,
}

impl ProgressLines {
    fn new() -> Self {
        let seconds = std::env::var("CELLTRAIN_PROGRESS_SECONDS").ok().and_then(|s| s.parse::<f64>().ok());
        let every = std::time::Duration::from_secs_f64(seconds.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(10.0));
        ProgressLines { every, last: Instant::now() }
    }

    fn tick(&mut self, p: &Progress, started: Instant) {
        if self.last.elapsed() < self.every || p.now >= p.end {
            return;
        }
        self.last = Instant::now();
        let (done, wall) = (p.fraction(), started.elapsed().as_secs_f64());
        let eta = if done > 0.0 { format!("{:.0} s", wall * (1.0 - done) / done) } else { "?".to_string() };
        eprintln!(
            "progress: {:>3.0}%  sim {:.3} of {:.3} s  wall {wall:.0} s  eta {eta}",
            done * 100.0,
            p.now.as_secs_f64(),
            p.end.as_secs_f64()
        );
    }
}

fn bench(
    scenario: &str,
    sets: &[String],
    repeat: u32,
    hops: u32,
    seconds: f64,
    (pipe_events, reference, without): (bool, bool, &[String]),
) -> Result<(), Failure> {
    let overrides = parse_sets(sets)?;
    // (wall, cell-hops, packet-hops, events, packets out of the bottleneck port)
    let mut best: Option<(f64, u64, u64, u64, Option<u64>)> = None;
    for _ in 0..repeat {
        let mut network = if scenario == "null" {
            celltrain::bench::null_pipeline(hops, seconds).map_err(|e| Failure::Input(e.to_string()))?
        } else {
            scenario::compile(scenario, &overrides, None)?.network
        };
        choose_fast_paths(&mut network, pipe_events, reference, without);
        let started = Instant::now();
        network.run(&mut |_| {});
        let wall = started.elapsed().as_secs_f64();
        if best.is_none_or(|(w, ..)| wall < w) {
            let bottleneck_packets = network
                .bottleneck()
                .and_then(|p| network.ports()[p.index()].packets.as_ref())
                .map(|q| q.stats().packets_out);
            best = Some((wall, network.cell_hops(), network.packet_hops(), network.events(), bottleneck_packets));
        }
    }
    let (wall, cells, packets, events, bottleneck_packets) = best.expect("at least one run");
    let (hops, unit) = if packets > 0 { (packets, "packet-hops") } else { (cells, "cell-hops") };
    outln!(
        "{scenario}: {hops} {unit}, {events} events in {wall:.3} s wall = {:.2} M {unit}/s, {:.2} M events/s (best of {repeat})",
        hops as f64 / wall / 1e6,
        events as f64 / wall / 1e6
    )?;
    if let Some(n) = bottleneck_packets.filter(|&n| n > 0) {
        outln!("  bottleneck: {n} packets = {:.3} M packets/s", n as f64 / wall / 1e6)?;
    }
    // (An internetwork, LANs behind routers on an ATM backbone: its cells are most of its work.)
    if packets > 0 && cells > 0 {
        outln!("  cells: {cells} cell-hops = {:.2} M cell-hops/s", cells as f64 / wall / 1e6)?;
    }
    Ok(())
}
