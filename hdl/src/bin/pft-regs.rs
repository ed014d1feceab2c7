//! Print the register map: as Markdown (`make docs` writes it to docs/registers.md), or with
//! `--format F` as SystemRDL, a SystemVerilog package, Verilog `define`s, a C header or a
//! Python module (`make docs` writes those to hdl/generated/; a test fails when a
//! checked-in copy is stale).
//!
//! Usage: pft-regs [--format md|rdl|sv|vh|h|py] > FILE (`-h`/`--help` prints the usage,
//! `-V`/`--version` the version);
//! any other argument is a usage error (exit status 2), and a failed write to stdout is an
//! error (exit status 1), never a panic.

#![no_main]

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

const USAGE: &str =
    "usage: pft-regs [--format md|rdl|sv|vh|h|py] > FILE | --help | --version   (prints the register map: \
Markdown (default), SystemRDL, SystemVerilog package, Verilog defines, C header, Python module)";

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
    // `--format=F` is `--format F`, as for the clap tools
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .flat_map(|a| match a.strip_prefix("--format=") {
            Some(v) => vec!["--format".to_string(), v.to_string()],
            None => vec![a],
        })
        .collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return to_stdout(&format!("{USAGE}\n"), "the usage");
    }
    if args.iter().any(|a| a == "-V" || a == "--version") {
        // as the clap tools print theirs
        let v = concat!("pft-regs ", env!("CARGO_PKG_VERSION"));
        return to_stdout(&format!("{v}\n"), "the version");
    }
    let format = match args.as_slice() {
        [] => "md",
        [f, v] if f == "--format" && !v.is_empty() => v.as_str(),
        [f] | [f, _] if f == "--format" => {
            pft_hdl::eprintln_safe!(
                "error: --format needs a value: it must be md, rdl, sv, vh, h or py\n{USAGE}"
            );
            return Err(2);
        }
        [f, _, g, ..] if f == "--format" && g == "--format" => {
            pft_hdl::eprintln_safe!("error: --format given twice: give it once\n{USAGE}");
            return Err(2);
        }
        [a, ..] => {
            let a = if a == "--format" { &args[2] } else { a };
            pft_hdl::eprintln_safe!(
                "error: unexpected argument `{a}`: pft-regs takes only --format F\n{USAGE}"
            );
            return Err(2);
        }
    };
    let Some(text) = pft_hdl::regs_gen::render(format) else {
        pft_hdl::eprintln_safe!(
            "error: --format {format}: must be md, rdl, sv, vh, h or py\n{USAGE}"
        );
        return Err(2);
    };
    // A closed stdout (`pft-regs >&-`) is an error: Rust would drop the text silently.
    to_stdout(&text, "the register map")
}

/// Write `text` (`what`, for the message) to stdout; exit status 1 if it cannot.
fn to_stdout(text: &str, what: &str) -> Result<(), i32> {
    pft_hdl::outfile::write_stdout(text).map_err(|e| {
        pft_hdl::eprintln_safe!("error: cannot write {what} to stdout: {e}");
        1
    })
}
