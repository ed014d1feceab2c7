//! What a motif or trace workload's run adds to the outputs: `motif_iterations.csv` (one
//! row per iteration, `motif::IterationRow`) and `motif_iterations.svg` (the job's
//! iteration time against the iteration) in each run's directory, and at the top of a
//! `compare` the plot of every run. Nothing for the other workloads.

use super::config::Scenario;
use super::run::RunOutput;
use super::{output, plot};
use std::path::Path;

/// What a motif or trace run adds to `RUN_FILES`.
pub const MOTIF_RUN_FILES: [&str; 2] = ["motif_iterations.csv", "motif_iterations.svg"];
/// What `compare` of a motif or trace workload adds to `COMPARE_FILES`.
pub const MOTIF_COMPARE_FILES: [&str; 1] = ["motif_iterations.svg"];

/// True for the motif and trace workloads.
pub fn is_motif(sc: &Scenario) -> bool {
    use crate::workload::WorkloadConfig as W;
    matches!(sc.workload, W::Motif(_) | W::Trace(_) | W::Jobs(_))
}

/// The files of `names` below `sub` (`""` = the top) for a motif or trace scenario.
pub fn files<'a>(
    sc: &Scenario,
    names: &'a [&'a str],
    sub: &'a str,
) -> impl Iterator<Item = String> + 'a {
    let on = is_motif(sc);
    names.iter().filter(move |_| on).map(move |f| {
        if sub.is_empty() {
            f.to_string()
        } else {
            format!("{sub}/{f}")
        }
    })
}

fn points(r: &RunOutput) -> Option<(String, Vec<(f64, f64)>)> {
    let m = r.motif.as_ref()?;
    let pts = m
        .rows
        .iter()
        .filter_map(|row| row.cycles.map(|c| (row.iteration as f64, c as f64)))
        .collect();
    Some((r.spec.label.clone(), pts))
}

fn write_plot(dir: &Path, sc: &Scenario, runs: &[&RunOutput]) -> anyhow::Result<()> {
    let series: Vec<(String, Vec<(f64, f64)>)> = runs.iter().filter_map(|r| points(r)).collect();
    let what = runs
        .iter()
        .find_map(|r| r.motif.as_ref().map(|m| m.motif.clone()))
        .unwrap_or_default();
    let svg = plot::series_svg(
        &format!(
            "{}: {what} iteration time (the job's: last rank)",
            sc.name()
        ),
        "iteration",
        "cycles",
        &series,
    )?;
    output::write_atomic(&dir.join("motif_iterations.svg"), svg.as_bytes())
}

/// A run's `MOTIF_RUN_FILES`; warns on stderr when the run ended before every iteration.
pub fn write_run(dir: &Path, sc: &Scenario, r: &RunOutput) -> anyhow::Result<()> {
    let Some(m) = &r.motif else {
        return Ok(());
    };
    if !m.finished {
        let done = m.rows.iter().filter(|x| x.cycles.is_some()).count();
        // (a trace file can make its ranks wait on each other for good; a built-in motif cannot)
        let unless = if m.motif == "trace" {
            " (unless the iterations stopped advancing: a trace whose ranks wait on each other never ends)"
        } else {
            ""
        };
        crate::eprintln_safe!(
            "warning: run `{}`: the {} workload reached cycles.max = {} with {done} of {} iterations done by every rank; raise cycles.max{unless}",
            super::sanitize(&r.spec.label),
            m.motif,
            sc.cycles.max,
            m.iterations
        );
    }
    output::write_csv(&dir.join("motif_iterations.csv"), &m.rows)?;
    write_plot(dir, sc, &[r])
}

/// `compare`'s `MOTIF_COMPARE_FILES`.
pub fn write_compare(dir: &Path, sc: &Scenario, runs: &[&RunOutput]) -> anyhow::Result<()> {
    if !is_motif(sc) {
        return Ok(());
    }
    write_plot(dir, sc, runs)
}

/// `pftsim trace-write`: the text trace of the scenario's motif (every rank's operations of
/// every iteration, with the scenario's seed), headed by comments naming the scenario.
pub fn trace_text(sc: &Scenario) -> anyhow::Result<String> {
    use crate::workload::WorkloadConfig as W;
    let W::Motif(m) = &sc.workload else {
        anyhow::bail!(
            "trace-write: the scenario's workload is not a motif (`[workload] kind = \"motif\"`); only motifs write traces"
        );
    };
    let t = crate::workload::motif::Trace::of_motif(m, sc.nodes(), sc.seed).map_err(|e| {
        let mut w = crate::error::ConfigErrors::default();
        w.extend_prefixed("workload", e);
        anyhow::anyhow!("trace-write: {}", w.to_string().trim_start())
    })?;
    let header = format!(
        "pftsim trace (docs/workloads.md, \"Traces\") of motif {} from scenario {} (seed {})\n\
         {} ranks, {} iterations; one operation per line: RANK send PEER BYTES | RANK recv PEER BYTES | RANK wait | RANK compute CYCLES | RANK iter",
        m.motif.name(),
        sc.name(),
        sc.seed,
        t.ranks,
        t.iterations
    );
    Ok(t.to_text(&header))
}
