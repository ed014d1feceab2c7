//! `scenario::run` on the smoke scenario: GPCNeT's work done rises to 1 exactly when the
//! canaries finish, and the progress bar does not change a run. (Moved here from
//! `src/scenario/run.rs`'s unit tests, which kept that file under 700 lines.)

use pft_sim::cc::{CcConfig, Network};
use pft_sim::scenario::run::{run, RunSpec};
use pft_sim::scenario::{Progress, Scenario};

const SMOKE: &str = include_str!("../../scenarios/smoke.toml");

/// The smoke scenario's GPCNeT run (with two latency rings, so that a ring ends inside
/// a test) with PFT off, stepped by hand: `work_done` after every cycle, and the cycle in
/// which the canaries finished.
fn smoke_work_done() -> (Vec<f64>, Option<u64>) {
    let text = SMOKE.replace("lat_rings = 1", "lat_rings = 2");
    assert_ne!(text, SMOKE);
    let sc = Scenario::parse(&text).unwrap();
    sc.validate().unwrap();
    let net_cfg = &sc.network;
    let mut w = sc
        .workload
        .build_at(sc.nodes(), net_cfg.flit_bytes, net_cfg.link_gbps, sc.seed)
        .unwrap();
    let mut net =
        Network::with_cc_on(net_cfg, &CcConfig::none(), sc.engine, sc.seed, None).expect("network");
    let mut seen = vec![w.work_done().expect("GPCNeT reports its work")];
    let mut finished_at = None;
    while net.now() < sc.cycles.max && finished_at.is_none() {
        net.step(&mut w).unwrap();
        seen.push(w.work_done().unwrap());
        if w.finished() {
            finished_at = Some(net.now());
        }
    }
    (seen, finished_at)
}

#[test]
fn gpcnet_work_done_rises_monotonically_to_one_at_the_end() {
    let (seen, finished_at) = smoke_work_done();
    assert!(finished_at.is_some(), "the smoke run must finish");
    assert_eq!(seen[0], 0.0);
    assert_eq!(*seen.last().unwrap(), 1.0);
    for (t, p) in seen.windows(2).enumerate() {
        assert!(
            p[1] >= p[0],
            "work done fell in cycle {t}: {} -> {}",
            p[0],
            p[1]
        );
    }
    // 1 only at the end, and no share reached long before it: the run's second half
    // starts below 100 % and its first half ends above 10 %
    let n = seen.len();
    assert!(seen[..n - 1].iter().all(|&p| p < 1.0));
    assert!(
        seen[n / 2] < 1.0 && seen[n / 2] > 0.1,
        "mid-run share {}",
        seen[n / 2]
    );
}

#[test]
fn the_progress_bar_does_not_change_the_run() {
    let sc = Scenario::parse(SMOKE).unwrap();
    let spec = RunSpec {
        label: "off".into(),
        cc: CcConfig::none(),
        congestors: true,
    };
    let quiet = run(&sc, &spec, &Progress::quiet()).unwrap();
    let drawn = run(&sc, &spec, &Progress::new()).unwrap();
    assert_eq!(quiet.cycles_run, drawn.cycles_run);
    assert_eq!(quiet.nodes, drawn.nodes);
    assert_eq!(quiet.victims, drawn.victims);
}
