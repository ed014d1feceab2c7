//! One run of a scenario: build the network and the workload, step until the cycle budget
//! is spent (or, for GPCNeT, until the canary tests finish), and collect what the reports
//! need: per-node counters over the measurement window, victim latency and bandwidth, the
//! GPCNeT summary, the PFT state and a time series of `c` at chosen NICs.
//!
//! Measurement window: `[warmup, end)`, `end` = cycles run. NIC counters are the difference
//! of `NicStats` between the two ends; `c` is averaged over every cycle of the window.

use super::config::Scenario;
use super::progress::Progress;
use crate::cc::CcConfig;
use crate::cc::Network;
use crate::metrics::{
    percentile_from_top, summarize, ColdHot, DeliveryReport, DeliveryStats, Distribution,
    GpcnetSummary, NetSeries, Summary, TimeSeries,
};
use crate::net::{Delivery, NetConfig, NicStats, NodeId};
use crate::workload::gpcnet::NodeRole;
use crate::workload::{tag, AnyWorkload, CanaryTest, NodeClass, StreamService, WorkloadConfig};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// Bins of the per-process histograms.
pub const HIST_BINS: usize = 20;
/// Cycles between progress-bar updates.
const PROGRESS_EVERY: u64 = 1 << 13;

/// What to run: one congestion-control configuration, with or without the aggressors.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Label in reports and the output directory (`off`, `isolated`, or a `[[pft]]` or
    /// `[[cc]]` name).
    pub label: String,
    pub cc: CcConfig,
    /// GPCNeT only: false runs the isolated baseline (congestors off).
    pub congestors: bool,
}

/// One NIC over the window (a row of `nodes.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeRow {
    pub node: NodeId,
    /// Class of traffic it runs (`canary`, `a2a`, `incast`, `put_incast`, `get_bcast`;
    /// `C`, `V`, `B`; `uniform`).
    pub class: String,
    /// The class plus its part in it (`incast_root`, `V_hotspot`, ...).
    pub role: String,
    pub flits_injected: u64,
    pub flits_ejected: u64,
    /// Flits injected per cycle of the window.
    pub injected_per_cycle: f64,
    /// Flits ejected (accepted) per cycle of the window.
    pub accepted_per_cycle: f64,
    /// Mean used credits `c` over the window's cycles.
    pub mean_c: f64,
    pub max_c: u32,
    /// Fraction of the window's cycles in which its PFT block was Congested.
    pub frac_congested: f64,
    /// Cycles in which its PFT block held back a ready flit that had a credit.
    pub throttled_cycles: u64,
    pub frac_throttled: f64,
    /// Messages its full send queue refused over the whole run (`send_queue_msgs`): never
    /// created, so in no other column.
    pub messages_refused: u64,
}

/// One class of NICs over the window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRow {
    pub class: String,
    pub nodes: u32,
    /// Mean over its NICs of flits injected per cycle.
    pub injected_per_node_cycle: f64,
    /// Mean over its NICs of flits accepted per cycle.
    pub accepted_per_node_cycle: f64,
    pub mean_c: f64,
    pub frac_congested: f64,
    pub throttled_cycles: u64,
    pub frac_throttled: f64,
}

/// Victim (canary) traffic: GPCNeT's latency and bandwidth tests, or the open-loop
/// workloads' uniformly addressed messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VictimStats {
    /// What the numbers are (`gpcnet latency test` / `hotspot_uniform messages` ...).
    pub source: String,
    pub latency_units: String,
    /// Mean latency: GPCNeT's Avg of the latency test, or the mean message latency.
    pub latency_mean: Option<f64>,
    /// 99th percentile (nearest rank) of the latency samples (GPCNeT's "99%").
    pub latency_p99: Option<f64>,
    /// All latency samples: count, mean, min, p50, p99, max.
    pub latency: Option<Summary>,
    pub bandwidth_units: String,
    /// Mean bandwidth: GPCNeT's Avg of the bandwidth test, or the mean over victim NICs of
    /// victim bytes delivered per cycle.
    pub bandwidth_mean: Option<f64>,
    /// Low tail: the value 99 % of the samples reach or exceed (GPCNeT's "99%").
    pub bandwidth_p99: Option<f64>,
    /// All bandwidth samples: count, mean, min, p50, p99 (high side), max.
    pub bandwidth: Option<Summary>,
    /// Per-process (GPCNeT) or per-NIC (open loop) mean latency, for the Fig. 3-style plot.
    pub latency_per_process: Option<Distribution>,
    /// Per-process or per-NIC bandwidth, for the Fig. 4-style plot.
    pub bandwidth_per_process: Option<Distribution>,
}

/// PFT activity over the window, all NICs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PftStats {
    /// Fraction of NIC-cycles spent Congested.
    pub frac_congested: f64,
    /// NICs that were Congested at least once.
    pub nics_ever_congested: u32,
    pub throttled_cycles: u64,
    /// Throttled NIC-cycles / NIC-cycles.
    pub frac_throttled: f64,
    pub mean_c: f64,
    pub max_c: u32,
}

/// Receive rates as the IB study reports them (hot-spot workloads), Gb/s at the network's
/// `link_gbps`: a rate of r flits/cycle is r * link_gbps. A node counts as a hot spot
/// during the epochs in which it is one (moving hot spots).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HotspotRates {
    /// Mean receive rate of the hot-spot nodes.
    pub rx_hot: f64,
    /// Mean receive rate of the other nodes.
    pub rx_nonhot: f64,
    /// Total network throughput: the sum of every node's receive rate.
    pub rx_total: f64,
    /// Mean receive rate of all nodes (`rx_total / nodes`).
    pub rx_mean: f64,
    /// Link rate the figures are scaled to.
    pub link_gbps: f64,
}

/// Data flits each node has received, at the start of each hot-spot epoch in the window.
struct EpochRx {
    /// (cycle, hot spots from then on, flits ejected per node at that cycle).
    marks: Vec<(u64, Vec<NodeId>, Vec<u64>)>,
}

impl EpochRx {
    fn rates(&self, end: u64, ej_end: &[u64], link_gbps: f64) -> Option<HotspotRates> {
        let nodes = ej_end.len();
        let (mut hot, mut hot_nc, mut other, mut other_nc, mut total) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        for (k, (at, hs, ej)) in self.marks.iter().enumerate() {
            let (until, ej_next) = match self.marks.get(k + 1) {
                Some((t, _, e)) => (*t, e.as_slice()),
                None => (end, ej_end),
            };
            let span = until.saturating_sub(*at);
            for n in 0..nodes {
                let got = ej_next[n] - ej[n];
                total += got;
                if hs.contains(&NodeId(n as u32)) {
                    hot += got;
                    hot_nc += span;
                } else {
                    other += got;
                    other_nc += span;
                }
            }
        }
        let window = end.saturating_sub(self.marks.first()?.0).max(1);
        let g = |f: u64, nc: u64| f as f64 / nc.max(1) as f64 * link_gbps;
        let rx_total = total as f64 / window as f64 * link_gbps;
        Some(HotspotRates {
            rx_hot: g(hot, hot_nc),
            rx_nonhot: g(other, other_nc),
            rx_total,
            rx_mean: rx_total / nodes.max(1) as f64,
            link_gbps,
        })
    }
}

/// Everything one run measured.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub spec: RunSpec,
    pub cycles_run: u64,
    pub wall_seconds: f64,
    /// GPCNeT: every canary test finished. Open loop: the run reached `cycles.max`.
    pub finished: bool,
    /// GPCNeT: the share of its expected work done at the end, 0 to 1
    /// (`AnyWorkload::work_done`); None for the open-loop workloads.
    pub work_done: Option<f64>,
    /// GPCNeT: each canary test's (first, last) cycle, in `canary_tests` order (None for
    /// a test not started or not ended); empty for the open-loop workloads.
    pub canary_spans: Vec<(Option<u64>, Option<u64>)>,
    pub window_start: u64,
    pub window_cycles: u64,
    pub nodes: Vec<NodeRow>,
    pub classes: Vec<ClassRow>,
    pub delivery: DeliveryReport,
    pub victims: VictimStats,
    pub gpcnet: Option<GpcnetSummary>,
    pub pft_stats: PftStats,
    /// The congestion-control scheme's own counters at the end of the run (since cycle
    /// 0): its network-wide counters and its per-NIC counters summed over the NICs
    /// (`net::Scheme::counters`, `nic_counters`; IB CC: `fecn_marked`, `cnps_sent`, ...).
    pub cc_counters: BTreeMap<String, u64>,
    pub timeseries: TimeSeries,
    /// Throughput against time and the scheme's probes, in bins of `timeseries.period`
    /// cycles over the whole run (`series.csv`).
    pub series: NetSeries,
    /// Hot-spot workloads: the IB study's receive rates.
    pub hotspot_rates: Option<HotspotRates>,
    /// Hot-spot workloads: cold and hot messages, bins of `timeseries.period` (`coldhot.csv`).
    pub coldhot: Option<ColdHot>,
    /// Motif and trace workloads: every iteration (`motif_iterations.csv`).
    pub motif: Option<crate::workload::MotifResults>,
}

impl RunOutput {
    /// Mean accepted flits per NIC per cycle over the window.
    pub fn accepted_per_node_cycle(&self) -> f64 {
        let n = self.nodes.len().max(1) as f64;
        self.nodes.iter().map(|r| r.accepted_per_cycle).sum::<f64>() / n
    }
}

/// Class and role of every NIC.
fn roles(w: &AnyWorkload, nodes: u32) -> Vec<(String, String)> {
    match w {
        AnyWorkload::Gpcnet(g) => {
            let l = g.layout();
            l.roles
                .iter()
                .map(|r| match *r {
                    NodeRole::Canary { .. } => ("canary".to_string(), "canary".to_string()),
                    NodeRole::Congestor { group, rank } => {
                        let kind = l.groups[group as usize].kind;
                        let class = kind_name(kind).to_string();
                        let role = if rank == 0 && kind != crate::workload::CongestorKind::A2a {
                            format!("{class}_root")
                        } else {
                            class.clone()
                        };
                        (class, role)
                    }
                })
                .collect()
        }
        AnyWorkload::Hotspot(h) => (0..nodes)
            .map(|n| {
                let class = match h.class_of(NodeId(n)) {
                    NodeClass::C => "C",
                    NodeClass::V => "V",
                    NodeClass::B => "B",
                }
                .to_string();
                let hot = h.history().iter().any(|e| e.hotspots.contains(&NodeId(n)));
                let role = if hot {
                    format!("{class}_hotspot")
                } else {
                    class.clone()
                };
                (class, role)
            })
            .collect(),
        AnyWorkload::Uniform(_) => (0..nodes)
            .map(|_| ("uniform".to_string(), "uniform".to_string()))
            .collect(),
        AnyWorkload::Motif(m) => (0..nodes)
            .map(|n| {
                let c = if n < m.ranks() { m.name() } else { "idle" };
                (c.to_string(), c.to_string())
            })
            .collect(),
        AnyWorkload::Jobs(j) => NodeId::all(nodes)
            .map(|n| {
                let (c, name) = match j.job_of(n) {
                    Some(k) => (
                        if k == 0 { "victim" } else { "aggressor" },
                        j.jobs()[k].name(),
                    ),
                    None => ("idle", "idle"),
                };
                (c.to_string(), format!("{c}_{name}"))
            })
            .collect(),
    }
}

fn kind_name(k: crate::workload::CongestorKind) -> &'static str {
    use crate::workload::CongestorKind::*;
    match k {
        A2a => "a2a",
        Incast => "incast",
        PutIncast => "put_incast",
        GetBcast => "get_bcast",
    }
}

/// The NICs watched by default: a victim and a sender (and root) of each aggressor class.
fn auto_watch(w: &AnyWorkload, nodes: u32) -> Vec<NodeId> {
    let mut v: Vec<NodeId> = Vec::new();
    match w {
        AnyWorkload::Gpcnet(g) => {
            let l = g.layout();
            v.extend(l.canary_nodes.first());
            for grp in &l.groups {
                v.extend(grp.nodes.get(1));
                if grp.kind != crate::workload::CongestorKind::A2a {
                    v.extend(grp.nodes.first());
                }
            }
        }
        AnyWorkload::Hotspot(h) => {
            for class in [NodeClass::C, NodeClass::B, NodeClass::V] {
                v.extend(NodeId::all(nodes).find(|&n| h.class_of(n) == class && !h.is_hotspot(n)));
            }
            v.extend(h.hotspots().first());
        }
        AnyWorkload::Uniform(_) | AnyWorkload::Motif(_) => v.extend(NodeId::all(nodes.min(2))),
        AnyWorkload::Jobs(j) => {
            for job in j.jobs() {
                v.extend(job.nics().first().map(|&n| NodeId(n)));
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Victim messages of the open-loop workloads, by source NIC.
#[derive(Default)]
struct OpenLoopVictims {
    /// Latencies in cycles, as exact counts (memory bounded by the distinct latencies).
    latencies: crate::metrics::stats::IntCounts,
    /// Per source: (latency sum, count, bytes delivered in the window).
    by_src: BTreeMap<NodeId, (u64, u64, u64)>,
}

impl OpenLoopVictims {
    fn record(&mut self, d: &Delivery, victim_tag: u32, start: u64) {
        if d.msg.tag != victim_tag {
            return;
        }
        let e = self.by_src.entry(d.msg.src).or_default();
        if d.delivered >= start {
            e.2 += d.msg.bytes as u64;
        }
        if d.msg.created >= start {
            let lat = d.delivered - d.msg.created;
            self.latencies.add(lat);
            e.0 += lat;
            e.1 += 1;
        }
    }
}

/// A hot-spot workload with `stream_service = "split"`: each B node's NIC serves its hot-spot
/// and uniform streams `p_hot : 1 - p_hot` (the IB seed's Frame I). Nothing for others.
pub fn set_stream_shares(cfg: &WorkloadConfig, w: &AnyWorkload, net: &mut Network) {
    if let (WorkloadConfig::Hotspot(hc), AnyWorkload::Hotspot(h)) = (cfg, w) {
        if hc.stream_service == StreamService::Split {
            for n in NodeId::all(net.nodes()) {
                if h.class_of(n) == NodeClass::B {
                    net.set_stream_share(n, tag::HOTSPOT_HOT, hc.p_hot);
                }
            }
        }
    }
}

/// Runs `spec` of `sc` (validated). `progress` draws a bar labelled with the run.
pub fn run(sc: &Scenario, spec: &RunSpec, progress: &Progress) -> anyhow::Result<RunOutput> {
    let wall = Instant::now();
    let net_cfg: &NetConfig = &sc.network;
    let mut wl_cfg = sc.workload.clone();
    match &mut wl_cfg {
        WorkloadConfig::Gpcnet(g) => g.congestors &= spec.congestors,
        WorkloadConfig::Hotspot(h) => h.hot_traffic &= spec.congestors,
        WorkloadConfig::Jobs(j) => j.aggressors = spec.congestors,
        _ => {}
    }
    let nodes = sc.nodes();
    let n = nodes as usize;
    let mut w = wl_cfg
        .build_at(nodes, net_cfg.flit_bytes, net_cfg.link_gbps, sc.seed)
        .map_err(|e| anyhow::anyhow!("run `{}`: building the workload: {e}", spec.label))?;
    // PFT on chosen NICs only (a [[pft]] entry's `nics` or `classes`).
    let pft_on = match spec.cc {
        CcConfig::Pft(_) => sc.pft_named(&spec.label).and_then(|p| p.pft_on(&w, nodes)),
        _ => None,
    };
    let mut net = Network::with_cc_on(net_cfg, &spec.cc, sc.engine, sc.seed, pft_on.as_deref())
        .with_context(|| format!("run `{}`: building the network", spec.label))?;
    debug_assert_eq!(net.nodes(), nodes);
    set_stream_shares(&wl_cfg, &w, &mut net);
    let watch = match &sc.timeseries.nics {
        Some(v) => v.clone(),
        None => auto_watch(&w, nodes),
    };
    let mut ts = TimeSeries::new(watch.clone(), sc.timeseries.period);
    let mut series = NetSeries::new(sc.timeseries.period, nodes);
    let max = sc.cycles.max;
    let start = sc.warmup();
    let stop_when_finished = sc.cycles.stop_when_finished && sc.workload.ends_by_itself();
    let victim_tag = match &sc.workload {
        WorkloadConfig::Hotspot(_) => tag::HOTSPOT_UNIFORM,
        WorkloadConfig::Motif(_) | WorkloadConfig::Trace(_) | WorkloadConfig::Jobs(_) => tag::MOTIF,
        _ => tag::UNIFORM,
    };
    let mut dstats = DeliveryStats::new(nodes, net_cfg.flit_bytes, start, max);
    let mut ol = OpenLoopVictims::default();
    let mut at_start: Vec<NicStats> = vec![NicStats::default(); n];
    let mut c_sum = vec![0u64; n];
    let mut c_max = vec![0u32; n];
    // GPCNeT stopping when its canaries finish ends by itself: its bar measures the work
    // done; every other run lasts `max` cycles.
    let pb = progress.bar(&spec.label, max, stop_when_finished);
    let move_period = match &sc.workload {
        WorkloadConfig::Hotspot(h) => Some(h.move_period_cycles.unwrap_or(u64::MAX)),
        _ => None,
    };
    let mut epochs = EpochRx { marks: Vec::new() };
    let mut coldhot = ColdHot::of_run(&w, sc.timeseries.period, net_cfg.flit_bytes);
    let ejected = |net: &Network| -> Vec<u64> {
        NodeId::all(nodes)
            .map(|i| net.nic_stats(i).flits_ejected)
            .collect()
    };

    while net.now() < max && !(stop_when_finished && w.finished()) {
        let t = net.now();
        if t == start {
            for (i, s) in at_start.iter_mut().enumerate() {
                *s = net.nic_stats(NodeId(i as u32));
            }
        }
        if let Some(p) = move_period {
            // Hot spots move in the workload's tick of cycle k * p (inside this step).
            if t >= start && (t == start || t % p == 0) {
                if let AnyWorkload::Hotspot(h) = &w {
                    let next = h.history().iter().rev().find(|e| e.from_cycle <= t);
                    let hs = if t > 0 && t % p == 0 {
                        None // the set drawn in this cycle's tick: filled in after the step
                    } else {
                        next.map(|e| e.hotspots.clone())
                    };
                    epochs
                        .marks
                        .push((t, hs.unwrap_or_default(), ejected(&net)));
                }
            }
        }
        net.step(&mut w).with_context(|| {
            format!(
                "run `{}` failed in cycle {t} (scenario {}, seed {})",
                spec.label,
                sc.name(),
                sc.seed
            )
        })?;
        for d in net.last_deliveries() {
            dstats.record(d);
            ol.record(d, victim_tag, start);
        }
        if let Some(c) = &mut coldhot {
            c.feed(&w, t, net.last_deliveries(), |b| net.marked(b));
        }
        if let (Some(last), AnyWorkload::Hotspot(h)) = (epochs.marks.last_mut(), &w) {
            if last.0 == t && last.1.is_empty() {
                last.1 = h.hotspots().to_vec();
            }
        }
        if t >= start {
            for i in 0..n {
                let c = net.used_credits(NodeId(i as u32)) as u32;
                c_sum[i] += c as u64;
                c_max[i] = c_max[i].max(c);
            }
        }
        if series.due(t) {
            series.push(
                t,
                net.flits_delivered(),
                net.total_stats().flits_injected,
                net.flits_in_network(),
                &[net.scheme_probes(), net.lane_probes()].concat(),
            );
        }
        if ts.due(t) {
            for &node in &watch {
                ts.push(t, node, net.used_credits(node) as u32, net.congested(node))
                    .context("time series")?;
            }
        }
        if t % PROGRESS_EVERY == 0 {
            let test = match &w {
                AnyWorkload::Gpcnet(g) => g.current_test().map(|t| format!("{t:?}")),
                _ => None,
            };
            let done = if stop_when_finished {
                w.work_done()
            } else {
                None
            };
            progress.update(&pb, t, done, test.as_deref());
        }
    }
    pb.finish();
    let end = net.now();
    let hotspot_rates = epochs.rates(end, &ejected(&net), net_cfg.link_gbps);
    let window = end.saturating_sub(start).max(1);
    let wf = window as f64;
    let role = roles(&w, nodes);
    let rows: Vec<NodeRow> = (0..nodes)
        .map(|i| {
            let s = net.nic_stats(NodeId(i));
            let a = &at_start[i as usize];
            let inj = s.flits_injected - a.flits_injected;
            let ej = s.flits_ejected - a.flits_ejected;
            let thr = s.throttled_cycles - a.throttled_cycles;
            let (class, role) = role[i as usize].clone();
            NodeRow {
                node: NodeId(i),
                class,
                role,
                flits_injected: inj,
                flits_ejected: ej,
                injected_per_cycle: inj as f64 / wf,
                accepted_per_cycle: ej as f64 / wf,
                mean_c: c_sum[i as usize] as f64 / wf,
                max_c: c_max[i as usize],
                frac_congested: (s.congested_cycles - a.congested_cycles) as f64 / wf,
                throttled_cycles: thr,
                frac_throttled: thr as f64 / wf,
                messages_refused: s.messages_refused,
            }
        })
        .collect();
    let classes = class_rows(&rows);
    series.name_probes(&[net.scheme_probes(), net.lane_probes()].concat());
    let nf = n.max(1) as f64;
    let pft_stats = PftStats {
        frac_congested: rows.iter().map(|r| r.frac_congested).sum::<f64>() / nf,
        nics_ever_congested: (0..nodes)
            .filter(|&i| net.nic_stats(NodeId(i)).congested_cycles > 0)
            .count() as u32,
        throttled_cycles: rows.iter().map(|r| r.throttled_cycles).sum(),
        frac_throttled: rows.iter().map(|r| r.frac_throttled).sum::<f64>() / nf,
        mean_c: rows.iter().map(|r| r.mean_c).sum::<f64>() / nf,
        max_c: rows.iter().map(|r| r.max_c).max().unwrap_or(0),
    };
    let mut cc_counters = net.counter_map();
    if sc.network.routing == Some(crate::net::Routing::Disha) {
        // the network's own count beside the scheme's (compare's `counters` line)
        cc_counters.insert("disha_recoveries".into(), net.disha_recoveries());
    }
    for (k, v) in net.lane_counters() {
        cc_counters.insert(k.into(), v);
    }
    let results = w.gpcnet_results();
    let canary_spans = results.as_ref().map_or(Vec::new(), |r| {
        r.tests
            .iter()
            .map(|t| (t.start_cycle, t.end_cycle))
            .collect()
    });
    let gpcnet = results.map(|r| summarize(&r, HIST_BINS));
    let victims = match &gpcnet {
        Some(g) => gpcnet_victims(g),
        None => open_loop_victims(&ol, victim_tag, wf),
    };
    let motif = w.motif_results();
    let finished = match (&gpcnet, &motif) {
        (Some(g), _) => g.finished,
        (_, Some(m)) => m.finished,
        _ => end >= max,
    };
    Ok(RunOutput {
        spec: spec.clone(),
        cycles_run: end,
        wall_seconds: wall.elapsed().as_secs_f64(),
        finished,
        work_done: w.work_done(),
        canary_spans,
        window_start: start,
        window_cycles: window,
        nodes: rows,
        classes,
        delivery: dstats.report(Some(end)),
        victims,
        gpcnet,
        pft_stats,
        cc_counters,
        timeseries: ts,
        series,
        hotspot_rates,
        coldhot,
        motif,
    })
}

fn class_rows(rows: &[NodeRow]) -> Vec<ClassRow> {
    let mut order: Vec<String> = Vec::new();
    for r in rows {
        if !order.contains(&r.class) {
            order.push(r.class.clone());
        }
    }
    order.sort();
    order
        .into_iter()
        .map(|class| {
            let m: Vec<&NodeRow> = rows.iter().filter(|r| r.class == class).collect();
            let k = m.len().max(1) as f64;
            let mean = |f: fn(&NodeRow) -> f64| m.iter().map(|r| f(r)).sum::<f64>() / k;
            ClassRow {
                nodes: m.len() as u32,
                injected_per_node_cycle: mean(|r| r.injected_per_cycle),
                accepted_per_node_cycle: mean(|r| r.accepted_per_cycle),
                mean_c: mean(|r| r.mean_c),
                frac_congested: mean(|r| r.frac_congested),
                throttled_cycles: m.iter().map(|r| r.throttled_cycles).sum(),
                frac_throttled: mean(|r| r.frac_throttled),
                class,
            }
        })
        .collect()
}

fn gpcnet_victims(g: &GpcnetSummary) -> VictimStats {
    let lat = g.test(CanaryTest::Latency);
    let bw = g.test(CanaryTest::Bandwidth);
    VictimStats {
        source: "GPCNeT canaries: latency test (cycles per iteration) and bandwidth test \
                 (bytes per cycle per process); mean = GPCNeT Avg, p99 = GPCNeT 99%"
            .to_string(),
        latency_units: "cycles".to_string(),
        latency_mean: lat.and_then(|t| t.avg),
        latency_p99: lat.and_then(|t| t.tail),
        latency: lat.and_then(|t| t.samples),
        bandwidth_units: "bytes/cycle".to_string(),
        bandwidth_mean: bw.and_then(|t| t.avg),
        bandwidth_p99: bw.and_then(|t| t.tail),
        bandwidth: bw.and_then(|t| t.samples),
        latency_per_process: lat.and_then(|t| t.per_process.clone()),
        bandwidth_per_process: bw.and_then(|t| t.per_process.clone()),
    }
}

fn open_loop_victims(ol: &OpenLoopVictims, victim_tag: u32, window: f64) -> VictimStats {
    let lat = ol.latencies.summary();
    let bws: Vec<f64> = ol
        .by_src
        .values()
        .map(|&(_, _, b)| b as f64 / window)
        .collect();
    let bw_sorted = crate::metrics::stats::sorted(&bws);
    let per_lat: Vec<f64> = ol
        .by_src
        .values()
        .filter(|e| e.1 > 0)
        .map(|&(s, c, _)| s as f64 / c as f64)
        .collect();
    VictimStats {
        source: format!(
            "open loop: `{}` messages (latency = delivered - created, cycles; bandwidth = \
             their bytes delivered per cycle of the window, per source NIC)",
            tag::name(victim_tag)
        ),
        latency_units: "cycles".to_string(),
        latency_mean: lat.map(|s| s.mean),
        latency_p99: lat.map(|s| s.p99),
        latency: lat,
        bandwidth_units: "bytes/cycle".to_string(),
        bandwidth_mean: Summary::of(&bws).map(|s| s.mean),
        bandwidth_p99: percentile_from_top(&bw_sorted, 99.0),
        bandwidth: Summary::of(&bws),
        latency_per_process: Distribution::new(&per_lat, HIST_BINS),
        bandwidth_per_process: Distribution::new(&bws, HIST_BINS),
    }
}
