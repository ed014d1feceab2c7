//! proptest sizing shared by the fuzz tests of `sim` and `tb`, and what a refused command
//! line must give.

use proptest::test_runner::{Config, FileFailurePersistence};

/// proptest configuration: `default` cases unless `PROPTEST_CASES` says otherwise; no
/// regression files written into the source tree (failures are kept at the end by hand).
pub fn config(default: u32) -> Config {
    let cases = env_cases().unwrap_or(default);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

/// `PROPTEST_CASES`, when set.
pub fn env_cases() -> Option<u32> {
    std::env::var("PROPTEST_CASES").ok()?.parse().ok()
}

/// For the properties that start a process per case: `PROPTEST_CASES / 50` when set.
pub fn process_config(default: u32) -> Config {
    Config {
        cases: env_cases().map_or(default, |n| (n / 50).max(1)),
        ..config(default)
    }
}

/// What a refused command line must give (the CLI fuzzers of `sim` and `tb`): help and
/// version requests exit 0 and name the tool; anything else is a usage error (status 2,
/// `error:` first) that quotes what it refused, an argument the user gave or the part of
/// one it could not take (`--flag` or `v` of `--flag=v`, `-1` of `-10`), or says what is
/// missing.
pub fn check_usage_error(tool: &str, e: &clap::Error, args: &[String]) -> Result<(), String> {
    use clap::error::ErrorKind;
    let m = e.to_string();
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        if e.exit_code() != 0 || !m.contains(tool) {
            return Err(format!("help/version: status {}: {m}", e.exit_code()));
        }
        return Ok(());
    }
    if e.exit_code() != 2 || !m.starts_with("error:") {
        return Err(format!("{:?}: status {}: {m}", e.kind(), e.exit_code()));
    }
    let first = m.lines().next().unwrap_or("");
    let quoted: Vec<&str> = first.split('\'').skip(1).step_by(2).collect();
    // `'--dir <DIR>'`: the flag is the first word
    let names_one = quoted.iter().any(|q| {
        let head = q.split_whitespace().next().unwrap_or(q);
        args.iter().any(|a| {
            let value = a.split_once('=').map_or("", |(_, v)| v);
            a.starts_with(q)
                || a.trim() == q.trim()
                || value == *q
                || (!head.is_empty() && a.starts_with(head))
        })
    });
    let says_missing = m.contains("required") || m.contains("requires a subcommand");
    if names_one || says_missing {
        Ok(())
    } else {
        Err(format!("{:?} {args:?}: names nothing: {m}", e.kind()))
    }
}
