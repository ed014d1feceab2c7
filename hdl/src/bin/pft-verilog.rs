//! Write the Verilog of `PftInjector` (top module `pft_injector`).
//! Usage: pft-verilog [OUT.v]   (default: synth/out/pft_injector.v)

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let out: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("synth/out/pft_injector.v"));
    let v = pft_hdl::verilog::pft_injector_verilog();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    // Write to a temporary name and rename, so a failed write never leaves a partial file.
    let tmp = out.with_extension("v.partial");
    if let Err(e) = std::fs::write(&tmp, v).and_then(|_| std::fs::rename(&tmp, &out)) {
        eprintln!("error: cannot write {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", out.display());
    ExitCode::SUCCESS
}
