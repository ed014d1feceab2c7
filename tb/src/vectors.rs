//! Vector files: the inputs and outputs of every cycle of a run, one line per cycle, in hex,
//! replayed on the exported Verilog by `tb/verilator/replay.cpp` and `replay_tb.v`.
//!
//! Line: `reset flit_valid flit_head credit_return csr_we csr_addr csr_wdata send congested
//! throttled used_credits csr_rdata`.

use crate::stimulus::{Mode, RandomStimulus};
use pft_hdl::model::{Inputs, Outputs};
use pft_hdl::stepper::Engine;
use std::io::{self, BufWriter, Write};
use std::path::Path;

pub fn format_line(i: &Inputs, o: &Outputs) -> String {
    format!(
        "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}\n",
        i.reset as u8,
        i.flit_valid as u8,
        i.flit_head as u8,
        i.credit_return,
        i.csr_we as u8,
        i.csr_addr & pft_hdl::regs::ADDR_MASK,
        i.csr_wdata,
        o.send as u8,
        o.congested as u8,
        o.throttled as u8,
        o.used_credits,
        o.csr_rdata
    )
}

/// Drive `engine` with the random stimulus of `mode`/`seed` for `cycles` cycles and write
/// every cycle's inputs and outputs to `path`.
pub fn record(
    engine: &mut impl Engine,
    mode: Mode,
    seed: u64,
    cycles: u64,
    path: &Path,
) -> io::Result<()> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    let mut stim = RandomStimulus::new(mode, seed);
    let mut prev = Outputs::default();
    for _ in 0..cycles {
        let i = stim.next(&prev);
        prev = engine.step(&i);
        w.write_all(format_line(&i, &prev).as_bytes())?;
    }
    w.flush()
}
