//! Metrics over the network's deliveries and the workloads' own measurements. Everything a
//! report holds derives serde (JSON) and has flat CSV rows (`CsvTable`).
//!
//! - `stats`: raw samples, nearest-rank percentiles, `Summary` (count, mean, min, p50, p99, max).
//! - `delivery`: per-node accepted throughput and per-tag message latency from `Delivery`s.
//! - `distribution`: distributions of per-process values (the PFT paper's Figs 3-4).
//! - `gpcnet`: GPCNeT's Avg / 99% columns, Congestion Impact Factor, the paper's F_C.
//! - `fairness`: Jain's index.
//! - `timeseries`: compact (cycle, node, c, congested) samples at chosen NICs.
//! - `netseries`: delivered and injected flits per node per cycle against time, with the
//!   congestion-control scheme's probes.
//! - `coldhot`: cold and hot messages of a hot-spot workload against time (latency,
//!   throughput, the hot spots' link utilisation, marked messages; seed 004).
//!
//! docs/workloads.md gives every formula.

pub mod coldhot;
pub mod csv_table;
pub mod delivery;
pub mod distribution;
pub mod fairness;
pub mod gpcnet;
pub mod netseries;
pub mod stats;
pub mod timeseries;

pub use coldhot::{ColdHot, ColdHotRow, ColdHotSummary};
pub use csv_table::CsvTable;
pub use delivery::{DeliveryReport, DeliveryStats};
pub use distribution::{Distribution, Histogram, Quantiles};
pub use fairness::jain_index;
pub use gpcnet::{
    congestion_impact, control_factor, control_factors, impact_factor, summarize, CongestionImpact,
    ControlFactor, ControlFactors, GpcnetSummary, TestSummary,
};
pub use netseries::{NetRow, NetSeries};
pub use stats::{percentile_from_top, percentile_sorted, Summary};
pub use timeseries::{TimeSeries, TimeSeriesError, TsSample};
