//! The state records of a network: links, switches and their ports, NICs. Flat arrays
//! indexed by typed ids (`store`), the hot fields of a NIC in one cache line; `Network`
//! owns one of each.

use super::store::{Endpoint, EntryId, LinkId, MsgId, PktId, PortId, SwitchId, Table};
use std::collections::VecDeque;

/// A directed link: its flit channel one way, its credit channel back. (Used to build and
/// to check; the hot paths address receivers and senders directly.)
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    /// Sender: a NIC, or a global switch output port.
    pub tx: Endpoint,
    /// Receiver: a NIC, or a global switch input port.
    pub rx: Endpoint,
}

/// A switch's bit set over its local port (or lane) records: bit `l` is record `l`. 128
/// bits: the lane router's switches have ports x lanes records (a dragonfly of p = 8,
/// a = 16, h = 8 has 31 ports x 3 lanes = 93); today's switch and the CIOQ switch (at most
/// 64 ports) use the low 64.
pub type Mask = u128;

const _: () = assert!(Mask::BITS >= super::config::MAX_LANES);

/// A working copy of a switch's `Mask`, as wide as its records need: `u64` for up to 64
/// (a torus's 5 ports x 4 lanes), `u128` above. The lane router's scans run on it: a
/// `u128` shift by a run-time amount or scan takes several instructions where a `u64`'s
/// takes one (the 16-ary 2-cube with 4 lanes: 14 % fewer instructions in all on `u64`,
/// docs/performance.md).
pub(crate) trait LaneMask:
    Copy
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + std::ops::Sub<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// The low bits of a record mask (every bit of a switch with at most `Self`'s width).
    fn of(m: Mask) -> Self;
    /// `m` zero-extended (or as it is).
    fn from_u64(m: u64) -> Self;
    /// The low 64 bits.
    fn low(self) -> u64;
    /// As a record mask.
    fn wide(self) -> Mask;
    /// The lowest set bit's index (the width when none is set).
    fn tz(self) -> u32;
    /// `u64`: run only where every switch has at most 64 lane records (`Switches::narrow`).
    const NARROW: bool = Self::BITS == 64;
    const BITS: u32;
}

macro_rules! lane_mask {
    ($t:ty) => {
        impl LaneMask for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn of(m: Mask) -> Self {
                m as $t
            }
            #[inline(always)]
            fn from_u64(m: u64) -> Self {
                m as $t
            }
            #[inline(always)]
            fn low(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn wide(self) -> Mask {
                self as Mask
            }
            #[inline(always)]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
        }
    };
}
lane_mask!(u64);
lane_mask!(u128);

/// One switch.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SwState {
    /// Port 0.
    pub base: PortId,
    pub radix: u32,
    /// Ports that have a link.
    pub used_mask: Mask,
    /// Outputs locked to a packet in transmission.
    pub locked_out: Mask,
    /// Inputs transmitting a packet.
    pub locked_in: Mask,
    /// Inputs with at least one queued packet.
    pub queued: Mask,
    /// Entries (packets) held by the switch.
    pub resident: u32,
    /// Outputs whose link is paused (fault): they send nothing.
    pub paused_out: Mask,
    /// Free outputs reserved for one waiting input (`OutPort::resv`; arbitration
    /// `fair_bypass` or `reserve`).
    pub reserved_out: Mask,
    /// Lane router (not Disha): input lanes whose head found none of its candidate output
    /// lanes free and waits for one of them to free (`Switches::waiters`). Asking again
    /// before that would fail again: a head's candidates are fixed once it has asked.
    pub blocked: Mask,
}

impl SwState {
    /// Local port `p`.
    #[inline]
    pub fn port(&self, p: u32) -> PortId {
        PortId(self.base.0 + p)
    }
    /// The local number of port `g` (one of this switch's).
    #[inline]
    pub fn local(&self, g: PortId) -> u32 {
        g.0 - self.base.0
    }
    /// Lane router of `v` >= 2 lanes a port: is lane `l` (local) on a router-to-router
    /// port? (A NIC's port has lane 0 only, so its lane 1 is unused.)
    #[inline]
    pub fn router_lane(&self, l: u32, v: u32) -> bool {
        self.used_mask >> (l - l % v + 1) & 1 != 0
    }
    /// Did the packet in input lane `i` come on the escape lane (`base`, its class's lane
    /// 0) from another router? (`v` lanes a port.)
    #[inline]
    pub fn on_escape(&self, i: u32, v: u32, base: u32) -> bool {
        i % v == base && self.router_lane(i, v)
    }
}

/// A switch input port and its buffer. (A cache line each, so that no record spans two:
/// measured 1-1.5 % faster on the 16-ary 2-cube and ft128 with the release build, no gain
/// on ft128 with the `fast` one, docs/performance.md.)
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct InPort {
    /// Flits in the buffer.
    pub occ: u32,
    /// Entry of the packet whose flits are arriving (NONE between packets), its packet,
    /// flits arrived so far and length.
    pub arriving: EntryId,
    pub arr_pkt: PktId,
    pub arr_count: u16,
    pub arr_len: u16,
    /// The packet whose tail arrived last (to tell a duplicated flit from a lost one).
    pub last: PktId,
    pub sw: SwitchId,
    /// Queues (bit k: queue k) that hold a packet.
    pub nonempty: u64,
    /// The link feeding it.
    pub link: LinkId,
    /// Where its credits go: the link's sender, and its owner (`Network::owner_of`).
    pub credit_to: Endpoint,
    pub credit_owner: u32,
    /// Round-robin pointer over outputs (VOQ).
    pub rr: u8,
    /// Its local number at its switch (lanes included: < 128).
    pub local: u8,
    /// Outputs (local numbers) reserved for this input's next packet to each.
    pub resv: u64,
    /// Lane router: the cycle a flit last left this input lane or a head arrived into its
    /// empty queue (the per-lane stall watchdog). Here, not in an array beside: the flit
    /// move writes it with the record it already holds (it fills the record's cache line).
    pub moved_at: u64,
}

const _: () = assert!(std::mem::size_of::<InPort>() == 64);

/// A switch output port and the credit state of its link. (A cache line each, as
/// `InPort`.)
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct OutPort {
    /// Credits in use (flits sent and not yet credited back).
    pub used: u32,
    /// Credits of the link (the receiver's buffer).
    pub limit: u32,
    /// Entry of the packet being sent (NONE: free), the input holding it, its packet,
    /// flits sent so far and length.
    pub entry: EntryId,
    pub from: PortId,
    pub pkt: PktId,
    pub sent: u16,
    pub len: u16,
    pub link: LinkId,
    /// The link's receiver, and its owner (`Network::owner_of`).
    pub rx: Endpoint,
    pub rx_owner: u32,
    pub sw: SwitchId,
    /// Round-robin pointer over inputs.
    pub rr: u8,
    /// The input (local number) this free output waits for, if `SwState::reserved_out`
    /// has its bit.
    pub resv: u8,
    /// `fair_bypass`: the input whose turn it is while it waits for credits, and how many
    /// packets have overtaken it.
    pub turn: u8,
    pub bypassed: u8,
}

/// A switch's lanes as two 64-bit words, for masks set and cleared one lane at a time in
/// the flit path (`Switches::has_flit`): a lane's bit is one 64-bit operation, not a
/// 128-bit shift.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LaneBits([u64; 2]);

impl LaneBits {
    /// Every lane's bit.
    #[inline(always)]
    pub fn all(self) -> Mask {
        (self.0[1] as Mask) << 64 | self.0[0] as Mask
    }
    /// Set local lane `l`'s bit (`l` < 128).
    #[inline(always)]
    pub fn set(&mut self, l: u32) {
        self.0[(l as usize >> 6) & 1] |= 1 << (l & 63);
    }
    /// Clear the bits of `m` (a working copy of the switch's lane mask).
    #[inline(always)]
    pub fn clear<M: LaneMask>(&mut self, m: M) {
        if M::NARROW {
            self.0[0] &= !m.low();
        } else {
            let w = m.wide();
            self.0[0] &= !(w as u64);
            self.0[1] &= !((w >> 64) as u64);
        }
    }
}

/// A local lane's port on the lane router, `lane / vcs`, for the 128 lanes a switch may
/// have (its masks are `u128`): a multiply and a shift, whatever `vcs` (a branch between a
/// shift and a table cost more instructions on the switch allocator's path).
#[derive(Clone, Debug, Default)]
pub(crate) struct LanePorts {
    /// ceil(2^16 / vcs) (0 without lanes): `lane * mul >> 16` is `lane / vcs` for every
    /// lane < 128, as the error `lane * (mul - 2^16 / vcs) / 2^16` < 128 / 2^16 stays below
    /// `1 / vcs`, the gap from any `lane / vcs` to the next integer (`new` checks them all).
    mul: u32,
}

impl LanePorts {
    pub fn new(vcs: u32) -> Self {
        let lp = LanePorts {
            mul: 65536u32.div_ceil(vcs),
        };
        assert!(
            (0..128).all(|l| lp.of(l) == l / vcs),
            "lane ports of {vcs} lanes"
        );
        lp
    }
    /// The port of local lane `lane` (< 128).
    #[inline(always)]
    pub fn of(&self, lane: u32) -> u32 {
        debug_assert!(lane < 128, "lane {lane} of a switch with at most 128");
        (lane * self.mul) >> 16
    }
}

/// Switch state: per switch `sw[s]`, per global port `inp[gp]` / `out[gp]` with
/// gp = base + port, and queues `q[gp * qpp + k]` (head, tail), k = output with VOQ, else 0.
#[derive(Debug, Default)]
pub(crate) struct Switches {
    pub sw: Table<SwitchId, SwState>,
    pub inp: Table<PortId, InPort>,
    pub out: Table<PortId, OutPort>,
    pub q: Vec<(EntryId, EntryId)>,
    pub qpp: u32,
    /// Scratch for the allocator: requesting inputs per output (all zero between uses).
    pub reqs: Vec<u64>,
    /// Scratch: inputs whose next packet for the output waits for credits (`fair_bypass`,
    /// `reserve`).
    pub waits: Vec<u64>,
    /// Arbitration: turns kept by waiting inputs (`fair_bypass`, `reserve`), and how many
    /// smaller packets may overtake the input whose turn it is (0 for `reserve`).
    pub keep_turn: bool,
    pub bypass_limit: u8,
    /// Lanes per port (`vcs`); 0: today's switch (one lane, `switch.rs`), else the lane
    /// router (`router.rs`), whose switches have `radix` = ports x vcs lane records.
    pub vcs: u32,
    /// The lane router's routing (None without lanes).
    pub router: Option<super::lanes::Router>,
    /// Lane router: per physical port p of a switch, at the switch's first lane's global
    /// id + p (one entry a lane, the first `ports` used: no multiplication by `vcs` finds
    /// a port's), the switch allocator's round-robin pointers: the input's over its lanes,
    /// the output's over input ports.
    pub sa_in: Vec<u8>,
    pub sa_out: Vec<u8>,
    /// Lane router, per switch: the output lanes with no credit left (`used == limit`),
    /// kept as credits go and come, so that the switch allocator passes over them without
    /// reading their records. (Beside the switch records, not in them: one more field
    /// would make `SwState` longer than its two cache lines. Not a bit per global lane in
    /// shared words: under threads two switches' credits may arrive at once.) Empty
    /// without lanes.
    pub no_credit: Vec<Mask>,
    /// Lane router, per switch: the input lanes holding a flit (`InPort::occ` > 0), kept
    /// as flits come and go, so that the switch allocator finds the lanes that can move a
    /// flit without reading their records (beside `no_credit`, for the same reasons).
    /// Empty without lanes.
    pub has_flit: Vec<LaneBits>,
    /// Lane router, per output lane (global): the input lane (local) of the packet holding
    /// it, set at its grant and read only while `SwState::locked_out` has its bit.
    pub held_from: Vec<u8>,
    /// Lane router, per input lane (global): the output lane (local) its front packet
    /// holds, set at the grant and read only while `SwState::locked_in` has its bit.
    pub held_to: Vec<u8>,
    /// Lane router, per switch: the input lanes whose held output lane has no credit left
    /// (`no_credit` seen from the input side), kept at the grant, as the last credit goes
    /// and as one comes back, so that the lanes that can move a flit are
    /// `locked_in & has_flit & !stalled_in`, with no scan of the held lanes. A bit is
    /// read only while `locked_in` has it.
    pub stalled_in: Vec<Mask>,
    /// Lane router: a local lane's port (`lane / vcs`), so that the switch allocator
    /// divides by multiply and shift rather than by a divisor known only at run time.
    pub lane_port: LanePorts,
    /// Lane router with `allocator = "central"`: per switch, the central arbiter's
    /// round-robin pointer over input lanes (empty with the separable allocator).
    pub central: Vec<u8>,
    /// Scratch: a head's candidate output lanes.
    pub cand: Vec<(u32, u32, u32, bool)>,
    /// The same scratch, one per thread slot, under threads (`parallel.rs`).
    pub cands: Vec<Vec<(u32, u32, u32, bool)>>,
    /// Lane router with `head_latency_cycles` > 0: per input lane (global), the cycle from
    /// which its front packet may ask for an output lane (empty otherwise).
    pub va_at: Vec<u64>,
    /// Lane router (not Disha): per output lane (global), the input lanes (local, of its
    /// switch) blocked on it (`SwState::blocked`), woken when it may have freed: a tail
    /// leaving it, or a credit back that can make it free (`lane_free`). Empty otherwise.
    pub waiters: Vec<Mask>,
    /// Lane router with `duato` or `disha` on a torus or mesh: per lane number, flits sent
    /// from switch to switch on it (`lane_stats.rs`; empty otherwise).
    pub hop_flits: Vec<u64>,
    /// With `hop_flits`, on a torus: of those flits, the ones that went the long way round
    /// a ring.
    pub detour_flits: u64,
    /// Dragonfly with `local_latency_cycles` or `global_latency_cycles`: per output lane
    /// (global), the cycles from a flit leaving it to its arrival (link + switch pipeline),
    /// and from a credit sent back to it to its arrival (empty otherwise: one latency).
    pub lat_out: Vec<u32>,
    /// Lane router: scan lanes on `u128` masks even when `u64` would do (for the test that
    /// the two widths grant the same: `Network::set_wide_lane_masks`).
    pub wide_masks: bool,
    /// Lane router: every switch has at most 64 lane records, so every one's masks fit a
    /// `u64` (`router.rs`, `eval_routers_in`).
    pub narrow: bool,
    /// Ask the cache ahead for the records phase 1 and the lane router will read
    /// (`prefetch.rs`): on when the switches' records outgrow `PREFETCH_BYTES`, well past
    /// a core's own caches, where most reads wait on the shared cache or memory, and the
    /// run is on one thread (`Network::set_prefetch` for tests). A hint: the same results
    /// either way.
    pub prefetch: bool,
    /// Lane router: grant even a lone ready lane through the switch allocator's search
    /// (`Network::set_lane_sa_search`, for the test that the shortcut grants the same).
    pub sa_search: bool,
    /// Lane router: find the lanes that can move a flit from their records, as under a
    /// test fault, rather than from the masks (`has_flit`, `stalled_in`;
    /// `Network::set_lane_ready_scan`, for the test that the two find the same).
    pub ready_scan: bool,
    /// Lane router: `lane_reuse = "tail"`.
    pub reuse_tail: bool,
    /// Under `lane_reuse = "tail"`, an output lane to a router takes the next packet only
    /// when the lane behind it is empty or has room for all of it: under `switching =
    /// "vct"`, and under Duato's routings (`Router::whole_at_tail`).
    pub whole: bool,
    pub lat_cred: Vec<u32>,
    /// The switch model: 0 today's switch (`switch.rs`), 1 the lane router (`router.rs`),
    /// 2 the CIOQ switch (`cioq.rs`).
    pub model: u8,
    /// CIOQ: crossbar sub-steps per cycle (0 otherwise).
    pub speedup: u32,
    /// CIOQ: per global output port, its crossbar side and queue (empty otherwise).
    pub oq: Vec<super::cioq::OutQueue>,
    /// One bit per switch, 64 to a word: the switches phase 2 visits on one thread
    /// (`Network::eval_switches`). A flit's arrival sets its switch's bit; a visit that
    /// leaves the switch empty clears it. A switch with a flit resident has its bit set.
    /// (Atomic words: under threads switch chunks set bits of a shared word.)
    pub busy: Vec<std::sync::atomic::AtomicU64>,
}

/// One NIC's ports. Hot fields (touched every cycle) first, in one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct NicState {
    /// Credits that arrived and are not yet handed to the injection gate. The gate takes
    /// at most 255 per cycle (PFT's `credit_return` is 8 bits); a burst of late credits
    /// (faults) waits here for the next cycles instead of being lost.
    pub credit_in: u32,
    /// The injection link is paused (fault): the NIC offers no flit.
    pub inj_paused: bool,
    /// The packet being injected is a control packet (it belongs to no message).
    pub cur_ctl: bool,
    /// The injection gate's outputs in the last cycle: send | congested << 1 |
    /// throttled << 2, and used_credits.
    pub out_flags: u8,
    pub out_c: u16,
    /// Destinations with a non-empty send queue (the length of `Nics::active[n]`).
    pub dsts: u32,
    /// Packet being injected (NONE between packets), its next flit and length.
    pub cur_pkt: PktId,
    pub cur_seq: u16,
    pub cur_len: u16,
    /// Flits in the receive buffer.
    pub rx_occ: u32,
    /// Ejection accumulator and drain rate (flits per cycle), 16 fractional bits.
    pub acc: u32,
    pub rate: u32,
    /// First cycle of the current run of cycles in which the gate held back a ready flit
    /// with credit (the starvation watchdog).
    pub thr_since: u64,
    /// First cycle of the run of quiet cycles the NIC is skipping (`AWAKE` when it is not
    /// asleep): its gate is caught up when it wakes (`Network::nic_sleeps`).
    pub asleep_from: u64,
    /// Cycles the NIC's congestion control throttled / was congested.
    pub throttled: u64,
    pub congested: u64,
    /// Edge switch input (injection link receiver) and output (ejection link sender).
    pub inj_rx: PortId,
    pub ej_tx: PortId,
    /// The receive buffer's head entry, flits drained, length, packet, message.
    pub rx_head: EntryId,
    pub rx_sent: u16,
    pub rx_head_len: u16,
    pub rx_head_pkt: PktId,
    pub rx_head_msg: MsgId,
    /// The receive buffer's last entry.
    pub rx_tail: EntryId,
    /// The entry arriving (NONE between packets): packet, flits arrived, length.
    pub rx_arriving: EntryId,
    pub rx_arr_pkt: PktId,
    pub rx_arr_count: u16,
    pub rx_arr_len: u16,
    pub inj_link: LinkId,
    pub ej_link: LinkId,
}

/// NIC state; send queues `sq[key(src, dst)]` (head, tail), one entry per non-empty queue
/// (`flows::FlowMap`: looked up only; the order of service is `active`'s).
pub(crate) struct Nics {
    pub st: Vec<NicState>,
    /// Per NIC, the share of packet starts its one tagged stream gets while both streams
    /// have a packet to start (`Network::set_stream_share`); empty when no NIC has one.
    pub share: Vec<Option<StreamShare>>,
    /// Destinations with a non-empty send queue, in round-robin order.
    pub active: Vec<VecDeque<u32>>,
    pub sq: super::flows::FlowMap<(MsgId, MsgId)>,
    pub stats: Vec<NicStats>,
    /// Per NIC, messages accepted whose first packet has not started (`send_queue_msgs`).
    pub waiting: Vec<u32>,
    /// Idle NICs skip their quiet cycles (a scheme without NIC flow control; off for the
    /// tests that show it changes nothing, `Network::set_idle_skip`).
    pub skip_idle: bool,
    /// One bit per NIC, 64 to a word: the NICs phase 2 visits (`Network::eval_nics`). A
    /// clear bit is a sleeping NIC that nothing has reached since it fell asleep; whatever
    /// can end its quiet sets the bit (`Nics::poke`).
    pub awake: Vec<u64>,
}

/// `NicState::asleep_from` of a NIC that is not asleep.
pub(crate) const AWAKE: u64 = u64::MAX;

/// A NIC's split between the messages of one tag (stream 0) and all others (stream 1):
/// while both have a packet to start, stream 0 gets `share` of the flits started.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StreamShare {
    pub tag: u32,
    pub share: f64,
    /// Flits started per stream in contested choices (both streams could start).
    pub served: [u64; 2],
}

/// Per-NIC counters since cycle 0. Read them between steps to sample time series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NicStats {
    /// Messages accepted from the workload at this (source) NIC.
    pub messages_accepted: u64,
    /// Flits of accepted messages not yet injected (the NIC's send-queue backlog).
    pub queued_flits: u64,
    pub packets_injected: u64,
    pub flits_injected: u64,
    /// Flits drained from this NIC's receive buffer.
    pub flits_ejected: u64,
    /// Messages delivered at this (destination) NIC.
    pub messages_delivered: u64,
    pub bytes_delivered: u64,
    /// Cycles in which the congestion control held back a packet or a ready flit that
    /// had a credit (the injection gate, or the flow control with a credit free).
    pub throttled_cycles: u64,
    /// Cycles in which the NIC was congested: its gate in its congested state (PFT:
    /// Congested), or congested in the scheme's own sense (IB CC: a flow with CCTI > 0).
    pub congested_cycles: u64,
    /// Per-packet ACKs (`ack_bytes`): ACKs this NIC queued for data packets it received,
    /// and ACKs that arrived for the packets it sent.
    pub acks_sent: u64,
    pub acks_received: u64,
    /// Messages refused at this (source) NIC because its send queue was full
    /// (`send_queue_msgs`).
    pub messages_refused: u64,
}

impl NicStats {
    pub(crate) fn add(&mut self, o: &NicStats) {
        self.messages_accepted += o.messages_accepted;
        self.queued_flits += o.queued_flits;
        self.packets_injected += o.packets_injected;
        self.flits_injected += o.flits_injected;
        self.flits_ejected += o.flits_ejected;
        self.messages_delivered += o.messages_delivered;
        self.bytes_delivered += o.bytes_delivered;
        self.throttled_cycles += o.throttled_cycles;
        self.congested_cycles += o.congested_cycles;
        self.acks_sent += o.acks_sent;
        self.acks_received += o.acks_received;
        self.messages_refused += o.messages_refused;
    }
}
