//! The self-tuned throttle's estimator and gate: the extrapolated full-buffer count against
//! the threshold, as a margin register updated by one add per cycle.

use super::const_mul::ConstMul;
use super::model::{Params, AGE_BITS, COUNT_BITS};
#[cfg(test)]
use super::SEED;
use rust_hdl::prelude::*;

/// Bits of the margin register (two's complement). The model's estimate times g,
/// `E = S0*g + (S0 - S1)*(g + age)`, lies in `-(2^16-1)*511 ..= (2^16-1)*767` (g <= 256,
/// age < g), and `T*g` in `0 ..= (2^16-1)*256`, so `E - T*g` fits 27 bits signed.
pub const MARGIN_BITS: usize = 27;

// The model's widths are the ports' (Bits<16>, Bits<8>).
const _: () = assert!(
    COUNT_BITS == 16 && AGE_BITS == 8,
    "the ports are 16 and 8 bits wide"
);

/// Gate of one node: `inhibit` is the model's `S0*g + (S0 - S1)*(g + age) > T*g`, read
/// from registers in the cycle (a snapshot arriving in cycle t counts from t+1).
///
/// No multiplier by the variable `g + age`: the block keeps the margin
/// `M = S0*g + (S0 - S1)*(g + age) - T*g` in a register and `inhibit = M > 0`.
/// - A snapshot loads `M = g * (S0' + (S0' - S0) - T')` (linear, from the second snapshot
///   on) or `g * (S0' - T')` (the first snapshot, or `linear` off), where `S0'` is the new
///   count and `T'` the threshold in force from the next cycle (the tuner changes T only in
///   a snapshot's cycle). `* g` is [`ConstMul`]: shifts and adds.
/// - Between snapshots `age` steps up to `g - 1`, and each step adds the slope
///   `S0 - S1` to M (with linear extrapolation and two snapshots seen).
/// - Reset: `M = -t_init * g`, so before any snapshot `M <= 0` and nothing is inhibited
///   (the model's "estimate 0, no inhibit"), with no `seen` test in the gate.
///
/// The slope `S0 - S1` is kept instead of `S1` (17 bits, two's complement); `S1 = S0 - slope`.
///
/// ```text
///                    +---------------------------------------+
///  snap_valid ------>|  s0, slope, seen, age                 |---> inhibit
///  snap_full[16] --->|  margin = E - T*g  (27-bit register)  |---> margin[27]
///  threshold_next -->|  * g : ConstMul (shifts and adds)     |
///  clock, reset ---->|                                       |
///                    +---------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Estimator {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no snapshot seen, margin `-t_init * g`.
    pub reset: Signal<In, Bit>,
    /// A snapshot arrives this cycle.
    pub snap_valid: Signal<In, Bit>,
    /// Its full-buffer count (`S0` from the next cycle).
    pub snap_full: Signal<In, Bits<16>>,
    /// The threshold in force from the next cycle (the tuner's, T or the tuned value).
    pub threshold_next: Signal<In, Bits<16>>,
    /// New packets may not start: the estimate exceeds the threshold (`margin > 0`).
    pub inhibit: Signal<Out, Bit>,
    /// `estimate * g - T * g`, two's complement (observation; the gate's operand).
    pub margin: Signal<Out, Bits<MARGIN_BITS>>,
    /// `* g` of the snapshot's margin.
    pub mul_g: ConstMul<MARGIN_BITS>,
    // Parameters (derived in new(): do not override).
    linear: Constant<Bit>,
    age_max: Constant<Bits<8>>,
    margin_init: Constant<Bits<MARGIN_BITS>>,
    sign_fill: Constant<Bits<MARGIN_BITS>>,
    sign_fill18: Constant<Bits<MARGIN_BITS>>,
    // State.
    s0: DFF<Bits<16>>,
    slope: DFF<Bits<17>>,
    seen_one: DFF<Bit>,
    seen_two: DFF<Bit>,
    age: DFF<Bits<8>>,
    margin_q: DFF<Bits<MARGIN_BITS>>,
    full_w: Signal<Local, Bits<18>>,
    s0_w: Signal<Local, Bits<18>>,
    thr_w: Signal<Local, Bits<18>>,
    slope_new: Signal<Local, Bits<18>>,
    slope_used: Signal<Local, Bits<18>>,
    over_t: Signal<Local, Bits<18>>,
    operand: Signal<Local, Bits<18>>,
    operand_w: Signal<Local, Bits<MARGIN_BITS>>,
    slope_w: Signal<Local, Bits<MARGIN_BITS>>,
}

/// What the estimator's registers hold (for the tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EstimatorState {
    pub s0: u32,
    /// `S0 - S1`.
    pub slope: i64,
    /// Snapshots seen, saturating at 2.
    pub seen: u8,
    pub age: u32,
    /// `E - T*g`.
    pub margin: i64,
}

impl Estimator {
    /// The estimator for `p` (its `g` and `linear`, and `t_init` for the reset margin).
    /// Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Estimator: {e}");
        }
        let modulus = 1i64 << MARGIN_BITS;
        let init = (-(p.t_init as i64) * p.g as i64).rem_euclid(modulus) as u64;
        // Sign extension: the bits above a 17-bit slope, and above an 18-bit operand.
        let fill = (modulus as u64 - 1) & !((1u64 << 17) - 1);
        let fill18 = (modulus as u64 - 1) & !((1u64 << 18) - 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            snap_valid: Default::default(),
            snap_full: Default::default(),
            threshold_next: Default::default(),
            inhibit: Default::default(),
            margin: Default::default(),
            mul_g: ConstMul::new(p.g),
            linear: Constant::new(p.linear),
            age_max: Constant::new(((p.g - 1) as u64).into()),
            margin_init: Constant::new(init.into()),
            sign_fill: Constant::new(fill.into()),
            sign_fill18: Constant::new(fill18.into()),
            s0: Default::default(),
            slope: Default::default(),
            seen_one: Default::default(),
            seen_two: Default::default(),
            age: Default::default(),
            margin_q: Default::default(),
            full_w: Default::default(),
            s0_w: Default::default(),
            thr_w: Default::default(),
            slope_new: Default::default(),
            slope_used: Default::default(),
            over_t: Default::default(),
            operand: Default::default(),
            operand_w: Default::default(),
            slope_w: Default::default(),
        }
    }

    /// The registers now (between two clock edges).
    pub fn state(&self) -> EstimatorState {
        let slope = self.slope.q.val().index() as i64;
        let margin = self.margin_q.q.val().index() as i64;
        EstimatorState {
            s0: self.s0.q.val().index() as u32,
            slope: slope - ((slope >> 16) << 17),
            seen: self.seen_one.q.val() as u8 + self.seen_two.q.val() as u8,
            age: self.age.q.val().index() as u32,
            margin: margin - ((margin >> (MARGIN_BITS - 1)) << MARGIN_BITS),
        }
    }
}

impl Logic for Estimator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s0, slope, seen_one, seen_two, age, margin_q);
        // The snapshot's margin over g, S0' - T' + slope (linear, from the second snapshot
        // on) or S0' - T', lies in -131070..=131070: 18 bits two's complement. Widen before
        // any arithmetic (Verilog sizes expressions differently from Rust).
        self.full_w.next = bit_cast::<18, 16>(self.snap_full.val());
        self.s0_w.next = bit_cast::<18, 16>(self.s0.q.val());
        self.thr_w.next = bit_cast::<18, 16>(self.threshold_next.val());
        // The new slope S0' - S0 (fits 17 bits signed).
        self.slope_new.next = self.full_w.val() - self.s0_w.val();
        self.over_t.next = self.full_w.val() - self.thr_w.val();
        self.slope_used.next = 0.into();
        if self.linear.val() & self.seen_one.q.val() {
            self.slope_used.next = self.slope_new.val();
        }
        self.operand.next = self.over_t.val() + self.slope_used.val();
        // Sign-extended to MARGIN_BITS for the product (it fits: |operand| * 256 < 2^26).
        if self.operand.val().get_bit(17) {
            self.operand_w.next =
                bit_cast::<MARGIN_BITS, 18>(self.operand.val()) | self.sign_fill18.val();
        } else {
            self.operand_w.next = bit_cast::<MARGIN_BITS, 18>(self.operand.val());
        }
        // The stored slope, sign-extended from 17 bits.
        if self.slope.q.val().get_bit(16) {
            self.slope_w.next =
                bit_cast::<MARGIN_BITS, 17>(self.slope.q.val()) | self.sign_fill.val();
        } else {
            self.slope_w.next = bit_cast::<MARGIN_BITS, 17>(self.slope.q.val());
        }
        self.mul_g.x.next = self.operand_w.val();

        if self.snap_valid.val() {
            self.s0.d.next = self.snap_full.val();
            self.slope.d.next = bit_cast::<17, 18>(self.slope_new.val());
            self.seen_one.d.next = true;
            self.seen_two.d.next = self.seen_one.q.val();
            self.age.d.next = 0.into();
            self.margin_q.d.next = self.mul_g.y.val();
        } else if self.age.q.val() != self.age_max.val() {
            // One cycle older: the extrapolation moves by one slope (E gains S0 - S1).
            self.age.d.next = self.age.q.val() + 1;
            if self.linear.val() & self.seen_two.q.val() {
                self.margin_q.d.next = self.margin_q.q.val() + self.slope_w.val();
            }
        }
        if self.reset.val() {
            self.s0.d.next = 0.into();
            self.slope.d.next = 0.into();
            self.seen_one.d.next = false;
            self.seen_two.d.next = false;
            self.age.d.next = 0.into();
            self.margin_q.d.next = self.margin_init.val();
        }
        // M > 0: not negative (bit 26, the sign) and not zero.
        self.inhibit.next = !self.margin_q.q.val().get_bit(26) & self.margin_q.q.val().any();
        self.margin.next = self.margin_q.q.val();
    }
}

#[test]
fn estimator_synthesizes() {
    let mut uut = Estimator::new(&SEED);
    uut.connect_all();
    yosys_validate("selftuned_estimator", &generate_verilog(&uut)).unwrap();
}

#[test]
#[should_panic(expected = "Estimator: g = 0")]
fn estimator_refuses_a_gather_of_zero_cycles() {
    Estimator::new(&Params { g: 0, ..SEED });
}
