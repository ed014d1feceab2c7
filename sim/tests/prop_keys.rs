//! Every key of every registered scheme, network, topology and workload at its boundary
//! values (issue 36, class 2): no panic, and a refusal names the full key
//! (`cc[0].packet_bytes`, never the bare entry `cc[0]`).
//!
//! The key list is not written here: each table's keys come from the scenario parser's own
//! "unknown field" answer (serde's list of the type's fields, or the PFT register map's),
//! and the kinds from its "unknown variant" answer and `cc::KINDS` (the registry). A key's
//! `max` is the top of the range its refusal of a huge value states. Every (key, value)
//! pair runs in-process through `Scenario::check_text` (the one validation of `check`,
//! `run`, `compare` and `sweep`); a sample runs through the real `pftsim check`.

use pft_sim::scenario::{Refused, Scenario};
use std::panic::{catch_unwind, AssertUnwindSafe};

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// A valid base every scheme accepts: a 2-ary 2-fly of CIOQ switches with ACKs (MVCM and
/// Renato's proposal need both), uniform traffic.
const BASE: &str = r#"name = "keys"
[cycles]
max = 1000
[network]
topology = { kind = "kary_nfly", k = 2, n = 2 }
flit_bytes = 8
mtu_bytes = 64
buffer_flits = 64
eject_buffer_flits = 64
speedup = 2
ack_bytes = 8
[workload]
kind = "uniform"
load = 0.3
msg_bytes = 64
"#;

/// Where a key lives: the table path in the scenario (`cc[0]` is `["cc", "0"]`), and the
/// scenario text with that table present (its kind set).
struct Place {
    /// The dotted name of the table in messages (`network`, `cc[0]`, `""` at the top).
    name: String,
    /// The table's path: names, and `#0` for the first element of an array of tables.
    path: Vec<String>,
    /// The base text with the table present.
    text: String,
}

fn table(text: &str) -> toml::Table {
    toml::from_str(text).expect("a base parses")
}

/// The keys the parser lists for the table of `place`: set an unknown key there and read
/// the refusal ("expected one of `a`, `b`", "allowed keys: a, b", "there are no fields").
fn keys_of(place: &Place) -> Vec<String> {
    let text = set(place, "zz_unknown_key", toml::Value::Integer(1));
    let msg = match Scenario::check_text(&text) {
        Err(Refused::Parse(m)) => m,
        other => panic!(
            "{}: an unknown key was not refused: {:?}",
            place.name,
            other.err().map(|_| ())
        ),
    };
    if msg.contains("there are no fields") {
        return Vec::new();
    }
    let list = if let Some(i) = msg.find("expected one of ") {
        let rest = &msg[i + "expected one of ".len()..];
        let end = rest.find('\n').unwrap_or(rest.len());
        rest[..end]
            .split(", ")
            .map(|k| k.trim().trim_matches('`').to_string())
            .collect::<Vec<_>>()
    } else if let Some(i) = msg.find("(allowed keys: ") {
        let rest = &msg[i + "(allowed keys: ".len()..];
        rest[..rest.find(')').unwrap()]
            .split(", ")
            .map(str::to_string)
            .collect()
    } else if let Some(i) = msg.find("expected `") {
        // two fields: "expected `a` or `b`"
        msg[i + "expected ".len()..]
            .lines()
            .next()
            .unwrap()
            .split(" or ")
            .map(|k| k.trim().trim_matches('`').to_string())
            .collect()
    } else {
        panic!("{}: no key list in {msg}", place.name)
    };
    assert!(!list.is_empty(), "{}: {msg}", place.name);
    list
}

/// The kinds a refusal lists for a tagged table: set `kind` to an unknown one.
fn kinds_of(place: &Place) -> Vec<String> {
    let text = set(place, "kind", toml::Value::String("zz_unknown".into()));
    let Err(Refused::Parse(msg)) = Scenario::check_text(&text) else {
        panic!("{}: an unknown kind was not refused", place.name)
    };
    const LIST: &str = "the allowed kinds are ";
    let i = msg
        .find(LIST)
        .unwrap_or_else(|| panic!("{}: {msg}", place.name));
    let rest = &msg[i + LIST.len()..];
    rest[..rest.find('\n').unwrap_or(rest.len())]
        .split(", ")
        .map(|k| k.trim().trim_matches('`').to_string())
        .collect()
}

/// `place`'s text with `key` = `v` in its table.
fn set(place: &Place, key: &str, v: toml::Value) -> String {
    let mut t = table(&place.text);
    let mut cur = &mut t;
    let mut path = place.path.iter().peekable();
    while let Some(p) = path.next() {
        let next = cur.get_mut(p.as_str()).expect("the place's table exists");
        cur = match next {
            toml::Value::Array(a) => {
                let i: usize = path
                    .next()
                    .unwrap()
                    .trim_start_matches('#')
                    .parse()
                    .unwrap();
                a[i].as_table_mut().unwrap()
            }
            toml::Value::Table(t) => t,
            _ => panic!("{}: not a table", place.name),
        };
    }
    cur.insert(key.to_string(), v);
    toml::to_string(&t).unwrap()
}

fn place(name: &str, path: &[&str], text: String) -> Place {
    Place {
        name: name.to_string(),
        path: path.iter().map(|s| s.to_string()).collect(),
        text,
    }
}

/// Every table of a scenario that holds keys: the top, `[cycles]`, `[timeseries]`,
/// `[network]`, each topology kind, each workload kind, `[[pft]]` and each `[[cc]]` kind.
fn places() -> Vec<Place> {
    let mut v = vec![
        place("", &[], BASE.to_string()),
        place("cycles", &["cycles"], BASE.to_string()),
        place(
            "timeseries",
            &["timeseries"],
            format!("{BASE}[timeseries]\nperiod = 100\n"),
        ),
        place("network", &["network"], BASE.to_string()),
        place(
            "pft[0]",
            &["pft", "#0"],
            format!("{BASE}[[pft]]\nname = \"p\"\n"),
        ),
    ];
    let topo = place(
        "network.topology",
        &["network", "topology"],
        BASE.to_string(),
    );
    for kind in kinds_of(&topo) {
        // each kind with the keys it requires left out: the parser names them in turn
        let mut t = table(BASE);
        t["network"]["topology"] = toml::Value::Table(
            [("kind".to_string(), toml::Value::String(kind.clone()))]
                .into_iter()
                .collect(),
        );
        v.push(place(
            "network.topology",
            &["network", "topology"],
            toml::to_string(&t).unwrap(),
        ));
    }
    let wl = place("workload", &["workload"], BASE.to_string());
    for kind in kinds_of(&wl) {
        let mut t = table(BASE);
        t["workload"] = toml::Value::Table(
            [("kind".to_string(), toml::Value::String(kind.clone()))]
                .into_iter()
                .collect(),
        );
        v.push(place(
            "workload",
            &["workload"],
            toml::to_string(&t).unwrap(),
        ));
    }
    for kind in pft_sim::cc::KINDS {
        v.push(place(
            "cc[0]",
            &["cc", "#0"],
            format!("{BASE}[[cc]]\nname = \"c\"\nkind = \"{kind}\"\n"),
        ));
    }
    v
}

/// The boundary values of a key: 0, 1, -1, `max` and `max + 1` (when its refusal of a huge
/// value states a range), huge, NaN, infinities, a fraction, an empty string, array and
/// table, a boolean and a word.
fn values(max: Option<i64>) -> Vec<toml::Value> {
    use toml::Value::*;
    let mut v = vec![
        Integer(0),
        Integer(1),
        Integer(-1),
        Integer(i64::MAX),
        Integer(i64::MIN),
        Integer(u32::MAX as i64 + 1),
        Float(f64::NAN),
        Float(f64::INFINITY),
        Float(f64::NEG_INFINITY),
        Float(0.5),
        Float(0.0),
        String(std::string::String::new()),
        String("x".into()),
        Array(vec![]),
        Array(vec![Integer(-1)]),
        Table(toml::Table::new()),
        Boolean(true),
    ];
    if let Some(m) = max {
        v.push(Integer(m));
        v.push(Integer(m.saturating_add(1)));
    }
    v
}

/// The top of the first `..=N` range in `msg`.
fn range_top(msg: &str) -> Option<i64> {
    let i = msg.find("..=")?;
    let digits: String = msg[i + 3..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The outcome of one scenario text: None when accepted, else the refusal's text and
/// whether it is a parse error. Panics are caught and reported.
fn outcome(text: &str) -> Result<Option<(String, Vec<String>)>, String> {
    catch_unwind(AssertUnwindSafe(|| match Scenario::check_text(text) {
        Ok(_) => None,
        Err(Refused::Parse(m)) => Some((m, Vec::new())),
        Err(Refused::Invalid(e)) => {
            Some((e.to_string(), e.0.iter().map(|f| f.field.clone()).collect()))
        }
    }))
    .map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// Every (place, key, value) case, with the key's full name.
fn all_cases() -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for p in places() {
        assert!(
            matches!(outcome(&p.text), Ok(None) | Ok(Some(_))),
            "{}",
            p.name
        );
        // a base the place makes invalid (GPCNeT on 4 NICs, a topology kind without
        // its sizes) is checked for panics only: its refusal is about other keys
        let base_ok = matches!(outcome(&p.text), Ok(None));
        for key in keys_of(&p) {
            if key == "kind" {
                continue; // the kinds are the places
            }
            let full = if p.name.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", p.name)
            };
            let huge = set(&p, &key, toml::Value::Integer(i64::MAX));
            let max = match outcome(&huge) {
                Ok(Some((m, _))) => range_top(&m).filter(|&m| m < i64::MAX),
                _ => None,
            };
            for v in values(max) {
                let text = set(&p, &key, v.clone());
                out.push((full.clone(), text, base_ok));
            }
        }
    }
    out
}

/// True when the refusal names `full`: an error at it (or inside it), or its text quoting
/// it (a rule about two keys names the one it judges and the other in its text).
fn names_key(msg: &str, fields: &[String], full: &str) -> bool {
    fields.iter().any(|f| {
        f == full || f.starts_with(&format!("{full}.")) || f.starts_with(&format!("{full}["))
    }) || msg.contains(full)
}

/// The checks every case must pass: no panic, no error at a bare entry (`cc[0]`), no
/// range a user cannot meet (`2..=1`).
#[test]
fn every_key_at_its_boundaries() {
    let (bad, _) = judge();
    assert!(bad.is_empty(), "{} cases:\n{}", bad.len(), bad.join("\n\n"));
}

/// The refusal names the full key and states the key's own range (not its storage
/// type's), on every place whose base is valid: a wrong type inside an internally tagged
/// table (`[workload]`, `[[cc]]`), which serde reports without a position, included.
#[test]
fn every_refusal_names_its_key() {
    let (_, gaps) = judge();
    assert!(
        gaps.is_empty(),
        "{} cases:\n{}",
        gaps.len(),
        gaps.join("\n\n")
    );
}

/// (failures, naming gaps) over every case.
fn judge() -> (Vec<String>, Vec<String>) {
    let cases = all_cases();
    assert!(
        cases.len() > 1000,
        "only {} cases: the key list is short",
        cases.len()
    );
    let mut bad = Vec::new();
    let mut gaps = Vec::new();
    let mut keys = std::collections::BTreeSet::new();
    for (full, text, base_ok) in &cases {
        keys.insert(full.clone());
        match outcome(text) {
            Err(p) => bad.push(format!("{full}: panicked: {p}\n{text}")),
            Ok(None) => {}
            Ok(Some((msg, fields))) => {
                for f in &fields {
                    if f == "cc[0]" || f == "pft[0]" {
                        bad.push(format!(
                            "{full}: an error names the bare entry `{f}`: {msg}"
                        ));
                    }
                }
                if msg.contains("18446744073709551615") {
                    gaps.push(format!("{full}: a storage type's range: {msg}"));
                }
                if *base_ok && !names_key(&msg, &fields, full) {
                    gaps.push(format!(
                        "{full}: the refusal does not name the key: {msg}\n{text}"
                    ));
                }
                let mut rest = msg.as_str();
                while let Some(i) = rest.find("..=") {
                    let lo: String = rest[..i]
                        .chars()
                        .rev()
                        .take_while(|c| c.is_ascii_digit())
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    if let (Ok(lo), Some(hi)) = (lo.parse::<i64>(), range_top(&rest[i..])) {
                        if lo > hi {
                            bad.push(format!("{full}: an empty range {lo}..={hi}: {msg}"));
                        }
                    }
                    rest = &rest[i + 3..];
                }
            }
        }
    }
    // the derived list holds every scheme's and the network's keys
    for k in [
        "cc[0].packet_bytes",
        "cc[0].threshold",
        "cc[0].m",
        "cc[0].ws_max_incs",
        "network.deadlock_cycles",
        "network.topology.k",
        "workload.ppn",
        "pft[0].r_width",
    ] {
        assert!(keys.contains(k), "{k} is not in the derived key list");
    }
    (bad, gaps)
}

/// A sample of the cases through the real binary: exit 0 or 1, never a panic, and an
/// `error:` naming the key on a refusal.
#[test]
fn a_sample_through_pftsim_check() {
    let cases = all_cases();
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("prop_keys");
    std::fs::create_dir_all(&d).unwrap();
    let step = (cases.len() / 40).max(1);
    for (full, text, _) in cases.iter().step_by(step) {
        std::fs::write(d.join("s.toml"), text).unwrap();
        let o = std::process::Command::new(PFTSIM)
            .args(["check", "s.toml"])
            .current_dir(&d)
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let code = o.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "{full}: exit {code:?}\n{err}"
        );
        assert!(!err.contains("panicked"), "{full}: {err}");
        if code == Some(1) {
            assert!(err.starts_with("error:"), "{full}: {err}");
        }
    }
}
