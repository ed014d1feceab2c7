//! What the GPCNeT workload measures, per process. `metrics::gpcnet` turns it into GPCNeT's
//! Avg / 99% columns, per-process distributions, the Congestion Impact Factor and F_C.

use super::{CanaryTest, CongestorKind};
use crate::net::types::NodeId;
use serde::{Deserialize, Serialize};

/// One canary process in one test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CanaryProcessResult {
    pub process: u32,
    pub node: NodeId,
    /// Communicator (local process index on its NIC).
    pub comm: u32,
    /// One sample per measured iteration, in the order measured: cycles per iteration
    /// (latency, allreduce) or bytes sent per cycle of the iteration (bandwidth).
    pub samples: Vec<f64>,
    /// One value per ring (GPCNeT's per-measurement `perfval`): the mean iteration time
    /// (latency, allreduce) or the ring's bytes sent / cycles (bandwidth).
    pub ring_values: Vec<f64>,
}

/// One canary test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CanaryTestResult {
    pub test: CanaryTest,
    /// Unit of `samples` and `ring_values`.
    pub units: String,
    /// Cycle in which the test's first iteration started.
    pub start_cycle: Option<u64>,
    /// Cycle in which its last iteration ended (`None`: not finished).
    pub end_cycle: Option<u64>,
    pub processes: Vec<CanaryProcessResult>,
}

/// One congestor process (counted while the canaries run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CongestorProcessResult {
    pub process: u32,
    pub node: NodeId,
    pub group: u32,
    pub kind: CongestorKind,
    /// Rank 0 of its communicator (the root of incast / put / get; it sends nothing there).
    pub root: bool,
    /// Payload bytes of the operations it completed (a2a: its delivered sends; incast: its
    /// delivered sends; put: puts acknowledged; get: responses received).
    pub bytes: u64,
    /// Operations completed.
    pub ops: u64,
}

/// Everything a GPCNeT run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpcnetResults {
    pub nodes: u32,
    pub ppn: u32,
    /// The congestors ran (false: isolated baseline).
    pub congestors_on: bool,
    /// Cycle the canaries started (`None`: not yet).
    pub canary_start_cycle: Option<u64>,
    /// Cycle the last canary test ended (`None`: not finished).
    pub canary_end_cycle: Option<u64>,
    /// All canary tests completed.
    pub finished: bool,
    /// Cycles over which congestor bytes were counted (canary start to end, or to the last
    /// delivery seen when not finished).
    pub measure_cycles: u64,
    pub tests: Vec<CanaryTestResult>,
    pub congestors: Vec<CongestorProcessResult>,
}

impl GpcnetResults {
    /// The result of `test`, if it was configured.
    pub fn test(&self, test: CanaryTest) -> Option<&CanaryTestResult> {
        self.tests.iter().find(|t| t.test == test)
    }
}
