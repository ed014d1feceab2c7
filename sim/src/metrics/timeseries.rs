//! Time series of the PFT state at chosen NICs: the caller pushes `(cycle, node, c,
//! congested)` samples, normally every `period` cycles (`due(cycle)`). Stored per node as a
//! column of 32-bit cycle deltas and 32-bit packed values `c << 1 | congested`: 8 bytes per
//! sample.

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

/// A compact time series of `(c, congested)` at a set of watched nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeSeries {
    /// Sampling period the caller intends, cycles (>= 1).
    pub period: u64,
    /// Watched nodes, ascending, no duplicates.
    watch: Vec<NodeId>,
    columns: Vec<Column>,
}

impl TimeSeries {
    /// A series over `watch` (sorted and deduplicated here), sampled every `period` cycles.
    pub fn new(mut watch: Vec<NodeId>, period: u64) -> Self {
        watch.sort_unstable();
        watch.dedup();
        let columns = vec![Column::default(); watch.len()];
        TimeSeries {
            period: period.max(1),
            watch,
            columns,
        }
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
