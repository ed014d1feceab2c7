//! Write the Verilog of `PftInjector` (top module `pft_injector`), with `--pipelined` of
//! its pipelined build `PftInjectorPipelined` (top module `pft_injector_pipelined`), or
//! with `--selftuned` of the self-tuned throttle's node `SelftunedNode` (top module
//! `selftuned_node`, seed 003) in the seed's configuration (`pft_hdl::selftuned::SEED`),
//! with `--mvcm` of MVCM's per-flow source state (seed 004, the paper's 4-ary 5-fly
//! constants `pft_hdl::mvcm::PAPER`: `MvcmFlow`, top `mvcm_flow`, or with `--flows N`
//! `MvcmFlows`, top `mvcm_flows<N>`), or with `--ibcc` of IB CC's (seed 002's Table I:
//! `IbccFlow`, top `ibcc_flow`, or with `--flows N` `IbccFlows`, top `ibcc_flows<N>`;
//! `--cct random` builds the single flow with a CCT of random entries instead of the
//! linear one, top `ibcc_flow_random`).
//! Usage: pft-verilog [--pipelined] [OUT.v | -]
//!        pft-verilog --selftuned [OUT.v | -]
//!        pft-verilog --mvcm [--flows N] [OUT.v | -]
//!        pft-verilog --ibcc [--flows N | --cct random] [OUT.v | -]
//!        (default: `synth/out/<top>.v`; `-` = stdout; N is 1, 4, 16 or 64)
//!
//! An unknown option or a second argument is a usage error (exit status 2). An output that
//! cannot be written (a directory, a device or other non-regular file, a path below a
//! file, an unwritable directory) is refused before any work (exit status 1); the file is
//! written under a temporary name and renamed (`pft_hdl::outfile`), so a failure never
//! leaves a partial file under OUT.v. A closed stdout is an error.

#![no_main]

use std::io::Write;
use std::path::PathBuf;

const USAGE: &str = "usage: pft-verilog [--pipelined] [OUT.v | -]
       pft-verilog --selftuned [OUT.v | -]
       pft-verilog --mvcm [--flows N] [OUT.v | -]
       pft-verilog --ibcc [--flows N | --cct random] [OUT.v | -]
  (default: synth/out/pft_injector.v, with --pipelined synth/out/pft_injector_pipelined.v
  with top module pft_injector_pipelined, with --selftuned synth/out/selftuned_node.v with
  top module selftuned_node: seed 003's node with the seed's constants; with --mvcm
  synth/out/mvcm_flow.v (top mvcm_flow: one flow of MVCM, seed 004, the paper's 4-ary
  5-fly), with --mvcm --flows N synth/out/mvcm_flowsN.v (N flows); with --ibcc
  synth/out/ibcc_flow.v (top ibcc_flow: one flow of IB CC with the CCT and the CCTI timer,
  seed 002's Table I), with --ibcc --flows N synth/out/ibcc_flowsN.v, with --ibcc --cct
  random synth/out/ibcc_flow_random.v (a CCT of random entries); N is 1, 4, 16 or 64;
  `-` writes to stdout)";

/// What to export.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Design {
    /// A build of the PFT block.
    Pft(pft_hdl::verilog::Build),
    /// The self-tuned throttle's node, seed configuration.
    Selftuned,
    /// MVCM: one flow (None) or N flows, the paper's constants.
    Mvcm(Option<usize>),
    /// IB CC: one flow (None) or N flows, Table I; or one flow with a random CCT.
    Ibcc(Option<usize>, bool),
}

impl Design {
    fn top(self) -> String {
        use pft_hdl::verilog as v;
        match self {
            Design::Pft(b) => b.top().to_string(),
            Design::Selftuned => v::TOP_SELFTUNED.to_string(),
            Design::Mvcm(None) => v::TOP_MVCM.to_string(),
            Design::Mvcm(Some(n)) => v::mvcm_flows_top(n),
            Design::Ibcc(None, false) => v::TOP_IBCC.to_string(),
            Design::Ibcc(None, true) => v::TOP_IBCC_RANDOM.to_string(),
            Design::Ibcc(Some(n), _) => v::ibcc_flows_top(n),
        }
    }

    fn verilog(self) -> String {
        use pft_hdl::verilog as v;
        match self {
            Design::Pft(b) => v::verilog_of(b),
            Design::Selftuned => v::selftuned_verilog(&pft_hdl::selftuned::SEED),
            Design::Mvcm(None) => v::mvcm_verilog(&pft_hdl::mvcm::PAPER),
            Design::Mvcm(Some(n)) => v::mvcm_flows_verilog(&pft_hdl::mvcm::PAPER, n),
            Design::Ibcc(None, random) => v::ibcc_table1_verilog(random),
            Design::Ibcc(Some(n), _) => v::ibcc_flows_table1_verilog(n),
        }
    }
}

fn usage_error(msg: &str) -> Result<(), i32> {
    eprintln!("error: {msg}\n{USAGE}");
    Err(2)
}

/// The C entry point, so that Rust's runtime does not run first: it would reopen a closed
/// stdout on /dev/null (hiding `pft-verilog >&-`); here a closed descriptor 1 stays closed and
/// `outfile::stdout_is_open` reports it. (A write to a closed pipe ends the process by
/// SIGPIPE, as for any Unix filter.)
#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    match run() {
        Ok(()) => 0,
        Err(code) => code,
    }
}

/// Exit status 1 or 2 as `Err`.
fn run() -> Result<(), i32> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut out: Option<PathBuf> = None;
    let mut design: Option<Design> = None;
    let mut dashdash = false;
    let mut flows: Option<usize> = None;
    let mut cct_random = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if !dashdash && (s == "-h" || s == "--help") {
            return match writeln!(std::io::stdout(), "{USAGE}") {
                Ok(()) => Ok(()),
                Err(_) => Err(1),
            };
        }
        if !dashdash && s == "--" {
            dashdash = true;
            continue;
        }
        if !dashdash && (s == "--pipelined" || s == "--selftuned" || s == "--mvcm" || s == "--ibcc")
        {
            let d = match s.as_ref() {
                "--pipelined" => Design::Pft(pft_hdl::verilog::Build::Pipelined),
                "--selftuned" => Design::Selftuned,
                "--mvcm" => Design::Mvcm(None),
                _ => Design::Ibcc(None, false),
            };
            if design.is_some_and(|prev| prev != d) {
                return usage_error(
                    "--pipelined, --selftuned, --mvcm and --ibcc exclude each other",
                );
            }
            design = Some(d);
            continue;
        }
        if !dashdash && (s == "--flows" || s == "--cct") {
            let Some(v) = it.next() else {
                return usage_error(&format!("{s} needs a value"));
            };
            let v = v.to_string_lossy();
            if s == "--cct" {
                if v != "random" {
                    return usage_error(&format!(
                        "--cct {v}: the only other CCT built is `random`"
                    ));
                }
                cct_random = true;
            } else {
                match v.parse::<usize>() {
                    Ok(n) if pft_hdl::verilog::FLOW_COUNTS.contains(&n) => flows = Some(n),
                    _ => {
                        return usage_error(&format!(
                            "--flows {v}: built for {:?} flows",
                            pft_hdl::verilog::FLOW_COUNTS
                        ))
                    }
                }
            }
            continue;
        }
        if !dashdash && s.starts_with('-') && s.len() > 1 {
            return usage_error(&format!(
                "unknown option `{s}` (write `-- {s}` for a file of that name)"
            ));
        }
        if out.is_some() {
            return usage_error(&format!(
                "unexpected argument `{s}`: pft-verilog takes at most one output file"
            ));
        }
        if s.is_empty() {
            return usage_error("the output file name is empty");
        }
        out = Some(PathBuf::from(a));
    }
    let design = match (design, flows, cct_random) {
        (d, None, false) => d.unwrap_or(Design::Pft(pft_hdl::verilog::Build::Default)),
        (Some(Design::Mvcm(_)), Some(n), false) => Design::Mvcm(Some(n)),
        (Some(Design::Ibcc(..)), n, random) if !(n.is_some() && random) => Design::Ibcc(n, random),
        _ => {
            return usage_error(
                "--flows goes with --mvcm or --ibcc, --cct random with --ibcc alone",
            )
        }
    };
    let out = out.unwrap_or_else(|| PathBuf::from(format!("synth/out/{}.v", design.top())));
    if out.as_os_str() == "-" {
        // `-`: the Verilog on stdout (write `./-` for a file of that name)
        return match pft_hdl::outfile::stdout_is_open().and_then(|_| {
            let mut o = std::io::stdout().lock();
            o.write_all(design.verilog().as_bytes())
                .and_then(|_| o.flush())
        }) {
            Ok(()) => Ok(()),
            Err(e) => {
                eprintln!("error: cannot write the Verilog to stdout: {e}");
                Err(1)
            }
        };
    }
    // Refused before any work: a directory, a device, a path below a file, an unwritable
    // directory. Written under a temporary name and renamed: never a partial file.
    if let Err(e) = pft_hdl::outfile::check(&out, &[]) {
        eprintln!("error: {e}");
        return Err(1);
    }
    let v = design.verilog();
    if let Err(e) = pft_hdl::outfile::write_atomic(&out, v.as_bytes()) {
        eprintln!("error: cannot write {}: {e}", out.display());
        return Err(1);
    }
    if let Err(e) = writeln!(std::io::stdout(), "wrote {}", out.display()) {
        eprintln!("error: cannot write to stdout: {e}");
        return Err(1);
    }
    Ok(())
}
