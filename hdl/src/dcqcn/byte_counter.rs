//! DCQCN's byte counter at a packet start: combinational, one per port.

use super::model::{Params, BYTE_BITS, FLIT_BITS};
use rust_hdl::prelude::*;

/// Bits of the byte counter's register (`model::BYTE_BITS`).
pub const WB: usize = BYTE_BITS as usize;
/// Bits of a packet's length (`model::FLIT_BITS`).
pub const LB: usize = FLIT_BITS as usize;

/// The byte counter of the flow that starts a packet, cycle-exact to `dcqcn::model` (step 4
/// of a cycle): `sum = bytes + flits`; at `byte_counter` or above, `fired` (one
/// byte-counter event; not `event`, a Verilog keyword), `bytes_next = sum - byte_counter` and `bc_next = bc + 1`
/// (saturating at 255); else `bytes_next = sum`, `bc_next = bc`. The flow's slot keeps the
/// result only while the flow is limited. Bytes are counted in flits; `byte_counter` is at
/// least the longest packet and at most 2^18, so one event per start suffices and the sum
/// fits 19 bits. One packet starts per cycle, so the port has one, fed with the starting
/// flow's register by a multiplexer.
///
/// ```text
///                 +-----------------------------------------------+
///  bytes[19] ---->|  sum = bytes + flits                          |---> bytes_next[19]
///  flits[7] ----->|  fired = sum >= byte_counter                  |---> fired
///  bc[8] -------->|  bytes_next = fired ? sum - byte_counter : sum |---> bc_next[8]
///                 +-----------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct ByteCounter {
    /// The flow's flits towards its next event (after this cycle's CNP).
    pub bytes: Signal<In, Bits<WB>>,
    /// The starting packet's length.
    pub flits: Signal<In, Bits<LB>>,
    /// The flow's byte-counter events since its last CNP (after this cycle's CNP).
    pub bc: Signal<In, Bits<8>>,
    /// The flits towards the next event after this start.
    pub bytes_next: Signal<Out, Bits<WB>>,
    /// This start ends a byte-counter period.
    pub fired: Signal<Out, Bit>,
    /// The events after this start.
    pub bc_next: Signal<Out, Bits<8>>,
    // Parameters (derived in new(): do not override).
    limit: Constant<Bits<WB>>,
    // Wires.
    sum: Signal<Local, Bits<WB>>,
    hit: Signal<Local, Bit>,
}

impl ByteCounter {
    /// The byte counter of `p`. Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("ByteCounter: {e}");
        }
        Self {
            bytes: Default::default(),
            flits: Default::default(),
            bc: Default::default(),
            bytes_next: Default::default(),
            fired: Default::default(),
            bc_next: Default::default(),
            limit: Constant::new((p.byte_counter as u64).into()),
            sum: Default::default(),
            hit: Default::default(),
        }
    }
}

impl Logic for ByteCounter {
    #[hdl_gen]
    fn update(&mut self) {
        self.sum.next = self.bytes.val() + bit_cast::<WB, LB>(self.flits.val());
        self.hit.next = self.sum.val() >= self.limit.val();
        self.bytes_next.next = self.sum.val();
        self.bc_next.next = self.bc.val();
        if self.hit.val() {
            self.bytes_next.next = self.sum.val() - self.limit.val();
            if self.bc.val() != 255 {
                self.bc_next.next = self.bc.val() + 1;
            }
        }
        self.fired.next = self.hit.val();
    }
}

#[test]
fn byte_counter_synthesizes() {
    let mut uut = ByteCounter::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_byte_counter", &generate_verilog(&uut)).unwrap();
}
