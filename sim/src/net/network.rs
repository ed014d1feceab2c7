//! `Network`: the state of a whole run (links, switches, NICs with their injection gates) and its
//! clock. One `step` = one cycle in two phases:
//!
//! 1. read inputs: the flits and credits whose channel delay ends in this cycle are taken
//!    from the channels (values committed in earlier cycles) into the receivers' buffers and
//!    credit counters; the workload hands over this cycle's new messages;
//! 2. evaluate and commit: every NIC and switch decides from its own state and writes its
//!    outputs into channels, to be read `latency >= 1` cycles later.
//!
//! No component reads another's state in phase 2, so the order in which they are evaluated
//! cannot change a result (`set_eval_order` exists to test exactly that).

use super::config::NetConfig;
use super::error::NetError;
use super::faults::FaultState;
use super::plain::PLAIN_ONE;
use super::scheme::{GateOut, Scheme, Seams};
pub use super::state::NicStats;
pub(crate) use super::state::{
    InPort, Link, NicState, Nics, OutPort, StreamShare, SwState, Switches,
};
use super::store::Entries;
use super::store::{
    CreditEv, End, Endpoint, FlitEv, Id, LinkId, MsgId, MsgState, Packet, PktId, PortId, Slab,
    SwitchId, Table, Wheel, CONTROL, NEVER,
};

use super::topology::Topology;
use super::types::{Delivery, Message, NodeId, Workload};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Cycles between two looks of the class-stall watchdog.
pub(crate) const STALL_LOOK_EVERY: u64 = 1024;

/// Progress of one traffic class (all messages with one tag) in the fabric.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassWatch {
    pub tag: u32,
    /// Messages whose first packet has left the source NIC and that are not delivered.
    pub started: u64,
    /// The last packet of the class delivered, or the cycle `started` rose from 0.
    pub since: u64,
    /// The longest such wait that ended in a delivered packet.
    pub longest: u64,
}

/// Fixed-point one for the ejection accumulator (16 fractional bits).
pub(crate) const ONE: u32 = 1 << 16;

/// A kind of clocked component, with BookSim's clock interface. Its state lives in the
/// network's arrays for that kind (`Nics`, `Switches`: flat, the hot fields of a NIC in one
/// cache line), and it touches no other component's state: what it sends goes into
/// channels, read by the receiver one latency later.
pub(crate) trait Clocked {
    /// Where a flit arrives: the NIC itself, or one of the switch's input ports.
    type Input: Copy;
    /// The component.
    type Id: Copy;
    /// Phase 1: take a flit that arrives this cycle at `at`. `COPY`: which copy of phase 1
    /// calls (`read_owner_pool`'s `PF`), so that each has a copy of its own to inline.
    fn read<S: Scheme, const COPY: bool>(
        net: &mut Network<S>,
        at: Self::Input,
        ev: &FlitEv,
    ) -> Result<(), Box<NetError>>;
    /// Phase 2: decide from the component's own state, then commit its outputs.
    fn evaluate<S: Scheme>(net: &mut Network<S>, id: Self::Id) -> Result<(), Box<NetError>>;
}

/// The NIC (`nic.rs`): send queues, congestion control, injection, receive buffer.
pub(crate) struct Nic;
/// The switch (`switch.rs`): input buffers, allocation, crossbar, output marking.
pub(crate) struct Switch;

/// Order in which `step` evaluates the components in phase 2 (results must not depend on
/// it; tests use the others to show it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalOrder {
    /// NICs 0.., then switches 0.. (default).
    #[default]
    Forward,
    /// Switches last to first, then NICs last to first.
    Reverse,
    /// A random permutation of all components, drawn from the seed, fixed for the run.
    Shuffled(u64),
}

/// The whole network of one run, running congestion-control scheme `S` (a scheme's state;
/// `crate::Network` holds one of these per registered scheme, so every hook is a direct
/// call). See the module docs of `net` for the API.
pub struct Network<S> {
    /// Helper threads for phase 2 (`parallel.rs`; None on one thread). First, so that it
    /// is dropped, and its helpers joined, before anything they could touch.
    pub(crate) par: Option<Box<super::pool::Par>>,
    /// True while phase 2 runs under threads: switches log their shared effects.
    pub(crate) par_on: bool,
    /// The plain copies: allowed, and used (`plain.rs`).
    pub(crate) plain: super::plain::Plain,
    /// NIC chunks under threads (0: the NICs stay on the calling thread).
    pub(crate) par_nic_chunks: u32,
    /// This cycle's chunks under threads take the plain copies (`plain.rs`).
    pub(crate) par_plain: bool,
    pub(crate) cfg: NetConfig,
    pub(crate) topo: Topology,
    pub(crate) nodes: u32,
    pub(crate) now: u64,
    pub(crate) links: Table<LinkId, Link>,
    /// The channels: every flit and credit link at once. With `owner_p1` (phase 1 by
    /// owner) each owner has channels of its own, read just before it is evaluated, on
    /// whichever thread runs it: the owners are the `nic_owners` chunks of `nic_chunk`
    /// NICs, then the `sw_chunks` chunks of `sw_chunk` switches (`port_owner`: a global
    /// port's), as many as the threads need (`build.rs`, `owners`). Buffer entries come
    /// from pools of finer chunks that do not depend on the threads (`entries`, `pool_*`),
    /// so that their ids do not either. Without it,
    /// one set of channels is read at the start of the cycle: reading an input then
    /// touches what others share (marking at switch inputs, Disha, the test hook's
    /// faults). (By owner, a NIC reads its arrivals after the host's new messages of the
    /// cycle are taken in; the schemes whose hooks see both, `arrived` and
    /// `queue_opened`, all mark at switches, so no result changed with it.)
    pub(crate) fwheel: Wheel<FlitEv>,
    pub(crate) cwheel: Wheel<CreditEv>,
    pub(crate) owner_p1: bool,
    pub(crate) nic_chunk: u32,
    pub(crate) sw_chunk: u32,
    pub(crate) nic_owners: u32,
    pub(crate) sw_chunks: u32,
    pub(crate) port_owner: Vec<u32>,
    /// The entry pools: NIC `n`'s is `n >> pool_nic_shift`, switch `s`'s
    /// `pool_nic_owners + (s >> pool_sw_shift)`.
    pub(crate) pool_nic_shift: u32,
    pub(crate) pool_sw_shift: u32,
    pub(crate) pool_nic_owners: u32,
    pub(crate) packets: Slab<Packet, PktId>,
    pub(crate) entries: Entries,
    pub(crate) msgs: Slab<MsgState, MsgId>,
    pub(crate) sw: Switches,
    pub(crate) nic: Nics,
    pub(crate) mtu_flits: u32,
    pub(crate) rate_fp: u32,
    /// Flit latency of an injection link, of a switch output link (+ pipeline), and credit
    /// latency, cycles.
    pub(crate) lat_inj: u64,
    pub(crate) lat_sw: u64,
    /// Lane router: a head's route and lane allocation delay (`head_latency_cycles`).
    pub(crate) lat_head: u64,
    pub(crate) lat_credit: u64,
    pub(crate) flits_in_network: u64,
    /// Data flits ejected at NICs since cycle 0.
    pub(crate) flits_delivered: u64,
    pub(crate) messages_pending: u64,
    /// Progress per traffic class (message tag): the class-stall watchdog.
    pub(crate) classes: Vec<ClassWatch>,
    pub(crate) last_progress: u64,
    /// Most cycles `run` evaluates as one block, and the cycles run in blocks (`block.rs`).
    pub(crate) block: u64,
    pub(crate) blocked: u64,
    /// The test hook's fault and the run-time faults, with their state.
    pub(crate) faults: FaultState,
    /// The congestion-control scheme: its state at every NIC and switch, and the seam
    /// groups it uses (the core skips the others' hooks).
    pub(crate) cc: S,
    pub(crate) seams: Seams,
    /// Per-packet ACKs (`ack_bytes`; None without).
    pub(crate) acks: Option<Box<super::acks::Acks>>,
    /// Disha's token and recovery path (routing `disha`; None otherwise).
    pub(crate) disha: Option<Box<super::disha::Disha>>,
    pub(crate) order: Option<Vec<u32>>,
    pub(crate) msg_buf: Vec<Message>,
    /// Messages an open-loop workload gave for cycle `ahead_at` while the cycle before was
    /// evaluated (`new_messages`); `run_end`: the cycle `run` stops at (0 outside `run`).
    pub(crate) ahead: Vec<Message>,
    pub(crate) ahead_at: u64,
    /// The panic of a tick made ahead, raised where one thread would tick.
    pub(crate) ahead_panic: Option<Box<dyn std::any::Any + Send>>,
    pub(crate) run_end: u64,
    pub(crate) deliveries: Vec<Delivery>,
    pub(crate) seed: u64,
}

impl<S: Scheme> Network<S> {
    /// Simulate one cycle: read inputs, take the workload's new messages, evaluate and
    /// commit every component, check (if enabled), then report this cycle's deliveries to
    /// the workload (sorted by message id). After an error the network must not be used.
    pub fn step(&mut self, workload: &mut dyn Workload) -> Result<(), NetError> {
        let now = self.now;
        self.begin_cycle(workload)?;
        // Phase 2: evaluate and commit.
        match self.order.take() {
            None if self.cfg.threads > 1 && self.parallel_blocker().is_none() => {
                self.evaluate_parallel(workload).map_err(|e| *e)?;
            }
            None => {
                self.leave_parallel();
                let plain = self.plain();
                if self.owner_p1 {
                    self.eval_nic_chunks::<PLAIN_ONE>(0, self.nic_owners, plain)
                        .map_err(|e| *e)?;
                    self.eval_switch_chunks(plain).map_err(|e| *e)?;
                } else {
                    if plain {
                        self.eval_nics_in::<PLAIN_ONE>(0, self.nodes)
                            .map_err(|e| *e)?;
                    } else {
                        self.eval_nics(0, self.nodes).map_err(|e| *e)?;
                    }
                    self.eval_switches(plain).map_err(|e| *e)?;
                }
            }
            Some(order) => {
                self.leave_parallel();
                // every owner's inputs first: the order is of evaluations
                let owners = if self.owner_p1 {
                    self.nic_owners + self.sw_chunks
                } else {
                    0
                };
                let r = (0..owners).try_for_each(|o| self.read_owner_then(o, false));
                let r = r.and_then(|()| {
                    order.iter().try_for_each(|&c| {
                        if c < self.nodes {
                            Nic::evaluate(self, c)
                        } else {
                            Switch::evaluate(self, SwitchId(c - self.nodes))
                        }
                    })
                });
                self.order = Some(order);
                r.map_err(|e| *e)?;
            }
        }
        self.disha_end_cycle();
        if self.cfg.check {
            self.check()?;
        }
        if self.cfg.deadlock_cycles > 0
            && self.flits_in_network > 0
            && now - self.last_progress >= self.cfg.deadlock_cycles
        {
            // A NIC whose throttle has held a packet halfway through the whole stop is its
            // cause: say so rather than dump every buffer.
            let held = (0..self.nodes).find(|&n| {
                let st = &self.nic.st[n as usize];
                st.cur_pkt != PktId::NONE
                    && st.out_flags & 4 != 0
                    && now + 1 - st.thr_since >= self.cfg.deadlock_cycles
            });
            return Err(match held {
                Some(n) => self.starved(n),
                None => self.deadlock(),
            });
        }
        if self.sw.vcs != 0
            && self.cfg.deadlock_cycles > 0
            && self.flits_in_network > 0
            && now.is_multiple_of(STALL_LOOK_EVERY)
            && now - self.last_progress < STALL_LOOK_EVERY
        {
            // a deadlock in part of the network while the rest moves (when nothing has
            // moved for a while the deadlock above speaks, once it has lasted long enough)
            if let Some(e) = self.lanes_stalled() {
                return Err(e);
            }
        }
        if self.cfg.stall_cycles > 0 && now.is_multiple_of(STALL_LOOK_EVERY) {
            if let Some(c) = self
                .classes
                .iter()
                .find(|c| c.started > 0 && now - c.since >= self.cfg.stall_cycles)
            {
                return Err(self.class_stalled(*c, workload.tag_name(c.tag)));
            }
        }
        self.end_cycle(workload);
        self.now += 1;
        Ok(())
    }

    /// `step` `cycles` times, with the same results; where the network allows it, in blocks of
    /// cycles (`block.rs`: the NICs through a block, then the switches), so the network is
    /// whole only at the end of the call.
    pub fn run(&mut self, workload: &mut dyn Workload, cycles: u64) -> Result<(), NetError> {
        // (under threads an open-loop workload ticks a cycle ahead, up to the last cycle)
        self.run_end = self.now.saturating_add(cycles);
        // (ended on a panic too: a caller that catches it and steps on is outside `run`)
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.run_blocks(workload, cycles)
        }));
        self.run_end = 0;
        r.unwrap_or_else(|p| std::panic::resume_unwind(p))
    }

    /// Step until nothing is queued or in flight (true) or `max_cycles` have passed (false).
    pub fn run_until_idle(
        &mut self,
        workload: &mut dyn Workload,
        max_cycles: u64,
    ) -> Result<bool, NetError> {
        for _ in 0..max_cycles {
            if self.is_idle() {
                return Ok(true);
            }
            self.step(workload)?;
        }
        Ok(self.is_idle())
    }

    /// Take a message from the workload into its source NIC's send queue for its
    /// destination.
    /// Take message `m` from the workload into its source NIC's send queue; false when the
    /// queue is full (`send_queue_msgs`) and the message is refused.
    pub(crate) fn accept(&mut self, m: Message) -> Result<bool, NetError> {
        let refuse = |reason: String| NetError::BadMessage {
            cycle: self.now,
            id: m.id,
            reason,
        };
        if m.src.0 >= self.nodes || m.dst.0 >= self.nodes {
            return Err(refuse(format!(
                "NIC {} -> NIC {}: nodes are 0..{}",
                m.src, m.dst, self.nodes
            )));
        }
        if m.src == m.dst {
            return Err(refuse(format!(
                "source and destination are both NIC {} (the network carries no loopback)",
                m.src
            )));
        }
        if m.bytes == 0 {
            return Err(refuse("0 bytes (a message has at least one byte)".into()));
        }
        let mtu = self.cfg.mtu_bytes;
        let full = (m.bytes / mtu) as u64 * self.mtu_flits as u64;
        let rem = m.bytes % mtu;
        let flits = full
            + if rem > 0 {
                self.cfg.flits_for(rem) as u64
            } else {
                0
            };
        if flits > u32::MAX as u64 {
            return Err(refuse(format!("{} bytes is too long", m.bytes)));
        }
        if let Some(cap) = self.cfg.send_queue_msgs {
            let w = &mut self.nic.waiting[m.src.index()];
            if *w >= cap {
                self.nic.stats[m.src.index()].messages_refused += 1;
                return Ok(false);
            }
            *w += 1;
        }
        let now = self.now;
        let class = match self.classes.iter().position(|c| c.tag == m.tag) {
            Some(c) => c,
            None => {
                self.classes.push(ClassWatch {
                    tag: m.tag,
                    started: 0,
                    since: now,
                    longest: 0,
                });
                self.classes.len() - 1
            }
        } as u32;
        let slot = self.msgs.alloc(MsgState {
            msg: m,
            next: MsgId::NONE,
            bytes_left: m.bytes,
            flits_total: flits as u32,
            flits_ejected: 0,
            injected: NEVER,
            class,
        });
        let src = m.src.index();
        let q = self
            .nic
            .sq
            .entry(super::flows::key(m.src.0, m.dst.0))
            .or_insert((MsgId::NONE, MsgId::NONE));
        if q.0 == MsgId::NONE {
            q.0 = slot;
            self.nic.active[src].push_back(m.dst.0);
            self.nic.st[src].dsts += 1;
            if self.seams.flows {
                self.cc.queue_opened(src as u32, m.dst.0);
            }
        } else {
            self.msgs[q.1].next = slot;
        }
        q.1 = slot;
        self.nic.poke(m.src.0);
        let st = &mut self.nic.stats[src];
        st.messages_accepted += 1;
        st.queued_flits += flits;
        self.messages_pending += 1;
        Ok(true)
    }

    /// Record a delivery (called by the NIC when a message's last flit is ejected).
    pub(crate) fn deliver(&mut self, d: Delivery) {
        if self.par_on {
            super::pool::log().deliveries.push(d);
        } else {
            self.deliveries.push(d);
            self.messages_pending -= 1;
        }
    }

    /// NIC `n` serves the messages tagged `tag` and the others in the proportion
    /// `share : 1 - share` of flits while both have a packet to start (a weighted round
    /// robin between the two streams; each stream keeps its destinations' round-robin
    /// order). When only one stream can start (the other is empty, or held by the
    /// congestion control), it goes, and nothing is counted. The IB CC seed's generator
    /// (its Frame I) keeps a B node's hot-spot and uniform traffic in its p : 1 - p split
    /// this way (docs/workloads.md, "NIC service"). `share` in [0, 1].
    pub fn set_stream_share(&mut self, n: NodeId, tag: u32, share: f64) {
        assert!((0.0..=1.0).contains(&share), "share {share} not in [0, 1]");
        if self.nic.share.is_empty() {
            self.nic.share = vec![None; self.nodes as usize];
        }
        self.nic.share[n.index()] = Some(StreamShare {
            tag,
            share,
            served: [0; 2],
        });
    }

    /// Per traffic class (message tag, in order of first appearance): messages started
    /// (first packet injected) and not delivered now, and the longest time the class had
    /// such messages without one of its packets delivered (cycles; a wait still open counts
    /// up to now).
    pub fn class_progress(&self) -> Vec<(u32, u64, u64)> {
        let now = self.now;
        self.classes
            .iter()
            .map(|c| {
                let open = if c.started > 0 { now - c.since } else { 0 };
                (c.tag, c.started, c.longest.max(open))
            })
            .collect()
    }

    // ---------------------------------------------------------------- accessors

    /// The cycle the next `step` simulates (= cycles simulated so far).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Number of NICs.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    pub fn config(&self) -> &NetConfig {
        &self.cfg
    }

    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// The congestion-control scheme's state (every NIC and switch).
    pub fn scheme(&self) -> &S {
        &self.cc
    }

    /// The run seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Counters of NIC `n`.
    pub fn nic_stats(&self, n: NodeId) -> NicStats {
        let ns = &self.nic.st[n.index()];
        NicStats {
            throttled_cycles: ns.throttled,
            congested_cycles: ns.congested,
            ..self.nic.stats[n.index()]
        }
    }

    /// All NICs' counters summed.
    pub fn total_stats(&self) -> NicStats {
        let mut t = NicStats::default();
        for n in NodeId::all(self.nodes) {
            t.add(&self.nic_stats(n));
        }
        t
    }

    /// NIC `n`'s used credits `c` now (its injection gate's counter: PFT's block).
    pub fn used_credits(&self, n: NodeId) -> u16 {
        self.cc.used_credits(n.0)
    }

    /// NIC `n` is congested now: its gate is in its congested state (PFT: Congested), or
    /// the scheme says so (IB CC: one of its flows has CCTI > 0).
    pub fn congested(&self, n: NodeId) -> bool {
        self.cc.nic_congested(n.0) || self.cc.gate_congested(n.0)
    }

    /// The outputs of NIC `n`'s injection gate in the last simulated cycle.
    pub fn gate_outputs(&self, n: NodeId) -> GateOut {
        let s = &self.nic.st[n.index()];
        GateOut {
            send: s.out_flags & 1 != 0,
            congested: s.out_flags & 2 != 0,
            throttled: s.out_flags & 4 != 0,
            used_credits: s.out_c,
        }
    }

    /// Messages delivered in the last simulated cycle, by message id.
    pub fn last_deliveries(&self) -> &[Delivery] {
        &self.deliveries
    }

    /// Flits injected and not yet ejected (on links or in buffers).
    pub fn flits_in_network(&self) -> u64 {
        self.flits_in_network
    }

    /// Messages accepted and not yet delivered.
    pub fn messages_pending(&self) -> u64 {
        self.messages_pending
    }

    /// Nothing queued at a NIC (messages or control packets), nothing in flight.
    pub fn is_idle(&self) -> bool {
        self.messages_pending == 0
            && self.flits_in_network == 0
            && self.cc.controls_pending() == 0
            && self.acks.as_ref().is_none_or(|a| a.pending == 0)
    }

    /// Flits in the input buffer of port `port` of switch `switch` now.
    pub fn switch_input_flits(&self, switch: u32, port: u32) -> u32 {
        let st = &self.sw.sw[SwitchId(switch)];
        let v = self.sw.vcs.max(1);
        (0..v).map(|c| self.sw.inp[st.port(port * v + c)].occ).sum()
    }

    /// Switch-to-switch input buffers (lanes, with `vcs`) that are full now: the count a
    /// global scheme sees as `Global::full_inputs` (not `disha`'s deadlock buffers).
    pub fn full_switch_inputs(&self) -> u64 {
        let (v, lanes) = (self.sw.vcs, self.cfg.vc_buf_flits);
        let cap = match v {
            0 => self.cfg.buffer_flits,
            _ => lanes.unwrap_or(super::lanes::DEFAULT_VC_BUF),
        };
        let db = |g: usize| self.disha.is_some() && g as u32 % v == v - 1;
        let inp = self.sw.inp.items.iter().enumerate();
        inp.filter(|(g, p)| p.occ >= cap && matches!(p.credit_to.end(), End::Port(_)) && !db(*g))
            .count() as u64
    }

    /// Data flits delivered to NICs since cycle 0.
    pub fn flits_delivered(&self) -> u64 {
        self.flits_delivered
    }

    /// What of phase 2 stays on one thread whatever `[network] threads` says, and why
    /// (`parallel.rs`): None when every NIC and switch may run on any thread.
    pub fn single_thread_reason(&self) -> Option<String> {
        match self.parallel_blocker() {
            Some(why) => Some(format!("all of it on one thread ({why})")),
            None => self
                .nics_blocker()
                .map(|why| format!("the NICs on one thread, the switches spread ({why})")),
        }
    }

    /// Flits in NIC `n`'s receive buffer now.
    pub fn nic_receive_flits(&self, n: NodeId) -> u32 {
        self.nic.st[n.index()].rx_occ
    }

    /// Choose the phase-2 evaluation order (results do not depend on it).
    pub fn set_eval_order(&mut self, order: EvalOrder) {
        let total = self.nodes + self.sw.sw.len() as u32;
        self.order = match order {
            EvalOrder::Forward => None,
            EvalOrder::Reverse => {
                let mut v: Vec<u32> = (0..total).collect();
                v.reverse();
                Some(v)
            }
            EvalOrder::Shuffled(seed) => {
                let mut v: Vec<u32> = (0..total).collect();
                v.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
                Some(v)
            }
        };
    }

    // ---------------------------------------------------------------- names for messages

    pub(crate) fn switch_name(&self, s: SwitchId) -> &str {
        &self.topo.switches()[s.index()].name
    }

    pub(crate) fn in_port_name(&self, at: Endpoint) -> String {
        let gp = match at.end() {
            End::Nic(n) => return format!("NIC {n} receive buffer"),
            End::Port(g) => g,
        };
        let s = self.sw.inp[gp].sw;
        format!("{} input {}", self.switch_name(s), self.lane_name(s, gp))
    }

    pub(crate) fn out_port_name(&self, gp: PortId) -> String {
        let s = self.sw.out[gp].sw;
        format!("{} output {}", self.switch_name(s), self.lane_name(s, gp))
    }

    /// Port `gp`'s local number on switch `s`, with its lane in the lane router.
    fn lane_name(&self, s: SwitchId, gp: PortId) -> String {
        let l = self.sw.sw[s].local(gp);
        match self.sw.vcs {
            0 => l.to_string(),
            v => format!("{} lane {}", l / v, l % v),
        }
    }

    /// Capacity of switch input buffer `gp`, flits: `buffer_flits`, or with lanes
    /// `vc_buf_flits` (a NIC's injection lane: `buffer_flits`).
    pub(crate) fn in_capacity(&self, gp: PortId) -> u32 {
        match (self.sw.vcs, self.sw.inp[gp].credit_to.end()) {
            (0, _) | (_, End::Nic(_)) => self.cfg.buffer_flits,
            _ => self
                .cfg
                .vc_buf_flits
                .unwrap_or(super::lanes::DEFAULT_VC_BUF),
        }
    }

    pub(crate) fn link_name(&self, id: LinkId) -> String {
        let k = self.links[id];
        let l = id.0;
        let tx = match k.tx.end() {
            End::Nic(n) => format!("NIC {n}"),
            End::Port(g) => self.out_port_name(g),
        };
        let rx = match k.rx.end() {
            End::Nic(n) => format!("NIC {n}"),
            End::Port(_) => self.in_port_name(k.rx),
        };
        format!("{l} ({tx} -> {rx})")
    }

    /// A packet's identity for messages.
    pub(crate) fn packet_name(&self, id: PktId) -> String {
        let p = id.0;
        match self.packets.get(id) {
            Some(pk) if pk.len > 0 && pk.flags & CONTROL != 0 => format!(
                "packet {p} (control, NIC {} -> NIC {}, {} flits)",
                pk.src, pk.dst, pk.len
            ),
            Some(pk) if pk.len > 0 => {
                let id = self.msgs[pk.msg].msg.id;
                format!(
                    "packet {p} (message {id}, NIC {} -> NIC {}, {} flits)",
                    pk.src, pk.dst, pk.len
                )
            }
            _ => format!("packet {p} (not live)"),
        }
    }
}
