//! Limits and checks shared by the workload configurations (errors: `crate::error`).

pub use crate::error::{ConfigErrors, FieldError};

/// Largest message accepted by the workloads, bytes (64 MiB).
pub const MAX_MSG_BYTES: u32 = 1 << 26;

/// Largest node count accepted by the workloads.
pub const MAX_NODES: u32 = 1 << 20;

/// Largest cycle a workload's timing keys may name (`stop_cycle`, `move_period_cycles`):
/// the longest run, 10^10 cycles (the scenario's `cycles.max` limit).
pub const MAX_CYCLE: u64 = 10_000_000_000;

/// Checks the arguments every workload constructor takes besides its configuration.
pub fn check_fabric(errs: &mut ConfigErrors, nodes: u32, flit_bytes: u32) {
    errs.check_u64("nodes", nodes as u64, 2, MAX_NODES as u64);
    errs.check_u64("flit_bytes", flit_bytes as u64, 1, 1 << 16);
}

/// What every workload constructor checks: the fabric arguments and the configuration's own
/// `validate(nodes)` result (whose `nodes` complaints the fabric check already made).
pub fn check_workload(
    nodes: u32,
    flit_bytes: u32,
    validated: Result<(), ConfigErrors>,
) -> Result<(), ConfigErrors> {
    let mut errs = ConfigErrors::default();
    check_fabric(&mut errs, nodes, flit_bytes);
    if let Err(e) = validated {
        errs.0
            .extend(e.0.into_iter().filter(|f| f.field != "nodes"));
    }
    errs.into_result()
}

/// Flits a message of `bytes` payload occupies: `ceil(bytes / flit_bytes)`, at least 1.
pub fn flits_for(bytes: u32, flit_bytes: u32) -> u64 {
    let fb = flit_bytes.max(1) as u64;
    ((bytes as u64).div_ceil(fb)).max(1)
}

/// Deserializes an internally tagged enum (tag key `tag`) through a TOML value with `de`
/// (the derived `Deserialize`, `#[serde(remote = "Self")]`), refusing any key beside the
/// tag of a variant without fields (`unit`): serde lets such a variant take any table, so
/// `pattern = { kind = "uniform", node = 3 }` would pass as uniform traffic; and refusing an
/// array, which serde would read as the variant (`pattern = ["shift", 1]`).
pub(crate) fn tagged_strict<'de, D, T>(
    d: D,
    tag: &str,
    unit: &[&str],
    de: impl FnOnce(toml::Value) -> Result<T, toml::de::Error>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let v = <toml::Value as serde::Deserialize>::deserialize(d)?;
    // (serde would read the variant from an array, its tag first)
    if v.is_array() {
        let want: &str = crate::net::config::tables::EXPECTED;
        return Err(D::Error::invalid_type(serde::de::Unexpected::Seq, &want));
    }
    if let Some(t) = v.as_table() {
        let kind = t.get(tag).and_then(|k| k.as_str());
        if kind.is_some_and(|k| unit.contains(&k)) {
            if let Some(k) = t.keys().find(|k| *k != tag) {
                // "unknown field `k`" as serde words it (`toml_error` reads it)
                return Err(D::Error::custom(format!(
                    "unknown field `{k}`: {tag} `{}` takes no other key",
                    kind.unwrap_or_default()
                )));
            }
        }
    }
    de(v).map_err(|e| D::Error::custom(e.message()))
}
