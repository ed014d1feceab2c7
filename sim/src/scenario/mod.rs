//! Scenarios: a TOML file describing one experiment (network, workload, named PFT
//! configurations, cycle budget, seed, engine, time-series sampling), and the two commands
//! of `pftsim` that run it:
//!
//! - `run`: one PFT configuration (plus the isolated baseline for GPCNeT when asked);
//!   writes `summary.json`, `nodes.csv`, `timeseries.csv` and SVG plots.
//! - `compare`: PFT off, every listed configuration and the isolated baseline, on all
//!   cores; prints one table (throughput, victim latency and bandwidth, F_C, CIF) and
//!   writes `compare.json`, `compare.csv` and every run's own outputs in subdirectories.
//!
//! docs/scenarios.md documents the file format and the shipped scenarios.

pub mod config;
pub mod estimate;
pub mod motif_out;
pub mod output;
pub mod overrides;
pub mod plot;
pub mod progress;
pub mod report;
pub mod run;
mod runs;
pub mod sweep;
pub mod toml_error;

pub use config::{CcEntry, PftEntry, Refused, Scenario, ScenarioError};
pub use progress::Progress;
pub use report::{CompareReport, CompareRow, RunSummary};
pub use run::{RunOutput, RunSpec};
use runs::{each_job, split_failed, with_failed};
pub use runs::{run_all, run_each, PartialCompare};

use crate::cc::CcConfig;
use crate::metrics::Distribution;
use anyhow::Context;
use std::path::Path;
use std::time::Instant;

/// Label of the run with PFT disabled.
pub const OFF: &str = "off";
/// Label of the isolated baseline (congestors off, PFT off).
pub const ISOLATED: &str = "isolated";

/// The spec of the `[[pft]]` or `[[cc]]` entry `name`, or of no congestion control for
/// `off`.
fn cc_spec(sc: &Scenario, name: &str) -> anyhow::Result<RunSpec> {
    let cc = if name == OFF {
        CcConfig::none()
    } else {
        let names: Vec<String> = sc.configs().into_iter().map(|(n, _)| n).collect();
        sc.config_named(name).with_context(|| {
            format!(
                "--pft/--cc {name}: the scenario has no [[pft]] or [[cc]] entry of that name (it has: {}, and `off`)",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            )
        })?
    };
    Ok(RunSpec {
        label: name.to_string(),
        cc,
        congestors: true,
    })
}

fn isolated_spec() -> RunSpec {
    RunSpec {
        label: ISOLATED.to_string(),
        cc: CcConfig::none(),
        congestors: false,
    }
}

/// The spec of the run `name` of `sc`: an entry's name, `off` or `isolated`.
pub fn run_spec(sc: &Scenario, name: &str) -> anyhow::Result<RunSpec> {
    if name == ISOLATED {
        Ok(isolated_spec())
    } else {
        cc_spec(sc, name)
    }
}

/// True when `dir` holds a finished `pftsim run` of `sc` (its SHA-256) with the entry `name`
/// (`run --skip-finished`, `sweep --resume`).
pub fn finished_run_in(sc: &Scenario, name: &str, dir: &Path) -> bool {
    output::read_manifest(dir).is_some_and(|m| {
        m.finished
            && m.command == "run"
            && m.scenario_sha256 == output::scenario_sha256(sc)
            && m.runs.first().map(String::as_str) == Some(name)
            // a summary a sweep's row cannot read (truncated, edited), or not the one
            // the run wrote (copied from another run), is run again
            && sweep::collect::read_brief(&dir.join("summary.json")).is_ok()
            && m.changed_since(dir, "summary.json").is_none()
    })
}

/// The name `run` gives its run: `pft_name`, else the first entry, else `off`.
pub fn run_name(sc: &Scenario, pft_name: Option<&str>) -> String {
    pft_name
        .map(str::to_string)
        .or_else(|| sc.configs().first().map(|(n, _)| n.clone()))
        .unwrap_or_else(|| OFF.to_string())
}

/// True when the scenario asks for, and its workload has, an isolated baseline.
pub fn wants_isolated(sc: &Scenario) -> bool {
    match &sc.workload {
        crate::workload::WorkloadConfig::Gpcnet(_) => sc.isolated.unwrap_or(true),
        crate::workload::WorkloadConfig::Hotspot(_) => sc.isolated.unwrap_or(false),
        crate::workload::WorkloadConfig::Jobs(_) => sc.isolated.unwrap_or(true),
        _ => false,
    }
}

/// The files `write_run` writes into a run's directory (summary.json last).
pub const RUN_FILES: [&str; 9] = [
    "nodes.csv",
    "timeseries.csv",
    "series.csv",
    "latency_distribution.svg",
    "bandwidth_distribution.svg",
    "c_timeseries.svg",
    "throughput.svg",
    "cc_probes.svg",
    "summary.json",
];

/// The files `compare` writes at the top of its directory (compare.json last).
pub const COMPARE_FILES: [&str; 5] = [
    "compare.csv",
    "latency_distribution.svg",
    "bandwidth_distribution.svg",
    "throughput.svg",
    "compare.json",
];

/// What a hot-spot workload's run adds to `RUN_FILES` (`report::write_coldhot_run`).
pub const COLDHOT_RUN_FILES: [&str; 3] = [
    "coldhot.csv",
    "coldhot_latency.svg",
    "coldhot_throughput.svg",
];

/// What `compare` of a hot-spot workload adds to `COMPARE_FILES`
/// (`report::write_coldhot_compare`).
pub const COLDHOT_COMPARE_FILES: [&str; 2] = ["coldhot_latency.svg", "coldhot_throughput.svg"];

/// The files of `names` below `sub` (`""` = the top) when the workload of `sc` is a hot
/// spot one; none otherwise.
fn coldhot_files<'a>(
    sc: &Scenario,
    names: &'a [&'a str],
    sub: &'a str,
) -> impl Iterator<Item = String> + 'a {
    let hot = matches!(sc.workload, crate::workload::WorkloadConfig::Hotspot(_));
    names.iter().filter(move |_| hot).map(move |f| {
        if sub.is_empty() {
            f.to_string()
        } else {
            format!("{sub}/{f}")
        }
    })
}

/// `RUN_FILES` below `sub` (`""` = the top).
fn run_files(sub: &str) -> impl Iterator<Item = String> + '_ {
    RUN_FILES.iter().map(move |f| {
        if sub.is_empty() {
            f.to_string()
        } else {
            format!("{sub}/{f}")
        }
    })
}

/// What an older pftsim (before manifests) may have left in a directory that this command
/// would otherwise mistake for its own: the files of `run` and `compare` at the top, and of
/// the runs `off`, `isolated` and this command's runs below it.
fn legacy_files(specs: &[RunSpec]) -> Vec<String> {
    let mut v: Vec<String> = run_files("").collect();
    v.extend(COMPARE_FILES.iter().map(|f| f.to_string()));
    for sub in [OFF, ISOLATED]
        .into_iter()
        .chain(specs.iter().map(|s| s.label.as_str()))
    {
        v.extend(run_files(sub));
    }
    v
}

/// Writes one run's files (`RUN_FILES`) into `dir` (summary.json last) and returns its
/// summary.
pub fn write_run(
    dir: &Path,
    sc: &Scenario,
    r: &RunOutput,
    iso: Option<&RunOutput>,
    off: Option<&RunOutput>,
) -> anyhow::Result<RunSummary> {
    output::write_csv(&dir.join("nodes.csv"), &r.nodes)?;
    output::write_csv(&dir.join("timeseries.csv"), &r.timeseries.samples())?;
    let mut runs = vec![r];
    runs.extend(iso);
    write_distribution_plots(dir, sc, &runs)?;
    let series: Vec<(String, Vec<(u64, u32)>)> = r
        .timeseries
        .watched()
        .iter()
        .map(|&n| {
            let role = &r.nodes[n.index()].role;
            (
                format!("NIC {n} ({role})"),
                r.timeseries
                    .node_samples(n)
                    .iter()
                    .map(|s| (s.cycle, s.c))
                    .collect(),
            )
        })
        .collect();
    let p = &r.spec.cc.pft();
    let svg = plot::timeseries_svg(
        &format!(
            "{}: used credits c at chosen NICs, {}",
            sc.name(),
            report::describe_cc(&r.spec.cc)
        ),
        &series,
        p.enabled()
            .then_some((p.regs().th_enter, p.regs().th_escape)),
        sc.network.buffer_flits,
    )?;
    output::write_atomic(&dir.join("c_timeseries.svg"), svg.as_bytes())?;
    output::write_atomic(&dir.join("series.csv"), r.series.to_csv()?.as_bytes())?;
    write_throughput_plot(dir, sc, &[r])?;
    let probes: Vec<(String, Vec<(f64, f64)>)> = (r.series.probes.iter().enumerate())
        .filter(|(_, n)| {
            r.spec.cc.probe_plotted(n) && !crate::net::LANE_PROBES.contains(&n.as_str())
        })
        .map(|(i, n)| (n.clone(), r.series.probe_points(i)))
        .collect();
    let svg = plot::series_svg(
        &format!(
            "{}: the scheme's state against time, {}",
            sc.name(),
            report::describe_cc(&r.spec.cc)
        ),
        "cycle",
        r.spec.cc.probes_axis(),
        &probes,
    )?;
    output::write_atomic(&dir.join("cc_probes.svg"), svg.as_bytes())?;
    report::write_coldhot_run(dir, sc, r)?;
    motif_out::write_run(dir, sc, r)?;
    let summary = report::run_summary(sc, r, iso, off);
    output::write_json(&dir.join("summary.json"), &summary)?;
    Ok(summary)
}

/// `throughput.svg`: delivered flits per node per cycle against time, one line per run.
fn write_throughput_plot(dir: &Path, sc: &Scenario, runs: &[&RunOutput]) -> anyhow::Result<()> {
    let series: Vec<(String, Vec<(f64, f64)>)> = runs
        .iter()
        .map(|r| (r.spec.label.clone(), r.series.accepted_points()))
        .collect();
    let period = runs.first().map_or(0, |r| r.series.period);
    let svg = plot::series_svg(
        &format!(
            "{}: delivered throughput, bins of {period} cycles",
            sc.name()
        ),
        "cycle",
        "accepted (flits/node/cycle)",
        &series,
    )?;
    output::write_atomic(&dir.join("throughput.svg"), svg.as_bytes())
}

/// `latency_distribution.svg` and `bandwidth_distribution.svg` over `runs`.
fn write_distribution_plots(dir: &Path, sc: &Scenario, runs: &[&RunOutput]) -> anyhow::Result<()> {
    let gp = sc.gpcnet().is_some();
    let who = if gp { "process" } else { "victim NIC" };
    for (file, what, pick) in [
        (
            "latency_distribution.svg",
            "mean latency (cycles)",
            (|r: &RunOutput| r.victims.latency_per_process.clone())
                as fn(&RunOutput) -> Option<Distribution>,
        ),
        (
            "bandwidth_distribution.svg",
            "bandwidth (bytes/cycle)",
            |r: &RunOutput| r.victims.bandwidth_per_process.clone(),
        ),
    ] {
        let series: Vec<(String, Vec<f64>)> = runs
            .iter()
            .filter_map(|r| pick(r).map(|d| (r.spec.label.clone(), d.sorted)))
            .collect();
        let svg = plot::distribution_of_svg(
            &format!("{}: victim {what} per {who}", sc.name()),
            what,
            if gp { "processes" } else { "victim NICs" },
            &series,
            run::HIST_BINS,
        )?;
        output::write_atomic(&dir.join(file), svg.as_bytes())?;
    }
    Ok(())
}

/// `pftsim run`: the `[[pft]]` or `[[cc]]` entry `pft_name` (default: the first, or `off`
/// when there is none), plus the isolated baseline when the scenario asks for it. `inputs`
/// are the command's input files (the scenario file first): no output may replace one.
/// `out` becomes a result directory of this run alone (`output::ResultDir`).
pub fn run_command(
    sc: &Scenario,
    inputs: &[&Path],
    pft_name: Option<&str>,
    out: &Path,
    jobs: usize,
    yes: bool,
    progress: &Progress,
) -> anyhow::Result<RunSummary> {
    let name = run_name(sc, pft_name);
    let mut specs = if name == ISOLATED {
        // the isolated baseline alone (`pftsim sweep` runs it as a job of its own)
        use crate::workload::WorkloadConfig as W;
        if let W::Uniform(_) | W::Motif(_) | W::Trace(_) = sc.workload {
            let kind = if motif_out::is_motif(sc) {
                "motif and trace workloads have no isolated baseline (gpcnet, hotspot and jobs have)"
            } else {
                "`uniform` workload has no isolated baseline (gpcnet, hotspot and jobs have)"
            };
            anyhow::bail!("--pft isolated: the {kind}");
        }
        vec![isolated_spec()]
    } else {
        vec![cc_spec(sc, &name)?]
    };
    if name != ISOLATED && wants_isolated(sc) {
        specs.push(isolated_spec());
    }
    check_engine(sc, &specs)?;
    let mut files: Vec<String> = run_files("").collect();
    files.extend(coldhot_files(sc, &COLDHOT_RUN_FILES, ""));
    files.extend(motif_out::files(sc, &motif_out::MOTIF_RUN_FILES, ""));
    if specs.len() > 1 {
        files.extend(run_files(ISOLATED));
        files.extend(coldhot_files(sc, &COLDHOT_RUN_FILES, ISOLATED));
    }
    let labels = specs.iter().map(|s| s.label.clone()).collect();
    let manifest = output::Manifest::new("run", sc, inputs.first().copied(), labels, files);
    // the output refused before the estimate's calibration run
    output::ResultDir::check(out, &manifest, &legacy_files(&specs), inputs)?;
    confirm_cost(sc, &specs, jobs, yes)?;
    let rd = output::ResultDir::open(out, manifest, &legacy_files(&specs), inputs)?;
    rd.run(|rd| {
        let results = run_all(sc, &specs, jobs, progress, rd);
        let main_label = specs[0].label.clone();
        let dir_of = |l: &str| {
            if l == main_label {
                out.to_path_buf()
            } else {
                out.join(l)
            }
        };
        let (runs, failed) = split_failed(&specs, results, dir_of);
        // (the run first, then the isolated baseline; either may have failed)
        let main = runs.iter().find(|r| r.spec.label == specs[0].label);
        let iso = runs
            .iter()
            .find(|r| specs.len() > 1 && r.spec.label == ISOLATED);
        if let Some(r) = main.filter(|r| !r.finished) {
            rd.update(|m| m.unfinished_runs.push(r.spec.label.clone()));
        }
        let written = (|| {
            if let Some(i) = iso {
                write_run(&out.join(ISOLATED), sc, i, None, None)?;
            }
            main.map(|r| write_run(out, sc, r, iso, None)).transpose()
        })();
        match with_failed(written, failed)? {
            Some(s) => Ok(s),
            None => anyhow::bail!("the run left no result and no error (a bug)"),
        }
    })
}

/// The runs of `compare`: the isolated baseline (if any), off, every configuration.
pub fn compare_specs(sc: &Scenario) -> anyhow::Result<Vec<RunSpec>> {
    let mut specs = Vec::new();
    if wants_isolated(sc) {
        specs.push(isolated_spec());
    }
    specs.push(cc_spec(sc, OFF)?);
    for (name, _) in sc.configs() {
        specs.push(cc_spec(sc, &name)?);
    }
    Ok(specs)
}

/// The cost estimate of running `specs` of `sc`, `jobs` at once, calibrated on the first
/// run with congestion control on and traffic, else the first with traffic: a scheme's
/// state costs time every cycle (PFT's model about doubles a GPCNeT cycle's time against
/// `off`, measured in docs/scenarios.md) and may make the run last longer, and most runs of
/// a `compare` are configurations, so the estimate errs high for `off` and the isolated
/// baseline rather than low for every configuration.
pub fn estimate_specs(
    sc: &Scenario,
    specs: &[RunSpec],
    jobs: usize,
) -> anyhow::Result<estimate::Estimate> {
    let first = specs
        .iter()
        .find(|s| s.congestors && s.label != OFF)
        .or_else(|| specs.iter().find(|s| s.congestors))
        .or(specs.first())
        .context("no runs")?;
    let failed = |label: &str| {
        format!(
            "the estimate's calibration (the first cycles of run `{label}`) failed: the scenario is valid, but its runs would stop the same way"
        )
    };
    let e =
        estimate::estimate(sc, first, specs.len(), jobs).with_context(|| failed(&first.label))?;
    if specs.len() < 2 || !estimate::stops_when_finished(sc) {
        return Ok(e);
    }
    // Runs that stop when they finish end where their own congestion control lets them
    // (gpcnet-dragonfly.toml: `off` at `cycles.max`, DCQCN's at 2 %), and cost what their
    // scheme and engine cost per cycle: one trial of each run, the calibrated one's too,
    // `jobs` at once (a trial's time is its thread's own).
    let done = each_job(specs.len(), jobs, |i| {
        estimate::finish_share(sc, &specs[i], e.trial_cycles)
            .with_context(|| failed(&specs[i].label))
    })?;
    let base = specs
        .iter()
        .position(|s| std::ptr::eq(s, first))
        .map_or(0.0, |i| done[i].1);
    let ends = specs
        .iter()
        .zip(done)
        .map(|(s, (share, per_cycle))| estimate::RunEnd {
            label: s.label.clone(),
            share,
            cost: if base > 0.0 { per_cycle / base } else { 1.0 },
        });
    Ok(e.with_ends(ends.collect(), estimate::node_cycles(sc, 1)))
}

/// With `[network] threads` above 1: one line per run of `specs` saying what of its phase 2
/// stays on one thread and why (`net::Network::single_thread_reason`); none otherwise.
pub fn threads_notes(sc: &Scenario, specs: &[RunSpec]) -> anyhow::Result<Vec<String>> {
    let t = sc.network.threads;
    if t <= 1 {
        return Ok(Vec::new());
    }
    let mut lines = vec![format!("threads: {t} for each run's phase 2")];
    for s in specs {
        let net = crate::cc::Network::with_cc(&sc.network, &s.cc, sc.engine, sc.seed)
            .with_context(|| format!("run `{}`: building the network", s.label))?;
        if let Some(why) = net.single_thread_reason() {
            lines.push(format!("  `{}`: {why}", s.label));
        }
    }
    Ok(lines)
}

/// Refuses, before any output, runs `specs` of `sc` whose engine cannot run here: the
/// Verilator engine without Verilator or without the exported Verilog of a build they run
/// (the default build, and the pipelined one for a `pipelined = true` entry; the message
/// names the make target that provides it).
pub fn check_engine(sc: &Scenario, specs: &[RunSpec]) -> anyhow::Result<()> {
    if sc.engine == crate::cc::pft::EngineKind::Verilator {
        use pft_hdl::verilog::Build;
        for build in [Build::Default, Build::Pipelined] {
            // Only PFT runs step a block (`none` and `ibcc` use the plain credit check).
            let runs =
                |s: &RunSpec| matches!(s.cc, CcConfig::Pft(_)) && s.cc.pft().build() == build;
            if specs.iter().any(runs) {
                crate::cc::pft::verilator::library(build)
                    .map_err(|e| anyhow::anyhow!("`engine` = verilator: {e}"))?;
            }
        }
    }
    Ok(())
}

/// Refuses, before any output, a command estimated above the limits of `estimate` unless
/// `yes`. Small commands are not calibrated.
fn confirm_cost(sc: &Scenario, specs: &[RunSpec], jobs: usize, yes: bool) -> anyhow::Result<()> {
    if yes || estimate::node_cycles(sc, specs.len()) < estimate::CALIBRATE_ABOVE {
        return Ok(());
    }
    let e = estimate_specs(sc, specs, jobs)?;
    if e.needs_confirmation() {
        anyhow::bail!(
            "this command is estimated at {}; that is above {} h or {:.0}% of the available memory, so it needs --yes (or fewer cycles, NICs or configurations)",
            e.describe(),
            estimate::LIMIT_SECONDS / 3600.0,
            100.0 * estimate::LIMIT_MEMORY_FRACTION
        );
    }
    Ok(())
}

/// `pftsim compare`: congestion control off, every `[[pft]]` and `[[cc]]` entry and the
/// isolated baseline. `inputs` and `out` as for `run_command`; `yes` runs a command
/// estimated above the limits (`estimate`).
pub fn compare_command(
    sc: &Scenario,
    inputs: &[&Path],
    out: &Path,
    jobs: usize,
    yes: bool,
    progress: &Progress,
) -> anyhow::Result<CompareReport> {
    let wall = Instant::now();
    let specs = compare_specs(sc)?;
    check_engine(sc, &specs)?;
    let mut files: Vec<String> = COMPARE_FILES.iter().map(|f| f.to_string()).collect();
    files.extend(coldhot_files(sc, &COLDHOT_COMPARE_FILES, ""));
    files.extend(motif_out::files(sc, &motif_out::MOTIF_COMPARE_FILES, ""));
    for sp in &specs {
        files.extend(run_files(&sp.label));
        files.extend(coldhot_files(sc, &COLDHOT_RUN_FILES, &sp.label));
        files.extend(motif_out::files(sc, &motif_out::MOTIF_RUN_FILES, &sp.label));
    }
    let labels = specs.iter().map(|s| s.label.clone()).collect();
    let manifest = output::Manifest::new("compare", sc, inputs.first().copied(), labels, files);
    // the output refused before the estimate's calibration run
    output::ResultDir::check(out, &manifest, &legacy_files(&specs), inputs)?;
    confirm_cost(sc, &specs, jobs, yes)?;
    let rd = output::ResultDir::open(out, manifest, &legacy_files(&specs), inputs)?;
    rd.run(|rd| compare_runs(sc, &specs, out, jobs, progress, wall, rd))
}

/// The runs and files of `compare_command`, in its result directory `rd`.
fn compare_runs(
    sc: &Scenario,
    specs: &[RunSpec],
    out: &Path,
    jobs: usize,
    progress: &Progress,
    wall: Instant,
    rd: &output::ResultDir,
) -> anyhow::Result<CompareReport> {
    let results = run_all(sc, specs, jobs, progress, rd);
    let (runs, failed) = split_failed(specs, results, |l| out.join(l));
    if runs.is_empty() {
        return Err(failed.expect("no run finished, so one failed"));
    }
    match (write_compare(sc, &runs, out, wall, rd), failed) {
        (Ok(report), Some(failed)) => Err(anyhow::Error::new(PartialCompare { report, failed })),
        (written, failed) => with_failed(written, failed),
    }
}

/// The files of `compare_command` for the finished runs `runs` (not empty).
fn write_compare(
    sc: &Scenario,
    runs: &[RunOutput],
    out: &Path,
    wall: Instant,
    rd: &output::ResultDir,
) -> anyhow::Result<CompareReport> {
    rd.update(|m| {
        m.unfinished_runs = runs
            .iter()
            .filter(|r| !r.finished)
            .map(|r| r.spec.label.clone())
            .collect()
    });
    let iso = runs.iter().find(|r| r.spec.label == ISOLATED);
    let off = runs.iter().find(|r| r.spec.label == OFF);
    for r in runs {
        let is_iso = r.spec.label == ISOLATED;
        let off_for = off.filter(|_| r.spec.cc.active() && !is_iso);
        write_run(
            &out.join(&r.spec.label),
            sc,
            r,
            iso.filter(|_| !is_iso),
            off_for,
        )?;
    }
    let rows: Vec<CompareRow> = runs
        .iter()
        .map(|r| report::compare_row(r, iso, off))
        .collect();
    output::write_csv(&out.join("compare.csv"), &rows)?;
    let refs: Vec<&RunOutput> = runs.iter().collect();
    write_distribution_plots(out, sc, &refs)?;
    write_throughput_plot(out, sc, &refs)?;
    report::write_coldhot_compare(out, sc, &refs)?;
    motif_out::write_compare(out, sc, &refs)?;
    let first = &runs[0].victims;
    let rep = CompareReport {
        scenario: sc.name().to_string(),
        description: sc.description.clone(),
        seed: sc.seed,
        engine: sc.engine,
        nodes: sc.nodes(),
        credit_limit: sc.network.buffer_flits,
        latency_units: first.latency_units.clone(),
        bandwidth_units: first.bandwidth_units.clone(),
        victims: first.source.clone(),
        rows,
        wall_seconds: wall.elapsed().as_secs_f64(),
        config: sc.clone(),
    };
    output::write_json(&out.join("compare.json"), &rep)?;
    Ok(rep)
}

/// `s` with control characters shown as escapes (`\u{1b}`), so that a value from a file
/// never drives the terminal, a CSV or an SVG.
pub fn sanitize(s: &str) -> String {
    // bidirectional overrides reorder what a terminal shows, and a zero-width space or
    // joiner (a byte-order mark inside a file) shows nothing: escaped like controls (not
    // ZWNJ and ZWJ, which scripts and emoji need)
    let bidi = |c: char| matches!(c, '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
    s.chars()
        .flat_map(|c| {
            if c.is_control() || bidi(c) {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}
