//! Motifs and traces (`[workload] kind = "motif"` / `"trace"`): each motif's messages per
//! iteration against its definition, every run to its end, determinism, a motif and its
//! written trace giving the same run (library and `pftsim trace-write`), bad traces refused
//! with their line, bad keys refused with the field. No timed assertions.

use pft_sim::scenario::{self, run, Progress, Scenario};
use pft_sim::workload::motif::{MotifResults, Op, Trace};
use pft_sim::workload::{MotifConfig, MotifKind, WorkloadConfig};
use std::path::{Path, PathBuf};
use std::process::Command;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pft-motif-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scenario of `nodes` NICs on one switch running `workload` (TOML lines).
fn scenario_text(nodes: u32, workload: &str) -> String {
    format!(
        "seed = 5\n[cycles]\nmax = 3_000_000\n[network]\ntopology = {{ kind = \"single_switch\", nodes = {nodes} }}\n[workload]\n{workload}\n"
    )
}

fn load(text: &str, dir: Option<&Path>) -> Scenario {
    match Scenario::check_text_in(text, dir) {
        Ok(s) => s,
        Err(scenario::Refused::Parse(m)) => panic!("parse: {m}"),
        Err(scenario::Refused::Invalid(e)) => panic!("invalid: {e}"),
    }
}

fn results(sc: &Scenario) -> (MotifResults, run::RunOutput) {
    let spec = scenario::run_spec(sc, "off").unwrap();
    let out = run::run(sc, &spec, &Progress::quiet()).unwrap();
    let m = out.motif.clone().expect("a motif run has motif results");
    (m, out)
}

/// Runs `motif` (TOML lines after `kind = "motif"`) on `nodes` NICs and checks that every
/// iteration finished with exactly `per_iter` messages, all delivered.
fn check_count(nodes: u32, motif: &str, per_iter: u64) {
    let sc = load(
        &scenario_text(nodes, &format!("kind = \"motif\"\niterations = 3\n{motif}")),
        None,
    );
    let (m, out) = results(&sc);
    assert!(m.finished && out.finished, "{motif}: not finished");
    assert!(
        out.cycles_run < sc.cycles.max,
        "{motif}: stopped by the budget"
    );
    assert_eq!(m.rows.len(), 3);
    for r in &m.rows {
        assert_eq!(r.messages, per_iter, "{motif}: iteration {}", r.iteration);
        assert_eq!(r.ranks_done, nodes);
        assert!(r.cycles.is_some());
    }
    assert_eq!(m.messages_sent, 3 * per_iter);
    assert_eq!(m.messages_delivered, 3 * per_iter, "{motif}");
}

#[test]
fn halo3d_counts_faces() {
    // 4x4x4 without wrap-around: 2 (p - 1) N / p per dimension = 3 * 2 * 3 * 16
    check_count(64, "motif = \"halo3d\"\ngrid = [4, 4, 4]", 288);
    // with wrap-around every rank has 6 neighbours
    check_count(
        64,
        "motif = \"halo3d\"\ngrid = [4, 4, 4]\nperiodic = true",
        384,
    );
    // the default grid of 24 NICs is [2, 3, 4]: 2*1*12 + 2*2*8 + 2*3*6
    check_count(24, "motif = \"halo3d\"", 24 + 32 + 36);
}

#[test]
fn allreduce_counts_steps() {
    // recursive doubling, 16 = 2^4: 16 * 4; 12: pof2 8, rem 4: 8 * 3 + 2 * 4
    check_count(16, "motif = \"allreduce\"", 64);
    check_count(12, "motif = \"allreduce\"", 32);
    // ring: 2 (N - 1) steps of N messages
    check_count(6, "motif = \"allreduce\"\nalgorithm = \"ring\"", 60);
}

#[test]
fn alltoall_fft_incast_ring_sweep_counts() {
    check_count(8, "motif = \"alltoall\"", 56);
    // fft3d on [4, 2]: rows of 4 (3 each), columns of 2 (1 each)
    check_count(8, "motif = \"fft3d\"\ngrid = [4, 2]", 8 * 3 + 8);
    check_count(8, "motif = \"incast\"\nroot = 3", 7);
    check_count(8, "motif = \"broadcast\"\nroot = 3", 7);
    check_count(8, "motif = \"random_ring\"", 16);
    // sweep3d on [4, 3], 4 corners x 2 blocks of (3 * 3 + 4 * 2) links
    check_count(
        12,
        "motif = \"sweep3d\"\ngrid = [4, 3]\nblocks = 2",
        4 * 2 * 17,
    );
    check_count(
        12,
        "motif = \"sweep3d\"\ngrid = [4, 3]\nblocks = 3\ncorners = 1",
        3 * 17,
    );
}

#[test]
fn same_seed_same_run_other_seed_other_rings() {
    let text = scenario_text(
        16,
        "kind = \"motif\"\nmotif = \"random_ring\"\niterations = 4",
    );
    let a = results(&load(&text, None)).0;
    let b = results(&load(&text, None)).0;
    assert_eq!(a, b);
    let c = MotifConfig {
        iterations: 2,
        ..MotifConfig::new(MotifKind::RandomRing)
    };
    let t1 = Trace::of_motif(&c, 16, 5).unwrap();
    assert_eq!(t1, Trace::of_motif(&c, 16, 5).unwrap());
    assert_ne!(t1, Trace::of_motif(&c, 16, 6).unwrap());
    // the iterations draw different rings
    assert_ne!(t1.ops(0, 0), t1.ops(0, 1));
}

/// A motif, the trace `pftsim trace-write` writes of it, and that trace replayed (its path
/// relative to the scenario's directory): the same iteration times, messages and NIC
/// counters.
#[test]
fn motif_and_its_trace_give_the_same_run() {
    let dir = tmp("roundtrip");
    let motif = "kind = \"motif\"\nmotif = \"random_ring\"\niterations = 4\nwarmup_iterations = 1\ncompute_cycles = 300\nmsg_bytes = 3000";
    std::fs::write(dir.join("m.toml"), scenario_text(16, motif)).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let o = Command::new(PFTSIM)
        .args(["trace-write", "m.toml", "--out", "sub/m.trace"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trace = "kind = \"trace\"\npath = \"m.trace\"\nwarmup_iterations = 1";
    std::fs::write(dir.join("sub/t.toml"), scenario_text(16, trace)).unwrap();
    let m = Scenario::load(&dir.join("m.toml")).unwrap();
    let t = Scenario::load(&dir.join("sub/t.toml")).unwrap();
    let (rm, om) = results(&m);
    let (rt, ot) = results(&t);
    assert!(rm.finished);
    assert_eq!(rt.motif, "trace");
    assert_eq!(rm.rows, rt.rows);
    assert_eq!(rm.messages_delivered, rt.messages_delivered);
    assert_eq!(rm.bytes_delivered, rt.bytes_delivered);
    assert_eq!(om.cycles_run, ot.cycles_run);
    let counters = |o: &run::RunOutput| -> Vec<(u64, u64)> {
        o.nodes
            .iter()
            .map(|n| (n.flits_injected, n.flits_ejected))
            .collect()
    };
    assert_eq!(counters(&om), counters(&ot));
    // the library writes the same text the command wrote (after its two header lines)
    let WorkloadConfig::Motif(c) = &m.workload else {
        panic!()
    };
    let lib = Trace::of_motif(c, 16, m.seed).unwrap().to_text("");
    let file = std::fs::read_to_string(dir.join("sub/m.trace")).unwrap();
    assert_eq!(
        file.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        lib.lines().collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_motif_round_trips_through_text() {
    for (kind, nodes) in [
        (MotifKind::Halo3d, 12),
        (MotifKind::Allreduce, 12),
        (MotifKind::Alltoall, 5),
        (MotifKind::Sweep3d, 6),
        (MotifKind::Fft3d, 6),
        (MotifKind::Incast, 5),
        (MotifKind::Broadcast, 5),
        (MotifKind::RandomRing, 7),
    ] {
        let c = MotifConfig {
            iterations: 2,
            ..MotifConfig::new(kind)
        };
        let t = Trace::of_motif(&c, nodes, 9).unwrap();
        let back = Trace::parse(&t.to_text("a header\nof two lines")).unwrap();
        assert_eq!(t, back, "{kind:?}");
    }
}

#[test]
fn bad_traces_are_refused_with_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "no `ranks N` line"),
        ("# c\n0 send 1 8\n", 2, "must be `ranks N`"),
        ("ranks 1\n", 1, "allowed 2..="),
        ("ranks 2\n0 sned 1 8\n", 2, "unknown operation `sned`"),
        ("ranks 2\n\n2 wait\n", 3, "rank 2: allowed 0..=1"),
        (
            "ranks 2\n0 send 0 8\n",
            2,
            "peer 0: allowed a rank in 0..=1 other than 0",
        ),
        ("ranks 2\n0 send 1 0\n", 2, "0 bytes: allowed 1..="),
        ("ranks 2\n0 send 1 x\n", 2, "the size in bytes `x` is not"),
        ("ranks 2\n0 compute 5 6\n", 2, "unexpected `6`"),
        (
            "ranks 2\n0 compute -5\n",
            2,
            "the cycles `-5` is not an integer in 0..=",
        ),
        ("ranks 2\n0 wait\n1 wait\n", 0, "rank 0 has no `iter` line"),
        // a byte-order mark and lone CR line ends are read as text and line ends
        (
            "\u{feff}ranks 2\r0 sned 1 8\r",
            2,
            "unknown operation `sned`",
        ),
        ("ranks 2\n0 send 1\n", 2, "missing the size in bytes"),
        // a second rank count; a byte-order mark inside the file shown as an escape
        ("ranks 2\nranks 3\n", 2, "a second `ranks` line"),
        (
            "ranks 2\n\u{feff}0 iter\n",
            2,
            "the rank `\\u{feff}0` is not",
        ),
        ("ranks 2\n0 iter\n1 wait\n", 3, "rank 1 has 0 `iter` lines"),
        (
            "ranks 2\n0 iter\n1 iter\n1 wait\n",
            4,
            "operations after its last `iter`",
        ),
        (
            "ranks 2\n0 send 1 8\n1 recv 0 9\n0 iter\n1 iter\n",
            2,
            "send #1 from rank 0 to rank 1 has 8 bytes; its receive at rank 1 (line 3) has 9",
        ),
        (
            "ranks 3\n0 send 1 8 # ok\n1 recv 0 8\n0 send 1 8\n0 iter\n1 iter\n2 iter\n",
            4,
            "send #2 from rank 0 to rank 1 has no receive",
        ),
        (
            "ranks 2\n1 recv 0 8\n0 iter\n1 iter\n",
            2,
            "receive #1 at rank 1 from rank 0 has no send",
        ),
    ];
    for &(text, line, why) in cases {
        let e = Trace::parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.reason.contains(why), "{text:?}: {e}");
    }
}

/// A bad trace and bad motif keys: `pftsim check` exits 1 naming the field and (for the
/// trace) the line, without a panic.
#[test]
fn bad_configurations_are_refused_by_the_command() {
    let dir = tmp("bad");
    std::fs::write(
        dir.join("bad.trace"),
        "ranks 2\n0 send 1 8\n0 iter\n1 iter\n",
    )
    .unwrap();
    let cases = [
        (
            "kind = \"trace\"\npath = \"bad.trace\"",
            "`workload.path` =",
            "line 2: send #1 from rank 0 to rank 1 has no receive",
        ),
        (
            "kind = \"trace\"\npath = \"missing.trace\"",
            "`workload.path` =",
            "cannot read it",
        ),
        (
            "kind = \"motif\"\nmotif = \"halo3d\"\ngrid = [2, 2, 3]",
            "`workload.grid` = [2, 2, 3]",
            "product is the NIC count, 8",
        ),
        (
            "kind = \"motif\"\nmotif = \"incast\"\niterations = 0",
            "`workload.iterations` = 0",
            "allowed 1 <= iterations <= 100000",
        ),
        (
            "kind = \"motif\"\nmotif = \"alltoall\"\nmsg_bytes = 100000000",
            "`workload.msg_bytes` = 100000000",
            "allowed 1 <= msg_bytes <= 67108864",
        ),
        (
            "kind = \"motif\"\nmotif = \"alltoall\"\ngrid = [2, 4]",
            "`workload.grid`",
            "is for halo3d, sweep3d and fft3d only",
        ),
    ];
    for (w, field, why) in cases {
        std::fs::write(dir.join("s.toml"), scenario_text(8, w)).unwrap();
        let o = Command::new(PFTSIM)
            .args(["check", "s.toml"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{w}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains(field) && err.contains(why), "{w}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `compare` of a motif scenario writes the iteration CSV and the iteration columns; the run
/// stops at its last iteration, well before `cycles.max`.
#[test]
fn compare_writes_the_iteration_outputs() {
    let dir = tmp("compare");
    let text = scenario_text(
        8,
        "kind = \"motif\"\nmotif = \"halo3d\"\ngrid = [2, 2, 2]\niterations = 3",
    ) + "[[pft]]\nname = \"paper\"\n";
    std::fs::write(dir.join("s.toml"), text).unwrap();
    let o = Command::new(PFTSIM)
        .args(["compare", "s.toml", "--out", "o", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(dir.join("o/off/motif_iterations.csv")).unwrap();
    assert!(csv.starts_with("iteration,measured,ranks_done,first_rank_end,end_cycle,cycles,rank_cycles_min,rank_cycles_mean,rank_cycles_max,messages,bytes\n"));
    assert_eq!(csv.lines().count(), 4);
    let cmp = std::fs::read_to_string(dir.join("o/compare.csv")).unwrap();
    assert!(cmp
        .lines()
        .next()
        .unwrap()
        .ends_with(",iter_done,iter_mean,iter_p50,iter_p99,iter_max"));
    assert!(dir.join("o/motif_iterations.svg").is_file());
    let sum = std::fs::read_to_string(dir.join("o/paper/summary.json")).unwrap();
    assert!(sum.contains("\"iteration_cycles\""));
    let _ = std::fs::remove_dir_all(&dir);
}

const JOBS: &str = "kind = \"jobs\"\nplacement = \"PLACE\"\n[[workload.jobs]]\nmotif = \"halo3d\"\nnics = 8\ngrid = [2, 2, 2]\niterations = 4\n[[workload.jobs]]\nmotif = \"incast\"\nnics = 6\nmsg_bytes = 65536\ncompute_cycles = 0\niterations = 100000";

/// Placements deal disjoint NICs of the right counts: linear in order, interleaved round
/// robin, random a seeded shuffle.
#[test]
fn jobs_are_placed_as_asked() {
    use pft_sim::workload::motif::JobsConfig;
    let sc = |p: &str| load(&scenario_text(16, &JOBS.replace("PLACE", p)), None);
    let place = |p: &str, seed: u64| -> Vec<Vec<u32>> {
        let WorkloadConfig::Jobs(j) = sc(p).workload else {
            panic!()
        };
        JobsConfig::place(&j, 16, seed)
    };
    assert_eq!(
        place("linear", 1),
        vec![(0..8).collect::<Vec<u32>>(), (8..14).collect()]
    );
    assert_eq!(
        place("interleaved", 1),
        vec![vec![0, 2, 4, 6, 8, 10, 12, 13], vec![1, 3, 5, 7, 9, 11]]
    );
    let r = place("random", 1);
    assert_eq!(r, place("random", 1));
    assert_ne!(r, place("random", 2));
    let mut all: Vec<u32> = r.concat();
    assert_eq!((r[0].len(), r[1].len()), (8, 6));
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 14);
}

/// A victim and an aggressor: the victim's messages per iteration are its motif's, the
/// isolated run is the victim alone (slowdown 1 against itself), and every run reports
/// the slowdown column; the run ends with the victim's last iteration.
#[test]
fn jobs_report_the_victims_slowdown() {
    let dir = tmp("jobs");
    let text = scenario_text(16, &JOBS.replace("PLACE", "random")) + "[[pft]]\nname = \"paper\"\n";
    std::fs::write(dir.join("s.toml"), &text).unwrap();
    let sc = load(&text, None);
    let (m, out) = results(&sc);
    assert!(m.finished && out.finished);
    assert_eq!(m.ranks, 8);
    for r in &m.rows {
        // 2x2x2 without wrap-around: 3 dimensions x 2 x 1 x 4
        assert_eq!(r.messages, 24);
    }
    let classes: Vec<&str> = out.nodes.iter().map(|n| n.class.as_str()).collect();
    assert_eq!(classes.iter().filter(|c| **c == "victim").count(), 8);
    assert_eq!(classes.iter().filter(|c| **c == "aggressor").count(), 6);
    let o = Command::new(PFTSIM)
        .args(["compare", "s.toml", "--out", "o", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cmp = std::fs::read_to_string(dir.join("o/compare.csv")).unwrap();
    let mut lines = cmp.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = head.iter().position(|h| *h == "iter_slowdown").unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0][0], "isolated");
    assert_eq!(rows[0][col], "1.0");
    for r in &rows {
        let s: f64 = r[col].parse().unwrap();
        assert!(s > 0.0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_jobs_are_refused_with_the_field() {
    let bad = |w: &str| -> String {
        match Scenario::check_text_in(&scenario_text(16, w), None) {
            Err(scenario::Refused::Invalid(e)) => e.to_string(),
            Err(scenario::Refused::Parse(m)) => m,
            Ok(_) => panic!("accepted: {w}"),
        }
    };
    let e = bad(&JOBS
        .replace("PLACE", "linear")
        .replace("nics = 6", "nics = 9"));
    assert!(
        e.contains("`workload.jobs` = 17 NICs in all: allowed at most the NIC count, 16"),
        "{e}"
    );
    let e = bad(&JOBS.replace("PLACE", "linear").replace("nics = 6\n", ""));
    assert!(
        e.contains("`workload.jobs[1].nics` = missing: required, 2..=16"),
        "{e}"
    );
    // a bad `nics` does not hide the entry's other errors
    let e = bad(&JOBS
        .replace("PLACE", "linear")
        .replace("nics = 6\n", "nics = 1\n")
        .replace("iterations = 100000", "iterations = 0"));
    assert!(
        e.contains("`workload.jobs[1].nics` = 1: required, 2..=16")
            && e.contains("`workload.jobs[1].iterations` = 0"),
        "{e}"
    );
    let e = bad(&JOBS
        .replace("PLACE", "linear")
        .replace("grid = [2, 2, 2]", "grid = [2, 2, 4]"));
    assert!(
        e.contains("`workload.jobs[0].grid` = [2, 2, 4]") && e.contains("the job's `nics`, 8"),
        "{e}"
    );
    let e = bad(&JOBS
        .replace("PLACE", "linear")
        .replace("iterations = 4", "iterations = 4\nfoo = 1"));
    assert!(e.contains("foo"), "{e}");
    let e = bad("kind = \"motif\"\nmotif = \"incast\"\nnics = 8");
    assert!(
        e.contains("`workload.nics` = 8: allowed only the NIC count, 16"),
        "{e}"
    );
}

#[test]
fn broadcast_sends_from_the_root_and_incast_to_it() {
    // the two are mirror images: the root's operations are the other ranks' peers
    for (kind, root_sends) in [(MotifKind::Broadcast, true), (MotifKind::Incast, false)] {
        let c = MotifConfig {
            root: 2,
            ..MotifConfig::new(kind)
        };
        let t = Trace::of_motif(&c, 5, 1).unwrap();
        for rank in 0..5 {
            let (sends, recvs): (Vec<u32>, Vec<u32>) = (
                t.ops(rank, 0)
                    .iter()
                    .filter_map(|o| match o {
                        Op::Send { peer, .. } => Some(*peer),
                        _ => None,
                    })
                    .collect(),
                t.ops(rank, 0)
                    .iter()
                    .filter_map(|o| match o {
                        Op::Recv { peer, .. } => Some(*peer),
                        _ => None,
                    })
                    .collect(),
            );
            let others: Vec<u32> = (0..5).filter(|&p| p != 2).collect();
            match (rank == 2, root_sends) {
                (true, true) | (false, false) => {
                    let want = if rank == 2 { others.clone() } else { vec![2] };
                    assert_eq!(sends, want, "{kind:?} rank {rank}");
                    assert!(recvs.is_empty(), "{kind:?} rank {rank}");
                }
                _ => {
                    let want = if rank == 2 { others.clone() } else { vec![2] };
                    assert_eq!(recvs, want, "{kind:?} rank {rank}");
                    assert!(sends.is_empty(), "{kind:?} rank {rank}");
                }
            }
        }
    }
}

/// The default grid is the most even factorisation (docs/workloads.md, `grid`): of all the
/// ways to write N as a product of the motif's dimensions, the smallest largest factor, then
/// the smallest second largest. Checked against every way for N up to 400 (a greedy choice
/// of the smallest factor first gave 68 as [1, 4, 17] and 108 as [3, 4, 9]).
#[test]
fn the_default_grid_is_the_most_even_factorisation() {
    use pft_sim::workload::motif::even_factors;
    for (n, want) in [
        (64, vec![4, 4, 4]),
        (120, vec![4, 5, 6]),
        (68, vec![2, 2, 17]),
        (108, vec![3, 6, 6]),
        (32, vec![2, 4, 4]),
        (7, vec![1, 1, 7]),
    ] {
        assert_eq!(even_factors(n, 3), want, "{n}");
    }
    for n in 1..=400u32 {
        for dims in 1..=3usize {
            let got = even_factors(n, dims);
            assert_eq!(got.len(), dims, "{n} in {dims}D");
            assert_eq!(got.iter().product::<u32>(), n, "{n} in {dims}D: {got:?}");
            assert!(got.windows(2).all(|w| w[0] <= w[1]), "{got:?} not sorted");
            // every way, by brute force: none is more even
            let mut ways: Vec<Vec<u32>> = vec![vec![]];
            for _ in 0..dims {
                ways = ways
                    .into_iter()
                    .flat_map(|w| (1..=n).map(move |d| [w.clone(), vec![d]].concat()))
                    .filter(|w| n % w.iter().product::<u32>() == 0)
                    .collect();
            }
            for mut w in ways.into_iter().filter(|w| w.iter().product::<u32>() == n) {
                w.sort_unstable();
                assert!(
                    !w.iter().rev().lt(got.iter().rev()),
                    "{n} in {dims}D: {w:?} is more even than {got:?}"
                );
            }
        }
    }
}
