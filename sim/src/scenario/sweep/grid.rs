//! The grid file (docs/sweeps.md, "The grid file") and the checks that need only the grid
//! and the kind of the swept entry. Every problem is reported at once, each naming its
//! field with element indices (`axis[1].values[2]`) and the allowed range.

use super::super::overrides::key_ok;
use super::super::sanitize;
use serde::{Deserialize, Serialize};

/// The axis name that picks the entry of each point.
pub const ENTRY_AXIS: &str = "entry";
/// Seeds per sweep, at most.
pub const MAX_SEEDS: usize = 1000;
/// Characters of a label, at most.
pub const MAX_LABEL: usize = 64;

/// A grid file (TOML).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// The `[[pft]]` or `[[cc]]` entry the points vary (default: the first `[[pft]]`, else
    /// the first `[[cc]]`).
    pub entry: Option<String>,
    /// Seeds (default: the scenario's `seed`): 1 to 1000 distinct integers in
    /// 0..=9223372036854775807. Kept as TOML values so that a bad one is named by index.
    pub seeds: Option<Vec<toml::Value>>,
    /// The two axes of the F_C heat maps (default: the first two axes).
    pub heatmap: Option<Vec<String>>,
    /// The axes, in order (the first varies slowest).
    #[serde(default)]
    pub axis: Vec<Axis>,
}

/// One axis: a dotted key and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// `entry`: the values name `[[pft]]` (or `[[cc]]`) entries, one per point; `pft.KEY` /
    /// `cc.KEY`: a key of the swept entry; anything else: a scenario key by its dotted path
    /// (`network.buffer_flits`, `workload.host_send_ns`, `cycles.max`).
    pub key: Option<String>,
    /// Several keys set together (`keys = ["workload.host_send_ns",
    /// "workload.host_recv_ns"]`): each value is a list of one value per key.
    pub keys: Option<Vec<String>>,
    pub values: Vec<toml::Value>,
    /// Names of the values in the CSV and the plots (default: the values as TOML).
    pub labels: Option<Vec<String>>,
}

impl Axis {
    /// The axis's name: its key, or its keys joined with `+` (a CSV column).
    pub fn name(&self) -> String {
        self.key_list().join("+")
    }

    /// The keys this axis sets.
    pub fn key_list(&self) -> Vec<String> {
        match (&self.key, &self.keys) {
            (Some(k), _) => vec![k.clone()],
            (None, Some(ks)) => ks.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The values of value `j` for each key.
    pub fn values_at(&self, j: usize) -> Vec<toml::Value> {
        match (&self.keys, &self.values[j]) {
            (Some(_), toml::Value::Array(a)) => a.clone(),
            (_, v) => vec![v.clone()],
        }
    }

    /// True for the `entry` axis.
    pub fn is_entry(&self) -> bool {
        self.key.as_deref() == Some(ENTRY_AXIS)
    }
}

/// The grid's own message for a TOML error at byte `at` of `text` inside the top-level
/// `seeds` list, over an integer TOML cannot hold (above i64::MAX, the parser's "number
/// too large to fit in target type"): the seed's index and the allowed range, as
/// `seeds` gives for a negative one.
pub fn seed_syntax_error(text: &str, at: usize) -> Option<String> {
    let before = text.get(..at)?;
    let k = before.rfind("seeds")?;
    // the key alone at the start of its line, then `=`, `[`, and no `]` before the error
    let line = before[..k].rfind('\n').map_or(0, |n| n + 1);
    if !before[line..k].trim().is_empty() {
        return None;
    }
    let mid = before[k + "seeds".len()..].trim_start().strip_prefix('=')?;
    let list = mid.trim_start().strip_prefix('[')?;
    if list.contains(']') || list.contains('#') {
        return None;
    }
    let lit: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '_' | '+' | '-'))
        .collect();
    if lit.is_empty() || !lit.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!(
        "grid: `seeds[{}]` = {}: must be an integer in 0..={} (a scenario's `seed`)",
        list.matches(',').count(),
        sanitize(&lit),
        i64::MAX
    ))
}

/// The seeds of `grid` (default `default`), or every problem with them.
pub fn seeds(grid: &Grid, default: u64) -> Result<Vec<u64>, Vec<String>> {
    let Some(vals) = &grid.seeds else {
        return Ok(vec![default]);
    };
    let mut errs = Vec::new();
    if vals.is_empty() || vals.len() > MAX_SEEDS {
        errs.push(format!(
            "grid: `seeds` = {} seeds: must list 1 to {MAX_SEEDS} seeds",
            vals.len()
        ));
    }
    // each valid seed with its index in the list (an invalid one before it keeps its place)
    let mut out: Vec<(usize, u64)> = Vec::new();
    for (i, v) in vals.iter().enumerate() {
        match v.as_integer() {
            Some(s) if s >= 0 => {
                let s = s as u64;
                if let Some(&(j, _)) = out.iter().find(|&&(_, x)| x == s) {
                    errs.push(format!(
                        "grid: `seeds[{i}]` = {s}: is listed twice (also seeds[{j}]); list each seed once"
                    ));
                }
                out.push((i, s));
            }
            _ => errs.push(format!(
                "grid: `seeds[{i}]` = {}: must be an integer in 0..={} (a scenario's `seed`)",
                sanitize(&v.to_string()),
                i64::MAX
            )),
        }
    }
    if errs.is_empty() {
        Ok(out.into_iter().map(|(_, s)| s).collect())
    } else {
        Err(errs)
    }
}

/// True when setting `a` and `b` touches the same value (equal, or one a table above the
/// other).
fn overlap(a: &str, b: &str) -> bool {
    a == b || a.starts_with(&format!("{b}.")) || b.starts_with(&format!("{a}."))
}

/// The first string inside `v` (at any depth) holding a control character.
fn control_string(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) if s.chars().any(char::is_control) => Some(s.clone()),
        toml::Value::Array(a) => a.iter().find_map(control_string),
        toml::Value::Table(t) => t.values().find_map(control_string),
        _ => None,
    }
}

/// Equal as values a key takes: `2` and `2.0` too (a float key reads both as 2), element
/// by element in lists.
fn same_value(a: &toml::Value, b: &toml::Value) -> bool {
    use toml::Value::{Array, Float, Integer};
    match (a, b) {
        (Integer(i), Float(f)) | (Float(f), Integer(i)) => *i as f64 == *f,
        (Array(x), Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        _ => a == b,
    }
}

/// Every problem of `grid`'s axes and heat map, for a swept entry of kind `kind` (`pft` or
/// `cc`; empty when the entries themselves are wrong: the checks that need the kind are
/// skipped).
pub fn check_axes(grid: &Grid, kind: &str) -> Vec<String> {
    let mut errs = Vec::new();
    // (key, axis) of every key set so far
    let mut set: Vec<(String, usize)> = Vec::new();
    for (i, a) in grid.axis.iter().enumerate() {
        let at = format!("grid: `axis[{i}]`");
        let keys = a.key_list();
        if a.key.is_some() == a.keys.is_some() || keys.is_empty() {
            let what = if a.key.is_some() && a.keys.is_some() {
                "not both"
            } else if a.keys.is_some() {
                "`keys` is empty"
            } else {
                "it has neither"
            };
            errs.push(format!(
                "{at}: give `key` (one key) or `keys` (a list of keys): {what}"
            ));
            continue;
        }
        for (n, k) in keys.iter().enumerate() {
            let kat = if a.keys.is_some() {
                format!("{at}.keys[{n}]")
            } else {
                format!("{at}.key")
            };
            if !key_ok(k) {
                errs.push(format!(
                    "{kat} = \"{}\": must be a dotted key such as \"pft.m\" or \"workload.host_send_ns\"",
                    sanitize(k)
                ));
                continue;
            }
            let top = k.split('.').next().unwrap_or("");
            if k == "pft" || k == "cc" {
                let use_key = if kind.is_empty() {
                    "`pft.KEY` or `cc.KEY`".to_string()
                } else {
                    format!("`{kind}.KEY` (the swept entry is a [[{kind}]] entry)")
                };
                errs.push(format!(
                    "{kat} = {k:?}: names the whole list of [[{k}]] entries; use {use_key} for a key of the swept entry, or key = \"entry\" to sweep over entries"
                ));
                continue;
            }
            if (top == "pft" || top == "cc") && !kind.is_empty() && top != kind {
                errs.push(format!(
                    "{kat} = {k:?}: the swept entry is a [[{kind}]] entry: use `{kind}.KEY`"
                ));
                continue;
            }
            if *k == format!("{kind}.name")
                || k == "seed"
                || k == "isolated"
                || (k == ENTRY_AXIS && a.keys.is_some())
            {
                errs.push(format!(
                    "{kat} = {k:?}: not a sweep axis (the entry's name is fixed, seeds go in `seeds`, and the sweep runs the isolated baseline itself)"
                ));
                continue;
            }
            if let Some((other, j)) = set.iter().find(|(o, _)| overlap(o, k)) {
                let whom = if *j == i {
                    "this axis".to_string()
                } else {
                    format!("`axis[{j}]`")
                };
                errs.push(format!(
                    "{kat} = {k:?}: {whom} already sets {other:?}; each scenario key may be set by one axis only"
                ));
            }
            set.push((k.clone(), i));
        }
        if a.values.is_empty() {
            errs.push(format!("{at}.values: must list at least one value"));
        }
        for (j, v) in a.values.iter().enumerate() {
            if let Some(s) = control_string(v) {
                errs.push(format!(
                    "{at}.values[{j}]: the string \"{}\" holds a control character: not allowed (values name CSV cells and plot labels)",
                    sanitize(&s)
                ));
            }
            if let Some(k) = a.values[..j].iter().position(|w| same_value(w, v)) {
                errs.push(format!(
                    "{at}.values[{j}] = {}: is listed twice (also values[{k}]); list each value once",
                    sanitize(&v.to_string())
                ));
            }
            if a.keys.is_some() && v.as_array().map(|x| x.len()) != Some(keys.len()) {
                errs.push(format!(
                    "{at}.values[{j}] = {}: must be a list of {} values, one per key",
                    sanitize(&v.to_string()),
                    keys.len()
                ));
            }
        }
        if let Some(l) = &a.labels {
            if l.len() != a.values.len() {
                errs.push(format!(
                    "{at}.labels = {} labels: must give one label per value ({} values)",
                    l.len(),
                    a.values.len()
                ));
            }
            for (j, x) in l.iter().enumerate() {
                let bad = x.is_empty()
                    || x.chars().count() > MAX_LABEL
                    || x.chars().any(|c| c.is_control() || c == '"' || c == ',')
                    || super::super::sanitize(x) != *x;
                if bad {
                    errs.push(format!(
                        "{at}.labels[{j}] = \"{}\": must be 1 to {MAX_LABEL} printable characters without quotes or commas",
                        sanitize(x)
                    ));
                } else if let Some(k) = l[..j].iter().position(|y| y == x) {
                    errs.push(format!(
                        "{at}.labels[{j}] = {x:?}: is listed twice (also labels[{k}]); labels must be distinct"
                    ));
                }
            }
        }
    }
    let names: Vec<String> = grid.axis.iter().map(Axis::name).collect();
    if let Some(h) = &grid.heatmap {
        if h.len() != 2 || h[0] == h[1] {
            errs.push("grid: `heatmap`: must name two different axes".to_string());
        } else {
            for (i, k) in h.iter().enumerate() {
                if !names.contains(k) {
                    errs.push(format!(
                        "grid: `heatmap[{i}]` = \"{}\": is not an axis ({})",
                        sanitize(k),
                        names.join(", ")
                    ));
                }
            }
        }
    }
    errs
}

/// The heat map's axes (indices into the axes), once `check_axes` passed.
pub fn heatmap(grid: &Grid) -> Option<(usize, usize)> {
    let names: Vec<String> = grid.axis.iter().map(Axis::name).collect();
    match &grid.heatmap {
        Some(h) => {
            let idx = |k: &String| names.iter().position(|a| a == k);
            Some((idx(&h[0])?, idx(&h[1])?))
        }
        None if names.len() >= 2 => Some((0, 1)),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str) -> Grid {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn every_problem_named_with_its_index() {
        let g = grid(
            r#"
seeds = [1, -1, 1]
[[axis]]
key = "pft.m"
values = [18, 22, 18]
[[axis]]
keys = ["pft.n", "pft.m"]
values = [[0, 1]]
[[axis]]
key = "pft"
values = [1]
[[axis]]
key = "network"
values = [{ buffer_flits = 64 }]
[[axis]]
key = "network.buffer_flits"
values = [64]
labels = ["a\u001b[2J"]
"#,
        );
        let s = seeds(&g, 7).unwrap_err().join("\n");
        assert!(
            s.contains("`seeds[1]` = -1: must be an integer in 0..="),
            "{s}"
        );
        assert!(
            s.contains("`seeds[2]` = 1: is listed twice (also seeds[0])"),
            "{s}"
        );
        // an invalid seed before the first copy keeps its place in the list
        let late: Grid =
            toml::from_str("seeds = [-1, 1, 1]\n[[axis]]\nkey = \"pft.m\"\nvalues = [18]\n")
                .unwrap();
        let s = seeds(&late, 7).unwrap_err().join("\n");
        assert!(
            s.contains("`seeds[2]` = 1: is listed twice (also seeds[1])"),
            "{s}"
        );
        let e = check_axes(&g, "pft").join("\n");
        for want in [
            "`axis[0]`.values[2] = 18: is listed twice (also values[0])",
            "`axis[1]`.keys[1] = \"pft.m\": `axis[0]` already sets \"pft.m\"",
            "`axis[2]`.key = \"pft\": names the whole list of [[pft]] entries; use `pft.KEY`",
            "`axis[4]`.key = \"network.buffer_flits\": `axis[3]` already sets \"network\"",
            "`axis[4]`.labels[0] = \"a\\u{1b}[2J\": must be 1 to 64 printable characters",
        ] {
            assert!(e.contains(want), "missing {want:?} in:\n{e}");
        }
        assert!(!e.contains('\u{1b}'), "a raw escape reached the message");
        // `cc` while a [[pft]] entry is swept: the message says which entry `KEY` belongs to
        let cc: Grid = toml::from_str("[[axis]]\nkey = \"cc\"\nvalues = [1]\n").unwrap();
        let e = check_axes(&cc, "pft").join("\n");
        assert!(
            e.contains("[[cc]] entries; use `pft.KEY` (the swept entry is a [[pft]] entry)"),
            "{e}"
        );
        let e = check_axes(&cc, "").join("\n");
        assert!(e.contains("use `pft.KEY` or `cc.KEY`"), "{e}");
        // 2 and 2.0 are one value of a float key; an axis with no key says so
        let g = grid("[[axis]]\nkey = \"pft.clock_ratio\"\nvalues = [2, 2.0]\n[[axis]]\nvalues = [1]\n[[axis]]\nkeys = []\nvalues = [[]]\n");
        let e = check_axes(&g, "pft").join("\n");
        for want in [
            "`axis[0]`.values[1] = 2.0: is listed twice (also values[0])",
            "`axis[1]`: give `key` (one key) or `keys` (a list of keys): it has neither",
            "`axis[2]`: give `key` (one key) or `keys` (a list of keys): `keys` is empty",
        ] {
            assert!(e.contains(want), "missing {want:?} in:\n{e}");
        }
        assert!(!same_value(
            &toml::Value::Integer(2),
            &toml::Value::Float(2.5)
        ));
    }

    #[test]
    fn a_good_grid_passes() {
        let g = grid(
            "seeds = [1, 2]\n[[axis]]\nkey = \"pft.m\"\nvalues = [18, 22]\n[[axis]]\nkeys = [\"workload.host_send_ns\", \"workload.host_recv_ns\"]\nvalues = [[0, 0], [450, 450]]\n",
        );
        assert_eq!(seeds(&g, 7).unwrap(), vec![1, 2]);
        assert!(check_axes(&g, "pft").is_empty());
        assert_eq!(heatmap(&g), Some((0, 1)));
    }
}
