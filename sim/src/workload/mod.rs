//! Traffic for the network model: each workload implements `net::types::Workload`, is seeded
//! (rand_xoshiro) and deterministic, and has a serde configuration with documented defaults
//! and a `validate(nodes)` that names the offending field and its allowed range.
//!
//! - `uniform`: uniform random destinations, Bernoulli or on/off (bursty) injection; or
//!   periodic creation in repeating phases (`phases`, seed 003's bursty load).
//! - `hotspot`: C / V / B node classes around (moving) hot spots, after the InfiniBand study.
//! - `gpcnet`: GPCNeT-like congestors and canaries, closed loop through deliveries.
//! - `motif`: application motifs after SST Ember (halo3d, allreduce, alltoall, sweep3d,
//!   fft3d, incast, random_ring), closed loop; `trace`: a text trace of the same operations.
//!
//! docs/workloads.md has the parameters, the modelling decisions and the metric formulas.

pub mod config;
pub mod gpcnet;
pub mod hotspot;
pub mod injection;
pub mod motif;
pub mod tag;
pub mod uniform;

pub use config::{flits_for, ConfigErrors, FieldError};
pub use gpcnet::{CanaryTest, CongestorKind, GpcnetConfig, GpcnetResults, GpcnetWorkload};
pub use hotspot::{HotspotConfig, HotspotWorkload, NodeClass, StreamService};
pub use injection::InjectionProcess;
pub use motif::{MotifConfig, MotifKind, MotifResults, MotifWorkload, TraceConfig};
pub use uniform::{DestPattern, Phase, UniformConfig, UniformWorkload};

use crate::net::types::{Delivery, Message, NodeId, Workload};
use serde::{Deserialize, Serialize};

/// Any workload's configuration, selected by `kind` (TOML: `kind = "uniform"` plus that
/// workload's fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkloadConfig {
    Uniform(UniformConfig),
    Hotspot(HotspotConfig),
    Gpcnet(GpcnetConfig),
    Motif(MotifConfig),
    Trace(TraceConfig),
    Jobs(motif::JobsConfig),
}

impl WorkloadConfig {
    /// True when the workload has an isolated baseline (`isolated`, `run --pft isolated`).
    pub fn has_isolated(&self) -> bool {
        matches!(
            self,
            WorkloadConfig::Gpcnet(_) | WorkloadConfig::Hotspot(_) | WorkloadConfig::Jobs(_)
        )
    }

    /// Checks the configuration for `nodes` endpoints.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        match self {
            WorkloadConfig::Uniform(c) => c.validate(nodes),
            WorkloadConfig::Hotspot(c) => c.validate(nodes),
            WorkloadConfig::Gpcnet(c) => c.validate(nodes),
            WorkloadConfig::Motif(c) => c.validate(nodes),
            WorkloadConfig::Trace(c) => c.validate(nodes),
            WorkloadConfig::Jobs(c) => c.validate(nodes),
        }
    }

    /// The NIC classes a `[[pft]]` entry may name in `classes`: GPCNeT's `congestor` and
    /// `canary` NICs, the hot-spot workload's `c`, `v` and `b` classes; none for uniform.
    pub fn classes(&self) -> &'static [&'static str] {
        match self {
            WorkloadConfig::Uniform(_) | WorkloadConfig::Motif(_) | WorkloadConfig::Trace(_) => &[],
            WorkloadConfig::Jobs(_) => &["victim", "aggressor"],
            WorkloadConfig::Hotspot(_) => &["c", "v", "b"],
            WorkloadConfig::Gpcnet(_) => &["congestor", "canary"],
        }
    }

    /// The key and cycle at which the workload's measured traffic starts (`start_cycle`,
    /// or GPCNeT's `canary_start_cycles`): a run must last longer than that.
    pub fn start(&self) -> (&'static str, u64) {
        match self {
            WorkloadConfig::Uniform(c) => ("start_cycle", c.start_cycle),
            WorkloadConfig::Hotspot(c) => ("start_cycle", c.start_cycle),
            WorkloadConfig::Gpcnet(c) => ("canary_start_cycles", c.canary_start_cycles),
            WorkloadConfig::Motif(c) => ("start_cycle", c.start_cycle),
            WorkloadConfig::Trace(c) => ("start_cycle", c.start_cycle),
            WorkloadConfig::Jobs(c) => (
                "jobs[0].start_cycle",
                c.jobs.first().map_or(0, |j| j.start_cycle),
            ),
        }
    }

    /// The cycle the workload's traffic stops at (`stop_cycle`), where it has one.
    pub fn stop(&self) -> Option<u64> {
        match self {
            WorkloadConfig::Uniform(c) => c.stop_cycle,
            WorkloadConfig::Hotspot(c) => c.stop_cycle,
            _ => None,
        }
    }

    /// True for the workloads that end by themselves (GPCNeT, motifs, traces): with
    /// `cycles.stop_when_finished` their run stops when they are done.
    pub fn ends_by_itself(&self) -> bool {
        matches!(
            self,
            WorkloadConfig::Gpcnet(_)
                | WorkloadConfig::Motif(_)
                | WorkloadConfig::Trace(_)
                | WorkloadConfig::Jobs(_)
        )
    }

    /// Reads the files the workload names (a trace), relative to `base` (the scenario's
    /// directory; None: the current directory). Nothing for the other kinds.
    pub fn resolve(&mut self, base: Option<&std::path::Path>) {
        if let WorkloadConfig::Trace(t) = self {
            t.resolve(base);
        }
    }

    /// Defaults that come from the network: on a dragonfly, a `group_shift` pattern's
    /// `group` is its a * p NICs (BookSim's `bad_dragon`).
    pub fn resolve_network(&mut self, topology: &crate::net::TopologyConfig) {
        if let (WorkloadConfig::Uniform(u), Some(df)) = (self, topology.dragonfly()) {
            u.resolve_groups(df.group_nodes());
        }
    }

    /// Settings that are valid but probably not what the user wants, on `topology`: a
    /// `group_shift` pattern whose `group` is not a dragonfly's a * p NICs (its groups
    /// then straddle the dragonfly's: not BookSim's `bad_dragon`). Warned, not refused: a
    /// group of another size is a pattern of its own.
    pub fn warnings_on(&self, topology: &crate::net::TopologyConfig) -> Vec<String> {
        let (WorkloadConfig::Uniform(u), Some(df)) = (self, topology.dragonfly()) else {
            return Vec::new();
        };
        let own = df.group_nodes();
        let patterns = std::iter::once(("workload.pattern".to_string(), &u.pattern)).chain(
            u.phases
                .iter()
                .enumerate()
                .map(|(i, p)| (format!("workload.phases[{i}].pattern"), &p.pattern)),
        );
        patterns
            .filter_map(|(key, p)| match *p {
                DestPattern::GroupShift { group: Some(g) } if g != own => Some(format!(
                    "{key}.group = {g}: the dragonfly's groups have a * p = {} * {} = {own} NICs, so group_shift's groups of {g} NICs are not the dragonfly's (not BookSim's bad_dragon); leave group out to take {own}",
                    df.a, df.p
                )),
                _ => None,
            })
            .collect()
    }

    /// Builds the workload for `nodes` endpoints with `flit_bytes`-byte flits on 100 Gb/s
    /// links (`build_at`).
    pub fn build(
        &self,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<AnyWorkload, ConfigErrors> {
        self.build_at(nodes, flit_bytes, 100.0, seed)
    }

    /// Builds the workload for `nodes` endpoints with `flit_bytes`-byte flits at
    /// `link_gbps` (which sets the length of a cycle: GPCNeT's host times are in ns).
    pub fn build_at(
        &self,
        nodes: u32,
        flit_bytes: u32,
        link_gbps: f64,
        seed: u64,
    ) -> Result<AnyWorkload, ConfigErrors> {
        Ok(match self {
            WorkloadConfig::Uniform(c) => {
                AnyWorkload::Uniform(UniformWorkload::new(c, nodes, flit_bytes, seed)?)
            }
            WorkloadConfig::Hotspot(c) => {
                AnyWorkload::Hotspot(HotspotWorkload::new(c, nodes, flit_bytes, seed)?)
            }
            WorkloadConfig::Gpcnet(c) => AnyWorkload::Gpcnet(Box::new(GpcnetWorkload::with_link(
                c, nodes, flit_bytes, link_gbps, seed,
            )?)),
            WorkloadConfig::Motif(c) => {
                AnyWorkload::Motif(Box::new(MotifWorkload::new(c, nodes, flit_bytes, seed)?))
            }
            WorkloadConfig::Jobs(c) => AnyWorkload::Jobs(Box::new(motif::JobsWorkload::new(
                c, nodes, flit_bytes, seed,
            )?)),
            WorkloadConfig::Trace(c) => {
                let t = match c.trace() {
                    Some(t) => t,
                    None => return Err(c.validate(nodes).err().unwrap_or_default()),
                };
                AnyWorkload::Motif(Box::new(MotifWorkload::from_trace(
                    t,
                    nodes,
                    flit_bytes,
                    c.warmup_iterations,
                    c.start_cycle,
                )?))
            }
        })
    }
}

/// A built workload of any kind (so callers keep access to the kind-specific results).
#[derive(Clone, Debug)]
pub enum AnyWorkload {
    Uniform(UniformWorkload),
    Hotspot(HotspotWorkload),
    Gpcnet(Box<GpcnetWorkload>),
    /// A motif or a trace.
    Motif(Box<MotifWorkload>),
    /// Jobs side by side.
    Jobs(Box<motif::JobsWorkload>),
}

impl AnyWorkload {
    /// The class of NIC `n` as `WorkloadConfig::classes` names it (None: no class).
    pub fn class_of(&self, n: NodeId) -> Option<&'static str> {
        match self {
            AnyWorkload::Uniform(_) | AnyWorkload::Motif(_) => None,
            AnyWorkload::Jobs(j) => Some(match j.job_of(n) {
                Some(0) => "victim",
                Some(_) => "aggressor",
                None => return None,
            }),
            AnyWorkload::Hotspot(h) => Some(match h.class_of(n) {
                hotspot::NodeClass::C => "c",
                hotspot::NodeClass::V => "v",
                hotspot::NodeClass::B => "b",
            }),
            AnyWorkload::Gpcnet(g) => Some(match g.layout().roles[n.index()] {
                gpcnet::NodeRole::Canary { .. } => "canary",
                gpcnet::NodeRole::Congestor { .. } => "congestor",
            }),
        }
    }

    /// True when the workload has nothing more to measure (GPCNeT: all canary tests done);
    /// always false for the open-loop workloads, which run until the caller stops.
    pub fn finished(&self) -> bool {
        match self {
            AnyWorkload::Gpcnet(g) => g.finished(),
            AnyWorkload::Motif(m) => m.finished(),
            AnyWorkload::Jobs(j) => j.finished(),
            _ => false,
        }
    }

    /// Share of the expected work done, 0 to 1, for workloads that end by themselves
    /// (GPCNeT: `GpcnetWorkload::work_done`); None for the open-loop workloads, which run
    /// until the caller's cycle budget. Reads the state only.
    pub fn work_done(&self) -> Option<f64> {
        match self {
            AnyWorkload::Gpcnet(g) => Some(g.work_done()),
            AnyWorkload::Motif(m) => Some(m.work_done()),
            AnyWorkload::Jobs(j) => Some(j.work_done()),
            _ => None,
        }
    }

    /// Motif or trace results, for those workloads.
    pub fn motif_results(&self) -> Option<MotifResults> {
        match self {
            AnyWorkload::Motif(m) => Some(m.results()),
            AnyWorkload::Jobs(j) => Some(j.results()),
            _ => None,
        }
    }

    /// GPCNeT results, for a GPCNeT workload.
    pub fn gpcnet_results(&self) -> Option<GpcnetResults> {
        match self {
            AnyWorkload::Gpcnet(g) => Some(g.results()),
            _ => None,
        }
    }
}

impl Workload for AnyWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        match self {
            AnyWorkload::Uniform(w) => w.tick(now, out),
            AnyWorkload::Hotspot(w) => w.tick(now, out),
            AnyWorkload::Gpcnet(w) => w.tick(now, out),
            AnyWorkload::Motif(w) => w.tick(now, out),
            AnyWorkload::Jobs(w) => w.tick(now, out),
        }
    }

    fn delivered(&mut self, now: u64, d: &Delivery) {
        match self {
            AnyWorkload::Uniform(w) => w.delivered(now, d),
            AnyWorkload::Hotspot(w) => w.delivered(now, d),
            AnyWorkload::Gpcnet(w) => w.delivered(now, d),
            AnyWorkload::Motif(w) => w.delivered(now, d),
            AnyWorkload::Jobs(w) => w.delivered(now, d),
        }
    }

    fn refused(&mut self, now: u64, m: &Message) {
        match self {
            AnyWorkload::Uniform(w) => w.refused(now, m),
            AnyWorkload::Hotspot(w) => w.refused(now, m),
            // refused by the scenario's checks: a closed-loop process cannot lose a message
            AnyWorkload::Gpcnet(w) => w.refused(now, m),
            AnyWorkload::Motif(w) => w.refused(now, m),
            AnyWorkload::Jobs(w) => w.refused(now, m),
        }
    }
}
