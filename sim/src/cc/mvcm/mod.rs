//! MVCM, Marking and Validation Congestion Management (seed 004, Ferrer et al.): switches
//! mark a data packet (MB) that arrives at an input buffer over the input threshold and
//! validate a marked packet (VB) that leaves an output queue over the output threshold;
//! the destination's per-packet ACK carries both bits back; the source shrinks the flow's
//! dynamic window DW on marked ACKs and, at DW = 1, inserts waiting slots that grow by k
//! per validated ACK (at most `ws_max_incs` times); a clean ACK removes the WS at once,
//! then grows DW; a packet put into the flow's empty queue resets the flow.
//!
//! - `config`: the keys and the constants derived from the network (RTT_min, DWmax);
//! - the switches' marking is in [`MvcmState::head_arrived`] and [`MvcmState::departs`];
//! - each flow's source state is ONE reference model, `pft_hdl::mvcm::model::Flow`, which
//!   the RTL is tested against.
//!
//! It needs the CIOQ switch (`speedup`: the output queues it validates at) and per-packet
//! ACKs (`ack_bytes`). Every choice the seed leaves open is in docs/cc/mvcm.md.

pub mod config;

pub use config::{Derived, MvcmConfig};

use super::round_trip::{longest_of, longest_path};
use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::flows::{key, FlowMap};
use crate::net::scheme::{Arrival, CreditGate, Departure, InputAt, OutputAt, Scheme};
use crate::net::{BuildCtx, NetConfig, NetError};
use pft_hdl::mvcm::model::{Action, Flow, Params};
use std::collections::VecDeque;

/// The scheme bit set at a congested input buffer (Marking Bit).
pub const MB: u8 = 1;
/// The scheme bit set at a saturated output queue on a marked packet (Validation Bit).
pub const VB: u8 = 2;

/// The plug-in (registry entry `mvcm`).
pub struct Mvcm;

impl Plugin for Mvcm {
    const KIND: &'static str = "mvcm";
    const ABOUT: &'static str =
        "MVCM: input marking + output validation, per-flow window and waiting slots (seed 004)";
    type Config = MvcmConfig;
    type State = MvcmState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> =
        Some(("in_threshold_percent", "101"));

    fn validate(cfg: &MvcmConfig, prefix: &str, errs: &mut Vec<FieldError>) {
        errs.extend(cfg.errors(prefix));
    }

    fn validate_network(
        cfg: &MvcmConfig,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        if let Err(e) = cfg.derive(net, || longest_of(net), prefix) {
            errs.extend(e);
        }
    }

    fn derived(cfg: &MvcmConfig, net: &NetConfig) -> Vec<(&'static str, u64)> {
        let Ok(d) = cfg.derive(net, || longest_of(net), "cc") else {
            return Vec::new();
        };
        let p = &d.params;
        let mut v = super::left_out([
            ("k", cfg.k, p.k as u64),
            ("n", cfg.n, p.n as u64),
            ("ws_max_incs", cfg.ws_max_incs, p.ws_max_incs as u64),
            ("dw_max", cfg.dw_max, p.dw_max as u64),
            ("rtt_min", cfg.rtt_min, p.rtt_min as u64),
            // the round trip's data packet: one MTU unless set
            ("packet_bytes", cfg.packet_bytes, net.mtu_bytes as u64),
        ]);
        if cfg.rtt_min.is_some() && cfg.dw_max.is_some() {
            // nothing is derived from the round trip: its packet is not used
            v.retain(|(k, _)| *k != "packet_bytes");
        }
        v
    }

    fn build(cfg: &MvcmConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<MvcmState, NetError> {
        let d = cfg
            .derive(ctx.cfg, || longest_path(ctx.cfg, ctx.topo), "cc")
            .map_err(|e| NetError::Config(e.into_iter().next().expect("an error")))?;
        Ok(MvcmState::new(cfg, &d, ctx))
    }

    fn label(cfg: &MvcmConfig) -> String {
        cfg.describe()
    }

    /// The suite's tree is not k-ary n-stage: k = 2, n = 2.
    fn example() -> MvcmConfig {
        MvcmConfig {
            k: Some(2),
            n: Some(2),
            ..Default::default()
        }
    }

    /// Output queues (CIOQ, speedup 2; the CIOQ switch has one FIFO per input) and
    /// one-flit ACKs.
    fn example_net(net: NetConfig) -> NetConfig {
        NetConfig {
            speedup: Some(2),
            voq: false,
            ack_bytes: Some(net.flit_bytes),
            ..net
        }
    }
}

/// A NIC's MVCM counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MvcmNicStats {
    /// ACKs received by class.
    pub acks_clean: u64,
    pub acks_warm: u64,
    pub acks_hot: u64,
    /// Corrective actions: DW lowered, WS inserted or multiplied by k, WS removed.
    pub dw_down: u64,
    pub ws_up: u64,
    pub ws_removed: u64,
    /// Fast resets (a packet put into a flow's empty queue while the flow was reduced).
    pub fast_resets: u64,
}

/// MVCM in a network: the plain credit check at every NIC's injection port, every flow's
/// source state, and the switches' marking counts.
pub struct MvcmState {
    gate: CreditGate,
    params: Params,
    in_level: u32,
    out_level: u32,
    validate: bool,
    /// Warm ACKs act (false: taken as clean at the source).
    warm: bool,
    /// The fast reset only with nothing outstanding (`fast_reset_idle`).
    reset_idle: bool,
    /// Flow `src -> dst` at `key(src, dst)`, only while it is not `idle` (`settled`):
    /// the memory is per active flow (issue 43). Only looked up.
    flows: FlowMap<Flow>,
    /// A flow at full rate with nothing outstanding: every flow without a record.
    idle: Flow,
    /// Per NIC: flows below full rate now (DW < DWmax or WS), and the first error a flow
    /// reported (a stray ACK, an impossible mark, an injection refused).
    reduced: Vec<u32>,
    errors: Vec<Option<String>>,
    pub stats: Vec<MvcmNicStats>,
    /// Packets marked (MB set at an input buffer; a packet marked again counts again) and
    /// validated (VB set at an output queue).
    pub marked: u64,
    pub validated: u64,
    reduced_total: u64,
    ws_total: u64,
    /// What the thresholds are compared with, summed over data packets: the input buffer's
    /// flits at a head's arrival (the packet included) and the output queue's at a head's
    /// departure (issue 42: the seed derives its thresholds from their means near
    /// saturation).
    pub fill: [u64; 4],
}

impl MvcmState {
    fn new(cfg: &MvcmConfig, d: &Derived, ctx: &BuildCtx) -> Self {
        let nodes = ctx.nodes as usize;
        MvcmState {
            gate: CreditGate::new(ctx.nodes, ctx.cfg.buffer_flits as u16),
            params: d.params,
            in_level: d.in_level,
            out_level: d.out_level,
            validate: cfg.validate,
            warm: cfg.warm,
            reset_idle: cfg.fast_reset_idle,
            flows: FlowMap::default(),
            idle: Flow::new(&d.params),
            reduced: vec![0; nodes],
            errors: vec![None; nodes],
            stats: vec![MvcmNicStats::default(); nodes],
            marked: 0,
            validated: 0,
            reduced_total: 0,
            ws_total: 0,
            fill: [0; 4],
        }
    }

    /// The source's constants.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Flow `src -> dst`'s registers now.
    pub fn flow(&self, src: u32, dst: u32) -> &Flow {
        self.flows.get(&key(src, dst)).unwrap_or(&self.idle)
    }

    /// Flow records held (flows not at full rate or with packets outstanding).
    pub fn flow_records(&self) -> usize {
        self.flows.len()
    }

    /// Apply `f` to flow `n -> dst` and keep the per-NIC and global counts of reduced
    /// flows and flows with WS.
    #[inline]
    fn with_flow<R>(&mut self, n: u32, dst: u32, f: impl FnOnce(&mut Flow, &Params) -> R) -> R {
        let k = key(n, dst);
        let p = self.params;
        let mut fl = *self.flow(n, dst);
        let (red0, ws0) = (is_reduced(&fl, &p), fl.ws_exp.is_some());
        let r = f(&mut fl, &p);
        let (red1, ws1) = (is_reduced(&fl, &p), fl.ws_exp.is_some());
        if settled(&fl, &p) {
            self.flows.remove(&k);
        } else {
            self.flows.insert(k, fl);
        }
        if red0 != red1 {
            if red1 {
                self.reduced[n as usize] += 1;
                self.reduced_total += 1;
            } else {
                self.reduced[n as usize] -= 1;
                self.reduced_total -= 1;
            }
        }
        if ws0 != ws1 {
            if ws1 {
                self.ws_total += 1;
            } else {
                self.ws_total -= 1;
            }
        }
        r
    }

    fn flag(&mut self, n: u32, e: String) {
        let slot = &mut self.errors[n as usize];
        if slot.is_none() {
            *slot = Some(e);
        }
    }
}

/// At full rate with nothing outstanding: the same as a new flow (`Flow::new`) for every
/// later cycle, so it needs no record. Its `next_ok` may differ, but without WS it is the
/// cycle of its last start (`on_inject` adds no waiting interval) or 0, never in the future.
#[inline]
fn settled(f: &Flow, p: &Params) -> bool {
    f.dw as u32 == p.dw_max && f.out == 0 && f.ws_exp.is_none() && f.incs == 0
}

/// Below full rate: a smaller window or waiting slots.
#[inline]
fn is_reduced(f: &Flow, p: &Params) -> bool {
    (f.dw as u32) < p.dw_max || f.ws_exp.is_some()
}

impl Scheme for MvcmState {
    const MARKS: bool = true;
    const FLOWS: bool = true;

    credit_gate_hooks!(gate, errors);

    #[inline]
    fn may_start(&mut self, n: u32, now: u64, queued: &VecDeque<u32>) -> bool {
        queued.iter().any(|&d| self.eligible(n, d, now))
    }
    #[inline]
    fn eligible(&self, n: u32, dst: u32, now: u64) -> bool {
        self.flow(n, dst).can_inject(now)
    }
    /// The fast reset: the host put a packet into the flow's empty injection queue.
    #[inline]
    fn queue_opened(&mut self, n: u32, dst: u32) {
        if self.reset_idle && self.flow(n, dst).out > 0 {
            return; // packets outstanding: their ACKs will tell
        }
        let was = is_reduced(self.flow(n, dst), &self.params);
        self.with_flow(n, dst, |f, p| f.on_enqueue_into_empty_queue(p));
        if was {
            self.stats[n as usize].fast_resets += 1;
        }
    }
    #[inline]
    fn packet_started(&mut self, n: u32, dst: u32, _flits: u32, now: u64) {
        if let Err(e) = self.with_flow(n, dst, |f, p| f.on_inject(p, now)) {
            self.flag(n, format!("mvcm flow {n} -> {dst} at cycle {now}: {e}"));
        }
    }
    #[inline]
    fn nic_congested(&self, n: u32) -> bool {
        self.reduced[n as usize] > 0
    }

    /// An ACK of flow `at -> a.src` with the data packet's MB and VB.
    #[inline]
    fn arrived(&mut self, at: u32, a: &Arrival) {
        if !a.ack {
            return; // a data packet with bits: its ACK carries them back
        }
        let mb = a.bits & MB != 0;
        let vb = a.bits & VB != 0;
        let st = &mut self.stats[at as usize];
        match (mb, vb) {
            (false, false) => st.acks_clean += 1,
            (true, false) => st.acks_warm += 1,
            _ => st.acks_hot += 1,
        }
        // without warm packets (`warm = false`) an MB alone reaches the source as clean
        let mb = mb && (vb || self.warm);
        match self.with_flow(at, a.src, |f, p| f.on_ack(p, mb, vb)) {
            Ok(action) => {
                let st = &mut self.stats[at as usize];
                match action {
                    Action::DwDown => st.dw_down += 1,
                    Action::WsSet | Action::WsUp => st.ws_up += 1,
                    Action::WsRemoved => st.ws_removed += 1,
                    Action::DwUp | Action::Hold => {}
                }
            }
            Err(e) => self.flag(at, format!("mvcm flow {at} -> {}: {e}", a.src)),
        }
    }

    /// MB: a data packet whose arrival leaves the input buffer over the input threshold
    /// (the buffer's flits with the whole packet counted: its room is reserved). Without
    /// validation (`validate = false`) an MB is also a VB.
    #[inline]
    fn head_arrived(&mut self, i: &InputAt) -> u8 {
        if i.control {
            return 0;
        }
        self.fill[0] += (i.occupancy + i.len as u32) as u64;
        self.fill[1] += 1;
        if i.occupancy + i.len as u32 <= self.in_level {
            return 0;
        }
        self.marked += 1;
        if self.validate {
            MB
        } else {
            MB | VB
        }
    }

    /// VB: a marked data packet whose head leaves an output queue over the output
    /// threshold (the queue's flits with this packet's).
    #[inline]
    fn departs(&mut self, o: &OutputAt, d: &Departure) -> u8 {
        if d.head && !d.control {
            self.fill[2] += o.queue as u64;
            self.fill[3] += 1;
        }
        if !d.head || d.control || d.bits & MB == 0 || d.bits & VB != 0 || o.queue <= self.out_level
        {
            return 0;
        }
        self.validated += 1;
        VB
    }

    fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
        let s = &self.stats[n as usize];
        vec![
            ("acks_clean", s.acks_clean),
            ("acks_warm", s.acks_warm),
            ("acks_hot", s.acks_hot),
            ("dw_down", s.dw_down),
            ("ws_up", s.ws_up),
            ("ws_removed", s.ws_removed),
            ("fast_resets", s.fast_resets),
        ]
    }
    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("mb_marked", self.marked),
            ("vb_validated", self.validated),
            ("in_fill_flits_sum", self.fill[0]),
            ("in_fill_heads", self.fill[1]),
            ("out_fill_flits_sum", self.fill[2]),
            ("out_fill_heads", self.fill[3]),
        ]
    }
    /// Marked in the reports: validated (MB and VB: the hot class). Our reading of the
    /// seed's Fig. 10, whose MVCM marks fewer hot packets than Pfister's "because MVCM
    /// defines a dependency between marking and validation" (docs/cc/mvcm.md).
    fn marked(&self, bits: u8) -> bool {
        bits & VB != 0
    }
    /// Flows below full rate, and flows with waiting slots, now.
    fn probes(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("reduced_flows", self.reduced_total as f64),
            ("ws_flows", self.ws_total as f64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Topology, TopologyConfig};

    /// The seed's network at 8-byte flits (tests/cc_mvcm.rs has the same): 128-flit input
    /// buffers and output queues, 35-flit packets, 3-flit ACKs.
    fn net() -> NetConfig {
        NetConfig {
            topology: TopologyConfig::KaryNfly {
                k: 4,
                n: 5,
                hosts: Some(512),
            },
            flit_bytes: 8,
            mtu_bytes: 280,
            buffer_flits: 128,
            out_buffer_flits: Some(128),
            eject_buffer_flits: 128,
            link_latency_cycles: 1,
            credit_latency_cycles: 1,
            switch_latency_cycles: 0,
            speedup: Some(2),
            ack_bytes: Some(22),
            ..Default::default()
        }
    }

    fn state(cfg: &MvcmConfig) -> MvcmState {
        let net = net();
        let topo = Topology::for_net(&net);
        let ctx = BuildCtx {
            cfg: &net,
            topo: &topo,
            nodes: topo.nodes(),
            ports: topo.switches().iter().map(|s| s.radix as usize).sum(),
            seed: 1,
        };
        Mvcm::build(cfg, &ctx, &RunOpts::default()).unwrap()
    }

    fn input(occupancy: u32, len: u16, control: bool) -> InputAt {
        InputAt {
            switch: 0,
            port: 0,
            global: 0,
            occupancy,
            capacity: 128,
            out: 0,
            len,
            control,
        }
    }

    fn output(queue: u32) -> OutputAt {
        OutputAt {
            switch: 0,
            port: 0,
            global: 0,
            free: 128,
            queue,
        }
    }

    fn leaving(bits: u8, head: bool, control: bool) -> Departure {
        Departure {
            head,
            len: 35,
            control,
            bits,
        }
    }

    #[test]
    fn an_input_buffer_marks_a_data_packet_that_leaves_it_over_66_percent() {
        let mut s = state(&MvcmConfig::default());
        // 66 % of 128 flits is 84: the buffer with the packet must hold more
        assert_eq!(
            s.head_arrived(&input(49, 35, false)),
            0,
            "84 flits: not over"
        );
        assert_eq!(s.head_arrived(&input(50, 35, false)), MB, "85 flits: over");
        assert_eq!(
            s.head_arrived(&input(93, 35, true)),
            0,
            "an ACK is never marked"
        );
        assert_eq!(s.marked, 1);
        let mut lo = state(&MvcmConfig {
            in_threshold_percent: 10,
            ..Default::default()
        });
        assert_eq!(
            lo.head_arrived(&input(0, 12, false)),
            0,
            "12 flits of 128 <= 12"
        );
        assert_eq!(lo.head_arrived(&input(0, 13, false)), MB);
    }

    #[test]
    fn an_output_queue_validates_only_marked_packets_over_33_percent() {
        let mut s = state(&MvcmConfig::default());
        // 33 % of 128 flits is 42
        assert_eq!(s.departs(&output(42), &leaving(MB, true, false)), 0);
        assert_eq!(s.departs(&output(43), &leaving(MB, true, false)), VB);
        assert_eq!(
            s.departs(&output(128), &leaving(0, true, false)),
            0,
            "an unmarked packet is never validated (MB = 0, VB = 1 cannot happen)"
        );
        assert_eq!(
            s.departs(&output(128), &leaving(MB, false, false)),
            0,
            "heads only"
        );
        assert_eq!(
            s.departs(&output(128), &leaving(MB, true, true)),
            0,
            "not ACKs"
        );
        assert_eq!(s.validated, 1);
        // without validation an MB grades the packet hot at once
        let mut nv = state(&MvcmConfig {
            validate: false,
            ..Default::default()
        });
        assert_eq!(nv.head_arrived(&input(93, 35, false)), MB | VB);
    }

    /// An ACK from NIC 9 with the data packet's bits.
    fn ack(bits: u8) -> Arrival {
        Arrival {
            src: 9,
            len: 3,
            bits,
            control: true,
            ack: true,
        }
    }

    #[test]
    fn acks_drive_the_flow_as_the_reference_model_does() {
        let mut s = state(&MvcmConfig::default());
        let p = *s.params();
        let mut model = Flow::new(&p);
        let mut now = 0;
        for (i, bits) in [
            MB | VB,
            MB | VB,
            MB | VB,
            MB | VB,
            MB,
            0,
            0,
            MB | VB,
            0,
            0,
            0,
        ]
        .into_iter()
        .enumerate()
        {
            now = now.max(model.next_ok);
            assert!(s.eligible(3, 9, now), "step {i}");
            s.packet_started(3, 9, 35, now);
            model.on_inject(&p, now).unwrap();
            s.arrived(3, &ack(bits));
            model.on_ack(&p, bits & MB != 0, bits & VB != 0).unwrap();
            let want = if settled(&model, &p) {
                Flow::new(&p) // no record: its past next_ok is not kept
            } else {
                model
            };
            assert_eq!(*s.flow(3, 9), want, "step {i}");
            assert_eq!(s.nic_congested(3), is_reduced(&model, &p), "step {i}");
        }
        assert_eq!(s.stats[3].acks_hot, 5);
        assert!(s.gate_error(3).is_none());
        // the fast reset on a packet put into the flow's empty queue
        s.arrived(3, &ack(MB | VB)); // a stray ACK: flagged
        assert!(s.gate_error(3).unwrap().contains("no packet outstanding"));
        s.packet_started(3, 9, 35, now + 1_000_000);
        s.arrived(3, &ack(MB));
        assert_eq!(s.flow(3, 9).dw, 1);
        s.queue_opened(3, 9);
        assert_eq!(*s.flow(3, 9), Flow::new(&p));
        assert_eq!(s.stats[3].fast_resets, 1);
        assert!(!s.nic_congested(3));
    }

    /// `fast_reset_idle = true` (issue 42's ablation): no reset while a packet is
    /// outstanding, the reset once none is.
    #[test]
    fn the_idle_fast_reset_waits_for_the_last_ack() {
        let mut s = state(&MvcmConfig {
            fast_reset_idle: true,
            ..Default::default()
        });
        let p = *s.params();
        s.packet_started(3, 9, 35, 0);
        s.packet_started(3, 9, 35, 1);
        s.arrived(3, &ack(MB | VB));
        assert_eq!(s.flow(3, 9).dw as u32, p.dw_max - 1);
        assert_eq!(s.flow(3, 9).out, 1);
        s.queue_opened(3, 9);
        assert_eq!(
            s.flow(3, 9).dw as u32,
            p.dw_max - 1,
            "one outstanding: no reset"
        );
        assert_eq!(s.stats[3].fast_resets, 0);
        s.arrived(3, &ack(MB));
        assert_eq!(s.flow(3, 9).out, 0);
        s.queue_opened(3, 9);
        assert_eq!(*s.flow(3, 9), Flow::new(&p), "none outstanding: reset");
        assert_eq!(s.stats[3].fast_resets, 1);
    }

    /// `warm = false` (Fig. 14's ablation): a warm ACK does to the flow what a clean one
    /// does, also on a lowered window; a hot ACK still acts.
    #[test]
    fn without_warm_packets_an_mb_alone_acts_as_a_clean_ack() {
        let mut on = state(&MvcmConfig::default());
        let mut off = state(&MvcmConfig {
            warm: false,
            ..Default::default()
        });
        let mut clean = state(&MvcmConfig::default());
        let p = *on.params();
        assert!(p.dw_max > 1, "a window to lower");
        // a hot ACK first: every flow's window goes down (warm = false keeps hot ACKs)
        for s in [&mut on, &mut off, &mut clean] {
            s.packet_started(3, 9, 35, 0);
            s.arrived(3, &ack(MB | VB));
            assert_eq!(s.flow(3, 9).dw as u32, p.dw_max - 1, "a hot ACK acts");
        }
        // then a warm ACK, and a clean one for comparison
        for (s, bits) in [(&mut on, MB), (&mut off, MB), (&mut clean, 0)] {
            s.packet_started(3, 9, 35, 1);
            s.arrived(3, &ack(bits));
        }
        assert_eq!(*off.flow(3, 9), *clean.flow(3, 9), "taken as clean");
        assert_ne!(*on.flow(3, 9), *clean.flow(3, 9), "warm acts by default");
        assert_eq!(off.stats[3].acks_warm, 1, "still counted as warm");
    }
}
