//! The conformance suite of the congestion-control plug-ins: every scheme in the registry
//! (`pft_sim::cc::KINDS`, in the configuration its `Plugin::example` gives) is run through
//! the same checks, so a scheme
//! gets them by being registered (docs/network.md, "Writing a congestion-control scheme"):
//!
//! - lossless, with the invariant checker on every cycle (credits conserved, buffers within
//!   their size, flits in order, the scheme's own counts equal to the buffers');
//! - it drains when the load stops (every accepted message delivered, no control packet
//!   left);
//! - deterministic (the same seed gives the same deliveries and counters);
//! - independent of the component evaluation order (forward, reverse, shuffled);
//! - a `[[cc]]` entry with an unknown key, or a key out of its range, is refused with the
//!   key's name (and the range).

use pft_sim::cc::{CcConfig, KINDS, OUT_OF_RANGE};
use pft_sim::net::{BernoulliSource, Delivery, EvalOrder, NetConfig, NodeId, Pattern};
use pft_sim::scenario::Scenario;
use pft_sim::{EngineKind, Network};

mod mix;
use mix::{small_fat_tree, Mix};

/// Load for this many cycles, then drain.
const LOAD_CYCLES: u64 = 6_000;

/// The shared small fat tree with buffers deep enough for PFT's default thresholds (0x250
/// and 0x2a0 credits) to be crossed.
fn cfg() -> NetConfig {
    NetConfig {
        link_gbps: 20.0, // 25.6 ns per cycle: timers in microseconds pass within the test
        buffer_flits: 1024,
        ..small_fat_tree()
    }
}

/// A uniform background and an incast to NIC 3, both stopping at `LOAD_CYCLES`.
fn mix(n: u32) -> Mix {
    Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.25, 1024, 64, 1).until(LOAD_CYCLES),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(3) }, 0.1, 2048, 64, 2)
            .until(LOAD_CYCLES),
        Vec::new(),
    )
}

/// What a run shows: its deliveries, every NIC's counters and the scheme's counters.
#[derive(Debug, PartialEq)]
struct Outcome {
    deliveries: Vec<Delivery>,
    stats: Vec<String>,
    accepted: u64,
    throttled: u64,
    congested: u64,
}

fn run(kind: &str, order: EvalOrder, seed: u64) -> Outcome {
    run_cc(
        kind,
        &CcConfig::example_of(kind).expect("a registered kind"),
        order,
        seed,
    )
}

fn run_cc(kind: &str, cc: &CcConfig, order: EvalOrder, seed: u64) -> Outcome {
    let net_cfg = CcConfig::example_net_of(kind, cfg()).expect("a registered kind");
    let mut net = Network::with_cc(&net_cfg, cc, EngineKind::Model, seed)
        .unwrap_or_else(|e| panic!("{kind}: the network is refused: {e}"));
    net.set_eval_order(order);
    let n = net.nodes();
    let mut w = mix(n);
    net.run(&mut w, LOAD_CYCLES)
        .unwrap_or_else(|e| panic!("{kind} ({order:?}): {e}"));
    let drained = net
        .run_until_idle(&mut w, 300_000)
        .unwrap_or_else(|e| panic!("{kind} ({order:?}) while draining: {e}"));
    assert!(
        drained,
        "{kind}: the network does not drain when the load stops"
    );
    net.check().unwrap();
    let t = net.total_stats();
    assert_eq!(
        t.messages_delivered, t.messages_accepted,
        "{kind}: messages lost"
    );
    assert_eq!(t.flits_injected, t.flits_ejected, "{kind}: data flits lost");
    assert_eq!(t.queued_flits, 0, "{kind}: flits left in send queues");
    assert_eq!(w.2.len() as u64, t.messages_accepted);
    let stats = (0..n)
        .map(|i| {
            format!(
                "{:?} {:?}",
                net.nic_stats(NodeId(i)),
                net.scheme_counters(NodeId(i))
            )
        })
        .collect();
    Outcome {
        deliveries: w.2,
        stats,
        accepted: t.messages_accepted,
        throttled: t.throttled_cycles,
        congested: t.congested_cycles,
    }
}

#[test]
fn every_scheme_is_lossless_drains_and_keeps_the_checker_quiet() {
    for &kind in KINDS {
        let o = run(kind, EvalOrder::Forward, 7);
        assert!(
            o.accepted > 200,
            "{kind}: {} messages: too little load",
            o.accepted
        );
        let active = CcConfig::example_of(kind).unwrap().active();
        if active {
            // The incast is heavy enough for any scheme to act on it.
            assert!(
                o.throttled + o.congested > 0,
                "{kind}: the scheme never acted (no throttled or congested cycle)"
            );
        } else {
            assert_eq!(o.throttled, 0, "{kind}: an inactive scheme throttled");
        }
    }
}

#[test]
fn every_scheme_is_deterministic_and_independent_of_evaluation_order() {
    for &kind in KINDS {
        let a = run(kind, EvalOrder::Forward, 11);
        let b = run(kind, EvalOrder::Forward, 11);
        assert_eq!(a, b, "{kind}: the same seed gave different results");
        for order in [EvalOrder::Reverse, EvalOrder::Shuffled(3)] {
            let c = run(kind, order, 11);
            assert_eq!(
                a, c,
                "{kind}: results depend on the evaluation order ({order:?})"
            );
        }
    }
}

/// A scenario whose only entry is a `[[cc]]` of `kind` with `extra` keys, on a 2 x 2 mesh
/// (switches linked to each other: a scheme may check its keys against the network, as
/// the self-tuned throttle derives its gather time and buffer count from it).
/// `summary.json`'s `cc_derived` is what the run used: the entry with those values
/// written in derives nothing more and runs the same, delivery for delivery.
#[test]
fn every_derived_value_is_the_one_the_run_uses() {
    let mut deriving = Vec::new();
    for kind in KINDS {
        let cc = CcConfig::example_of(kind).expect("a registered kind");
        let net = CcConfig::example_net_of(kind, cfg()).expect("a registered kind");
        let derived = cc.derived(&net);
        if derived.is_empty() {
            continue;
        }
        deriving.push(*kind);
        let mut t = toml::Value::try_from(&cc).expect("the entry serializes");
        let table = t.as_table_mut().expect("a table");
        // every derived value but the round trip's packet, which only derives others:
        // with those written it is not used, and setting it is refused
        for (k, v) in derived.iter().filter(|(k, _)| *k != "packet_bytes") {
            table.insert(k.clone(), toml::Value::Integer(*v as i64));
        }
        let written: CcConfig = t.try_into().unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert!(
            written.derived(&net).is_empty(),
            "{kind}: still derived with {derived:?} written: {:?}",
            written.derived(&net)
        );
        // (not assert_eq: the outcomes are thousands of deliveries long)
        assert!(
            run_cc(kind, &cc, EvalOrder::Forward, 5)
                == run_cc(kind, &written, EvalOrder::Forward, 5),
            "{kind}: the run with the derived values {derived:?} written differs"
        );
        eprintln!("{kind}: derived {derived:?}");
    }
    for kind in ["mvcm", "dcqcn", "renato"] {
        assert!(
            deriving.contains(&kind),
            "{kind} derives nothing: {deriving:?}"
        );
    }
}

/// A key the entry's mode leaves unread is not reported as derived either: writing the
/// derived values back must stay valid (DCQCN's Kmin under `pmax = 0`).
#[test]
fn a_key_the_mode_leaves_unread_is_not_derived() {
    let cc = CcConfig::example_of("dcqcn").expect("a registered kind");
    let net = CcConfig::example_net_of("dcqcn", cfg()).expect("a registered kind");
    let mut t = toml::Value::try_from(&cc).expect("the entry serializes");
    t.as_table_mut()
        .unwrap()
        .insert("pmax".into(), toml::Value::Float(0.0));
    let off: CcConfig = t.try_into().unwrap();
    let keys: Vec<String> = off.derived(&net).into_keys().collect();
    assert!(!keys.iter().any(|k| k == "kmin_bytes"), "{keys:?}");
    assert!(keys.iter().any(|k| k == "kmax_bytes"), "{keys:?}");
    assert!(cc.derived(&net).iter().any(|(k, _)| k == "kmin_bytes"));
}

fn scenario_with(kind: &str, extra: &str) -> Result<(), String> {
    let text = format!(
        "[network]\ntopology = {{ kind = \"mesh\", k = 2, n = 2 }}\n[workload]\nkind = \"uniform\"\n\n[[cc]]\nname = \"x\"\nkind = \"{kind}\"\n{extra}\n"
    );
    let mut sc = Scenario::parse(&text)?;
    // the network the scheme needs (`Plugin::example_net`: output queues, ACKs)
    if let Some(net) = CcConfig::example_net_of(kind, sc.network.clone()) {
        sc.network = net;
    }
    sc.validate().map_err(|e| e.to_string())
}

#[test]
fn every_scheme_refuses_unknown_and_out_of_range_keys_by_name() {
    for &kind in KINDS {
        scenario_with(kind, "").unwrap_or_else(|e| panic!("{kind}: defaults refused: {e}"));
        let e = scenario_with(kind, "no_such_key = 1").expect_err(kind);
        assert!(e.contains("no_such_key"), "{kind}: {e}");
    }
    for &(kind, bad) in OUT_OF_RANGE {
        let Some((key, value)) = bad else { continue };
        let e = scenario_with(kind, &format!("{key} = {value}")).expect_err(kind);
        assert!(
            e.contains(key),
            "{kind}: the error does not name `{key}`: {e}"
        );
        assert!(e.contains("..="), "{kind}: the error gives no range: {e}");
    }
    // A key the entry's mode leaves unread, set to other than its default, is named.
    for (kind, extra, key) in [
        ("mvcm", "validate = false\nwarm = false", "warm"),
        ("renato", "m = 4", "m"),
        ("dcqcn", "pmax = 0.0\nkmin_bytes = 1000", "kmin_bytes"),
    ] {
        let e = scenario_with(kind, extra).expect_err(kind);
        assert!(
            e.contains(&format!("x.{key}`")) || e.contains(&format!("{key}`")),
            "{kind}: {e}"
        );
        assert!(e.contains("used"), "{kind}: {e}");
    }
    // Every registered scheme is reachable by name, and nothing else is.
    assert!(CcConfig::default_of("no_such_scheme").is_none());
    let e = scenario_with("no_such_scheme", "").expect_err("an unknown kind");
    for &kind in KINDS {
        assert!(e.contains(kind), "the error does not list `{kind}`: {e}");
    }
}

/// The repository root (the workspace), from this crate's manifest.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn every_scheme_has_its_folder_and_docs_page() {
    for &kind in KINDS {
        let folder = root().join("sim/src/cc").join(kind).join("mod.rs");
        assert!(folder.is_file(), "{kind}: no {}", folder.display());
        let page = root().join("docs/cc").join(format!("{kind}.md"));
        let text = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("{kind}: no docs page {}: {e}", page.display()));
        assert!(text.contains(kind), "{kind}: its page does not name it");
        assert!(
            !CcConfig::example_of(kind).unwrap().label().is_empty(),
            "{kind}: empty report label"
        );
    }
}

/// Nothing under `sim/src/net/` imports `cc/` or names a scheme in code (comments may
/// mention PFT, the product; `pft_rewrite` and its `pft` table are the fault's file keys).
/// The words of `code`, lower case: identifiers split at `_` and at case changes
/// (`IbccNicStats` -> ibcc, nic, stats; `PFTState` -> pft, state).
fn words_of(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ident in code.split(|c: char| !c.is_ascii_alphanumeric()) {
        let start = out.len();
        let cs: Vec<char> = ident.chars().collect();
        let mut w = String::new();
        for (i, &c) in cs.iter().enumerate() {
            let prev_lower = i > 0 && cs[i - 1].is_ascii_lowercase();
            let acronym_end = i > 0
                && cs[i - 1].is_ascii_uppercase()
                && c.is_ascii_uppercase()
                && cs.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if c.is_ascii_uppercase() && (prev_lower || acronym_end) && !w.is_empty() {
                out.push(std::mem::take(&mut w));
            }
            w.push(c.to_ascii_lowercase());
        }
        if !w.is_empty() {
            out.push(w);
        }
        // two adjacent parts as one word too (`SelfTuned` -> selftuned)
        for i in start..out.len().saturating_sub(1) {
            let joined = format!("{}{}", out[i], out[i + 1]);
            out.push(joined);
        }
    }
    out
}

#[test]
fn words_split_at_underscores_and_case() {
    assert_eq!(
        words_of("IbccNicStats x_mvcm"),
        ["ibcc", "nic", "stats", "ibccnic", "nicstats", "x", "mvcm"]
    );
    assert_eq!(
        words_of("PFTState::new()"),
        ["pft", "state", "pftstate", "new"]
    );
    assert!(words_of("SelfTunedState").contains(&"selftuned".to_string()));
}

#[test]
fn the_network_core_names_no_scheme() {
    // The names no file of the core may use: every registered scheme's kind (from the
    // registry, so a new scheme is covered by its line), the path to the schemes, and IB
    // CC's protocol words. `none` is left out: it is the absence of a scheme (and Rust's
    // `None`). A name counts as a whole word or a `_`-separated part of an identifier.
    let mut names: Vec<String> = KINDS
        .iter()
        .filter(|k| **k != "none")
        .map(|k| k.to_string())
        .collect();
    names.extend(["fecn", "becn", "cnp"].map(String::from));
    assert!(names.len() >= 6, "{names:?}");
    let mut files = Vec::new();
    let mut dirs = vec![root().join("sim/src/net")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    assert!(
        files
            .iter()
            .any(|p| p.to_string_lossy().contains("net/topology/")),
        "net/topology/ not read"
    );
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap().to_lowercase();
            if code.contains("pft_rewrite") || code.contains("rename = \"pft\"") {
                continue;
            }
            if code.trim_start().starts_with("pft = {") {
                continue; // a fault table inside a test's TOML text
            }
            assert!(
                !code.contains("crate::cc"),
                "{}:{}: `crate::cc` in the network core: {line}",
                p.display(),
                i + 1
            );
            let code_cased = line.split("//").next().unwrap();
            for w in words_of(code_cased) {
                assert!(
                    !names.contains(&w),
                    "{}:{}: `{w}` in the network core: {line}",
                    p.display(),
                    i + 1
                );
            }
        }
    }
    assert!(files.len() > 10, "{} files read", files.len());
}
