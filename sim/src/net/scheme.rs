//! The seams through which a congestion-control scheme acts on the network. The core (this
//! folder) calls them and names no scheme; the schemes live in `crate::cc`, one folder each,
//! and `cc`'s registry makes one enum of them that implements [`Scheme`] by delegation, so
//! every call is static (a `match`, no virtual call).
//!
//! A scheme may use any of these seams; every hook but the gate has a default that does
//! nothing:
//!
//! - **injection gate** ([`Scheme::gate`]): one flit slot of a NIC's injection port. The
//!   gate holds the NIC's link credit count `c` and says whether the offered flit leaves.
//!   [`CreditGate`] is the plain credit check; PFT's gate is its block;
//! - **NIC flow control**: which destination queue may start its next packet
//!   ([`Scheme::eligible`], [`Scheme::may_start`]), per-flow state updated when a packet
//!   starts ([`Scheme::packet_started`]), a per-NIC tick, and a per-node gate (a scheme that
//!   throttles a whole host returns false from `may_start`);
//! - **control packets**: a scheme sends small packets of its own (notifications, ACKs;
//!   [`Scheme::take_control`]), which leave before the NIC's data, and sees every packet head
//!   that arrives at a NIC with scheme bits set or as a control packet
//!   ([`Scheme::arrived`]). Packets carry 8 opaque scheme bits: a control packet's from its
//!   sender, a data packet's (0 at the source) from switches' marking;
//! - **switch marking**: switches tell the scheme when a flit is queued for an output
//!   ([`Scheme::queued`]) and when one leaves ([`Scheme::departs`], which may set bits in
//!   the packet), with the output's free credits and its queue (CIOQ);
//!   [`Scheme::switch_done`] ends a switch's cycle; [`Scheme::head_arrived`] lets an input
//!   buffer mark a packet on arrival, with the buffer's occupancy, and
//!   [`Scheme::head_leaves`] when it leaves the buffer for its output;
//! - **global hook** ([`Scheme::cycle`]): once per cycle before any component, with
//!   network-wide counts ([`Global`]); [`DelayLine`] gives a scheme the counts of `d`
//!   cycles ago (a side-band that takes `d` cycles to gather them);
//! - **lane state** ([`Scheme::lanes`]): once per cycle before any component, each
//!   switch's output lanes that a packet holds (a scheme that judges injection from the
//!   local router's free virtual channels, as ALO does);
//! - **statistics** ([`Scheme::nic_counters`], [`Scheme::counters`]): named counters that
//!   the reports carry; [`Scheme::probes`]: named values of the scheme's state, sampled
//!   into the run's time series.
//!
//! Every hook touches only the scheme's own state for the component that calls it (NIC `n`,
//! switch `s`), so the order of evaluation cannot change a result (docs/network.md, "Writing
//! a congestion-control scheme").

use std::collections::VecDeque;

/// What a NIC's injection gate sees in one flit slot.
#[derive(Clone, Copy, Debug, Default)]
pub struct GateIn {
    /// A flit is ready to leave and the injection link is not paused.
    pub flit_valid: bool,
    /// No packet is in progress: the flit would start one.
    pub flit_head: bool,
    /// Credits returned in this slot (the receiver drained that many flits), at most 255
    /// (PFT's port width); more wait in the NIC for the next slots.
    pub credit_return: u8,
    /// The invariant checker is on (`NetConfig::check`): the gate may check itself.
    pub check: bool,
    /// A write on the NIC's CSR port in this slot (a run-time register rewrite): an 8-bit
    /// word address and 32-bit data, the port PFT's block has (docs/registers.md).
    pub csr: Option<(u8, u32)>,
}

/// The gate's verdict for one flit slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateOut {
    /// The flit leaves.
    pub send: bool,
    /// The gate is in its congested state.
    pub congested: bool,
    /// The gate held back a ready flit that had a credit.
    pub throttled: bool,
    /// Used credits `c` before the slot's last gate cycle (the start of the slot when the
    /// gate runs one cycle per slot, as every gate but PFT at a clock ratio above 1).
    pub used_credits: u16,
}

/// Why a gate holds a packet halfway (the starvation error's text).
#[derive(Clone, Debug)]
pub struct GateState {
    /// Used credits now.
    pub c: u16,
    /// The gate's state, for example "Congested".
    pub state: String,
    /// What makes it hold the flit (one sentence).
    pub reason: String,
}

/// A packet a scheme sends from a NIC (a notification, an ACK): no message, `flits` long,
/// with `bits` in its scheme bits. It leaves before the NIC's next data packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub dst: u32,
    pub flits: u16,
    pub bits: u8,
}

/// A packet head that arrives at NIC `at`.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub src: u32,
    pub len: u16,
    /// The packet's scheme bits (set by its sender or by switches).
    pub bits: u8,
    /// A control packet (not data): a scheme's, or an ACK.
    pub control: bool,
    /// An ACK of the network's per-packet acknowledgements (`[network] ack_bytes`),
    /// carrying the acknowledged packet's scheme bits back to its source.
    pub ack: bool,
}

/// A switch output as a scheme sees it when a flit is queued for it or leaves it.
#[derive(Clone, Copy, Debug)]
pub struct OutputAt {
    /// Switch, its local output number, and the global port id (dense over all switches).
    pub switch: u32,
    pub port: u32,
    pub global: usize,
    /// Free credits of the output's link now.
    pub free: u32,
    /// Flits in the output's queue, counting the room reserved for a packet streaming into
    /// it (the CIOQ switch, `speedup`; for `departs`, before the flit leaves); 0 in a
    /// switch without output queues.
    pub queue: u32,
}

/// A flit leaving a switch output.
#[derive(Clone, Copy, Debug)]
pub struct Departure {
    /// The packet's head flit.
    pub head: bool,
    /// Packet length, flits.
    pub len: u16,
    /// A control packet.
    pub control: bool,
    /// The packet's scheme bits so far.
    pub bits: u8,
}

/// A packet head entering a switch input buffer.
#[derive(Clone, Copy, Debug)]
pub struct InputAt {
    pub switch: u32,
    /// Local input number and global port id.
    pub port: u32,
    pub global: usize,
    /// Flits in the buffer before this one, and the buffer's size.
    pub occupancy: u32,
    pub capacity: u32,
    /// The output the packet is routed to (local number).
    pub out: u32,
    pub len: u16,
    pub control: bool,
}

/// Network-wide counts at the start of a cycle, for the global hook.
#[derive(Clone, Copy, Debug, Default)]
pub struct Global {
    /// Flits injected and not yet ejected.
    pub flits_in_network: u64,
    /// Switch-to-switch input buffers that are full (occupancy = capacity): with lanes, each
    /// lane's buffer counts (`vc_buf_flits`); the NICs' injection buffers do not count.
    /// Counted only for a scheme with [`Scheme::WANTS_GLOBAL`].
    pub full_inputs: u64,
    /// Data flits delivered to NICs since cycle 0.
    pub flits_delivered: u64,
    /// Messages accepted and not yet delivered.
    pub messages_pending: u64,
}

/// The seam groups a scheme value uses; the core reads them once when the network is built
/// and skips the calls of the others (for an enum of schemes the constants say only that
/// some scheme uses them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seams {
    /// NIC flow control and control packets.
    pub flows: bool,
    /// Switch marking.
    pub marks: bool,
}

/// A congestion-control scheme as the network core sees it. One value holds the scheme's
/// state for every NIC and switch of a network; hooks are called with the component's index.
pub trait Scheme {
    /// True when the switch hooks are used (the core skips the calls for a value whose
    /// `seams()` says no; `MARKS` is the default of `seams()`).
    const MARKS: bool = false;
    /// True when the NIC flow-control and control-packet hooks are used (`nic_tick`,
    /// `may_start`, `eligible`, `queue_opened`, `packet_started`, `nic_congested`,
    /// `take_control`, `control_waiting`, `arrived`); the core skips them otherwise. A
    /// scheme that gates a whole host through `may_start` sets it.
    const FLOWS: bool = false;
    /// The seam groups this value uses (default: the constants).
    fn seams(&self) -> Seams {
        Seams {
            flows: Self::FLOWS,
            marks: Self::MARKS,
        }
    }
    /// True when the global hook wants [`Global::full_inputs`] (a count over every buffer).
    const WANTS_GLOBAL: bool = false;
    /// True when the scheme wants every switch's output-lane state each cycle
    /// ([`Scheme::lanes`]).
    const WANTS_LANES: bool = false;
    /// True when the switch hooks also work on the lane router: the scheme judges outputs
    /// by the flits queued for them (`queued`, `unqueued`, `departs`, `switch_done`), per
    /// physical port, and does not rely on `head_leaves`, which the lane router does not
    /// call. A scheme that `MARKS` without it is refused on a network with lanes.
    const MARKS_ON_LANES: bool = false;

    // ---------------------------------------------------------------- injection gate

    /// True when every NIC hook touches NIC `n`'s state only (and the scheme's read-only
    /// settings), so that NICs may run on several threads at once (`parallel.rs`).
    fn nic_parallel(&self) -> bool {
        false
    }

    /// One flit slot of NIC `n` at cycle `now`. With the checker on (`GateIn::check`) the
    /// core checks the verdict (a flit sent that was not offered stops the run with
    /// `NetError::Gate`), and a gate may check itself and report through `gate_error`.
    fn gate(&mut self, n: u32, now: u64, i: &GateIn) -> GateOut;
    /// NIC `n`'s used credits `c` now.
    fn used_credits(&self, n: u32) -> u16;
    /// NIC `n`'s gate is idle: from now on, as long as its slots are quiet (no flit offered,
    /// no credit back, no CSR write), each gives send, throttled and congested low and the
    /// same used credits, and changes nothing that the core or a hook reads other than what
    /// `gate_skip` catches up. A NIC with nothing to do then skips those slots (a scheme's
    /// own accessors show its gate as last stepped; PFT's `pft_probe` catches a sleeping
    /// NIC's block up). Default: never.
    fn gate_idle(&self, n: u32) -> bool {
        let _ = n;
        false
    }
    /// NIC `n`'s gate is blocked: every credit is in use, and from now on, as long as no
    /// credit comes back and no CSR write arrives, each slot, whether it offers a flit or
    /// not, gives send, throttled and congested low and the same used credits, and changes
    /// nothing but what `gate_skip` catches up (as for `gate_idle`). A NIC with a flit to
    /// send and no credit then skips those slots until a credit pokes it. It may be asked
    /// of a sleeping NIC's gate whose skipped slots are not caught up yet (a NIC asleep
    /// idle that takes a message), and `gate_skip` then catches quiet and blocked slots
    /// up together: a scheme that says blocked must treat both alike. Default: never.
    fn gate_blocked(&self, n: u32) -> bool {
        let _ = n;
        false
    }
    /// `slots` quiet slots of NIC `n`'s idle gate at once, in the cycle it wakes.
    fn gate_skip(&mut self, n: u32, slots: u64) {
        let _ = (n, slots);
    }
    /// NIC `n`'s gate is in its congested state now.
    fn gate_congested(&self, n: u32) -> bool {
        let _ = n;
        false
    }
    /// NIC `n`'s gate flags an error of its own (the checker calls it with `check` on).
    fn gate_error(&self, n: u32) -> Option<String> {
        let _ = n;
        None
    }
    /// NIC `n`'s gate holds a packet halfway: its state, for the starvation error.
    fn gate_state(&self, n: u32) -> GateState {
        GateState {
            c: self.used_credits(n),
            state: "holding".into(),
            reason: "its injection gate holds the flit".into(),
        }
    }
    /// The gate's name in messages ("PFT block").
    fn gate_name(&self) -> &'static str {
        "credit counter"
    }
    /// The CSR writes (address, data) that a `pft_rewrite` fault's table makes, in order;
    /// the network feeds them to each listed NIC's gate, one per cycle. Default: none (a
    /// gate without registers).
    fn csr_writes(&self, regs: &toml::Table) -> Vec<(u8, u32)> {
        let _ = regs;
        Vec::new()
    }

    // ---------------------------------------------------------------- NIC flow control

    /// Cycle `now` begins at NIC `n` (timers).
    #[inline]
    fn nic_tick(&mut self, n: u32, now: u64) {
        let _ = (n, now);
    }
    /// NIC `n` has no packet in progress: may it start one now? `queued` are its
    /// destinations with a queued message, in round-robin order (never empty here). Called
    /// only when no control packet waits. Contract: true only if some destination in
    /// `queued` is `eligible` now. Default: yes.
    #[inline]
    fn may_start(&mut self, n: u32, now: u64, queued: &VecDeque<u32>) -> bool {
        let _ = (n, now);
        !queued.is_empty()
    }
    /// The flow `n -> dst` may start a packet now (the NIC starts the first eligible
    /// destination in round-robin order).
    #[inline]
    fn eligible(&self, n: u32, dst: u32, now: u64) -> bool {
        let _ = (n, dst, now);
        true
    }
    /// NIC `n`'s queue for destination `dst` became non-empty (the host put a message
    /// into the flow's empty injection queue). Called while the workload's messages of
    /// the cycle are taken in: before the NICs read their arrivals (`arrived`) when the
    /// scheme does not mark at switches (phase 1 by owner, `Network::owner_p1`), after
    /// them when it does.
    #[inline]
    fn queue_opened(&mut self, n: u32, dst: u32) {
        let _ = (n, dst);
    }
    /// NIC `n` starts a data packet of `flits` to `dst` at `now`.
    #[inline]
    fn packet_started(&mut self, n: u32, dst: u32, flits: u32, now: u64) {
        let _ = (n, dst, flits, now);
    }
    /// NIC `n` is congested in the scheme's own sense (counted with the gate's state in
    /// `NicStats::congested_cycles`).
    #[inline]
    fn nic_congested(&self, n: u32) -> bool {
        let _ = n;
        false
    }

    // ---------------------------------------------------------------- control packets

    /// The next control packet NIC `n` sends, taken off the scheme's queue: 1 flit or more,
    /// at most the edge switch's buffer (`NetConfig::buffer_flits`; the core asserts it).
    /// Contract: `Some` exactly when `control_waiting(n)` was true.
    #[inline]
    fn take_control(&mut self, n: u32) -> Option<Control> {
        let _ = n;
        None
    }
    /// NIC `n` has a control packet waiting.
    #[inline]
    fn control_waiting(&self, n: u32) -> bool {
        let _ = n;
        false
    }
    /// Control packets waiting at all NICs (the network is not idle while any).
    fn controls_pending(&self) -> usize {
        0
    }
    /// A packet head arrived at NIC `at`. Called only for packets with scheme bits set or
    /// control packets (ACKs included).
    #[inline]
    fn arrived(&mut self, at: u32, a: &Arrival) {
        let _ = (at, a);
    }

    // ---------------------------------------------------------------- switch marking

    /// A packet head enters a switch input buffer: the bits to set in the packet. Switch
    /// hooks are called only for a scheme value whose `seams()` has `marks`.
    #[inline]
    fn head_arrived(&mut self, i: &InputAt) -> u8 {
        let _ = i;
        0
    }
    /// A packet head leaves a switch input buffer: it won its output (today's switch's
    /// grant, the CIOQ crossbar's). `i.occupancy` is the buffer's flits now, the packet's
    /// included. The bits to set in the packet.
    #[inline]
    fn head_leaves(&mut self, i: &InputAt) -> u8 {
        let _ = i;
        0
    }
    /// A flit for output `o` entered one of its switch's input buffers.
    #[inline]
    fn queued(&mut self, o: &OutputAt) {
        let _ = o;
    }
    /// Undo one [`Scheme::queued`] for output `o`: a flit counted for it will leave through
    /// another output (the lane router's adaptive routing chose another port when the
    /// packet's head was granted a lane). A scheme with [`Scheme::MARKS_ON_LANES`] must
    /// implement it.
    #[inline]
    fn unqueued(&mut self, o: &OutputAt) {
        let _ = o;
    }
    /// A flit leaves through output `o`: the bits to set in its packet.
    #[inline]
    fn departs(&mut self, o: &OutputAt, d: &Departure) -> u8 {
        let _ = (o, d);
        0
    }
    /// Switch `s` ends its cycle; `free(o)` is local output o's free credits.
    #[inline]
    fn switch_done(&mut self, s: u32, free: impl Fn(u32) -> u32) {
        let _ = (s, free);
    }
    /// Flits the scheme counts as queued for global output `gp`, if it counts them (the
    /// checker compares them with the buffers).
    fn queued_for(&self, gp: usize) -> Option<u32> {
        let _ = gp;
        None
    }

    // ---------------------------------------------------------------- global hook

    /// Cycle `now` begins, before any component is read or evaluated.
    #[inline]
    fn cycle(&mut self, now: u64, g: &Global) {
        let _ = (now, g);
    }

    /// At the start of cycle `now` (after [`Scheme::cycle`]), switch `s`'s output lanes as
    /// its allocator sees them: bit `l` is local lane record `l` (port `p`, lane `v` is
    /// `p * vcs + v`; without lanes one record per port). `held`: a packet holds the
    /// lane (allocated to a head, not yet released by its tail); `used`: the lane has a
    /// link. Called only for a scheme with [`Scheme::WANTS_LANES`].
    #[inline]
    fn lanes(&mut self, s: u32, held: u128, used: u128) {
        let _ = (s, held, used);
    }

    // ---------------------------------------------------------------- statistics

    /// Named per-NIC counters since cycle 0 (names fixed per scheme).
    fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
        let _ = n;
        Vec::new()
    }
    /// Named network-wide counters since cycle 0.
    fn counters(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// A packet that arrived with these scheme bits counts as marked in the reports (the
    /// marked fractions of cold and hot packets). Default: any bit set.
    fn marked(&self, bits: u8) -> bool {
        bits != 0
    }
    /// Named values of the scheme's state now (a threshold, an estimate), the same names
    /// every cycle: runs sample them into their time series.
    fn probes(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// The plain credit check: the NIC sends a ready flit whenever a credit is free. `c` counts
/// the credits in use; a credit returned with none in use is an underflow (flagged, `c`
/// stays 0), as PFT's counter does it.
#[derive(Clone, Debug)]
pub struct CreditGate {
    c: Vec<u16>,
    limit: u16,
    underflow: Vec<bool>,
}

impl CreditGate {
    /// `nodes` NICs with `limit` credits each (the edge switch's input buffer).
    pub fn new(nodes: u32, limit: u16) -> Self {
        CreditGate {
            c: vec![0; nodes as usize],
            limit,
            underflow: vec![false; nodes as usize],
        }
    }

    /// One flit slot of NIC `n`.
    #[inline]
    pub fn step(&mut self, n: u32, i: &GateIn) -> GateOut {
        let c = &mut self.c[n as usize];
        let send = i.flit_valid && *c < self.limit;
        let out = GateOut {
            send,
            congested: false,
            throttled: false,
            used_credits: *c,
        };
        let sum = *c as u32 + send as u32;
        let ret = i.credit_return as u32;
        *c = if ret > sum {
            self.underflow[n as usize] = true;
            0
        } else {
            (sum - ret) as u16
        };
        out
    }

    /// NIC `n`'s used credits.
    #[inline]
    pub fn used(&self, n: u32) -> u16 {
        self.c[n as usize]
    }

    /// NIC `n` has every credit in use: an offered flit waits.
    #[inline]
    pub fn full(&self, n: u32) -> bool {
        self.c[n as usize] >= self.limit
    }

    /// NIC `n`'s counter saw a credit with none in use.
    pub fn error(&self, n: u32) -> Option<String> {
        self.underflow[n as usize].then(|| {
            format!(
                "credit underflow flagged (a credit returned with none in use), c = {}",
                self.c[n as usize]
            )
        })
    }
}

/// Values seen `delay` cycles late: `push(now, v)` every cycle, `get()` is the value pushed
/// `delay` cycles before the last push (None until then). A scheme's global hook keeps its
/// network-wide counts in one to see them as a side-band that takes `delay` cycles to
/// gather them would deliver them.
#[derive(Clone, Debug)]
pub struct DelayLine<T> {
    delay: u64,
    ring: VecDeque<(u64, T)>,
}

impl<T: Copy> DelayLine<T> {
    /// A line of `delay` cycles (0: `get` returns the value just pushed).
    pub fn new(delay: u64) -> Self {
        DelayLine {
            delay,
            ring: VecDeque::with_capacity(delay.min(1 << 16) as usize + 1),
        }
    }

    /// The value of cycle `now` (cycles pushed in increasing order, one push per cycle).
    pub fn push(&mut self, now: u64, v: T) {
        debug_assert!(self.ring.back().is_none_or(|&(t, _)| t < now));
        self.ring.push_back((now, v));
        while self.ring.len() as u64 > self.delay + 1 {
            self.ring.pop_front();
        }
    }

    /// The value pushed `delay` cycles before the last push, if that cycle was pushed.
    pub fn get(&self) -> Option<T> {
        let &(last, _) = self.ring.back()?;
        let &(first, v) = self.ring.front()?;
        (last - first == self.delay).then_some(v)
    }
}

/// The plain credit check and nothing else, for the core's own tests.
#[cfg(test)]
pub(crate) struct Plain(pub CreditGate);

#[cfg(test)]
impl Plain {
    /// A network `cfg` under the plain credit check (seed 5).
    pub(crate) fn network(cfg: &super::NetConfig) -> super::Network<Plain> {
        super::Network::build(cfg, 5, |ctx| {
            Ok(Plain(CreditGate::new(
                ctx.nodes,
                ctx.cfg.buffer_flits as u16,
            )))
        })
        .expect("a valid test network")
    }
}

#[cfg(test)]
impl Scheme for Plain {
    fn gate(&mut self, n: u32, _now: u64, i: &GateIn) -> GateOut {
        self.0.step(n, i)
    }
    fn used_credits(&self, n: u32) -> u16 {
        self.0.used(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delay_line_returns_the_value_of_delay_cycles_ago() {
        let mut d = DelayLine::new(3);
        for t in 0..3u64 {
            d.push(t, t * 10);
            assert_eq!(d.get(), None, "cycle {t}: nothing is 3 cycles old yet");
        }
        for t in 3..20u64 {
            d.push(t, t * 10);
            assert_eq!(d.get(), Some((t - 3) * 10));
        }
        let mut z = DelayLine::new(0);
        z.push(5, 7u32);
        assert_eq!(z.get(), Some(7));
    }

    #[test]
    fn the_credit_gate_sends_only_with_a_credit_and_flags_an_underflow() {
        let mut g = CreditGate::new(1, 2);
        let offer = GateIn {
            flit_valid: true,
            ..Default::default()
        };
        assert!(g.step(0, &offer).send);
        assert!(g.step(0, &offer).send);
        let full = g.step(0, &offer);
        assert!(!full.send && full.used_credits == 2 && !full.throttled);
        let back = GateIn {
            credit_return: 2,
            ..Default::default()
        };
        g.step(0, &back);
        assert_eq!(g.used(0), 0);
        assert!(g.error(0).is_none());
        g.step(
            0,
            &GateIn {
                credit_return: 1,
                ..Default::default()
            },
        );
        assert!(
            g.error(0).is_some(),
            "a credit with none in use is an underflow"
        );
        assert_eq!(g.used(0), 0);
    }
}
