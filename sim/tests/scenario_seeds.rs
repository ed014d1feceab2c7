//! Every seed of the default scenario finishes (issue 20, item 3). `scenarios/default.toml`
//! with PFT off, its canary tests shortened (latency and allreduce 20 iterations, bandwidth
//! 3) so that twenty seeds take about a minute on two cores, seeds 1..=20: each run must end
//! with every canary test finished and no error. Before the arbitration fix (docs/network.md,
//! "Arbitration") seeds 8 and 9 never finished; the same copy with `arbitration = "bypass"`
//! at seed 8 must be stopped by the class-stall watchdog, naming the class.

use pft_sim::net::Arbitration;
use pft_sim::scenario::{run, run_spec, Progress, Scenario};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

fn short_default(seed: u64) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/default.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace("lat_iters = 50", "lat_iters = 20")
        .replace("bw_iters = 8", "bw_iters = 3")
        .replace("allreduce_iters = 50", "allreduce_iters = 20");
    assert_ne!(
        text,
        std::fs::read_to_string(&path).unwrap(),
        "keys renamed?"
    );
    let mut sc = Scenario::parse(&text).unwrap();
    sc.seed = seed;
    sc.isolated = Some(false);
    sc
}

#[test]
fn default_scenario_finishes_at_seeds_1_to_20() {
    let next = AtomicU64::new(1);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::SeqCst);
                if seed > 20 {
                    break;
                }
                let sc = short_default(seed);
                let spec = run_spec(&sc, "off").unwrap();
                let r = run::run(&sc, &spec, &Progress::quiet());
                let bad = match r {
                    Err(e) => Some(format!("seed {seed}: {e:#}")),
                    Ok(o) if !o.finished => Some(format!(
                        "seed {seed}: not finished after {} cycles",
                        o.cycles_run
                    )),
                    Ok(o) => {
                        println!("seed {seed}: finished in {} cycles", o.cycles_run);
                        None
                    }
                };
                if let Some(b) = bad {
                    failures.lock().unwrap().push(b);
                }
            });
        }
    });
    let f = failures.into_inner().unwrap();
    assert!(f.is_empty(), "{}", f.join("\n"));
}

#[test]
fn the_old_arbitration_stalls_at_seed_8_and_is_named() {
    let mut sc = short_default(8);
    sc.network.arbitration = Arbitration::Bypass;
    let spec = run_spec(&sc, "off").unwrap();
    let Err(e) = run::run(&sc, &spec, &Progress::quiet()) else {
        panic!("seed 8 with bypass finished: it should stall")
    };
    let m = format!("{e:#}");
    assert!(
        m.contains("stalled") && m.contains("traffic class `"),
        "{m}"
    );
    assert!(m.contains("network.stall_cycles = 1000000"), "{m}");
}
