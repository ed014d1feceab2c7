//! InfiniBand CC's reaction state at a source NIC (IBA 1.2.1 Annex A10, seed 002): the
//! reference model, which the simulator's IB CC runs, and its rust-hdl modules.
//!
//! - [`model`]: the plain-Rust reference model (BECN, CCTI timer, IRD from the CCT; no
//!   clock, no rust-hdl types); `sim/src/cc/ibcc/nic.rs` calls it for every flow.
//! - [`ibcc_flow::IbccFlow`]: one flow with its port's shared parts (Verilog top
//!   `ibcc_flow`), made of [`ccti::Ccti`] (the flow's CCTI), [`cct::Cct`] (the table, a
//!   ROM), [`ird::Ird`] (`flits + IRD - 1`), [`ccti_timer::CctiTimer`] (the port's timer)
//!   and `mvcm::countdown::Countdown` (the cycles until `next_ok`).
//! - [`ibcc_flows::IbccFlows`]: N flows in registers (Verilog tops `ibcc_flows<N>`), one
//!   [`ibcc_slot::IbccSlot`] per flow with an `mvcm::deadline::Deadline`, the rest shared.
//! - [`stepper`]: the cycle mapping (BECN, then timer, then start) and the RTL stepped by
//!   hand with the model's types.

pub mod cct;
pub mod ccti;
pub mod ccti_timer;
pub mod ibcc_flow;
pub mod ibcc_flows;
pub mod ibcc_slot;
pub mod ird;
pub mod model;
pub mod stepper;
pub mod verilog;

use model::Params;

/// Table I's CCTI timer: 150 units of 1.024 us at the seed's 25.6 ns cycle (20 Gb/s, 64 B
/// flits) = 6,000 cycles.
pub const TABLE1_PERIOD: u64 = 6000;

/// A CCT of `limit + 1` random 16-bit entries (shift and multiplier anywhere in their
/// ranges; xorshift from `seed`): the ROM's worst case for the cost table.
pub fn random_cct(limit: u16, seed: u64) -> Vec<u16> {
    let mut x = seed | 1;
    (0..=limit)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 20) as u16
        })
        .collect()
}

/// Table I with a random CCT (`random_cct(127, 0x1bcc)`): the export of `--cct random`.
pub fn table1_random() -> Params {
    Params {
        cct: random_cct(127, 0x1bcc),
        ..Params::table1()
    }
}
