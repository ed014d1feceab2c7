//! Renato's proposal (Santos, Turner and Janakiraman, for InfiniBand), seed 004's first
//! comparator (§3.2.1): input packet marking in three steps at the switches (`switch`),
//! the destination's ACK carrying the mark back, and at the source a static window (1
//! packet) with a per-flow inter-packet delay set by a response function (LIPD, FIMD or
//! AIMD; `config`). Every choice the seed leaves open is in docs/cc/renato.md.
//!
//! It needs per-packet ACKs (`ack_bytes`); it runs on today's input-buffered switch and on
//! the CIOQ switch (whose input buffers it marks at).

pub mod config;
pub mod switch;

pub use config::{FlowUnit, RenatoConfig, Response};

use super::round_trip::{longest_of, longest_path};
use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::flows::{key, FlowMap};
use crate::net::scheme::{Arrival, CreditGate, InputAt, Scheme};
use crate::net::{BuildCtx, NetConfig, NetError};
use std::collections::VecDeque;
use switch::Ipm;

/// The scheme bit IPM sets in a data packet.
pub const MARK: u8 = 1;

/// Full rate in AIMD's fixed point.
const FULL: u32 = 1 << 16;
/// Largest delay, cycles (a flow never waits longer between two packets).
const MAX_GAP: u64 = 1 << 32;

/// The plug-in (registry entry `renato`).
pub struct Renato;

impl Plugin for Renato {
    const KIND: &'static str = "renato";
    const ABOUT: &'static str =
        "Renato's proposal: 3-step input marking, window 1, LIPD/FIMD/AIMD (seed 004's comparator)";
    type Config = RenatoConfig;
    type State = RenatoState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = Some(("window", "0"));

    fn validate(cfg: &RenatoConfig, prefix: &str, errs: &mut Vec<FieldError>) {
        errs.extend(cfg.errors(prefix));
    }

    fn validate_network(
        cfg: &RenatoConfig,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        if let Err(e) = cfg.packet_time_on(net, || longest_of(net), prefix) {
            errs.extend(e);
        }
    }

    fn derived(cfg: &RenatoConfig, net: &NetConfig) -> Vec<(&'static str, u64)> {
        let Ok((t, _)) = cfg.packet_time_on(net, || longest_of(net), "cc") else {
            return Vec::new();
        };
        let mut v = super::left_out([
            ("packet_time", cfg.packet_time, t as u64),
            ("packet_bytes", cfg.packet_bytes, net.mtu_bytes as u64),
        ]);
        if cfg.packet_time.is_some() {
            // T is given: the round trip's packet is not used
            v.retain(|(k, _)| *k != "packet_bytes");
        }
        v
    }

    fn build(cfg: &RenatoConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<RenatoState, NetError> {
        let (t, _) = cfg
            .packet_time_on(ctx.cfg, || longest_path(ctx.cfg, ctx.topo), "cc")
            .map_err(|e| NetError::Config(e.into_iter().next().expect("an error")))?;
        let nodes = ctx.nodes as usize;
        let start = match cfg.response {
            Response::Aimd => FULL,
            _ => 0,
        };
        Ok(RenatoState {
            gate: CreditGate::new(ctx.nodes, ctx.cfg.buffer_flits as u16),
            cfg: cfg.clone(),
            packet_time: t as u64,
            flows: FlowMap::default(),
            idle: RFlow {
                out: 0,
                level: start,
                next_ok: 0,
            },
            throttled: vec![0; nodes],
            throttled_total: 0,
            ipm: Ipm::new(
                ctx.topo.switches().iter().map(|s| s.radix),
                ctx.cfg.mtu_flits(),
            ),
            stats: vec![RenatoNicStats::default(); nodes],
            errors: vec![None; nodes],
        })
    }

    fn label(cfg: &RenatoConfig) -> String {
        cfg.describe()
    }

    /// One-flit ACKs.
    fn example_net(net: NetConfig) -> NetConfig {
        NetConfig {
            ack_bytes: Some(net.flit_bytes),
            ..net
        }
    }
}

/// One flow's source state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RFlow {
    /// Packets outstanding (at most the window).
    pub out: u8,
    /// LIPD: delay in packet times; FIMD: the rate is m^-level; AIMD: the rate in 1/65536
    /// of full rate.
    pub level: u32,
    /// First cycle in which the next packet may start.
    pub next_ok: u64,
}

/// A NIC's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenatoNicStats {
    pub acks_marked: u64,
    pub acks_clean: u64,
}

/// Renato's proposal in a network.
pub struct RenatoState {
    gate: CreditGate,
    cfg: RenatoConfig,
    packet_time: u64,
    /// Flow records, only while a flow differs from `idle` (issue 43: memory per active
    /// flow, not per NIC pair). Only looked up.
    flows: FlowMap<RFlow>,
    /// A flow at its starting rate with nothing outstanding: every flow without a record.
    idle: RFlow,
    /// Flows below full rate, per NIC and in all.
    throttled: Vec<u32>,
    throttled_total: u64,
    pub ipm: Ipm,
    pub stats: Vec<RenatoNicStats>,
    errors: Vec<Option<String>>,
}

impl RenatoState {
    /// The key of flow `src -> dst` (`flow = "source"`: the source's one flow).
    fn index(&self, src: u32, dst: u32) -> u64 {
        match self.cfg.flow {
            FlowUnit::Pair => key(src, dst),
            FlowUnit::Source => key(src, 0),
        }
    }

    /// Flow `src -> dst` now.
    pub fn flow(&self, src: u32, dst: u32) -> &RFlow {
        self.flows.get(&self.index(src, dst)).unwrap_or(&self.idle)
    }

    /// Keep flow `k`'s record, or none if it is `idle`.
    fn store(&mut self, k: u64, f: RFlow) {
        if f == self.idle {
            self.flows.remove(&k);
        } else {
            self.flows.insert(k, f);
        }
    }

    /// Flow records held (flows below full rate or with packets outstanding).
    pub fn flow_records(&self) -> usize {
        self.flows.len()
    }

    /// The packet transmission time T, cycles.
    pub fn packet_time(&self) -> u64 {
        self.packet_time
    }

    /// Cycles from one packet's start to the next one's at the flow's rate (0: full rate,
    /// only the window limits).
    pub fn gap(&self, f: &RFlow) -> u64 {
        let t = self.packet_time;
        let g = match self.cfg.response {
            Response::Lipd if f.level == 0 => 0,
            Response::Lipd => t.saturating_mul(1 + f.level as u64),
            Response::Fimd if f.level == 0 => 0,
            Response::Fimd => t.saturating_mul((self.cfg.m).saturating_pow(f.level)),
            Response::Aimd if f.level >= FULL => 0,
            Response::Aimd => t.saturating_mul(FULL as u64) / f.level.max(1) as u64,
        };
        g.min(MAX_GAP)
    }

    fn slow(&self, f: &RFlow) -> bool {
        match self.cfg.response {
            Response::Aimd => f.level < FULL,
            _ => f.level > 0,
        }
    }

    /// A marked (true) or clean ACK changes flow `f`'s rate.
    fn respond(&self, f: &mut RFlow, marked: bool) {
        let lim = |lvl: u32| self.gap(&RFlow { level: lvl, ..*f }) < MAX_GAP;
        f.level = match (self.cfg.response, marked) {
            (Response::Lipd | Response::Fimd, true) if lim(f.level + 1) => f.level + 1,
            (Response::Lipd | Response::Fimd, true) => f.level,
            (Response::Lipd | Response::Fimd, false) => f.level.saturating_sub(1),
            (Response::Aimd, true) => (f.level / 2).max(1),
            (Response::Aimd, false) => {
                let step = (self.cfg.ai_percent / 100.0 * FULL as f64).round().max(1.0) as u32;
                (f.level + step).min(FULL)
            }
        };
    }

    fn flag(&mut self, n: u32, e: String) {
        let slot = &mut self.errors[n as usize];
        if slot.is_none() {
            *slot = Some(e);
        }
    }
}

impl Scheme for RenatoState {
    const MARKS: bool = true;
    const FLOWS: bool = true;

    credit_gate_hooks!(gate, errors);

    #[inline]
    fn may_start(&mut self, n: u32, now: u64, queued: &VecDeque<u32>) -> bool {
        queued.iter().any(|&d| self.eligible(n, d, now))
    }
    #[inline]
    fn eligible(&self, n: u32, dst: u32, now: u64) -> bool {
        let f = self.flow(n, dst);
        (f.out as u64) < self.cfg.window && now >= f.next_ok
    }
    #[inline]
    fn packet_started(&mut self, n: u32, dst: u32, _flits: u32, now: u64) {
        if !self.eligible(n, dst, now) {
            self.flag(
                n,
                format!("renato flow {n} -> {dst} started at cycle {now} while not eligible"),
            );
        }
        let i = self.index(n, dst);
        let mut f = *self.flow(n, dst);
        let gap = self.gap(&f);
        f.out += 1;
        // gap 0: `now` itself, which no later cycle is before, so 0 is the same and
        // lets the flow's record go when it is idle again
        f.next_ok = if gap == 0 { 0 } else { now + gap };
        self.store(i, f);
    }
    #[inline]
    fn nic_congested(&self, n: u32) -> bool {
        self.throttled[n as usize] > 0
    }

    /// An ACK of flow `at -> a.src`: its mark sets the flow's rate.
    #[inline]
    fn arrived(&mut self, at: u32, a: &Arrival) {
        if !a.ack {
            return;
        }
        let marked = a.bits & MARK != 0;
        let st = &mut self.stats[at as usize];
        if marked {
            st.acks_marked += 1;
        } else {
            st.acks_clean += 1;
        }
        let i = self.index(at, a.src);
        let mut f = *self.flow(at, a.src);
        if f.out == 0 {
            self.flag(
                at,
                format!(
                    "renato flow {at} -> {}: ACK with no packet outstanding",
                    a.src
                ),
            );
            return;
        }
        f.out -= 1;
        let was = self.slow(&f);
        self.respond(&mut f, marked);
        let now_slow = self.slow(&f);
        self.store(i, f);
        if was != now_slow {
            if now_slow {
                self.throttled[at as usize] += 1;
                self.throttled_total += 1;
            } else {
                self.throttled[at as usize] -= 1;
                self.throttled_total -= 1;
            }
        }
    }

    #[inline]
    fn head_arrived(&mut self, i: &InputAt) -> u8 {
        let m = self.ipm.arrive(
            i.switch,
            i.global,
            i.out,
            i.len as u32,
            i.capacity,
            !i.control,
        );
        if m {
            MARK
        } else {
            0
        }
    }
    #[inline]
    fn head_leaves(&mut self, i: &InputAt) -> u8 {
        let m = self.ipm.leave(
            i.switch,
            i.global,
            i.out,
            i.len as u32,
            i.capacity,
            !i.control,
        );
        if m {
            MARK
        } else {
            0
        }
    }

    fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
        let s = &self.stats[n as usize];
        vec![("acks_marked", s.acks_marked), ("acks_clean", s.acks_clean)]
    }
    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("ipm_marked", self.ipm.marked),
            ("ipm_onsets", self.ipm.events),
        ]
    }
    /// Flows below full rate now.
    fn probes(&self) -> Vec<(&'static str, f64)> {
        vec![("throttled_flows", self.throttled_total as f64)]
    }
}
