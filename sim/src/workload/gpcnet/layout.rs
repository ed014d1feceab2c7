//! Placement of GPCNeT's roles on NICs, as `build_subcomms` does it: the NICs are shuffled,
//! the first `floor(0.8 N)` run congestors, the rest canaries; congestor NICs are dealt to the
//! groups by a shuffled index modulo the group count. All processes of a NIC share its role.
//! Communicators are node slices: local process `l` of every NIC of a set forms one
//! communicator, ranked in the set's order, so each group (and the canaries) has `ppn`
//! communicators running side by side.

use super::{CongestorKind, GpcnetConfig};
use crate::net::types::NodeId;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// Role of one NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeRole {
    /// Runs canary processes; `rank` is its rank in every canary communicator.
    Canary { rank: u32 },
    /// Runs congestor processes of group `group`; `rank` 0 is the group's root NIC.
    Congestor { group: u32, rank: u32 },
}

/// One congestor group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CongestorGroup {
    pub kind: CongestorKind,
    /// NICs in rank order; `nodes[0]` hosts the roots (rank 0 of each of the `ppn`
    /// communicators).
    pub nodes: Vec<NodeId>,
}

/// Where every role runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub nodes: u32,
    pub ppn: u32,
    /// Canary NICs in rank order.
    pub canary_nodes: Vec<NodeId>,
    pub groups: Vec<CongestorGroup>,
    /// Role of each NIC.
    pub roles: Vec<NodeRole>,
}

impl Layout {
    /// Builds the layout; the configuration must have been validated for `nodes`.
    pub fn new(cfg: &GpcnetConfig, nodes: u32, seed: u64) -> Layout {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x243f_6a88_85a3_08d3);
        let mut all: Vec<NodeId> = NodeId::all(nodes).collect();
        all.shuffle(&mut rng);
        let n_cong = cfg.congestor_nodes(nodes) as usize;
        let k = cfg.congestor_kinds.len();
        let (cong, can) = all.split_at(n_cong);
        let mut colors: Vec<usize> = (0..n_cong).collect();
        colors.shuffle(&mut rng);
        let mut groups: Vec<CongestorGroup> = cfg
            .congestor_kinds
            .iter()
            .map(|&kind| CongestorGroup {
                kind,
                nodes: Vec::new(),
            })
            .collect();
        let mut roles = vec![NodeRole::Canary { rank: 0 }; nodes as usize];
        for (i, &node) in cong.iter().enumerate() {
            let g = colors[i] % k;
            let rank = groups[g].nodes.len() as u32;
            groups[g].nodes.push(node);
            roles[node.index()] = NodeRole::Congestor {
                group: g as u32,
                rank,
            };
        }
        for (i, &node) in can.iter().enumerate() {
            roles[node.index()] = NodeRole::Canary { rank: i as u32 };
        }
        Layout {
            nodes,
            ppn: cfg.ppn,
            canary_nodes: can.to_vec(),
            groups,
            roles,
        }
    }

    /// Total processes, `nodes * ppn`.
    pub fn processes(&self) -> u32 {
        self.nodes * self.ppn
    }

    /// NIC of process `p`.
    pub fn node_of(&self, p: u32) -> NodeId {
        NodeId(p / self.ppn)
    }

    /// Process of local index `local` on NIC `node`.
    pub fn process(&self, node: NodeId, local: u32) -> u32 {
        node.0 * self.ppn + local
    }

    /// Members (processes, in rank order) of canary communicator `local`.
    pub fn canary_comm(&self, local: u32) -> Vec<u32> {
        self.canary_nodes
            .iter()
            .map(|&n| self.process(n, local))
            .collect()
    }

    /// Members (processes, in rank order) of congestor communicator `local` of group `g`.
    pub fn congestor_comm(&self, g: usize, local: u32) -> Vec<u32> {
        self.groups[g]
            .nodes
            .iter()
            .map(|&n| self.process(n, local))
            .collect()
    }
}
