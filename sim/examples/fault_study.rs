//! The fault study: one scenario (default `scenarios/faults.toml`), run by `pftsim
//! compare` logic once per fault set below, with the invariant checker on. Prints one
//! table (throughput, victim latency and bandwidth, F_C, PFT activity per fault set and
//! configuration) and writes `OUT/faults.json` plus every compare's own outputs in
//! `OUT/<fault set>/`. docs/faults.md shows the table and explains each fault.
//!
//! ```sh
//! cargo run --release -p pft-sim --example fault_study -- scenarios/faults.toml --out out/faults
//! ```

use anyhow::Context;
use clap::Parser;
use pft_sim::net::FaultSpec;
use pft_sim::scenario::output::write_json;
use pft_sim::scenario::{compare_command, CompareRow, Progress, Scenario};
use pft_sim::workload::hotspot::HotspotWorkload;
use pft_sim::workload::WorkloadConfig;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The fault sets, as a user would write them in a scenario file. Windows repeat so that
/// the faults hit the whole measurement window [50 k, 300 k) several times.
const SETS: &str = r#"
[[set]]
name = "none"
what = "no fault (baseline)"
faults = []

[[set]]
name = "credit_delay"
what = "every credit in the fabric 200 cycles late, 20 k of every 50 k cycles"
faults = [ { kind = "credit_delay", cycles = 200, start = 50_000, duration = 20_000, period = 50_000 } ]

[[set]]
name = "credit_jitter"
what = "credits to the NICs 0..100 cycles late (pseudo-random), all the time"
faults = [ { kind = "credit_jitter", max_cycles = 100, scope = "nics" } ]

[[set]]
name = "eject_stall"
what = "4 of the 8 hot spots stop draining, 20 k of every 60 k cycles"
faults = [ { kind = "eject", nics = [], rate = 0.0, start = 60_000, duration = 20_000, period = 60_000 } ]

[[set]]
name = "eject_slow"
what = "every NIC drains at 0.5 flit/cycle from cycle 100 k on"
faults = [ { kind = "eject", rate = 0.5, start = 100_000 } ]

[[set]]
name = "link_pause"
what = "spine 0's links to leaves 0-3 pause 5 k of every 25 k cycles"
faults = [
  { kind = "link_pause", link = { switch = 10, port = 0 }, start = 50_000, duration = 5_000, period = 25_000 },
  { kind = "link_pause", link = { switch = 10, port = 1 }, start = 50_000, duration = 5_000, period = 25_000 },
  { kind = "link_pause", link = { switch = 10, port = 2 }, start = 50_000, duration = 5_000, period = 25_000 },
  { kind = "link_pause", link = { switch = 10, port = 3 }, start = 50_000, duration = 5_000, period = 25_000 },
]

[[set]]
name = "pft_rewrite"
what = "at cycle 150 k the driver rewrites every NIC's PFT to FT-FI 0x100/0x80, m=0 n=2"
faults = [ { kind = "pft_rewrite", at = 150_000, pft = { det_mode = "ft", thr_mode = "fi", th_enter = 0x100, th_escape = 0x80, m = 0, n = 2 } } ]
"#;

#[derive(Deserialize)]
struct Sets {
    set: Vec<Set>,
}

#[derive(Deserialize, Serialize, Clone)]
struct Set {
    name: String,
    what: String,
    faults: Vec<FaultSpec>,
}

#[derive(Serialize)]
struct StudyRow {
    fault_set: String,
    #[serde(flatten)]
    row: CompareRow,
}

#[derive(Parser)]
#[command(about = "Run a scenario under each fault set and tabulate what the faults do")]
struct Cli {
    /// Base scenario.
    #[arg(default_value = "scenarios/faults.toml")]
    scenario: PathBuf,
    /// Output directory.
    #[arg(long, default_value = "out/faults")]
    out: PathBuf,
    /// Only these fault sets (comma separated names).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

/// The hot spots of a hot-spot scenario (at cycle 0).
fn hot_spots(sc: &Scenario) -> anyhow::Result<Vec<u32>> {
    let WorkloadConfig::Hotspot(h) = &sc.workload else {
        anyhow::bail!("the eject_stall set needs a hot-spot workload");
    };
    let w = HotspotWorkload::new(h, sc.nodes(), sc.network.flit_bytes, sc.seed)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(w.hotspots().iter().map(|n| n.0).collect())
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let base = Scenario::load(&cli.scenario)?;
    let sets: Sets = toml::from_str(SETS).context("the built-in fault sets")?;
    let progress = Progress::new();
    let mut table: Vec<StudyRow> = Vec::new();
    for set in sets
        .set
        .iter()
        .filter(|s| cli.only.is_empty() || cli.only.contains(&s.name))
    {
        let mut sc = base.clone();
        sc.name = Some(format!("{}-{}", base.name(), set.name));
        sc.network.faults = set.faults.clone();
        // `nics = []` in a set means: the first 4 hot spots of the workload.
        let hot = hot_spots(&sc);
        for f in &mut sc.network.faults {
            if let FaultSpec::Eject { nics: Some(v), .. } = f {
                if v.is_empty() {
                    *v = hot.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?[..4].to_vec();
                    eprintln!("   (hot spots {v:?})");
                }
            }
        }
        sc.validate()
            .map_err(|p| anyhow::anyhow!("fault set {}: {p}", set.name))?;
        eprintln!("== {}: {}", set.name, set.what);
        let rep = compare_command(
            &sc,
            &[cli.scenario.as_path()],
            &cli.out.join(&set.name),
            cli.jobs,
            true,
            &progress,
        )
        .with_context(|| format!("fault set {}", set.name))?;
        for row in rep.rows {
            table.push(StudyRow {
                fault_set: set.name.clone(),
                row,
            });
        }
    }
    let f = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |x| format!("{x:.p$}"));
    println!(
        "{:<14} {:<7} {:>8} {:>8} {:>8} {:>7} {:>6} {:>6} {:>6}",
        "fault set", "config", "accepted", "lat_mean", "lat_p99", "bw_mean", "F_C", "cong%", "thr%"
    );
    for r in &table {
        let x = &r.row;
        println!(
            "{:<14} {:<7} {:>8.3} {:>8} {:>8} {:>7} {:>6} {:>6.1} {:>6.1}",
            r.fault_set,
            x.config,
            x.accepted,
            f(x.lat_mean, 0),
            f(x.lat_p99, 0),
            f(x.bw_mean, 3),
            f(x.f_c, 3),
            100.0 * x.frac_congested,
            100.0 * x.frac_throttled
        );
    }
    println!("units: accepted flits/NIC/cycle over the window; victim (V-node) message latency in cycles; victim bandwidth bytes/cycle/NIC; F_C against `off` under the same faults. Checker on every cycle: every run above kept every invariant.");
    write_json(&cli.out.join("faults.json"), &(sets.set, &table))?;
    Ok(())
}
