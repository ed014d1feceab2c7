//! The scenario file: one TOML document with the network, the workload, a list of named PFT
//! configurations, the cycle budget, the seed, the engine and the time-series sampling.
//! Every section deserializes with serde (missing keys take defaults, unknown keys are
//! refused); `Scenario::validate` then checks ranges and cross-references and returns every
//! problem, each naming its key and what is allowed. Nothing here panics on bad input.
//! docs/scenarios.md documents every key.

use crate::cc::pft::EngineKind;
use crate::cc::CcConfig;
use crate::error::ConfigErrors;
use crate::net::config::{table_only, tagged_table_only};
use crate::net::{NetConfig, NodeId};
use crate::workload::gpcnet::GpcnetConfig;
use crate::workload::WorkloadConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

mod cc_entry;
mod pft_entry;
mod starts;
mod warnings;

pub use cc_entry::CcEntry;
use pft_entry::check_run_name;
pub use pft_entry::PftEntry;

/// Largest cycle budget accepted (10^10 cycles: about 14 hours at 200 k cycles/s).
pub const MAX_CYCLES: u64 = 10_000_000_000;
// the watchdogs' and the workloads' cycle keys are bounded by the longest run
const _: () = assert!(
    MAX_CYCLES == crate::net::config::MAX_WATCHDOG_CYCLES
        && MAX_CYCLES == crate::workload::config::MAX_CYCLE
);
/// Most NICs a time series may watch.
pub const MAX_WATCH: usize = 64;
/// Names that cannot be used for a PFT configuration (they name other runs of `compare`).
pub const RESERVED_NAMES: [&str; 2] = ["off", "isolated"];

/// A whole scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name for reports; default: the file stem.
    #[serde(default)]
    pub name: Option<String>,
    /// Free text, echoed in the outputs.
    #[serde(default)]
    pub description: String,
    /// Run seed: workload streams, placement and every NIC's PFT generator seed derive from
    /// it. Default 1.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// PFT implementation in every NIC: `model` (default) or `rtl` (slow, for cross-checks).
    #[serde(default)]
    pub engine: EngineKind,
    /// Also run the isolated baseline with congestion control off: GPCNeT's congestors off
    /// (for its Congestion Impact Factor; default true), a `jobs` workload's victim alone
    /// (for `iter_slowdown`; default true), or the hot-spot workload's hot streams off (the
    /// IB study's "no hot spots" run; default false). Uniform, motif and trace workloads
    /// have none.
    #[serde(default)]
    pub isolated: Option<bool>,
    #[serde(default, deserialize_with = "table_only")]
    pub cycles: CyclesConfig,
    #[serde(default, deserialize_with = "table_only")]
    pub timeseries: TimeSeriesConfig,
    #[serde(default, deserialize_with = "table_only")]
    pub network: NetConfig,
    #[serde(deserialize_with = "tagged_table_only")]
    pub workload: WorkloadConfig,
    /// Named PFT configurations (`[[pft]]` tables). `run` uses the first (or `--pft NAME`);
    /// `compare` runs PFT off and each of them. May be empty (PFT off only).
    #[serde(default)]
    pub pft: Vec<PftEntry>,
    /// Named congestion-control configurations (`[[cc]]` tables; `kind` is any registered
    /// scheme, `crate::cc::KINDS`), run by `compare` after the `[[pft]]` entries. Names are
    /// unique across both lists.
    #[serde(default)]
    pub cc: Vec<CcEntry>,
}

/// Whether the network key `field` (`network.` and the key) is one that no congestion-control
/// scheme reads when it checks its entry against the network (`CcConfig::network_errors`):
/// the watchdogs, the threads, the ejection rate, the send queue and the run-time faults.
fn not_read_by_schemes(field: &str) -> bool {
    let Some(key) = field.strip_prefix("network.") else {
        return false;
    };
    let head = key.split(['.', '[']).next().unwrap_or(key);
    [
        "deadlock_cycles",
        "stall_cycles",
        "threads",
        "eject_rate",
        "send_queue_msgs",
        "faults",
        "fault",
    ]
    .contains(&head)
}

fn default_seed() -> u64 {
    1
}

/// `[cycles]`: how long a run lasts and where measurement starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CyclesConfig {
    /// Hard limit on simulated cycles. 1..=10^10, default 1,000,000.
    pub max: u64,
    /// First cycle of the throughput and latency window `[warmup, end)`. Default: the
    /// workload's `canary_start_cycles` for GPCNeT, else 0. Must be below `max`.
    pub warmup: Option<u64>,
    /// GPCNeT: stop as soon as every canary test has finished (the congestors run
    /// forever). Open-loop workloads always run `max` cycles. Default true.
    pub stop_when_finished: bool,
}

impl Default for CyclesConfig {
    fn default() -> Self {
        CyclesConfig {
            max: 1_000_000,
            warmup: None,
            stop_when_finished: true,
        }
    }
}

/// `[timeseries]`: sampling of `c` and the PFT state at chosen NICs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimeSeriesConfig {
    /// Sampling period, cycles. 1..=2^32, default 1000.
    pub period: u64,
    /// NICs to watch (0..nodes, at most 64). Default: chosen from the workload's roles (a
    /// canary or victim NIC, and a sender of each aggressor class).
    pub nics: Option<Vec<NodeId>>,
}

impl Default for TimeSeriesConfig {
    fn default() -> Self {
        TimeSeriesConfig {
            period: 1000,
            nics: None,
        }
    }
}

/// The name of a scenario file without `name`: its stem with every character outside
/// A-Z a-z 0-9 _ - . replaced by `_`, at most 64 characters (`my run.toml` -> `my_run`).
pub(crate) fn name_from_stem(stem: &str) -> String {
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "scenario".to_string()
    } else {
        name
    }
}

/// Why a scenario could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot read scenario {path}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("scenario {path} is not valid TOML for a scenario:\n{message}")]
    Parse { path: String, message: String },
    #[error("scenario {path} has {} invalid value(s):\n{problems}", problems.0.len())]
    Invalid {
        path: String,
        problems: ConfigErrors,
    },
}

/// Why scenario text was refused (`Scenario::check_text`).
#[derive(Debug)]
pub enum Refused {
    /// Not TOML, or not a scenario's keys and types: the message names the key, the line
    /// and the column.
    Parse(String),
    /// Values out of range or inconsistent: every one of them.
    Invalid(ConfigErrors),
}

impl Scenario {
    /// Parses and validates scenario text: the one check that `check`, `run` and `compare`
    /// (through `load_with`) and every point scenario of a sweep go through.
    pub fn check_text(text: &str) -> Result<Scenario, Refused> {
        Scenario::check_text_in(text, None)
    }

    /// `check_text` for a scenario in directory `dir` (None: the current directory), from
    /// which a relative topology file's path is taken.
    pub fn check_text_in(text: &str, dir: Option<&Path>) -> Result<Scenario, Refused> {
        let mut s: Scenario = toml::from_str(text)
            .map_err(|e| Refused::Parse(super::toml_error::message_in(text, dir, &e)))?;
        s.network.topology.resolve(dir);
        s.workload.resolve(dir);
        s.workload.resolve_network(&s.network.topology);
        s.validate().map_err(Refused::Invalid)?;
        Ok(s)
    }

    /// Reads, parses and validates a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        Scenario::load_with(path, &[])
    }

    /// Reads a scenario file, applies `--set` values (`overrides`), parses and validates.
    pub fn load_with(
        path: &Path,
        sets: &[(String, toml::Value)],
    ) -> Result<Scenario, ScenarioError> {
        let shown = path.display().to_string();
        let file = crate::input::read_config(path).map_err(|source| ScenarioError::Io {
            path: shown.clone(),
            source,
        })?;
        let mut text = file.clone();
        if !sets.is_empty() {
            let sets = super::overrides::paths_from_cwd(sets);
            text =
                super::overrides::apply(&text, &sets).map_err(|message| ScenarioError::Parse {
                    path: shown.clone(),
                    message,
                })?;
        }
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let mut s = Scenario::check_text_in(&text, dir).map_err(|r| match r {
            Refused::Parse(message) => ScenarioError::Parse {
                path: shown.clone(),
                // (the lines of the text as changed are not the file's)
                message: super::overrides::explain(&file, sets, message),
            },
            Refused::Invalid(problems) => ScenarioError::Invalid {
                path: shown.clone(),
                problems,
            },
        })?;
        // a name from the stem is always valid (`name_from_stem`)
        if s.name.is_none() {
            s.name = path
                .file_stem()
                .map(|f| name_from_stem(&f.to_string_lossy()));
        }
        Ok(s)
    }

    /// Parses TOML text (no validation). The error names the dotted key it is about (as far
    /// as the text shows it), the allowed range of a mistyped integer, the line and column,
    /// and then quotes the parser's own report.
    pub fn parse(text: &str) -> Result<Scenario, String> {
        Scenario::parse_in(text, None)
    }

    /// `parse` for a scenario in directory `dir` (None: the current directory), from which
    /// its relative input paths are taken.
    pub fn parse_in(text: &str, dir: Option<&Path>) -> Result<Scenario, String> {
        let mut s: Scenario =
            toml::from_str(text).map_err(|e| super::toml_error::message_in(text, dir, &e))?;
        s.network.topology.resolve(dir);
        s.workload.resolve(dir);
        s.workload.resolve_network(&s.network.topology);
        Ok(s)
    }

    /// The scenario's name (`"scenario"` when neither the file nor the stem gave one).
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("scenario")
    }

    /// Number of NICs (valid after `validate`).
    pub fn nodes(&self) -> u32 {
        self.network.topology.nodes()
    }

    /// The GPCNeT configuration, for a GPCNeT workload.
    pub fn gpcnet(&self) -> Option<&GpcnetConfig> {
        match &self.workload {
            WorkloadConfig::Gpcnet(g) => Some(g),
            _ => None,
        }
    }

    /// Start of the measurement window (see `CyclesConfig::warmup`).
    pub fn warmup(&self) -> u64 {
        self.cycles.warmup.unwrap_or_else(|| {
            self.gpcnet().map_or(0, |g| {
                g.canary_start_cycles.min(self.cycles.max.saturating_sub(1))
            })
        })
    }

    /// The PFT entry called `name`.
    pub fn pft_named(&self, name: &str) -> Option<&PftEntry> {
        self.pft.iter().find(|p| p.name == name)
    }

    /// Every named congestion-control configuration, `[[pft]]` entries first, then `[[cc]]`
    /// entries, each in file order (the order of `compare`'s rows).
    pub fn configs(&self) -> Vec<(String, CcConfig)> {
        self.pft
            .iter()
            .map(|p| (p.name.clone(), CcConfig::Pft(p.config())))
            .chain(self.cc.iter().map(|c| (c.name.clone(), c.config())))
            .collect()
    }

    /// The configuration called `name` (a `[[pft]]` or `[[cc]]` entry).
    pub fn config_named(&self, name: &str) -> Option<CcConfig> {
        self.configs()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c)
    }

    /// Checks every section; returns all problems found.
    pub fn validate(&self) -> Result<(), ConfigErrors> {
        let mut errs = ConfigErrors::default();
        errs.0.extend(
            self.network
                .errors()
                .into_iter()
                .map(|e| e.prefixed("network")),
        );
        // The checks against the NIC count need a valid topology; the others run whatever
        // else is wrong, so that one pass reports every problem.
        let topo_ok = self.network.topology.errors().is_empty();
        // the schemes' checks against the network (`network_errors`) need the keys they
        // read valid; an error in a key no scheme reads does not hide them
        let net_ok = errs.0.iter().all(|e| not_read_by_schemes(&e.field));
        let nodes = if topo_ok { self.nodes() } else { 0 };
        if topo_ok {
            if let Err(es) = self.workload.validate(nodes) {
                errs.extend_prefixed("workload", es);
            }
        }
        if self.isolated == Some(true) && !self.workload.has_isolated() {
            let why = "the isolated baseline exists for gpcnet, hotspot and jobs workloads only";
            errs.push("isolated", true, why);
        }
        if let (Some(q), true) = (self.network.send_queue_msgs, self.workload.ends_by_itself()) {
            let kind = if self.gpcnet().is_some() {
                "gpcnet workload (its processes wait"
            } else {
                "motif and trace workloads (their ranks wait"
            };
            errs.push(
                "network.send_queue_msgs",
                q,
                format!("is not for the {kind} for every message they send: a refused one would stop them); remove it"),
            );
        }
        if !(1..=MAX_CYCLES).contains(&self.cycles.max) {
            errs.push(
                "cycles.max",
                self.cycles.max,
                format!("must be in 1..={MAX_CYCLES}"),
            );
        } else if let Some(w) = self.cycles.warmup {
            if w >= self.cycles.max {
                errs.push(
                    "cycles.warmup",
                    w,
                    format!("must be in 0..{} (below cycles.max)", self.cycles.max),
                );
            }
        }
        if (1..=MAX_CYCLES).contains(&self.cycles.max) {
            self.check_starts(&mut errs);
        }
        if !(1..=1u64 << 32).contains(&self.timeseries.period) {
            errs.push(
                "timeseries.period",
                self.timeseries.period,
                "must be in 1..=4294967296 cycles",
            );
        }
        if let Some(nics) = &self.timeseries.nics {
            if nics.len() > MAX_WATCH {
                errs.push(
                    "timeseries.nics",
                    format!("{} NICs", nics.len()),
                    format!("at most {MAX_WATCH} NICs"),
                );
            }
            for (i, n) in nics.iter().enumerate() {
                if let Some(j) = nics[..i].iter().position(|m| m == n) {
                    errs.push(
                        &format!("timeseries.nics[{i}]"),
                        n,
                        format!("is listed twice (also timeseries.nics[{j}]); list each NIC at most once"),
                    );
                }
            }
            if topo_ok {
                for (i, &n) in nics.iter().enumerate() {
                    if n.0 >= nodes {
                        errs.push(
                            &format!("timeseries.nics[{i}]"),
                            n,
                            format!("must be a NIC in 0..{nodes}"),
                        );
                    }
                }
            }
        }
        for (i, p) in self.pft.iter().enumerate() {
            p.validate(&format!("pft[{i}]"), &mut errs);
            if topo_ok {
                p.validate_on(&format!("pft[{i}]"), nodes, &self.workload, &mut errs);
            }
            if self.pft[..i].iter().any(|q| q.name == p.name) {
                errs.push(
                    &format!("pft[{i}].name"),
                    format!("{:?}", p.name),
                    "must be unique among the [[pft]] entries",
                );
            }
        }
        for (i, c) in self.cc.iter().enumerate() {
            let at = format!("cc[{i}]");
            check_run_name(&c.name, &at, &mut errs);
            let clash = self.pft.iter().any(|p| p.name == c.name)
                || self.cc[..i].iter().any(|q| q.name == c.name);
            if clash {
                errs.push(
                    &format!("{at}.name"),
                    format!("{:?}", c.name),
                    "must be unique among the [[pft]] and [[cc]] entries",
                );
            }
            if let Some(p) = &c.pft_values {
                let mut own = ConfigErrors::default();
                p.validate(&at, &mut own);
                // the name is checked above, for every kind
                errs.0.extend(
                    own.0
                        .into_iter()
                        .filter(|e| e.field != format!("{at}.name")),
                );
            }
            errs.0.extend(c.scheme.errors(&at));
            if net_ok {
                errs.0.extend(c.scheme.network_errors(&self.network, &at));
            }
        }
        if let Some(name) = &self.name {
            let ok = !name.is_empty()
                && name.len() <= 64
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
            if !ok {
                errs.push(
                    "name",
                    format!("{name:?}"),
                    "1-64 characters of A-Z a-z 0-9 _ - .",
                );
            }
        }
        if errs.0.is_empty() {
            Ok(())
        } else {
            Err(errs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid hot-spot scenario of 8 NICs (80 % C, 20 % V, no B) with one `[[pft]]` entry
    /// ending in `pft`.
    fn hotspot(pft: &str) -> Scenario {
        let sc = Scenario::parse(&format!(
            "[network]\ntopology = {{ kind = \"single_switch\", nodes = 8 }}\n[workload]\nkind = \"hotspot\"\nhotspots = 1\n[[pft]]\nname = \"p\"\n{pft}\n"
        ))
        .unwrap();
        sc.validate().unwrap();
        sc
    }

    #[test]
    fn a_class_without_nics_is_warned_about() {
        assert_eq!(
            hotspot("classes = [\"b\"]").class_warnings(),
            ["[[pft]] `p`: classes = [\"b\"] selects no NIC of this workload (it has 0 B NICs); the entry runs PFT on no NIC"]
        );
        assert_eq!(
            hotspot("classes = [\"c\", \"b\", \"b\"]").class_warnings(),
            ["[[pft]] `p`: classes[1] = \"b\" selects no NIC of this workload (it has 0 B NICs); the entry runs PFT on the NICs of its other classes only"]
        );
        assert!(hotspot("classes = [\"c\", \"v\"]")
            .class_warnings()
            .is_empty());
        assert!(hotspot("nics = [1]").class_warnings().is_empty());
        // the same count as the run's own placement
        let sc = hotspot("");
        assert_eq!(sc.class_counts().unwrap(), [("c", 6), ("v", 2), ("b", 0)]);
    }

    #[test]
    fn b_node_keys_without_b_nodes_are_warned_about() {
        let w = |extra: &str| {
            let sc = Scenario::parse(&format!(
                "[network]\ntopology = {{ kind = \"single_switch\", nodes = 8 }}\n[workload]\nkind = \"hotspot\"\nhotspots = 1\n{extra}\n"
            ))
            .unwrap();
            sc.warnings()
        };
        assert!(w("p_hot = 0.9")[0].contains("workload.p_hot is set but changes nothing"));
        assert!(w("stream_service = \"round_robin\"")[0].contains("workload.stream_service"));
        assert!(w("p_hot = 0.9\nfrac_b = 0.2\nfrac_v = 0.0").is_empty());
        assert!(w("").is_empty());
    }

    /// GPCNeT's classes are counted with one process per NIC: the placement must not depend
    /// on `ppn`.
    #[test]
    fn gpcnet_classes_do_not_depend_on_ppn() {
        let sc = |ppn: u32| {
            Scenario::parse(&format!(
                "[network]\ntopology = {{ kind = \"fat_tree\", radix = 8, leaves = 4 }}\n[workload]\nkind = \"gpcnet\"\nppn = {ppn}\ncongestor_frac = 0.75\n[[pft]]\nname = \"p\"\nclasses = [\"canary\"]\n"
            ))
            .unwrap()
        };
        let classes = |s: &Scenario| -> Vec<Option<&'static str>> {
            let w = s.workload.build_at(s.nodes(), 64, 100.0, s.seed).unwrap();
            NodeId::all(s.nodes()).map(|n| w.class_of(n)).collect()
        };
        assert_eq!(classes(&sc(1)), classes(&sc(4)));
        assert_eq!(
            sc(4).class_counts().unwrap(),
            [("congestor", 12), ("canary", 4)]
        );
        assert!(sc(4).class_warnings().is_empty());
    }
}
