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
/// The generator's next output is kept ready, already masked, in the register
/// `ahead_masked = xorshift(r) & mask` (loaded with the mask of its own cycle), so the usual
/// case is one compare between two registers; a reseed or reset compares the loaded seed
/// instead (from inputs). Each 32-bit compare is three 16-bit ones side by side:
/// `a >= b  <=>  a_hi > b_hi  or  (a_hi >= b_hi and a_lo >= b_lo)`.
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
    /// `mask` of the next cycle.
    pub mask_next: Signal<In, Bits<32>>,
    /// The gate is open this cycle (decided last cycle).
    pub ok: Signal<Out, Bit>,
    /// `ok` of the next cycle (the verdict being registered).
    pub ok_next: Signal<Out, Bit>,
    /// The generator's current output.
    pub r: Signal<Out, Bits<32>>,
    reset_seed: Constant<Bits<32>>,
    state: DFF<Bits<32>>,
    /// `xorshift(state) & mask`.
    ahead_masked: DFF<Bits<32>>,
    /// `xorshift(state)`.
    ahead: DFF<Bits<32>>,
    ok_q: DFF<Bit>,
    load: Signal<Local, Bit>,
    loaded: Signal<Local, Bits<32>>,
    r_next: Signal<Local, Bits<32>>,
    s1: Signal<Local, Bits<32>>,
    x1: Signal<Local, Bits<32>>,
    s2: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    s3: Signal<Local, Bits<32>>,
    x3: Signal<Local, Bits<32>>,
    lvl_hi: Signal<Local, Bits<16>>,
    lvl_lo: Signal<Local, Bits<16>>,
    a_hi: Signal<Local, Bits<16>>,
    a_lo: Signal<Local, Bits<16>>,
    a_ge: Signal<Local, Bit>,
    loaded_masked: Signal<Local, Bits<32>>,
    l_hi: Signal<Local, Bits<16>>,
    l_lo: Signal<Local, Bits<16>>,
    l_ge: Signal<Local, Bit>,
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
            mask_next: Default::default(),
            ok: Default::default(),
            r: Default::default(),
            reset_seed: Constant::new((RESET_SEED as u64).into()),
            state: Default::default(),
            ahead_masked: Default::default(),
            ahead: Default::default(),
            ok_q: Default::default(),
            ok_next: Default::default(),
            load: Default::default(),
            loaded: Default::default(),
            r_next: Default::default(),
            s1: Default::default(),
            x1: Default::default(),
            s2: Default::default(),
            x2: Default::default(),
            s3: Default::default(),
            x3: Default::default(),
            lvl_hi: Default::default(),
            lvl_lo: Default::default(),
            a_hi: Default::default(),
            a_lo: Default::default(),
            a_ge: Default::default(),
            loaded_masked: Default::default(),
            l_hi: Default::default(),
            l_lo: Default::default(),
            l_ge: Default::default(),
        }
    }
}

impl Logic for RiGatePipelined {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, ahead_masked, ahead, ok_q);
        self.load.next = self.reset.val() | self.reseed.val();
        if self.reset.val() {
            self.loaded.next = self.reset_seed.val();
        } else {
            self.loaded.next = self.seed.val();
        }
        if self.load.val() {
            self.r_next.next = self.loaded.val();
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
        self.x3.next = self.x2.val() ^ self.s3.val();
        self.ahead.d.next = self.x3.val();
        self.ahead_masked.d.next = self.x3.val() & self.mask_next.val();
        // (r(t+1) & mask) >= level, split in halves.
        self.lvl_hi.next = self.level.val().get_bits::<16>(16);
        self.lvl_lo.next = self.level.val().get_bits::<16>(0);
        self.a_hi.next = self.ahead_masked.q.val().get_bits::<16>(16);
        self.a_lo.next = self.ahead_masked.q.val().get_bits::<16>(0);
        self.a_ge.next = (self.a_hi.val() > self.lvl_hi.val())
            | ((self.a_hi.val() >= self.lvl_hi.val()) & (self.a_lo.val() >= self.lvl_lo.val()));
        self.loaded_masked.next = self.loaded.val() & self.mask.val();
        self.l_hi.next = self.loaded_masked.val().get_bits::<16>(16);
        self.l_lo.next = self.loaded_masked.val().get_bits::<16>(0);
        self.l_ge.next = (self.l_hi.val() > self.lvl_hi.val())
            | ((self.l_hi.val() >= self.lvl_hi.val()) & (self.l_lo.val() >= self.lvl_lo.val()));
        if self.load.val() {
            self.ok_q.d.next = !self.level_ovf.val() & self.l_ge.val();
        } else {
            self.ok_q.d.next = !self.level_ovf.val() & self.a_ge.val();
        }
        self.ok.next = self.ok_q.q.val();
        self.ok_next.next = self.ok_q.d.val();
        self.r.next = self.state.q.val();
    }
}

#[test]
fn ri_gate_pipelined_synthesizes() {
    let mut uut = RiGatePipelined::default();
    uut.connect_all();
    yosys_validate("ri_gate_pipelined", &generate_verilog(&uut)).unwrap();
}
