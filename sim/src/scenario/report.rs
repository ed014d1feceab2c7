//! What `run` and `compare` write: the per-run `summary.json`, the rows of `compare.csv` and
//! the table `compare` prints, and a hot-spot workload's `coldhot.csv` and its plots.
//!
//! - F_C (PFT paper eq. 2) of a run with PFT on against the PFT-off run:
//!   `F_C = (B_C * D_0) / (B_0 * D_C)`, B = victim bandwidth, D = victim latency. GPCNeT:
//!   `metrics::control_factors` (Avg columns of the bandwidth and latency tests; the `tail`
//!   variant uses the 99% columns). Open loop: the same formula on the victim messages' mean
//!   (and p99) latency and per-NIC bandwidth.
//! - CIF (GPCNeT) of a congested run against the isolated run: latency `congested /
//!   isolated`, bandwidth `isolated / congested`, for Avg and 99%.

use super::config::Scenario;
use super::run::{ClassRow, HotspotRates, PftStats, RunOutput, VictimStats};
use crate::cc::pft::{EngineKind, PftConfig};
use crate::cc::CcConfig;
use crate::metrics::delivery::TagLatency;
use crate::metrics::{
    congestion_impact, control_factor, control_factors, jain_index, ColdHotSummary,
    CongestionImpact, ControlFactors, GpcnetSummary,
};
use crate::workload::{CanaryTest, WorkloadConfig};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Short description of a congestion control: `off`, a PFT configuration or
/// `IBCC w=15 mr=0 inc=1 lim=127 T=150`.
pub fn describe_cc(cc: &CcConfig) -> String {
    cc.label()
}

pub use crate::cc::pft::describe;

/// Throughput over the measurement window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Mean over all NICs of flits accepted (ejected) per cycle.
    pub accepted_per_node_cycle: f64,
    /// Mean over all NICs of flits injected per cycle.
    pub injected_per_node_cycle: f64,
    /// Jain's index of the per-NIC accepted rates, all NICs.
    pub jain_accepted: Option<f64>,
    /// Jain's index of the per-NIC accepted rates within each class.
    pub jain_accepted_by_class: BTreeMap<String, Option<f64>>,
    /// Jain's index of the victims' per-process (or per-NIC) bandwidth.
    pub jain_victim_bandwidth: Option<f64>,
    pub classes: Vec<ClassRow>,
    /// Message latency (delivered - created, and delivered - injected) per traffic tag, for
    /// messages created in the window.
    pub message_latency: Vec<TagLatency>,
}

/// A run compared with another: F_C against PFT off, or CIF against the isolated run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    /// Label of the other run.
    pub against: String,
    /// F_C (Avg statistic) against `against` = PFT off; `None` when not applicable.
    pub f_c: Option<f64>,
    /// F_C from the 99% statistics.
    pub f_c_tail: Option<f64>,
    /// GPCNeT's detailed F_C variants.
    pub control_factors: Option<ControlFactors>,
}

/// Brief of the isolated baseline inside a run's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IsolatedBrief {
    pub cycles_run: u64,
    pub finished: bool,
    pub victims: VictimStats,
}

/// `summary.json` of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    pub scenario: String,
    pub description: String,
    /// Run label: a `[[pft]]` or `[[cc]]` name, `off` or `isolated`.
    pub run: String,
    /// `describe_cc` of the run's congestion control.
    pub pft_label: String,
    /// The PFT registers of every NIC (disabled unless the run is a PFT configuration).
    pub pft: PftConfig,
    /// The run's congestion control (`kind` = none, pft or ibcc, with its parameters).
    pub cc: CcConfig,
    /// GPCNeT: false for the isolated baseline.
    pub congestors: bool,
    pub seed: u64,
    pub engine: EngineKind,
    pub nodes: u32,
    pub credit_limit: u32,
    pub max_cycles: u64,
    pub cycles_run: u64,
    /// GPCNeT: every canary test finished; open loop: `cycles.max` reached.
    pub finished: bool,
    /// Wall-clock seconds of this run (the only number that changes between runs).
    pub wall_seconds: f64,
    pub window_start: u64,
    pub window_cycles: u64,
    /// Sampling period of `timeseries.csv`, cycles: `timeseries.period`, doubled each time a
    /// long run reached the series' memory bound (`metrics::timeseries::MAX_SAMPLES`).
    pub timeseries_period: u64,
    pub throughput: Throughput,
    pub victims: VictimStats,
    pub pft_stats: PftStats,
    /// The scheme's own counters since cycle 0 (`run::RunOutput::cc_counters`; empty for
    /// schemes without any).
    pub cc_counters: BTreeMap<String, u64>,
    /// The values the run's scheme derived from the network for the keys its entry left
    /// out, under their keys (`Plugin::derived`: MVCM's `rtt_min`, DCQCN's `kmin_bytes`,
    /// ...); empty when it derived none.
    pub cc_derived: BTreeMap<String, u64>,
    /// Messages the NICs' full send queues refused over the whole run (`send_queue_msgs`;
    /// the sum of `nodes.csv`'s `messages_refused`). A refused message was never created.
    pub messages_refused: u64,
    /// F_C against the run with congestion control off (`compare`, every PFT-on and
    /// `[[cc]]` run).
    pub control: Option<Versus>,
    /// CIF against the isolated run (GPCNeT, when the scenario has `isolated = true`).
    pub cif: Option<CongestionImpact>,
    pub isolated: Option<IsolatedBrief>,
    pub gpcnet: Option<GpcnetSummary>,
    /// Hot-spot workloads: receive rates of hot-spot and other nodes and the total (Gb/s).
    pub hotspot_rates: Option<HotspotRates>,
    /// Hot-spot workloads: each receive rate divided by the `off` run's (the IB study's
    /// improvement factors).
    pub improvement: Option<Improvement>,
    /// Hot-spot workloads: cold and hot messages over the run (seed 004's metrics;
    /// `coldhot.csv` has them against time). Absent for other workloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coldhot: Option<ColdHotSummary>,
    /// Motif and trace workloads: the job's iteration times (`motif_iterations.csv` has
    /// every iteration). Absent for other workloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motif: Option<crate::workload::motif::MotifSummary>,
    /// `jobs` workloads: the victim's mean iteration time over the isolated run's (victim
    /// alone). Absent for other workloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iter_slowdown: Option<Option<f64>>,
    /// The scenario as it was run (defaults filled in).
    pub config: Scenario,
}

/// Receive rates of a run divided by those of the run without congestion control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Improvement {
    pub against: String,
    pub rx_hot: f64,
    pub rx_nonhot: f64,
    pub rx_total: f64,
}

fn improvement(r: &RunOutput, off: &RunOutput) -> Option<Improvement> {
    let (a, b) = (r.hotspot_rates.as_ref()?, off.hotspot_rates.as_ref()?);
    Some(Improvement {
        against: off.spec.label.clone(),
        rx_hot: a.rx_hot / b.rx_hot,
        rx_nonhot: a.rx_nonhot / b.rx_nonhot,
        rx_total: a.rx_total / b.rx_total,
    })
}

fn jain_of(v: &[f64]) -> Option<f64> {
    jain_index(v)
}

/// Builds the summary of `r`, with `iso` (isolated baseline) and `off` (PFT off) if given.
pub fn run_summary(
    sc: &Scenario,
    r: &RunOutput,
    iso: Option<&RunOutput>,
    off: Option<&RunOutput>,
) -> RunSummary {
    let n = r.nodes.len().max(1) as f64;
    let acc: Vec<f64> = r.nodes.iter().map(|x| x.accepted_per_cycle).collect();
    let mut by_class = BTreeMap::new();
    for c in &r.classes {
        let v: Vec<f64> = r
            .nodes
            .iter()
            .filter(|x| x.class == c.class)
            .map(|x| x.accepted_per_cycle)
            .collect();
        by_class.insert(c.class.clone(), jain_of(&v));
    }
    let throughput = Throughput {
        accepted_per_node_cycle: acc.iter().sum::<f64>() / n,
        injected_per_node_cycle: r.nodes.iter().map(|x| x.injected_per_cycle).sum::<f64>() / n,
        jain_accepted: jain_of(&acc),
        jain_accepted_by_class: by_class,
        jain_victim_bandwidth: r
            .victims
            .bandwidth_per_process
            .as_ref()
            .and_then(|d| jain_of(&d.sorted)),
        classes: r.classes.clone(),
        message_latency: r.delivery.latency.clone(),
    };
    RunSummary {
        scenario: sc.name().to_string(),
        description: sc.description.clone(),
        run: r.spec.label.clone(),
        pft_label: describe_cc(&r.spec.cc),
        pft: r.spec.cc.pft(),
        cc: r.spec.cc.clone(),
        congestors: r.spec.congestors,
        seed: sc.seed,
        engine: sc.engine,
        nodes: r.nodes.len() as u32,
        credit_limit: sc.network.buffer_flits,
        max_cycles: sc.cycles.max,
        cycles_run: r.cycles_run,
        finished: r.finished,
        wall_seconds: r.wall_seconds,
        window_start: r.window_start,
        window_cycles: r.window_cycles,
        timeseries_period: r.timeseries.period,
        throughput,
        victims: r.victims.clone(),
        pft_stats: r.pft_stats.clone(),
        cc_counters: r.cc_counters.clone(),
        cc_derived: r.spec.cc.derived(&sc.network),
        messages_refused: r.nodes.iter().map(|x| x.messages_refused).sum(),
        control: off.map(|o| versus_off(r, o)),
        cif: iso.and_then(|i| cif(r, i)),
        isolated: iso.map(|i| IsolatedBrief {
            cycles_run: i.cycles_run,
            finished: i.finished,
            victims: i.victims.clone(),
        }),
        gpcnet: r.gpcnet.clone(),
        hotspot_rates: r.hotspot_rates.clone(),
        improvement: off.and_then(|o| improvement(r, o)),
        coldhot: r.coldhot.as_ref().map(|c| c.summary()),
        motif: r.motif.as_ref().map(|m| m.summary()),
        iter_slowdown: slowdown(r, iso),
        config: sc.clone(),
    }
}

/// F_C of `on` against `off`.
pub fn versus_off(on: &RunOutput, off: &RunOutput) -> Versus {
    match (&on.gpcnet, &off.gpcnet) {
        (Some(a), Some(b)) => {
            let cf = control_factors(a, b);
            let tail = cf
                .all
                .iter()
                .find(|f| f.statistic == "tail" && f.delay_test == CanaryTest::Latency)
                .and_then(|f| f.f_c);
            Versus {
                against: off.spec.label.clone(),
                f_c: cf.primary,
                f_c_tail: tail,
                control_factors: Some(cf),
            }
        }
        _ => {
            let (a, b) = (&on.victims, &off.victims);
            let fc = |bc: Option<f64>, dc: Option<f64>, b0: Option<f64>, d0: Option<f64>| {
                control_factor(bc?, dc?, b0?, d0?)
            };
            Versus {
                against: off.spec.label.clone(),
                f_c: fc(
                    a.bandwidth_mean,
                    a.latency_mean,
                    b.bandwidth_mean,
                    b.latency_mean,
                ),
                f_c_tail: fc(
                    a.bandwidth_p99,
                    a.latency_p99,
                    b.bandwidth_p99,
                    b.latency_p99,
                ),
                control_factors: None,
            }
        }
    }
}

/// GPCNeT's CIF of `congested` against `iso` (`None` for open-loop workloads).
pub fn cif(congested: &RunOutput, iso: &RunOutput) -> Option<CongestionImpact> {
    Some(congestion_impact(
        iso.gpcnet.as_ref()?,
        congested.gpcnet.as_ref()?,
    ))
}

/// One row of `compare.csv` and of the printed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    pub config: String,
    pub pft: String,
    pub congestors: bool,
    pub cycles_run: u64,
    pub finished: bool,
    /// Mean flits accepted per NIC per cycle over the window.
    pub accepted: f64,
    pub lat_mean: Option<f64>,
    pub lat_p99: Option<f64>,
    pub bw_mean: Option<f64>,
    /// Low tail (GPCNeT's 99% for bandwidth).
    pub bw_p99: Option<f64>,
    pub f_c: Option<f64>,
    pub f_c_tail: Option<f64>,
    pub cif_lat_avg: Option<f64>,
    pub cif_lat_p99: Option<f64>,
    pub cif_bw_avg: Option<f64>,
    pub cif_bw_p99: Option<f64>,
    pub frac_congested: f64,
    pub frac_throttled: f64,
    pub wall_seconds: f64,
    /// Hot-spot workloads (the IB study's metrics, Gb/s): mean receive rate of the hot-spot
    /// nodes, of the other nodes, and the total network throughput.
    pub rx_hot: Option<f64>,
    pub rx_nonhot: Option<f64>,
    pub rx_total: Option<f64>,
    /// The scheme's own counters, `name=value` separated by spaces (empty when it has
    /// none).
    pub cc_counters: String,
    /// Hot-spot workloads (seed 004's metrics, `metrics::coldhot`): the largest per-bin
    /// mean latency of cold messages (cycles), the hot spots' link utilisation over the
    /// congestion period (flits per cycle per hot spot; empty without a C node's message),
    /// and the marked shares of the cold and hot messages delivered. Empty for the other
    /// workloads.
    pub cold_lat_peak: Option<f64>,
    pub hot_link_util: Option<f64>,
    pub marked_cold_frac: Option<f64>,
    pub marked_hot_frac: Option<f64>,
    /// Motif and trace workloads (columns absent for the others): iterations every rank
    /// finished, and the job's iteration times over the measured ones (cycles): mean, p50,
    /// p99 (nearest rank), max (`motif::MotifSummary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_done: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_mean: Option<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_p50: Option<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_p99: Option<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_max: Option<Option<f64>>,
    /// `jobs` workloads: the victim's `iter_mean` over the isolated run's (its slowdown
    /// against running alone, GPCNeT's congestion impact). Absent for other workloads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iter_slowdown: Option<Option<f64>>,
}

/// The victim's mean iteration time in `r` over that in `iso` (the isolated run), for
/// motif results with an isolated run: Some(None) when either has no measured iteration.
fn slowdown(r: &RunOutput, iso: Option<&RunOutput>) -> Option<Option<f64>> {
    let mean = |o: &RunOutput| -> Option<Option<f64>> {
        Some(o.motif.as_ref()?.summary().iteration_cycles.map(|s| s.mean))
    };
    let a = mean(r)?;
    let b = mean(iso?)?;
    Some(a.zip(b).map(|(a, b)| a / b))
}

/// The row of `r`.
pub fn compare_row(r: &RunOutput, iso: Option<&RunOutput>, off: Option<&RunOutput>) -> CompareRow {
    let v = off
        .filter(|o| o.spec.label != r.spec.label && r.spec.cc.active() && r.spec.congestors)
        .map(|o| versus_off(r, o));
    let c = iso
        .filter(|i| i.spec.label != r.spec.label)
        .and_then(|i| cif(r, i));
    let pick = |t: CanaryTest| {
        c.as_ref()
            .and_then(|c| c.factors.iter().find(|f| f.test == t).cloned())
    };
    let (l, b) = (pick(CanaryTest::Latency), pick(CanaryTest::Bandwidth));
    let ch = r.coldhot.as_ref().map(|c| c.summary());
    let ms = r.motif.as_ref().map(|m| m.summary());
    CompareRow {
        config: r.spec.label.clone(),
        pft: describe_cc(&r.spec.cc),
        congestors: r.spec.congestors,
        cycles_run: r.cycles_run,
        finished: r.finished,
        accepted: r.accepted_per_node_cycle(),
        lat_mean: r.victims.latency_mean,
        lat_p99: r.victims.latency_p99,
        bw_mean: r.victims.bandwidth_mean,
        bw_p99: r.victims.bandwidth_p99,
        f_c: v.as_ref().and_then(|v| v.f_c),
        f_c_tail: v.as_ref().and_then(|v| v.f_c_tail),
        cif_lat_avg: l.as_ref().and_then(|f| f.avg),
        cif_lat_p99: l.as_ref().and_then(|f| f.tail),
        cif_bw_avg: b.as_ref().and_then(|f| f.avg),
        cif_bw_p99: b.as_ref().and_then(|f| f.tail),
        frac_congested: r.pft_stats.frac_congested,
        frac_throttled: r.pft_stats.frac_throttled,
        wall_seconds: r.wall_seconds,
        rx_hot: r.hotspot_rates.as_ref().map(|h| h.rx_hot),
        rx_nonhot: r.hotspot_rates.as_ref().map(|h| h.rx_nonhot),
        rx_total: r.hotspot_rates.as_ref().map(|h| h.rx_total),
        cc_counters: r
            .cc_counters
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
        cold_lat_peak: ch.as_ref().and_then(|c| c.cold_lat_peak),
        hot_link_util: ch.as_ref().and_then(|c| c.hot_link_util),
        marked_cold_frac: ch.as_ref().and_then(|c| c.marked_cold_frac),
        marked_hot_frac: ch.as_ref().and_then(|c| c.marked_hot_frac),
        iter_done: ms.as_ref().map(|m| m.iterations_done),
        iter_mean: ms.as_ref().map(|m| m.iteration_cycles.map(|s| s.mean)),
        iter_p50: ms.as_ref().map(|m| m.iteration_cycles.map(|s| s.p50)),
        iter_p99: ms.as_ref().map(|m| m.iteration_cycles.map(|s| s.p99)),
        iter_max: ms.as_ref().map(|m| m.iteration_cycles.map(|s| s.max)),
        iter_slowdown: slowdown(r, iso),
    }
}

/// `compare.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    pub scenario: String,
    pub description: String,
    pub seed: u64,
    pub engine: EngineKind,
    pub nodes: u32,
    pub credit_limit: u32,
    pub latency_units: String,
    pub bandwidth_units: String,
    pub victims: String,
    pub rows: Vec<CompareRow>,
    /// Wall-clock seconds of the whole command.
    pub wall_seconds: f64,
    pub config: Scenario,
}

fn num(v: Option<f64>, width: usize) -> String {
    match v {
        None => format!("{:>width$}", "-"),
        Some(x) if x.abs() >= 1e5 => format!("{x:>width$.3e}"),
        Some(x) if x.abs() >= 100.0 => format!("{x:>width$.0}"),
        Some(x) if x.abs() >= 10.0 => format!("{x:>width$.1}"),
        Some(x) => format!("{x:>width$.3}"),
    }
}

/// The table `compare` prints: one line per run.
pub fn compare_table(rep: &CompareReport) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "scenario {} ({} NICs, CREDIT_LIMIT {}, seed {}, engine {:?})\n",
        rep.scenario, rep.nodes, rep.credit_limit, rep.seed, rep.engine
    ));
    s.push_str(&format!("victims: {}\n", rep.victims));
    // the first two columns as wide as their longest entry (an IB CC label is longer)
    let wc = rep
        .rows
        .iter()
        .map(|r| r.config.chars().count())
        .fold(10, usize::max);
    let wp = rep
        .rows
        .iter()
        .map(|r| r.pft.chars().count())
        .fold(31, usize::max);
    s.push_str(&format!(
        "{:<wc$} {:<wp$} {:>9} {:>6} {:>8} {:>9} {:>9} {:>8} {:>8} {:>6} {:>6} {:>7} {:>8} {:>7} {:>7} {:>6} {:>6}\n",
        "config", "pft", "cycles", "done", "accepted", "lat_mean", "lat_p99", "bw_mean", "bw_p99",
        "F_C", "F_C99", "CIFlat", "CIFlat99", "CIFbw", "CIFbw99", "cong%", "thr%"
    ));
    for r in &rep.rows {
        s.push_str(&format!(
            "{:<wc$} {:<wp$} {:>9} {:>6} {} {} {} {} {} {} {} {} {} {} {} {:>6.1} {:>6.1}\n",
            r.config,
            r.pft,
            r.cycles_run,
            if r.finished { "yes" } else { "NO" },
            num(Some(r.accepted), 8),
            num(r.lat_mean, 9),
            num(r.lat_p99, 9),
            num(r.bw_mean, 8),
            num(r.bw_p99, 8),
            num(r.f_c, 6),
            num(r.f_c_tail, 6),
            num(r.cif_lat_avg, 7),
            num(r.cif_lat_p99, 8),
            num(r.cif_bw_avg, 7),
            num(r.cif_bw_p99, 7),
            100.0 * r.frac_congested,
            100.0 * r.frac_throttled,
        ));
    }
    s.push_str(&format!(
        "units: accepted flits/NIC/cycle; latency {}; bandwidth {}. F_C against `off`, CIF against `isolated`.\n",
        rep.latency_units, rep.bandwidth_units
    ));
    if rep.rows.iter().any(|r| r.rx_total.is_some()) {
        s.push_str(&format!(
            "receive rates (Gb/s): {:<wc$} {:>9} {:>10} {:>10}\n",
            "config", "rx_hot", "rx_nonhot", "rx_total"
        ));
        for r in &rep.rows {
            s.push_str(&format!(
                "                      {:<wc$} {} {} {}\n",
                r.config,
                num(r.rx_hot, 9),
                num(r.rx_nonhot, 10),
                num(r.rx_total, 10)
            ));
        }
    }
    if matches!(rep.config.workload, WorkloadConfig::Hotspot(_)) {
        s.push_str(&format!(
            "cold/hot (seed 004): {:<wc$} {:>13} {:>13} {:>12} {:>11}\n",
            "config", "cold_lat_peak", "hot_link_util", "marked_cold%", "marked_hot%"
        ));
        for r in &rep.rows {
            let pct = |v: Option<f64>| v.map(|x| 100.0 * x);
            s.push_str(&format!(
                "                     {:<wc$} {} {} {} {}\n",
                r.config,
                num(r.cold_lat_peak, 13),
                num(r.hot_link_util, 13),
                num(pct(r.marked_cold_frac), 12),
                num(pct(r.marked_hot_frac), 11)
            ));
        }
    }
    if rep.rows.iter().any(|r| r.iter_done.is_some()) {
        s.push_str(&format!(
            "iterations (cycles):  {:<10} {:>6} {:>9} {:>9} {:>9} {:>9} {:>8}\n",
            "config", "done", "mean", "p50", "p99", "max", "slowdown"
        ));
        for r in &rep.rows {
            let f = |v: Option<Option<f64>>| v.flatten();
            s.push_str(&format!(
                "                      {:<10} {:>6} {} {} {} {} {}\n",
                r.config,
                r.iter_done.unwrap_or(0),
                num(f(r.iter_mean), 9),
                num(f(r.iter_p50), 9),
                num(f(r.iter_p99), 9),
                num(f(r.iter_max), 9),
                num(f(r.iter_slowdown), 8)
            ));
        }
    }
    for r in rep.rows.iter().filter(|r| !r.cc_counters.is_empty()) {
        s.push_str(&format!("{} counters: {}\n", r.config, r.cc_counters));
    }
    s
}

/// A hot-spot workload's run: `coldhot.csv` (`metrics::coldhot`), `coldhot_latency.svg`
/// (cold and hot mean latency against the cycle) and `coldhot_throughput.svg` (cold
/// throughput and the hot spots' link utilisation, both as a share of a link). Nothing for
/// other workloads.
pub fn write_coldhot_run(dir: &Path, sc: &Scenario, r: &RunOutput) -> anyhow::Result<()> {
    let Some(ch) = &r.coldhot else {
        return Ok(());
    };
    super::output::write_atomic(&dir.join("coldhot.csv"), ch.to_csv()?.as_bytes())?;
    let cc = describe_cc(&r.spec.cc);
    let lat = [
        ("cold".to_string(), ch.cold_latency_points()),
        ("hot".to_string(), ch.hot_latency_points()),
    ];
    write_coldhot_latency(dir, sc, &cc, ch.period, &lat)?;
    let thr = [
        ("cold throughput".to_string(), ch.cold_link_share_points()),
        ("hot-spot link".to_string(), ch.hot_link_points()),
    ];
    write_coldhot_throughput(dir, sc, &cc, ch.period, &thr)
}

/// `compare` of a hot-spot workload: `coldhot_latency.svg` with the cold messages' mean
/// latency of every run (seed 004's Figs 5-6) and `coldhot_throughput.svg` with every
/// run's cold throughput and hot-spot link utilisation. Nothing for other workloads.
pub fn write_coldhot_compare(dir: &Path, sc: &Scenario, runs: &[&RunOutput]) -> anyhow::Result<()> {
    let with: Vec<(&str, &crate::metrics::ColdHot)> = runs
        .iter()
        .filter_map(|r| r.coldhot.as_ref().map(|c| (r.spec.label.as_str(), c)))
        .collect();
    let Some(&(_, first)) = with.first() else {
        return Ok(());
    };
    let lat: Vec<(String, Vec<(f64, f64)>)> = with
        .iter()
        .map(|(l, c)| (format!("{l} cold"), c.cold_latency_points()))
        .collect();
    write_coldhot_latency(dir, sc, "every run", first.period, &lat)?;
    let mut thr: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (l, c) in &with {
        thr.push((format!("{l} cold throughput"), c.cold_link_share_points()));
        thr.push((format!("{l} hot-spot link"), c.hot_link_points()));
    }
    write_coldhot_throughput(dir, sc, "every run", first.period, &thr)
}

fn write_coldhot_latency(
    dir: &Path,
    sc: &Scenario,
    what: &str,
    period: u64,
    series: &[(String, Vec<(f64, f64)>)],
) -> anyhow::Result<()> {
    let svg = super::plot::series_svg(
        &format!(
            "{}: mean latency of cold and hot messages, bins of {period} cycles, {what}",
            sc.name()
        ),
        "cycle (delivered)",
        "mean latency, delivered - created (cycles)",
        series,
    )?;
    super::output::write_atomic(&dir.join("coldhot_latency.svg"), svg.as_bytes())
}

fn write_coldhot_throughput(
    dir: &Path,
    sc: &Scenario,
    what: &str,
    period: u64,
    series: &[(String, Vec<(f64, f64)>)],
) -> anyhow::Result<()> {
    let svg = super::plot::series_svg(
        &format!(
            "{}: cold throughput per NIC and hot-spot link utilisation, bins of {period} cycles, {what}",
            sc.name()
        ),
        "cycle (delivered)",
        "share of a link (cold: payload bytes / flit_bytes per NIC-cycle; hot: flits per hot-spot cycle)",
        series,
    )?;
    super::output::write_atomic(&dir.join("coldhot_throughput.svg"), svg.as_bytes())
}
