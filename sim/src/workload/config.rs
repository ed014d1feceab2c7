//! Validation errors shared by the workload configurations: each names the field, the value
//! it got and the range it allows. Validation never panics.

use serde::Serialize;
use std::fmt;

/// One field out of range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// Field path inside the workload's configuration, e.g. `injection.mean_burst_cycles`.
    pub field: String,
    /// The value found, as text.
    pub got: String,
    /// The allowed range, as text, e.g. `0.0 <= load <= 1.0`.
    pub allowed: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}: allowed {}", self.field, self.got, self.allowed)
    }
}

/// All the errors of one configuration (never empty when returned as `Err`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConfigErrors(pub Vec<FieldError>);

impl ConfigErrors {
    /// Adds one error.
    pub fn push(&mut self, field: &str, got: impl fmt::Display, allowed: impl Into<String>) {
        self.0.push(FieldError {
            field: field.to_string(),
            got: got.to_string(),
            allowed: allowed.into(),
        });
    }

    /// `Ok(())` when no error was pushed.
    pub fn into_result(self) -> Result<(), ConfigErrors> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }

    /// True when some error names `field` exactly.
    pub fn names(&self, field: &str) -> bool {
        self.0.iter().any(|e| e.field == field)
    }

    /// Appends `other`'s errors, prefixing their fields with `prefix.`.
    pub fn extend_prefixed(&mut self, prefix: &str, other: ConfigErrors) {
        for mut e in other.0 {
            e.field = format!("{prefix}.{}", e.field);
            self.0.push(e);
        }
    }

    /// Checks `lo <= v <= hi` for a float (NaN fails).
    pub fn check_f64(&mut self, field: &str, v: f64, lo: f64, hi: f64) {
        if !(v >= lo && v <= hi) {
            self.push(field, v, format!("{lo} <= {field} <= {hi}"));
        }
    }

    /// Checks `lo <= v <= hi` for an integer.
    pub fn check_u64(&mut self, field: &str, v: u64, lo: u64, hi: u64) {
        if v < lo || v > hi {
            self.push(field, v, format!("{lo} <= {field} <= {hi}"));
        }
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

/// Largest message accepted by the workloads, bytes (64 MiB).
pub const MAX_MSG_BYTES: u32 = 1 << 26;

/// Largest node count accepted by the workloads.
pub const MAX_NODES: u32 = 1 << 20;

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
