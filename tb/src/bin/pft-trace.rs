//! `pft-trace`: trace the PFT block cycle by cycle, open loop from a stimulus CSV or closed
//! loop against a behavioural credit link. Usage and formats: docs/trace.md.

use anyhow::{Context, Result};
use clap::{ArgGroup, Parser};
use pft_sim::link::{LinkConfig, MAX_LINK_LATENCY_CYCLES};
use pft_sim::schedule::{self, DrainSchedule};
use pft_tb::trace::config::TraceConfig;
use pft_tb::trace::record::Summary;
use pft_tb::trace::run::{self, EngineKind, Sinks};
use pft_tb::trace::stimulus_csv;
use std::path::PathBuf;
use std::process::ExitCode;

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

/// Trace the PFT injection block cycle by cycle (RTL or reference model).
///
/// Open loop: --stimulus IN.csv. Closed loop: --cycles N --link-latency L and --drain P or
/// --drain-schedule. Outputs: --out (CSV), --vcd, --summary (JSON), --record-stimulus.
// `pub`: tests/fuzz_inputs.rs includes this file as a module to fuzz the parser.
#[derive(Parser, Debug)]
#[command(name = "pft-trace", version, allow_negative_numbers = true)]
#[command(group(ArgGroup::new("source").required(true).args(["stimulus", "cycles"])))]
#[command(group(ArgGroup::new("drain_src").args(["drain", "drain_schedule"])))]
pub struct Args {
    /// Register settings (flat TOML; every key optional). See docs/trace.md.
    #[arg(long, value_name = "CFG.toml")]
    config: Option<PathBuf>,

    /// Which implementation runs; both give identical outputs.
    #[arg(long, value_enum, default_value_t = EngineKind::Model)]
    engine: EngineKind,

    /// Open loop: `flit_valid,credit_return[,flit_head]` per traced cycle.
    #[arg(long, value_name = "IN.csv",
          conflicts_with_all = ["cycles", "link_latency", "drain", "drain_schedule", "link_seed", "record_stimulus", "packet_flits"])]
    stimulus: Option<PathBuf>,

    /// Closed loop: number of traced cycles, 1..=10^10 (each writes a row of `--out`).
    #[arg(long, value_name = "N", value_parser = parse_cycles,
          requires_all = ["link_latency", "drain_src"])]
    cycles: Option<u64>,

    /// Closed loop: one-way latency of the flit and credit channels, cycles.
    #[arg(long, value_name = "L", requires = "cycles",
          value_parser = parse_link_latency)]
    link_latency: Option<u32>,

    /// Closed loop: probability in 0..=1 that the switch buffer's head leaves in a cycle.
    #[arg(long, value_name = "P", requires = "cycles", value_parser = parse_drain)]
    drain: Option<f64>,

    /// Closed loop: drain probability by traced cycle, CYCLE:P[,CYCLE:P...] from cycle 0,
    /// e.g. 0:1,2000:0.3,5000:1.
    #[arg(long, value_name = "SCHEDULE", requires = "cycles", value_parser = parse_schedule,
          allow_hyphen_values = true)]
    drain_schedule: Option<DrainSchedule>,

    /// Closed loop: flits per packet of the source (1..=65535; 1: every flit starts a
    /// packet) [default: 1]. The trace then has a `flit_head` column and signal.
    #[arg(long, value_name = "N", requires = "cycles",
          value_parser = parse_packet_flits)]
    packet_flits: Option<u32>,

    /// Closed loop: seed of the switch's drain draws [default: 1].
    #[arg(long, value_name = "S", requires = "cycles", value_parser = parse_seed)]
    link_seed: Option<u64>,

    /// Per-cycle CSV.
    #[arg(long, value_name = "OUT.csv")]
    out: Option<PathBuf>,

    /// Waveform (VCD) of inputs, decision, state and counters.
    #[arg(long, value_name = "OUT.vcd")]
    vcd: Option<PathBuf>,

    /// JSON summary.
    #[arg(long, value_name = "OUT.json")]
    summary: Option<PathBuf>,

    /// Closed loop: write the NIC's inputs as a stimulus CSV (replays open loop identically).
    #[arg(long, value_name = "STIM.csv", requires = "cycles")]
    record_stimulus: Option<PathBuf>,

    /// Refuse a stimulus that returns more credits than are in use (the block sets its
    /// sticky err_underflow flag): exit 1 and write no output. Without it: a warning.
    // `conflicts_with`, not `requires = "stimulus"`: clap let the latter through.
    #[arg(long, conflicts_with = "cycles")]
    strict: bool,
}

fn parse_drain(s: &str) -> Result<f64, String> {
    schedule::parse_probability(s).ok_or_else(|| "must be a number in 0..=1".to_string())
}

fn parse_int(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if (lo as i128..=hi as i128).contains(&n) => Ok(n as u64),
        _ => Err(format!("must be an integer in {lo}..={hi}")),
    }
}

// every integer flag names its range, whatever was wrong with the value ("abc", "1e3", 2^70)
fn parse_link_latency(s: &str) -> Result<u32, String> {
    parse_int(s, 1, MAX_LINK_LATENCY_CYCLES as u64).map(|n| n as u32)
}

fn parse_packet_flits(s: &str) -> Result<u32, String> {
    parse_int(s, 1, 65535).map(|n| n as u32)
}

/// The traced cycles' bound: 10^10, as a scenario's `cycles.max` (each traced cycle writes
/// a row of about 50 bytes).
fn parse_cycles(s: &str) -> Result<u64, String> {
    parse_int(s, 1, 10_000_000_000)
}

fn parse_seed(s: &str) -> Result<u64, String> {
    parse_int(s, 0, u64::MAX)
}

fn parse_schedule(s: &str) -> Result<DrainSchedule, String> {
    DrainSchedule::parse(s).map_err(|e| e.to_string())
}

/// What a successful run prints: warnings (stderr) and the result line (stdout).
struct Report {
    warnings: Vec<String>,
    line: String,
}

/// The cycles of an open-loop trace that returned more credits than were in use: None when
/// there were none, else one sentence naming the first (the block's defined behaviour,
/// docs/bad-inputs.md BK-01, but almost always a mistake in a hand-written stimulus).
fn over_returns(stimulus: &std::path::Path, s: &Summary) -> Option<String> {
    let f = s.first_over_return?;
    let sent = if f.send {
        "1 flit sent"
    } else {
        "no flit sent"
    };
    Some(format!(
        "stimulus {}: cycle {} returns {} credit(s) with c = {} in use and {sent}, more than c + send ({} cycle(s) in all do); the block clamps c to 0 and sets its sticky err_underflow flag, which reads 1 from cycle {} on",
        stimulus.display(),
        f.cycle,
        f.credit_return,
        f.c,
        s.over_return_cycles,
        f.cycle + 1
    ))
}

fn run(a: Args) -> Result<Report> {
    // Every input is read and checked before any output file is created.
    let cfg = match &a.config {
        Some(p) => TraceConfig::load(p)?,
        None => TraceConfig::default(),
    };
    // Outputs are refused before any work when one is an input, the same file as another
    // output, not a regular file, or not creatable (pft_hdl::outfile).
    let outs: Vec<(&str, &std::path::Path)> = [
        ("--out", &a.out),
        ("--vcd", &a.vcd),
        ("--summary", &a.summary),
        ("--record-stimulus", &a.record_stimulus),
    ]
    .into_iter()
    .filter_map(|(f, p)| p.as_deref().map(|p| (f, p)))
    .collect();
    let inputs: Vec<&std::path::Path> = [&a.config, &a.stimulus]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .collect();
    pft_hdl::outfile::check_all(&outs, &inputs)?;
    let closed = a.stimulus.is_none();
    let comment = format!(
        "pft-trace, mode {}; cycle t spans [{}t, {}t+{}) ns; the {}-cycle config prelude is not traced",
        cfg.mode_name(),
        pft_tb::trace::record::VCD_PERIOD_NS,
        pft_tb::trace::record::VCD_PERIOD_NS,
        pft_tb::trace::record::VCD_PERIOD_NS,
        cfg.prelude().len()
    );
    let mut warnings = Vec::new();
    let summary = if let Some(stim_path) = &a.stimulus {
        let stim = stimulus_csv::load(stim_path)?;
        let packets = stim.iter().any(|r| r.flit_head.is_some());
        let mut sinks = Sinks::create(
            a.out.as_deref(),
            a.vcd.as_deref(),
            a.summary.as_deref(),
            None,
            false,
            packets,
            &comment,
        )?;
        let s = run::open_loop(a.engine, &cfg, &stim, &mut sinks)?;
        if let Some(w) = over_returns(stim_path, &s) {
            // Refused before any output is renamed into place: dropping `sinks` removes
            // the temporary files, so nothing is written.
            anyhow::ensure!(!a.strict, "{w} (--strict: no output written)");
            warnings.push(w);
        }
        sinks.commit(&s)?;
        s
    } else {
        // clap guarantees these in closed loop.
        let cycles = a.cycles.context("--cycles is required")?;
        let packet_flits = a.packet_flits.unwrap_or(1);
        let drain = match (a.drain, a.drain_schedule) {
            (Some(p), None) => DrainSchedule::constant(p),
            (None, Some(s)) => s,
            _ => anyhow::bail!("closed loop needs exactly one of --drain and --drain-schedule"),
        };
        if let Some(k) = drain.steps().iter().position(|&(c, _)| c >= cycles) {
            let (c, p) = drain.steps()[k];
            warnings.push(format!(
                "--drain-schedule: entry {} `{c}:{p}` starts at cycle {c}, after the last traced cycle ({}): it and the entries after it change nothing",
                k + 1,
                cycles - 1
            ));
        }
        let link = LinkConfig {
            latency_cycles: a.link_latency.context("--link-latency is required")?,
            capacity_flits: cfg.regs.credit_limit as u32,
            drain,
            seed: a.link_seed.unwrap_or(1),
        };
        let mut sinks = Sinks::create(
            a.out.as_deref(),
            a.vcd.as_deref(),
            a.summary.as_deref(),
            a.record_stimulus.as_deref(),
            closed,
            packet_flits > 1,
            &comment,
        )?;
        let s = run::closed_loop(a.engine, &cfg, &link, cycles, packet_flits, &mut sinks)?;
        sinks.commit(&s)?;
        s
    };
    let line = format!(
        "pft-trace: {} cycles, mode {}, sent {} (rate {:.4}), mean c {:.2}, congested {:.4} of cycles ({} enters, {} leaves)",
        summary.cycles,
        summary.mode,
        summary.sent,
        summary.injection_rate,
        summary.mean_c,
        summary.frac_congested,
        summary.enters_congested,
        summary.leaves_congested
    );
    Ok(Report { warnings, line })
}

fn main() -> ExitCode {
    let args: Args = pft_sim::cli::parse();
    // interrupted (SIGINT, SIGTERM, SIGHUP): the temporary files of the outputs go, the
    // earlier files at their paths stay; exit status 130, as pftsim's
    let _ = ctrlc::set_handler(|| {
        pft_hdl::outfile::remove_temporaries();
        pft_hdl::eprintln_safe!("error: interrupted: the unfinished outputs were removed");
        std::process::exit(130);
    });
    match run(args) {
        Ok(Report { warnings, line }) => {
            use std::io::Write;
            for w in warnings {
                pft_hdl::eprintln_safe!("warning: {w}");
            }
            // a closed stdout (`>&-`) is an error: Rust's stdout would drop it silently
            match pft_hdl::outfile::stdout_is_open()
                .and_then(|_| writeln!(std::io::stdout(), "{line}"))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    pft_hdl::eprintln_safe!("error: cannot write to stdout: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            pft_hdl::eprintln_safe!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
