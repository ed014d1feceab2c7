//! Unit tests of `scenario::estimate`.

use super::*;

/// GPCNeT on the default 120-NIC fat tree with `ppn` processes per NIC.
fn gpcnet(ppn: u32) -> Scenario {
    Scenario::parse(&format!(
        "[cycles]\nmax = 100000\n[workload]\nkind = \"gpcnet\"\nppn = {ppn}\n"
    ))
    .unwrap()
}

#[test]
fn a_large_gpcnet_scenario_is_calibrated_on_fewer_processes() {
    for ppn in [273, 274, 1024] {
        let sc = gpcnet(ppn);
        sc.validate().unwrap();
        let (cal, scale) = calibration_copy(&sc);
        let g = cal.gpcnet().unwrap();
        assert!(
            sc.nodes() as u64 * g.ppn as u64 <= CALIBRATION_PROCESSES,
            "ppn {ppn}: the copy has {} processes",
            sc.nodes() * g.ppn
        );
        assert_eq!(g.ppn, (CALIBRATION_PROCESSES / 120).min(ppn as u64) as u32);
        assert_eq!(scale, ppn as f64 / g.ppn as f64);
        cal.validate().unwrap();
        // nothing but ppn changes
        let mut back = cal.clone();
        if let WorkloadConfig::Gpcnet(g) = &mut back.workload {
            g.ppn = ppn;
        }
        assert_eq!(back, sc);
    }
    // small enough: the scenario itself
    let sc = gpcnet(16);
    assert_eq!(calibration_copy(&sc), (sc.clone(), 1.0));
}

#[test]
fn phases_are_calibrated_on_the_busiest_one_as_a_steady_load() {
    let sc = Scenario::parse(
        "[network]\nflit_bytes = 64\n[workload]\nkind = \"uniform\"\nmsg_bytes = 1024\n\
         [[workload.phases]]\ncycles = 5000\ninterval_cycles = 1500\n\
         [[workload.phases]]\ncycles = 100\ninterval_cycles = 32\n\
         pattern = { kind = \"shift\", by = 3 }\n",
    )
    .unwrap();
    let (cal, scale) = calibration_copy(&sc);
    assert_eq!(scale, 1.0);
    let WorkloadConfig::Uniform(u) = &cal.workload else {
        panic!("uniform")
    };
    assert!(u.phases.is_empty());
    assert_eq!(u.load, 0.5, "16 flits every 32 cycles");
    assert_eq!(u.pattern.kind(), "shift");
    cal.validate().unwrap();
}

#[test]
fn distinct_phases_are_weighed_by_their_share_of_a_pass() {
    let sc = Scenario::parse(
        "[network]\nflit_bytes = 64\n[workload]\nkind = \"uniform\"\nmsg_bytes = 1024\n\
         [[workload.phases]]\ncycles = 3000\ninterval_cycles = 1500\n\
         [[workload.phases]]\ncycles = 500\ninterval_cycles = 32\n\
         [[workload.phases]]\ncycles = 1000\ninterval_cycles = 1500\n\
         [[workload.phases]]\ncycles = 500\ninterval_cycles = 32\n\
         pattern = { kind = \"shift\", by = 3 }\n",
    )
    .unwrap();
    let parts = phase_copies(&sc);
    let got: Vec<(f64, &str, f64)> = parts
        .iter()
        .map(|(c, w)| {
            let WorkloadConfig::Uniform(u) = &c.workload else {
                panic!("uniform")
            };
            assert!(u.phases.is_empty());
            c.validate().unwrap();
            (u.load, u.pattern.kind(), *w)
        })
        .collect();
    // the quiet phases together (4,000 of 5,000 cycles), each busy pattern apart
    assert_eq!(
        got,
        vec![
            (16.0 / 1500.0, "uniform", 0.8),
            (0.5, "uniform", 0.1),
            (0.5, "shift", 0.1)
        ]
    );
    // one distinct phase, or none: nothing to weigh
    let one = Scenario::parse(
        "[network]\nflit_bytes = 64\n[workload]\nkind = \"uniform\"\nmsg_bytes = 1024\n\
         [[workload.phases]]\ncycles = 3000\ninterval_cycles = 15\n\
         [[workload.phases]]\ncycles = 500\ninterval_cycles = 15\n",
    )
    .unwrap();
    assert!(phase_copies(&one).is_empty());
    let steady = "[workload]\nkind = \"uniform\"\nmsg_bytes = 1024\n";
    assert!(phase_copies(&Scenario::parse(steady).unwrap()).is_empty());
}

#[test]
fn short_commands_are_estimated_in_tenths_of_a_second() {
    assert_eq!(duration(0.3), "0.3 s");
    assert_eq!(duration(9.9), "9.9 s");
    assert_eq!(duration(12.4), "12 s");
    assert_eq!(duration(600.0), "10.0 min");
}

#[test]
fn growth_is_the_slope_of_the_last_two_trials_above_noise() {
    let mib = 1024.0 * 1024.0;
    assert_eq!(growth_per_cycle(&[]), 0.0);
    assert_eq!(growth_per_cycle(&[(1000, 50.0 * mib)]), 0.0);
    // 40 MiB more over 3,000,000 more cycles: the slope of the last two
    let g = growth_per_cycle(&[
        (1000, mib),
        (1_000_000, 20.0 * mib),
        (4_000_000, 60.0 * mib),
    ]);
    assert!((g - 40.0 * mib / 3e6).abs() < 1e-9, "{g}");
    // a step under the noise bound, or a peak that fell: no growth
    assert_eq!(growth_per_cycle(&[(1000, mib), (4000, 4.0 * mib)]), 0.0);
    assert_eq!(
        growth_per_cycle(&[(1000, 9.0 * mib), (4000, 2.0 * mib)]),
        0.0
    );
}

/// The latency samples are counted, so a growth the peaks' noise bound hides is not lost:
/// a run delivering 2 messages a cycle grows by 80 bytes a cycle, however short the trial.
#[test]
fn latency_samples_grow_the_memory_by_their_count() {
    let t = Trial {
        samples: 2_000,
        ..trial(1000, 0.01)
    };
    assert_eq!(sample_growth_per_cycle(&t), 2.0 * SAMPLE_BYTES);
    assert_eq!(sample_growth_per_cycle(&trial(1000, 0.01)), 0.0);
    // a torus run measured (docs/scenarios.md): 323,500 messages took 10,908 KiB
    const { assert!(SAMPLE_BYTES * 323_500.0 >= 10_908.0 * 1024.0) };
}

fn trial(cycles: u64, secs: f64) -> Trial {
    Trial {
        cycles,
        secs,
        finished: false,
        work: None,
        spans: Vec::new(),
        samples: 0,
    }
}

#[test]
fn the_time_model_separates_the_build_from_the_cycles() {
    // 0.2 s to build, 10 us a cycle
    let at = |c: u64| trial(c, 0.2 + 1e-5 * c as f64);
    let (build, per) = time_model(&[at(1000), at(4000), at(16000)]);
    assert!((build - 0.2).abs() < 1e-9, "{build}");
    assert!((per - 1e-5).abs() < 1e-12, "{per}");
    // one trial, or a longer trial that took less time (noise): no build
    assert_eq!(time_model(&[trial(1000, 0.5)]), (0.0, 0.5 / 1000.0));
    assert_eq!(
        time_model(&[trial(1000, 0.5), trial(4000, 0.4)]),
        (0.0, 0.4 / 4000.0)
    );
    // the build never exceeds the shorter trial's whole time
    let (build, _) = time_model(&[trial(1000, 0.1), trial(4000, 0.1000001)]);
    assert!(build <= 0.1, "{build}");
    assert_eq!(time_model(&[]), (0.0, 0.0));
}

#[test]
fn a_shortened_workload_keeps_a_measured_iteration_of_every_test() {
    let sc = gpcnet(16);
    let g = sc.gpcnet().unwrap();
    let s = g.shortened(SHORTEN);
    for t in [
        crate::workload::gpcnet::CanaryTest::Latency,
        crate::workload::gpcnet::CanaryTest::Bandwidth,
        crate::workload::gpcnet::CanaryTest::Allreduce,
    ] {
        let (w, i, r) = g.test_iterations(t);
        let (ws, is, rs) = s.test_iterations(t);
        assert_eq!(ws, w.div_ceil(SHORTEN), "{t:?}");
        assert_eq!(is, i.div_ceil(SHORTEN).max(1), "{t:?}");
        assert!(is >= 1);
        assert_eq!(rs, r, "{t:?}");
    }
    // nothing else changes
    let mut back = s.clone();
    for (a, b) in [
        (&mut back.lat_warmup_iters, g.lat_warmup_iters),
        (&mut back.lat_iters, g.lat_iters),
        (&mut back.bw_warmup_iters, g.bw_warmup_iters),
        (&mut back.bw_iters, g.bw_iters),
        (&mut back.allreduce_warmup_iters, g.allreduce_warmup_iters),
        (&mut back.allreduce_iters, g.allreduce_iters),
    ] {
        *a = b;
    }
    assert_eq!(&back, g);
    assert_eq!(g.shortened(1), *g);
}

/// The end a run's shortened copy predicts against the run's own end, in cycles (no
/// wall time: the verdict is the same on any machine).
fn predicted_and_actual_end(sc: &Scenario, spec: &RunSpec) -> (f64, u64) {
    let short = run::run(&shortened(sc), spec, &Progress::quiet()).unwrap();
    assert!(short.finished, "the shortened copy finishes");
    let t = Trial {
        cycles: short.cycles_run,
        secs: 1.0,
        finished: true,
        work: short.work_done,
        spans: short.canary_spans.clone(),
        samples: 0,
    };
    let full = run::run(sc, spec, &Progress::quiet()).unwrap();
    assert!(full.finished);
    (expected_end(sc, &t), full.cycles_run)
}

#[test]
fn the_shortened_copy_predicts_a_gpcnet_runs_end() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scenarios/smoke.toml"
    ))
    .unwrap();
    let mut sc = Scenario::parse(&text).unwrap();
    // longer canary tests than smoke's few iterations, so shortening them matters
    if let WorkloadConfig::Gpcnet(g) = &mut sc.workload {
        (g.lat_iters, g.bw_iters, g.allreduce_iters) = (64, 16, 64);
    }
    sc.validate().unwrap();
    for name in [crate::scenario::OFF, crate::scenario::ISOLATED] {
        let spec = crate::scenario::run_spec(&sc, name).unwrap();
        let (predicted, actual) = predicted_and_actual_end(&sc, &spec);
        let r = predicted / actual as f64;
        assert!(
            (0.67..=1.5).contains(&r),
            "{name}: predicted end {predicted:.0}, the run ended in cycle {actual} ({r:.2})"
        );
    }
    // a scenario that runs to `cycles.max` ends there
    let mut open = sc.clone();
    open.cycles.stop_when_finished = false;
    assert_eq!(
        expected_end(&open, &trial(1000, 1.0)),
        open.cycles.max as f64
    );
}

#[test]
fn other_workloads_are_calibrated_as_they_are() {
    let sc = Scenario::parse("[workload]\nkind = \"uniform\"\n").unwrap();
    assert_eq!(calibration_copy(&sc), (sc.clone(), 1.0));
}

/// A motif run ends with its iterations: a finished trial is its end, an unfinished one is
/// stretched by the iterations it has left (the 4 x 2 x 2 halo3d here: a trial of a third
/// of its cycles predicts the whole run within 0.67..1.5).
#[test]
fn a_motif_run_is_predicted_from_its_iterations() {
    let sc = Scenario::parse(
        "[cycles]\nmax = 1000000\n[network]\ntopology = { kind = \"fat_tree\", radix = 8, \
         leaves = 4 }\n[workload]\nkind = \"motif\"\nmotif = \"halo3d\"\ngrid = [4, 2, 2]\n\
         iterations = 12\n",
    )
    .unwrap();
    sc.validate().unwrap();
    let spec = crate::scenario::run_spec(&sc, crate::scenario::OFF).unwrap();
    let full = run::run(&sc, &spec, &Progress::quiet()).unwrap();
    assert!(full.finished && full.cycles_run < 1_000_000);
    let done = Trial {
        cycles: full.cycles_run,
        secs: 1.0,
        finished: true,
        work: full.work_done,
        spans: Vec::new(),
        samples: 0,
    };
    assert_eq!(expected_end(&sc, &done), full.cycles_run as f64);
    let mut part = sc.clone();
    part.cycles.max = full.cycles_run / 3;
    let short = run::run(&part, &spec, &Progress::quiet()).unwrap();
    assert!(!short.finished);
    let t = Trial {
        cycles: short.cycles_run,
        secs: 1.0,
        finished: false,
        work: short.work_done,
        spans: Vec::new(),
        samples: 0,
    };
    let r = expected_end(&sc, &t) / full.cycles_run as f64;
    assert!((0.67..=1.5).contains(&r), "{r:.2}");
    // without a share of the work: `cycles.max`
    assert_eq!(expected_end(&sc, &trial(1000, 1.0)), 1e6);
}

#[test]
fn a_trial_too_short_for_the_cores_clock_takes_the_wall_time() {
    // the thread's time moved: it is the trial's
    assert_eq!(trial_seconds(Some((1.0, 1.25)), 0.5), 0.25);
    // it did not move, or cannot be read: the wall time, never 0 (a tiny scenario's
    // speed read 6.4e12 node-cycles/s)
    assert_eq!(trial_seconds(Some((1.0, 1.0)), 0.5), 0.5);
    assert_eq!(trial_seconds(None, 0.003), 0.003);
    assert_eq!(trial_seconds(Some((1.0, 1.0)), 0.0), 1e-9);
    // a trial shorter than the kernel's accounting step reads 0 or a whole tick: the
    // wall time
    assert_eq!(trial_seconds(Some((1.0, 1.004)), 0.001), 0.001);
    assert_eq!(trial_seconds(Some((1.0, 1.0)), 0.003), 0.003);
}

/// The trials of a run that stops when it finishes, with each trial's time from `speed`
/// (node-cycles per second) and a 0.1 s build: the cycles of each, in order.
fn finish_trials(nodes: u32, max: u64, finished_at: Option<u64>, speed: f64) -> Vec<u64> {
    let mut cycles = 1000;
    let mut seen = Vec::new();
    loop {
        let mut t = trial(cycles, 0.1 + cycles as f64 * nodes as f64 / speed);
        if let Some(end) = finished_at.filter(|&e| e <= cycles) {
            (t.cycles, t.finished) = (end, true);
        }
        seen.push(t.cycles);
        match next_finish_trial(&t, nodes, max) {
            Some(c) => cycles = c,
            None => return seen,
        }
    }
}

/// The trials that predict where a GPCNeT or motif run ends stop on work, not time: the same
/// trials (so the same predicted end) at 1e7 to 1e9 node-cycles per second (a slow machine
/// under load, another thread count), where they used to stop after 2 s on a core
/// (`gpcnet-dragonfly.toml` was predicted to end at 89 % of `cycles.max` at one thread and
/// 24 % at two). Only far slower runs meet the time backstop.
#[test]
fn the_trials_of_a_finishing_run_do_not_depend_on_the_speed() {
    let base = finish_trials(110, 20_000_000, None, 2e7);
    assert_eq!(base, [1000, 4000, 16_000, 64_000, 256_000, 1_024_000]);
    for speed in [1e7, 2e7, 5e7, 1e8, 1e9] {
        assert_eq!(
            finish_trials(110, 20_000_000, None, speed),
            base,
            "at {speed}"
        );
        // a copy that finishes stops there, at any speed
        let f = finish_trials(120, 20_000_000, Some(353_611), speed);
        assert_eq!(
            f,
            [1000, 4000, 16_000, 64_000, 256_000, 353_611],
            "at {speed}"
        );
    }
    // larger networks run shorter trials: NICs x cycles stays within the bound
    let big = finish_trials(16_512, 20_000_000, None, 2e7);
    assert_eq!(big, [1000, 4000]);
    const { assert!(4.0 * 4000.0 * 16_512.0 > FINISH_NODE_CYCLES) };
    // `cycles.max` ends them
    assert_eq!(
        finish_trials(110, 50_000, None, 2e7),
        [1000, 4000, 16_000, 64_000]
    );
    // the backstop: at 1e5 node-cycles/s the 16,000-cycle trial takes 17.7 s
    assert_eq!(
        finish_trials(110, 20_000_000, None, 1e5),
        [1000, 4000, 16_000]
    );
}

/// The other runs' trials: not cut where the calibrated run finished (another run may end
/// later), at any speed; cut where the time backstop stopped the calibrated run's.
#[test]
fn the_other_runs_trials_go_to_the_work_bound_or_the_backstop() {
    for secs in [0.5, 5.0, 50.0] {
        // the calibrated run finished at 353,611 cycles of its 1,024,000-cycle trial
        let mut t = trial(353_611, secs);
        t.finished = true;
        assert_eq!(finish_trial_cap(&t, 1_024_000, 120, 20_000_000), 1_024_000);
        // ... or at 200,000 of its 256,000-cycle trial: the work bound all the same
        let mut t = trial(200_000, secs);
        t.finished = true;
        assert_eq!(finish_trial_cap(&t, 256_000, 120, 20_000_000), 1_024_000);
        // ... or before `cycles.max`, 50,000, in its 64,000-cycle trial
        let mut t = trial(30_000, secs);
        t.finished = true;
        assert_eq!(finish_trial_cap(&t, 64_000, 120, 50_000), 64_000);
    }
    // a 16,512-NIC copy whose 1,000-cycle trial took 6 s: the backstop held it there
    let t = trial(1000, 6.0);
    assert_eq!(next_finish_trial(&t, 16_512, 20_000_000), None);
    assert_eq!(finish_trial_cap(&t, 1000, 16_512, 20_000_000), 1000);
    // at 1 s it went on to the work bound, 4,000 cycles, and stopped there
    let t = trial(4000, 4.0);
    assert_eq!(next_finish_trial(&t, 16_512, 20_000_000), None);
    assert_eq!(finish_trial_cap(&t, 4000, 16_512, 20_000_000), 4000);
}

/// Runs that stop when they finish, each at its own end, handed out in order to the
/// workers as `scenario::run_each` does: the node-cycles are their sum and the time the
/// last worker's finish, not every run at the calibrated run's end.
#[test]
fn runs_with_their_own_ends_are_scheduled_like_compare() {
    let e = Estimate {
        runs: 5,
        parallel: 2,
        node_cycles: 0.0,
        node_cycles_per_s: 1e6,
        build_seconds: 0.0,
        finish_fraction: 0.89,
        seconds: 0.0,
        memory_bytes: 0.0,
        available_bytes: None,
        sample_bytes: 0.0,
        ends: Vec::new(),
        trial_cycles: 0,
    };
    let ends: Vec<RunEnd> = [("isolated", 0.01, 1.0), ("off", 1.0, 1.0)]
        .into_iter()
        .chain([
            ("paper", 1.0, 1.0),
            ("ibcc", 0.05, 2.0),
            ("dcqcn", 0.05, 1.0),
        ])
        .map(|(l, share, cost)| RunEnd {
            label: l.to_string(),
            share,
            cost,
        })
        .collect();
    // 1e8 node-cycles at cycles.max: a run at share f takes 100 f seconds, times its cost
    let e = e.with_ends(ends, 1e8);
    // worker 0: isolated 0-1, paper 1-101, dcqcn 101-106; worker 1: off 0-100, ibcc 100-110
    assert!((e.seconds - 110.0).abs() < 1e-9, "{}", e.seconds);
    assert!((e.node_cycles - 2.11e8).abs() < 1.0, "{}", e.node_cycles);
    let line = e.describe();
    assert!(
        line.contains("isolated 1.0%, off 100%, paper 100%, ibcc 5.0%, dcqcn 5.0% of `cycles.max`"),
        "{line}"
    );
}
