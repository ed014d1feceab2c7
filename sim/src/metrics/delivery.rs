//! Statistics over the network's deliveries: per-node accepted throughput (bytes and flits
//! ejected at each destination per cycle of a measurement window) and raw message latencies
//! per tag.
//!
//! Window `[start, end)`: a delivery counts toward throughput when `delivered` falls in the
//! window; its latency is sampled when the message was `created` in the window (BookSim's
//! rule: sample the messages born in the measurement period, however late they arrive).
//! Latencies: total `delivered - created` (includes source queueing) and network
//! `delivered - injected`.

use super::csv_table::CsvTable;
use super::fairness::jain_index;
use super::stats::{Summary, SummaryRow};
use crate::net::types::{Delivery, NodeId};
use crate::workload::config::flits_for;
use crate::workload::tag;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Raw samples of one tag.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TagSamples {
    /// `delivered - created`, cycles.
    pub total: Vec<u64>,
    /// `delivered - injected`, cycles.
    pub network: Vec<u64>,
}

/// Collector fed with every `Delivery`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeliveryStats {
    pub nodes: u32,
    pub flit_bytes: u32,
    pub start: u64,
    pub end: u64,
    pub accepted_bytes: Vec<u64>,
    pub accepted_flits: Vec<u64>,
    pub accepted_msgs: Vec<u64>,
    /// Bytes delivered in the window, by source node.
    pub sent_bytes: Vec<u64>,
    pub by_tag: BTreeMap<u32, TagSamples>,
}

impl DeliveryStats {
    /// Collector for `nodes` endpoints, flits of `flit_bytes`, window `[start, end)`.
    pub fn new(nodes: u32, flit_bytes: u32, start: u64, end: u64) -> Self {
        let n = nodes as usize;
        DeliveryStats {
            nodes,
            flit_bytes: flit_bytes.max(1),
            start,
            end,
            accepted_bytes: vec![0; n],
            accepted_flits: vec![0; n],
            accepted_msgs: vec![0; n],
            sent_bytes: vec![0; n],
            by_tag: BTreeMap::new(),
        }
    }

    fn in_window(&self, c: u64) -> bool {
        c >= self.start && c < self.end
    }

    /// Records one delivery (ignores nodes out of range).
    pub fn record(&mut self, d: &Delivery) {
        let m = &d.msg;
        if self.in_window(d.delivered) && m.dst.0 < self.nodes && m.src.0 < self.nodes {
            self.accepted_bytes[m.dst.index()] += m.bytes as u64;
            self.accepted_flits[m.dst.index()] += flits_for(m.bytes, self.flit_bytes);
            self.accepted_msgs[m.dst.index()] += 1;
            self.sent_bytes[m.src.index()] += m.bytes as u64;
        }
        if self.in_window(m.created) {
            let s = self.by_tag.entry(m.tag).or_default();
            s.total.push(d.delivered.saturating_sub(m.created));
            s.network.push(d.delivered.saturating_sub(d.injected));
        }
    }

    /// Raw samples of one tag.
    pub fn samples(&self, tag: u32) -> Option<&TagSamples> {
        self.by_tag.get(&tag)
    }

    /// Total latencies of all tags that `keep` accepts, e.g. `tag::is_canary`.
    pub fn total_latencies_where(&self, keep: impl Fn(u32) -> bool) -> Vec<u64> {
        self.by_tag
            .iter()
            .filter(|(t, _)| keep(**t))
            .flat_map(|(_, s)| s.total.iter().copied())
            .collect()
    }

    /// The report over the window; `upto` closes an open window early (cycles actually run).
    pub fn report(&self, upto: Option<u64>) -> DeliveryReport {
        let end = upto.map_or(self.end, |u| u.min(self.end));
        let cycles = end.saturating_sub(self.start).max(1);
        let per_node: Vec<NodeThroughput> = (0..self.nodes)
            .map(|n| {
                let i = n as usize;
                NodeThroughput {
                    node: NodeId(n),
                    accepted_bytes: self.accepted_bytes[i],
                    accepted_flits: self.accepted_flits[i],
                    accepted_msgs: self.accepted_msgs[i],
                    accepted_bytes_per_cycle: self.accepted_bytes[i] as f64 / cycles as f64,
                    accepted_flits_per_cycle: self.accepted_flits[i] as f64 / cycles as f64,
                    sent_bytes: self.sent_bytes[i],
                }
            })
            .collect();
        let rates: Vec<f64> = per_node
            .iter()
            .map(|r| r.accepted_flits_per_cycle)
            .collect();
        let latency = self
            .by_tag
            .iter()
            .map(|(&t, s)| TagLatency {
                tag: t,
                name: tag::name(t).to_string(),
                total: Summary::of_u64(&s.total),
                network: Summary::of_u64(&s.network),
            })
            .collect();
        DeliveryReport {
            start: self.start,
            end,
            cycles,
            mean_accepted_flits_per_cycle: rates.iter().sum::<f64>() / rates.len().max(1) as f64,
            jain_accepted: jain_index(&rates),
            per_node,
            latency,
        }
    }
}

/// Accepted throughput of one node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeThroughput {
    pub node: NodeId,
    pub accepted_bytes: u64,
    pub accepted_flits: u64,
    pub accepted_msgs: u64,
    pub accepted_bytes_per_cycle: f64,
    /// Payload flits ejected per cycle (`ceil(bytes / flit_bytes)` per message).
    pub accepted_flits_per_cycle: f64,
    /// Bytes this node sent that were delivered in the window.
    pub sent_bytes: u64,
}

/// Latency summaries of one tag.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TagLatency {
    pub tag: u32,
    pub name: String,
    pub total: Option<Summary>,
    pub network: Option<Summary>,
}

/// The delivery report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeliveryReport {
    pub start: u64,
    pub end: u64,
    pub cycles: u64,
    pub mean_accepted_flits_per_cycle: f64,
    /// Jain's index of the per-node accepted flit rates.
    pub jain_accepted: Option<f64>,
    pub per_node: Vec<NodeThroughput>,
    pub latency: Vec<TagLatency>,
}

impl DeliveryReport {
    /// Latency rows: one per tag and kind (`<tag name>.total`, `<tag name>.network`).
    pub fn latency_rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        for t in &self.latency {
            if let Some(s) = &t.total {
                rows.push(s.row(&format!("{}.total", t.name)));
            }
            if let Some(s) = &t.network {
                rows.push(s.row(&format!("{}.network", t.name)));
            }
        }
        rows
    }
}

impl CsvTable for DeliveryReport {
    type Row = NodeThroughput;
    /// Per-node throughput rows (use `latency_rows` for the latency table).
    fn csv_rows(&self) -> Vec<NodeThroughput> {
        self.per_node.clone()
    }
}
