//! pftsim: run a scenario file (docs/scenarios.md) with one PFT configuration, or compare
//! PFT off against every configuration it lists.
//!
//! ```text
//! pftsim run SCENARIO.toml --out DIR [--pft NAME] [--jobs N] [--quiet]
//! pftsim compare SCENARIO.toml --out DIR [--jobs N] [--quiet]
//! pftsim check SCENARIO.toml
//! ```
//! Errors (bad scenario, failed run) go to stderr with exit status 1; nothing in DIR then
//! looks complete (`summary.json` / `compare.json` are written last).

use clap::{Parser, Subcommand};
use pft_sim::scenario::{self, report, Progress, Scenario};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pftsim",
    version,
    about = "Run PFT network scenarios (docs/scenarios.md)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one PFT configuration of a scenario (plus its isolated baseline if asked for).
    Run {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Output directory (created; summary.json is written last).
        #[arg(long)]
        out: PathBuf,
        /// Name of the [[pft]] entry to run, or `off` (default: the first entry).
        #[arg(long)]
        pft: Option<String>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Run PFT off, every [[pft]] entry and the isolated baseline; print one table.
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
struct Opts {
    /// Runs at once (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
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

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.4}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match &cli.cmd {
        Cmd::Check { scenario } => Scenario::load(scenario).map(|s| {
            println!(
                "{}: ok ({} NICs, {} PFT configuration(s))",
                scenario.display(),
                s.nodes(),
                s.pft.len()
            );
        }).map_err(anyhow::Error::from),
        Cmd::Run {
            scenario,
            out,
            pft,
            opts,
        } => Scenario::load(scenario)
            .map_err(anyhow::Error::from)
            .and_then(|sc| {
                let s = scenario::run_command(&sc, pft.as_deref(), out, opts.jobs(), &opts.progress())?;
                println!(
                    "{} run `{}` (PFT {}): {} cycles{}, {:.1} s; accepted {:.4} flits/NIC/cycle; \
                     victim latency mean {} p99 {}; bandwidth mean {} p99 {}; congested {:.1}% of NIC-cycles",
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
                );
                println!("wrote {}", out.join("summary.json").display());
                Ok(())
            }),
        Cmd::Compare {
            scenario,
            out,
            opts,
        } => Scenario::load(scenario)
            .map_err(anyhow::Error::from)
            .and_then(|sc| {
                let rep = scenario::compare_command(&sc, out, opts.jobs(), &opts.progress())?;
                print!("{}", report::compare_table(&rep));
                println!(
                    "{:.1} s wall; wrote {}",
                    rep.wall_seconds,
                    out.join("compare.json").display()
                );
                Ok(())
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
