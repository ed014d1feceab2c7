//! The last resort when memory runs out. `pftsim` refuses, before it starts, a command its
//! estimate puts above the memory available (docs/scenarios.md); a run given `--yes`, or one
//! the estimate misjudged, can still exhaust an address-space limit (`ulimit -v`), and the
//! system allocator then returns null. Rust's default answer is an abort with a one-line
//! message, which leaves every result directory's manifest at "running". `LastWords` wraps
//! the system allocator: when an allocation fails it frees a reserve kept for this moment,
//! marks every open result directory "failed" with the reason, says so on stderr and ends
//! the process with status 1. (A machine without such a limit usually overcommits memory
//! and ends the process by its OOM killer instead, which no process can answer: there the
//! manifest stays "running" with its lock free, as after any SIGKILL.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// Address space kept back until an allocation fails, then freed for the last words: the
/// manifests' JSON and the message need far less.
const RESERVE_BYTES: usize = 8 << 20;

static RESERVE: AtomicPtr<u8> = AtomicPtr::new(null_mut());
static FAILING: AtomicBool = AtomicBool::new(false);
/// Set by `pftsim check`: memory that runs out is then its own measuring run's.
static CHECKING: AtomicBool = AtomicBool::new(false);
/// Set by `net-bench`: no result directory, no estimate to point to.
static NET_BENCH: AtomicBool = AtomicBool::new(false);

fn reserve_layout() -> Layout {
    Layout::from_size_align(RESERVE_BYTES, 4096).expect("a valid layout")
}

/// The system allocator with last words on failure (`#[global_allocator]` of `pftsim`).
pub struct LastWords;

impl LastWords {
    /// Sets the reserve aside; call first thing in `main`.
    pub fn reserve() {
        // SAFETY: a non-zero layout; freed once, in `out_of_memory`.
        let p = unsafe { System.alloc(reserve_layout()) };
        if !p.is_null() {
            RESERVE.store(p, Ordering::SeqCst);
        }
    }

    /// The process is `pftsim check`: an allocation that fails is then in the scenario's
    /// build or the estimate's calibration run, and the last words say so (not "`pftsim
    /// check` estimates a command's memory", which is this command).
    pub fn checking() {
        CHECKING.store(true, Ordering::SeqCst);
    }

    /// `reserve` for `net-bench`, whose last words name what grows in it.
    pub fn net_bench() {
        Self::reserve();
        NET_BENCH.store(true, Ordering::SeqCst);
    }
}

/// An allocation of `size` bytes failed. The first time: free the reserve, mark the open
/// result directories "failed", exit 1. Again (the last words themselves ran out): return,
/// and the caller's null ends in Rust's own abort.
fn out_of_memory(size: usize) {
    if FAILING.swap(true, Ordering::SeqCst) {
        return;
    }
    let r = RESERVE.swap(null_mut(), Ordering::SeqCst);
    if !r.is_null() {
        // SAFETY: allocated by `reserve` with this layout, freed only here.
        unsafe { System.dealloc(r, reserve_layout()) };
    }
    if NET_BENCH.load(Ordering::SeqCst) {
        crate::eprintln_safe!(
            "error: out of memory: an allocation of {size} bytes failed (an address-space limit such as `ulimit -v`, or the machine's memory); above a network's saturation the NICs' send queues grow without bound: fewer --cycles, a lower --load, or `pftsim check` on a scenario of the run for an estimate"
        );
        std::process::exit(1);
    }
    let checking = CHECKING.load(Ordering::SeqCst);
    let reason = if checking {
        format!(
            "out of memory: an allocation of {size} bytes failed while `pftsim check` built and measured the scenario (an address-space limit such as `ulimit -v`, or the machine's memory): a run of it needs more memory than this process may use; a smaller network or workload, or `--no-estimate` for the checks alone"
        )
    } else {
        format!(
            "out of memory: an allocation of {size} bytes failed (an address-space limit such as `ulimit -v`, or the machine's memory); `pftsim check` estimates a command's memory"
        )
    };
    super::registry::fail_all(&reason);
    if checking {
        // (`check` writes no result directory)
        crate::eprintln_safe!("error: {reason}");
    } else {
        crate::eprintln_safe!(
            "error: {reason}; the manifest of each result directory in progress says \"failed\""
        );
    }
    std::process::exit(1);
}

// SAFETY: every call goes to `System` unchanged; `out_of_memory` only runs when it returned
// null, and either never returns or returns to let that null through.
unsafe impl GlobalAlloc for LastWords {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}
