//! `make bench`: cycles per second of the three views of the block on the same recorded
//! inputs: the reference model, the rust-hdl RTL stepped by hand, and the exported Verilog
//! under Verilator. Usage: pft-bench [--model-cycles N] [--rtl-cycles N] [--verilator-cycles N]

use anyhow::{Context, Result};
use clap::Parser;
use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::stepper::{Engine, RtlStepper};
use pft_tb::stimulus::{Mode, RandomStimulus};
use pft_tb::{vectors, verilator};
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

// `pub`: tests/fuzz_inputs.rs includes this file as a module to fuzz the parser.
#[derive(Parser)]
#[command(
    name = "pft-bench",
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
    match bench(pft_sim::cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            pft_hdl::eprintln_safe!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn bench(a: Args) -> Result<()> {
    anyhow::ensure!(
        !a.dir.exists() || a.dir.is_dir(),
        "--dir {}: exists and is not a directory",
        a.dir.display()
    );
    std::fs::create_dir_all(&a.dir)
        .with_context(|| format!("cannot create {}", a.dir.display()))?;

    // One input trace (AT-RI, the paper's mode, with random rewrites), recorded from the model.
    let mut stim = RandomStimulus::new(Mode::AtRi, 0xBE7C);
    let mut m = PftModel::new();
    let mut prev = Outputs::default();
    let mut inputs = Vec::with_capacity(a.trace_cycles as usize);
    let vec_path = a.dir.join("trace.vec");
    let mut w = std::io::BufWriter::new(
        std::fs::File::create(&vec_path)
            .with_context(|| format!("cannot create {}", vec_path.display()))?,
    );
    for _ in 0..a.trace_cycles {
        let i = stim.next(&prev);
        prev = m.step(&i);
        w.write_all(vectors::format_line(&i, &prev).as_bytes())?;
        inputs.push(i);
    }
    w.flush()?;

    let model = rate(&mut PftModel::new(), &inputs, a.model_cycles);
    let rtl = rate(&mut RtlStepper::new(), &inputs, a.rtl_cycles);

    let v = a.dir.join("pft_injector.v");
    std::fs::write(&v, pft_hdl::verilog::pft_injector_verilog())?;
    let exe = verilator::build(&v, "bench.cpp", &a.dir.join("obj_bench"))?;
    let out = std::process::Command::new(&exe)
        .arg(&vec_path)
        .arg(a.verilator_cycles.to_string())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.split_whitespace().collect();
    anyhow::ensure!(
        out.status.success() && f.len() >= 4 && f[2] == "seconds",
        "verilator bench failed: {text}"
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
