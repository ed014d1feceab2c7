//! Arrays in a scenario's text: which element of an array serde refused, and where each
//! element is (`nics = [0, -1]`, `cc = [{ ... }, { ... }]`).

use super::text::{backticked_after, inline_entry, leading_key};
use super::{culprit, value_at, Scenario};

/// The index of the element of the array at `key` that `msg` refuses: the first whose
/// value the message quotes ("integer `-1`", "string \"x\"", "unknown variant `x`", ...;
/// serde stops at the first element it refuses, so an earlier equal one cannot exist).
/// None when `key` is no array or no element matches.
pub(super) fn element_index(text: &str, key: &str, msg: &str) -> Option<usize> {
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
pub(super) fn element_span(text: &str, entry_at: usize, index: usize) -> Option<(usize, usize)> {
    array_elements(text, entry_at)?.get(index).copied()
}

/// The byte ranges of the elements of the array whose `key = [` entry starts at `entry_at`
/// (it may span lines; strings, nested arrays and tables, and comments are skipped). None
/// when the value is no array or does not end.
pub(super) fn array_elements(text: &str, entry_at: usize) -> Option<Vec<(usize, usize)>> {
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

/// An inline array of tables (`cc = [{ name = "x", kind = "ibcc" }, { ... }]`) whose
/// element serde refused, where serde names only the array (or, from the text, the array
/// and a key of an element: `pft.m`): the key in the element (`cc[1].pmax`, `cc[1].kind`,
/// or `cc[1]`) and the byte range to show. serde points at the element (a PFT entry) or at
/// the whole array (a tagged `[[cc]]` entry); in the second case the element is the first
/// whose array, cut after it, fails with the same message `what` (serde's own). Inside the
/// element the key is found as in a `[[cc]]` table: an unknown key by its name, a missing
/// one by the message, any other by `culprit`. None when neither `key` nor its parent is
/// an array of tables in the text.
pub(super) fn inline_element(
    text: &str,
    key: &str,
    at: usize,
    what: &str,
) -> Option<(String, usize, usize)> {
    let mut table: toml::Table = toml::from_str(text).ok()?;
    let array = std::iter::once(key)
        .chain(key.rsplit_once('.').map(|(parent, _)| parent))
        .find(|k| {
            value_at(&mut table, k)
                .and_then(|v| v.as_array())
                .is_some_and(|a| !a.is_empty() && a.iter().all(toml::Value::is_table))
        })?;
    let n = value_at(&mut table, array)?.as_array()?.len();
    let name = array.rsplit('.').next()?;
    let elements = array_elements(text, entry_line_before(text, at, name)?)?;
    if elements.len() != n {
        return None;
    }
    let i = match elements
        .iter()
        .position(|&(from, to)| from <= at && at < to)
    {
        Some(i) => i,
        None => (0..n).find(|&i| {
            let mut t = table.clone();
            let Some(a) = value_at(&mut t, array).and_then(toml::Value::as_array_mut) else {
                return false;
            };
            a.truncate(i + 1);
            toml::Value::Table(t)
                .try_into::<Scenario>()
                .is_err_and(|e| e.message().trim_end() == what)
        })?,
    };
    let (from, to) = elements[i];
    let element = format!("{array}[{i}]");
    let named = backticked_after(what, "unknown field ")
        .or(backticked_after(what, "unknown key "))
        .or(backticked_after(what, "key "))
        .map(str::to_string);
    if let Some(k) = backticked_after(what, "missing field ") {
        return Some((format!("{element}.{k}"), from, to));
    }
    // an unknown tag or value names the value (`unknown variant `x``): the key holding it
    let quoted =
        backticked_after(what, "unknown variant ").or(backticked_after(what, "unknown value "));
    let holding = quoted.and_then(|q| {
        let el = value_at(&mut table, &element)?.as_table()?;
        let mut keys = el
            .iter()
            .filter(|(_, v)| v.as_str() == Some(q))
            .map(|(k, _)| k);
        match (keys.next(), keys.next()) {
            (Some(k), None) => Some(k.clone()),
            _ => None,
        }
    });
    let inner = named
        .or(holding)
        .or_else(|| culprit(text, &element, true).map(|(path, _)| path));
    match inner.and_then(|p| inline_entry(&text[from..to], &p).map(|j| (p, from + j))) {
        Some((p, kat)) => {
            let first = p.split(['.', '[']).next().unwrap_or(&p).len();
            Some((format!("{element}.{p}"), kat, kat + first))
        }
        None => Some((element, from, to)),
    }
}

/// The start of the last line before `at` (or at's own) whose entry is `name = ...`.
fn entry_line_before(text: &str, at: usize, name: &str) -> Option<usize> {
    let mut found = None;
    let mut offset = 0;
    for l in text[..at].split('\n') {
        let t = l.trim_start();
        if leading_key(t).is_some_and(|(k, _)| k == name) {
            found = Some(offset + l.len() - t.len());
        }
        offset += l.len() + 1;
    }
    found
}
