//! A `[[pft]]` entry (PFT registers by key, `clock_ratio`, `pipelined`, `pft_on`) and the
//! rules for run names.

use super::RESERVED_NAMES;
use crate::cc::pft::config as pft_config;
use crate::cc::pft::PftConfig;
use crate::error::ConfigErrors;
use crate::net::NodeId;
use crate::workload::WorkloadConfig;
use pft_hdl::regs;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One `[[pft]]` entry: a name plus PFT register settings, keyed by the register map's field
/// names (`net::pft_config::keys()`: every RW field but `credit_limit` and `seed`). Missing
/// keys take `PftConfig::default()` (AT-RI, m = 18, n = 0, k = 0, 0x250 / 0x2a0, AT windows
/// 64 / 48). Values are read as written and checked against their fields' ranges in
/// `validate`, so that every range error of a file is reported at once, each naming its key
/// and its range. It serializes (the summary's `config`) with every key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PftEntry {
    /// Name in reports and the output subdirectory: 1-32 characters of `[A-Za-z0-9_-]`,
    /// unique, not `off` or `isolated`.
    pub name: String,
    /// PFT on these NICs only (`nics = [..]`); the others keep their block disabled.
    pub nics: Option<Vec<NodeId>>,
    /// PFT on the NICs of these workload classes only (`classes = ["congestor"]`; the
    /// names `WorkloadConfig::classes` lists).
    pub classes: Option<Vec<String>>,
    /// Block clock cycles per flit time (`clock_ratio = 3.58`; default 1: the block steps
    /// once per flit slot). docs/network.md, "Clock ratio".
    pub clock_ratio: Option<f64>,
    /// The pipelined build of the block at every NIC (`pipelined = true`; default false:
    /// the default build). docs/network.md, "Pipelined build".
    pub pipelined: Option<bool>,
    /// The keys the file sets, in file order, as read (range not yet checked).
    values: Vec<(&'static regs::Field, i64)>,
}

impl PftEntry {
    /// An entry holding `cfg`.
    pub fn from_config(name: &str, cfg: &PftConfig) -> Self {
        PftEntry {
            name: name.to_string(),
            nics: None,
            classes: None,
            clock_ratio: (cfg.clock_q16() != pft_config::CLOCK_ONE).then(|| cfg.clock_ratio()),
            pipelined: cfg.pipelined().then_some(true),
            values: pft_config::keys()
                .map(|f| (f, cfg.get(f.name) as i64))
                .collect(),
        }
    }

    /// The block configuration. Values out of range (caught by `validate`) are left at
    /// their defaults.
    pub fn config(&self) -> PftConfig {
        let cfg = self
            .values
            .iter()
            .fold(PftConfig::default(), |cfg, &(f, v)| {
                u64::try_from(v)
                    .ok()
                    .and_then(|v| cfg.try_with(f.name, v).ok())
                    .unwrap_or(cfg)
            });
        let cfg = match self.clock_ratio {
            Some(r) => cfg.try_with_clock_ratio(r).unwrap_or(cfg),
            None => cfg,
        };
        cfg.with_pipelined(self.pipelined.unwrap_or(false))
    }

    /// Which NICs run this configuration's PFT (one flag per NIC), given the built
    /// workload's classes; None: every NIC.
    pub fn pft_on(&self, w: &crate::workload::AnyWorkload, nodes: u32) -> Option<Vec<bool>> {
        if let Some(list) = &self.nics {
            let mut on = vec![false; nodes as usize];
            for n in list {
                on[n.index()] = true;
            }
            return Some(on);
        }
        let classes = self.classes.as_ref()?;
        Some(
            NodeId::all(nodes)
                .map(|n| {
                    w.class_of(n)
                        .is_some_and(|c| classes.iter().any(|k| k == c))
                })
                .collect(),
        )
    }

    /// Checks `nics` and `classes` against the network's NICs and the workload's classes.
    pub(super) fn validate_on(
        &self,
        at: &str,
        nodes: u32,
        wl: &WorkloadConfig,
        errs: &mut ConfigErrors,
    ) {
        if let (Some(_), Some(classes)) = (&self.nics, &self.classes) {
            errs.push(
                &format!("{at}.classes"),
                format!("{classes:?}"),
                "give `nics` or `classes`, not both",
            );
        }
        if let Some(list) = &self.nics {
            if list.is_empty() {
                errs.push(
                    &format!("{at}.nics"),
                    "[]",
                    "must list at least one NIC (leave it out for every NIC)",
                );
            }
            for (i, n) in list.iter().enumerate() {
                if n.0 >= nodes {
                    errs.push(
                        &format!("{at}.nics[{i}]"),
                        n,
                        format!("must be a NIC in 0..{nodes}"),
                    );
                } else if let Some(j) = list[..i].iter().position(|m| m == n) {
                    errs.push(
                        &format!("{at}.nics[{i}]"),
                        n,
                        format!("is listed twice (also {at}.nics[{j}])"),
                    );
                }
            }
        }
        if let Some(list) = &self.classes {
            let known = wl.classes();
            let allowed = if known.is_empty() {
                "this workload has no NIC classes (use `nics`)".to_string()
            } else {
                format!(
                    "must be one of {}",
                    known
                        .iter()
                        .map(|k| format!("{k:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            if list.is_empty() {
                errs.push(
                    &format!("{at}.classes"),
                    "[]",
                    format!("must name at least one class: {allowed}"),
                );
            }
            for (i, c) in list.iter().enumerate() {
                if !known.contains(&c.as_str()) {
                    errs.push(
                        &format!("{at}.classes[{i}]"),
                        format!("{c:?}"),
                        allowed.clone(),
                    );
                }
            }
        }
    }

    pub(super) fn validate(&self, at: &str, errs: &mut ConfigErrors) {
        check_run_name(&self.name, at, errs);
        if let Some(r) = self.clock_ratio {
            if !pft_config::CLOCK_RATIO_RANGE.contains(&r) {
                errs.push(
                    &format!("{at}.clock_ratio"),
                    r,
                    pft_config::CLOCK_RATIO_ALLOWED,
                );
            }
        }
        for &(f, v) in &self.values {
            if u64::try_from(v).map_or(true, |v| f.check(v).is_err()) {
                errs.push(&format!("{at}.{}", f.name), v, pft_config::range_error(f));
            }
        }
    }
}

impl Serialize for PftEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", &self.name)?;
        if let Some(n) = &self.nics {
            map.serialize_entry("nics", n)?;
        }
        if let Some(c) = &self.classes {
            map.serialize_entry("classes", c)?;
        }
        pft_config::serialize_keys(&self.config(), &mut map)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for PftEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, MapAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PftEntry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a [[pft]] table: name and PFT register fields")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PftEntry, A::Error> {
                let mut e = PftEntry::default();
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        "name" => {
                            e.name = map.next_value()?;
                            continue;
                        }
                        "nics" => {
                            e.nics = Some(map.next_value()?);
                            continue;
                        }
                        "classes" => {
                            e.classes = Some(map.next_value()?);
                            continue;
                        }
                        "clock_ratio" => {
                            e.clock_ratio = Some(map.next_value()?);
                            continue;
                        }
                        "pipelined" => {
                            e.pipelined = Some(map.next_value()?);
                            continue;
                        }
                        _ => {}
                    }
                    let f = pft_config::key(&k).ok_or_else(|| {
                        let mut extra = vec!["name", "nics", "classes"];
                        extra.extend(pft_config::NOT_REGISTERS);
                        pft_config::unknown_key::<A::Error>(&k, &extra)
                    })?;
                    if e.values.iter().any(|(g, _)| g.name == f.name) {
                        return Err(de::Error::custom(format!("duplicate key `{k}`")));
                    }
                    let v = pft_config::next_value(&mut map, f)?;
                    e.values.push((f, v));
                }
                Ok(e)
            }
        }
        d.deserialize_map(V)
    }
}

/// A `[[pft]]` or `[[cc]]` name names an output directory and a row.
pub(super) fn check_run_name(name: &str, at: &str, errs: &mut ConfigErrors) {
    let name_ok = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if name.is_empty() {
        // (serde's default: the key is missing, or given as "")
        errs.push(
            &format!("{at}.name"),
            "missing or empty".to_string(),
            "required: 1-32 characters of A-Z a-z 0-9 _ - (it names an output directory)",
        );
    } else if !name_ok {
        errs.push(
            &format!("{at}.name"),
            format!("{name:?}"),
            "1-32 characters of A-Z a-z 0-9 _ - (it names an output directory)",
        );
    } else if RESERVED_NAMES.contains(&name) {
        errs.push(
            &format!("{at}.name"),
            format!("{name:?}"),
            "must not be `off` or `isolated` (reserved for the runs `compare` adds)",
        );
    }
}
