//! Text helpers of the scenario messages: excerpts with control characters escaped,
//! where an entry or key sits in the text (line, column, table headers), and the ranges
//! the messages state.

#[allow(unused_imports)]
use super::*;
/// A message with control characters escaped and every quoted value (in `"..."` or
/// backticks) cut to a short excerpt.
pub(super) fn quote_safely(msg: &str) -> String {
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
pub(super) fn excerpt_inline(s: &str) -> String {
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
pub(super) fn source_excerpt(text: &str, at: usize, end: usize) -> String {
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

pub(super) fn escaped(c: char) -> Vec<char> {
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
pub(super) fn entry_in_table(text: &str, at: usize, msg: &str) -> Option<usize> {
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
                let (k, len) = leading_key(l)?;
                let hit = match (&unknown, &literal) {
                    (Some(u), _) => k == *u || k == format!("\"{u}\""),
                    (None, Some(lit)) => {
                        let value = l[len..].trim_start()[1..].split('#').next()?.trim();
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
                        } else if let Some(want) = lit.strip_prefix('"') {
                            // a string as TOML reads it: escapes (`"a\tb"`) and literal
                            // strings (`'a'`) written otherwise than the message quotes them
                            let want = want.strip_suffix('"').unwrap_or(want);
                            value.replace('_', "") == *lit
                                || format!("v = {value}")
                                    .parse::<toml::Table>()
                                    .ok()
                                    .and_then(|t| t.get("v")?.as_str().map(|v| v == want))
                                    .unwrap_or(false)
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
pub(super) fn with_ranges(msg: &str) -> String {
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
pub(super) fn backticked_after<'a>(msg: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = msg.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split('`').next()
}

pub(super) fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// 1-based line and column (in characters) of byte offset `at`.
pub(super) fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// The dotted TOML key at the start of `s` (bare, `"basic"` or `'literal'` parts, spaces
/// around the dots), as the messages name it: the parts joined by dots, a quoted part
/// unquoted when it could be written bare (`"x"` is `x`), else in double quotes; and the
/// byte length it takes in `s`. `None` when `s` does not start with a key.
pub(super) fn parse_key(s: &str) -> Option<(String, usize)> {
    let bare = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut name = String::new();
    let mut at = 0;
    loop {
        let rest = &s[at..];
        let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let rest = &rest[lead..];
        let (part, len) = match rest.chars().next()? {
            q @ ('"' | '\'') => {
                let mut end = None;
                let mut escaped = false;
                for (i, c) in rest.char_indices().skip(1) {
                    if c == '\n' {
                        break;
                    }
                    if q == '"' && escaped {
                        escaped = false;
                    } else if q == '"' && c == '\\' {
                        escaped = true;
                    } else if c == q {
                        end = Some(i);
                        break;
                    }
                }
                let end = end?;
                let inner = &rest[1..end];
                let part = if !inner.is_empty() && inner.chars().all(bare) {
                    inner.to_string()
                } else {
                    format!("\"{inner}\"")
                };
                (part, end + 1)
            }
            c if bare(c) => {
                let len = rest.find(|c: char| !bare(c)).unwrap_or(rest.len());
                (rest[..len].to_string(), len)
            }
            _ => return None,
        };
        name.push_str(&part);
        at += lead + len;
        let after = &s[at..];
        let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
        if after[gap..].starts_with('.') {
            name.push('.');
            at += gap + 1;
        } else {
            return Some((name, at));
        }
    }
}

/// `key` (as `parse_key` names it) and its length when `line` (already trimmed at the
/// start) starts with `key =`.
pub(super) fn leading_key(line: &str) -> Option<(String, usize)> {
    let (key, len) = parse_key(line)?;
    line[len..]
        .trim_start()
        .starts_with('=')
        .then_some((key, len))
}

/// The name in a table header line (`[a.b]`, or `[[pft]]` counted as `pft[i]` by `arrays`;
/// quoted parts as `parse_key` names them).
pub(super) fn header(line: &str, arrays: &mut Vec<(String, usize)>) -> Option<String> {
    let l = line.split('#').next().unwrap_or("").trim();
    // the whole name a key, nothing else inside the brackets
    let name_of = |inner: &str| -> Option<String> {
        let (name, len) = parse_key(inner)?;
        inner[len..].trim().is_empty().then_some(name)
    };
    if let Some(inner) = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]")) {
        let name = name_of(inner)?;
        let i = match arrays.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                arrays.push((name.clone(), 1));
                0
            }
        };
        return Some(format!("{name}[{i}]"));
    }
    let inner = name_of(l.strip_prefix('[')?.strip_suffix(']')?)?;
    // `[pft.k]` below `[[pft]]` is a table of the array's last element: `pft[0].k`
    let array = arrays
        .iter()
        .filter(|(n, _)| inner.starts_with(&format!("{n}.")))
        .max_by_key(|(n, _)| n.len());
    Some(match array {
        Some((n, count)) => format!("{n}[{}]{}", count - 1, &inner[n.len()..]),
        None => inner,
    })
}

/// `[` less `]` on `line` outside strings and its comment (a multi-line string's lines are
/// not told apart: a bracket in one may miscount, as the rest of this scan would).
fn open_brackets(line: &str) -> i64 {
    let mut n = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '#' => break,
                '[' => n += 1,
                ']' => n -= 1,
                _ => {}
            },
        }
    }
    n
}

/// The dotted key whose value (or name) is at byte offset `at`, found by scanning the lines:
/// the table header above it, the nearest `key =` at or above its line, and the key of an
/// inline table entry before it on its line. `None` when the text shows none.
pub(super) fn key_at(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let mut arrays = Vec::new();
    let mut table: Option<String> = None;
    let mut key: Option<(usize, String)> = None;
    let mut offset = 0;
    // brackets open on the lines above: inside a multi-line array a line is an element
    // (`["a"],` is no table header)
    let mut depth = 0i64;
    for line in text[..line_end].split('\n') {
        let start = offset;
        offset += line.len() + 1;
        let t = line.trim_start();
        let inside = depth > 0;
        depth = (depth + open_brackets(t)).max(0);
        if inside {
            continue;
        }
        if let Some(h) = header(t, &mut arrays) {
            depth = 0;
            table = Some(h);
            key = None;
            if start == line_start {
                return table;
            }
        } else if let Some((k, _)) = leading_key(t) {
            key = Some((start, k));
        } else if start == line_start
            && at == start + (line.len() - t.len())
            && t.contains('=')
            && !t.starts_with(['{', '[', '"', '\''])
        {
            // the line of `at` starts with what is not a key (`@ = 1`; not an element of a
            // multi-line array, `{ name = ... }`, nor a quoted key this scan could not
            // read): the key above is another entry's, not this one's
            return None;
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
                    .map(|(inner, _)| inner)
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

/// An unknown field of a flat inline table (`topology = { kind = "fat_tree", leafs = 4 }`,
/// which serde reports at the whole table): its key, `table.field`, and where it starts.
pub(super) fn inline_unknown(
    text: &str,
    at: usize,
    end: usize,
    what: &str,
) -> Option<(String, usize)> {
    let field = backticked_after(what, "unknown field ")?;
    // a flat table only: serde names a nested table's field at the outer table, where a
    // key of the same name may be a valid one
    let body = text
        .get(at..end)
        .filter(|t| t.starts_with('{') && !t[1..].contains('{'))?;
    let table = key_at(text, at)?;
    let i = inline_entry(body, field)?;
    Some((format!("{table}.{field}"), at + i))
}

/// Where the entry `path` (its first part) starts inside the inline table `table` (its text
/// from `{`): the key followed by `=` at the table's own level, outside strings (either
/// quote, a basic string's `\"` escapes) and nested tables or arrays.
pub(super) fn inline_entry(table: &str, path: &str) -> Option<usize> {
    let key = path.split(['.', '[']).next()?;
    let (mut quote, mut escaped, mut depth) = (None, false, 0i32);
    for (i, c) in table.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ if depth == 1 && table[i..].starts_with(key) => {
                let before = table[..i].chars().next_back();
                let after = table[i + key.len()..].trim_start();
                if matches!(before, Some('{' | ',' | ' ' | '\t')) && after.starts_with('=') {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}
