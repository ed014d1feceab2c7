//! Testbench support for the PFT block: random stimulus, vector files for the Verilog replay,
//! waveforms, and the engines behind `pft-trace`.

pub mod fig1;
pub mod stimulus;
pub mod study;
pub mod trace;
pub mod vectors;
pub mod verilator;

/// The arguments after the command's name, as text (the examples' command lines): one that
/// is not UTF-8 is an error that names it, where `std::env::args` would panic.
pub fn args() -> anyhow::Result<Vec<String>> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| anyhow::anyhow!("argument {a:?} is not UTF-8: give paths in UTF-8"))
        })
        .collect()
}
