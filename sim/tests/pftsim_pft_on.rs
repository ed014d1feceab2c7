//! `[[pft]]` entries with `classes` or `nics`: PFT runs only at the chosen NICs (the others
//! keep their block disabled), through the `pftsim run` code path, on the smoke scenario.

use pft_sim::scenario::{run, Progress, RunOutput, RunSpec, Scenario};

const SMOKE: &str = include_str!("../../scenarios/smoke.toml");

/// `smoke.toml` with its `hard` entry (FT-FI, a strong throttle) given `extra` keys, run.
fn run_hard(extra: &str) -> RunOutput {
    let text = SMOKE.replace("name = \"hard\"", &format!("name = \"hard\"\n{extra}"));
    assert_ne!(text, SMOKE);
    let sc = Scenario::parse(&text).unwrap();
    sc.validate().unwrap();
    let cc = sc.config_named("hard").unwrap();
    let spec = RunSpec {
        label: "hard".into(),
        cc,
        congestors: true,
    };
    run::run(&sc, &spec, &Progress::quiet()).unwrap()
}

#[test]
fn classes_and_nics_choose_where_pft_runs() {
    let all = run_hard("");
    let cong = run_hard("classes = [\"congestor\"]");
    let canary_throttled = |o: &RunOutput| -> u64 {
        o.nodes
            .iter()
            .filter(|r| r.class == "canary")
            .map(|r| r.throttled_cycles)
            .sum()
    };
    let congestor_throttled = |o: &RunOutput| -> u64 {
        o.nodes
            .iter()
            .filter(|r| r.class != "canary")
            .map(|r| r.throttled_cycles)
            .sum()
    };
    // with PFT everywhere the canaries are throttled too; with congestors only, never
    assert!(
        canary_throttled(&all) > 0,
        "the hard throttle must touch canaries"
    );
    assert_eq!(canary_throttled(&cong), 0);
    for r in cong.nodes.iter().filter(|r| r.class == "canary") {
        assert_eq!(r.frac_congested, 0.0, "canary NIC {} has PFT off", r.node);
    }
    assert!(congestor_throttled(&cong) > 0, "the congestors keep PFT");
    // a NIC list: only the listed NICs may throttle
    let listed = run_hard("nics = [0, 1]");
    for r in &listed.nodes {
        if r.node.0 > 1 {
            assert_eq!(r.throttled_cycles, 0, "NIC {} is not listed", r.node);
        }
    }
    // deterministic
    assert_eq!(
        run_hard("classes = [\"congestor\"]").nodes,
        cong.nodes,
        "two runs differ"
    );
}
