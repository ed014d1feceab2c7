//! pftsim: run a scenario file (docs/scenarios.md) with one congestion-control
//! configuration, or compare congestion control off against every configuration it lists
//! (`[[pft]]` and `[[cc]]` entries: PFT, InfiniBand CC).
//!
//! ```text
//! pftsim run SCENARIO.toml --out DIR [--pft NAME | --cc NAME] [--jobs N] [--quiet]
//! pftsim compare SCENARIO.toml --out DIR [--jobs N] [--quiet]
//! pftsim check SCENARIO.toml [--no-estimate] [--set KEY=VALUE]
//! pftsim verilog SCENARIO.toml --cc NAME [--flows N] [--nic N] [--top NAME] --out OUT.v|-
//! pftsim sweep SCENARIO.toml --grid GRID.toml --out DIR [--emit parallel|slurm] [--jobs N] [--yes]
//!              [--array-max N] [--time T] [--mem M]
//! pftsim sweep --collect --out DIR
//! pftsim sweep --resume --out DIR
//! ```
//! `run --pft isolated` runs the isolated baseline alone; `sweep` is in docs/sweeps.md.
//! `check` also prints what `compare` would cost on this machine (node-cycles, wall time at
//! the speed a short calibration run measures, memory; not with `--no-estimate`); `run`
//! and `compare` refuse a command estimated above 2 hours or 80% of the available memory
//! unless given `--yes`.
//! Errors (bad scenario, failed run) go to stderr with exit status 1; nothing in DIR then
//! looks complete (`summary.json` / `compare.json` are written last).

// The doc comments below are the CLI's help text, where `[[pft]]` is TOML, not a link.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{Parser, Subcommand};
use pft_sim::scenario::sweep::{self, Collected, Emit};
use pft_sim::scenario::{self, report, Progress, Scenario};
use std::path::PathBuf;
use std::process::ExitCode;

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

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
        /// Name of the [[pft]] or [[cc]] entry to run, `off`, or `isolated` (the isolated
        /// baseline alone) (default: the first [[pft]] entry, else the first [[cc]] entry).
        /// `--cc` is the same flag.
        #[arg(long, visible_alias = "cc", value_name = "NAME")]
        pft: Option<String>,
        /// Do nothing when --out already holds this run, finished (the same scenario, by
        /// its SHA-256, and the same entry): a sweep's job lines use it, so that a job list
        /// run again runs only what is missing.
        #[arg(long)]
        skip_finished: bool,
        /// Change a scenario value for this command (repeatable): KEY=VALUE with the
        /// file's dotted key outside the [[pft]]/[[cc]] entries, e.g. `--set seed=7 --set
        /// network.mtu_bytes=64` (docs/scenarios.md, "Commands").
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = SetParser)]
        sets: Vec<(String, toml::Value)>,
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
        /// Change a scenario value for this command (repeatable): KEY=VALUE with the
        /// file's dotted key outside the [[pft]]/[[cc]] entries, e.g. `--set seed=7 --set
        /// network.mtu_bytes=64` (docs/scenarios.md, "Commands").
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = SetParser)]
        sets: Vec<(String, toml::Value)>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Load and validate a scenario, and estimate what `compare` would cost here.
    Check {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Change a scenario value for this command (repeatable): KEY=VALUE with the
        /// file's dotted key outside the [[pft]]/[[cc]] entries, e.g. `--set seed=7 --set
        /// network.mtu_bytes=64` (docs/scenarios.md, "Commands").
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = SetParser)]
        sets: Vec<(String, toml::Value)>,
        /// Validate and warn only: no calibration runs, no estimate of `compare` (a check
        /// of a large scenario's runs takes seconds to a minute).
        #[arg(long)]
        no_estimate: bool,
    },
    /// Write the Verilog of a [[cc]] entry's NIC logic (ibcc, mvcm, dcqcn, selftuned) with
    /// the constants a run of the entry derives from the scenario (docs/hardware.md, "A
    /// scenario's constants").
    Verilog {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Name of the [[cc]] entry.
        #[arg(long, value_name = "NAME")]
        cc: String,
        /// The N-flow block (N: 1, 4, 16, 64) instead of one flow.
        #[arg(long, value_name = "N")]
        flows: Option<usize>,
        /// IB CC only: the NIC whose CCTI timer phase the block takes (the network draws one
        /// per NIC) [default: 0].
        #[arg(long, value_name = "N")]
        nic: Option<u32>,
        /// The top module's name (its submodules' too: `NAME$...`), so that one design can
        /// hold several exports [default: the registry's, e.g. `ibcc_flow`].
        #[arg(long, value_name = "NAME")]
        top: Option<String>,
        /// Output file (`-`: standard output); written under a temporary name and renamed.
        #[arg(long, value_name = "OUT.v")]
        out: PathBuf,
        /// Change a scenario value for this command (repeatable): KEY=VALUE with the
        /// file's dotted key outside the [[pft]]/[[cc]] entries, e.g. `--set seed=7 --set
        /// network.mtu_bytes=64` (docs/scenarios.md, "Commands").
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = SetParser)]
        sets: Vec<(String, toml::Value)>,
    },
    /// Run a scenario over a grid of values (docs/sweeps.md) on the local cores, or write
    /// the runs as a job list for GNU parallel and Slurm job arrays (`--emit`); `--collect`
    /// gathers a sweep directory's runs into sweep.csv and F_C heat maps; `--resume` runs
    /// only the runs of a sweep directory that are missing.
    Sweep {
        /// Scenario file (TOML); not needed with --collect or --resume.
        #[arg(required_unless_present_any = ["collect", "resume"], requires = "grid")]
        scenario: Option<PathBuf>,
        /// Grid file (TOML: entry, seeds, [[axis]] key/values, heatmap).
        #[arg(long, required_unless_present_any = ["collect", "resume"], requires = "scenario")]
        grid: Option<PathBuf>,
        /// Sweep directory (points/, runs/, jobs.txt, sweep.json, sweep.csv).
        #[arg(long)]
        out: PathBuf,
        /// Write the plan, the job list and parallel.sh (`parallel`), plus the Slurm
        /// job-array script and submit.sh (`slurm`), and run nothing.
        #[arg(long, value_enum, conflicts_with_all = ["collect", "resume"])]
        emit: Option<Emit>,
        /// Gather the finished runs of the sweep directory `--out` (sweep.csv, heat maps).
        #[arg(long, conflicts_with = "resume")]
        collect: bool,
        /// Run here only the runs of the sweep in `--out` that are missing or failed, then
        /// collect (with the scenario and grid given, they must be that sweep's).
        #[arg(long)]
        resume: bool,
        /// Slurm: tasks per job array, at most, 1..=1000000 (submit.sh submits several
        /// arrays) [default: 1000].
        #[arg(long, value_name = "N", value_parser = sweep::cluster::parse_array_max, allow_negative_numbers = true, requires = "emit")]
        array_max: Option<usize>,
        /// Slurm: `--time` per task (default: from the cost estimate).
        #[arg(long, value_name = "TIME", value_parser = sweep::cluster::parse_time, allow_negative_numbers = true, requires = "emit")]
        time: Option<String>,
        /// Slurm: `--mem` per task (default: from the cost estimate).
        #[arg(long, value_name = "SIZE", value_parser = sweep::cluster::parse_mem, allow_hyphen_values = true, requires = "emit")]
        mem: Option<String>,
        #[command(flatten)]
        opts: Opts,
    },
    /// Write the text trace of a motif scenario's workload (docs/workloads.md, "Traces"):
    /// every rank's sends, receives, waits and compute, replayable with `kind = "trace"`.
    TraceWrite {
        /// Scenario file (TOML) with `[workload] kind = "motif"`.
        scenario: PathBuf,
        /// The trace file to write (replaced if it exists; never the scenario file).
        #[arg(long)]
        out: PathBuf,
        /// Change a scenario value for this command (repeatable), as for `run`.
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = SetParser)]
        sets: Vec<(String, toml::Value)>,
    },
}

#[derive(clap::Args)]
pub struct Opts {
    /// Runs at once, 1..=256 (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = parse_jobs, allow_negative_numbers = true)]
    jobs: Option<u32>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// The PFT engine at every NIC, instead of the scenario's `engine`: model, rtl or
    /// verilator (the exported Verilog; needs `make verilog` and Verilator).
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine)]
    engine: Option<pft_sim::cc::pft::EngineKind>,
    /// Run even when the estimate is above 2 hours or 80% of the available memory
    /// (`pftsim check` prints the estimate).
    #[arg(long)]
    yes: bool,
    /// Threads for each run's phase 2, instead of the scenario's `[network] threads`
    /// (1..=256; every output is the same at every count: docs/performance.md, "Threads").
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<u32>,
}

/// `--engine`: model, rtl or verilator.
fn parse_engine(s: &str) -> Result<pft_sim::cc::pft::EngineKind, String> {
    use pft_sim::cc::pft::EngineKind;
    match s {
        "model" => Ok(EngineKind::Model),
        "rtl" => Ok(EngineKind::Rtl),
        "verilator" => Ok(EngineKind::Verilator),
        _ => Err("must be model, rtl or verilator".to_string()),
    }
}

/// `--threads`: an integer in 1..=256.
fn parse_threads(s: &str) -> Result<u32, String> {
    let most = pft_sim::net::config::MAX_THREADS as i128;
    match s.trim().parse::<i128>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n as u32),
        _ => Err(format!("must be an integer in 1..={most}")),
    }
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

    /// The scenario with `--engine` and `--threads` applied.
    fn with_engine(&self, mut sc: Scenario) -> Scenario {
        if let Some(e) = self.engine {
            sc.engine = e;
        }
        if let Some(t) = self.threads {
            sc.network.threads = t;
        }
        sc
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
    // a closed stdout (`>&-`) is an error: Rust's stdout would drop the text silently
    pft_hdl::outfile::stdout_is_open()
        .and_then(|_| out.write_fmt(args))
        .and_then(|_| out.flush())
        .map_err(|e| anyhow::anyhow!("cannot write to stdout: {e}"))
}

/// `--set`: KEY=VALUE. Its own parser, not a function: clap would print the whole value
/// before the message, and the message already quotes it, cut (a value can be 100 kB).
#[derive(Clone)]
struct SetParser;

impl clap::builder::TypedValueParser for SetParser {
    type Value = (String, toml::Value);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        // (`format`, not `with_cmd`: only so does a raw message get the usage and the hint)
        let fail = |kind, msg: String| {
            clap::Error::raw(
                kind,
                format!("invalid value for '--set <KEY=VALUE>': {msg}"),
            )
            .format(&mut cmd.clone())
        };
        let s = value.to_str().ok_or_else(|| {
            fail(
                clap::error::ErrorKind::InvalidUtf8,
                "not UTF-8 text".to_string(),
            )
        })?;
        pft_sim::scenario::overrides::parse_set(s)
            .map_err(|e| fail(clap::error::ErrorKind::ValueValidation, e))
    }
}

/// Loads a scenario with its `--set` values and validates it; its warnings go to stderr.
fn load(path: &std::path::Path, sets: &[(String, toml::Value)]) -> anyhow::Result<Scenario> {
    let sc = Scenario::load_with(path, sets)?;
    for w in sc.warnings() {
        pft_sim::eprintln_safe!("warning: {}: {w}", path.display());
    }
    Ok(sc)
}

/// `pftsim verilog`: the entry's RTL at its derived constants, to `out` (`-`: stdout).
fn verilog_cmd(
    sc: &Scenario,
    path: &std::path::Path,
    name: &str,
    (flows, nic, top): (Option<usize>, Option<u32>, Option<&str>),
    out: &std::path::Path,
) -> anyhow::Result<()> {
    use pft_sim::cc::export;
    let stdout = out.as_os_str() == "-";
    if !stdout {
        // refused before any work: an input, a directory, a device, ...
        pft_hdl::outfile::check(out, &[path])?;
    }
    let e = export::export_entry(sc, name, flows, nic)
        .and_then(|e| match top {
            Some(t) => export::with_top(e, t),
            None => Ok(e),
        })
        .map_err(|m| {
            anyhow::anyhow!(
                "--cc {}: {m} ({})",
                scenario::sanitize(name),
                path.display()
            )
        })?;
    let consts: Vec<String> = e
        .constants
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let what = format!(
        "design {} (top `{}`) of [[cc]] `{name}` with {}",
        e.design,
        e.top,
        consts.join(" ")
    );
    if stdout {
        pft_hdl::outfile::write_stdout(&e.verilog)
            .map_err(|err| anyhow::anyhow!("cannot write the Verilog to stdout: {err}"))?;
        pft_sim::eprintln_safe!("{what}");
        Ok(())
    } else {
        pft_hdl::outfile::write_atomic(out, e.verilog.as_bytes())
            .map_err(|err| anyhow::anyhow!("cannot write {}: {err}", out.display()))?;
        say(format_args!("wrote {}: {what}\n", out.display()))
    }
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.4}"))
}

/// `pftsim sweep`: plan (and run, or emit), or collect.
fn sweep_cmd(a: sweep::SweepArgs, collect: bool) -> anyhow::Result<()> {
    let out = a.out.clone();
    let inputs: Vec<&std::path::Path> = a
        .scenario
        .iter()
        .chain(&a.grid)
        .map(PathBuf::as_path)
        .collect();
    if collect {
        let want = match (&a.scenario, &a.grid) {
            (Some(s), Some(g)) => Some(sweep::load_plan(s, g, a.engine)?),
            _ => None,
        };
        // (and the files its points read)
        let read = want.as_ref().map(sweep::files_read).unwrap_or_default();
        let inputs: Vec<&std::path::Path> = inputs
            .into_iter()
            .chain(read.iter().map(PathBuf::as_path))
            .collect();
        let c = sweep::collect_command(&out, want.as_ref(), &inputs)?;
        return print_sweep(&out, &c);
    }
    let (plan, c) = sweep::sweep_command(&a)?;
    match c {
        Some(c) => print_sweep(&out, &c),
        None => {
            let d = sweep::cluster::shell_quote(&scenario::sanitize(&out.display().to_string()));
            say(format_args!(
                "wrote {} runs of {} points x {} seeds to {}\n\
                 run them:  bash {d}/{}{}\n\
                 then:      pftsim sweep --collect --out {d}\n",
                plan.units.len(),
                plan.points.len(),
                plan.seeds.len(),
                scenario::sanitize(&out.join(sweep::JOBS).display().to_string()),
                sweep::PARALLEL,
                if a.emit == Some(Emit::Slurm) {
                    format!("   (GNU parallel; on Slurm: bash {d}/{})", sweep::SUBMIT)
                } else {
                    "   (GNU parallel)".to_string()
                },
            ))
        }
    }
}

/// The collected table: F_C per point over its seeds.
fn print_sweep(out: &std::path::Path, c: &Collected) -> anyhow::Result<()> {
    let mut by: Vec<(String, Vec<String>, Vec<f64>)> = Vec::new();
    for r in &c.rows {
        match by.iter_mut().find(|b| b.0 == r.point) {
            Some(b) => b.2.extend(r.f_c),
            None => by.push((
                r.point.clone(),
                r.values.clone(),
                r.f_c.into_iter().collect(),
            )),
        }
    }
    let mut text = format!(
        "{:<6} {:>8} {:>8} {:>8}  values\n",
        "point", "F_C", "min", "max"
    );
    for (p, values, fc) in &by {
        let mean = (!fc.is_empty()).then(|| fc.iter().sum::<f64>() / fc.len() as f64);
        let min = fc.iter().copied().reduce(f64::min);
        let max = fc.iter().copied().reduce(f64::max);
        text += &format!(
            "{p:<6} {:>8} {:>8} {:>8}  {}\n",
            fmt_opt(mean),
            fmt_opt(min),
            fmt_opt(max),
            // (each value cut as messages cut quoted input: a long string value of an
            // axis would flood the terminal)
            scenario::sanitize(
                &values
                    .iter()
                    .map(|v| pft_sim::error::excerpt(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        );
    }
    if !c.unfinished.is_empty() {
        pft_sim::eprintln_safe!(
            "warning: {} run(s) reached cycles.max before their workload finished (the CSV's `finished` column; manifest.json lists them): {}",
            c.unfinished.len(),
            c.unfinished.join(", ")
        );
    }
    let shown = |p: PathBuf| scenario::sanitize(&p.display().to_string());
    say(format_args!(
        "{text}wrote {}{}\n",
        shown(out.join(sweep::CSV)),
        c.plots
            .iter()
            .map(|h| format!(", {}", shown(out.join(h))))
            .collect::<String>()
    ))
}

/// When memory runs out, the open result directories' manifests say "failed" with the
/// reason before the process ends (`scenario::output::LastWords`).
#[global_allocator]
static ALLOC: scenario::output::LastWords = scenario::output::LastWords;

fn main() -> ExitCode {
    scenario::output::LastWords::reserve();
    let cli: Cli = pft_sim::cli::parse();
    let res = match &cli.cmd {
        Cmd::Verilog {
            scenario,
            cc,
            flows,
            nic,
            top,
            out,
            sets,
        } => load(scenario, sets).and_then(|sc| {
            verilog_cmd(&sc, scenario, cc, (*flows, *nic, top.as_deref()), out)
        }),
        Cmd::Check {
            scenario,
            sets,
            no_estimate,
        } => {
            scenario::output::LastWords::checking();
            load(scenario, sets)
            .and_then(|s| {
                // what `run` and `compare` refuse before any output, refused here too
                let specs = scenario::compare_specs(&s)?;
                scenario::check_engine(&s, &specs)?;
                // a `[[cc]]` entry of kind "pft" is a PFT configuration
                let pft_kind = s.cc.iter().filter(|c| c.scheme.kind() == "pft").count();
                say(format_args!(
                    "{}: ok: scenario `{}` ({} NICs, {} PFT and {} other congestion-control configuration(s))\n",
                    scenario.display(),
                    s.name(),
                    s.nodes(),
                    s.pft.len() + pft_kind,
                    s.cc.len() - pft_kind
                ))?;
                if !no_estimate {
                    // what `compare` would cost here, measured by a short calibration run
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
                    ))?;
                }
                for line in scenario::threads_notes(&s, &specs)? {
                    say(format_args!("{line}\n"))?;
                }
                Ok(())
            })
        }
        Cmd::Run {
            scenario,
            out,
            pft,
            skip_finished,
            sets,
            opts,
        } => load(scenario, sets)
            .map(|sc| opts.with_engine(sc))
            .and_then(|sc| {
                let name = scenario::run_name(&sc, pft.as_deref());
                if *skip_finished && scenario::finished_run_in(&sc, &name, out) {
                    return say(format_args!(
                        "{} already holds the finished run `{name}` of this scenario: nothing to do (--skip-finished)\n",
                        scenario::sanitize(&out.display().to_string())
                    ));
                }
                let inputs = sc.inputs(scenario);
                let s = scenario::run_command(&sc, &inputs, pft.as_deref(), out, opts.jobs(), opts.yes, &opts.progress())?;
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
            sets,
            opts,
        } => load(scenario, sets)
            .map(|sc| opts.with_engine(sc))
            .and_then(|sc| {
                let inputs = sc.inputs(scenario);
                let rep = match scenario::compare_command(&sc, &inputs, out, opts.jobs(), opts.yes, &opts.progress()) {
                    Ok(rep) => rep,
                    Err(e) => {
                        // some runs failed: the table of those that finished, then the error
                        if let Some(p) = e.downcast_ref::<scenario::PartialCompare>() {
                            say(format_args!(
                                "{}(the runs that finished; wrote {})\n",
                                report::compare_table(&p.report),
                                out.join("compare.json").display()
                            ))?;
                        }
                        return Err(e);
                    }
                };
                say(format_args!(
                    "{}{:.1} s wall; wrote {}\n",
                    report::compare_table(&rep),
                    rep.wall_seconds,
                    out.join("compare.json").display()
                ))
            }),
        Cmd::TraceWrite {
            scenario,
            out,
            sets,
        } => load(scenario, sets).and_then(|sc| {
            // one file named on the command line, as pft-verilog's and pft-trace's: checked
            // before any work (not the scenario, not a directory or device, a link to a
            // file written through, not a file the scenario reads), then written under a
            // temporary name
            let inputs = sc.inputs(scenario);
            pft_hdl::outfile::check(out, &inputs)?;
            let text = scenario::motif_out::trace_text(&sc)?;
            pft_hdl::outfile::write_atomic(out, text.as_bytes())
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
            say(format_args!(
                "wrote {} ({} lines)\n",
                scenario::sanitize(&out.display().to_string()),
                text.lines().count()
            ))
        }),
        Cmd::Sweep {
            scenario,
            grid,
            out,
            emit,
            collect,
            resume,
            array_max,
            time,
            mem,
            opts,
        } => {
            if emit.is_some() && (opts.jobs.is_some() || opts.threads.is_some()) {
                pft_sim::eprintln_safe!(
                    "note: --emit: --jobs and --threads do not apply to the job list (its lines run at --jobs 1 and at the point files' network.threads)"
                );
            }
            if *emit == Some(sweep::Emit::Parallel)
                && (array_max.is_some() || time.is_some() || mem.is_some())
            {
                pft_sim::eprintln_safe!(
                    "note: --emit parallel: --array-max, --time and --mem are for the Slurm script (--emit slurm); parallel.sh does not use them"
                );
            }
            sweep_cmd(
            sweep::SweepArgs {
                scenario: scenario.clone(),
                grid: grid.clone(),
                out: out.clone(),
                emit: *emit,
                engine: opts.engine,
                jobs: opts.jobs(),
                threads: opts.threads,
                quiet: opts.quiet,
                yes: opts.yes,
                resume: *resume,
                array_max: array_max.unwrap_or(sweep::ARRAY_MAX),
                time: time.clone(),
                mem: mem.clone(),
            },
            *collect,
        )
        }
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            pft_sim::eprintln_safe!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
