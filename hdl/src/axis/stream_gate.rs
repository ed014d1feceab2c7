//! `StreamGate`: the AXI-Stream side of `pft_axis`, an output register with the packet
//! boundary tracker and the pause mask in front of PFT's send decision.

use rust_hdl::prelude::*;

/// Offers the beat at `s_axis` to PFT as a flit and moves it into the output register in the
/// cycle PFT sends it (`send`, from `PftInjector`), which is also `s_axis_tready`. The
/// register drives `m_axis` and holds its beat until `m_axis_tready`, so `m_axis_tvalid`
/// never falls before a handshake and data, keep, last and user are stable while stalled.
///
/// ```text
///  s_axis_* ---+--> [out register: valid data keep last user] ---> m_axis_*
///              |            ^ load on send           ^ m_axis_tready drains it
///  pause ------+--> flit_valid = s_tvalid & room & !(pause & head)  ---> PftInjector
///  in_packet ----> flit_head = !in_packet                            ---> PftInjector
/// ```
///
/// `room = !valid | m_axis_tready`: one beat per cycle when the MAC keeps up, one cycle of
/// latency. `in_packet` is set by a sent beat without `tlast` and cleared by one with it, so
/// `flit_head` marks a packet's first beat; `pause` holds back only first beats (a packet
/// already started is never stopped by it). `rst` (synchronous) empties the register and
/// forgets a started packet; `m_tvalid` is low in its cycles (AXI-Stream: TVALID low during
/// reset), so a beat held in the register is dropped, never taken in a reset cycle.
#[derive(LogicBlock)]
pub struct StreamGate<const D: usize, const K: usize, const U: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Upstream beat.
    pub s_tdata: Signal<In, Bits<D>>,
    pub s_tkeep: Signal<In, Bits<K>>,
    pub s_tvalid: Signal<In, Bit>,
    pub s_tlast: Signal<In, Bit>,
    pub s_tuser: Signal<In, Bits<U>>,
    /// The MAC takes the presented beat this cycle (with `m_tvalid`).
    pub m_tready: Signal<In, Bit>,
    /// No new packet may start (PFC/LLFC pause).
    pub pause: Signal<In, Bit>,
    /// PFT sends the offered flit this cycle: the beat moves into the register.
    pub send: Signal<In, Bit>,
    /// The flit offered to PFT: a beat, room for it, and not a first beat under pause.
    pub flit_valid: Signal<Out, Bit>,
    /// The offered beat is a packet's first.
    pub flit_head: Signal<Out, Bit>,
    /// The presented beat.
    pub m_tdata: Signal<Out, Bits<D>>,
    pub m_tkeep: Signal<Out, Bits<K>>,
    pub m_tvalid: Signal<Out, Bit>,
    pub m_tlast: Signal<Out, Bit>,
    pub m_tuser: Signal<Out, Bits<U>>,
    /// A packet has started at the input and its last beat has not been sent.
    pub in_packet: Signal<Out, Bit>,
    valid: DFF<Bit>,
    data: DFF<Bits<D>>,
    keep: DFF<Bits<K>>,
    last: DFF<Bit>,
    user: DFF<Bits<U>>,
    started: DFF<Bit>,
    room: Signal<Local, Bit>,
}

impl<const D: usize, const K: usize, const U: usize> Default for StreamGate<D, K, U> {
    fn default() -> Self {
        assert!(K * 8 == D, "tkeep has one bit per byte of tdata");
        assert!(U >= 1, "tuser has at least one bit");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_tdata: Default::default(),
            s_tkeep: Default::default(),
            s_tvalid: Default::default(),
            s_tlast: Default::default(),
            s_tuser: Default::default(),
            m_tready: Default::default(),
            pause: Default::default(),
            send: Default::default(),
            flit_valid: Default::default(),
            flit_head: Default::default(),
            m_tdata: Default::default(),
            m_tkeep: Default::default(),
            m_tvalid: Default::default(),
            m_tlast: Default::default(),
            m_tuser: Default::default(),
            in_packet: Default::default(),
            valid: Default::default(),
            data: Default::default(),
            keep: Default::default(),
            last: Default::default(),
            user: Default::default(),
            started: Default::default(),
            room: Default::default(),
        }
    }
}

impl<const D: usize, const K: usize, const U: usize> Logic for StreamGate<D, K, U> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, data, keep, last, user, started);
        self.room.next = !self.valid.q.val() | self.m_tready.val();
        self.flit_head.next = !self.started.q.val();
        self.flit_valid.next =
            self.s_tvalid.val() & self.room.val() & !(self.pause.val() & !self.started.q.val());
        // The MAC took the presented beat: the register empties unless a beat moves in.
        if self.m_tready.val() {
            self.valid.d.next = false;
        }
        if self.send.val() {
            self.valid.d.next = true;
            self.data.d.next = self.s_tdata.val();
            self.keep.d.next = self.s_tkeep.val();
            self.last.d.next = self.s_tlast.val();
            self.user.d.next = self.s_tuser.val();
            self.started.d.next = !self.s_tlast.val();
        }
        self.m_tdata.next = self.data.q.val();
        self.m_tkeep.next = self.keep.q.val();
        // (AXI-Stream: TVALID low during reset, a beat held in the register included)
        self.m_tvalid.next = self.valid.q.val() & !self.reset.val();
        self.m_tlast.next = self.last.q.val();
        self.m_tuser.next = self.user.q.val();
        self.in_packet.next = self.started.q.val();
        if self.reset.val() {
            self.valid.d.next = false;
            self.started.d.next = false;
        }
    }
}

#[test]
fn stream_gate_synthesizes() {
    let mut uut = StreamGate::<64, 8, 1>::default();
    uut.connect_all();
    yosys_validate("axis_stream_gate", &generate_verilog(&uut)).unwrap();
}
