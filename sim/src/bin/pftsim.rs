//! pftsim: run a scenario file (docs/scenarios.md) with one congestion-control
//! configuration, or compare congestion control off against every configuration it lists
//! (`[[pft]]` and `[[cc]]` entries: PFT, InfiniBand CC).
//!
//! ```text
//! pftsim run SCENARIO.toml --out DIR [--pft NAME | --cc NAME] [--jobs N] [--quiet]
//! pftsim compare SCENARIO.toml --out DIR [--jobs N] [--quiet]
//! pftsim check SCENARIO.toml
//! ```
//! `check` also prints what `compare` would cost on this machine (node-cycles, wall time at
//! the speed a short calibration run measures, memory); `run` and `compare` refuse a command
//! estimated above 2 hours or 80% of the available memory unless given `--yes`.
//! Errors (bad scenario, failed run) go to stderr with exit status 1; nothing in DIR then
//! looks complete (`summary.json` / `compare.json` are written last).

use clap::{Parser, Subcommand};
use pft_sim::scenario::{self, report, Progress, Scenario};
use std::path::PathBuf;
use std::process::ExitCode;

// `pub`: tests/fuzz_inputs.rs includes this file as a module to fuzz the parser.
#[derive(Parser)]
#[command(
    name = "pftsim",
    version,
    subcommand_required = true,
    arg_required_else_help = false,
    about = "Run PFT network scenarios (docs/scenarios.md)"
)]
pub struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Run one configuration of a scenario (plus its isolated baseline if asked for).
    Run {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Output directory (created; summary.json is written last).
        #[arg(long)]
        out: PathBuf,
        /// Name of the [[pft]] or [[cc]] entry to run, or `off` (default: the first
        /// [[pft]] entry, else the first [[cc]] entry). `--cc` is the same flag.
        #[arg(long, visible_alias = "cc", value_name = "NAME")]
        pft: Option<String>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Run congestion control off, every [[pft]] and [[cc]] entry and the isolated
    /// baseline; print one table.
    Compare {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Output directory (created; compare.json is written last).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        opts: Opts,
    },
    /// Only load and validate a scenario.
    Check {
        /// Scenario file (TOML).
        scenario: PathBuf,
    },
}

#[derive(clap::Args)]
pub struct Opts {
    /// Runs at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = parse_jobs, allow_negative_numbers = true)]
    jobs: Option<u32>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Run even when the estimate is above 2 hours or 80% of the available memory
    /// (`pftsim check` prints the estimate).
    #[arg(long)]
    yes: bool,
}

/// `--jobs`: an integer in 1..=256 (the message says so for every bad value).
fn parse_jobs(s: &str) -> Result<u32, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n as u32),
        _ => Err("must be an integer in 1..=256".to_string()),
    }
}

impl Opts {
    fn jobs(&self) -> usize {
        self.jobs
            .map(|j| j as usize)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    fn progress(&self) -> Progress {
        if self.quiet {
            Progress::quiet()
        } else {
            Progress::new()
        }
    }
}

/// Writes to stdout; a closed or full stdout is an error, not a panic.
fn say(args: std::fmt::Arguments) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|_| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write to stdout: {e}"))
}

/// Loads and validates a scenario; its warnings go to stderr.
fn load(path: &std::path::Path) -> anyhow::Result<Scenario> {
    let sc = Scenario::load(path)?;
    for w in sc.warnings() {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok(sc)
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.4}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match &cli.cmd {
        Cmd::Check { scenario } => load(scenario)
            .and_then(|s| {
                say(format_args!(
                    "{}: ok: scenario `{}` ({} NICs, {} PFT and {} other congestion-control configuration(s))\n",
                    scenario.display(),
                    s.name(),
                    s.nodes(),
                    s.pft.len(),
                    s.cc.len()
                ))?;
                // what `compare` would cost here, measured by a short calibration run
                let specs = scenario::compare_specs(&s)?;
                let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
                let e = scenario::estimate_specs(&s, &specs, jobs)?;
                say(format_args!(
                    "estimate for `compare`: {}{}\n",
                    e.describe(),
                    if e.needs_confirmation() {
                        " (above the limits: `run` and `compare` need --yes)"
                    } else {
                        ""
                    }
                ))
            }),
        Cmd::Run {
            scenario,
            out,
            pft,
            opts,
        } => load(scenario)
            .and_then(|sc| {
                let s = scenario::run_command(&sc, &[scenario.as_path()], pft.as_deref(), out, opts.jobs(), opts.yes, &opts.progress())?;
                say(format_args!(
                    "{} run `{}` ({}): {} cycles{}, {:.1} s; accepted {:.4} flits/NIC/cycle; \
                     victim latency mean {} p99 {}; bandwidth mean {} p99 {}; congested {:.1}% of NIC-cycles\n",
                    s.scenario,
                    s.run,
                    s.pft_label,
                    s.cycles_run,
                    if s.finished { "" } else { " (NOT finished)" },
                    s.wall_seconds,
                    s.throughput.accepted_per_node_cycle,
                    fmt_opt(s.victims.latency_mean),
                    fmt_opt(s.victims.latency_p99),
                    fmt_opt(s.victims.bandwidth_mean),
                    fmt_opt(s.victims.bandwidth_p99),
                    100.0 * s.pft_stats.frac_congested,
                ))?;
                say(format_args!("wrote {}\n", out.join("summary.json").display()))
            }),
        Cmd::Compare {
            scenario,
            out,
            opts,
        } => load(scenario)
            .and_then(|sc| {
                let rep = scenario::compare_command(&sc, &[scenario.as_path()], out, opts.jobs(), opts.yes, &opts.progress())?;
                say(format_args!(
                    "{}{:.1} s wall; wrote {}\n",
                    report::compare_table(&rep),
                    rep.wall_seconds,
                    out.join("compare.json").display()
                ))
            }),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
