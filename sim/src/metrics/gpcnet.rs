//! GPCNeT-style summaries of a `GpcnetResults`, the Congestion Impact Factor between an
//! isolated and a congested run, and the PFT paper's control factor F_C between a run with
//! the control on and one with it off.
//!
//! Per canary test (units: cycles for latency and allreduce, bytes/cycle for bandwidth):
//! - `avg`: GPCNeT's "Avg": the mean, over every (process, ring), of the ring's value
//!   (mean iteration time, or bytes sent / cycles of the ring).
//! - `tail`: GPCNeT's "99%" over every per-iteration sample of every process: the
//!   nearest-rank 99th percentile for latencies; for bandwidth, counted from the top (the
//!   value that 99 % of the samples reach or exceed, i.e. the low tail).
//! - `per_process`: distribution of each process's mean ring value (the paper's Figs 3-4).
//!
//! CIF (GPCNeT `print_comparison_results`): latency `congested / isolated`, bandwidth
//! `isolated / congested`, for `avg` and `tail` (GPCNeT rounds both to 0.1 first; we don't).
//!
//! F_C (PFT paper, eq. 2): `F_C = (B_C * D_0) / (B_0 * D_C)`, B = canary bandwidth, D = canary
//! delay, both with congestors running, C = control on, 0 = control off. The paper does not
//! say which statistic; the primary value uses `avg` of the bandwidth test and of the
//! latency test. The tail variant and the allreduce-as-delay variants are reported too.

use super::csv_table::CsvTable;
use super::distribution::Distribution;
use super::stats::{percentile_from_top, percentile_sorted, sorted, Summary};
use crate::workload::gpcnet::{CanaryTest, CongestorKind, GpcnetResults};
use serde::{Deserialize, Serialize};

/// Histogram bins used by `summarize` for the per-process distributions.
pub const DEFAULT_BINS: usize = 20;

/// One canary test, summarised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestSummary {
    pub test: CanaryTest,
    pub units: String,
    /// Every process completed the test.
    pub complete: bool,
    pub processes: u64,
    /// GPCNeT's "Avg" (see the module docs). `None` when nothing was measured.
    pub avg: Option<f64>,
    /// GPCNeT's "99%" (see the module docs).
    pub tail: Option<f64>,
    /// All per-iteration samples of all processes.
    pub samples: Option<Summary>,
    /// Per-process mean of its ring values.
    pub per_process: Option<Distribution>,
}

/// Congestor throughput of one group while the canaries ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupSummary {
    pub group: u32,
    pub kind: CongestorKind,
    /// Processes that send (non-roots; every process for a2a).
    pub senders: u64,
    pub total_bytes: u64,
    /// Group bytes per cycle of the measurement.
    pub bytes_per_cycle: f64,
    /// Per sending process, bytes per cycle.
    pub per_process: Option<Distribution>,
}

/// A GPCNeT run, summarised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpcnetSummary {
    pub congestors_on: bool,
    pub finished: bool,
    pub measure_cycles: u64,
    pub tests: Vec<TestSummary>,
    pub groups: Vec<GroupSummary>,
}

impl GpcnetSummary {
    /// The summary of `test`, if present.
    pub fn test(&self, test: CanaryTest) -> Option<&TestSummary> {
        self.tests.iter().find(|t| t.test == test)
    }
}

/// Summarises a run with `bins`-bin histograms.
pub fn summarize(r: &GpcnetResults, bins: usize) -> GpcnetSummary {
    let tests = r
        .tests
        .iter()
        .map(|t| {
            let all: Vec<f64> = t
                .processes
                .iter()
                .flat_map(|p| p.samples.iter().copied())
                .collect();
            let s = sorted(&all);
            let rings: Vec<f64> = t
                .processes
                .iter()
                .flat_map(|p| p.ring_values.iter().copied())
                .collect();
            let per_proc: Vec<f64> = t
                .processes
                .iter()
                .filter(|p| !p.ring_values.is_empty())
                .map(|p| p.ring_values.iter().sum::<f64>() / p.ring_values.len() as f64)
                .collect();
            let tail = if t.test.higher_is_better() {
                percentile_from_top(&s, 99.0)
            } else {
                percentile_sorted(&s, 99.0)
            };
            TestSummary {
                test: t.test,
                units: t.units.clone(),
                complete: t.end_cycle.is_some(),
                processes: t.processes.len() as u64,
                avg: if rings.is_empty() {
                    None
                } else {
                    Some(rings.iter().sum::<f64>() / rings.len() as f64)
                },
                tail,
                samples: if s.is_empty() {
                    None
                } else {
                    Some(Summary::of_sorted(&s))
                },
                per_process: Distribution::new(&per_proc, bins),
            }
        })
        .collect();
    let mut groups: Vec<GroupSummary> = Vec::new();
    let cycles = r.measure_cycles.max(1) as f64;
    let ngroups = r.congestors.iter().map(|c| c.group + 1).max().unwrap_or(0);
    for g in 0..ngroups {
        let members: Vec<_> = r.congestors.iter().filter(|c| c.group == g).collect();
        let Some(first) = members.first() else {
            continue;
        };
        let kind = first.kind;
        let senders: Vec<_> = members
            .iter()
            .filter(|c| kind == CongestorKind::A2a || !c.root)
            .collect();
        let total: u64 = senders.iter().map(|c| c.bytes).sum();
        let rates: Vec<f64> = senders.iter().map(|c| c.bytes as f64 / cycles).collect();
        groups.push(GroupSummary {
            group: g,
            kind,
            senders: senders.len() as u64,
            total_bytes: total,
            bytes_per_cycle: total as f64 / cycles,
            per_process: Distribution::new(&rates, bins),
        });
    }
    GpcnetSummary {
        congestors_on: r.congestors_on,
        finished: r.finished,
        measure_cycles: r.measure_cycles,
        tests,
        groups,
    }
}

/// GPCNeT's Congestion Impact Factor of one statistic: `congested / isolated` for a latency,
/// `isolated / congested` when higher is better (bandwidth). `None` on a zero or non-finite
/// denominator.
pub fn impact_factor(higher_is_better: bool, isolated: f64, congested: f64) -> Option<f64> {
    let (num, den) = if higher_is_better {
        (isolated, congested)
    } else {
        (congested, isolated)
    };
    ratio(num, den)
}

fn ratio(num: f64, den: f64) -> Option<f64> {
    let r = num / den;
    if den != 0.0 && r.is_finite() {
        Some(r)
    } else {
        None
    }
}

/// CIF of one test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImpactFactor {
    pub test: CanaryTest,
    /// CIF of GPCNeT's "Avg".
    pub avg: Option<f64>,
    /// CIF of GPCNeT's "99%".
    pub tail: Option<f64>,
    pub isolated_avg: Option<f64>,
    pub congested_avg: Option<f64>,
    pub isolated_tail: Option<f64>,
    pub congested_tail: Option<f64>,
}

/// CIF of every test present in both runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CongestionImpact {
    pub factors: Vec<ImpactFactor>,
}

/// Congestion Impact Factors between an isolated run and a congested run of the same
/// scenario (same seed, so the same placement and rings).
pub fn congestion_impact(isolated: &GpcnetSummary, congested: &GpcnetSummary) -> CongestionImpact {
    let factors = isolated
        .tests
        .iter()
        .filter_map(|i| {
            let c = congested.test(i.test)?;
            let hib = i.test.higher_is_better();
            let f = |a: Option<f64>, b: Option<f64>| match (a, b) {
                (Some(a), Some(b)) => impact_factor(hib, a, b),
                _ => None,
            };
            Some(ImpactFactor {
                test: i.test,
                avg: f(i.avg, c.avg),
                tail: f(i.tail, c.tail),
                isolated_avg: i.avg,
                congested_avg: c.avg,
                isolated_tail: i.tail,
                congested_tail: c.tail,
            })
        })
        .collect();
    CongestionImpact { factors }
}

impl CsvTable for CongestionImpact {
    type Row = ImpactFactor;
    fn csv_rows(&self) -> Vec<ImpactFactor> {
        self.factors.clone()
    }
}

/// `F_C = (B_C * D_0) / (B_0 * D_C)`; `None` on a zero or non-finite denominator.
pub fn control_factor(b_c: f64, d_c: f64, b_0: f64, d_0: f64) -> Option<f64> {
    ratio(b_c * d_0, b_0 * d_c)
}

/// One F_C value with its inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ControlFactor {
    /// `avg` (GPCNeT's Avg column) or `tail` (its 99% column).
    pub statistic: String,
    /// The canary test used as D (`latency` is the primary one).
    pub delay_test: CanaryTest,
    pub b_c: f64,
    pub d_c: f64,
    pub b_0: f64,
    pub d_0: f64,
    pub f_c: Option<f64>,
}

/// F_C values between a run with the control on and one with it off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ControlFactors {
    /// `avg` statistic, bandwidth test as B, latency test as D (the project's F_C).
    pub primary: Option<f64>,
    pub all: Vec<ControlFactor>,
}

/// F_C from two congested runs of the same scenario: `on` (control C on), `off` (control off).
pub fn control_factors(on: &GpcnetSummary, off: &GpcnetSummary) -> ControlFactors {
    let mut all = Vec::new();
    for delay_test in [CanaryTest::Latency, CanaryTest::Allreduce] {
        let (Some(bc), Some(b0), Some(dc), Some(d0)) = (
            on.test(CanaryTest::Bandwidth),
            off.test(CanaryTest::Bandwidth),
            on.test(delay_test),
            off.test(delay_test),
        ) else {
            continue;
        };
        for (stat, pick) in [
            (
                "avg",
                (|t: &TestSummary| t.avg) as fn(&TestSummary) -> Option<f64>,
            ),
            ("tail", |t: &TestSummary| t.tail),
        ] {
            if let (Some(b_c), Some(b_0), Some(d_c), Some(d_0)) =
                (pick(bc), pick(b0), pick(dc), pick(d0))
            {
                all.push(ControlFactor {
                    statistic: stat.to_string(),
                    delay_test,
                    b_c,
                    d_c,
                    b_0,
                    d_0,
                    f_c: control_factor(b_c, d_c, b_0, d_0),
                });
            }
        }
    }
    let primary = all
        .iter()
        .find(|f| f.statistic == "avg" && f.delay_test == CanaryTest::Latency)
        .and_then(|f| f.f_c);
    ControlFactors { primary, all }
}

impl CsvTable for ControlFactors {
    type Row = ControlFactor;
    fn csv_rows(&self) -> Vec<ControlFactor> {
        self.all.clone()
    }
}

/// CSV row of one test summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestRow {
    pub test: CanaryTest,
    pub units: String,
    pub congestors_on: bool,
    pub complete: bool,
    pub processes: u64,
    pub avg: Option<f64>,
    pub tail: Option<f64>,
    pub samples: Option<u64>,
    pub mean: Option<f64>,
    pub min: Option<f64>,
    pub p50: Option<f64>,
    pub p99: Option<f64>,
    pub max: Option<f64>,
    pub proc_p1: Option<f64>,
    pub proc_p50: Option<f64>,
    pub proc_p99: Option<f64>,
}

impl CsvTable for GpcnetSummary {
    type Row = TestRow;
    /// One row per canary test.
    fn csv_rows(&self) -> Vec<TestRow> {
        self.tests
            .iter()
            .map(|t| TestRow {
                test: t.test,
                units: t.units.clone(),
                congestors_on: self.congestors_on,
                complete: t.complete,
                processes: t.processes,
                avg: t.avg,
                tail: t.tail,
                samples: t.samples.map(|s| s.count),
                mean: t.samples.map(|s| s.mean),
                min: t.samples.map(|s| s.min),
                p50: t.samples.map(|s| s.p50),
                p99: t.samples.map(|s| s.p99),
                max: t.samples.map(|s| s.max),
                proc_p1: t.per_process.as_ref().map(|d| d.quantiles.p1),
                proc_p50: t.per_process.as_ref().map(|d| d.quantiles.p50),
                proc_p99: t.per_process.as_ref().map(|d| d.quantiles.p99),
            })
            .collect()
    }
}
