//! The tuner's two bandwidth rules: a drop against the previous period and "far below the
//! best", as compares of constant multiples (no divider, no multiplier).

use super::const_mul::ConstMul;
use super::model::Params;
#[cfg(test)]
use super::SEED;
use rust_hdl::prelude::*;

/// Bits of the scaled bandwidths compared by the drop and reset rules: a 24-bit count times
/// a factor of at most 100 (7 bits).
pub const SCALED_BITS: usize = 31;

/// `bw = bw_acc + snap_flits` (the period's flits, 24 bits), and the rules
/// `dropped = bw * 100 < drop_pct * bw_prev` and `far_below = bw * 100 < reset_pct * max_bw`.
/// Each side is scaled by `100 / gcd(100, pct)` and `pct / gcd(100, pct)` instead (for
/// 75 %: `4 * bw < 3 * bw_prev`), exact for integers, in [`ConstMul`]s of shifts and adds;
/// `reset_pct = 0` gives `bw * 1 < 0`, constant false, which Yosys removes.
///
/// ```text
///                +-----------------------------------+
///  bw_acc[24] -->|  bw = bw_acc + snap_flits         |---> bw[24]
///  snap_flits -->|  bw * a_drop  <  bw_prev * b_drop |---> dropped
///  bw_prev[24]-->|  bw * a_reset <  max_bw * b_reset |---> far_below
///  max_bw[24] -->|                                   |
///                +-----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct BwRules {
    /// Flits of the period's earlier snapshots.
    pub bw_acc: Signal<In, Bits<24>>,
    /// Flits of this cycle's snapshot.
    pub snap_flits: Signal<In, Bits<24>>,
    /// Flits of the previous tuning period.
    pub bw_prev: Signal<In, Bits<24>>,
    /// The best period's flits so far.
    pub max_bw: Signal<In, Bits<24>>,
    /// The period's flits with this snapshot's (modulo 2^24).
    pub bw: Signal<Out, Bits<24>>,
    /// A drop: `bw * 100 < drop_pct * bw_prev`.
    pub dropped: Signal<Out, Bit>,
    /// Far below the best: `bw * 100 < reset_pct * max_bw`.
    pub far_below: Signal<Out, Bit>,
    /// `bw * (100 / gcd)` of the drop rule.
    pub mul_bw_drop: ConstMul<SCALED_BITS>,
    /// `bw_prev * (drop_pct / gcd)`.
    pub mul_prev: ConstMul<SCALED_BITS>,
    /// `bw * (100 / gcd)` of the reset rule.
    pub mul_bw_reset: ConstMul<SCALED_BITS>,
    /// `max_bw * (reset_pct / gcd)`.
    pub mul_max: ConstMul<SCALED_BITS>,
    sum: Signal<Local, Bits<24>>,
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `bw * 100 < pct * other` as `bw * a < other * b` with `a / b = 100 / pct` reduced:
/// `(a, b)`. For pct = 0 this is `(1, 0)`: the compare is constant false.
pub fn scaled_pct(pct: u32) -> (u32, u32) {
    let d = gcd(100, pct);
    (100 / d, pct / d)
}

impl BwRules {
    /// The rules of `p` (its `drop_pct` and `reset_pct`). Panics if `p` does not pass
    /// `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("BwRules: {e}");
        }
        let (a_drop, b_drop) = scaled_pct(p.drop_pct);
        let (a_reset, b_reset) = scaled_pct(p.reset_pct);
        Self {
            bw_acc: Default::default(),
            snap_flits: Default::default(),
            bw_prev: Default::default(),
            max_bw: Default::default(),
            bw: Default::default(),
            dropped: Default::default(),
            far_below: Default::default(),
            mul_bw_drop: ConstMul::new(a_drop),
            mul_prev: ConstMul::new(b_drop),
            mul_bw_reset: ConstMul::new(a_reset),
            mul_max: ConstMul::new(b_reset),
            sum: Default::default(),
        }
    }
}

impl Logic for BwRules {
    #[hdl_gen]
    fn update(&mut self) {
        // The sum lands in a 24-bit Local (wraps as in Rust), then widens.
        self.sum.next = self.bw_acc.val() + self.snap_flits.val();
        self.mul_bw_drop.x.next = bit_cast::<SCALED_BITS, 24>(self.sum.val());
        self.mul_prev.x.next = bit_cast::<SCALED_BITS, 24>(self.bw_prev.val());
        self.mul_bw_reset.x.next = bit_cast::<SCALED_BITS, 24>(self.sum.val());
        self.mul_max.x.next = bit_cast::<SCALED_BITS, 24>(self.max_bw.val());
        self.dropped.next = self.mul_bw_drop.y.val() < self.mul_prev.y.val();
        self.far_below.next = self.mul_bw_reset.y.val() < self.mul_max.y.val();
        self.bw.next = self.sum.val();
    }
}

#[test]
fn bw_rules_synthesizes() {
    let mut uut = BwRules::new(&SEED);
    uut.connect_all();
    yosys_validate("selftuned_bw_rules", &generate_verilog(&uut)).unwrap();
}

#[test]
fn the_percent_rules_reduce_to_small_constants() {
    assert_eq!(scaled_pct(75), (4, 3));
    assert_eq!(scaled_pct(100), (1, 1));
    assert_eq!(scaled_pct(0), (1, 0));
    assert_eq!(scaled_pct(1), (100, 1));
    assert_eq!(scaled_pct(90), (10, 9));
    // exact: bw * 100 < pct * x  <=>  bw * a < x * b, over a grid
    for pct in 0..=100u32 {
        let (a, b) = scaled_pct(pct);
        for bw in (0..3000u64).step_by(7) {
            for x in (0..3000u64).step_by(11) {
                assert_eq!(bw * 100 < pct as u64 * x, bw * (a as u64) < x * (b as u64));
            }
        }
    }
}

#[test]
fn the_rules_at_the_widest_counts() {
    let top = (1u64 << 24) - 1;
    for pct in [1u32, 50, 75, 99, 100] {
        let p = Params {
            drop_pct: pct,
            reset_pct: pct,
            ..SEED
        };
        let mut uut = BwRules::new(&p);
        uut.connect_all();
        for (acc, flits, other) in [
            (0, 0, 0),
            (top, 0, top),
            (top - 1, 0, top),
            (0, top, top / 2),
            (top / 2, top / 2, top),
            (100, 0, 134),
        ] {
            uut.bw_acc.next = acc.into();
            uut.snap_flits.next = flits.into();
            uut.bw_prev.next = other.into();
            uut.max_bw.next = other.into();
            assert!(simulate(&mut uut, 100));
            let bw = (acc + flits) & top;
            let want = bw * 100 < pct as u64 * other;
            assert_eq!(uut.bw.val().index() as u64, bw);
            assert_eq!(uut.dropped.val(), want, "pct {pct}, bw {bw}, other {other}");
            assert_eq!(
                uut.far_below.val(),
                want,
                "pct {pct}, bw {bw}, other {other}"
            );
        }
    }
}
