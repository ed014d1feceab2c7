//! Application motifs after SST Ember (`sst-elements`, `ember/mpi/motifs/`): small closed-loop
//! programs of sends, receives, waits and compute, one per rank, repeated `iterations` times.
//! Rank `r` runs on NIC `r`. Every motif is a generator of one rank's operations for one
//! iteration (`Op`, one file per motif); `engine::MotifWorkload` runs them, and replays a
//! text trace (`trace`) of the same operations, so a motif and its written trace give the
//! same run. docs/workloads.md ("Motifs", "Traces") has the state machines, keys and metrics.

mod allreduce;
mod alltoall;
mod broadcast;
pub mod engine;
mod fft3d;
mod halo3d;
mod incast;
pub mod jobs;
mod random_ring;
mod sweep3d;
pub mod trace;

pub use engine::{IterationRow, MotifResults, MotifSummary, MotifWorkload};
pub use jobs::{JobsConfig, JobsWorkload, Placement};
pub use trace::{Trace, TraceConfig};

use super::config::{ConfigErrors, MAX_MSG_BYTES, MAX_NODES};
use serde::{Deserialize, Serialize};

/// Largest `iterations`.
pub const MAX_ITERATIONS: u32 = 100_000;
/// Largest `compute_cycles`.
pub const MAX_COMPUTE_CYCLES: u64 = 100_000_000;
/// Most operations of one rank in one iteration (a motif's key choices that need more are
/// refused: all-to-all on very many ranks, sweep3d with very many blocks).
pub const MAX_OPS_PER_ITERATION: u64 = 1 << 22;

/// One operation of a rank (MPI-like, non-blocking sends and receives completed by `Wait`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Post a message of `bytes` to rank `peer` (an `MPI_Isend`): it goes to the NIC now.
    Send { peer: u32, bytes: u32 },
    /// Post a receive of a message of `bytes` from rank `peer` (an `MPI_Irecv`).
    Recv { peer: u32, bytes: u32 },
    /// Block until every posted send has been delivered and every posted receive matched.
    Wait,
    /// Busy for this many cycles.
    Compute(u64),
}

/// The motifs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MotifKind {
    /// 3D 7-point halo exchange on a `grid` of px*py*pz ranks.
    Halo3d,
    /// Allreduce (`algorithm`: recursive doubling or ring).
    Allreduce,
    /// All-to-all, pairwise exchange.
    Alltoall,
    /// KBA wavefront sweep on a 2D `grid` of ranks, from each corner in turn.
    Sweep3d,
    /// FFT transposes: all-to-all within the rows, then within the columns of a 2D `grid`.
    Fft3d,
    /// Every rank but `root` sends to `root`.
    Incast,
    /// `root` sends to every other rank (GPCNeT's broadcast congestor's traffic).
    Broadcast,
    /// Each iteration a new random ring (seeded); each rank exchanges with both neighbours.
    RandomRing,
}

impl MotifKind {
    /// Its name in files (`motif = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            MotifKind::Halo3d => "halo3d",
            MotifKind::Allreduce => "allreduce",
            MotifKind::Alltoall => "alltoall",
            MotifKind::Sweep3d => "sweep3d",
            MotifKind::Fft3d => "fft3d",
            MotifKind::Incast => "incast",
            MotifKind::Broadcast => "broadcast",
            MotifKind::RandomRing => "random_ring",
        }
    }

    /// Default `msg_bytes`.
    pub fn default_bytes(self) -> u32 {
        match self {
            MotifKind::Halo3d => 16384,
            MotifKind::Allreduce => 8,
            MotifKind::Alltoall | MotifKind::Fft3d | MotifKind::Sweep3d => 1024,
            MotifKind::Incast | MotifKind::Broadcast => 4096,
            MotifKind::RandomRing => 8192,
        }
    }

    /// Dimensions of its `grid` (0: it has none).
    pub fn grid_dims(self) -> usize {
        match self {
            MotifKind::Halo3d => 3,
            MotifKind::Sweep3d | MotifKind::Fft3d => 2,
            _ => 0,
        }
    }
}

/// Allreduce algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// MPICH's recursive doubling (ranks beyond the largest power of two fold in first and
    /// get the result last); `msg_bytes` at every step.
    #[default]
    RecursiveDoubling,
    /// Ring: a reduce-scatter then an allgather, 2(N-1) steps of `ceil(msg_bytes / N)`.
    Ring,
}

/// `[workload] kind = "motif"`. Every key but `motif` has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotifConfig {
    /// Which motif.
    pub motif: MotifKind,
    /// Iterations every rank runs. 1..=100000, default 10.
    #[serde(default = "default_iterations")]
    pub iterations: u32,
    /// The first iterations left out of the statistics (they stay in the CSV).
    /// 0..iterations, default 0.
    #[serde(default)]
    pub warmup_iterations: u32,
    /// Compute time of a rank per iteration (sweep3d: per block), cycles. 0..=10^8,
    /// default 1000.
    #[serde(default = "default_compute")]
    pub compute_cycles: u64,
    /// Message size, bytes (allreduce: the vector; alltoall and fft3d: per pair; sweep3d:
    /// per block and neighbour). 1..=67108864; default by motif (`MotifKind::default_bytes`).
    #[serde(default)]
    pub msg_bytes: Option<u32>,
    /// halo3d [px, py, pz], sweep3d and fft3d [px, py]: ranks along each dimension, their
    /// product the NIC count. Default: the most even factorisation of the NIC count.
    #[serde(default)]
    pub grid: Option<Vec<u32>>,
    /// halo3d: wrap around at the grid's faces (a torus; then every rank has 6 neighbours
    /// where a dimension has >= 3 ranks). Default false (Ember: no neighbour beyond a face).
    #[serde(default)]
    pub periodic: bool,
    /// allreduce: `recursive_doubling` (default) or `ring`.
    #[serde(default)]
    pub algorithm: Algorithm,
    /// incast: the receiving rank; broadcast: the sending rank. 0..nodes, default 0.
    #[serde(default)]
    pub root: u32,
    /// sweep3d: pipelined blocks per sweep (Ember's nz / kba). 1..=1024, default 4.
    #[serde(default = "default_blocks")]
    pub blocks: u32,
    /// sweep3d: sweeps per iteration, one from each corner in turn (0,0), (px-1,0),
    /// (px-1,py-1), (0,py-1) (Ember's order). 1..=4, default 4.
    #[serde(default = "default_corners")]
    pub corners: u32,
    /// Cycle in which the ranks start. 0..=10^10, default 0.
    #[serde(default)]
    pub start_cycle: u64,
    /// A `[[workload.jobs]]` entry's NICs (ranks), required there; at the top level, if
    /// given, the NIC count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nics: Option<u32>,
}

fn default_iterations() -> u32 {
    10
}
fn default_compute() -> u64 {
    1000
}
fn default_blocks() -> u32 {
    4
}
fn default_corners() -> u32 {
    4
}

impl MotifConfig {
    /// A configuration of `motif` with every default.
    pub fn new(motif: MotifKind) -> MotifConfig {
        MotifConfig {
            motif,
            iterations: default_iterations(),
            warmup_iterations: 0,
            compute_cycles: default_compute(),
            msg_bytes: None,
            grid: None,
            periodic: false,
            algorithm: Algorithm::default(),
            root: 0,
            blocks: default_blocks(),
            corners: default_corners(),
            start_cycle: 0,
            nics: None,
        }
    }

    /// `msg_bytes` or the motif's default.
    pub fn bytes(&self) -> u32 {
        self.msg_bytes.unwrap_or(self.motif.default_bytes())
    }

    /// The grid for `nodes` ranks: `grid` or the most even factorisation (empty for motifs
    /// without one).
    pub fn grid_for(&self, nodes: u32) -> Vec<u32> {
        match &self.grid {
            Some(g) => g.clone(),
            None => even_factors(nodes, self.motif.grid_dims()),
        }
    }

    /// Checks every key for `nodes` ranks.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut e = ConfigErrors::default();
        e.check_u64("nodes", nodes as u64, 2, MAX_NODES as u64);
        check_common(
            &mut e,
            self.iterations,
            self.warmup_iterations,
            self.start_cycle,
        );
        e.check_u64("compute_cycles", self.compute_cycles, 0, MAX_COMPUTE_CYCLES);
        if let Some(b) = self.msg_bytes {
            e.check_u64("msg_bytes", b as u64, 1, MAX_MSG_BYTES as u64);
        }
        let dims = self.motif.grid_dims();
        if let Some(g) = &self.grid {
            let product = g.iter().fold(1u64, |a, &x| a.saturating_mul(x as u64));
            if dims == 0 {
                e.push(
                    "grid",
                    format!("{g:?}"),
                    format!("is for halo3d, sweep3d and fft3d only (motif = {:?} has no grid); remove it", self.motif.name()),
                );
            } else if g.len() != dims || g.contains(&0) || product != nodes as u64 {
                e.push(
                    "grid",
                    format!("{g:?}"),
                    format!(
                        "allowed {dims} positive integers whose product is the NIC count, {nodes} (motif {})",
                        self.motif.name()
                    ),
                );
            }
        }
        if self.periodic && self.motif != MotifKind::Halo3d {
            e.push("periodic", true, "is for halo3d only; remove it");
        }
        // another motif's keys (a value other than the default: the key was written)
        use MotifKind as M;
        let d = MotifConfig::new(self.motif);
        for (key, set, got, only, ok) in [
            (
                "algorithm",
                self.algorithm != d.algorithm,
                match self.algorithm {
                    Algorithm::Ring => "\"ring\"",
                    Algorithm::RecursiveDoubling => "\"recursive_doubling\"",
                }
                .to_string(),
                "allreduce",
                self.motif == M::Allreduce,
            ),
            (
                "root",
                self.root != d.root,
                self.root.to_string(),
                "incast and broadcast",
                matches!(self.motif, M::Incast | M::Broadcast),
            ),
            (
                "blocks",
                self.blocks != d.blocks,
                self.blocks.to_string(),
                "sweep3d",
                self.motif == M::Sweep3d,
            ),
            (
                "corners",
                self.corners != d.corners,
                self.corners.to_string(),
                "sweep3d",
                self.motif == M::Sweep3d,
            ),
        ] {
            if set && !ok {
                e.push(
                    key,
                    got,
                    format!(
                        "is for {only} only (motif = {:?}); remove it",
                        self.motif.name()
                    ),
                );
            }
        }
        if self.root >= nodes.max(1) {
            e.push("root", self.root, format!("allowed a rank in 0..{nodes}"));
        }
        if let Some(n) = self.nics.filter(|&n| n != nodes) {
            e.push("nics", n, format!("allowed only the NIC count, {nodes}"));
        }
        e.check_u64("blocks", self.blocks as u64, 1, 1024);
        e.check_u64("corners", self.corners as u64, 1, 4);
        if e.0.is_empty() {
            let ops = self.ops_per_iteration(nodes);
            if ops > MAX_OPS_PER_ITERATION {
                e.push(
                    "motif",
                    self.motif.name(),
                    format!(
                        "has {ops} operations per rank and iteration with these keys and {nodes} NICs; allowed at most {MAX_OPS_PER_ITERATION}"
                    ),
                );
            }
        }
        e.into_result()
    }

    /// Most operations of one rank in one iteration (an upper bound).
    fn ops_per_iteration(&self, nodes: u32) -> u64 {
        let n = nodes as u64;
        match self.motif {
            MotifKind::Halo3d => 14,
            MotifKind::Allreduce => 6 * n.max(2).ilog2() as u64 + 6 * n + 4,
            MotifKind::Alltoall | MotifKind::Fft3d => 3 * n + 4,
            MotifKind::Sweep3d => self.corners as u64 * self.blocks as u64 * 6 + 2,
            MotifKind::Incast | MotifKind::Broadcast => 2 * n + 2,
            MotifKind::RandomRing => 6,
        }
    }
}

/// The checks of `iterations`, `warmup_iterations` and `start_cycle` (motifs and traces).
pub(crate) fn check_common(e: &mut ConfigErrors, iterations: u32, warmup: u32, start: u64) {
    e.check_u64("iterations", iterations as u64, 1, MAX_ITERATIONS as u64);
    if iterations >= 1 && warmup >= iterations {
        e.push(
            "warmup_iterations",
            warmup,
            format!("allowed 0..{iterations} (below iterations, so that one is measured)"),
        );
    }
    e.check_u64("start_cycle", start, 0, crate::workload::config::MAX_CYCLE);
}

/// `n` as `dims` factors as even as possible, largest last (`[4, 4, 4]` for 64 in 3D,
/// `[4, 5, 6]` for 120, `[2, 2, 17]` for 68); empty for 0 dimensions. "As even as
/// possible": of all the ways to write `n` as a product of `dims` factors, the one whose
/// largest factor is smallest, then whose second largest is, and so on (the factors sorted
/// from the largest, compared in that order).
pub fn even_factors(n: u32, dims: usize) -> Vec<u32> {
    if dims == 0 {
        return Vec::new();
    }
    // factors in ascending order, each at least the one before: every way once
    fn search(n: u32, dims: usize, lo: u32, cur: &mut Vec<u32>, best: &mut Option<Vec<u32>>) {
        if dims == 1 {
            if n >= lo {
                cur.push(n);
                let better = best
                    .as_ref()
                    .is_none_or(|b| cur.iter().rev().lt(b.iter().rev()));
                if better {
                    *best = Some(cur.clone());
                }
                cur.pop();
            }
            return;
        }
        let mut d = lo.max(1);
        // the smallest factor is at most the dims-th root of what is left
        while (d as u64).pow(dims as u32) <= n as u64 {
            if n.is_multiple_of(d) {
                cur.push(d);
                search(n / d, dims - 1, d, cur, best);
                cur.pop();
            }
            d += 1;
        }
    }
    let mut best = None;
    search(n.max(1), dims, 1, &mut Vec::new(), &mut best);
    best.unwrap_or_else(|| vec![1; dims])
}

/// The generator of a motif's operations.
#[derive(Clone, Debug)]
pub(crate) struct MotifGen {
    cfg: MotifConfig,
    ranks: u32,
    grid: Vec<u32>,
    ring: random_ring::Rings,
}

impl MotifGen {
    pub(crate) fn new(cfg: &MotifConfig, ranks: u32, seed: u64) -> MotifGen {
        MotifGen {
            grid: cfg.grid_for(ranks),
            cfg: cfg.clone(),
            ranks,
            ring: random_ring::Rings::new(ranks, seed),
        }
    }

    /// For the all-to-all, what `op_at` needs to make its operations one at a time (the
    /// ranks, the message bytes and the compute cycles); None for the others.
    pub(crate) fn one_at_a_time(&self) -> Option<(u32, u32, u64)> {
        let c = &self.cfg;
        (c.motif == MotifKind::Alltoall).then(|| (self.ranks, c.bytes(), c.compute_cycles))
    }

    /// Operation `pc` of `rank`'s iteration for a generator of `one_at_a_time`.
    pub(crate) fn op_at(gen: (u32, u32, u64), rank: u32, pc: usize) -> Option<Op> {
        alltoall::op_at(gen.0, rank, gen.1, gen.2, pc)
    }

    /// The operations of `rank` in iteration `iter`, appended to `out`.
    pub(crate) fn ops(&mut self, rank: u32, iter: u32, out: &mut Vec<Op>) {
        let c = &self.cfg;
        let (b, comp, n) = (c.bytes(), c.compute_cycles, self.ranks);
        match c.motif {
            MotifKind::Halo3d => halo3d::ops(&self.grid, c.periodic, rank, b, comp, out),
            MotifKind::Allreduce => allreduce::ops(c.algorithm, n, rank, b, comp, out),
            MotifKind::Alltoall => alltoall::ops(n, rank, b, comp, out),
            MotifKind::Sweep3d => sweep3d::ops(&self.grid, c.corners, c.blocks, rank, b, comp, out),
            MotifKind::Fft3d => fft3d::ops(&self.grid, rank, b, comp, out),
            MotifKind::Incast => incast::ops(n, c.root, rank, b, comp, out),
            MotifKind::Broadcast => broadcast::ops(n, c.root, rank, b, comp, out),
            MotifKind::RandomRing => {
                let ring = self.ring.of(iter);
                random_ring::ops(ring, rank, b, comp, out)
            }
        }
    }
}
