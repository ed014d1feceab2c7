//! Finding which entry a buffered error is about: the failing element of an array of
//! tables, a tag that is no string, the names a key of named values takes.

use super::text::{backticked_after, entry_in_table, header, inline_entry};
use super::{entry_of, key_at, value_at};
use crate::scenario::config::Scenario;

/// True when the table at `table` has a `kind` that is not a string (`kind = 5`).
pub(super) fn tag_not_text(text: &str, table: &str) -> bool {
    let Ok(mut doc) = toml::from_str::<toml::Table>(text) else {
        return false;
    };
    value_at(&mut doc, table)
        .and_then(|t| t.get("kind"))
        .is_some_and(|k| !k.is_str())
}

/// The header of the entry that fails to deserialize, when the error at `at` is on the
/// first header of an array of tables (`[[cc]]`, `[[network.faults]]`) and a later entry is
/// the one that fails: each entry is read alone, in order, as serde reads them.
pub(super) fn failing_entry(text: &str, at: usize) -> Option<usize> {
    let first = key_at(text, at)?;
    let name = first.strip_suffix("[0]")?;
    if name.contains('[') {
        return None;
    }
    let mut doc: toml::Table = toml::from_str(text).ok()?;
    let entries = value_at(&mut doc, name)?.as_array()?.clone();
    let fails = |e: &toml::Value| {
        let mut d = doc.clone();
        let Some(v) = value_at(&mut d, name) else {
            return false;
        };
        *v = toml::Value::Array(vec![e.clone()]);
        toml::to_string(&d).is_ok_and(|t| toml::from_str::<Scenario>(&t).is_err())
    };
    let i = entries.iter().position(fails).filter(|&i| i > 0)?;
    let want = format!("{name}[{i}]");
    let mut arrays = Vec::new();
    let mut offset = 0;
    for l in text.split('\n') {
        let t = l.trim_start();
        if header(t, &mut arrays).as_deref() == Some(want.as_str()) {
            return Some(offset + l.len() - t.len());
        }
        offset += l.len() + 1;
    }
    None
}

/// True for a non-empty array of tables (`[[workload.jobs]]`).
pub(super) fn is_table_array(v: &toml::Value) -> bool {
    v.as_array()
        .is_some_and(|a| !a.is_empty() && a.iter().all(toml::Value::is_table))
}

/// The names a key of named values takes ("one of `a`, `b`"): the scenario is tried with
/// the value replaced by a name no field has, and serde's refusal lists them.
pub(super) fn names_of(text: &str, key: &str) -> Option<String> {
    let mut t: toml::Table = toml::from_str(text).ok()?;
    const PROBE: &str = "\u{1}";
    *value_at(&mut t, key)? = toml::Value::String(PROBE.into());
    let e = toml::from_str::<Scenario>(&toml::to_string(&t).ok()?).err()?;
    let list = e
        .message()
        .strip_prefix(&format!("unknown variant `{PROBE}`, expected "))?
        .trim_end()
        .to_string();
    Some(list)
}

/// `t` as a scenario, with the other keys that do not deserialize taken out one at a time
/// (at most four), so that a key's range can be probed while another value of the file is
/// wrong too (`cycles.max = "x"` beside `det_mode = {}`). None when one that fails is `key`
/// or holds it, or cannot be taken out. A workload that does not deserialize, for a network
/// key, is replaced by a plain uniform one (it cannot be taken out: it is required).
pub(super) fn scenario_without_others(t: &mut toml::Table, key: &str) -> Option<Scenario> {
    for _ in 0..4 {
        let s = toml::to_string(t).ok()?;
        let e = match toml::from_str::<Scenario>(&s) {
            Ok(sc) => return Some(sc),
            Err(e) => e,
        };
        let other = key_at(&s, e.span()?.start)?;
        let holds = |a: &str, b: &str| {
            a == b || b.starts_with(&format!("{a}.")) || b.starts_with(&format!("{a}["))
        };
        if holds(&other, key) || holds(key, &other) {
            return None;
        }
        // the workload is required and its errors are reported at its table: for a network
        // key, a stand-in that parses (no network key's range reads the workload)
        if other.split(['.', '[']).next() == Some("workload") && key.starts_with("network.") {
            let stand_in: toml::Table = toml::from_str("kind = \"uniform\"\nload = 0.5").ok()?;
            if t.get("workload") == Some(&toml::Value::Table(stand_in.clone())) {
                return None;
            }
            t.insert("workload".into(), toml::Value::Table(stand_in));
            continue;
        }
        match other.rsplit_once('.') {
            Some((parent, leaf)) => value_at(t, parent)?.as_table_mut()?.remove(leaf)?,
            None => t.remove(&other)?,
        };
    }
    None
}

/// An unknown key of a tagged inline table under the header at `at`, which serde reports
/// at the header (`pattern = { kind = "transpose", load = 1 }` in `[workload]`: "unknown
/// field `load`: kind `transpose` takes no other key"), where a key of the same name in
/// the table itself would be blamed: its key (`workload.pattern.load`) and where it starts.
/// None unless exactly one entry of the table is such an inline table.
pub(super) fn tagged_unknown(text: &str, at: usize, what: &str) -> Option<(String, usize)> {
    let field = backticked_after(what, "unknown field ")?;
    let rest = &what[what.find("`:")? + 2..];
    let (tag, kind) = ["kind", "type"]
        .into_iter()
        .find_map(|t| backticked_after(rest, &format!(" {t} ")).map(|k| (t, k)))?;
    let table = key_at(text, at)?;
    let mut doc: toml::Table = toml::from_str(text).ok()?;
    let t = value_at(&mut doc, &table)?.as_table()?;
    let mut hits = t.iter().filter(|(_, v)| {
        v.as_table().is_some_and(|v| {
            v.get(tag).and_then(|k| k.as_str()) == Some(kind) && v.contains_key(field)
        })
    });
    let (entry, _) = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    let from = entry_of(text, at, entry)?;
    let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
    let open = from + text[from..line_end].find('{')?;
    let i = inline_entry(&text[open..line_end], field)?;
    Some((format!("{table}.{entry}.{field}"), open + i))
}

/// An unknown key `F` that serde reports at the header at `at` of a tagged table, whose
/// own `F` would be blamed (`[workload]`'s tag `kind` when a `[[workload.jobs]]` entry
/// writes a `kind`: serde buffers a tagged table and loses the position inside it): the
/// first entry of an array of tables under that table that writes `F` and is the struct
/// the message lists the fields of (its other keys are all among them), when the table
/// itself is not; or first, a table entry of that table that writes `F` and is the struct
/// (`workload.injection.kind`, `network.faults[0].link.kind`). Its key
/// (`workload.jobs[0].kind`) and where it starts.
pub(super) fn nested_unknown(text: &str, at: usize, what: &str) -> Option<(String, usize)> {
    let field = backticked_after(what, "unknown field ")?;
    // the fields of the struct serde was reading: "expected one of `a`, `b`", "`a` or `b`"
    let listed = &what[what.find(", expected ")?..];
    let expected: Vec<&str> = listed.split('`').skip(1).step_by(2).collect();
    let table = key_at(text, at)?;
    let mut doc: toml::Table = toml::from_str(text).ok()?;
    let t = value_at(&mut doc, &table)?.as_table()?.clone();
    let is_struct = |e: &toml::Table, skip: &[&str]| {
        e.keys()
            .filter(|k| k.as_str() != field && !skip.contains(&k.as_str()))
            .all(|k| expected.contains(&k.as_str()))
    };
    if is_struct(&t, &["kind", "type"]) {
        return None; // the table's own key
    }
    // a table inside it (`injection = { type = "on_off", kind = 3 }`, a fault's `link`):
    // its own tag aside, its keys are the struct's
    let inner = t.iter().find(|(_, v)| {
        v.as_table()
            .is_some_and(|e| e.contains_key(field) && is_struct(e, &["kind", "type"]))
    });
    if let Some((name, _)) = inner {
        let from = entry_of(text, at, name)?;
        let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
        // the key inside an inline table, or below a sub-table's header (`[a.b]`)
        let at_key = match text[from..line_end].find('{') {
            Some(open) => {
                inline_entry(&text[from + open..line_end], field).map(|i| from + open + i)
            }
            None if text[from..].starts_with('[') => {
                entry_in_table(text, from, &format!("unknown field `{field}`"))
            }
            None => None,
        };
        return Some((format!("{table}.{name}.{field}"), at_key.unwrap_or(from)));
    }
    let entry = t
        .iter()
        .filter(|(_, v)| is_table_array(v))
        .flat_map(|(name, v)| {
            v.as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(move |(i, e)| (name, i, e))
        })
        .find(|(_, _, e)| {
            e.as_table()
                .is_some_and(|e| e.contains_key(field) && is_struct(e, &[]))
        })
        .map(|(name, i, _)| format!("{name}[{i}]"))?;
    // the element's header, then its `F =` line
    let from = entry_of(text, at, &format!("{entry}.{field}"))?;
    Some((format!("{table}.{entry}.{field}"), from))
}
