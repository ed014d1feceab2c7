//! Print the register map as Markdown (`make docs` writes it to docs/registers.md; a test
//! fails when the checked-in copy is stale).
//!
//! Usage: pft-regs > docs/registers.md. It takes no arguments (`-h`/`--help` prints the
//! usage); any other argument is a usage error (exit status 2), and a failed write to
//! stdout is an error (exit status 1), never a panic.

#![no_main]

use std::io::Write;

const USAGE: &str =
    "usage: pft-regs > docs/registers.md   (prints the register map as Markdown; no arguments)";

/// The C entry point, so that Rust's runtime does not run first: it would reopen a closed
/// stdout on /dev/null (hiding `pft-regs >&-`); here a closed descriptor 1 stays closed and
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
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return match writeln!(std::io::stdout(), "{USAGE}") {
            Ok(()) => Ok(()),
            Err(_) => Err(1),
        };
    }
    if let Some(a) = args.first() {
        eprintln!("error: unexpected argument `{a}`: pft-regs takes no arguments\n{USAGE}");
        return Err(2);
    }
    let mut out = std::io::stdout().lock();
    // A closed stdout (`pft-regs >&-`) is an error: Rust would drop the text silently.
    match pft_hdl::outfile::stdout_is_open()
        .and_then(|_| out.write_all(pft_hdl::regs::markdown().as_bytes()))
        .and_then(|_| out.flush())
    {
        Ok(()) => Ok(()),
        Err(e) => {
            eprintln!("error: cannot write the register map to stdout: {e}");
            Err(1)
        }
    }
}
