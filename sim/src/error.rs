//! The one shape of a refused configuration value in this crate: `FieldError` (the full key,
//! the value it got, what is allowed) and `ConfigErrors` (every problem of one
//! configuration). The network, the congestion controls, the workloads and the scenario file
//! all report with them, so a message reads the same wherever the value came from.
//! Validation never panics.

use serde::Serialize;
use std::fmt;

/// Longest quotation of a user's value in a message, characters (longer values are cut
/// with `…` and their length in bytes).
pub const MAX_EXCERPT_CHARS: usize = 80;

/// One value out of range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("`{field}` = {got}: {allowed}")]
pub struct FieldError {
    /// Dotted key of the field, as complete as the reporter knows it, e.g.
    /// `network.faults[2].link.switch`, `workload.injection.mean_burst_cycles`.
    pub field: String,
    /// The value found, as text (a short excerpt, control characters escaped).
    pub got: String,
    /// What is allowed (a range and/or a rule).
    pub allowed: String,
}

impl FieldError {
    /// A refusal of `got` at `field`; `got` is quoted through `excerpt`, and in double
    /// quotes when empty or when it starts or ends with white space (a path `" "`: `=
    /// "/tmp/ ":`, not `= /tmp/ :`; an empty one `= "":`, not `= :`).
    pub fn new(field: &str, got: impl fmt::Display, allowed: impl Into<String>) -> FieldError {
        let got = got.to_string();
        FieldError {
            field: field.to_string(),
            got: if got.is_empty() || got.trim() != got {
                format!("\"{}\"", excerpt(&got))
            } else {
                excerpt(&short_number(got))
            },
            allowed: allowed.into(),
        }
    }

    /// The same error with `prefix.` before its key.
    pub fn prefixed(mut self, prefix: &str) -> FieldError {
        self.field = format!("{prefix}.{}", self.field);
        self
    }
}

/// All the errors of one configuration (never empty when returned as `Err`). Displayed one
/// per line, indented.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConfigErrors(pub Vec<FieldError>);

impl ConfigErrors {
    /// Adds one error.
    pub fn push(&mut self, field: &str, got: impl fmt::Display, allowed: impl Into<String>) {
        self.0.push(FieldError::new(field, got, allowed));
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
        self.0
            .extend(other.0.into_iter().map(|e| e.prefixed(prefix)));
    }

    /// Checks `lo <= v <= hi` for a float (NaN fails).
    pub fn check_f64(&mut self, field: &str, v: f64, lo: f64, hi: f64) {
        if !(v >= lo && v <= hi) {
            self.push(field, v, format!("allowed {lo} <= {field} <= {hi}"));
        }
    }

    /// Checks `lo <= v <= hi` for an integer.
    pub fn check_u64(&mut self, field: &str, v: u64, lo: u64, hi: u64) {
        if v < lo || v > hi {
            self.push(field, v, format!("allowed {lo} <= {field} <= {hi}"));
        }
    }
}

impl From<FieldError> for ConfigErrors {
    fn from(e: FieldError) -> Self {
        ConfigErrors(vec![e])
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

/// A float that `Display` wrote as a long decimal (`1e-300` as 300 digits) in exponent
/// form (`1e-300`); any other text as it is. (An integer key's value has at most 20 digits.)
fn short_number(s: String) -> String {
    let plain = s
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    match s.parse::<f64>() {
        Ok(v) if plain && s.len() > 24 => format!("{v:e}"),
        _ => s,
    }
}

/// `s` as a message may quote it: control characters (terminal escapes, NUL, newlines)
/// escaped as `\u{..}`/`\n`, and cut after `MAX_EXCERPT_CHARS` characters.
pub fn excerpt(s: &str) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == MAX_EXCERPT_CHARS {
            out.push_str(&format!("… ({} bytes in all)", s.len()));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_escapes_and_cuts() {
        assert_eq!(excerpt("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        let long = "x".repeat(1000);
        let e = excerpt(&long);
        assert!(e.ends_with("… (1000 bytes in all)"), "{e}");
        // a tiny or huge float in exponent form, short numbers as they are
        assert_eq!(FieldError::new("k", 1e-300, "x").got, "1e-300");
        assert_eq!(FieldError::new("k", 5e-324, "x").got, "5e-324");
        assert_eq!(FieldError::new("k", 1.5e300, "x").got, "1.5e300");
        assert_eq!(FieldError::new("k", 0.25, "x").got, "0.25");
        assert_eq!(
            FieldError::new("k", u64::MAX, "x").got,
            u64::MAX.to_string()
        );
        assert_eq!(e.chars().filter(|&c| c == 'x').count(), MAX_EXCERPT_CHARS);
        assert_eq!(excerpt("plain text"), "plain text");
        // a value empty or with white space at an end is shown in quotes
        assert_eq!(FieldError::new("k", "", "x").got, "\"\"");
        assert_eq!(FieldError::new("k", "/tmp/ ", "x").got, "\"/tmp/ \"");
        assert_eq!(FieldError::new("k", "\ta", "x").got, "\"\\ta\"");
        assert_eq!(FieldError::new("k", "a b", "x").got, "a b");
    }

    #[test]
    fn errors_are_listed_one_per_line() {
        let mut e = ConfigErrors::default();
        e.check_u64("ppn", 0, 1, 8);
        e.push("load", 2.0, "allowed 0 <= load <= 1");
        assert!(e.names("ppn") && !e.names("load2"));
        let mut all = ConfigErrors::default();
        all.extend_prefixed("workload", e);
        assert_eq!(
            all.to_string(),
            "  `workload.ppn` = 0: allowed 1 <= ppn <= 8\n  `workload.load` = 2: allowed 0 <= load <= 1"
        );
    }
}
