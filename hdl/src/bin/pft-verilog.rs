//! Write the Verilog of `PftInjector` (top module `pft_injector`).
//! Usage: pft-verilog [OUT.v]   (default: synth/out/pft_injector.v)
//!
//! An unknown option or a second argument is a usage error (exit status 2). An output that
//! cannot be written (a directory, a path below a file) is an error (exit status 1); the
//! file is written under a temporary name and renamed, so a failure never leaves a partial
//! file under OUT.v, and the temporary file is removed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: pft-verilog [OUT.v]   (default: synth/out/pft_injector.v)";

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut out: Option<PathBuf> = None;
    let mut dashdash = false;
    for a in &args {
        let s = a.to_string_lossy();
        if !dashdash && (s == "-h" || s == "--help") {
            return match writeln!(std::io::stdout(), "{USAGE}") {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            };
        }
        if !dashdash && s == "--" {
            dashdash = true;
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
    let out = out.unwrap_or_else(|| PathBuf::from("synth/out/pft_injector.v"));
    if out.is_dir() {
        eprintln!(
            "error: cannot write {}: it is a directory (give a file name)",
            out.display()
        );
        return ExitCode::FAILURE;
    }
    let mut up = out.parent();
    while let Some(d) = up.filter(|d| !d.as_os_str().is_empty()) {
        if d.exists() {
            if !d.is_dir() {
                eprintln!(
                    "error: cannot write {}: {} is not a directory",
                    out.display(),
                    d.display()
                );
                return ExitCode::FAILURE;
            }
            break;
        }
        up = d.parent();
    }
    let v = pft_hdl::verilog::pft_injector_verilog();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    // Write to a temporary name and rename, so a failed write never leaves a partial file.
    let mut tmp = out.clone().into_os_string();
    tmp.push(format!(".partial-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    if let Err(e) = std::fs::write(&tmp, v).and_then(|_| std::fs::rename(&tmp, &out)) {
        let _ = std::fs::remove_file(&tmp);
        eprintln!("error: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    if let Err(e) = writeln!(std::io::stdout(), "wrote {}", out.display()) {
        eprintln!("error: cannot write to stdout: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
