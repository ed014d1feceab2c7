//! `TraceConfig`: the block's register settings for a trace, read from a flat TOML file, and
//! the CSR-write prelude that applies them.

use pft_hdl::model::{Inputs, Regs};
use pft_hdl::regs;
use std::path::Path;
use thiserror::Error;

/// Register settings of a trace. Every key is optional; defaults are the reset values of
/// `pft_hdl::regs`, except `enable`, which defaults to true (CTRL resets to 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    pub enable: bool,
    /// det_mode: false FT, true AT.
    pub det_at: bool,
    /// thr_mode: false FI, true RI.
    pub thr_ri: bool,
    pub credit_limit: u16,
    pub th_enter: u16,
    pub th_escape: u16,
    pub at_win_e: u16,
    pub at_cnt_e: u16,
    pub at_win_s: u16,
    pub at_cnt_s: u16,
    pub m: u8,
    pub n: u8,
    pub k: u16,
    pub seed: u32,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            enable: true,
            det_at: regs::RESET_CTRL & regs::CTRL_DET_AT != 0,
            thr_ri: regs::RESET_CTRL & regs::CTRL_THR_RI != 0,
            credit_limit: regs::RESET_CREDIT_LIMIT,
            th_enter: regs::RESET_TH_ENTER,
            th_escape: regs::RESET_TH_ESCAPE,
            at_win_e: regs::RESET_AT_WIN_E,
            at_cnt_e: regs::RESET_AT_CNT_E,
            at_win_s: regs::RESET_AT_WIN_S,
            at_cnt_s: regs::RESET_AT_CNT_S,
            m: regs::RESET_M,
            n: regs::RESET_N,
            k: regs::RESET_K,
            seed: regs::RESET_SEED,
        }
    }
}

/// A config file that cannot be used. Messages name the key and the allowed values.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {err}")]
    Read { path: String, err: std::io::Error },
    #[error("config {path}: malformed TOML: {err}")]
    Toml {
        path: String,
        err: Box<toml::de::Error>,
    },
    #[error("config {path}: unknown key `{key}` (allowed keys: {allowed})")]
    UnknownKey {
        path: String,
        key: String,
        allowed: String,
    },
    #[error("config {path}: key `{key}`: expected {expected}, found {found}")]
    Invalid {
        path: String,
        key: String,
        expected: String,
        found: String,
    },
}

/// Key, what it takes (for messages and docs), and its default (for docs).
pub const KEYS: [(&str, &str); 14] = [
    ("enable", "a boolean"),
    ("det_mode", "\"ft\" or \"at\""),
    ("thr_mode", "\"fi\" or \"ri\""),
    ("credit_limit", "an integer in 1..=65535"),
    ("th_enter", "an integer in 0..=65535"),
    ("th_escape", "an integer in 0..=65535"),
    ("at_win_e", "an integer in 0..=65535"),
    ("at_cnt_e", "an integer in 0..=65535"),
    ("at_win_s", "an integer in 0..=65535"),
    ("at_cnt_s", "an integer in 0..=65535"),
    ("m", "an integer in 0..=31"),
    ("n", "an integer in 0..=31"),
    ("k", "an integer in 0..=65535"),
    ("seed", "an integer in 1..=4294967295"),
];

fn describe(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("string {s:?}"),
        toml::Value::Integer(i) => format!("{i}"),
        toml::Value::Float(f) => format!("float {f}"),
        toml::Value::Boolean(b) => format!("boolean {b}"),
        toml::Value::Datetime(d) => format!("datetime {d}"),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

impl TraceConfig {
    /// Read and check a config file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|err| ConfigError::Read {
            path: p.clone(),
            err,
        })?;
        Self::parse(&text, &p)
    }

    /// Parse and check config text; `origin` names it in messages.
    pub fn parse(text: &str, origin: &str) -> Result<Self, ConfigError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| ConfigError::Toml {
            path: origin.to_string(),
            err: Box::new(e),
        })?;
        let mut cfg = TraceConfig::default();
        for (key, value) in &table {
            let Some(&(_, expected)) = KEYS.iter().find(|(k, _)| k == key) else {
                return Err(ConfigError::UnknownKey {
                    path: origin.to_string(),
                    key: key.clone(),
                    allowed: KEYS.map(|(k, _)| k).join(", "),
                });
            };
            let bad = || ConfigError::Invalid {
                path: origin.to_string(),
                key: key.clone(),
                expected: expected.to_string(),
                found: describe(value),
            };
            let int = |lo: i64, hi: i64| match value {
                toml::Value::Integer(i) if (lo..=hi).contains(i) => Ok(*i),
                _ => Err(bad()),
            };
            match key.as_str() {
                "enable" => cfg.enable = value.as_bool().ok_or_else(bad)?,
                "det_mode" => {
                    cfg.det_at = match value.as_str() {
                        Some("ft") => false,
                        Some("at") => true,
                        _ => return Err(bad()),
                    }
                }
                "thr_mode" => {
                    cfg.thr_ri = match value.as_str() {
                        Some("fi") => false,
                        Some("ri") => true,
                        _ => return Err(bad()),
                    }
                }
                "credit_limit" => cfg.credit_limit = int(1, 0xFFFF)? as u16,
                "th_enter" => cfg.th_enter = int(0, 0xFFFF)? as u16,
                "th_escape" => cfg.th_escape = int(0, 0xFFFF)? as u16,
                "at_win_e" => cfg.at_win_e = int(0, 0xFFFF)? as u16,
                "at_cnt_e" => cfg.at_cnt_e = int(0, 0xFFFF)? as u16,
                "at_win_s" => cfg.at_win_s = int(0, 0xFFFF)? as u16,
                "at_cnt_s" => cfg.at_cnt_s = int(0, 0xFFFF)? as u16,
                "m" => cfg.m = int(0, 31)? as u8,
                "n" => cfg.n = int(0, 31)? as u8,
                "k" => cfg.k = int(0, 0xFFFF)? as u16,
                "seed" => cfg.seed = int(1, 0xFFFF_FFFF)? as u32,
                _ => unreachable!("key {key} is in KEYS"),
            }
        }
        Ok(cfg)
    }

    /// The CTRL word.
    pub fn ctrl(&self) -> u32 {
        regs::ctrl_word(self.enable, self.det_at, self.thr_ri)
    }

    /// The mode as text, e.g. "at-ri" (or "off" when disabled).
    pub fn mode_name(&self) -> String {
        if !self.enable {
            return "off".into();
        }
        format!(
            "{}-{}",
            if self.det_at { "at" } else { "ft" },
            if self.thr_ri { "ri" } else { "fi" }
        )
    }

    /// The register values this config loads.
    pub fn regs(&self) -> Regs {
        Regs {
            ctrl: self.ctrl(),
            credit_limit: self.credit_limit,
            th_enter: self.th_enter,
            th_escape: self.th_escape,
            at_win_e: self.at_win_e,
            at_cnt_e: self.at_cnt_e,
            at_win_s: self.at_win_s,
            at_cnt_s: self.at_cnt_s,
            m: self.m,
            n: self.n,
            k: self.k,
            seed: self.seed,
        }
    }

    /// The CSR writes of the prelude, in order: every register once, CTRL last.
    pub fn writes(&self) -> [(u8, u32); 11] {
        self.regs().csr_writes()
    }

    /// The prelude: one reset cycle, then one cycle per CSR write (`writes()`), with
    /// `flit_valid = 0` and `credit_return = 0` throughout. 12 cycles, not traced.
    pub fn prelude(&self) -> Vec<Inputs> {
        self.regs().prelude()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_keys() {
        let c = TraceConfig::parse("", "t").unwrap();
        assert_eq!(c, TraceConfig::default());
        let c = TraceConfig::parse(
            "det_mode = \"at\"\nthr_mode = \"ri\"\nm = 31\nseed = 4294967295",
            "t",
        )
        .unwrap();
        assert_eq!(c.mode_name(), "at-ri");
        assert_eq!(c.m, 31);
        assert_eq!(c.seed, u32::MAX);
    }

    #[test]
    fn refusals_name_key_and_range() {
        let e = TraceConfig::parse("m = 32", "t").unwrap_err().to_string();
        assert!(e.contains("`m`") && e.contains("0..=31"), "{e}");
        let e = TraceConfig::parse("seed = 0", "t").unwrap_err().to_string();
        assert!(e.contains("`seed`") && e.contains("1..=4294967295"), "{e}");
        let e = TraceConfig::parse("credit_limit = 0", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("1..=65535"), "{e}");
        let e = TraceConfig::parse("th_enter = \"5\"", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("string"), "{e}");
        let e = TraceConfig::parse("bogus = 1", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown key `bogus`"), "{e}");
        let e = TraceConfig::parse("m = \n", "t").unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
    }
}
