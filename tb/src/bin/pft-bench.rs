//! `make bench`: cycles per second of the three views of the block on the same recorded
//! inputs: the reference model, the rust-hdl RTL stepped by hand, and the exported Verilog
//! under Verilator. Usage: pft-bench [--model-cycles N] [--rtl-cycles N] [--verilator-cycles N]
//!
//! It writes in `--dir DIR` (default `out/bench`): `DIR/trace.vec` (the input trace),
//! `DIR/pft_injector.v` (the exported Verilog) and Verilator's build in `DIR/obj_bench/`.
//! Every one is checked before any work (`pft_hdl::outfile`): `DIR` must be a directory that
//! can be written, outside `/dev`, `/proc` and `/sys`; each file must be a regular file or
//! missing, and not a symbolic link (these are pft-bench's own files: a link in `DIR` leads
//! to someone else's); `obj_bench` must be a directory, not a link, and hold no link, FIFO or
//! device Verilator would write through. A refusal is `error: cannot write PATH: REASON`,
//! exit status 1, with nothing written. The two files are written under temporary names and
//! renamed into place; interrupted, the temporary files are removed.

use anyhow::{Context, Result};
use clap::Parser;
use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::stepper::{Engine, RtlStepper};
use pft_tb::stimulus::{Mode, RandomStimulus};
use pft_tb::{vectors, verilator};
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

// `pub`: tests/fuzz_inputs.rs includes this file as a module to fuzz the parser.
#[derive(Parser)]
#[command(
    name = "pft-bench",
    version,
    allow_negative_numbers = true,
    about = "Speed of the reference model, the rust-hdl RTL and Verilator on one input trace"
)]
pub struct Args {
    /// Cycles for the reference model, 1..=10^12.
    #[arg(long, value_name = "N", default_value_t = 50_000_000, value_parser = parse_cycles)]
    model_cycles: u64,
    /// Cycles for the hand-stepped rust-hdl RTL, 1..=10^12.
    #[arg(long, value_name = "N", default_value_t = 300_000, value_parser = parse_cycles)]
    rtl_cycles: u64,
    /// Cycles for Verilator, 1..=10^12.
    #[arg(long, value_name = "N", default_value_t = 50_000_000, value_parser = parse_cycles)]
    verilator_cycles: u64,
    /// Length of the recorded input trace (looped), 1..=10^8 (it is held in memory).
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = parse_trace_cycles)]
    trace_cycles: u64,
    /// Working directory (Verilog, Verilator build, trace).
    #[arg(long, default_value = "out/bench")]
    dir: PathBuf,
}

fn parse_int(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if (lo as i128..=hi as i128).contains(&n) => Ok(n as u64),
        _ => Err(format!("must be an integer in {lo}..={hi}")),
    }
}

fn parse_cycles(s: &str) -> Result<u64, String> {
    parse_int(s, 1, 1_000_000_000_000)
}

fn parse_trace_cycles(s: &str) -> Result<u64, String> {
    parse_int(s, 1, 100_000_000)
}

fn rate<E: Engine>(e: &mut E, inputs: &[Inputs], cycles: u64) -> f64 {
    let t0 = Instant::now();
    let mut sent = 0u64;
    for t in 0..cycles {
        let o: Outputs = e.step(&inputs[(t % inputs.len() as u64) as usize]);
        sent += o.send as u64;
    }
    black_box(sent);
    cycles as f64 / t0.elapsed().as_secs_f64()
}

fn main() -> std::process::ExitCode {
    let args: Args = pft_sim::cli::parse();
    // interrupted (SIGINT, SIGTERM, SIGHUP): the temporary files of the outputs go, the
    // earlier files at their paths stay; exit status 130, as pft-trace's
    let _ = ctrlc::set_handler(|| {
        pft_hdl::outfile::remove_temporaries();
        pft_hdl::eprintln_safe!("error: interrupted: the unfinished outputs were removed");
        std::process::exit(130);
    });
    match bench(args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            pft_hdl::eprintln_safe!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// What pft-bench writes in `--dir`.
struct BenchFiles {
    /// The recorded input trace, `DIR/trace.vec`.
    vec: PathBuf,
    /// The exported Verilog, `DIR/pft_injector.v`.
    verilog: PathBuf,
    /// Verilator's build directory, `DIR/obj_bench`.
    obj: PathBuf,
}

/// The harness Verilator builds with the Verilog (an input: never written).
const HARNESS: &str = "bench.cpp";

/// `error: cannot write PATH: WHY`, as `pft_hdl::outfile`'s refusals read.
fn refuse(path: &Path, why: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot write {}: {why}", path.display())
}

/// Checks `DIR` and everything pft-bench will write in it, before any work: nothing is
/// opened (a FIFO is never waited on) and nothing is created.
fn check_outputs(dir: &Path) -> Result<BenchFiles> {
    anyhow::ensure!(
        !dir.exists() || dir.is_dir(),
        "--dir {}: exists and is not a directory",
        dir.display()
    );
    // missing and creatable, or a directory that can be written; not in /dev, /proc, /sys
    pft_hdl::outfile::check_dir(dir)?;
    let o = BenchFiles {
        vec: dir.join("trace.vec"),
        verilog: dir.join("pft_injector.v"),
        obj: dir.join("obj_bench"),
    };
    let harness = verilator::harness_dir().join(HARNESS);
    let files = [&o.vec, &o.verilog];
    for (i, f) in files.iter().enumerate() {
        // a directory, device, FIFO or socket (also behind a link), a link to nothing, an
        // input: refused
        pft_hdl::outfile::check(f, &[&harness])?;
        // a link to a regular file would be written through: these names are pft-bench's
        // own, so a link there leads to a file that is not this run's
        if let Ok(t) = std::fs::read_link(f) {
            return Err(refuse(
                f,
                format!(
                    "it is a symbolic link to {}: pft-bench writes its own files in --dir, never through a link (remove the link or name another --dir)",
                    t.display()
                ),
            ));
        }
        if let Some(other) = files[..i]
            .iter()
            .find(|g| pft_hdl::outfile::same_file(f, g))
        {
            return Err(refuse(
                f,
                format!("it is the same file as {} (a hard link)", other.display()),
            ));
        }
    }
    // Verilator's build directory: a directory of DIR's own, not a link to another, and
    // nothing in it that Verilator or the compiler would write through
    if let Ok(m) = std::fs::symlink_metadata(&o.obj) {
        if m.file_type().is_symlink() {
            let t = std::fs::read_link(&o.obj).unwrap_or_default();
            return Err(refuse(
                &o.obj,
                format!(
                    "it is a symbolic link to {}: the Verilator build directory is pft-bench's own, never a link (remove the link or name another --dir)",
                    t.display()
                ),
            ));
        }
        if !m.is_dir() {
            return Err(refuse(
                &o.obj,
                format!(
                    "it exists and is {}, not a directory (Verilator builds in it)",
                    pft_hdl::outfile::kind_of(&m)
                ),
            ));
        }
        pft_hdl::outfile::check_dir(&o.obj)?;
        let entries = std::fs::read_dir(&o.obj)
            .map_err(|e| refuse(&o.obj, format!("cannot list it ({e})")))?;
        for e in entries {
            let e = e.map_err(|e| refuse(&o.obj, format!("cannot list it ({e})")))?;
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).map_err(|err| refuse(&p, err))?;
            if !(m.is_file() || m.is_dir()) {
                let what = match std::fs::read_link(&p) {
                    Ok(t) => format!("a symbolic link to {}", t.display()),
                    Err(_) => pft_hdl::outfile::kind_of(&m).to_string(),
                };
                return Err(refuse(
                    &o.obj,
                    format!(
                        "it holds {}, which is {what}: Verilator's build would write through it (remove it or name another --dir)",
                        p.display()
                    ),
                ));
            }
        }
    }
    Ok(o)
}

fn bench(a: Args) -> Result<()> {
    // Every output is checked before any work (pft_hdl::outfile).
    let o = check_outputs(&a.dir)?;
    std::fs::create_dir_all(&a.dir)
        .with_context(|| format!("cannot create {}", a.dir.display()))?;

    // One input trace (AT-RI, the paper's mode, with random rewrites), recorded from the model.
    let mut stim = RandomStimulus::new(Mode::AtRi, 0xBE7C);
    let mut m = PftModel::new();
    let mut prev = Outputs::default();
    let mut inputs = Vec::with_capacity(a.trace_cycles as usize);
    let vec_path = &o.vec;
    let cannot = |p: &Path| format!("cannot write {}", p.display());
    // under a temporary name, renamed into place when complete
    let mut w = pft_hdl::outfile::AtomicFile::create(vec_path).with_context(|| cannot(vec_path))?;
    for _ in 0..a.trace_cycles {
        let i = stim.next(&prev);
        prev = m.step(&i);
        w.write_all(vectors::format_line(&i, &prev).as_bytes())
            .with_context(|| cannot(vec_path))?;
        inputs.push(i);
    }
    w.commit().with_context(|| cannot(vec_path))?;

    let model = rate(&mut PftModel::new(), &inputs, a.model_cycles);
    let rtl = rate(&mut RtlStepper::new(), &inputs, a.rtl_cycles);

    let v = &o.verilog;
    pft_hdl::outfile::write_atomic(v, pft_hdl::verilog::pft_injector_verilog().as_bytes())
        .with_context(|| cannot(v))?;
    let exe = verilator::build(v, HARNESS, &o.obj)?;
    let out = std::process::Command::new(&exe)
        .arg(vec_path)
        .arg(a.verilator_cycles.to_string())
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.split_whitespace().collect();
    anyhow::ensure!(
        out.status.success() && f.len() >= 4 && f[2] == "seconds",
        "verilator bench failed ({} {} {}, {}): {}{}",
        exe.display(),
        vec_path.display(),
        a.verilator_cycles,
        out.status,
        if text.trim().is_empty() {
            "no output"
        } else {
            text.trim()
        },
        match String::from_utf8_lossy(&out.stderr).trim() {
            "" => String::new(),
            e => format!("\n{e}"),
        }
    );
    let verilator_rate = f[1].parse::<f64>()? / f[3].parse::<f64>()?;

    use std::fmt::Write as _;
    let mut report = String::new();
    writeln!(
        report,
        "PFT block, AT-RI random trace of {} cycles (looped), release build",
        a.trace_cycles
    )?;
    writeln!(
        report,
        "{:<34} {:>12} {:>16} {:>14}",
        "engine", "cycles", "cycles/s", "vs Verilator"
    )?;
    for (name, cycles, r) in [
        ("reference model (plain Rust)", a.model_cycles, model),
        ("rust-hdl RTL (hand-stepped)", a.rtl_cycles, rtl),
        (
            "Verilator -O3 (exported Verilog)",
            a.verilator_cycles,
            verilator_rate,
        ),
    ] {
        writeln!(
            report,
            "{name:<34} {cycles:>12} {r:>16.0} {:>13.3}x",
            r / verilator_rate
        )?;
    }
    writeln!(report, "model / rust-hdl = {:.0}x", model / rtl)?;
    let mut out = std::io::stdout().lock();
    pft_hdl::outfile::stdout_is_open()
        .and_then(|_| out.write_all(report.as_bytes()))
        .and_then(|_| out.flush())
        .context("cannot write to stdout")
}
