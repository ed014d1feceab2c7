//! The canary side of the engine: the test sequence (latency, bandwidth, allreduce), each
//! test's rings of iterations, and the steps of one iteration (of a canary test, or of the
//! all-to-all congestor).

use super::steps::{allreduce_steps, awt, barrier_steps, snd, Kind, Step, Steps};
use super::{GpcnetWorkload, ProcRole};
use crate::workload::gpcnet::{CanaryTest, GpcnetConfig};
use rand::seq::SliceRandom;

impl GpcnetWorkload {
    pub(super) fn test_params(&self, t: CanaryTest) -> (u32, u32, u32) {
        self.cfg.test_iterations(t)
    }

    pub(super) fn iteration_done(&mut self, p: u32, at: u64, emit: u64) {
        match self.roles[p as usize] {
            ProcRole::Congestor { .. } => {
                self.procs[p as usize].iter += 1;
                self.start_iteration(p, emit);
            }
            ProcRole::Canary { cidx, .. } => {
                let test = self.cfg.canary_tests[self.canary.pos];
                let (warm, iters, _) = self.test_params(test);
                let bw_bytes = self.cfg.bw_msg_bytes as u64 * self.cfg.bw_outstanding as u64 * 2;
                let pr = &mut self.procs[p as usize];
                let cycles = at.saturating_sub(pr.iter_start).max(1);
                if pr.iter >= warm {
                    let sample = match test {
                        CanaryTest::Bandwidth => bw_bytes as f64 / cycles as f64,
                        _ => cycles as f64,
                    };
                    pr.acc_sum += sample;
                    pr.acc_n += 1;
                    pr.acc_bytes += bw_bytes;
                    pr.acc_cycles += cycles;
                    self.results[self.canary.pos][cidx as usize]
                        .samples
                        .push(sample);
                }
                pr.iter += 1;
                if pr.iter < warm + iters {
                    self.start_iteration(p, emit);
                } else {
                    let value = match test {
                        CanaryTest::Bandwidth => pr.acc_bytes as f64 / pr.acc_cycles as f64,
                        _ => pr.acc_sum / pr.acc_n as f64,
                    };
                    self.results[self.canary.pos][cidx as usize]
                        .ring_values
                        .push(value);
                    self.canary.running -= 1;
                    if self.canary.running == 0 {
                        self.ring_done(at, emit);
                    }
                }
            }
        }
    }

    pub(super) fn ring_done(&mut self, at: u64, emit: u64) {
        let test = self.cfg.canary_tests[self.canary.pos];
        let (_, _, rings) = self.test_params(test);
        self.canary.ring += 1;
        if self.canary.ring < rings {
            self.start_ring(emit);
            return;
        }
        self.test_span[self.canary.pos].1 = Some(at);
        self.canary.pos += 1;
        self.canary.ring = 0;
        if self.canary.pos < self.cfg.canary_tests.len() {
            self.start_ring(emit);
        } else {
            self.canary.finished = true;
            self.canary.end_cycle = Some(at);
        }
    }

    /// Starts a ring (or the allreduce run) of the current test for every canary process,
    /// all in cycle `emit` (an ideal, traffic-free barrier separates rings and tests).
    pub(super) fn start_ring(&mut self, emit: u64) {
        let test = self.cfg.canary_tests[self.canary.pos];
        if self.canary.ring == 0 {
            self.test_span[self.canary.pos].0 = Some(emit);
        }
        if test != CanaryTest::Allreduce {
            for l in 0..self.canary_comms.len() {
                let mut ring = self.canary_comms[l].clone();
                ring.shuffle(&mut self.ring_rng);
                let n = ring.len();
                for i in 0..n {
                    let pr = &mut self.procs[ring[i] as usize];
                    pr.left = ring[(i + n - 1) % n];
                    pr.right = ring[(i + 1) % n];
                }
            }
        }
        self.canary.running = self.canary_procs.len() as u32;
        for i in 0..self.canary_procs.len() {
            let p = self.canary_procs[i];
            let pr = &mut self.procs[p as usize];
            debug_assert!(
                pr.mailbox.is_empty(),
                "stale canary messages at a ring start"
            );
            pr.iter = 0;
            pr.acc_sum = 0.0;
            pr.acc_n = 0;
            pr.acc_bytes = 0;
            pr.acc_cycles = 0;
            self.start_iteration(p, emit);
        }
    }

    pub(super) fn start_iteration(&mut self, p: u32, emit: u64) {
        let steps = self.build_steps(p);
        let pr = &mut self.procs[p as usize];
        pr.steps = steps;
        pr.step = 0;
        pr.iter_start = emit;
        if pr.steps.len() > 0 {
            self.post_step(p, emit);
        }
    }

    pub(super) fn build_steps(&self, p: u32) -> Steps {
        let pr = &self.procs[p as usize];
        let k = pr.iter as u64;
        let c = &self.cfg;
        match self.roles[p as usize] {
            ProcRole::Canary { comm, rank, .. } => {
                let members = &self.canary_comms[comm as usize];
                Steps::List(match c.canary_tests[self.canary.pos] {
                    CanaryTest::Latency => vec![Step {
                        sends: vec![
                            snd(pr.left, Kind::LatToLeft, k, 1, c.lat_msg_bytes),
                            snd(pr.right, Kind::LatToRight, k, 1, c.lat_msg_bytes),
                        ],
                        awaits: vec![
                            awt(pr.left, Kind::LatToRight, k, 1),
                            awt(pr.right, Kind::LatToLeft, k, 1),
                        ],
                    }],
                    CanaryTest::Bandwidth => {
                        let o = c.bw_outstanding;
                        let mut steps = vec![Step {
                            sends: vec![
                                snd(pr.left, Kind::BwToLeft, k, o, c.bw_msg_bytes),
                                snd(pr.right, Kind::BwToRight, k, o, c.bw_msg_bytes),
                            ],
                            awaits: vec![
                                awt(pr.left, Kind::BwToRight, k, o),
                                awt(pr.right, Kind::BwToLeft, k, o),
                            ],
                        }];
                        steps.extend(barrier_steps(members, rank, k, c.barrier_msg_bytes));
                        steps
                    }
                    CanaryTest::Allreduce => {
                        allreduce_steps(members, rank, k, c.allreduce_msg_bytes)
                    }
                })
            }
            ProcRole::Congestor { group, comm, rank } => Steps::A2a {
                group,
                comm,
                rank,
                k,
                n: self.cong_comms[group as usize][comm as usize].len() as u32,
            },
        }
    }
}

/// Cycles per iteration of canary test `t` without contention, a rough guess for
/// `work_done`: per dependent step, the longer of the host time (`host` = send + receive
/// cycles per message) and the NIC's serialization of its `ppn` processes' flits, plus a
/// guessed network latency. `n`: canary NICs (ranks per communicator).
pub(super) fn iter_cost(
    cfg: &GpcnetConfig,
    t: CanaryTest,
    n: u32,
    flit_bytes: u32,
    host: f64,
) -> f64 {
    /// A few switch hops at the default link and switch latencies.
    const STEP_LATENCY: f64 = 50.0;
    let ppn = cfg.ppn as f64;
    let step = |msgs: f64, bytes: u32| {
        let flits = crate::workload::flits_for(bytes, flit_bytes) as f64;
        (msgs * host).max(ppn * msgs * flits) + STEP_LATENCY
    };
    let log2 = |k: u32| k.max(1).next_power_of_two().trailing_zeros() as f64;
    match t {
        CanaryTest::Latency => step(2.0, cfg.lat_msg_bytes),
        CanaryTest::Bandwidth => {
            step(2.0 * cfg.bw_outstanding as f64, cfg.bw_msg_bytes)
                + log2(n) * step(1.0, cfg.barrier_msg_bytes)
        }
        // recursive doubling, plus the fold of the ranks beyond a power of two
        CanaryTest::Allreduce => (log2(n) + 1.0) * step(1.0, cfg.allreduce_msg_bytes),
    }
}
