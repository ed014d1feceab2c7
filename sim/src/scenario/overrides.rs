//! `--set KEY=VALUE`: a scenario value changed from the command line (`run`, `compare`,
//! `check`), so that a reading can be rerun at another seed or packet size without copying
//! the file. Keys are the file's dotted keys outside the `[[pft]]` and `[[cc]]` entries
//! (`seed`, `network.mtu_bytes`, `workload.bw_msg_bytes`, `cycles.max`, ...); the result is
//! validated like the file itself, and the run's summary.json records the values used.

use crate::error::excerpt;

/// Parses `KEY=VALUE`. VALUE is a TOML value (`64`, `0.5`, `true`, `[1, 2]`,
/// `"text"`); a bare word that is not one is taken as a string (`kind=hotspot`), and so is
/// a date (`name=2026-12-03`: no key takes a TOML date-time). A value that starts as an
/// array, an inline table or a quoted string must parse as one.
pub fn parse_set(s: &str) -> Result<(String, toml::Value), String> {
    let (key, value) = s.split_once('=').ok_or_else(|| {
        format!(
            "`{}`: expected KEY=VALUE (e.g. network.mtu_bytes=64)",
            excerpt(s)
        )
    })?;
    let key = key.trim();
    // (as a message names it: cut, control characters escaped)
    let shown = excerpt(key);
    if !key_ok(key) {
        return Err(format!(
            "`{shown}`: a key is dotted names of letters, digits, `_` and `-` (e.g. network.mtu_bytes)"
        ));
    }
    if let Some(top) = ["pft", "cc"]
        .into_iter()
        .find(|t| key == *t || key.starts_with(&format!("{t}.")))
    {
        return Err(format!(
            "`{shown}`: the [[{top}]] entries are not set from the command line: edit the entry, \
             add a named one, or sweep it (docs/sweeps.md)"
        ));
    }
    let value = value.trim();
    // one value: a line break would end it there, and TOML would read what follows as
    // more keys, which were then dropped
    if let Some(c) = value.chars().find(|c| {
        matches!(
            c,
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    }) {
        return Err(format!(
            "`{shown}`: the value holds a line break ({}): give one TOML value on one line (a string as \"a\\nb\")",
            c.escape_default()
        ));
    }
    let v = match toml::from_str::<toml::Table>(&format!("v = {value}")) {
        // no key takes a date-time: `name=2026-12-03` is the word
        Ok(t) if matches!(t.get("v"), Some(toml::Value::Datetime(_))) && t.len() == 1 => {
            toml::Value::String(value.to_string())
        }
        // a float too large for f64 (`-1e400`) the TOML reader takes as infinite: no word
        // for `inf`, so refused with the others below
        Ok(t)
            if t.len() == 1
                && t["v"].as_float().is_some_and(f64::is_infinite)
                && !value.contains("inf") =>
        {
            return Err(not_a_number(key, value));
        }
        Ok(mut t) if t.len() == 1 => t.remove("v").expect("the key just parsed"),
        // an array, an inline table or a quoted string that does not parse is no word
        Err(e) if value.starts_with(['[', '{', '"', '\'']) => {
            let why: Vec<&str> = e.message().lines().map(str::trim).collect();
            return Err(format!(
                "`{key}` = {value}: not a TOML value: {}",
                why.join("; ")
            ));
        }
        // a number TOML cannot hold is no word: say so rather than quote it
        _ if value
            .strip_prefix(['+', '-'])
            .unwrap_or(value)
            .chars()
            .all(|c| c.is_ascii_digit() || c == '_')
            && value.chars().any(|c| c.is_ascii_digit()) =>
        {
            return Err(format!(
                "`{key}` = {value}: out of the range of a TOML integer, {}..={}",
                i64::MIN,
                i64::MAX
            ));
        }
        // nor is a float TOML does not write (`1e400`, `.5`, `1.`)
        _ if value.parse::<f64>().is_ok() && value.chars().any(|c| c.is_ascii_digit()) => {
            return Err(not_a_number(key, value));
        }
        _ => toml::Value::String(value.to_string()),
    };
    Ok((key.to_string(), v))
}

/// `key` = `value`, a number TOML does not write or f64 cannot hold.
fn not_a_number(key: &str, value: &str) -> String {
    format!(
        "`{key}` = {value}: not a TOML number (a float has digits on both sides of its point, and is at most about 1.8e308 in size)"
    )
}

/// A dotted key of letters, digits, `_` and `-`.
pub(crate) fn key_ok(k: &str) -> bool {
    !k.is_empty()
        && k.split('.').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
}

/// Sets `key` (dotted) in `t`, creating tables on the way.
pub(crate) fn set_path(t: &mut toml::Table, key: &str, v: toml::Value) -> Result<(), String> {
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts.pop().expect("split gives one part");
    let mut cur = t;
    for (i, p) in parts.iter().enumerate() {
        let e = cur
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        cur = e
            .as_table_mut()
            .ok_or_else(|| format!("`{}` is not a table in the scenario", parts[..=i].join(".")))?;
    }
    cur.insert(last.to_string(), v);
    Ok(())
}

/// The scenario text with `sets` applied, in order (a later one wins), edited in place: a
/// key the file has keeps its line, new keys and tables are added among the file's lines
/// (`toml_edit` places them), so the file's lines before the first change are the text's.
pub fn apply(text: &str, sets: &[(String, toml::Value)]) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|_| {
        // the file's own message, with its line (the same parser)
        match toml::from_str::<toml::Table>(text) {
            Err(e) => super::toml_error::message(text, &e),
            Ok(_) => "not a TOML document".to_string(),
        }
    })?;
    for (k, v) in sets {
        set_edit(doc.as_table_mut(), k, v).map_err(|m| format!("--set {k}: {m}"))?;
    }
    Ok(doc.to_string())
}

/// Sets `key` (dotted) in the document's table `t` to `v`, creating tables on the way.
fn set_edit(t: &mut toml_edit::Table, key: &str, v: &toml::Value) -> Result<(), String> {
    use toml_edit::{Item, TableLike};
    let mut value: toml_edit::Value = v
        .to_string()
        .parse()
        .map_err(|e| format!("the value does not write as TOML: {e}"))?;
    let parts: Vec<&str> = key.split('.').collect();
    let (last, path) = parts.split_last().expect("split gives one part");
    let mut cur: &mut dyn TableLike = t;
    // inside an inline table a new table is inline too: a header table there is not written
    // out, so what it held would be lost
    let mut inline = false;
    for (i, p) in path.iter().enumerate() {
        let not_table = || format!("`{}` is not a table in the scenario", parts[..=i].join("."));
        let new = if inline {
            Item::Value(toml_edit::Value::InlineTable(Default::default()))
        } else {
            Item::Table(toml_edit::Table::new())
        };
        cur = match cur.entry(p).or_insert(new) {
            Item::Table(t) => t,
            Item::Value(toml_edit::Value::InlineTable(t)) => {
                inline = true;
                t
            }
            _ => return Err(not_table()),
        };
    }
    match cur.get_mut(last) {
        // the key's line kept: its spacing and comment too
        Some(Item::Value(old)) => {
            *value.decor_mut() = old.decor().clone();
            *old = value;
        }
        _ => {
            cur.insert(last, Item::Value(value));
        }
    }
    Ok(())
}

/// The parse error `message` of scenario text `file` with `sets` applied, made true of what
/// the user wrote. An error at a key a `--set` gave (or an unknown key at the table a
/// `--set` made for it) names that `--set`; one that the file has alone is the file's own,
/// with its lines; any other is said to be about the changed text (whose lines are the
/// file's up to the first change: `apply` edits in place).
pub fn explain(file: &str, sets: &[(String, toml::Value)], message: String) -> String {
    if sets.is_empty() {
        return message;
    }
    if let Some((key, reason)) = key_and_reason(&message) {
        // an unknown key, named by its path (`network.a` for `--set network.a.b=1`) or, in
        // an inline table, by its table's (`cycles`: unknown field `zzz`)
        let unknown = reason
            .strip_prefix("unknown field `")
            .and_then(|r| r.split_once('`'))
            .map(|(f, _)| {
                if key == f || key.ends_with(&format!(".{f}")) {
                    key.to_string()
                } else {
                    format!("{key}.{f}")
                }
            });
        let under = |k: &str| {
            // (the message cuts a long key: `excerpt`)
            key == k
                || key == excerpt(k)
                || key.starts_with(&format!("{k}."))
                || key.starts_with(&format!("{k}["))
                || unknown
                    .as_ref()
                    .is_some_and(|u| k == u || k.starts_with(&format!("{u}.")))
        };
        if let Some((k, v)) = sets.iter().rev().find(|(k, _)| under(k)) {
            return format!(
                "`{key}` (set by --set {}={}): {reason}",
                excerpt(k),
                excerpt(&v.to_string())
            );
        }
        // the same error (key and reason) in the file alone: the file's, with its lines
        if let Err(e) = toml::from_str::<super::Scenario>(file) {
            let own = super::toml_error::message(file, &e);
            if key_and_reason(&own) == Some((key, reason)) {
                return own;
            }
        }
    }
    format!("with the --set values applied: {message}")
}

/// A parse error's key and reason, from its first line: `` `KEY` (line L, column C): WHY ``
/// or `` `KEY`: WHY `` (None for a message that names no key first).
fn key_and_reason(message: &str) -> Option<(&str, &str)> {
    let (key, rest) = message.strip_prefix('`')?.split_once('`')?;
    let rest = rest.lines().next().unwrap_or("");
    let reason = match rest.strip_prefix(" (line ") {
        Some(r) => r.split_once("): ").map_or(r, |(_, why)| why),
        None => rest.strip_prefix(": ").unwrap_or(rest),
    };
    Some((key, reason))
}

/// The keys that name a file, taken from the scenario file's directory when relative.
const PATH_KEYS: [&str; 2] = ["network.topology.path", "workload.path"];

/// `sets` with every relative file path made absolute from the current directory: a path
/// given on the command line is the user's (docs/network.md), not the scenario's. Found
/// whether the key is set alone (`network.topology.path=f.net`) or inside a table set
/// whole (`network.topology={kind="file",path="f.net"}`).
pub fn paths_from_cwd(sets: &[(String, toml::Value)]) -> Vec<(String, toml::Value)> {
    let mut out = sets.to_vec();
    for (k, v) in &mut out {
        for full in PATH_KEYS {
            let rest = if full == k.as_str() {
                Some("")
            } else {
                full.strip_prefix(k.as_str())
                    .and_then(|r| r.strip_prefix('.'))
            };
            let Some(rest) = rest else { continue };
            let mut at = Some(&mut *v);
            for part in rest.split('.').filter(|p| !p.is_empty()) {
                at = at.and_then(|x| x.get_mut(part));
            }
            if let Some(toml::Value::String(p)) = at {
                if std::path::Path::new(p.as_str()).is_relative() {
                    if let Ok(a) = std::path::absolute(p.as_str()) {
                        *p = a.display().to_string();
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_path_on_the_command_line_is_taken_from_the_current_directory() {
        let cwd = std::env::current_dir().unwrap();
        let abs = cwd.join("f/ex.net").display().to_string();
        let sets = [
            parse_set("network.topology.path=\"f/ex.net\"").unwrap(),
            parse_set("network.topology={kind=\"file\",path=\"f/ex.net\"}").unwrap(),
            parse_set("network.topology.kind=\"file\"").unwrap(),
            parse_set("workload.path=\"/abs/t.txt\"").unwrap(),
        ];
        let got = paths_from_cwd(&sets);
        assert_eq!(got[0].1.as_str(), Some(abs.as_str()));
        assert_eq!(
            got[1].1.get("path").and_then(|p| p.as_str()),
            Some(abs.as_str())
        );
        assert_eq!(got[2].1, sets[2].1);
        assert_eq!(got[3].1, sets[3].1);
    }

    #[test]
    fn values_parse_as_toml_or_bare_strings() {
        assert_eq!(
            parse_set("network.mtu_bytes=64").unwrap(),
            ("network.mtu_bytes".into(), toml::Value::Integer(64))
        );
        assert_eq!(parse_set("seed = 7").unwrap().1, toml::Value::Integer(7));
        assert_eq!(
            parse_set("workload.kind=hotspot").unwrap().1,
            toml::Value::String("hotspot".into())
        );
        assert!(parse_set("cycles.stop_when_finished=false").unwrap().1 == false.into());
        // a date is the word (no key takes a date-time)
        assert_eq!(
            parse_set("name=2026-12-03").unwrap().1,
            toml::Value::String("2026-12-03".into())
        );
    }

    #[test]
    fn bad_sets_name_the_problem() {
        assert!(parse_set("seed").unwrap_err().contains("KEY=VALUE"));
        assert!(parse_set("net..x=1").unwrap_err().contains("dotted names"));
        assert!(parse_set("pft.r_width=19")
            .unwrap_err()
            .contains("[[pft]] entries"));
        assert!(parse_set("cc=1").unwrap_err().contains("[[cc]] entries"));
        // a number TOML cannot hold is refused, not quoted as a word
        for v in [
            "99999999999999999999",
            "-99999999999999999999",
            "10_000_000_000_000_000_000",
        ] {
            let e = parse_set(&format!("network.threads={v}")).unwrap_err();
            assert!(e.contains("out of the range of a TOML integer"), "{v}: {e}");
        }
        // a value over two lines is refused, not cut to its first line
        for v in [
            "seed=7\nname = \"x\"",
            "seed=7\r\nname = \"x\"",
            "workload.kind=a\nb",
        ] {
            let e = parse_set(v).unwrap_err();
            assert!(e.contains("holds a line break"), "{v:?}: {e}");
            assert!(
                e.starts_with(&format!("`{}`", v.split('=').next().unwrap())),
                "{e}"
            );
        }
        for v in ["1e400", "-1e400", "+1e999", ".5", "1."] {
            let e = parse_set(&format!("network.link_gbps={v}")).unwrap_err();
            assert!(e.contains("not a TOML number"), "{v}: {e}");
        }
        // TOML's own infinity is one (the key's range check refuses it where it must)
        let (_, v) = parse_set("network.link_gbps=-inf").unwrap();
        assert_eq!(v.as_float(), Some(f64::NEG_INFINITY));
        // a broken array, table or string is not taken for a word
        for v in ["[0,", "{a=1", "\"ab", "'ab"] {
            let e = parse_set(&format!("timeseries.nics={v}")).unwrap_err();
            assert!(e.contains("not a TOML value"), "{v}: {e}");
        }
        let e = apply("[cycles]\nmax = 1\n", &[("cycles.max.x".into(), 1.into())]).unwrap_err();
        assert!(
            e.contains("--set cycles.max.x: `cycles.max` is not a table"),
            "{e}"
        );
    }

    #[test]
    fn apply_edits_the_file_in_place() {
        let file =
            "# runs\nseed = 1 # the seed\n[network]\nmtu_bytes = 4096\n\n[cycles]\nmax = 9\n";
        let sets = |s: &[&str]| -> Vec<(String, toml::Value)> {
            s.iter().map(|x| parse_set(x).unwrap()).collect()
        };
        // a key the file has keeps its line, spacing and comment
        let t = apply(file, &sets(&["seed=5", "network.mtu_bytes=64"])).unwrap();
        assert_eq!(
            t,
            "# runs\nseed = 5 # the seed\n[network]\nmtu_bytes = 64\n\n[cycles]\nmax = 9\n"
        );
        // a new key after its table's keys, a new table at the end
        let t = apply(file, &sets(&["network.vcs=2", "timeseries.nics=[1, 2]"])).unwrap();
        assert_eq!(
            t,
            "# runs\nseed = 1 # the seed\n[network]\nmtu_bytes = 4096\nvcs = 2\n\n[cycles]\nmax = 9\n\n[timeseries]\nnics = [1, 2]\n"
        );
        // an error the file does not have alone is said to be the changed text's, though
        // its line comes before the first change (a `kind` set after its table's keys)
        let msg = "`network.mtu_bytes` (line 4, column 13): invalid value".to_string();
        assert!(explain(file, &sets(&["network.vcs=2"]), msg)
            .starts_with("with the --set values applied: "));
        // an unknown key a --set wrote is named by the --set, at the table it made
        let msg = "`network.a` (line 5, column 1): unknown field `a`".to_string();
        assert_eq!(
            explain(file, &sets(&["network.a.b=1"]), msg),
            "`network.a` (set by --set network.a.b=1): unknown field `a`"
        );
        // but not the file's own unknown key of a table a --set changes another key of
        let inline = "cycles = { max = 9, zzz = 1 }\n[workload]\nkind = \"uniform\"\n";
        let set = sets(&["cycles.max=5"]);
        let text = apply(inline, &set).unwrap();
        let err = toml::from_str::<crate::scenario::Scenario>(&text).unwrap_err();
        let msg = crate::scenario::toml_error::message(&text, &err);
        assert!(msg.starts_with("`cycles` (line 1, column"), "{msg}");
        let e = explain(inline, &set, msg);
        assert!(e.starts_with("`cycles` (line 1, column"), "{e}");
        assert!(!e.contains("set by"), "{e}");
        // inside an inline table a new table is inline: its value is written out
        let t = apply(
            "network = { mtu_bytes = 64 }\n",
            &sets(&["network.topology.kind=torus", "network.topology.k=4"]),
        )
        .unwrap();
        let v: toml::Table = toml::from_str(&t).unwrap();
        assert_eq!(
            v["network"]["topology"]["kind"].as_str(),
            Some("torus"),
            "{t}"
        );
        assert_eq!(v["network"]["topology"]["k"].as_integer(), Some(4), "{t}");
        // a file that does not parse is quoted with its own line
        let e = apply("seed = [\n", &sets(&["seed=1"])).unwrap_err();
        assert!(
            e.starts_with("`seed` (line 2, column 1): invalid array"),
            "{e}"
        );
    }

    #[test]
    fn apply_sets_nested_keys_in_order() {
        let t = apply(
            "seed = 1\n[network]\nmtu_bytes = 4096\n",
            &[
                ("network.mtu_bytes".into(), 64.into()),
                ("seed".into(), 3.into()),
                ("seed".into(), 5.into()),
            ],
        )
        .unwrap();
        let t: toml::Table = toml::from_str(&t).unwrap();
        assert_eq!(t["seed"].as_integer(), Some(5));
        assert_eq!(t["network"]["mtu_bytes"].as_integer(), Some(64));
    }
}
