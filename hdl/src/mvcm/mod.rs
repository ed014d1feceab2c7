//! MVCM (Marking and Validation Congestion Management, seed 004, Ferrer et al.): the
//! source side of one flow (one source-destination pair), which a simulator plug-in will
//! run and the RTL is tested against.
//!
//! - [`model`]: the plain-Rust reference model (event-ordered, no rust-hdl types): the
//!   constants ([`model::Params`], with [`model::Params::derived`] from the network
//!   configuration), and one flow's dynamic window, waiting slots and injection timer
//!   ([`model::Flow`]) under the ACKs' MB/VB bits and the fast reset.
//! - [`mvcm_flow::MvcmFlow`]: one flow in rust-hdl (Verilog top `mvcm_flow`), made of
//!   [`window::Window`] (`dw`, `out`, the ACK's action, the injection check),
//!   [`waiting::Waiting`] (the waiting slots' exponent), [`interval_rom::IntervalRom`]
//!   (`k^e * rtt_min - 1` as a table of constants) and [`countdown::Countdown`] (the cycles
//!   until `next_ok`).
//! - [`mvcm_flows::MvcmFlows`]: N flows in registers (Verilog tops `mvcm_flows<N>`), one
//!   [`mvcm_slot::MvcmSlot`] per flow with a [`deadline::Deadline`] against a shared
//!   counter, one shared interval table.
//! - [`stepper`]: the cycle mapping of the event-ordered model (ACK, then fast reset, then
//!   injection) and the RTL stepped by hand with the model's types.

pub mod countdown;
pub mod deadline;
pub mod interval_rom;
pub mod model;
pub mod mvcm_flow;
pub mod mvcm_flows;
pub mod mvcm_slot;
pub mod stepper;
pub mod verilog;
pub mod waiting;
pub mod window;

use model::Params;

/// The paper's 4-ary 5-fly (§4.3): 9 hops of 3 cycles, 1 B/cycle links, 256 B payload,
/// 22 B header and ACK, so `rtt_min = 354`, `dw_max = ceil(1.27) = 2`, k = 4, n = 5 and
/// `ws_max_incs = n` (`Params::derived(4, 5, 9, 3, 1, 256, 22, 22)`). The Verilog export
/// builds this one.
pub const PAPER: Params = Params {
    dw_max: 2,
    k: 4,
    n: 5,
    rtt_min: 354,
    ws_max_incs: 5,
};

#[test]
fn paper_is_the_derived_4_ary_5_fly() {
    assert_eq!(Params::derived(4, 5, 9, 3, 1, 256, 22, 22), Ok(PAPER));
}
