//! `TraceConfig`: the block's register settings for a trace, read from a flat TOML file whose
//! keys are the register map's RW field names (`pft_hdl::regs::FIELDS`), and the CSR-write
//! prelude that applies them.

use pft_hdl::model::{Inputs, Regs};
use pft_hdl::regs::{self, Field, Kind};
use pft_sim::error::excerpt;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::path::Path;
use thiserror::Error;

/// Register settings of a trace: every RW register field, set by its name. Every key is
/// optional; defaults are the reset values of `pft_hdl::regs`, except `enable`, which
/// defaults to true (CTRL resets to 0). It serializes (the summary's `config`) with the
/// file's keys and value types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    pub regs: Regs,
}

impl Default for TraceConfig {
    fn default() -> Self {
        let reset = Regs::reset();
        TraceConfig {
            regs: Regs {
                ctrl: reset.ctrl | regs::CTRL_ENABLE,
                ..reset
            },
        }
    }
}

/// A config file that cannot be used. Messages name the key and the allowed values.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {err}")]
    Read { path: String, err: std::io::Error },
    #[error("config {path}: malformed TOML: {message}")]
    Toml { path: String, message: String },
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

/// An integer beyond TOML's (above 2^63 - 1 or below -2^63) is a syntax error to the
/// parser; a key's value that large is refused as out of the key's range, the key named.
fn too_large(text: &str, e: &toml::de::Error, origin: &str) -> Option<ConfigError> {
    let m = e.message();
    if !m.contains("number too large") && !m.contains("number too small") {
        return None;
    }
    let at = e.span()?.start.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, value) = line.split_once('=')?;
    // the key bare or quoted (`m`, `"m"`, `'m'`: the same key to TOML)
    let key = key.trim();
    let key = [('"', '"'), ('\'', '\'')]
        .iter()
        .find_map(|&(a, b)| key.strip_prefix(a)?.strip_suffix(b))
        .unwrap_or(key);
    let f = regs::rw_fields().find(|f| f.name == key)?;
    Some(ConfigError::Invalid {
        path: origin.to_string(),
        key: f.name.to_string(),
        expected: expected(f),
        found: excerpt(value.split('#').next().unwrap_or("").trim()),
    })
}

/// Every key (the RW fields, in address order) and what it takes, as messages say it.
pub fn keys() -> Vec<(&'static str, String)> {
    regs::rw_fields().map(|f| (f.name, expected(f))).collect()
}

/// What a field's key takes, e.g. "an integer in 0..=31".
fn expected(f: &Field) -> String {
    match f.kind {
        Kind::Bool => "a boolean".into(),
        Kind::Enum(names) => names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(" or "),
        Kind::Int => format!("an integer in {}..={}", f.lo, f.hi),
    }
}

/// A value as messages quote it (a short excerpt, control characters escaped).
fn describe(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("string \"{}\"", excerpt(s)),
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
        let text = pft_sim::input::read_to_string(path).map_err(|err| ConfigError::Read {
            path: p.clone(),
            err,
        })?;
        Self::parse(&text, &p)
    }

    /// Parse and check config text; `origin` names it in messages.
    pub fn parse(text: &str, origin: &str) -> Result<Self, ConfigError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            too_large(text, &e, origin).unwrap_or_else(|| ConfigError::Toml {
                path: origin.to_string(),
                message: pft_sim::scenario::toml_error::syntax_message(text, &e),
            })
        })?;
        let mut cfg = TraceConfig::default();
        for (key, value) in &table {
            let Some(f) = regs::rw_fields().find(|f| f.name == key.as_str()) else {
                return Err(ConfigError::UnknownKey {
                    path: origin.to_string(),
                    key: excerpt(key),
                    allowed: regs::rw_fields()
                        .map(|f| f.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            let v = match (f.kind, value) {
                (Kind::Bool, toml::Value::Boolean(b)) => Some(*b as u32),
                (Kind::Enum(names), toml::Value::String(s)) => names
                    .iter()
                    .position(|n| *n == s.as_str())
                    .map(|i| i as u32),
                (Kind::Int, toml::Value::Integer(i)) => u64::try_from(*i)
                    .ok()
                    .and_then(|i| regs::check_field(key, i).ok()),
                _ => None,
            };
            let Some(v) = v else {
                return Err(ConfigError::Invalid {
                    path: origin.to_string(),
                    key: key.clone(),
                    expected: expected(f),
                    found: describe(value),
                });
            };
            cfg.regs.set_field(f, v);
        }
        Ok(cfg)
    }

    /// The mode as text, e.g. "at-ri" (or "off" when disabled).
    pub fn mode_name(&self) -> String {
        let ctrl = self.regs.ctrl;
        if ctrl & regs::CTRL_ENABLE == 0 {
            return "off".into();
        }
        format!(
            "{}-{}",
            if ctrl & regs::CTRL_DET_AT != 0 {
                "at"
            } else {
                "ft"
            },
            if ctrl & regs::CTRL_THR_RI != 0 {
                "ri"
            } else {
                "fi"
            }
        )
    }

    /// The prelude: one reset cycle, then one cycle per CSR write (`Regs::csr_writes`: every
    /// RW register once, CTRL last), with `flit_valid = 0` and `credit_return = 0`
    /// throughout. 12 cycles, not traced.
    pub fn prelude(&self) -> Vec<Inputs> {
        self.regs.prelude()
    }
}

impl Serialize for TraceConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for f in regs::rw_fields() {
            let v = self.regs.field(f);
            match f.kind {
                Kind::Bool => map.serialize_entry(f.name, &(v != 0))?,
                Kind::Enum(names) => map.serialize_entry(f.name, names[v as usize])?,
                Kind::Int => map.serialize_entry(f.name, &v)?,
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of the register table (the tests take ranges and values from it).
    fn field(name: &str) -> &'static Field {
        regs::field(name).unwrap()
    }

    #[test]
    fn defaults_and_keys() {
        let c = TraceConfig::parse("", "t").unwrap();
        assert_eq!(c, TraceConfig::default());
        assert_eq!(c.regs.ctrl, regs::RESET_CTRL | regs::CTRL_ENABLE);
        assert_eq!(
            c.regs,
            Regs {
                ctrl: c.regs.ctrl,
                ..Regs::reset()
            }
        );
        // the top of each range, for the widest fields
        let (m, seed) = (field("m"), field("seed"));
        let text = format!(
            "det_mode = \"at\"\nthr_mode = \"ri\"\nm = {}\nseed = {}",
            m.hi, seed.hi
        );
        let c = TraceConfig::parse(&text, "t").unwrap();
        assert_eq!(c.mode_name(), "at-ri");
        assert_eq!(c.regs.ctrl, regs::ctrl_word(true, true, true));
        assert_eq!(c.regs.field(m), m.hi);
        assert_eq!(c.regs.seed, seed.hi);
    }

    #[test]
    fn serializes_to_what_it_parses() {
        let text = "enable = false\ndet_mode = \"at\"\ncredit_limit = 64\nm = 26\nseed = 7";
        let c = TraceConfig::parse(text, "t").unwrap();
        let echoed = toml::to_string(&c).unwrap();
        assert!(
            echoed.contains("det_mode = \"at\"\nthr_mode = \"fi\""),
            "{echoed}"
        );
        assert_eq!(TraceConfig::parse(&echoed, "t").unwrap(), c);
        let echoed_keys = toml::from_str::<toml::Table>(&echoed).unwrap().len();
        assert_eq!(echoed_keys, keys().len());
    }

    /// An integer as docs/trace.md writes a default: `1024`, `0x9E3779B9` or `0x250 (592)`.
    fn doc_int(cell: &str) -> Option<u32> {
        let mut parts = cell.split_whitespace();
        let first = parts.next()?;
        let v = match first.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => first.parse().ok()?,
        };
        match (parts.next(), parts.next()) {
            (None, _) => Some(v),
            (Some(dec), None) => (dec == format!("({v})")).then_some(v),
            _ => None,
        }
    }

    /// docs/trace.md's key table is written by hand: it must list every key with the range
    /// the register table gives it, the default `TraceConfig` has (the table's reset value,
    /// `enable` aside) and its register (`REG` or `REG.field`).
    #[test]
    fn docs_list_every_key_range_and_default() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/trace.md");
        let doc = std::fs::read_to_string(path).unwrap();
        // key -> (allowed, default, register)
        let rows: std::collections::BTreeMap<String, (String, String, String)> = doc
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let key = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                (cells.len() == 6).then(|| {
                    let row = (cells[2].into(), cells[3].into(), cells[4].into());
                    (key.to_string(), row)
                })
            })
            .collect();
        let defaults = TraceConfig::default().regs;
        for f in regs::rw_fields() {
            let Some((allowed, default, register)) = rows.get(f.name) else {
                panic!("docs/trace.md does not list `{}`", f.name)
            };
            let v = defaults.field(f);
            let (want_allowed, default_ok) = match f.kind {
                Kind::Bool => (
                    "`true` / `false`".to_string(),
                    *default == format!("`{}`", v != 0),
                ),
                Kind::Enum(names) => (
                    names
                        .iter()
                        .map(|n| format!("`{n:?}`"))
                        .collect::<Vec<_>>()
                        .join(" / "),
                    *default == format!("`{:?}`", names[v as usize]),
                ),
                Kind::Int => (format!("{}..={}", f.lo, f.hi), doc_int(default) == Some(v)),
            };
            assert_eq!(
                *allowed, want_allowed,
                "docs/trace.md: `{}`'s range",
                f.name
            );
            assert!(
                default_ok,
                "docs/trace.md: `{}` defaults to {v}, not {default}",
                f.name
            );
            let reg = &regs::REGS[f.reg as usize];
            let want_register = if regs::FIELDS.iter().filter(|g| g.reg == f.reg).count() > 1 {
                format!("{}.{}", reg.name, f.name)
            } else {
                reg.name.to_string()
            };
            let rest = register.strip_prefix(&want_register);
            assert!(
                rest.is_some_and(|r| !r.starts_with(|c: char| c == '_' || c.is_alphanumeric())),
                "docs/trace.md: `{}` is in {want_register}, not {register}",
                f.name
            );
        }
        assert_eq!(rows.len(), keys().len(), "docs/trace.md lists other keys");
    }

    #[test]
    fn refusals_name_key_and_range() {
        // just above the top of m's range, just below the bottom of seed's and credit_limit's
        for (name, value) in [
            ("m", field("m").hi as u64 + 1),
            ("seed", field("seed").lo as u64 - 1),
            ("credit_limit", field("credit_limit").lo as u64 - 1),
        ] {
            let f = field(name);
            let e = TraceConfig::parse(&format!("{name} = {value}"), "t")
                .unwrap_err()
                .to_string();
            let range = format!("{}..={}", f.lo, f.hi);
            assert!(
                e.contains(&format!("`{name}`")) && e.contains(&range),
                "{e}"
            );
        }
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
