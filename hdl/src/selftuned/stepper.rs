//! Hand-stepped simulation of `SelftunedNode` (no threads), with the model's types: the
//! same call as `SelfTuned::step`, so a test can run both side by side.

use super::estimator::MARGIN_BITS;
use super::model::{Outputs, Params, SelfTuned, Snapshot};
use super::selftuned_node::SelftunedNode;
use rust_hdl::prelude::*;

/// The rust-hdl RTL of one node, stepped by hand: inputs change with the falling edge and
/// settle before the rising edge (no delta-cycle race).
pub struct SelftunedStepper {
    pub uut: Box<SelftunedNode>,
    pub p: Params,
}

/// Two's complement of `bits` bits as an i64.
pub fn signed(v: u64, bits: usize) -> i64 {
    let v = v as i64;
    v - ((v >> (bits - 1)) << bits)
}

impl SelftunedStepper {
    /// The block for `p`, at power-up (registers 0): step it once with `reset` before use.
    pub fn new(p: Params) -> Self {
        let mut uut = Box::new(SelftunedNode::new(&p));
        uut.connect_all();
        check_all(uut.as_ref()).expect("SelftunedNode fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        SelftunedStepper { uut, p }
    }

    /// One cycle: `reset` and the snapshot arriving in it. Returns the cycle's outputs as
    /// the model's `Outputs` (`estimate_g` = margin + T*g), then advances the clock.
    pub fn step(&mut self, reset: bool, snap: Option<Snapshot>) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.snap_valid.next = snap.is_some();
        let s = snap.unwrap_or_default();
        u.snap_full.next = (s.full as u64).into();
        u.snap_flits.next = (s.flits as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let out = self.outputs();
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// The outputs now (from the registers).
    pub fn outputs(&self) -> Outputs {
        let u = self.uut.as_ref();
        let threshold = u.threshold.val().index() as u32;
        let margin = self.margin();
        Outputs {
            inhibit: u.inhibit.val(),
            threshold,
            estimate_g: margin + threshold as i64 * self.p.g as i64,
        }
    }

    /// The `margin` output: estimate*g - T*g.
    pub fn margin(&self) -> i64 {
        signed(self.uut.margin.val().index() as u64, MARGIN_BITS)
    }

    /// The registers, as `Registers`.
    pub fn registers(&self) -> Registers {
        let e = self.uut.estimator.state();
        let t = self.uut.tuner.state();
        Registers {
            t: t.t,
            s0: e.s0,
            s1: (e.s0 as i64 - e.slope) as u32,
            seen: e.seen,
            age: e.age,
            in_period: t.in_period,
            bw_acc: t.bw_acc,
            throttling: t.throttling,
            bw_prev: t.bw_prev,
            max_bw: t.max_bw,
            t_back: t.t_back,
            resets: t.resets,
        }
    }
}

/// The state of the node as the RTL holds it, in the model's terms: the model's
/// `SelfTuned` but for `t_max` and `n_max`, of which the RTL keeps only the minimum (the
/// only value the tuner reads), and `s1`, which the RTL keeps as the slope `s0 - s1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Registers {
    pub t: u32,
    pub s0: u32,
    pub s1: u32,
    pub seen: u8,
    pub age: u32,
    pub in_period: u32,
    pub bw_acc: u32,
    pub throttling: bool,
    pub bw_prev: u32,
    pub max_bw: u32,
    /// `min(t_max, n_max)`.
    pub t_back: u32,
    pub resets: u32,
}

impl Registers {
    /// The model's state as the RTL's registers.
    pub fn of_model(m: &SelfTuned) -> Self {
        Registers {
            t: m.t,
            s0: m.s0,
            s1: m.s1,
            seen: m.seen,
            age: m.age,
            in_period: m.in_period,
            bw_acc: m.bw_acc,
            throttling: m.throttling,
            bw_prev: m.bw_prev,
            max_bw: m.max_bw,
            t_back: m.t_max.min(m.n_max),
            resets: m.resets,
        }
    }
}
