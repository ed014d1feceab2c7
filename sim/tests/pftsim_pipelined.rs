//! The `[[pft]]` key `pipelined` (docs/scenarios.md): `pipelined = true` runs the pipelined
//! build of the block at every NIC (docs/network.md, "Pipelined build"), through the
//! `pftsim run` code path, on the smoke scenario; `pipelined = false` is the entry without
//! the key, to the bit and to the scenario hash.

use pft_sim::scenario::output::scenario_sha256;
use pft_sim::scenario::{report, run, Progress, RunOutput, RunSpec, Scenario};

const SMOKE: &str = include_str!("../../scenarios/smoke.toml");

/// `smoke.toml` with its `hard` entry (FT-FI, a strong throttle) given `extra` keys.
fn smoke_hard(extra: &str) -> Scenario {
    let text = SMOKE.replace("name = \"hard\"", &format!("name = \"hard\"\n{extra}"));
    assert_ne!(text, SMOKE);
    let sc = Scenario::parse(&text).unwrap();
    sc.validate().unwrap();
    sc
}

/// The `hard` entry of `sc`, run.
fn run_hard(sc: &Scenario) -> RunOutput {
    let spec = RunSpec {
        label: "hard".into(),
        cc: sc.config_named("hard").unwrap(),
        congestors: true,
    };
    run::run(sc, &spec, &Progress::quiet()).unwrap()
}

#[test]
fn pipelined_true_changes_the_run_and_false_is_the_default() {
    let (none, off, on) = (
        smoke_hard(""),
        smoke_hard("pipelined = false"),
        smoke_hard("pipelined = true"),
    );
    let cfg = |sc: &Scenario| sc.pft_named("hard").unwrap().config();
    assert!(!cfg(&none).pipelined() && !cfg(&off).pipelined() && cfg(&on).pipelined());
    // `false` is the default: the same configuration, echo and hash as no key at all
    assert_eq!(cfg(&off), cfg(&none));
    assert_eq!(scenario_sha256(&off), scenario_sha256(&none));
    let echo = toml::to_string(&on).unwrap();
    assert!(echo.contains("pipelined = true"), "{echo}");
    assert!(!toml::to_string(&none).unwrap().contains("pipelined"));
    assert_eq!(
        cfg(&Scenario::parse(&echo).unwrap()),
        cfg(&on),
        "the echo reads back"
    );
    assert!(report::describe(&cfg(&on)).ends_with(" pipelined"));

    let (a, b, c) = (run_hard(&none), run_hard(&off), run_hard(&on));
    // bit-identical per-NIC rows and samples without the key and with `false`
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.cycles_run, b.cycles_run);
    assert_eq!(a.timeseries.samples(), b.timeseries.samples());
    // the congested run: the same seed, another run at the NICs that throttle
    let throttled: u64 = a.nodes.iter().map(|r| r.throttled_cycles).sum();
    assert!(
        throttled > 1000,
        "the smoke run hardly throttles: {throttled}"
    );
    let differ: Vec<u32> = a
        .nodes
        .iter()
        .zip(&c.nodes)
        .filter(|(x, y)| {
            x.flits_injected != y.flits_injected || x.throttled_cycles != y.throttled_cycles
        })
        .map(|(x, _)| x.node.0)
        .collect();
    assert!(
        !differ.is_empty(),
        "pipelined = true left every NIC's injected flits and throttled cycles unchanged"
    );
    assert_ne!(
        a.timeseries.samples(),
        c.timeseries.samples(),
        "the sampled c is the same"
    );
}

/// SMOKE with one `pft_rewrite` fault whose `pft` table is `pft`: `refused` is refused with an
/// error containing `error`, `accepted` (the same key at its default) is a plain rewrite.
fn check_rewrite(refused: &str, error: &str, accepted: &str) {
    let with = |pft: &str| {
        SMOKE.replace(
            "[workload]",
            &format!("[[network.faults]]\nkind = \"pft_rewrite\"\nat = 10\npft = {{ {pft} }}\n\n[workload]"),
        )
    };
    let e = Scenario::parse(&with(refused))
        .unwrap()
        .validate()
        .unwrap_err()
        .to_string();
    assert!(e.contains(error), "{e}");
    Scenario::parse(&with(accepted))
        .unwrap()
        .validate()
        .unwrap();
}

#[test]
fn a_register_rewrite_cannot_change_the_build() {
    // `false` (the default) is a plain rewrite
    check_rewrite(
        "pipelined = true",
        "`network.faults[0].pft.pipelined` = true: a register rewrite cannot change the block's build",
        "pipelined = false",
    );
}

#[test]
fn a_register_rewrite_cannot_change_the_clock() {
    // the default ratio, written out, changes nothing and is accepted
    check_rewrite(
        "m = 2, clock_ratio = 2.0",
        "`network.faults[0].pft.clock_ratio` = 2: a register rewrite cannot change the block's clock",
        "m = 2, clock_ratio = 1.0",
    );
}
