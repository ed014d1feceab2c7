//! Build and run the exported Verilog under Verilator and iverilog.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The harness sources shipped in `tb/verilator/`.
pub fn harness_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("verilator")
}

fn run(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().with_context(|| {
        format!("cannot run {cmd:?} (is it installed? apt-get install verilator iverilog)")
    })?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        bail!(
            "{cmd:?} failed ({}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(stdout)
}

/// Verilate `verilog` with `harness` (a file in `tb/verilator/`) into `dir`; return the binary.
pub fn build(verilog: &Path, harness: &str, dir: &Path) -> Result<PathBuf> {
    build_top(verilog, "pft_injector", harness, dir)
}

/// `build` for a design whose top module is `top` (same ports as `pft_injector`): the
/// harness sees it as `Vpft_injector` (Verilator's `--prefix`).
pub fn build_top(verilog: &Path, top: &str, harness: &str, dir: &Path) -> Result<PathBuf> {
    build_prefixed(verilog, top, "Vpft_injector", harness, dir)
}

/// Whether `verilator` runs (`verilator --version`): tests of other designs than PFT's skip
/// with a message without it.
pub fn available() -> bool {
    Command::new("verilator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Put Verilator's C++ compiles behind ccache when it is installed. Every build compiles the
/// same Verilator runtime (`verilated.cpp`, `verilated_threads.cpp`): about 8 of the 12
/// CPU-seconds of building a small design, measured with Verilator 5.006. With the cache only
/// the first build in a run pays that. The cache is a folder of the build tree,
/// `$CARGO_TARGET_DIR/ccache` (default `target/ccache`); the user's own ccache is not used.
fn with_objcache(cmd: &mut Command) {
    let found = Command::new("ccache")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        return;
    }
    // (a relative CARGO_TARGET_DIR is taken from the workspace root, as `make` runs cargo)
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = root.join(std::env::var_os("CARGO_TARGET_DIR").unwrap_or("target".into()));
    cmd.env("OBJCACHE", "ccache")
        .env("CCACHE_DIR", target.join("ccache"));
}

/// `build_top` for any design: the harness includes `<prefix>.h` and names the model class
/// `prefix` (Verilator's `--prefix`).
pub fn build_prefixed(
    verilog: &Path,
    top: &str,
    prefix: &str,
    harness: &str,
    dir: &Path,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let exe = Path::new(harness)
        .file_stem()
        .context("harness file name")?
        .to_string_lossy()
        .into_owned();
    let mut cmd = Command::new("verilator");
    with_objcache(&mut cmd);
    run(cmd
        .args([
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "-O3",
            "--x-assign",
            "fast",
            "--x-initial",
            "fast",
        ])
        .args([
            "-Wno-WIDTH",
            "-Wno-fatal",
            "--top-module",
            top,
            "--prefix",
            prefix,
            "-o",
            &exe,
            "--Mdir",
        ])
        .arg(dir)
        .arg(verilog)
        .arg(harness_dir().join(harness)))?;
    Ok(dir.join(exe))
}

/// Verilate `verilog` (top module `top`, a top of the design registry `pft_hdl::DESIGNS`)
/// with the shared replay harness `replay_design.cpp` into `dir`; return the binary. The
/// harness's ports (inputs then outputs, in the vector's order) come from the registry.
pub fn build_replay(verilog: &Path, top: &str, dir: &Path) -> Result<PathBuf> {
    build_replay_as(verilog, top, top, dir)
}

/// `build_replay` for a top module `top` outside the registry with the ports of the
/// registry's `ports_of` (the hand-written reference `pft_injector_ref`: `pft_injector`'s).
pub fn build_replay_as(verilog: &Path, top: &str, ports_of: &str, dir: &Path) -> Result<PathBuf> {
    let Some((d, _)) = pft_hdl::design::find(pft_hdl::DESIGNS, ports_of) else {
        bail!("{ports_of}: not a top of the design registry");
    };
    std::fs::create_dir_all(dir)?;
    let ports = |v: &[&str]| v.iter().map(|p| format!(" X({p})")).collect::<String>();
    let wrapper = dir.join("replay.cpp");
    std::fs::write(
        &wrapper,
        format!(
            "// {top}: the registry's ports; the loop is tb/verilator/replay_design.cpp\n\
             #define DUT_HEADER \"Vdut.h\"\n#define DUT Vdut\n#define DUT_CLOCK {}\n\
             #define INPUTS(X){}\n#define OUTPUTS(X){}\n#include \"{}\"\n",
            d.io.clock,
            ports(d.io.inputs),
            ports(d.io.outputs),
            harness_dir().join("replay_design.cpp").display()
        ),
    )?;
    build_prefixed(verilog, top, "Vdut", &wrapper.display().to_string(), dir)
}

/// Result of a replay: cycles compared and mismatching cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replay {
    pub cycles: u64,
    pub mismatches: u64,
}

fn parse_replay(stdout: &str) -> Result<Replay> {
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("cycles "))
        .context("no summary line")?;
    let f: Vec<&str> = last.split_whitespace().collect();
    if f.len() < 4 || f[2] != "mismatches" {
        bail!("bad summary line {last:?}");
    }
    Ok(Replay {
        cycles: f[1].parse()?,
        mismatches: f[3].parse()?,
    })
}

/// Run a Verilator replay binary on a vector file. Mismatches are not an error here; the
/// caller asserts on them (and a mutant test expects them).
pub fn replay(exe: &Path, vectors: &Path) -> Result<(Replay, String)> {
    let out = Command::new(exe)
        .arg(vectors)
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let r = parse_replay(&stdout).with_context(|| {
        format!(
            "{}: {stdout}{}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    Ok((r, stdout))
}

/// Compile `verilog` with the iverilog replay bench into `dir`; return the vvp file.
pub fn build_iverilog(verilog: &Path, dir: &Path) -> Result<PathBuf> {
    build_iverilog_top(verilog, "pft_injector", dir)
}

/// `build_iverilog` for a design whose top module is `top` (same ports as `pft_injector`).
pub fn build_iverilog_top(verilog: &Path, top: &str, dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let vvp = dir.join("replay.vvp");
    run(Command::new("iverilog")
        .args(["-g2005", &format!("-DDUT={top}"), "-o"])
        .arg(&vvp)
        .arg(harness_dir().join("replay_tb.v"))
        .arg(verilog))?;
    Ok(vvp)
}

/// Run the iverilog replay on a vector file.
pub fn replay_iverilog(vvp: &Path, vectors: &Path) -> Result<(Replay, String)> {
    iverilog_run(vvp, vectors, false)
}

/// Run the iverilog replay on a vector file up to its first mismatch (`+first`): enough to
/// show that a mutant is caught. `cycles` counts the cycles replayed.
pub fn replay_iverilog_until_mismatch(vvp: &Path, vectors: &Path) -> Result<(Replay, String)> {
    iverilog_run(vvp, vectors, true)
}

fn iverilog_run(vvp: &Path, vectors: &Path, first: bool) -> Result<(Replay, String)> {
    let mut cmd = Command::new("vvp");
    cmd.arg("-n")
        .arg(vvp)
        .arg(format!("+vectors={}", vectors.display()));
    if first {
        cmd.arg("+first");
    }
    let out = cmd.output()?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Ok((
        parse_replay(&stdout).with_context(|| stdout.clone())?,
        stdout,
    ))
}

/// A broken copy of `src`: its one occurrence of `from` replaced by `to`, written to `out`.
/// An error if `from` is not in `src` exactly once (the mutation site moved).
pub fn mutant(src: &Path, from: &str, to: &str, out: &Path) -> Result<PathBuf> {
    let text = std::fs::read_to_string(src)?;
    let n = text.matches(from).count();
    if n != 1 {
        bail!(
            "mutation site {from:?} found {n} times in {}, not once",
            src.display()
        );
    }
    std::fs::write(out, text.replace(from, to))?;
    Ok(out.to_path_buf())
}
