//! Print the register map as Markdown (`make docs` writes it to docs/registers.md; a test
//! fails when the checked-in copy is stale).
//!
//! Usage: pft-regs > docs/registers.md. It takes no arguments (`-h`/`--help` prints the
//! usage); any other argument is a usage error (exit status 2), and a failed write to
//! stdout is an error (exit status 1), never a panic.

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str =
    "usage: pft-regs > docs/registers.md   (prints the register map as Markdown; no arguments)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return match writeln!(std::io::stdout(), "{USAGE}") {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    if let Some(a) = args.first() {
        eprintln!("error: unexpected argument `{a}`: pft-regs takes no arguments\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    match out
        .write_all(pft_hdl::regs::markdown().as_bytes())
        .and_then(|_| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the register map to stdout: {e}");
            ExitCode::FAILURE
        }
    }
}
