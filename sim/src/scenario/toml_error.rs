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
use std::path::Path;

mod arrays;
mod entries;
mod text;
use arrays::*;
use entries::*;
use text::*;

/// The internally tagged tables of a scenario: serde's name of the enum, the table's key
/// (`[]` for an entry of an array of tables), and its kinds (a test checks them against
/// serde's own list).
pub const TAGGED: [(&str, &str, &[&str]); 4] = [
    ("TopologyConfig", "network.topology", TopologyConfig::KINDS),
    (
        "WorkloadConfig",
        "workload",
        &["uniform", "hotspot", "gpcnet", "motif", "trace", "jobs"],
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

/// Tables inside `[workload]` (and its phases) that serde names by their Rust enum when
/// one is not a table: the enum, its tag and its values (a test checks them against serde).
pub const INNER_TAGGED: [(&str, &str, &[&str]); 2] = [
    (
        "InjectionProcess",
        "type",
        &["bernoulli", "on_off", "budget"],
    ),
    (
        "DestPattern",
        "kind",
        &[
            "uniform",
            "transpose",
            "complement",
            "bit_reversal",
            "shuffle",
            "tornado",
            "shift",
            "hot_spot",
            "permutation",
            "group_shift",
        ],
    ),
];

/// Longest source line shown whole; longer lines are shown around the error's column.
const MAX_LINE_CHARS: usize = 100;

/// The message of a TOML or serde error:
/// "`key` (line L, column C): what" and the line with a caret under the error.
pub fn message(text: &str, e: &toml::de::Error) -> String {
    message_in(text, None, e)
}

/// `message` for a scenario in directory `dir` (None: the current directory), from which
/// the files it names are read when a key's range is probed (a trace's iterations bound
/// `warmup_iterations`).
pub fn message_in(text: &str, dir: Option<&Path>, e: &toml::de::Error) -> String {
    let mut what = with_ranges(e.message().trim_end());
    let Some(span) = e.span() else {
        return quote_safely(&what);
    };
    let mut at = floor_boundary(text, span.start);
    let mut span_end = span.end;
    // serde reports an error in any entry of an array of tables at the array's first
    // header (the entries are buffered): move to the entry that fails
    if let Some(entry) = failing_entry(text, at) {
        (at, span_end) = (entry, entry + 1);
    }
    let (mut line, mut col) = line_col(text, at);
    let mut shown_at = at;
    let on_header = {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = text[line_start..].split('\n').next().unwrap_or("");
        header(line.trim_start(), &mut Vec::new()).is_some()
    };
    // (an unknown key or kind names itself: the entry that writes it is found below)
    let named_itself = what.starts_with("unknown variant ") || what.starts_with("unknown field ");
    // an inline table (`topology = { kind = "torus", k = 4.5, n = 2 }`): serde reports the
    // whole table, as under a header
    let inline = text[at..].starts_with('{');
    let probed = || {
        let table = key_at(text, at).filter(|_| (on_header || inline) && !named_itself)?;
        culprit(text, &table, true).map(|(path, _)| (table, path))
    };
    let key = if let Some(field) = backticked_after(&what, "missing field ").map(str::to_string) {
        // The span is the table that lacks the field (or the whole document). `workload` is
        // the document's only required field, and no table has one: the document lacks it
        // even where the span starts on a table's header (`[cycles]` on line 1).
        let whole = span.start == 0 && span.end >= text.trim_end().len();
        let table = if (whole && !on_header) || field == "workload" {
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
    } else if let Some(table) = key_at(text, at).filter(|t| {
        on_header && what.ends_with(", expected variant identifier") && tag_not_text(text, t)
    }) {
        // a tag that is not a string (`kind = 5`): serde blames the entry it read first
        if let Some(entry_at) = entry_in_table(text, at, "unknown field `kind`") {
            (line, col) = line_col(text, entry_at);
            shown_at = entry_at;
        }
        Some(format!("{table}.kind"))
    } else if let Some((table, path)) = probed() {
        // serde lost the position inside the table (an internally tagged enum such as
        // [workload]): the entry whose absence changes the error is the one it is about
        let entry_at = if inline {
            inline_entry(&text[at..span_end], &path).map(|i| at + i)
        } else {
            entry_of(text, at, &path)
        };
        if let Some(entry_at) = entry_at {
            (line, col) = line_col(text, entry_at);
            shown_at = entry_at;
        }
        Some(format!("{table}.{path}"))
    } else if let Some((k, entry_at)) = on_header.then(|| tagged_unknown(text, at, &what)).flatten()
    {
        (line, col) = line_col(text, entry_at);
        shown_at = entry_at;
        Some(k)
    } else if let Some((k, entry_at)) = on_header.then(|| nested_unknown(text, at, &what)).flatten()
    {
        (line, col) = line_col(text, entry_at);
        shown_at = entry_at;
        Some(k)
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
    } else if let Some((k, entry_at)) = inline_unknown(text, at, span_end, &what) {
        (line, col) = line_col(text, entry_at);
        shown_at = entry_at;
        Some(k)
    } else {
        key_at(text, at)
    };
    let mut shown_end = if shown_at == at {
        span_end
    } else {
        shown_at + 1
    };
    // an inline array of tables (`cc = [{ ... }, { ... }]`): serde names the array, or
    // nothing but the element's span; name the element, and the unknown key it writes
    let inline_el = key
        .as_deref()
        .and_then(|k| inline_element(text, k, at, e.message().trim_end()));
    let key = match inline_el {
        Some((k, from, to)) => {
            (line, col) = line_col(text, from);
            (shown_at, shown_end) = (from, to);
            Some(k)
        }
        None => key,
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
        Some(k) => explain(text, dir, k, &what),
        None => what,
    };
    let what = quote_safely(&date_time_named(text, shown_at, what));
    // A span over the whole document (a missing top-level key) has no line to show.
    let whole = span.start == 0 && span.end >= text.trim_end().len() && text.contains('\n');
    let source = if whole {
        String::new()
    } else {
        format!("\n{}", source_excerpt(text, shown_at, shown_end))
    };
    match key {
        // (a key is quoted input too: cut as the values are)
        Some(k) => format!(
            "`{}` (line {line}, column {col}): {what}{source}",
            excerpt(&k)
        ),
        None => format!("line {line}, column {col}: {what}{source}"),
    }
}

/// `what` about the value at `at`, where that value is a TOML date-time: serde sees one as a
/// map with a private key, so its message says `map` or names that key (or, from the TOML
/// reader, names no kind: "invalid type: expected ..."); say what the file holds.
fn date_time_named(text: &str, at: usize, what: String) -> String {
    let rest = if what.contains("$__toml_private_datetime") {
        "expected a table"
    } else if let Some(rest) = what.strip_prefix("invalid type: map, ") {
        rest
    } else if what.starts_with("invalid type: expected ") {
        &what["invalid type: ".len()..]
    } else {
        return what;
    };
    // the date-time at `s`: one token, or a date and a time with one space between
    let date_time = |s: &str| -> Option<String> {
        let mut words = s.split(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | ']' | '#'));
        let one = words.next().unwrap_or("");
        let two = format!("{one} {}", words.next().unwrap_or(""));
        [two, one.to_string()]
            .into_iter()
            .find(|t| t.parse::<toml::value::Datetime>().is_ok())
    };
    let from = text.get(at..).unwrap_or("");
    // the value itself, or after its key's `=` (`leaves = 1979-05-27` in an inline
    // table), never inside a quoted string
    let token = date_time(from).or_else(|| {
        let (k, v) = from.split_once('=')?;
        (!k.contains(['\n', '"', '\''])).then(|| date_time(v.trim_start()))?
    });
    match token {
        Some(token) => format!("invalid type: date-time {token}, {rest}"),
        None => what,
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
fn explain(text: &str, dir: Option<&Path>, key: &str, what: &str) -> String {
    let mut what = what.to_string();
    let tags = TAGGED.iter().map(|(n, _, k)| (*n, "kind", *k));
    for (name, tag, kinds) in tags.chain(INNER_TAGGED) {
        let from = format!("expected internally tagged enum {name}");
        if what.ends_with(&from) {
            let cut = what.len() - from.len();
            what = format!(
                "{}expected a table with `{tag}` = {}",
                &what[..cut],
                one_of(kinds)
            );
        }
    }
    // a tag that is not a string (`kind = 5`)
    if let (Some(table), Some(cut)) = (
        key.strip_suffix(".kind"),
        what.rfind(", expected variant identifier"),
    ) {
        if let Some((_, _, kinds)) = TAGGED.iter().find(|(_, k, _)| *k == unindexed(table)) {
            what = format!("{}, expected a kind name: {}", &what[..cut], one_of(kinds));
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
    // a named value of the wrong type (`victim_mask = 1`): serde's "string or map" is its
    // storage, the names are what a user writes
    if let Some(cut) = what.rfind(", expected string or map") {
        if let Some(names) = names_of(text, key) {
            what = format!("{}, expected a string: {names}", &what[..cut]);
        }
    }
    // the same from the TOML reader itself (`engine = 1.5`, `network.routing = 3`)
    if what == "wanted string or table" {
        if let Some(names) = names_of(text, key) {
            what = format!("invalid type: expected a string: {names}");
        }
    }
    const STORAGE: &str = "expected an integer in 0..=";
    if let Some(i) = what.find(STORAGE) {
        let max: u64 = what[i + STORAGE.len()..].parse().unwrap_or(u64::MAX);
        match own_rule(text, dir, key, max) {
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
        // an array of tables (`[[workload.jobs]]`): serde stops at the first element it
        // refuses, the first whose prefix of the array gives the error; go on inside it
        if let (Some(n), Some(last)) = (
            value_at(&mut d, &at)
                .filter(|v| is_table_array(v))
                .and_then(|v| v.as_array())
                .map(Vec::len),
            path.last().cloned(),
        ) {
            let i = (0..n).find(|&i| {
                let mut t = doc.clone();
                if let Some(a) = value_at(&mut t, &at).and_then(|v| v.as_array_mut()) {
                    a.truncate(i + 1);
                }
                error(&t).as_deref() == Some(base.as_str())
            });
            let Some(i) = i else { break };
            *path.last_mut().expect("a last part") = format!("{last}[{i}]");
            found = value_at(&mut d, &format!("{at}[{i}]")).cloned();
            continue;
        }
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
            // an array of tables missing as a whole says so too: it is the culprit
            ([], [one]) if required || is_table_array(&one.1) => one.clone(),
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
    let mut parts = path.split('.');
    let first = parts.next()?;
    let Some((name, index)) = first.split_once('[') else {
        return entry_in_table(text, at, &format!("unknown field `{first}`"));
    };
    // an element of an array of tables: its own header, then its entry
    let want = format!("{}.{name}[{index}", key_at(text, at)?);
    let mut arrays = Vec::new();
    let mut offset = 0;
    for l in text.split('\n') {
        let t = l.trim_start();
        if header(t, &mut arrays).as_deref() == Some(want.as_str()) {
            let h = offset + l.len() - t.len();
            return match parts.next() {
                Some(key) => entry_in_table(text, h, &format!("unknown field `{key}`")).or(Some(h)),
                None => Some(h),
            };
        }
        offset += l.len() + 1;
    }
    None
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
fn own_rule(text: &str, dir: Option<&Path>, key: &str, max: u64) -> Probed {
    let mut parsed = false;
    match rule_of(text, dir, key, max, &mut parsed) {
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
fn rule_of(
    text: &str,
    dir: Option<&Path>,
    key: &str,
    max: u64,
    parsed: &mut bool,
) -> Option<String> {
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
        let Some(mut sc) = scenario_without_others(&mut t, key) else {
            continue;
        };
        // as `Scenario::parse_in` reads it: the workload's files and network defaults
        sc.workload.resolve(dir);
        sc.workload.resolve_network(&sc.network.topology);
        *parsed = true;
        if let Err(errs) = sc.validate() {
            let got = probe.to_string();
            let rule = errs.0.iter().find(|e| e.field == key).or_else(|| {
                // the array's rule when it quotes the probed value (alone or in the list)
                errs.0.iter().find(|e| {
                    Some(e.field.as_str()) == array
                        && (e.got == got
                            || e.got
                                .strip_prefix('[')
                                .is_some_and(|l| l.split([',', ']']).any(|x| x.trim() == got)))
                })
            });
            if let Some(e) = rule {
                return Some(e.allowed.clone());
            }
            // a table's rule about one of its keys (`workload.pattern` = hot_spot: "percent
            // = 200: must be in 0..=100")
            if let Some((table, last)) = key.rsplit_once('.') {
                let said = format!("{last} = {got}: ");
                if let Some(r) = errs
                    .0
                    .iter()
                    .filter(|e| e.field == table)
                    .find_map(|e| e.allowed.strip_prefix(&said))
                {
                    return Some(r.to_string());
                }
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

#[cfg(test)]
mod tests;
