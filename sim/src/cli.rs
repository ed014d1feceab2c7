//! The command line of the tools: clap's parse, with `--help` and `--version` written the
//! way every other output is (a failed write is an error, exit status 1).

use clap::error::ErrorKind;
use clap::Parser;
use std::ffi::OsString;

/// Writes `text` to stdout, a closed stdout (`>&-`) an error like a full one.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    pft_hdl::outfile::write_stdout(text)
}

/// A file written under a temporary name and put in place whole (the workspace's, for
/// the network core, which names no scheme's crate).
pub use pft_hdl::outfile::AtomicFile;

/// Why no output file may be created in directory `dir` (it is in `/dev`, `/proc` or
/// `/sys`, it is not a directory, or it cannot be written), for tools that write a new file
/// themselves.
pub fn check_output_dir(dir: &std::path::Path) -> Result<(), String> {
    pft_hdl::outfile::check_dir(dir).map_err(|e| e.why)
}

/// `T::parse()`, except that the help or version text that cannot be written to stdout
/// (`--help > /dev/full`, a closed stdout) ends the process with exit status 1 and a
/// message, where clap would exit 0.
pub fn parse<T: Parser>() -> T {
    match T::try_parse_from(joined_values(std::env::args_os())) {
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

/// The arguments with a non-finite negative value (`-inf`, `-infinity`, `-nan`, any case)
/// joined to the long option before it (`--load -inf` is `--load=-inf`): clap reads such a
/// value as short flags (`-i`), where a number is read as a value, and the option's own
/// check should refuse it with the option's range.
fn joined_values(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let mut args = args.into_iter();
    for a in args.by_ref() {
        if a == "--" {
            // after the separator every argument is a positional one, as given
            out.push(a);
            break;
        }
        let non_finite = a.to_str().is_some_and(|s| {
            let v = s.to_ascii_lowercase();
            ["-inf", "-infinity", "-nan"].contains(&v.as_str())
        });
        match out.last_mut() {
            Some(prev)
                if non_finite
                    && prev.to_str().is_some_and(|p| {
                        p.len() > 2 && p.starts_with("--") && !p.contains('=')
                    }) =>
            {
                prev.push("=");
                prev.push(&a);
            }
            _ => out.push(a),
        }
    }
    out.extend(args);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_join_their_option() {
        let j = |a: &[&str]| {
            joined_values(a.iter().map(OsString::from))
                .into_iter()
                .map(|s| s.into_string().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            j(&["nb", "--load", "-inf", "-x"]),
            ["nb", "--load=-inf", "-x"]
        );
        assert_eq!(j(&["nb", "--drain", "-NaN"]), ["nb", "--drain=-NaN"]);
        // a number, a value already joined, a first argument, the `--` separator: as given
        assert_eq!(j(&["nb", "--load", "-0.5"]), ["nb", "--load", "-0.5"]);
        assert_eq!(j(&["nb", "--load=1", "-inf"]), ["nb", "--load=1", "-inf"]);
        assert_eq!(j(&["-inf", "--", "-inf"]), ["-inf", "--", "-inf"]);
        assert_eq!(j(&["x", "--", "--a", "-inf"]), ["x", "--", "--a", "-inf"]);
    }
}
