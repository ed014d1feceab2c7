//! One `[[cc]]` entry of a scenario: a name and a registered scheme with its keys; `kind =
//! "pft"` is read like a `[[pft]]` entry, so its registers are range-checked at their keys.

use super::PftEntry;
use crate::cc::CcConfig;
use serde::{Deserialize, Serialize};

/// One `[[cc]]` entry: a name and a congestion-control scheme with its parameters.
#[derive(Clone, Debug, Serialize)]
pub struct CcEntry {
    /// As for `[[pft]]` names: 1-32 characters of `[A-Za-z0-9_-]`, unique.
    pub name: String,
    /// The scheme (`kind`: any registered scheme, `crate::cc::KINDS`) with its keys. `kind
    /// = "pft"` takes the keys of a `[[pft]]` entry.
    #[serde(flatten)]
    pub scheme: CcConfig,
    /// A `kind = "pft"` entry's register values as the file wrote them (read like a
    /// `[[pft]]` entry's, so that `validate` reports every one out of range at its own key).
    #[serde(skip)]
    pub(super) pft_values: Option<PftEntry>,
}

impl PartialEq for CcEntry {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.scheme == other.scheme
    }
}

impl CcEntry {
    /// An entry `name` running `scheme`.
    pub fn new(name: &str, scheme: CcConfig) -> Self {
        CcEntry {
            name: name.to_string(),
            scheme,
            pft_values: None,
        }
    }
}

impl<'de> Deserialize<'de> for CcEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        struct Plain {
            name: String,
            #[serde(flatten)]
            scheme: CcConfig,
        }
        let mut t = toml::Table::deserialize(d)?;
        if t.get("kind").and_then(|k| k.as_str()) != Some("pft") {
            let p = Plain::deserialize(toml::Value::Table(t))
                .map_err(|e| D::Error::custom(e.message()))?;
            return Ok(CcEntry::new(&p.name, p.scheme));
        }
        // `kind = "pft"`: the keys of a [[pft]] entry, ranges checked by `validate`
        t.remove("kind");
        if !t.contains_key("name") {
            return Err(D::Error::missing_field("name"));
        }
        use crate::cc::pft::config::{key, unknown_key, NOT_REGISTERS};
        // `nics` and `classes` (where PFT acts) are a [[pft]] entry's alone
        if let Some(k) = t
            .keys()
            .find(|k| *k != "name" && !NOT_REGISTERS.contains(&k.as_str()) && key(k).is_none())
        {
            return Err(unknown_key(k, &["name", "clock_ratio", "pipelined"]));
        }
        let e = PftEntry::deserialize(toml::Value::Table(t))
            .map_err(|e| D::Error::custom(e.message()))?;
        Ok(CcEntry {
            name: e.name.clone(),
            scheme: CcConfig::Pft(e.config()),
            pft_values: Some(e),
        })
    }
}

impl CcEntry {
    /// The network's congestion control for this entry (after `validate`).
    pub fn config(&self) -> CcConfig {
        self.scheme.clone()
    }
}
