//! `SelftunedNode`: one node's self-tuned global throttle (seed 003), the estimator, the gate
//! and the tuner, cycle-exact to `selftuned::model::SelfTuned`.

use super::estimator::{Estimator, MARGIN_BITS};
use super::model::Params;
use super::tuner::Tuner;
use rust_hdl::prelude::*;

/// The top block. Every node holds one; the side-band delivers the same snapshot to all of
/// them in the same cycle. A snapshot arriving in cycle t (`snap_valid`) is used from cycle
/// t+1; the outputs of a cycle come from registers (no input reaches an output in the same
/// cycle). `reset` is synchronous: the cycle after it is the model's `SelfTuned::new`.
/// The constants (`Params`) are synthesis-time parameters given to `new()`.
///
/// ```text
///                  +---------------------------------+
///  snap_valid ---->|  estimator: s0, slope, age,     |---> inhibit
///  snap_full[16]-->|    margin = E - T*g, M > 0      |---> threshold[16]
///  snap_flits[24]->|  tuner: period, bw, max, T      |---> margin[27]
///  clock, reset -->|                                 |
///                  +---------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct SelftunedNode {
    /// Block clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (hold for at least one cycle after power-up).
    pub reset: Signal<In, Bit>,
    /// A snapshot of the side-band arrives this cycle.
    pub snap_valid: Signal<In, Bit>,
    /// The snapshot's network-wide count of full buffers.
    pub snap_full: Signal<In, Bits<16>>,
    /// The snapshot's network-wide flits delivered in its gather.
    pub snap_flits: Signal<In, Bits<24>>,
    /// New packets may not start this cycle.
    pub inhibit: Signal<Out, Bit>,
    /// The threshold T in force this cycle.
    pub threshold: Signal<Out, Bits<16>>,
    /// `estimate * g - T * g` (two's complement): the model's `estimate_g - T*g`.
    pub margin: Signal<Out, Bits<MARGIN_BITS>>,
    /// Extrapolated estimate and gate.
    pub estimator: Estimator,
    /// Hill-climbing tuner of T.
    pub tuner: Tuner,
}

impl SelftunedNode {
    /// The node's logic for the constants `p`. Panics, naming the constant, if `p` does not
    /// pass `Params::check` (every g of 1..=256 is built: `* g` is shifts and adds).
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("SelftunedNode: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            snap_valid: Default::default(),
            snap_full: Default::default(),
            snap_flits: Default::default(),
            inhibit: Default::default(),
            threshold: Default::default(),
            margin: Default::default(),
            estimator: Estimator::new(p),
            tuner: Tuner::new(p),
        }
    }
}

impl Logic for SelftunedNode {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, estimator, tuner);
        self.estimator.reset.next = self.reset.val();
        self.tuner.reset.next = self.reset.val();

        self.estimator.snap_valid.next = self.snap_valid.val();
        self.estimator.snap_full.next = self.snap_full.val();
        self.estimator.threshold_next.next = self.tuner.threshold_next.val();

        self.tuner.snap_valid.next = self.snap_valid.val();
        self.tuner.snap_full.next = self.snap_full.val();
        self.tuner.snap_flits.next = self.snap_flits.val();
        self.tuner.inhibit.next = self.estimator.inhibit.val();

        self.inhibit.next = self.estimator.inhibit.val();
        self.threshold.next = self.tuner.threshold.val();
        self.margin.next = self.estimator.margin.val();
    }
}

#[test]
fn selftuned_node_synthesizes() {
    let p = Params {
        g: 48,
        periods: 2,
        t_init: 30,
        inc: 30,
        dec: 122,
        t_ceiling: 3072,
        drop_pct: 75,
        reset_pct: 75,
        r: 5,
        linear: true,
    };
    let mut uut = SelftunedNode::new(&p);
    uut.connect_all();
    yosys_validate("selftuned_node", &generate_verilog(&uut)).unwrap();
}
