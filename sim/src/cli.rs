//! The command line of the tools: clap's parse, with `--help` and `--version` written the
//! way every other output is (a failed write is an error, exit status 1).

use clap::error::ErrorKind;
use clap::Parser;
use std::io::Write;

/// Writes `text` to stdout, a closed stdout (`>&-`) an error like a full one.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    pft_hdl::outfile::stdout_is_open()
        .and_then(|_| out.write_all(text.as_bytes()))
        .and_then(|_| out.flush())
}

/// `T::parse()`, except that the help or version text that cannot be written to stdout
/// (`--help > /dev/full`, a closed stdout) ends the process with exit status 1 and a
/// message, where clap would exit 0.
pub fn parse<T: Parser>() -> T {
    match T::try_parse() {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            match write_stdout(&e.render().to_string()) {
                Ok(()) => std::process::exit(0),
                Err(err) => {
                    crate::eprintln_safe!("error: cannot write to stdout: {err}");
                    std::process::exit(1)
                }
            }
        }
        Err(e) => e.exit(),
    }
}
