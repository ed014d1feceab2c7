//! Distribution of one value per process (e.g. per-process mean latency or bandwidth), as the
//! PFT paper's Figs 3-4 plot it: the number of processes per value interval. Kept as the
//! sorted values, summary quantiles (nearest rank) and an equal-width histogram.

use super::csv_table::CsvTable;
use super::stats::{percentile_sorted, sorted};
use serde::{Deserialize, Serialize};

/// Nearest-rank quantiles of the per-process values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quantiles {
    pub min: f64,
    pub p1: f64,
    pub p5: f64,
    pub p10: f64,
    pub p25: f64,
    pub p50: f64,
    pub p75: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

/// Equal-width bins over `[lo, hi]`: bin i holds `lo + i*w <= v < lo + (i+1)*w`, the last bin
/// also holds `v == hi`. With `lo == hi` there is one bin holding everything.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    pub bin_width: f64,
    pub counts: Vec<u64>,
}

impl Histogram {
    /// Histogram of finite `values` with `bins` (>= 1) bins spanning their min..max.
    pub fn new(values: &[f64], bins: usize) -> Option<Histogram> {
        let bins = bins.max(1);
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        if finite.is_empty() {
            return None;
        }
        let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if lo == hi {
            return Some(Histogram {
                lo,
                hi,
                bin_width: 0.0,
                counts: vec![finite.len() as u64],
            });
        }
        let w = (hi - lo) / bins as f64;
        let mut counts = vec![0u64; bins];
        for v in finite {
            let i = (((v - lo) / w).floor() as usize).min(bins - 1);
            counts[i] += 1;
        }
        Some(Histogram {
            lo,
            hi,
            bin_width: w,
            counts,
        })
    }
}

impl CsvTable for Histogram {
    type Row = HistogramRow;
    fn csv_rows(&self) -> Vec<HistogramRow> {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &count)| HistogramRow {
                bin: i as u32,
                from: self.lo + i as f64 * self.bin_width,
                to: if i + 1 == self.counts.len() {
                    self.hi
                } else {
                    self.lo + (i + 1) as f64 * self.bin_width
                },
                count,
            })
            .collect()
    }
}

/// CSV row of one histogram bin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistogramRow {
    pub bin: u32,
    pub from: f64,
    pub to: f64,
    pub count: u64,
}

/// Distribution of per-process values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    /// The values, ascending.
    pub sorted: Vec<f64>,
    pub quantiles: Quantiles,
    pub histogram: Histogram,
}

impl Distribution {
    /// Distribution of the finite `values` with a `bins`-bin histogram (`None` when empty).
    pub fn new(values: &[f64], bins: usize) -> Option<Distribution> {
        let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        let s = sorted(&v);
        let q = |p: f64| percentile_sorted(&s, p).expect("non-empty");
        Some(Distribution {
            count: s.len() as u64,
            mean: s.iter().sum::<f64>() / s.len() as f64,
            quantiles: Quantiles {
                min: s[0],
                p1: q(1.0),
                p5: q(5.0),
                p10: q(10.0),
                p25: q(25.0),
                p50: q(50.0),
                p75: q(75.0),
                p90: q(90.0),
                p95: q(95.0),
                p99: q(99.0),
                max: s[s.len() - 1],
            },
            histogram: Histogram::new(&s, bins).expect("non-empty"),
            sorted: s,
        })
    }

    /// Rows (rank, value) of the sorted values.
    pub fn value_rows(&self) -> Vec<ValueRow> {
        self.sorted
            .iter()
            .enumerate()
            .map(|(i, &value)| ValueRow {
                rank: i as u64,
                value,
            })
            .collect()
    }
}

impl CsvTable for Distribution {
    type Row = HistogramRow;
    /// The histogram bins (use `value_rows` for the sorted values).
    fn csv_rows(&self) -> Vec<HistogramRow> {
        self.histogram.csv_rows()
    }
}

/// CSV row of one sorted per-process value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueRow {
    pub rank: u64,
    pub value: f64,
}
