//! The scenario file: one TOML document with the network, the workload, a list of named PFT
//! configurations, the cycle budget, the seed, the engine and the time-series sampling.
//! Every section deserializes with serde (missing keys take defaults, unknown keys are
//! refused); `Scenario::validate` then checks ranges and cross-references and returns every
//! problem, each naming its key and what is allowed. Nothing here panics on bad input.
//! docs/scenarios.md documents every key.

use crate::net::{DetMode, EngineKind, NetConfig, PftConfig, ThrMode};
use crate::workload::gpcnet::GpcnetConfig;
use crate::workload::WorkloadConfig;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// Largest cycle budget accepted (10^10 cycles: about 14 hours at 200 k cycles/s).
pub const MAX_CYCLES: u64 = 10_000_000_000;
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
    /// Also run the isolated baseline (congestors off) and report GPCNeT's Congestion Impact
    /// Factor. Only GPCNeT workloads have an isolated baseline. Default true.
    #[serde(default = "default_true")]
    pub isolated: bool,
    #[serde(default)]
    pub cycles: CyclesConfig,
    #[serde(default)]
    pub timeseries: TimeSeriesConfig,
    #[serde(default)]
    pub network: NetConfig,
    pub workload: WorkloadConfig,
    /// Named PFT configurations (`[[pft]]` tables). `run` uses the first (or `--pft NAME`);
    /// `compare` runs PFT off and each of them. May be empty (PFT off only).
    #[serde(default)]
    pub pft: Vec<PftEntry>,
}

fn default_seed() -> u64 {
    1
}

fn default_true() -> bool {
    true
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
    pub nics: Option<Vec<u32>>,
}

impl Default for TimeSeriesConfig {
    fn default() -> Self {
        TimeSeriesConfig {
            period: 1000,
            nics: None,
        }
    }
}

/// One `[[pft]]` entry: a name plus the `PftConfig` registers. Fields take the paper's
/// highlighted configuration when missing (AT-RI, m = 18, n = 0, k = 0, 0x250 / 0x2a0,
/// AT windows 64 / 48). Integer fields are read wide and range-checked here, so an error
/// names the key and its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PftEntry {
    /// Name in reports and the output subdirectory: 1-32 characters of `[A-Za-z0-9_-]`,
    /// unique, not `off` or `isolated`.
    pub name: String,
    pub enable: bool,
    pub det_mode: DetMode,
    pub thr_mode: ThrMode,
    pub th_enter: u64,
    pub th_escape: u64,
    pub at_win_e: u64,
    pub at_cnt_e: u64,
    pub at_win_s: u64,
    pub at_cnt_s: u64,
    pub m: u64,
    pub n: u64,
    pub k: u64,
}

impl Default for PftEntry {
    fn default() -> Self {
        PftEntry::from_config("", &PftConfig::default())
    }
}

impl PftEntry {
    /// An entry holding `cfg`.
    pub fn from_config(name: &str, cfg: &PftConfig) -> Self {
        PftEntry {
            name: name.to_string(),
            enable: cfg.enable,
            det_mode: cfg.det_mode,
            thr_mode: cfg.thr_mode,
            th_enter: cfg.th_enter as u64,
            th_escape: cfg.th_escape as u64,
            at_win_e: cfg.at_win_e as u64,
            at_cnt_e: cfg.at_cnt_e as u64,
            at_win_s: cfg.at_win_s as u64,
            at_cnt_s: cfg.at_cnt_s as u64,
            m: cfg.m as u64,
            n: cfg.n as u64,
            k: cfg.k as u64,
        }
    }

    /// The block configuration (call after `validate`: values are truncated otherwise).
    pub fn config(&self) -> PftConfig {
        PftConfig {
            enable: self.enable,
            det_mode: self.det_mode,
            thr_mode: self.thr_mode,
            th_enter: self.th_enter as u16,
            th_escape: self.th_escape as u16,
            at_win_e: self.at_win_e as u16,
            at_cnt_e: self.at_cnt_e as u16,
            at_win_s: self.at_win_s as u16,
            at_cnt_s: self.at_cnt_s as u16,
            m: self.m as u8,
            n: self.n as u8,
            k: self.k as u16,
        }
    }

    fn validate(&self, at: &str, errs: &mut Problems) {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 32
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !name_ok {
            errs.push(
                &format!("{at}.name"),
                format!("{:?}", self.name),
                "1-32 characters of A-Z a-z 0-9 _ - (it names an output directory)",
            );
        } else if RESERVED_NAMES.contains(&self.name.as_str()) {
            errs.push(
                &format!("{at}.name"),
                format!("{:?}", self.name),
                "must not be `off` or `isolated` (reserved for the runs `compare` adds)",
            );
        }
        for (key, v, hi) in [
            ("th_enter", self.th_enter, 0xFFFF),
            ("th_escape", self.th_escape, 0xFFFF),
            ("at_win_e", self.at_win_e, 0xFFFF),
            ("at_cnt_e", self.at_cnt_e, 0xFFFF),
            ("at_win_s", self.at_win_s, 0xFFFF),
            ("at_cnt_s", self.at_cnt_s, 0xFFFF),
            ("m", self.m, 31),
            ("n", self.n, 31),
            ("k", self.k, 0xFFFF),
        ] {
            if v > hi {
                errs.push(
                    &format!("{at}.{key}"),
                    v,
                    format!("must be in 0..={hi} (its register field width)"),
                );
            }
        }
    }
}

/// Every problem found in a scenario (never empty when returned as an error).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<String>);

impl Problems {
    fn push(&mut self, key: &str, got: impl fmt::Display, allowed: impl fmt::Display) {
        self.0.push(format!("`{key}` = {got}: {allowed}"));
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "  {p}")?;
        }
        Ok(())
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
    Invalid { path: String, problems: Problems },
}

impl Scenario {
    /// Reads, parses and validates a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Io {
            path: shown.clone(),
            source,
        })?;
        let mut s = Scenario::parse(&text).map_err(|message| ScenarioError::Parse {
            path: shown.clone(),
            message,
        })?;
        if s.name.is_none() {
            s.name = path.file_stem().map(|f| f.to_string_lossy().into_owned());
        }
        s.validate().map_err(|problems| ScenarioError::Invalid {
            path: shown,
            problems,
        })?;
        Ok(s)
    }

    /// Parses TOML text (no validation).
    pub fn parse(text: &str) -> Result<Scenario, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
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
            self.gpcnet()
                .map_or(0, |g| g.canary_start_cycles.min(self.cycles.max - 1))
        })
    }

    /// The PFT entry called `name`.
    pub fn pft_named(&self, name: &str) -> Option<&PftEntry> {
        self.pft.iter().find(|p| p.name == name)
    }

    /// Checks every section; returns all problems found.
    pub fn validate(&self) -> Result<(), Problems> {
        let mut errs = Problems::default();
        if let Err(e) = self.network.validate() {
            errs.push(&format!("network.{}", e.field), e.value, e.allowed);
        }
        let net_ok = errs.0.is_empty();
        let nodes = if net_ok { self.nodes() } else { 0 };
        if net_ok {
            if let Err(es) = self.workload.validate(nodes) {
                for e in es.0 {
                    errs.push(
                        &format!("workload.{}", e.field),
                        e.got,
                        format!("allowed {}", e.allowed),
                    );
                }
            }
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
            if net_ok {
                for (i, &n) in nics.iter().enumerate() {
                    if n >= nodes {
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
            if self.pft[..i].iter().any(|q| q.name == p.name) {
                errs.push(
                    &format!("pft[{i}].name"),
                    format!("{:?}", p.name),
                    "must be unique among the [[pft]] entries",
                );
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
