//! The things a scenario starts at a cycle, each checked against `cycles.max`.

use super::Scenario;
use crate::cc::pft::PftConfig;
use crate::error::ConfigErrors;

impl Scenario {
    /// Things that start at or after the end of the run (`cycles.max`): the workload's
    /// traffic or GPCNeT's canaries, and run-time faults; traffic that stops before the
    /// measured window (`cycles.warmup`). Each would silently never happen or be measured.
    pub(super) fn check_starts(&self, errs: &mut ConfigErrors) {
        let max = self.cycles.max;
        let (key, start) = self.workload.start();
        if start >= max {
            let what = if key == "canary_start_cycles" {
                "the canaries would never run"
            } else {
                "no traffic would start"
            };
            errs.push(
                &format!("workload.{key}"),
                start,
                format!("must be below cycles.max = {max} ({what})"),
            );
        }
        // traffic that stops before the measured window opens: nothing offered is measured
        if let (Some(stop), Some(warmup)) = (self.workload.stop(), self.cycles.warmup) {
            if stop <= warmup && warmup < max {
                errs.push(
                    "workload.stop_cycle",
                    stop,
                    format!(
                        "must be above cycles.warmup = {warmup} (no traffic would be offered in the measured window)"
                    ),
                );
            }
        }
        if let crate::workload::WorkloadConfig::Jobs(j) = &self.workload {
            for (i, job) in j.jobs.iter().enumerate().skip(1) {
                if job.start_cycle >= max {
                    let why = format!("must be below cycles.max = {max} (the job would never run)");
                    errs.push(
                        &format!("workload.jobs[{i}].start_cycle"),
                        job.start_cycle,
                        why,
                    );
                }
            }
        }
        for (i, f) in self.network.faults.iter().enumerate() {
            if let crate::net::FaultSpec::RegRewrite { regs, .. } = f {
                let at = format!("network.faults[{i}].pft");
                errs.0.extend(PftConfig::rewrite_errors(regs, &at));
            }
            let start = f.window().start;
            if start >= max {
                let key = if matches!(f, crate::net::FaultSpec::RegRewrite { .. }) {
                    "at"
                } else {
                    "start"
                };
                errs.push(
                    &format!("network.faults[{i}].{key}"),
                    start,
                    format!("must be below cycles.max = {max} (the fault would never happen)"),
                );
            }
        }
    }
}
