//! proptest sizing shared by the fuzz tests of `sim` and `tb` (`#[path]`-included).

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
