//! The warnings of a valid scenario: settings that are allowed but probably not what the
//! user wants (`check`, `run` and `compare` print them on stderr).

use super::Scenario;
use crate::cc::pft::PftConfig;
use crate::cc::CcConfig;
use crate::net::NodeId;
use crate::workload::WorkloadConfig;

impl Scenario {
    /// Settings that are valid but probably not what the user wants: PFT configurations
    /// (listed, or written by a `pft_rewrite` fault) whose level passes no flit at all
    /// below CREDIT_LIMIT, which can stall a NIC halfway through a packet for good
    /// (docs/scenarios.md, "levels that block completely"), and `[[pft]]` entries whose
    /// `classes` name a class this workload has no NIC of, and the workload's own
    /// (`WorkloadConfig::warnings_on`: a `group_shift` pattern across a dragonfly's groups).
    pub fn warnings(&self) -> Vec<String> {
        let mut out = self.network.warnings();
        out.extend(self.blocking_warnings());
        out.extend(self.class_warnings());
        out.extend(self.workload.warnings_on(&self.network.topology));
        match &self.workload {
            WorkloadConfig::Hotspot(h) => out.extend(h.warnings()),
            WorkloadConfig::Gpcnet(g) => out.extend(g.warnings()),
            _ => {}
        }
        let pft_runs =
            !self.pft.is_empty() || self.cc.iter().any(|c| matches!(c.scheme, CcConfig::Pft(_)));
        for (i, f) in self.network.faults.iter().enumerate() {
            if !pft_runs && matches!(f, crate::net::FaultSpec::RegRewrite { .. }) {
                out.push(format!("network.faults[{i}]: a `pft_rewrite` fault rewrites PFT blocks, and this scenario runs none (no [[pft]] entry, no [[cc]] of kind \"pft\"): it changes nothing"));
            }
        }
        out
    }

    /// NICs of each class (`WorkloadConfig::classes`) as the run places them; None when the
    /// scenario is invalid or the workload has no classes. GPCNeT's placement does not depend
    /// on `ppn` (workload::gpcnet::layout), so it is built with one process per NIC: cheap
    /// at any `ppn`.
    pub(super) fn class_counts(&self) -> Option<Vec<(&'static str, usize)>> {
        self.network.validate().ok()?;
        let nodes = self.nodes();
        let mut wl = self.workload.clone();
        if let WorkloadConfig::Gpcnet(g) = &mut wl {
            g.ppn = 1;
        }
        let built = wl
            .build_at(
                nodes,
                self.network.flit_bytes,
                self.network.link_gbps,
                self.seed,
            )
            .ok()?;
        let counts = self
            .workload
            .classes()
            .iter()
            .map(|&c| {
                let n = NodeId::all(nodes)
                    .filter(|&n| built.class_of(n) == Some(c))
                    .count();
                (c, n)
            })
            .collect();
        Some(counts)
    }

    /// `[[pft]]` entries whose `classes` select a class with no NIC in this workload (a
    /// hot-spot workload with `frac_b = 0` has no B NIC): the entry runs PFT on fewer NICs
    /// than it says, or on none while its row is labelled with its PFT mode.
    pub(super) fn class_warnings(&self) -> Vec<String> {
        if !self.pft.iter().any(|p| p.classes.is_some()) {
            return Vec::new();
        }
        let Some(counts) = self.class_counts() else {
            return Vec::new();
        };
        let label = |c: &str| {
            if c.len() == 1 {
                c.to_uppercase()
            } else {
                c.to_string()
            }
        };
        let count = |c: &str| counts.iter().find(|(k, _)| *k == c).map(|&(_, n)| n);
        let mut out = Vec::new();
        for p in &self.pft {
            let Some(classes) = &p.classes else { continue };
            // (index, class) of each listed class without a NIC, each class once
            let mut empty: Vec<(usize, &str)> = Vec::new();
            for (i, c) in classes.iter().enumerate() {
                if count(c) == Some(0) && !empty.iter().any(|(_, e)| e == c) {
                    empty.push((i, c));
                }
            }
            if empty.is_empty() {
                continue;
            }
            let has = empty
                .iter()
                .map(|(_, c)| format!("0 {} NICs", label(c)))
                .collect::<Vec<_>>()
                .join(" and ");
            let selects_none = classes.iter().all(|c| count(c) == Some(0));
            out.push(if selects_none {
                format!(
                    "[[pft]] `{}`: classes = {:?} selects no NIC of this workload (it has {has}); the entry runs PFT on no NIC",
                    p.name, classes
                )
            } else {
                let which = empty
                    .iter()
                    .map(|(i, c)| format!("classes[{i}] = {c:?}"))
                    .collect::<Vec<_>>()
                    .join(" and ");
                format!(
                    "[[pft]] `{}`: {which} selects no NIC of this workload (it has {has}); the entry runs PFT on the NICs of its other classes only",
                    p.name
                )
            });
        }
        out
    }

    /// The PFT configurations whose level blocks completely (see `warnings`).
    fn blocking_warnings(&self) -> Vec<String> {
        let limit = self.network.buffer_flits.min(u16::MAX as u32) as u16;
        let mut pfts: Vec<(String, PftConfig)> = self
            .pft
            .iter()
            .map(|p| (format!("[[pft]] `{}`", p.name), p.config()))
            .collect();
        // a `[[cc]]` entry of kind "pft" is a `[[pft]]` entry by another name
        for c in &self.cc {
            if let CcConfig::Pft(p) = &c.scheme {
                pfts.push((format!("[[cc]] `{}`", c.name), *p));
            }
        }
        for (i, f) in self.network.faults.iter().enumerate() {
            if let crate::net::FaultSpec::RegRewrite { regs, .. } = f {
                if let Ok(p) = PftConfig::from_table(regs) {
                    pfts.push((format!("network.faults[{i}].pft"), p));
                }
            }
        }
        pfts.into_iter()
            .filter_map(|(what, p)| {
                p.blocking_from(limit).map(|c| {
                    format!(
                        "{what}: the throttle passes no flit at all once Congested with c >= {c} (CREDIT_LIMIT {limit}); a NIC stopped halfway through a packet may never finish it (the run then stops with `starved`)"
                    )
                })
            })
            .collect()
    }
}
