//! Progress bars on stderr for runs that last longer than a second. Bars start hidden and
//! are drawn only once a second has passed; indicatif hides them anyway when stderr is not a
//! terminal. `Progress::quiet` never draws.
//!
//! A run that ends by itself (GPCNeT stopping when its canary tests finish) is measured in
//! the share of its expected work done (`AnyWorkload::work_done`), so the percentage and the
//! ETA refer to the expected end, not to `cycles.max`, which is only a safety limit there.
//! Other runs last exactly `cycles.max` cycles and are measured in cycles.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Delay before any bar is drawn.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// Length of a bar measured in work: parts per million of the expected run.
const WORK_SCALE: u64 = 1_000_000;

/// Shared by all the runs of one command (one bar per run).
pub struct Progress {
    multi: MultiProgress,
    start: Instant,
    shown: AtomicBool,
    enabled: bool,
}

/// The bar of one run (`Progress::bar`).
pub struct RunBar {
    pb: ProgressBar,
    max_cycles: u64,
    by_work: bool,
}

impl RunBar {
    /// Removes the bar (the run is over).
    pub fn finish(&self) {
        self.pb.finish_and_clear();
    }

    /// Where the bar stands, out of its length: (position, length).
    pub fn position(&self) -> (u64, u64) {
        (self.pb.position(), self.pb.length().unwrap_or(0))
    }
}

impl Progress {
    /// Bars on stderr, from one second after now.
    pub fn new() -> Self {
        Progress {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            start: Instant::now(),
            shown: AtomicBool::new(false),
            enabled: true,
        }
    }

    /// No bars at all.
    pub fn quiet() -> Self {
        Progress {
            enabled: false,
            ..Progress::new()
        }
    }

    /// A bar for one run of at most `max_cycles` cycles: measured in the share of the
    /// expected work when `by_work` (the run ends by itself and `update` gets the share),
    /// else in cycles against `max_cycles`.
    pub fn bar(&self, label: &str, max_cycles: u64, by_work: bool) -> RunBar {
        let (len, template) = if by_work {
            (
                WORK_SCALE,
                "{prefix:>10} [{elapsed_precise}] {bar:30} {percent:>3}% of the expected run, ETA {eta} ({msg})",
            )
        } else {
            (
                max_cycles,
                "{prefix:>10} [{elapsed_precise}] {bar:30} {pos:>10}/{len} cycles, ETA {eta} {msg}",
            )
        };
        let pb = self.multi.add(ProgressBar::new(len));
        pb.set_style(ProgressStyle::with_template(template).expect("valid template"));
        pb.set_prefix(label.to_string());
        RunBar {
            pb,
            max_cycles,
            by_work,
        }
    }

    /// Prints `line` on stderr above the bars (also when quiet: it is not progress).
    pub fn note(&self, line: &str) {
        self.multi.suspend(|| crate::eprintln_safe!("{line}"));
    }

    /// Moves `bar` to `cycle` (and, for a bar measured in work, to the share `work_done`),
    /// with `note` (e.g. the GPCNeT test running) after it; turns drawing on once a second
    /// has passed.
    pub fn update(&self, bar: &RunBar, cycle: u64, work_done: Option<f64>, note: Option<&str>) {
        if bar.by_work {
            bar.pb
                .set_position(work_position(cycle, bar.max_cycles, work_done));
            let note = note.map_or(String::new(), |n| format!(", {n}"));
            bar.pb.set_message(format!("cycle {cycle}{note}"));
        } else {
            bar.pb.set_position(cycle);
            if let Some(n) = note {
                bar.pb.set_message(n.to_string());
            }
        }
        if self.enabled
            && !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.multi.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

/// Position of a bar measured in work, out of `WORK_SCALE`: the share of the work done, or
/// the share of the cycle limit if larger (the run stops there, work done or not).
fn work_position(cycle: u64, max_cycles: u64, work_done: Option<f64>) -> u64 {
    let by_cycles = cycle as f64 / max_cycles.max(1) as f64;
    let share = work_done.unwrap_or(0.0).max(by_cycles).clamp(0.0, 1.0);
    (share * WORK_SCALE as f64).round() as u64
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_bar_follows_the_work_done_and_the_cycle_limit_bounds_it() {
        let p = Progress::quiet();
        let bar = p.bar("x", 20_000_000, true);
        assert_eq!(bar.position(), (0, WORK_SCALE));
        // 1 % of the limit but half the work: the bar shows half
        p.update(&bar, 200_000, Some(0.5), Some("Latency"));
        assert_eq!(bar.position(), (WORK_SCALE / 2, WORK_SCALE));
        // the work stalls but the limit nears: the cycles lead
        p.update(&bar, 19_000_000, Some(0.5), None);
        assert_eq!(bar.position().0, WORK_SCALE * 95 / 100);
        p.update(&bar, 19_500_000, Some(1.0), None);
        assert_eq!(bar.position().0, WORK_SCALE);
    }

    #[test]
    fn a_cycle_bar_counts_cycles_against_the_limit() {
        let p = Progress::quiet();
        let bar = p.bar("x", 1000, false);
        p.update(&bar, 250, Some(0.9), None);
        assert_eq!(bar.position(), (250, 1000));
    }
}
