//! `PftConfig`: the register settings a network writes into every NIC's PFT block. It holds
//! them as the block's register file (`pft_hdl::model::Regs`) and reads, writes, parses and
//! echoes them by the register map's field names (`pft_hdl::regs::FIELDS`): the register
//! set is described once, in `hdl/src/regs.rs`, and a field added there is a `[[pft]]` key
//! here with its range, with no edit in this file.

use crate::error::FieldError;
use pft_hdl::model::Regs;
use pft_hdl::regs::{self, Field, FieldRangeError, Kind};
use pft_hdl::verilog::Build;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// PFT detection strategy (CTRL.det_mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DetMode {
    /// Fixed threshold.
    Ft,
    /// Average threshold over a window.
    #[default]
    At,
}

/// PFT throttling strategy (CTRL.thr_mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThrMode {
    /// Fixed interval.
    Fi,
    /// Random interval.
    #[default]
    Ri,
}

/// The keys of a PFT configuration: the RW fields of the register map, in address and bit
/// order, except `credit_limit` (the network sets it from the edge switch's buffer) and
/// `seed` (each NIC gets its own, derived from the run seed).
pub fn keys() -> impl Iterator<Item = &'static Field> {
    regs::rw_fields().filter(|f| f.name != "credit_limit" && f.name != "seed")
}

/// The field named `key` if it is a configuration key.
pub fn key(key: &str) -> Option<&'static Field> {
    keys().find(|f| f.name == key)
}

/// What a key takes, as messages say it: "a boolean", `"ft" or "at"`, "an integer in 0..=31".
pub fn expected(f: &Field) -> String {
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

/// The register settings written into every NIC's PFT block after its reset. Defaults: the
/// paper's highlighted configuration (AT-RI, m = 18, n = 0, k = 0, TH_ENTER = 0x250,
/// TH_ESCAPE = 0x2a0), enabled, with the block's reset AT windows (64 cycles, 48 hits): the
/// register map's reset values with CTRL = enabled, AT, RI. Every value is in its field's range (the
/// only ways in check it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PftConfig {
    /// `credit_limit` and `seed` in here are unused: `block_regs` sets them per NIC.
    regs: Regs,
    /// Block clock cycles per flit time, in 1/65536 (`CLOCK_ONE` = 1: the block steps once
    /// per flit slot). Not a register: how the NIC clocks the block (docs/network.md,
    /// "Clock ratio").
    clock_q16: u32,
    /// The pipelined build of the block (`PftModelPipelined`, `RtlStepperPipelined`,
    /// `pft_injector_pipelined`): its throttle compares with f(c) of three cycles earlier.
    /// Not a register: which block the NIC was built with (docs/network.md, "Pipelined
    /// build").
    pipelined: bool,
}

/// `clock_q16` of a block clocked at the flit rate.
pub const CLOCK_ONE: u32 = 1 << 16;

/// The keys of a configuration that are no register field, as unknown-key messages list
/// them (after a `[[pft]]` entry's own `name`, `nics`, `classes`).
pub const NOT_REGISTERS: [&str; 2] = ["clock_ratio", "pipelined"];

/// The clock ratios a configuration takes (block cycles per flit time).
pub const CLOCK_RATIO_RANGE: std::ops::RangeInclusive<f64> = 1.0..=64.0;

/// The message for a clock ratio out of range.
pub const CLOCK_RATIO_ALLOWED: &str =
    "must be a number in 1.0..=64.0 (block clock cycles per flit time; 1 = the flit rate)";

impl Default for PftConfig {
    fn default() -> Self {
        // CTRL resets to 0 (off, FT-FI); the rest of the paper's configuration is the
        // register map's reset values.
        PftConfig::reset().with_all(&[
            ("enable", 1),
            ("det_mode", DetMode::At as u64),
            ("thr_mode", ThrMode::Ri as u64),
        ])
    }
}

impl PftConfig {
    /// The register map's reset values (CTRL = 0: PFT off).
    pub fn reset() -> Self {
        PftConfig {
            regs: Regs::reset(),
            clock_q16: CLOCK_ONE,
            pipelined: false,
        }
    }

    /// PFT off: the block only checks credits.
    pub fn disabled() -> Self {
        PftConfig::default().with("enable", 0)
    }

    /// The value of key `key` (an enum as its index, a boolean as 0/1). Panics when `key` is
    /// not a configuration key: keys come from code or from `keys()`.
    pub fn get(&self, key: &str) -> u32 {
        self.regs.field(field(key))
    }

    /// `self` with `key` set to `value`, or the range error. Panics when `key` is not a
    /// configuration key.
    pub fn try_with(mut self, key: &str, value: u64) -> Result<Self, FieldRangeError> {
        let f = field(key);
        let v = f.check(value)?;
        self.regs.set_field(f, v);
        Ok(self)
    }

    /// `self` with `key` set to `value`. Panics when `key` is not a configuration key or
    /// `value` is out of its range: for values written in code.
    pub fn with(self, key: &str, value: u64) -> Self {
        self.try_with(key, value).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `self` with each `(key, value)` set in turn (`with`); an enum takes its index
    /// (`DetMode::Ft as u64`), a boolean 0 or 1.
    pub fn with_all(self, pairs: &[(&str, u64)]) -> Self {
        pairs.iter().fold(self, |cfg, &(k, v)| cfg.with(k, v))
    }

    /// `self` with the block clocked at `ratio` cycles per flit time (kept to 1/65536), or
    /// the allowed range when `ratio` is outside 1.0..=64.0 (or not a number).
    pub fn try_with_clock_ratio(mut self, ratio: f64) -> Result<Self, &'static str> {
        if !CLOCK_RATIO_RANGE.contains(&ratio) {
            return Err(CLOCK_RATIO_ALLOWED);
        }
        self.clock_q16 = (ratio * CLOCK_ONE as f64).round() as u32;
        Ok(self)
    }

    /// `self` with the block clocked at `ratio` cycles per flit time. Panics when `ratio` is
    /// out of range: for values written in code.
    pub fn with_clock_ratio(self, ratio: f64) -> Self {
        self.try_with_clock_ratio(ratio)
            .unwrap_or_else(|e| panic!("clock_ratio = {ratio}: {e}"))
    }

    /// Block clock cycles per flit time, in 1/65536.
    pub fn clock_q16(&self) -> u32 {
        self.clock_q16
    }

    /// Block clock cycles per flit time.
    pub fn clock_ratio(&self) -> f64 {
        self.clock_q16 as f64 / CLOCK_ONE as f64
    }

    /// `self` with the pipelined build of the block (`true`) or the default one (`false`).
    pub fn with_pipelined(mut self, pipelined: bool) -> Self {
        self.pipelined = pipelined;
        self
    }

    /// True for the pipelined build of the block.
    pub fn pipelined(&self) -> bool {
        self.pipelined
    }

    /// The build of the block the NICs run (which Verilog the Verilator engine loads).
    pub fn build(&self) -> Build {
        if self.pipelined {
            Build::Pipelined
        } else {
            Build::Default
        }
    }

    /// The registers as the block holds them (read `m`, `th_enter`, ... here).
    pub fn regs(&self) -> &Regs {
        &self.regs
    }

    /// CTRL.enable.
    pub fn enabled(&self) -> bool {
        self.regs.ctrl & regs::CTRL_ENABLE != 0
    }

    /// CTRL.det_mode.
    pub fn det_mode(&self) -> DetMode {
        if self.regs.ctrl & regs::CTRL_DET_AT != 0 {
            DetMode::At
        } else {
            DetMode::Ft
        }
    }

    /// CTRL.thr_mode.
    pub fn thr_mode(&self) -> ThrMode {
        if self.regs.ctrl & regs::CTRL_THR_RI != 0 {
            ThrMode::Ri
        } else {
            ThrMode::Fi
        }
    }

    /// The CTRL word.
    pub fn ctrl(&self) -> u32 {
        self.regs.ctrl
    }

    /// The register values for a link of `credit_limit` credits and a generator seed `seed`
    /// (non-zero).
    pub fn block_regs(&self, credit_limit: u16, seed: u32) -> Regs {
        Regs {
            credit_limit,
            seed,
            ..self.regs
        }
    }

    /// The smallest `c < credit_limit` from which the throttle passes no flit at all while
    /// Congested (P(send) = 0: RI level > 2^r_width - 1, FI level > 65535, the saturated
    /// gap), or None. Such a setting can stop a NIC halfway through a packet for good when
    /// the edge switch keeps that input locked to the packet (docs/scenarios.md). With
    /// packet gating it cannot (a started packet needs only credits): None.
    pub fn blocking_from(&self, credit_limit: u16) -> Option<u16> {
        let r = &self.regs;
        // Entering Congested needs c > TH_ENTER (FT and AT alike), and c <= CREDIT_LIMIT.
        let packet_gating = r.ctrl & regs::CTRL_GATING != 0;
        if !self.enabled() || r.th_enter >= credit_limit || packet_gating {
            return None;
        }
        let max_gate: u64 = match self.thr_mode() {
            ThrMode::Ri => regs::r_mask(r.r_width) as u64,
            ThrMode::Fi => 0xFFFF,
        };
        // At c = CREDIT_LIMIT no flit may leave anyway; the next credit lowers c.
        (0..credit_limit).find(|&c| pft_hdl::model::level(c, r.m, r.n, r.k) > max_gate)
    }

    /// The CSR writes after reset, in order (CTRL last).
    pub fn writes(&self, credit_limit: u16, seed: u32) -> [(u8, u32); regs::RW_REGS] {
        self.block_regs(credit_limit, seed).csr_writes()
    }
}

/// The configuration key `key`; panics otherwise (keys in code are fixed).
fn field(key: &str) -> &'static Field {
    self::key(key).unwrap_or_else(|| panic!("`{key}` is not a PFT configuration key"))
}

/// Reads the value of key `f` from a map being deserialized, as the file wrote it: a
/// boolean as 0/1, an enum name as its index, an integer as is (range not checked: that is
/// the caller's, so that a scenario can report every range error at once). A value of the
/// wrong type is an error naming the key and what it takes.
pub(crate) fn next_value<'de, A: MapAccess<'de>>(map: &mut A, f: &Field) -> Result<i64, A::Error> {
    // Checked inside the value's own deserializer, so that a parser's error points at it.
    map.next_value_seed(ValueOf(f))
}

/// Reads one value of field `.0`.
struct ValueOf<'a>(&'a Field);

impl<'de> de::DeserializeSeed<'de> for ValueOf<'_> {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        let f = self.0;
        let raw = Raw::deserialize(d)?;
        let v = match (f.kind, &raw) {
            (Kind::Bool, Raw::Bool(b)) => Some(*b as i64),
            (Kind::Enum(names), Raw::Str(s)) => names.iter().position(|n| n == s).map(|i| i as i64),
            (Kind::Int, Raw::Int(i)) => Some(*i),
            _ => None,
        };
        v.ok_or_else(|| match (f.kind, &raw) {
            // a word that is no mode: the allowed ones, as for every other kind in a file
            (Kind::Enum(_), Raw::Str(s)) => de::Error::custom(format!(
                "key `{}`: unknown value {s:?}; the allowed values are {}",
                f.name,
                expected(f)
            )),
            _ => de::Error::custom(format!(
                "key `{}`: expected {}, found {raw}",
                f.name,
                expected(f)
            )),
        })
    }
}

/// The error for a key that is not a configuration key.
pub(crate) fn unknown_key<E: de::Error>(k: &str, extra: &[&str]) -> E {
    let allowed: Vec<&str> = extra
        .iter()
        .copied()
        .chain(keys().map(|f| f.name))
        .collect();
    E::custom(format!(
        "unknown key `{}` (allowed keys: {})",
        k.escape_debug(),
        allowed.join(", ")
    ))
}

/// A field value as written, whatever its type (messages quote it).
enum Raw {
    Bool(bool),
    Int(i64),
    Str(String),
    Other(&'static str),
}

impl fmt::Display for Raw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Raw::Bool(b) => write!(f, "boolean {b}"),
            Raw::Int(i) => write!(f, "{i}"),
            Raw::Str(s) if s.len() <= 40 => write!(f, "string {s:?}"),
            Raw::Str(s) => write!(f, "a string of {} bytes", s.len()),
            Raw::Other(what) => f.write_str(what),
        }
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a boolean, an integer or a string")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Raw, E> {
                Ok(Raw::Bool(b))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Raw, E> {
                Ok(Raw::Int(i))
            }
            fn visit_u64<E>(self, i: u64) -> Result<Raw, E> {
                Ok(Raw::Int(i.min(i64::MAX as u64) as i64))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Raw, E> {
                Ok(Raw::Other("a float"))
            }
            fn visit_str<E>(self, s: &str) -> Result<Raw, E> {
                Ok(Raw::Str(s.to_string()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                while a.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Raw::Other("an array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                while a.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(Raw::Other("a table"))
            }
        }
        d.deserialize_any(V)
    }
}

/// The range message of a field, for a value as read (negative ones included).
pub(crate) fn range_error(f: &Field) -> String {
    FieldRangeError {
        field: *f,
        value: 0,
    }
    .allowed()
}

/// Serializes every key with the file's value types (`true`, `"at"`, `18`).
pub(crate) fn serialize_keys<M: SerializeMap>(
    cfg: &PftConfig,
    map: &mut M,
) -> Result<(), M::Error> {
    for f in keys() {
        let v = cfg.regs.field(f);
        match f.kind {
            Kind::Bool => map.serialize_entry(f.name, &(v != 0))?,
            Kind::Enum(names) => map.serialize_entry(f.name, names[v as usize])?,
            Kind::Int => map.serialize_entry(f.name, &v)?,
        }
    }
    // Only when set, so that the echo of a flit-rate block is what it always was.
    if cfg.clock_q16 != CLOCK_ONE {
        map.serialize_entry("clock_ratio", &cfg.clock_ratio())?;
    }
    // Likewise only when set: a default-build configuration echoes as before.
    if cfg.pipelined {
        map.serialize_entry("pipelined", &true)?;
    }
    Ok(())
}

impl PftConfig {
    /// The configuration a table of `[[pft]]` keys gives (a `pft_rewrite` fault's `pft`);
    /// the error names the key and its range.
    pub fn from_table(t: &toml::Table) -> Result<PftConfig, String> {
        PftConfig::deserialize(toml::Value::Table(t.clone())).map_err(|e| e.message().to_string())
    }

    /// The configuration as a table of `[[pft]]` keys (every key; `from_table` reads it
    /// back).
    pub fn to_table(&self) -> toml::Table {
        toml::Table::try_from(self).expect("a PftConfig serializes as a table")
    }

    /// Every error of a `pft_rewrite` fault's table (`field` is e.g.
    /// `network.faults[2].pft`), each naming `field.key` and its range: unknown keys,
    /// values out of range, and a change of the block's build or clock.
    pub fn rewrite_errors(t: &toml::Table, field: &str) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let mut valid = toml::Table::new();
        for (k, v) in t {
            let one: toml::Table = [(k.clone(), v.clone())].into_iter().collect();
            match PftConfig::from_table(&one) {
                Ok(_) => {
                    valid.insert(k.clone(), v.clone());
                }
                Err(e) => {
                    // The parser's text names the key again (`m` = 64: ...): keep what it says.
                    let what = match e.strip_prefix(&format!("`{k}` = ")) {
                        Some(rest) => rest.split_once(": ").map_or(rest, |(_, w)| w).to_string(),
                        // a rewrite takes the register keys only (not the build's two)
                        None if e.starts_with("unknown key") => format!(
                            "unknown key `{k}` (a rewrite takes the register keys: {})",
                            keys().map(|f| f.name).collect::<Vec<_>>().join(", ")
                        ),
                        None => e,
                    };
                    errs.push(FieldError::new(&format!("{field}.{k}"), v, what));
                }
            }
        }
        let cfg = PftConfig::from_table(&valid).unwrap_or_default();
        if cfg.pipelined() {
            errs.push(FieldError::new(
                &format!("{field}.pipelined"),
                true,
                "a register rewrite cannot change the block's build (set `pipelined` in the [[pft]] entry)",
            ));
        }
        if cfg.clock_q16() != PftConfig::default().clock_q16() {
            errs.push(FieldError::new(
                &format!("{field}.clock_ratio"),
                cfg.clock_ratio(),
                "a register rewrite cannot change the block's clock (set `clock_ratio` in the [[pft]] entry)",
            ));
        }
        errs
    }

    /// The first of `rewrite_errors`.
    pub fn check_rewrite(t: &toml::Table, field: &str) -> Result<(), FieldError> {
        match PftConfig::rewrite_errors(t, field).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Serialize for PftConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        serialize_keys(self, &mut map)?;
        map.end()
    }
}

/// A table of keys, each optional (defaults: `PftConfig::default()`); unknown keys, values
/// of the wrong type and values out of range are errors naming the key.
impl<'de> Deserialize<'de> for PftConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PftConfig;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table of PFT register fields")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PftConfig, A::Error> {
                let mut cfg = PftConfig::default();
                while let Some(k) = map.next_key::<String>()? {
                    if k == "clock_ratio" {
                        let r = map.next_value::<f64>()?;
                        cfg = cfg
                            .try_with_clock_ratio(r)
                            .map_err(|e| de::Error::custom(format!("`clock_ratio` = {r}: {e}")))?;
                        continue;
                    }
                    if k == "pipelined" {
                        cfg = cfg.with_pipelined(map.next_value::<bool>()?);
                        continue;
                    }
                    let f = key(&k).ok_or_else(|| unknown_key(&k, &NOT_REGISTERS))?;
                    let v = next_value(&mut map, f)?;
                    cfg = u64::try_from(v)
                        .ok()
                        .and_then(|v| cfg.try_with(f.name, v).ok())
                        .ok_or_else(|| {
                            de::Error::custom(format!("`{}` = {v}: {}", f.name, range_error(f)))
                        })?;
                }
                Ok(cfg)
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_configuration() {
        let p = PftConfig::default();
        assert!(p.enabled());
        assert_eq!((p.det_mode(), p.thr_mode()), (DetMode::At, ThrMode::Ri));
        let r = p.regs();
        assert_eq!(
            (r.m, r.n, r.k, r.th_enter, r.th_escape),
            (18, 0, 0, 0x250, 0x2a0)
        );
        assert!(!PftConfig::disabled().enabled());
    }

    #[test]
    fn keys_are_the_register_maps_rw_fields_but_two() {
        let names: Vec<&str> = keys().map(|f| f.name).collect();
        assert_eq!(names.len(), regs::rw_fields().count() - 2);
        assert!(!names.contains(&"seed") && !names.contains(&"credit_limit"));
        assert!(names.contains(&"at_win_s") && names.contains(&"thr_mode"));
    }

    #[test]
    fn toml_round_trip_and_errors() {
        let p: PftConfig = toml::from_str("det_mode = \"ft\"\nm = 3\nenable = false").unwrap();
        assert!(!p.enabled() && p.regs().m == 3 && p.det_mode() == DetMode::Ft);
        let back: PftConfig = toml::from_str(&toml::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        // the default build is not echoed; the pipelined one is, and reads back
        assert!(!toml::to_string(&p).unwrap().contains("pipelined"));
        let q = p.with_pipelined(true).with_clock_ratio(2.5);
        assert!(toml::to_string(&q).unwrap().contains("pipelined = true"));
        let back: PftConfig = toml::from_str(&toml::to_string(&q).unwrap()).unwrap();
        assert_eq!(back, q);
        assert_eq!((back.pipelined(), back.build()), (true, Build::Pipelined));
        assert_eq!(PftConfig::default().build(), Build::Default);
        for (text, want) in [
            ("m = 32", "`m` = 32: must be in 0..=31"),
            ("m = -1", "`m` = -1: must be in 0..=31"),
            ("th_enter = 70000", "0..=65535"),
            (
                "m = \"3\"",
                "key `m`: expected an integer in 0..=31, found string \"3\"",
            ),
            (
                "det_mode = \"xt\"",
                "unknown value \"xt\"; the allowed values are \"ft\" or \"at\"",
            ),
            ("enable = 1", "expected a boolean, found 1"),
            ("seed = 1", "unknown key `seed`"),
            (
                "pipelined = \"yes\"",
                "invalid type: string \"yes\", expected a boolean",
            ),
            ("gap = 3", "(allowed keys: clock_ratio, pipelined, enable,"),
        ] {
            let e = toml::from_str::<PftConfig>(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    #[should_panic(expected = "0..=31")]
    fn with_refuses_out_of_range() {
        let _ = PftConfig::default().with("m", 32);
    }
}
