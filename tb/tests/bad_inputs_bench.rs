//! The bad-input catalogue (docs/bad-inputs.md), rows `TB-*` (pft-bench arguments): one
//! case per row, run on the real binary in a fresh directory, checked like every row
//! (`bad_inputs.rs` says how); `catalogue_matches_cases` keeps the doc's rows and these
//! cases in step.

const PFT_BENCH: &str = env!("CARGO_BIN_EXE_pft-bench");

use pft_test_support::catalogue;
use pft_test_support::catalogue::*;

fn bench_cases() -> Vec<Case> {
    let b = PFT_BENCH;
    vec![
        case("TB-01", b, &["--trace-cycles", "0", "--dir", "bench"]),
        case("TB-02", b, &["--model-cycles", "-1", "--dir", "bench"]).also(&[
            "--rtl-cycles",
            "many",
            "--dir",
            "bench",
        ]),
        case("TB-03", b, &["--dir", "afile"]).file("afile", "keep me\n"),
        // its own files' names as links out of --dir: written through (notes.txt replaced)
        case(
            "TB-04",
            b,
            &[
                "--dir",
                "w",
                "--model-cycles",
                "1000",
                "--rtl-cycles",
                "100",
                "--verilator-cycles",
                "1000",
                "--trace-cycles",
                "100",
            ],
        )
        .dir("w")
        .file("notes.txt", "keep me\n")
        .symlink("w/trace.vec", "../notes.txt"),
        // (as root this created files among the device nodes)
        case(
            "TB-05",
            b,
            &[
                "--dir",
                "/dev/pft-tb05",
                "--model-cycles",
                "1000",
                "--rtl-cycles",
                "100",
                "--verilator-cycles",
                "1000",
                "--trace-cycles",
                "100",
            ],
        ),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["TB"], bench_cases().iter().map(|c| c.id));
}

#[test]
fn bench_arguments() {
    let cat = catalogue!();
    for c in bench_cases() {
        cat.run(&c);
    }
}
