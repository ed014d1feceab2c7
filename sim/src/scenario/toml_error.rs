//! Messages for a scenario that does not deserialize: the full key the error is about, its
//! line and column, what was wrong with the field's own range or the allowed kinds, and a
//! short excerpt of the line (control characters escaped), instead of the parser's report.
//!
//! The toml crate reports a byte span and a serde message but not the key. The key is found
//! from the text around the span (`key_at`), and, where serde lost the position (inside an
//! internally tagged table such as `[workload]`), from the entry the message quotes
//! (`entry_in_table`). Both read the wording of toml's and serde's messages ("missing field
//! `x`", "unknown field `x`", "integer `v`", "expected u32", ...): the tests at the end pin
//! every wording this module relies on, so a dependency upgrade that changes one fails
//! `cargo test` instead of silently losing a key. (serde_path_to_error would name the key only
//! outside those tables: inside an internally tagged or flattened table serde buffers it, and
//! the path stops at the table, `workload` or `cc[0]`; so the wording is read anyway.)

use super::config::Scenario;
use crate::error::excerpt;
use crate::net::TopologyConfig;

/// The internally tagged tables of a scenario: serde's name of the enum, the table's key
/// (`[]` for an entry of an array of tables), and its kinds (a test checks them against
/// serde's own list).
pub const TAGGED: [(&str, &str, &[&str]); 4] = [
    ("TopologyConfig", "network.topology", TopologyConfig::KINDS),
    (
        "WorkloadConfig",
        "workload",
        &["uniform", "hotspot", "gpcnet"],
    ),
    (
        "FaultSpec",
        "network.faults[]",
        &[
            "credit_delay",
            "credit_jitter",
            "eject",
            "link_pause",
            "pft_rewrite",
        ],
    ),
    ("CcConfig", "cc[]", crate::cc::KINDS),
];

/// Longest source line shown whole; longer lines are shown around the error's column.
const MAX_LINE_CHARS: usize = 100;

/// The message of a TOML or serde error:
/// "`key` (line L, column C): what" and the line with a caret under the error.
pub fn message(text: &str, e: &toml::de::Error) -> String {
    let mut what = with_ranges(e.message().trim_end());
    let Some(span) = e.span() else {
        return quote_safely(&what);
    };
    let at = floor_boundary(text, span.start);
    let (mut line, mut col) = line_col(text, at);
    let mut shown_at = at;
    let on_header = {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = text[line_start..].split('\n').next().unwrap_or("");
        header(line.trim_start(), &mut Vec::new()).is_some()
    };
    // (an unknown key or kind names itself: the entry that writes it is found below)
    let named_itself = what.starts_with("unknown variant ") || what.starts_with("unknown field ");
    let probed = || {
        let table = key_at(text, at).filter(|_| on_header && !named_itself)?;
        culprit(text, &table, true).map(|(path, _)| (table, path))
    };
    let key = if let Some(field) = backticked_after(&what, "missing field ").map(str::to_string) {
        // The span is the table that lacks the field (or the whole document).
        let whole = span.start == 0 && span.end >= text.trim_end().len();
        let table = if whole && !on_header {
            None
        } else {
            key_at(text, at)
        };
        // a table that has the field: the message is about a value inside it that serde
        // read as a table (`pattern = []` in `[workload]`)
        let inner = table
            .as_deref()
            .and_then(|t| culprit(text, t, false).map(|c| (t.to_string(), c)));
        match (inner, table) {
            (Some((t, (path, v))), _) => {
                if on_header {
                    if let Some(entry_at) = entry_of(text, at, &path) {
                        (line, col) = line_col(text, entry_at);
                        shown_at = entry_at;
                    }
                }
                if !v.is_table() {
                    let kind = v.type_str();
                    what = format!("invalid type: {kind}, expected a table with `{field}`");
                    Some(format!("{t}.{path}"))
                } else {
                    Some(format!("{t}.{path}.{field}"))
                }
            }
            (None, Some(t)) => Some(format!("{t}.{field}")),
            (None, None) => Some(field.to_string()),
        }
    } else if let Some((table, path)) = probed() {
        // serde lost the position inside the table (an internally tagged enum such as
        // [workload]): the entry whose absence changes the error is the one it is about
        if let Some(entry_at) = entry_of(text, at, &path) {
            (line, col) = line_col(text, entry_at);
            shown_at = entry_at;
        }
        Some(format!("{table}.{path}"))
    } else if on_header {
        // serde lost the position inside the table (an internally tagged enum such as
        // [workload]): look for the entry the message quotes.
        let table = key_at(text, at);
        // a message that names its key (`key `m`: expected ...`, a PFT register's) is
        // looked for by that key
        let named = backticked_after(&what, "key ").map(|k| format!("unknown field `{k}`"));
        match entry_in_table(text, at, named.as_deref().unwrap_or(&what)) {
            Some(entry_at) => {
                (line, col) = line_col(text, entry_at);
                shown_at = entry_at;
                key_at(text, entry_at).or(table)
            }
            // not on a line of its own (`pattern = { kind = "spiral" }`): the entry whose
            // absence changes the error, and in a table its tag when the message quotes it
            None => match table
                .as_deref()
                .and_then(|t| culprit(text, t, false).map(|c| (t, c)))
            {
                Some((t, (path, v))) => {
                    if let Some(entry_at) = entry_of(text, at, &path) {
                        (line, col) = line_col(text, entry_at);
                        shown_at = entry_at;
                    }
                    let variant = backticked_after(&what, "unknown variant ");
                    let tag = ["kind", "type"].into_iter().find(|tag| {
                        variant.is_some() && v.get(tag).and_then(|k| k.as_str()) == variant
                    });
                    Some(match tag {
                        Some(tag) => format!("{t}.{path}.{tag}"),
                        None => format!("{t}.{path}"),
                    })
                }
                None => table,
            },
        }
    } else if broken_header(text, at) {
        None // a syntax error in a table header names no key
    } else {
        key_at(text, at)
    };
    let mut shown_end = if shown_at == at {
        span.end
    } else {
        shown_at + 1
    };
    // serde names the array, not the element it refused (`nics = [0, -1]`): add the
    // element's index, and point at it where serde lost the position.
    let key = key.map(|k| match element_index(text, &k, &what) {
        Some(i) => {
            if shown_at != at {
                if let Some((from, to)) = element_span(text, shown_at, i) {
                    (line, col) = line_col(text, from);
                    (shown_at, shown_end) = (from, to);
                }
            }
            format!("{k}[{i}]")
        }
        None => k,
    });
    let what = match &key {
        Some(k) => explain(text, k, &what),
        None => what,
    };
    let what = quote_safely(&what);
    // A span over the whole document (a missing top-level key) has no line to show.
    let whole = span.start == 0 && span.end >= text.trim_end().len() && text.contains('\n');
    let source = if whole {
        String::new()
    } else {
        format!("\n{}", source_excerpt(text, shown_at, shown_end))
    };
    match key {
        Some(k) => format!("`{k}` (line {line}, column {col}): {what}{source}"),
        None => format!("line {line}, column {col}: {what}{source}"),
    }
}

/// The message of any TOML error (no scenario keys): "line L, column C: what" and the
/// line with a caret, quotations cut and control characters escaped. For TOML files other
/// than scenarios (the trace tool's register config).
pub fn syntax_message(text: &str, e: &toml::de::Error) -> String {
    let what = quote_safely(e.message().trim_end());
    let Some(span) = e.span() else {
        return what;
    };
    let at = floor_boundary(text, span.start);
    let (line, col) = line_col(text, at);
    format!(
        "line {line}, column {col}: {what}\n{}",
        source_excerpt(text, at, span.end)
    )
}

/// Adds what a message about `key` leaves out: the kinds of a tagged table, and the
/// field's own range where serde gave the range of the storage type.
fn explain(text: &str, key: &str, what: &str) -> String {
    let mut what = what.to_string();
    for (name, _, kinds) in TAGGED {
        let from = format!("expected internally tagged enum {name}");
        if what.ends_with(&from) {
            let cut = what.len() - from.len();
            what = format!(
                "{}expected a table with `kind` = {}",
                &what[..cut],
                one_of(kinds)
            );
        }
    }
    if what == "missing field `kind`" {
        let table = unindexed(key.strip_suffix(".kind").unwrap_or(key));
        if let Some((_, _, kinds)) = TAGGED.iter().find(|(_, k, _)| *k == table) {
            what = format!("missing field `kind` ({})", one_of(kinds));
        }
    }
    // "unknown variant `x`, expected one of `a`, `b`" (or "expected `a` or `b`"): the
    // allowed kinds or values, in the user's words
    if let Some(v) = backticked_after(&what, "unknown variant ") {
        let list = what
            .split_once("`, expected ")
            .map(|(_, l)| l.strip_prefix("one of ").unwrap_or(l))
            .map(|l| {
                l.split(", ")
                    .flat_map(|x| x.split(" or "))
                    .collect::<Vec<_>>()
            });
        if let Some(list) = list {
            let what_ = if key == "kind" || key.ends_with(".kind") {
                "kind"
            } else {
                "value"
            };
            what = format!(
                "unknown {what_} `{v}`; the allowed {what_}s are {}",
                list.join(", ")
            );
        }
    }
    const STORAGE: &str = "expected an integer in 0..=";
    if let Some(i) = what.find(STORAGE) {
        let max: u64 = what[i + STORAGE.len()..].parse().unwrap_or(u64::MAX);
        match own_rule(text, key, max) {
            Probed::Rule(rule) => {
                what = format!(
                    "{}expected an integer in the field's range: {rule}",
                    &what[..i]
                );
            }
            // a TOML integer is at most i64::MAX: that is the range a user can write
            Probed::Accepted if max == u64::MAX => {
                what = format!("{}expected an integer in 0..={}", &what[..i], i64::MAX);
            }
            Probed::Accepted => {}
            // another key does not parse either: its range is told once it does
            Probed::Unknown => what = format!("{}expected an integer", &what[..i]),
        }
    }
    what
}

/// The entry inside the table at `table` (a dotted key with indices) that the scenario's
/// error is about, where serde lost its position: inside an internally tagged table
/// (`[workload]`, `[[cc]]`, `[network.topology]`) serde buffers the entries and reports
/// the table. Each entry is left out in turn: serde stops at the first value it refuses
/// and reports a missing field only after reading every entry, so the entry whose absence
/// changes the error is the one it is about. A required entry left out changes the error
/// too ("missing field `name`"): an entry whose absence changes it otherwise is preferred,
/// and with `required` false (the error is itself a missing field) the only one taken.
/// The tag (`kind`, `type`) is kept: without it every error changes. Inside an entry that
/// is a table the search goes on. Returns the dotted path below `table` and its value;
/// None when no entry (or more than one) changes the error.
fn culprit(text: &str, table: &str, required: bool) -> Option<(String, toml::Value)> {
    let doc: toml::Table = toml::from_str(text).ok()?;
    let error = |t: &toml::Table| -> Option<String> {
        let text = toml::to_string(t).ok()?;
        Some(
            toml::from_str::<Scenario>(&text)
                .err()?
                .message()
                .to_string(),
        )
    };
    let base = error(&doc)?;
    let mut path: Vec<String> = Vec::new();
    let mut found: Option<toml::Value> = None;
    loop {
        let at = std::iter::once(table.to_string())
            .chain(path.iter().cloned())
            .collect::<Vec<_>>()
            .join(".");
        let mut d = doc.clone();
        let Some(inner) = value_at(&mut d, &at).and_then(|v| v.as_table()) else {
            break;
        };
        let mut changed = Vec::new();
        for (k, v) in inner {
            if k == "kind" || k == "type" || k.contains(['.', '[']) {
                continue;
            }
            let mut t = doc.clone();
            value_at(&mut t, &at)?.as_table_mut()?.remove(k);
            let now = error(&t);
            if now.as_deref() != Some(base.as_str()) {
                let missing_itself = now == Some(format!("missing field `{k}`"));
                changed.push((k.clone(), v.clone(), missing_itself));
            }
        }
        let others: Vec<_> = changed.iter().filter(|c| !c.2).collect();
        let pick = match (others.as_slice(), changed.as_slice()) {
            ([one], _) => (*one).clone(),
            ([], [one]) if required => one.clone(),
            _ => break,
        };
        path.push(pick.0);
        found = Some(pick.1);
    }
    found.map(|v| (path.join("."), v))
}

/// The line of the entry `path` (its first part) of the table whose header is at `at`: a
/// `key =` line or a sub-table's header.
fn entry_of(text: &str, at: usize, path: &str) -> Option<usize> {
    let first = path.split('.').next()?;
    entry_in_table(text, at, &format!("unknown field `{first}`"))
}

/// True when the line of `at` starts like a table header but is not one.
fn broken_header(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..]
        .split('\n')
        .next()
        .unwrap_or("")
        .trim_start();
    line.starts_with('[') && header(line, &mut Vec::new()).is_none()
}

/// "one of `a`, `b`" (or "`a` or `b`").
fn one_of(kinds: &[&str]) -> String {
    let q: Vec<String> = kinds.iter().map(|k| format!("`{k}`")).collect();
    match q.as_slice() {
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", q.join(", ")),
    }
}

/// `cc[2].x` -> `cc[].x`.
fn unindexed(key: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for c in key.chars() {
        match c {
            '[' => {
                skipping = true;
                out.push('[');
            }
            ']' => {
                skipping = false;
                out.push(']');
            }
            _ if skipping => {}
            _ => out.push(c),
        }
    }
    out
}

/// The rule validation states for the integer at `key`: the scenario is tried with that
/// value replaced by 0 and by `max` (the storage type's bounds); the first that validation
/// refuses gives the field's own rule. `Accepted` when both are (the storage range is then
/// the field's range), `Unknown` when no probe parses (another key is wrong too).
///
/// An array element (`pft[0].nics[1]`) is probed with `max` first: 0 may repeat another
/// element, and the rule would then be "listed twice", not the range. Where validation
/// names only the array (`network.faults[0].nics` = 4294967295: NICs are 0..4), its rule
/// is taken when it quotes the probed value.
fn own_rule(text: &str, key: &str, max: u64) -> Probed {
    let mut parsed = false;
    match rule_of(text, key, max, &mut parsed) {
        Some(rule) => Probed::Rule(rule),
        None if parsed => Probed::Accepted,
        None => Probed::Unknown,
    }
}

/// What probing a key's range found.
enum Probed {
    /// Validation's rule for the key.
    Rule(String),
    /// Both bounds of the storage type parse and validate: its range is the key's.
    Accepted,
    /// No probe parsed (another key is wrong too).
    Unknown,
}

/// `own_rule`'s probe; `parsed` tells whether any probed scenario parsed.
fn rule_of(text: &str, key: &str, max: u64, parsed: &mut bool) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let max = max.min(i64::MAX as u64) as i64;
    let array = key
        .strip_suffix(']')
        .and_then(|k| k.rsplit_once('['))
        .map(|(a, _)| a);
    let probes = if array.is_some() { [max, 0] } else { [0, max] };
    for probe in probes {
        let mut t = table.clone();
        *value_at(&mut t, key)? = toml::Value::Integer(probe);
        if let Some((array, i)) = array.zip(key.rsplit_once('[').map(|(_, i)| i)) {
            // elements after it are not checked yet and may not deserialize either
            let keep = i.trim_end_matches(']').parse::<usize>().ok()? + 1;
            value_at(&mut t, array)?.as_array_mut()?.truncate(keep);
        }
        let Ok(sc) = toml::from_str::<Scenario>(&toml::to_string(&t).ok()?) else {
            continue;
        };
        *parsed = true;
        if let Err(errs) = sc.validate() {
            let got = probe.to_string();
            let rule = errs.0.iter().find(|e| e.field == key).or_else(|| {
                errs.0
                    .iter()
                    .find(|e| Some(e.field.as_str()) == array && e.got == got)
            });
            if let Some(e) = rule {
                return Some(e.allowed.clone());
            }
        }
    }
    None
}

/// The index of the element of the array at `key` that `msg` refuses: the first whose
/// value the message quotes ("integer `-1`", "string \"x\"", "unknown variant `x`", ...;
/// serde stops at the first element it refuses, so an earlier equal one cannot exist).
/// None when `key` is no array or no element matches.
fn element_index(text: &str, key: &str, msg: &str) -> Option<usize> {
    let mut table: toml::Table = toml::from_str(text).ok()?;
    let items = value_at(&mut table, key)?.as_array()?;
    let float = msg
        .find("floating point `")
        .and_then(|i| msg[i + "floating point ".len()..].split('`').nth(1))
        .and_then(|v| v.parse::<f64>().ok());
    items.iter().position(|v| match v {
        toml::Value::Integer(i) => msg.contains(&format!("integer `{i}`")),
        toml::Value::Float(f) => float == Some(*f),
        toml::Value::Boolean(b) => msg.contains(&format!("boolean `{b}`")),
        toml::Value::String(s) => {
            msg.contains(&format!("string {s:?}")) || msg.contains(&format!("variant `{s}`"))
        }
        toml::Value::Array(_) => msg.contains("invalid type: sequence"),
        toml::Value::Table(_) => msg.contains("invalid type: map"),
        toml::Value::Datetime(_) => false,
    })
}

/// The byte range of element `index` of the array whose `key = [` entry starts at
/// `entry_at`.
fn element_span(text: &str, entry_at: usize, index: usize) -> Option<(usize, usize)> {
    array_elements(text, entry_at)?.get(index).copied()
}

/// The byte ranges of the elements of the array whose `key = [` entry starts at `entry_at`
/// (it may span lines; strings, nested arrays and tables, and comments are skipped). None
/// when the value is no array or does not end.
fn array_elements(text: &str, entry_at: usize) -> Option<Vec<(usize, usize)>> {
    let eq = entry_at + text[entry_at..].find('=')? + 1;
    let open = eq + text[eq..].find(|c: char| !c.is_whitespace())?;
    if !text[open..].starts_with('[') {
        return None;
    }
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut last = open; // end of the last character of the element
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut chars = text[open..].char_indices();
    while let Some((j, c)) = chars.next() {
        let at = open + j;
        if comment {
            comment = c != '\n';
            continue;
        }
        if let Some(q) = quote {
            if c == '\\' && q == '"' {
                chars.next();
            } else if c == q {
                quote = None;
            }
            last = at + c.len_utf8();
            continue;
        }
        match c {
            '#' => comment = true,
            ',' if depth == 1 => out.extend(start.take().map(|s| (s, last))),
            ']' | '}' if depth == 1 => {
                out.extend(start.map(|s| (s, last)));
                return Some(out);
            }
            c if c.is_whitespace() => {}
            c => {
                if depth == 0 {
                    depth = 1; // the opening bracket
                    continue;
                }
                if depth == 1 && start.is_none() {
                    start = Some(at);
                }
                match c {
                    '[' | '{' => depth += 1,
                    ']' | '}' => depth -= 1,
                    '"' | '\'' => quote = Some(c),
                    _ => {}
                }
                last = at + c.len_utf8();
            }
        }
    }
    None
}

/// The value at a dotted key with array indices (`pft[1].m`, `network.topology.radix`).
fn value_at<'a>(t: &'a mut toml::Table, key: &str) -> Option<&'a mut toml::Value> {
    let mut parts = key.split('.');
    let mut cur = step(t, parts.next()?)?;
    for p in parts {
        cur = step(cur.as_table_mut()?, p)?;
    }
    Some(cur)
}

fn step<'a>(t: &'a mut toml::Table, part: &str) -> Option<&'a mut toml::Value> {
    match part.split_once('[') {
        None => t.get_mut(part),
        Some((name, idx)) => {
            let i: usize = idx.strip_suffix(']')?.parse().ok()?;
            t.get_mut(name)?.as_array_mut()?.get_mut(i)
        }
    }
}

/// A message with control characters escaped and every quoted value (in `"..."` or
/// backticks) cut to a short excerpt.
fn quote_safely(msg: &str) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(open) = rest.find(['"', '`']) {
        let q = rest.as_bytes()[open] as char;
        out.push_str(&excerpt_inline(&rest[..=open]));
        rest = &rest[open + 1..];
        match rest.find(q) {
            Some(close) => {
                out.push_str(&excerpt(&rest[..close]));
                out.push(q);
                rest = &rest[close + 1..];
            }
            None => {
                out.push_str(&excerpt(rest));
                rest = "";
            }
        }
    }
    out.push_str(&excerpt_inline(rest));
    out
}

/// Escapes control characters without cutting (the parser's own text around quotations;
/// its line breaks become "; ").
fn excerpt_inline(s: &str) -> String {
    s.replace('\n', "; ")
        .chars()
        .flat_map(|c| {
            let v: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            v
        })
        .collect()
}

/// The source line of byte offset `at` with carets under `at..end` (on that line): the
/// whole line when short, else a window around `at`; control characters escaped.
fn source_excerpt(text: &str, at: usize, end: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let chars: Vec<char> = line.chars().collect();
    let col = text[line_start..at].chars().count();
    let span = text[at..floor_boundary(text, end.clamp(at, line_end))]
        .chars()
        .count()
        .max(1);
    let (from, to) = if chars.len() <= MAX_LINE_CHARS {
        (0, chars.len())
    } else {
        let from = col.saturating_sub(MAX_LINE_CHARS / 3);
        (from, (from + MAX_LINE_CHARS).min(chars.len()))
    };
    let shown = |cs: &[char]| -> String { cs.iter().flat_map(|c| escaped(*c)).collect() };
    let pre = format!(
        "{}{}",
        if from > 0 { "…" } else { "" },
        shown(&chars[from..col.min(to)])
    );
    let body = format!(
        "{pre}{}{}",
        shown(&chars[col.min(to)..to]),
        if to < chars.len() { "…" } else { "" }
    );
    let marked: usize = chars[col.min(to)..(col + span).min(to)]
        .iter()
        .map(|c| escaped(*c).len())
        .sum();
    let (line_no, _) = line_col(text, at);
    let gutter = line_no.to_string().len();
    format!(
        "{:gutter$} |\n{line_no} | {body}\n{:gutter$} | {}{}",
        "",
        "",
        " ".repeat(pre.chars().count()),
        "^".repeat(marked.max(1))
    )
}

fn escaped(c: char) -> Vec<char> {
    if c.is_control() && c != '\t' {
        c.escape_default().collect()
    } else if c == '\t' {
        vec![' ']
    } else {
        vec![c]
    }
}

/// The entry that `msg` is about, below the table header at `at` (serde lost its position:
/// an internally tagged enum such as `[workload]` or `[[network.faults]]`), found from
/// "unknown field `k`" or the value the message quotes ("integer `v`", "string \"v\"",
/// ...). Looks in the table's own lines first, then in everything below the header; the
/// match must be unique. Returns the byte offset of the entry's key.
fn entry_in_table(text: &str, at: usize, msg: &str) -> Option<usize> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut offset = line_start;
    let lines: Vec<(usize, &str)> = text[line_start..]
        .split('\n')
        .map(|l| {
            let start = offset;
            offset += l.len() + 1;
            let t = l.trim_start();
            (start + (l.len() - t.len()), t)
        })
        .skip(1)
        .collect();
    let own = lines
        .iter()
        .take_while(|(_, l)| !l.starts_with('['))
        .count();
    // The table's own lines and those of its sub-tables (`[workload.injection]` below
    // `[workload]`), up to the first header of another table.
    let name = header(
        text[line_start..].split('\n').next()?.trim_start(),
        &mut Vec::new(),
    )?;
    let name = name.split('[').next().unwrap_or(&name).to_string();
    let inside = lines
        .iter()
        .take_while(|(_, l)| match header(l, &mut Vec::new()) {
            Some(h) => h.starts_with(&format!("{name}.")),
            None => true,
        })
        .count();
    let unknown = backticked_after(msg, "unknown field ");
    let literal = if unknown.is_some() {
        None
    } else if let Some(v) = backticked_after(msg, "unknown variant ") {
        Some(format!("\"{v}\""))
    } else if let Some(i) = msg.find("integer `") {
        Some(msg[i + "integer ".len()..].split('`').nth(1)?.to_string())
    } else if let Some(i) = msg.find("string \"") {
        let rest = &msg[i + "string ".len()..];
        Some(format!("\"{}\"", rest[1..].split('"').next()?))
    } else if let Some(i) = msg.find("floating point `") {
        // serde writes NaN where TOML writes nan
        let v = msg[i + "floating point ".len()..].split('`').nth(1)?;
        Some(match v {
            "NaN" => "nan".to_string(),
            "-NaN" => "-nan".to_string(),
            v => v.to_string(),
        })
    } else if let Some(i) = msg.find("boolean `") {
        Some(msg[i + "boolean ".len()..].split('`').nth(1)?.to_string())
    } else if msg.contains("invalid type: sequence") {
        Some("[".to_string()) // an array: matched by its opening bracket
    } else if msg.contains("invalid type: map") {
        Some("{".to_string()) // an inline table
    } else {
        return None;
    };
    let matches = |scope: &[(usize, &str)]| -> Vec<usize> {
        scope
            .iter()
            .filter_map(|&(o, l)| {
                if let (Some(u), Some(h)) = (&unknown, header(l, &mut Vec::new())) {
                    // a sub-table: `[cc.packet_bytes]` below `[[cc]]`
                    let sub = format!("{name}.{u}");
                    return (h == sub || h.starts_with(&format!("{sub}."))).then_some(o);
                }
                let k = leading_key(l)?;
                let hit = match (&unknown, &literal) {
                    (Some(u), _) => k == *u,
                    (None, Some(lit)) => {
                        let value = l[k.len()..].trim_start()[1..].split('#').next()?.trim();
                        if lit == "[" || lit == "{" {
                            value.starts_with(lit.as_str())
                        } else if value.starts_with('[') {
                            // an element of an array: `nics = [1, -1]`, on one line or
                            // more
                            array_elements(text, o).is_some_and(|items| {
                                items
                                    .iter()
                                    .any(|&(s, e)| text[s..e].replace('_', "") == *lit)
                            })
                        } else {
                            value.replace('_', "") == *lit
                        }
                    }
                    (None, None) => false,
                };
                hit.then_some(o)
            })
            .collect()
    };
    for scope in [&lines[..own], &lines[..inside]] {
        match matches(scope).as_slice() {
            [one] => return Some(*one),
            [] => continue,
            _ => return None, // ambiguous
        }
    }
    None
}

/// serde names integer types (`expected u32`); say what they allow instead.
fn with_ranges(msg: &str) -> String {
    let mut m = msg.to_string();
    for (ty, range) in [
        ("u8", "0..=255"),
        ("u16", "0..=65535"),
        ("u32", "0..=4294967295"),
        ("u64", "0..=18446744073709551615"),
    ] {
        let from = format!("expected {ty}");
        if m.ends_with(&from) {
            let cut = m.len() - from.len();
            m = format!("{}expected an integer in {range}", &m[..cut]);
        }
    }
    if m == "number too large to fit in target type" {
        m.push_str(" (TOML integers are in -9223372036854775808..=9223372036854775807)");
    }
    if m.ends_with("expected f64") {
        let cut = m.len() - "f64".len();
        m = format!("{}a number", &m[..cut]);
    }
    m
}

/// The text between the backticks that follow `prefix` at the start of `msg`.
fn backticked_after<'a>(msg: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = msg.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split('`').next()
}

fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// 1-based line and column (in characters) of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
}

/// `key` when `line` (already trimmed at the start) starts with `key =`.
fn leading_key(line: &str) -> Option<&str> {
    let end = line.find(|c: char| !is_key_char(c)).unwrap_or(line.len());
    let (key, rest) = line.split_at(end);
    (!key.is_empty() && rest.trim_start().starts_with('=')).then_some(key)
}

/// The name in a table header line (`[a.b]`, or `[[pft]]` counted as `pft[i]` by `arrays`).
fn header(line: &str, arrays: &mut Vec<(String, usize)>) -> Option<String> {
    let l = line.split('#').next().unwrap_or("").trim();
    if let Some(inner) = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]")) {
        let name = inner.trim();
        if name.is_empty() || !name.chars().all(is_key_char) {
            return None;
        }
        let i = match arrays.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                arrays.push((name.to_string(), 1));
                0
            }
        };
        return Some(format!("{name}[{i}]"));
    }
    let inner = l.strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() || !inner.chars().all(is_key_char) {
        return None;
    }
    // `[pft.k]` below `[[pft]]` is a table of the array's last element: `pft[0].k`
    let array = arrays
        .iter()
        .filter(|(n, _)| inner.starts_with(&format!("{n}.")))
        .max_by_key(|(n, _)| n.len());
    Some(match array {
        Some((n, count)) => format!("{n}[{}]{}", count - 1, &inner[n.len()..]),
        None => inner.to_string(),
    })
}

/// The dotted key whose value (or name) is at byte offset `at`, found by scanning the lines:
/// the table header above it, the nearest `key =` at or above its line, and the key of an
/// inline table entry before it on its line. `None` when the text shows none.
fn key_at(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let mut arrays = Vec::new();
    let mut table: Option<String> = None;
    let mut key: Option<(usize, String)> = None;
    let mut offset = 0;
    for line in text[..line_end].split('\n') {
        let start = offset;
        offset += line.len() + 1;
        let t = line.trim_start();
        if let Some(h) = header(t, &mut arrays) {
            table = Some(h);
            key = None;
            if start == line_start {
                return table;
            }
        } else if let Some(k) = leading_key(t) {
            key = Some((start, k.to_string()));
        }
    }
    let (key_line, mut k) = key?;
    if key_line == line_start {
        // an entry of an inline table before `at`: `topology = { kind = "x", ... }`
        let before = &text[line_start..at];
        if let Some(open) = before.rfind('{') {
            if !before[open..].contains('}') {
                if let Some(inner) = before[open + 1..]
                    .rsplit(',')
                    .next()
                    .and_then(|seg| leading_key(seg.trim_start()))
                {
                    k = format!("{k}.{inner}");
                }
            }
        }
    }
    Some(match table {
        Some(t) => format!("{t}.{k}"),
        None => k,
    })
}

#[cfg(test)]
mod tests;
