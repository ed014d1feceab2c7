//! Multiplier by a synthesis-time constant, built from shifts and adds (no multiplier cell).

use rust_hdl::prelude::*;

/// Bits of the constant: `k < 2^MUL_TERMS` (the gather duration `g <= 256` needs 9).
pub const MUL_TERMS: usize = 9;

/// `y = (x * k) mod 2^N` for a constant `0 <= k < 512`: the sum of `x << i` over the set
/// bits `i` of `k`. The same sum is the two's-complement product when `x` is a signed value
/// sign-extended to N bits (the estimator uses it so). The terms of `k`'s clear bits are
/// masked with a zero constant; Yosys folds them and their adders away, so the block costs
/// popcount(k) - 1 adders of N bits: none for a power of two (`g = 32`), one for `g = 48`,
/// and its output is the constant 0 for `k = 0`.
///
/// ```text
///          +-----------------------------+
///  x[N] -->|  sum of (x << i) & mask_i   |--> y[N]
///          +-----------------------------+
/// ```
#[derive(LogicBlock)]
pub struct ConstMul<const N: usize> {
    /// The multiplicand (unsigned, or two's complement sign-extended to N bits).
    pub x: Signal<In, Bits<N>>,
    /// `x * k`, modulo 2^N.
    pub y: Signal<Out, Bits<N>>,
    // mask_i: all ones if bit i of k is set, else 0 (derived in new(): do not override).
    mask0: Constant<Bits<N>>,
    mask1: Constant<Bits<N>>,
    mask2: Constant<Bits<N>>,
    mask3: Constant<Bits<N>>,
    mask4: Constant<Bits<N>>,
    mask5: Constant<Bits<N>>,
    mask6: Constant<Bits<N>>,
    mask7: Constant<Bits<N>>,
    mask8: Constant<Bits<N>>,
    term1: Signal<Local, Bits<N>>,
    term2: Signal<Local, Bits<N>>,
    term3: Signal<Local, Bits<N>>,
    term4: Signal<Local, Bits<N>>,
    term5: Signal<Local, Bits<N>>,
    term6: Signal<Local, Bits<N>>,
    term7: Signal<Local, Bits<N>>,
    term8: Signal<Local, Bits<N>>,
}

impl<const N: usize> ConstMul<N> {
    /// A multiplier by `k`. Panics unless `k < 2^MUL_TERMS` and `N >= MUL_TERMS` (each term
    /// is a shift of `x` by at most 8 inside N bits).
    pub fn new(k: u32) -> Self {
        assert!(
            k < 1 << MUL_TERMS,
            "ConstMul: k = {k} needs more than {MUL_TERMS} bits"
        );
        assert!(N >= MUL_TERMS, "ConstMul: N = {N} is below {MUL_TERMS}");
        let ones = if N >= 64 { u64::MAX } else { (1u64 << N) - 1 };
        let mask = |i: u32| -> Constant<Bits<N>> {
            let m = if k >> i & 1 == 1 { ones } else { 0 };
            Constant::new(m.into())
        };
        Self {
            x: Default::default(),
            y: Default::default(),
            mask0: mask(0),
            mask1: mask(1),
            mask2: mask(2),
            mask3: mask(3),
            mask4: mask(4),
            mask5: mask(5),
            mask6: mask(6),
            mask7: mask(7),
            mask8: mask(8),
            term1: Default::default(),
            term2: Default::default(),
            term3: Default::default(),
            term4: Default::default(),
            term5: Default::default(),
            term6: Default::default(),
            term7: Default::default(),
            term8: Default::default(),
        }
    }
}

impl<const N: usize> Logic for ConstMul<N> {
    #[hdl_gen]
    fn update(&mut self) {
        // Each shift lands in an N-bit Local, so Verilog truncates it as Rust does.
        self.term1.next = self.x.val() << 1;
        self.term2.next = self.x.val() << 2;
        self.term3.next = self.x.val() << 3;
        self.term4.next = self.x.val() << 4;
        self.term5.next = self.x.val() << 5;
        self.term6.next = self.x.val() << 6;
        self.term7.next = self.x.val() << 7;
        self.term8.next = self.x.val() << 8;
        self.y.next = (self.x.val() & self.mask0.val())
            + (self.term1.val() & self.mask1.val())
            + (self.term2.val() & self.mask2.val())
            + (self.term3.val() & self.mask3.val())
            + (self.term4.val() & self.mask4.val())
            + (self.term5.val() & self.mask5.val())
            + (self.term6.val() & self.mask6.val())
            + (self.term7.val() & self.mask7.val())
            + (self.term8.val() & self.mask8.val());
    }
}

#[test]
fn const_mul_synthesizes() {
    let mut uut = ConstMul::<27>::new(48);
    uut.connect_all();
    yosys_validate("selftuned_const_mul", &generate_verilog(&uut)).unwrap();
}

#[test]
fn const_mul_multiplies_modulo_2_to_the_n() {
    for k in [0u32, 1, 4, 32, 48, 75, 100, 255, 256, 511] {
        let mut uut = ConstMul::<27>::new(k);
        uut.connect_all();
        for x in [0u64, 1, 3, 1000, 65_535, (1 << 27) - 1, (1 << 27) - 131_070] {
            uut.x.next = x.into();
            assert!(simulate(&mut uut, 100));
            let want = (x * k as u64) & ((1 << 27) - 1);
            assert_eq!(uut.y.val().index() as u64, want, "x = {x}, k = {k}");
        }
    }
}
