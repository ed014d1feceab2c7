//! RI gate: the free-running 32-bit random number generator.

use crate::regs::RESET_SEED;
use rust_hdl::prelude::*;

/// Random-interval gate. `r` is a 32-bit xorshift (13, 17, 5) generator: a linear
/// shift-xor register (an LFSR in the GF(2) sense) of period 2^32 - 1 whose every next bit
/// is the XOR of 3 to 7 bits, so successive outputs are not shifted copies of each other (a plain
/// one-bit-per-cycle shift register would make successive send decisions strongly
/// correlated). The RI gate is open when `(r & mask) >= f(c)` (compared in
/// `ThrottleCompare`), `mask` the low `r_width` bits (SHAPE): P(send) =
/// max(0, 1 - f(c) / 2^r_width). `reseed` loads `seed`, or the reset seed when `seed` is 0.
#[derive(LogicBlock)]
pub struct RiGate {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: r to the reset seed.
    pub reset: Signal<In, Bit>,
    /// Load `seed` into the generator (a SEED write).
    pub reseed: Signal<In, Bit>,
    /// The SEED write data (0 loads the reset seed: 0 would lock the generator).
    pub seed: Signal<In, Bits<32>>,
    /// The generator's current output.
    pub r: Signal<Out, Bits<32>>,
    reset_seed: Constant<Bits<32>>,
    state: DFF<Bits<32>>,
    s1: Signal<Local, Bits<32>>,
    x1: Signal<Local, Bits<32>>,
    s2: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    s3: Signal<Local, Bits<32>>,
    seed_zero: Signal<Local, Bit>,
}

impl Default for RiGate {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            reseed: Default::default(),
            seed: Default::default(),
            r: Default::default(),
            reset_seed: Constant::new((RESET_SEED as u64).into()),
            state: Default::default(),
            s1: Default::default(),
            x1: Default::default(),
            s2: Default::default(),
            x2: Default::default(),
            s3: Default::default(),
            seed_zero: Default::default(),
        }
    }
}

impl Logic for RiGate {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        // x ^= x << 13; x ^= x >> 17; x ^= x << 5 (each shift lands in a 32-bit Local).
        self.s1.next = self.state.q.val() << 13;
        self.x1.next = self.state.q.val() ^ self.s1.val();
        self.s2.next = self.x1.val() >> 17;
        self.x2.next = self.x1.val() ^ self.s2.val();
        self.s3.next = self.x2.val() << 5;
        self.state.d.next = self.x2.val() ^ self.s3.val();
        if self.reseed.val() {
            self.state.d.next = self.seed.val();
        }
        // A reseed with 0 loads the same constant as reset: one synchronous load, no mux.
        self.seed_zero.next = self.seed.val() == 0;
        if self.reset.val() | (self.reseed.val() & self.seed_zero.val()) {
            self.state.d.next = self.reset_seed.val();
        }
        self.r.next = self.state.q.val();
    }
}

#[test]
fn ri_gate_synthesizes() {
    let mut uut = RiGate::default();
    uut.connect_all();
    yosys_validate("ri_gate", &generate_verilog(&uut)).unwrap();
}
