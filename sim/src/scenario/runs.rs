//! A command's runs on up to `jobs` threads (`run_all`, `run_each`), and what a command
//! of several runs does when some of them fail (`split_failed`, `PartialCompare`).

use super::output;
use super::progress::Progress;
use super::report::CompareReport;
use super::run::{self, RunOutput, RunSpec};
use super::{sanitize, Scenario};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs every one of `specs` on up to `jobs` threads, whether or not another fails (the
/// runs of a command are independent: a configuration that stops its run says nothing of
/// the others, which the user asked for too); each run's result, in the order of `specs`.
/// A run that fails is said at once on stderr and recorded in `rd`'s manifest
/// (`failed_runs`), so that it is known while the others go on, and after an interrupt.
pub fn run_all(
    sc: &Scenario,
    specs: &[RunSpec],
    jobs: usize,
    progress: &Progress,
    rd: &output::ResultDir,
) -> Vec<anyhow::Result<RunOutput>> {
    let others = specs.len() > 1;
    jobs_on(specs.len(), jobs, false, |i| {
        let r = run::run(sc, &specs[i], progress);
        if let Err(e) = &r {
            let line = failure_line(&specs[i].label, e);
            if others {
                let head = first_line(&line);
                progress.note(&format!("note: {head}; the other runs go on"));
            }
            rd.update(|m| m.failed_runs.push(line));
        }
        r
    })
    .into_iter()
    .map(|r| r.expect("every run is handed out"))
    .collect()
}

/// Run `label`'s error `e` as one entry of a manifest's `failed_runs`: the whole text, each
/// line sanitized, starting with the run's name (its own error names it already: `run
/// `off` failed in cycle ...`).
fn failure_line(label: &str, e: &anyhow::Error) -> String {
    let text = format!("{e:#}");
    let msg = text.lines().map(sanitize).collect::<Vec<_>>().join("\n");
    if msg.starts_with(&format!("run `{}`", sanitize(label))) {
        msg
    } else {
        format!("{}: {msg}", sanitize(label))
    }
}

/// The first line of `s`.
fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Runs each (scenario, spec) pair on up to `jobs` threads; results in their order. After
/// a run fails no other starts, and its error is returned.
pub fn run_each(
    runs: &[(&Scenario, &RunSpec)],
    jobs: usize,
    progress: &Progress,
) -> anyhow::Result<Vec<RunOutput>> {
    each_job(runs.len(), jobs, |i| {
        run::run(runs[i].0, runs[i].1, progress)
    })
}

/// `job(0)`, ..., `job(n - 1)` on up to `jobs` threads, each thread taking the next index
/// when free; results in index order. After a job fails no other starts, and the first
/// failure in index order is returned (every index before it was handed out, so ran).
pub(super) fn each_job<T: Send>(
    n: usize,
    jobs: usize,
    job: impl Fn(usize) -> anyhow::Result<T> + Sync,
) -> anyhow::Result<Vec<T>> {
    let mut out = Vec::with_capacity(n);
    for r in jobs_on(n, jobs, true, job) {
        match r {
            Some(r) => out.push(r?),
            None => anyhow::bail!("a run was skipped after another run failed"),
        }
    }
    Ok(out)
}

/// `job(0)`, ..., `job(n - 1)` on up to `jobs` threads, each thread taking the next index
/// when free; each job's result in index order, `None` for those not started because an
/// earlier one failed (only with `stop_on_error`).
fn jobs_on<T: Send>(
    n: usize,
    jobs: usize,
    stop_on_error: bool,
    job: impl Fn(usize) -> anyhow::Result<T> + Sync,
) -> Vec<Option<anyhow::Result<T>>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<anyhow::Result<T>>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = job(i);
                let failed = r.is_err();
                results.lock().expect("no panics while held")[i] = Some(r);
                if failed && stop_on_error {
                    // stop handing out work; the error is reported by the caller
                    next.store(n, Ordering::Relaxed);
                }
            });
        }
    });
    results.into_inner().expect("no panics while held")
}

/// The runs of `results` (of `specs`) that finished, and, when some failed, the error to
/// return once the finished ones are written: each failed run with the first line of its
/// error (the whole text is in the manifest, `run_all`), and where the finished ones go
/// (`dir_of`: a run's directory). A command of one run returns its run's error as it is.
pub(super) fn split_failed(
    specs: &[RunSpec],
    results: Vec<anyhow::Result<RunOutput>>,
    dir_of: impl Fn(&str) -> std::path::PathBuf,
) -> (Vec<RunOutput>, Option<anyhow::Error>) {
    let mut runs = Vec::new();
    let mut failed = Vec::new();
    for (sp, r) in specs.iter().zip(results) {
        match r {
            Ok(r) => runs.push(r),
            Err(e) => failed.push((sp.label.clone(), e)),
        }
    }
    if failed.is_empty() {
        return (runs, None);
    }
    if specs.len() == 1 {
        let (_, e) = failed.pop().expect("one run, failed");
        return (runs, Some(e));
    }
    let lines: Vec<String> = failed
        .iter()
        .map(|(l, e)| first_line(&failure_line(l, e)).to_string())
        .collect();
    let kept = if runs.is_empty() {
        String::new()
    } else {
        format!(
            "\nthe {} finished run(s) are written: {}",
            runs.len(),
            runs.iter()
                .map(|r| sanitize(&dir_of(&r.spec.label).display().to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    // the first failure's whole text when it has more than a line (a deadlock's dump)
    let full = failure_line(&failed[0].0, &failed[0].1);
    let full = if full.contains('\n') {
        format!("\nthe first failure in full:\n{full}")
    } else {
        String::new()
    };
    let e = anyhow::anyhow!(
        "{} of {} runs failed (each error whole in the manifest's failed_runs):\n  {}{kept}{full}",
        failed.len(),
        specs.len(),
        lines.join("\n  ")
    );
    (runs, Some(e))
}

/// A `compare` some of whose runs failed: the report of the runs that finished (written,
/// and shown by the CLI before the error) and the failure.
#[derive(Debug)]
pub struct PartialCompare {
    pub report: CompareReport,
    pub failed: anyhow::Error,
}

impl std::fmt::Display for PartialCompare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.failed)
    }
}

impl std::error::Error for PartialCompare {}

/// `written`, the result of writing the finished runs, with the runs' failure `failed`:
/// the failure when the writing succeeded, both when it did not.
pub(super) fn with_failed<T>(
    written: anyhow::Result<T>,
    failed: Option<anyhow::Error>,
) -> anyhow::Result<T> {
    match (written, failed) {
        (Ok(v), None) => Ok(v),
        (Ok(_), Some(f)) => Err(f),
        (Err(w), None) => Err(w),
        (Err(w), Some(f)) => Err(anyhow::anyhow!(
            "{f:#}\nand writing the finished runs' results failed: {w:#}"
        )),
    }
}
