//! Progress bars on stderr for runs that last longer than a second. Bars start hidden and
//! are drawn only once a second has passed; indicatif hides them anyway when stderr is not a
//! terminal. `Progress::quiet` never draws.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Delay before any bar is drawn.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Shared by all the runs of one command (one bar per run).
pub struct Progress {
    multi: MultiProgress,
    start: Instant,
    shown: AtomicBool,
    enabled: bool,
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

    /// A bar for one run of at most `max_cycles` cycles.
    pub fn bar(&self, label: &str, max_cycles: u64) -> ProgressBar {
        let pb = self.multi.add(ProgressBar::new(max_cycles));
        pb.set_style(
            ProgressStyle::with_template(
                "{prefix:>10} [{elapsed_precise}] {bar:30} {pos:>10}/{len} cycles, ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
        pb.set_prefix(label.to_string());
        pb
    }

    /// Moves `pb` to `cycle`; turns drawing on once a second has passed.
    pub fn update(&self, pb: &ProgressBar, cycle: u64) {
        pb.set_position(cycle);
        if self.enabled
            && !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.multi.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}
