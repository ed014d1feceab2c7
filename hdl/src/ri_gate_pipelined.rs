//! RI gate of the pipelined build: the generator of `RiGate` run one step ahead, with the
//! compare against the level done a cycle ahead.

use crate::regs::RESET_SEED;
use rust_hdl::prelude::*;

/// Random-interval gate, decision precomputed. `r` is the same xorshift (13, 17, 5) sequence
/// as in `RiGate` (same seed, same reseed and reset). `ok` is a register:
///
/// ```text
///   ok(t+1) = !ovf(t) & ((r(t+1) & mask(t)) >= level(t))
/// ```
///
/// The generator's next output `xorshift(r)` is kept in its own register `ahead`, so `r(t+1)`
/// is one multiplexer away (reset seed, SEED write, or `ahead`) and the xor network is off
/// the compare's path.
#[derive(LogicBlock)]
pub struct RiGatePipelined {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: r to the reset seed.
    pub reset: Signal<In, Bit>,
    /// Load `seed` into the generator (a SEED write).
    pub reseed: Signal<In, Bit>,
    /// The value a SEED write loads (never 0).
    pub seed: Signal<In, Bits<32>>,
    /// The level register L (modulo 2^32).
    pub level: Signal<In, Bits<32>>,
    /// L >= 2^32.
    pub level_ovf: Signal<In, Bit>,
    /// The bits of r compared with the level (SHAPE.r_width decoded).
    pub mask: Signal<In, Bits<32>>,
    /// The gate is open this cycle (decided last cycle).
    pub ok: Signal<Out, Bit>,
    /// The generator's current output.
    pub r: Signal<Out, Bits<32>>,
    reset_seed: Constant<Bits<32>>,
    state: DFF<Bits<32>>,
    /// `xorshift(state)`.
    ahead: DFF<Bits<32>>,
    ok_q: DFF<Bit>,
    r_next: Signal<Local, Bits<32>>,
    s1: Signal<Local, Bits<32>>,
    x1: Signal<Local, Bits<32>>,
    s2: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    s3: Signal<Local, Bits<32>>,
    masked: Signal<Local, Bits<32>>,
}

impl Default for RiGatePipelined {
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
            ahead: Default::default(),
            ok_q: Default::default(),
            r_next: Default::default(),
            s1: Default::default(),
            x1: Default::default(),
            s2: Default::default(),
            x2: Default::default(),
            s3: Default::default(),
            masked: Default::default(),
        }
    }
}

impl Logic for RiGatePipelined {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, ahead, ok_q);
        if self.reset.val() {
            self.r_next.next = self.reset_seed.val();
        } else if self.reseed.val() {
            self.r_next.next = self.seed.val();
        } else {
            self.r_next.next = self.ahead.q.val();
        }
        self.state.d.next = self.r_next.val();
        // x ^= x << 13; x ^= x >> 17; x ^= x << 5, one step beyond r_next.
        self.s1.next = self.r_next.val() << 13;
        self.x1.next = self.r_next.val() ^ self.s1.val();
        self.s2.next = self.x1.val() >> 17;
        self.x2.next = self.x1.val() ^ self.s2.val();
        self.s3.next = self.x2.val() << 5;
        self.ahead.d.next = self.x2.val() ^ self.s3.val();
        self.masked.next = self.r_next.val() & self.mask.val();
        self.ok_q.d.next = !self.level_ovf.val() & (self.masked.val() >= self.level.val());
        self.ok.next = self.ok_q.q.val();
        self.r.next = self.state.q.val();
    }
}

#[test]
fn ri_gate_pipelined_synthesizes() {
    let mut uut = RiGatePipelined::default();
    uut.connect_all();
    yosys_validate("ri_gate_pipelined", &generate_verilog(&uut)).unwrap();
}
