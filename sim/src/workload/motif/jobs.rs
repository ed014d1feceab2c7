//! Jobs side by side on one fabric (`[workload] kind = "jobs"`): a victim job (the first
//! `[[workload.jobs]]` entry) and aggressor jobs (the others), each a motif on its own NICs,
//! placed `linear`, `random` or `interleaved`. The run ends when the victim has finished
//! its iterations (the aggressors run theirs and then stop: give them enough to cover the
//! victim). The isolated baseline runs the victim alone on the same NICs; the victim's
//! slowdown is its mean iteration time against that run's (GPCNeT's congestion impact).

use super::{MotifConfig, MotifResults, MotifWorkload};
use crate::net::types::{Delivery, Message, NodeId, Workload};
use crate::workload::config::{check_workload, ConfigErrors, MAX_NODES};
use crate::workload::tag;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Most jobs.
pub const MAX_JOBS: usize = 16;

/// How the jobs' ranks are dealt to the NICs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Job 0 on the first NICs, job 1 on the next, ... (rank order within each).
    #[default]
    Linear,
    /// The NICs in a random order (from the scenario's seed), then dealt as `linear`.
    Random,
    /// NIC by NIC, round robin over the jobs that still need NICs.
    Interleaved,
}

/// `[workload] kind = "jobs"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobsConfig {
    /// `linear` (default), `random` or `interleaved`.
    #[serde(default)]
    pub placement: Placement,
    /// The victim first, then the aggressors, each a motif's keys plus `nics` (its NIC
    /// count, required). 1..=16 entries.
    #[serde(deserialize_with = "crate::net::config::tables_only")]
    pub jobs: Vec<MotifConfig>,
    /// False runs the victim alone (the isolated baseline; set by the run, not the file).
    #[serde(skip, default = "yes")]
    pub aggressors: bool,
}

fn yes() -> bool {
    true
}

impl JobsConfig {
    /// Checks every job for `nodes` NICs (keys `jobs[i].*`).
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut e = ConfigErrors::default();
        e.check_u64("nodes", nodes as u64, 2, MAX_NODES as u64);
        if self.jobs.is_empty() || self.jobs.len() > MAX_JOBS {
            e.push(
                "jobs",
                format!("{} entries", self.jobs.len()),
                format!(
                    "allowed 1..={MAX_JOBS} [[workload.jobs]] entries (the first is the victim)"
                ),
            );
        }
        let n_of = |j: &MotifConfig| j.nics.unwrap_or(0);
        let total: u64 = self.jobs.iter().map(|j| n_of(j) as u64).sum();
        if total > nodes as u64 {
            e.push(
                "jobs",
                format!("{total} NICs in all"),
                format!("allowed at most the NIC count, {nodes}"),
            );
        }
        for (i, j) in self.jobs.iter().enumerate() {
            let at = format!("jobs[{i}]");
            if !(2..=nodes.max(2)).contains(&n_of(j)) {
                let got = j.nics.map_or("missing".to_string(), |n| n.to_string());
                e.push(&format!("{at}.nics"), got, format!("required, 2..={nodes}"));
                // the job's other keys too, those that do not depend on its NIC count
                if let Err(es) = j.validate(nodes.max(2)) {
                    let own = es.0.into_iter().filter(|f| {
                        f.field != "nodes" && f.field != "grid" && !f.allowed.contains("NIC")
                    });
                    e.extend_prefixed(&at, ConfigErrors(own.collect()));
                }
            } else if let Err(es) = j.validate(n_of(j)) {
                // the job's own NIC count is its `nodes`
                let es = ConfigErrors(
                    es.0.into_iter()
                        .map(|f| {
                            if f.field == "grid" {
                                let mut f = f;
                                f.allowed = f.allowed.replace("the NIC count", "the job's `nics`");
                                f
                            } else {
                                f
                            }
                        })
                        .collect(),
                );
                e.extend_prefixed(&at, es);
            }
        }
        e.into_result()
    }

    /// The NICs of each job for `nodes` NICs (`seed`: the random placement).
    pub fn place(&self, nodes: u32, seed: u64) -> Vec<Vec<u32>> {
        let mut order: Vec<u32> = (0..nodes).collect();
        if self.placement == Placement::Random {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x2545_f491_4f6c_dd1d);
            order.shuffle(&mut rng);
        }
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); self.jobs.len()];
        let mut it = order.into_iter();
        match self.placement {
            Placement::Linear | Placement::Random => {
                for (j, job) in self.jobs.iter().enumerate() {
                    out[j].extend(it.by_ref().take(job.nics.unwrap_or(0) as usize));
                }
            }
            Placement::Interleaved => loop {
                let mut placed = false;
                for (j, job) in self.jobs.iter().enumerate() {
                    if out[j].len() < job.nics.unwrap_or(0) as usize {
                        if let Some(n) = it.next() {
                            out[j].push(n);
                            placed = true;
                        }
                    }
                }
                if !placed {
                    break;
                }
            },
        }
        out
    }
}

/// The jobs workload (see the module docs).
#[derive(Clone, Debug)]
pub struct JobsWorkload {
    jobs: Vec<MotifWorkload>,
    aggressors: bool,
    nodes: u32,
}

impl JobsWorkload {
    /// Builds every job on its NICs; job j's messages carry tag `MOTIF + j`.
    pub fn new(
        cfg: &JobsConfig,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        check_workload(nodes, flit_bytes, cfg.validate(nodes))?;
        let places = cfg.place(nodes, seed);
        let mut jobs = Vec::new();
        for (j, (job, nics)) in cfg.jobs.iter().zip(&places).enumerate() {
            let s = seed.wrapping_add((j as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let w = MotifWorkload::new(job, nics.len() as u32, flit_bytes, s)?;
            jobs.push(w.placed(nics, nodes, tag::MOTIF + j as u32, (j as u64) << 48));
        }
        Ok(JobsWorkload {
            jobs,
            aggressors: cfg.aggressors,
            nodes,
        })
    }

    /// The jobs, the victim first.
    pub fn jobs(&self) -> &[MotifWorkload] {
        &self.jobs
    }

    /// The job running on NIC `n` (None: idle).
    pub fn job_of(&self, n: NodeId) -> Option<usize> {
        (n.0 < self.nodes)
            .then(|| self.jobs.iter().position(|j| j.nics().contains(&n.0)))
            .flatten()
    }

    /// The victim has finished.
    pub fn finished(&self) -> bool {
        self.jobs[0].finished()
    }

    /// The victim's share of work done.
    pub fn work_done(&self) -> f64 {
        self.jobs[0].work_done()
    }

    /// The victim's results.
    pub fn results(&self) -> MotifResults {
        self.jobs[0].results()
    }

    fn running(&mut self) -> &mut [MotifWorkload] {
        let k = if self.aggressors { self.jobs.len() } else { 1 };
        &mut self.jobs[..k]
    }
}

impl Workload for JobsWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        for j in self.running() {
            j.tick(now, out);
        }
    }

    fn delivered(&mut self, now: u64, d: &Delivery) {
        let k = d.msg.tag.wrapping_sub(tag::MOTIF) as usize;
        if let Some(j) = self.running().get_mut(k) {
            j.delivered(now, d);
        }
    }
}
