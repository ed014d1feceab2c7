//! Time series of the PFT state at chosen NICs: the caller pushes `(cycle, node, c,
//! congested)` samples, normally every `period` cycles (`due(cycle)`). Stored per node as a
//! column of 32-bit cycle deltas and 32-bit packed values `c << 1 | congested`: 8 bytes per
//! sample, at most `MAX_SAMPLES` in all (decimated beyond: memory is bounded).

use super::csv_table::CsvTable;
use crate::net::types::NodeId;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a sample was refused (the series is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeSeriesError {
    #[error("node {0} is not watched")]
    NotWatched(NodeId),
    #[error("node {node}: cycle {cycle} is before its last sample at {last}")]
    CycleWentBack { node: NodeId, last: u64, cycle: u64 },
    #[error("node {node}: {gap} cycles since its last sample do not fit 32 bits")]
    GapTooLong { node: NodeId, gap: u64 },
    #[error("c = {0} does not fit 31 bits")]
    CTooLarge(u32),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Column {
    first: u64,
    last: u64,
    deltas: Vec<u32>,
    values: Vec<u32>,
}

/// One sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TsSample {
    pub cycle: u64,
    pub node: NodeId,
    /// Used credits `c`.
    pub c: u32,
    /// The PFT block was Congested.
    pub congested: bool,
}

/// Most samples a series keeps over all its nodes (8 bytes each: 32 MiB). A longer run is
/// decimated: every other sample is dropped and the period doubles, as often as needed, so
/// memory stays bounded for any cycle count.
pub const MAX_SAMPLES: usize = 1 << 22;

/// A compact time series of `(c, congested)` at a set of watched nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeSeries {
    /// Sampling period, cycles (>= 1): the caller's, doubled at each decimation.
    pub period: u64,
    /// Watched nodes, ascending, no duplicates.
    watch: Vec<NodeId>,
    columns: Vec<Column>,
    /// Samples kept per node before a decimation (`MAX_SAMPLES / nodes`).
    #[serde(default)]
    cap: usize,
    /// Decimations so far (the period is the caller's times 2^decimations).
    #[serde(default)]
    pub decimations: u32,
}

impl TimeSeries {
    /// A series over `watch` (sorted and deduplicated here), sampled every `period` cycles.
    pub fn new(mut watch: Vec<NodeId>, period: u64) -> Self {
        watch.sort_unstable();
        watch.dedup();
        TimeSeries::with_limit(watch, period, MAX_SAMPLES)
    }

    /// `new` with at most `max_samples` samples kept over all nodes.
    pub fn with_limit(mut watch: Vec<NodeId>, period: u64, max_samples: usize) -> Self {
        watch.sort_unstable();
        watch.dedup();
        let columns = vec![Column::default(); watch.len()];
        TimeSeries {
            period: period.max(1),
            cap: (max_samples / watch.len().max(1)).max(2),
            watch,
            columns,
            decimations: 0,
        }
    }

    /// Drops every other sample of every node (the first kept) and doubles the period.
    fn decimate(&mut self) {
        for col in &mut self.columns {
            let mut cycle = col.first;
            let cycles: Vec<u64> = col
                .deltas
                .iter()
                .map(|&d| {
                    cycle += d as u64;
                    cycle
                })
                .collect();
            let mut kept = Column::default();
            let mut last = 0;
            for (k, (&c, &v)) in cycles.iter().zip(&col.values).enumerate() {
                if k % 2 != 0 {
                    continue;
                }
                if kept.values.is_empty() {
                    kept.first = c;
                    kept.deltas.push(0);
                } else {
                    // Decimation needs more than MAX_SAMPLES / 64 samples per node, so
                    // with at most 10^10 cycles a gap here stays far below 2^32.
                    kept.deltas
                        .push(u32::try_from(c - last).unwrap_or(u32::MAX));
                }
                kept.values.push(v);
                last = c;
            }
            kept.last = last;
            *col = kept;
        }
        self.period = self.period.saturating_mul(2);
        self.decimations += 1;
    }

    /// Watched nodes, ascending.
    pub fn watched(&self) -> &[NodeId] {
        &self.watch
    }

    /// True when `cycle` is a sampling cycle (`cycle % period == 0`).
    pub fn due(&self, cycle: u64) -> bool {
        cycle.is_multiple_of(self.period)
    }

    /// Appends one sample. Per node, cycles must not decrease.
    pub fn push(
        &mut self,
        cycle: u64,
        node: NodeId,
        c: u32,
        congested: bool,
    ) -> Result<(), TimeSeriesError> {
        let i = self
            .watch
            .binary_search(&node)
            .map_err(|_| TimeSeriesError::NotWatched(node))?;
        if c >= 1 << 31 {
            return Err(TimeSeriesError::CTooLarge(c));
        }
        let col = &mut self.columns[i];
        let delta = if col.values.is_empty() {
            col.first = cycle;
            0
        } else {
            if cycle < col.last {
                return Err(TimeSeriesError::CycleWentBack {
                    node,
                    last: col.last,
                    cycle,
                });
            }
            let gap = cycle - col.last;
            u32::try_from(gap).map_err(|_| TimeSeriesError::GapTooLong { node, gap })?
        };
        col.deltas.push(delta);
        col.values.push(c << 1 | congested as u32);
        col.last = cycle;
        if col.values.len() > self.cap {
            self.decimate();
        }
        Ok(())
    }

    /// Samples stored.
    pub fn len(&self) -> usize {
        self.columns.iter().map(|c| c.values.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes used by the samples.
    pub fn sample_bytes(&self) -> usize {
        self.columns
            .iter()
            .map(|c| 4 * (c.deltas.capacity() + c.values.capacity()))
            .sum()
    }

    /// The samples of one node, in order.
    pub fn node_samples(&self, node: NodeId) -> Vec<TsSample> {
        let Ok(i) = self.watch.binary_search(&node) else {
            return Vec::new();
        };
        let col = &self.columns[i];
        let mut cycle = col.first;
        col.deltas
            .iter()
            .zip(&col.values)
            .map(|(&d, &v)| {
                cycle += d as u64;
                TsSample {
                    cycle,
                    node,
                    c: v >> 1,
                    congested: v & 1 == 1,
                }
            })
            .collect()
    }

    /// All samples, ordered by (cycle, node).
    pub fn samples(&self) -> Vec<TsSample> {
        let mut all: Vec<TsSample> = self
            .watch
            .iter()
            .flat_map(|&n| self.node_samples(n))
            .collect();
        all.sort_by_key(|s| (s.cycle, s.node));
        all
    }

    /// Fraction of a node's samples that were Congested (`None` without samples).
    pub fn congested_fraction(&self, node: NodeId) -> Option<f64> {
        let s = self.node_samples(node);
        if s.is_empty() {
            None
        } else {
            Some(s.iter().filter(|x| x.congested).count() as f64 / s.len() as f64)
        }
    }
}

impl CsvTable for TimeSeries {
    type Row = TsSample;
    fn csv_rows(&self) -> Vec<TsSample> {
        self.samples()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimation_bounds_memory_and_keeps_a_regular_series() {
        let nodes = [NodeId(1), NodeId(4)];
        let mut ts = TimeSeries::with_limit(nodes.to_vec(), 10, 64);
        let mut t = 0;
        while t < 100_000 {
            if ts.due(t) {
                for n in nodes {
                    ts.push(t, n, (t / 10 % 100) as u32, t % 20 == 0).unwrap();
                }
            }
            t += 1;
        }
        // at most 32 per node (64 over 2), however long the run
        for n in nodes {
            let s = ts.node_samples(n);
            assert!(s.len() <= 33 && s.len() >= 16, "{}", s.len());
            // still every `period` cycles, from cycle 0, with the values pushed there
            for (k, x) in s.iter().enumerate() {
                assert_eq!(x.cycle, k as u64 * ts.period, "{s:?}");
                assert_eq!(x.c, (x.cycle / 10 % 100) as u32);
            }
        }
        assert_eq!(ts.period, 10 << ts.decimations);
        assert!(ts.decimations >= 8);
        assert!(ts.sample_bytes() < 64 * 8 * 4);
    }
}
