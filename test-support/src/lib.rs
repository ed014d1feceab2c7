//! Test harnesses shared by the integration tests of `pft-hdl`, `pft-sim` and `pft-tb`
//! (a dev-dependency of each; `publish = false`):
//!
//! - [`catalogue`](mod@catalogue): the bad-input catalogue (docs/bad-inputs.md): its rows,
//!   a case run on the real binary in a fresh directory ([`catalogue::Case`]), and the check
//!   that a test file's cases and the doc's rows of its prefixes are the same set;
//! - [`fuzz`]: proptest sizing (`PROPTEST_CASES`) and the usage-error oracle of the CLI
//!   fuzzers of `sim` and `tb`;
//! - [`scenario`]: the small scenarios and grids that more than one bad-input file runs;
//! - [`stimulus`]: the seeded random stimulus of the RTL designs (`pft_axis`, the self-tuned
//!   throttle, MVCM's and IB CC's per-flow state), shared by each design's rust-hdl test in
//!   `hdl/tests/` and its Verilator test in `tb/tests/`.
//!
//! What only exists where a test target is compiled stays at the call site:
//! `env!("CARGO_TARGET_TMPDIR")` and the calling crate's name come in through
//! [`case_root!`] and [`catalogue!`], which expand there, and the binaries under test
//! (`env!("CARGO_BIN_EXE_...")`) are passed in by each case.
//!
//! Only integration tests may use this crate, never a crate's own `#[cfg(test)]` code: it
//! depends on `pft-hdl`, so inside `pft-hdl`'s unit tests its `pft_hdl` would be a second
//! copy of the crate, with types foreign to the one under test.

pub mod catalogue;
pub mod fuzz;
pub mod scenario;
pub mod stimulus;

/// The directory under which the calling crate's bad-input cases run:
/// `$CARGO_TARGET_TMPDIR/bad_inputs_<crate>`. A macro, because `CARGO_TARGET_TMPDIR` is set
/// only when a test target is compiled, and the crate's name is the caller's.
#[macro_export]
macro_rules! case_root {
    () => {
        ::std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(concat!("bad_inputs_", env!("CARGO_PKG_NAME")))
    };
}

/// The catalogue (docs/bad-inputs.md), read, with its cases running under [`case_root!`].
#[macro_export]
macro_rules! catalogue {
    () => {
        $crate::catalogue::Catalogue::read($crate::case_root!())
    };
}

/// Inputs that are not regular files, for the tests that every tool refuses them: `/dev/zero`
/// (read forever) and, where `mkfifo` exists, a pipe with no writer in `dir` (blocks).
pub fn device_and_pipe(dir: &std::path::Path) -> Vec<String> {
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut inputs = vec!["/dev/zero".to_string()];
    if made {
        inputs.push(fifo.display().to_string());
    }
    inputs
}
