//! Raw samples and their summary. Percentiles use the nearest-rank method on the exact
//! samples (no histogram, no clamping, no interpolation):
//! `P_q = x_(k)` with `k = max(1, ceil(q/100 * n))`, `x_(1) <= ... <= x_(n)`, i.e. the
//! smallest sample such that at least q % of the samples are <= it. P_50 of an even count is
//! the lower middle sample; P_100 is the maximum.

use super::csv_table::CsvTable;
use serde::{Deserialize, Serialize};

/// Nearest-rank percentile of ascending `sorted` samples, `q` in percent (0..=100).
/// `None` for no samples or `q` out of range / NaN.
pub fn percentile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    let k = rank(sorted.len(), q)?;
    Some(sorted[k - 1])
}

/// GPCNeT's percentile counted from the top (used for bandwidth, where the tail is low):
/// the largest sample such that at least q % of the samples are >= it, i.e. `x_(n+1-k)` with
/// `k = max(1, ceil(q/100 * n))`. `sorted` ascending.
pub fn percentile_from_top(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    let k = rank(n, q)?;
    Some(sorted[n - k])
}

fn rank(n: usize, q: f64) -> Option<usize> {
    if n == 0 || !(0.0..=100.0).contains(&q) {
        return None;
    }
    // Guard the product against rounding up past an exact integer (e.g. 0.99 * 100): a
    // few ulps of it, no more (a guard of 1e-9 of it took one off the rank of a product
    // that is an integer plus 0.01 from about 10^7 on: n = 100,000,099 at q = 99)
    let x = q / 100.0 * n as f64;
    let k = (x - 8.0 * f64::EPSILON * x.max(1.0)).ceil().max(1.0) as usize;
    Some(k.min(n))
}

/// Sorts a copy ascending (NaNs last).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

/// An exact multiset of integer samples kept as value -> count: it gives the same summary
/// as `Summary::of_u64` of the samples, in memory that grows with the number of distinct
/// values (latencies in cycles repeat a lot) instead of the number of samples.
#[derive(Clone, Debug, Default)]
pub struct IntCounts {
    counts: std::collections::BTreeMap<u64, u64>,
    n: u64,
    sum: u128,
}

impl IntCounts {
    /// Adds one sample.
    pub fn add(&mut self, v: u64) {
        *self.counts.entry(v).or_default() += 1;
        self.n += 1;
        self.sum += v as u128;
    }

    /// Number of samples.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True when no sample was added.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Distinct values held (the memory used is proportional to this).
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// The summary (`None` when empty); equal to `Summary::of_u64` of the samples.
    pub fn summary(&self) -> Option<Summary> {
        let n = self.n as usize;
        let pick = |q: f64| {
            let k = rank(n, q)? as u64;
            let mut seen = 0;
            self.counts.iter().find_map(|(&v, &c)| {
                seen += c;
                (seen >= k).then_some(v as f64)
            })
        };
        Some(Summary {
            count: self.n,
            mean: self.sum as f64 / n as f64,
            min: *self.counts.keys().next()? as f64,
            p50: pick(50.0)?,
            p99: pick(99.0)?,
            max: *self.counts.keys().next_back()? as f64,
        })
    }
}

/// Count, mean, min, p50, p99 (nearest rank) and max of a set of samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub count: u64,
    pub mean: f64,
    pub min: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Summary {
    /// Summary of float samples (`None` when empty).
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let s = sorted(samples);
        Some(Summary::of_sorted(&s))
    }

    /// Summary of integer samples, e.g. latencies in cycles (`None` when empty).
    pub fn of_u64(samples: &[u64]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let mut s = samples.to_vec();
        s.sort_unstable();
        let sum: u128 = s.iter().map(|&x| x as u128).sum();
        let n = s.len();
        let pick = |q: f64| s[rank(n, q).expect("non-empty") - 1] as f64;
        Some(Summary {
            count: n as u64,
            mean: sum as f64 / n as f64,
            min: s[0] as f64,
            p50: pick(50.0),
            p99: pick(99.0),
            max: s[n - 1] as f64,
        })
    }

    /// Summary of ascending, non-empty samples.
    pub fn of_sorted(s: &[f64]) -> Summary {
        let n = s.len();
        Summary {
            count: n as u64,
            mean: s.iter().sum::<f64>() / n as f64,
            min: s[0],
            p50: percentile_sorted(s, 50.0).unwrap_or(f64::NAN),
            p99: percentile_sorted(s, 99.0).unwrap_or(f64::NAN),
            max: s[n - 1],
        }
    }

    /// A named CSV row.
    pub fn row(&self, name: &str) -> SummaryRow {
        SummaryRow {
            name: name.to_string(),
            count: self.count,
            mean: self.mean,
            min: self.min,
            p50: self.p50,
            p99: self.p99,
            max: self.max,
        }
    }
}

/// CSV row of a `Summary`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub name: String,
    pub count: u64,
    pub mean: f64,
    pub min: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

/// Raw latency samples in cycles (kept whole; summarised on demand).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencySamples {
    pub samples: Vec<u64>,
}

impl LatencySamples {
    pub fn push(&mut self, cycles: u64) {
        self.samples.push(cycles);
    }
    pub fn len(&self) -> usize {
        self.samples.len()
    }
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
    pub fn summary(&self) -> Option<Summary> {
        Summary::of_u64(&self.samples)
    }
}

impl CsvTable for LatencySamples {
    type Row = SampleRow;
    fn csv_rows(&self) -> Vec<SampleRow> {
        self.samples
            .iter()
            .enumerate()
            .map(|(i, &c)| SampleRow {
                index: i as u64,
                cycles: c,
            })
            .collect()
    }
}

/// CSV row of one raw sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleRow {
    pub index: u64,
    pub cycles: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The counted multiset summarizes exactly like the samples themselves.
        #[test]
        fn int_counts_summarize_like_the_samples(v in prop::collection::vec(0u64..50, 1..400), big in any::<u64>()) {
            let mut c = IntCounts::default();
            let mut all = v.clone();
            all.push(big);
            for &x in &all {
                c.add(x);
            }
            prop_assert_eq!(c.summary(), Summary::of_u64(&all));
            prop_assert!(c.distinct() <= 51);
            prop_assert_eq!(c.len(), all.len() as u64);
        }
    }

    /// Nearest rank, `ceil(q/100 * n)`, exact where the product is an integer and where it
    /// is one plus 0.01 at large n (the guard against rounding took one off there).
    #[test]
    fn nearest_rank_at_any_size() {
        assert_eq!(rank(100, 99.0), Some(99));
        assert_eq!(rank(100, 50.0), Some(50));
        assert_eq!(rank(24, 25.0), Some(6));
        assert_eq!(rank(1, 1.0), Some(1));
        assert_eq!(rank(100_000_099, 99.0), Some(99_000_099));
        assert_eq!(rank(100_000_091, 99.0), Some(99_000_091));
        assert_eq!(rank(1_000_000_000, 99.0), Some(990_000_000));
        assert_eq!(rank(1_000_000_001, 1.0), Some(10_000_001));
        for n in [7usize, 100, 12_345, 9_999_999, 123_456_789] {
            for q in [1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0] {
                // integer arithmetic: ceil(q * n / 100)
                let want = ((q as u128 * n as u128).div_ceil(100)).max(1) as usize;
                assert_eq!(rank(n, q), Some(want), "n {n} q {q}");
            }
        }
    }

    #[test]
    fn empty_counts_have_no_summary() {
        assert!(IntCounts::default().summary().is_none());
        assert!(IntCounts::default().is_empty());
    }
}
