//! Write the Verilog of `PftInjector` (top module `pft_injector`), with `--pipelined` of
//! its pipelined build `PftInjectorPipelined` (top module `pft_injector_pipelined`), or
//! with `--selftuned` of the self-tuned throttle's node `SelftunedNode` (top module
//! `selftuned_node`, seed 003) in the seed's configuration (`pft_hdl::selftuned::SEED`).
//! Usage: pft-verilog [--pipelined] [OUT.v | -]
//!        pft-verilog --selftuned [OUT.v | -]
//!        (default: synth/out/pft_injector.v, synth/out/pft_injector_pipelined.v or
//!        synth/out/selftuned_node.v; `-` = stdout)
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
  (default: synth/out/pft_injector.v, with --pipelined synth/out/pft_injector_pipelined.v
  with top module pft_injector_pipelined, with --selftuned synth/out/selftuned_node.v with
  top module selftuned_node: seed 003's node with the seed's constants; `-` writes to
  stdout)";

/// What to export.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Design {
    /// A build of the PFT block.
    Pft(pft_hdl::verilog::Build),
    /// The self-tuned throttle's node, seed configuration.
    Selftuned,
}

impl Design {
    fn top(self) -> &'static str {
        match self {
            Design::Pft(b) => b.top(),
            Design::Selftuned => pft_hdl::verilog::TOP_SELFTUNED,
        }
    }

    fn verilog(self) -> String {
        match self {
            Design::Pft(b) => pft_hdl::verilog::verilog_of(b),
            Design::Selftuned => pft_hdl::verilog::selftuned_verilog(&pft_hdl::selftuned::SEED),
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
    for a in &args {
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
        if !dashdash && (s == "--pipelined" || s == "--selftuned") {
            let d = if s == "--pipelined" {
                Design::Pft(pft_hdl::verilog::Build::Pipelined)
            } else {
                Design::Selftuned
            };
            if design.is_some_and(|prev| prev != d) {
                return usage_error("--pipelined and --selftuned exclude each other");
            }
            design = Some(d);
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
    let design = design.unwrap_or(Design::Pft(pft_hdl::verilog::Build::Default));
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
