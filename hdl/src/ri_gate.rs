//! RI gate: the free-running 32-bit generator and its compare against the level.

use crate::regs::RESET_SEED;
use rust_hdl::prelude::*;

/// Random-interval gate. `r` is a 32-bit xorshift (13, 17, 5) generator: a linear
/// shift-xor register (an LFSR in the GF(2) sense) of period 2^32 - 1 that changes all 32
/// bits each cycle, so successive outputs are not shifted copies of each other (a plain
/// one-bit-per-cycle shift register would make successive send decisions strongly
/// correlated). `ok = (r & mask) >= f(c)`, `mask` the low `r_width` bits (SHAPE): P(send) =
/// max(0, 1 - f(c) / 2^r_width). `reseed` loads `seed`.
#[derive(LogicBlock)]
pub struct RiGate {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: r to the reset seed.
    pub reset: Signal<In, Bit>,
    /// Load `seed` into the generator (a SEED write).
    pub reseed: Signal<In, Bit>,
    /// The value a SEED write loads (never 0).
    pub seed: Signal<In, Bits<32>>,
    /// f(c) modulo 2^32.
    pub level: Signal<In, Bits<32>>,
    /// f(c) >= 2^32.
    pub level_ovf: Signal<In, Bit>,
    /// The bits of r compared with the level (SHAPE.r_width decoded).
    pub mask: Signal<In, Bits<32>>,
    /// The gate is open: `(r & mask) >= f(c)`.
    pub ok: Signal<Out, Bit>,
    /// The generator's current output.
    pub r: Signal<Out, Bits<32>>,
    reset_seed: Constant<Bits<32>>,
    state: DFF<Bits<32>>,
    s1: Signal<Local, Bits<32>>,
    x1: Signal<Local, Bits<32>>,
    s2: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    s3: Signal<Local, Bits<32>>,
    masked: Signal<Local, Bits<32>>,
}

impl Default for RiGate {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            reseed: Default::default(),
            seed: Default::default(),
            level: Default::default(),
            level_ovf: Default::default(),
            mask: Default::default(),
            ok: Default::default(),
            r: Default::default(),
            reset_seed: Constant::new((RESET_SEED as u64).into()),
            state: Default::default(),
            s1: Default::default(),
            x1: Default::default(),
            s2: Default::default(),
            x2: Default::default(),
            s3: Default::default(),
            masked: Default::default(),
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
        if self.reset.val() {
            self.state.d.next = self.reset_seed.val();
        }
        self.masked.next = self.state.q.val() & self.mask.val();
        self.ok.next = !self.level_ovf.val() & (self.masked.val() >= self.level.val());
        self.r.next = self.state.q.val();
    }
}

#[test]
fn ri_gate_synthesizes() {
    let mut uut = RiGate::default();
    uut.connect_all();
    yosys_validate("ri_gate", &generate_verilog(&uut)).unwrap();
}
