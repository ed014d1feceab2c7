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

/// A tool a test needs: its program and a flag that makes it print its version.
pub type Tool = (&'static str, &'static str);
pub const VERILATOR: Tool = ("verilator", "--version");
pub const IVERILOG: Tool = ("iverilog", "-V");
pub const YOSYS: Tool = ("yosys", "-V");

/// Panics, naming the tool, when one of `tools` does not run: without it `test` would
/// compare nothing, so a machine without the tools fails it rather than passes it empty
/// (`make setup`, or `.ci/install-deps`, installs them; CI does).
pub fn require_tools(test: &str, tools: &[Tool]) {
    for &tool in tools {
        if let Err(e) = tool_runs(tool) {
            panic!("{test}: {e} to check the exported Verilog");
        }
    }
}

/// `Err` naming `tool` when `tool flag` does not run (or fails): install it (`make setup`).
pub fn tool_runs((tool, flag): Tool) -> Result<()> {
    let runs = Command::new(tool)
        .arg(flag)
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        bail!("`{tool} {flag}` does not run; install {tool} (`make setup`)");
    }
    Ok(())
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

/// The width of port `port` of module `top` in `verilog` (its `input`/`output` line).
fn port_width(verilog: &str, top: &str, port: &str) -> Result<u32> {
    let start = verilog
        .find(&format!("module {top}("))
        .with_context(|| format!("no module {top}"))?;
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").unwrap_or(body.len())];
    for line in body.lines() {
        let t = line.trim().trim_end_matches(';');
        let words: Vec<&str> = t.split_whitespace().collect();
        if !matches!(words.first(), Some(&"input") | Some(&"output")) || words.last() != Some(&port)
        {
            continue;
        }
        return Ok(match words.iter().find(|w| w.starts_with('[')) {
            Some(r) => {
                let hi: u32 = r[1..r.find(':').context("a range")?].parse()?;
                hi + 1
            }
            None => 1,
        });
    }
    bail!("module {top} has no port {port}")
}

/// Compile `verilog` (top `top`, a top of the design registry `pft_hdl::DESIGNS`) with an
/// iverilog replay bench written from the registry's ports (widths from the Verilog), into
/// `dir`; return the vvp file. The bench reads the same vectors as `replay_design.cpp`
/// (inputs change with the falling edge, outputs are compared before the rising edge) and
/// prints the same summary line. Ports of at most 64 bits.
pub fn build_iverilog_replay(verilog: &Path, top: &str, dir: &Path) -> Result<PathBuf> {
    let Some((d, _)) = pft_hdl::design::find(pft_hdl::DESIGNS, top) else {
        bail!("{top}: not a top of the design registry");
    };
    let text = std::fs::read_to_string(verilog)?;
    let width = |p: &str| port_width(&text, top, p);
    let (ins, outs) = (d.io.inputs, d.io.outputs);
    let mut tb = format!(
        "// iverilog replay of {top} (tb/src/verilator.rs, build_iverilog_replay)\n\
         `timescale 1ns/1ps\nmodule replay_tb;\n    reg {} = 0;\n",
        d.io.clock
    );
    for p in ins {
        tb += &format!("    reg [{}:0] {p} = 0;\n", width(p)? - 1);
    }
    for p in outs {
        tb += &format!("    wire [{}:0] {p};\n", width(p)? - 1);
    }
    let conns: Vec<String> = std::iter::once(d.io.clock)
        .chain(ins.iter().copied())
        .chain(outs.iter().copied())
        .map(|p| format!(".{p}({p})"))
        .collect();
    tb += &format!("    {top} dut({});\n", conns.join(", "));
    let n = ins.len() + outs.len();
    tb += &format!(
        "    reg [63:0] v [0:{}];\n    integer fd, k, c, cycles, bad, ok;\n    reg [8*256-1:0] path;\n",
        n - 1
    );
    tb += "    initial begin\n        if (!$value$plusargs(\"vectors=%s\", path)) $finish_and_return(2);\n\
           fd = $fopen(path, \"r\");\n        if (fd == 0) $finish_and_return(2);\n\
           cycles = 0; bad = 0;\n        // (the clock starts low and rises only after a line's compare: an initial\n\
           // high clock is a rising edge at time 0 in Icarus, before the logic settles)\n\
           #1;\n        while (!$feof(fd)) begin\n\
           c = $fgetc(fd);\n            if (c == 35 || c == 10) begin\n\
           while (c != 10 && c != -1) c = $fgetc(fd);\n            end else if (c != -1) begin\n\
           k = $ungetc(c, fd);\n                ok = 1;\n\
           for (k = 0; k < ";
    tb += &format!("{n}; k = k + 1) if ($fscanf(fd, \"%h\", v[k]) != 1) ok = 0;\n");
    tb += "                if (ok) begin\n                    clock = 0;\n";
    for (i, p) in ins.iter().enumerate() {
        tb += &format!("                    {p} = v[{i}];\n");
    }
    tb += "                    #5;\n                    if (0";
    for (i, p) in outs.iter().enumerate() {
        tb += &format!(
            " || {{{{(64-{}){{1'b0}}}}, {p}}} !== v[{}]",
            width(p)?,
            ins.len() + i
        );
    }
    tb += ") begin\n                        if (bad < 10) $display(\"cycle %0d: mismatch\", cycles);\n\
                           bad = bad + 1;\n                    end\n\
                       clock = 1;\n                    #5;\n                    cycles = cycles + 1;\n\
                   end\n            end\n        end\n\
           $display(\"cycles %0d mismatches %0d\", cycles, bad);\n\
           $finish_and_return(bad != 0);\n    end\nendmodule\n";
    std::fs::create_dir_all(dir)?;
    let bench = dir.join("replay_tb.v");
    std::fs::write(&bench, tb)?;
    let vvp = dir.join("replay.vvp");
    run(Command::new("iverilog")
        .args(["-g2005", "-s", "replay_tb", "-o"])
        .arg(&vvp)
        .arg(&bench)
        .arg(verilog))?;
    Ok(vvp)
}

/// iverilog, the second simulator, on the first `cycles` vectors of `vectors` (a registry
/// top's, as for `build_replay`): builds `build_iverilog_replay`'s bench in `dir` and
/// replays. An error naming iverilog when `iverilog -V` does not run: a caller cannot
/// skip the replay by not having the tool.
pub fn iverilog_prefix(
    verilog: &Path,
    top: &str,
    vectors: &Path,
    cycles: usize,
    dir: &Path,
) -> Result<Replay> {
    prefix_with(IVERILOG, verilog, top, vectors, cycles, dir)
}

/// `iverilog_prefix` with `tool` standing for iverilog's check (a test names a missing one).
fn prefix_with(
    tool: Tool,
    verilog: &Path,
    top: &str,
    vectors: &Path,
    cycles: usize,
    dir: &Path,
) -> Result<Replay> {
    tool_runs(tool).with_context(|| format!("the iverilog replay of {top}"))?;
    let text = std::fs::read_to_string(vectors)?;
    let mut kept = 0;
    let prefix: String = text
        .lines()
        .take_while(|l| {
            kept += (!l.starts_with('#') && !l.trim().is_empty()) as usize;
            kept <= cycles
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::create_dir_all(dir)?;
    let short = dir.join("vectors.txt");
    std::fs::write(&short, prefix)?;
    let vvp = build_iverilog_replay(verilog, top, dir)?;
    let (r, log) = replay_iverilog(&vvp, &short)?;
    if r.mismatches != 0 {
        eprintln!("{log}");
    }
    Ok(r)
}

/// `iverilog_prefix` in a test: panics unless all `cycles` cycles match (and, naming the
/// tool, when iverilog does not run).
pub fn assert_iverilog_prefix(
    verilog: &Path,
    top: &str,
    vectors: &Path,
    cycles: usize,
    dir: &Path,
) {
    let r = iverilog_prefix(verilog, top, vectors, cycles, dir).unwrap_or_else(|e| panic!("{e:#}"));
    eprintln!("  iverilog {r:?}");
    assert_eq!(
        (r.cycles, r.mismatches),
        (cycles as u64, 0),
        "{top} under iverilog differs from the model"
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Without its tool the replay is an error that names the tool, not a quiet skip.
    #[test]
    fn iverilog_prefix_fails_without_the_tool() {
        let missing: Tool = ("pft-no-such-iverilog", "-V");
        let dir = std::env::temp_dir().join(format!("pft-prefix-{}", std::process::id()));
        let r = prefix_with(
            missing,
            &dir.join("x.v"),
            "pft_injector",
            &dir.join("v.txt"),
            1,
            &dir,
        );
        let e = format!(
            "{:#}",
            r.expect_err("a missing iverilog was skipped quietly")
        );
        assert!(e.contains("pft-no-such-iverilog -V` does not run"), "{e}");
        assert!(!dir.exists(), "{} was written", dir.display());
    }
}
