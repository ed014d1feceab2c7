//! DCQCN's own shape (Zhu et al., SIGCOMM 2015; docs/cc/dcqcn.md, "The paper's shape"): N
//! long flows into one port converge to their fair share, the bottleneck stays busy and its
//! queue settles between Kmin and Kmax. `scenarios/dcqcn-incast.toml` at the defaults, run
//! by the real `pftsim` for 12 M cycles (61 ms at 100 Gb/s; the additive increase needs the
//! first ~15 ms), measured over the second half.

use std::path::Path;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

fn csv(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|x| {
            let x = x.unwrap();
            h.iter()
                .zip(x.iter())
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        })
        .collect()
}

fn num(row: &std::collections::HashMap<String, String>, k: &str) -> f64 {
    row[k].parse().unwrap()
}

#[test]
fn n_flows_into_one_port_share_it_fairly_with_the_queue_between_kmin_and_kmax() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dcqcn_incast");
    let _ = std::fs::remove_dir_all(&out);
    const WARM: u64 = 6_000_000;
    let o = std::process::Command::new(PFTSIM)
        .arg("run")
        .arg(root.join("scenarios/dcqcn-incast.toml"))
        .args(["--pft", "dcqcn", "--quiet", "--out"])
        .arg(&out)
        .args(["--set", "cycles.max=12000000"])
        .args(["--set", &format!("cycles.warmup={WARM}")])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the bottleneck is busy
    let hot: Vec<f64> = csv(&out.join("coldhot.csv"))
        .iter()
        .filter(|r| num(r, "cycle") >= WARM as f64)
        .map(|r| num(r, "hot_link_util"))
        .collect();
    let util = hot.iter().sum::<f64>() / hot.len() as f64;
    assert!(util > 0.95, "hot link utilisation {util}");
    // each of the 8 senders near 1/8 of it (Jain's index, and every one within 25 %)
    let senders: Vec<f64> = csv(&out.join("nodes.csv"))
        .iter()
        .filter(|r| r["role"] == "C")
        .map(|r| num(r, "injected_per_cycle"))
        .collect();
    assert_eq!(senders.len(), 8);
    let sum: f64 = senders.iter().sum();
    let jain = sum * sum / (8.0 * senders.iter().map(|v| v * v).sum::<f64>());
    assert!(jain > 0.97, "Jain's index {jain}: {senders:?}");
    for s in &senders {
        assert!((s / (sum / 8.0) - 1.0).abs() < 0.25, "{senders:?}");
    }
    // the queue: Kmin = 80 flits, Kmax = 1,024 (docs/cc/dcqcn.md)
    let mut q: Vec<f64> = csv(&out.join("series.csv"))
        .iter()
        .filter(|r| num(r, "cycle") >= WARM as f64)
        .map(|r| num(r, "queue_max_flits"))
        .collect();
    q.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let inside = q.iter().filter(|&&v| v > 80.0 && v <= 1024.0).count() as f64 / q.len() as f64;
    let median = q[q.len() / 2];
    assert!(
        inside > 0.8,
        "only {inside} of the samples between Kmin and Kmax"
    );
    assert!(median > 80.0 && median < 1024.0, "median queue {median}");
}
