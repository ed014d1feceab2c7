//! The IB CC study's moving forest (seed 002, "stormy" hot spots): the mean receive rate of
//! all nodes with congestion control off and with each `[[cc]]`/`[[pft]]` entry of a
//! hot-spot scenario, for several hot-spot lifetimes and node mixes.
//!
//! ```text
//! cargo run --release -p pft-sim --example moving_forest -- scenarios/ib-moving-forest.toml \
//!     --out out/moving [--lifetimes-ms 10,2,1] [--mixes v20,v60,b100p30,b100p60,b100p90] [--jobs N]
//! ```
//!
//! A mix is `vNN` (NN % V nodes, the rest C) or `b100pNN` (every node B, sending NN % of its
//! traffic to its hot spot). The lifetime sets `move_period_cycles` at the scenario's
//! `link_gbps`; the run is lengthened, if needed, so that its window holds at least five
//! lifetimes (`cycles.max` = warm-up + 5 lifetimes, rounded up to 100 k cycles).
//! Writes `moving.csv` (lifetime_ms, mix, config, rx_hot, rx_nonhot, rx_total, rx_mean, cycles;
//! Gb/s) and prints it with the change against `off`, and `moving.svg`: that change against
//! the lifetime, one line per mix and configuration, beside the seed's numbers (dashed).
//! `--from-csv FILE` redraws `moving.svg` from an earlier `moving.csv` and runs nothing.

use anyhow::{bail, Context};
use clap::Parser;
use pft_sim::cc::CcConfig;
use pft_sim::scenario::{self, plot, Progress, RunSpec, Scenario};
use pft_sim::workload::WorkloadConfig;
use std::path::PathBuf;

#[derive(Parser)]
struct Cli {
    /// A scenario with a `hotspot` workload.
    scenario: PathBuf,
    /// Output directory (created).
    #[arg(long)]
    out: PathBuf,
    /// Hot-spot lifetimes, ms.
    #[arg(long, value_delimiter = ',', default_value = "10,2,1")]
    lifetimes_ms: Vec<f64>,
    /// Node mixes: `vNN` or `b100pNN`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "v20,v60,b100p30,b100p60,b100p90"
    )]
    mixes: Vec<String>,
    /// Runs at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Redraw `moving.svg` in --out from this `moving.csv` (runs nothing).
    #[arg(long)]
    from_csv: Option<PathBuf>,
}

/// The seed's moving-forest changes (Figs 9-10 and their text): (mix, [(lifetime ms, %)]).
const SEED: [(&str, &[(f64, f64)]); 2] = [
    ("v20", &[(10.0, 55.0), (2.0, 10.0), (1.0, 4.0)]),
    ("v60", &[(10.0, 160.0), (1.0, 10.0)]),
];

/// `moving.svg` from the text of `moving.csv`: the change of the mean receive rate against
/// `off`, per mix and configuration, against the hot-spot lifetime.
fn plot(csv: &str, name: &str) -> anyhow::Result<String> {
    let mut rows = Vec::new();
    for (i, line) in csv.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let bad = || format!("moving.csv line {}: `{line}`", i + 1);
        anyhow::ensure!(f.len() == 8, "{}: expected 8 fields", bad());
        let ms: f64 = f[0].parse().with_context(bad)?;
        let total: f64 = f[5].parse().with_context(bad)?;
        rows.push((ms, f[1].to_string(), f[2].to_string(), total));
    }
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (ms, mix, config, total) in rows.iter().filter(|r| r.2 != "off") {
        let off = rows
            .iter()
            .find(|o| o.0 == *ms && o.1 == *mix && o.2 == "off")
            .with_context(|| format!("moving.csv: no off row for {ms} ms, {mix}"))?;
        let key = format!("{mix} {config}");
        let pt = (*ms, 100.0 * (total / off.3 - 1.0));
        match series.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.1.push(pt),
            None => series.push((key, vec![pt])),
        }
    }
    let mut dashed = Vec::new();
    for (mix, pts) in SEED {
        if rows.iter().any(|r| r.1 == mix) {
            let key = format!("{mix} seed");
            series.push((key.clone(), pts.to_vec()));
            dashed.push(key);
        }
    }
    for s in &mut series {
        s.1.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let dashed: Vec<&str> = dashed.iter().map(String::as_str).collect();
    plot::lines_svg(
        &format!("{name}: mean receive rate against congestion control off"),
        "hot-spot lifetime (ms)",
        "change of the mean receive rate of all nodes (%)",
        &series,
        &dashed,
    )
}

/// (frac_c, frac_v, frac_b, p_hot) of a mix.
type Mix = (f64, f64, f64, Option<f64>);

/// The mix of a name.
fn mix(name: &str) -> anyhow::Result<Mix> {
    let pct = |s: &str| -> anyhow::Result<f64> {
        let v: u32 = s
            .parse()
            .with_context(|| format!("--mixes {name}: `{s}` is not a percentage"))?;
        if v > 100 {
            bail!("--mixes {name}: {v} is not in 0..=100");
        }
        Ok(v as f64 / 100.0)
    };
    if let Some(p) = name.strip_prefix("b100p") {
        Ok((0.0, 0.0, 1.0, Some(pct(p)?)))
    } else if let Some(v) = name.strip_prefix('v') {
        let v = pct(v)?;
        Ok((1.0 - v, v, 0.0, None))
    } else {
        bail!(
            "--mixes {name}: a mix is vNN (NN % V nodes, the rest C) or b100pNN (all B, NN % hot)"
        )
    }
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let base = Scenario::load(&cli.scenario)?;
    if !matches!(base.workload, WorkloadConfig::Hotspot(_)) {
        bail!("{}: the workload must be `hotspot`", cli.scenario.display());
    }
    if let Some(f) = &cli.from_csv {
        let csv = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let svg = plot(&csv, base.name())?;
        std::fs::create_dir_all(&cli.out)
            .with_context(|| format!("creating {}", cli.out.display()))?;
        let out = cli.out.join("moving.svg");
        anyhow::ensure!(
            std::fs::canonicalize(f).ok() != std::fs::canonicalize(&out).ok(),
            "--from-csv and the plot are the same file"
        );
        std::fs::write(&out, svg)?;
        println!("wrote {}", out.display());
        return Ok(());
    }
    if let Some(bad) = cli
        .lifetimes_ms
        .iter()
        .find(|&&l| !(l > 0.0 && l <= 1000.0))
    {
        bail!("--lifetimes-ms {bad}: must be in (0, 1000] ms");
    }
    let mixes: Vec<(String, Mix)> = cli
        .mixes
        .iter()
        .map(|m| mix(m).map(|x| (m.clone(), x)))
        .collect::<anyhow::Result<_>>()?;
    let mut configs = vec![("off".to_string(), CcConfig::none())];
    configs.extend(base.configs());
    let ns = base.network.cycle_ns();
    let mut jobs = Vec::new();
    for (li, _) in cli.lifetimes_ms.iter().enumerate() {
        for mi in 0..mixes.len() {
            for c in 0..configs.len() {
                jobs.push((li, mi, c));
            }
        }
    }
    let threads = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runs: Vec<(Scenario, RunSpec)> = jobs
        .iter()
        .map(|&(li, mi, c)| {
            let ms = cli.lifetimes_ms[li];
            let (_, (fc, fv, fb, p)) = mixes[mi];
            let mut sc = base.clone();
            let period = (ms * 1e6 / ns).round().max(1.0) as u64;
            sc.cycles.max = sc
                .cycles
                .max
                .max(sc.warmup() + (5 * period).div_ceil(100_000) * 100_000);
            if let WorkloadConfig::Hotspot(h) = &mut sc.workload {
                (h.frac_c, h.frac_v, h.frac_b) = (fc, fv, fb);
                if let Some(p) = p {
                    h.p_hot = p;
                }
                h.move_period_cycles = Some(period);
            }
            let (label, cc) = configs[c].clone();
            let spec = RunSpec {
                label,
                cc,
                congestors: true,
            };
            (sc, spec)
        })
        .collect();
    let pairs: Vec<(&Scenario, &RunSpec)> = runs.iter().map(|(s, r)| (s, r)).collect();
    let outs = scenario::run_each(&pairs, threads, &Progress::new())?;
    let mut rows = Vec::new();
    for (&(li, mi, c), r) in jobs.iter().zip(outs) {
        let rates = r.hotspot_rates.context("no receive rates")?;
        rows.push((li, mi, c, rates, r.cycles_run));
    }
    rows.sort_by_key(|r| (r.0, r.1, r.2));
    std::fs::create_dir_all(&cli.out).with_context(|| format!("creating {}", cli.out.display()))?;
    let nodes = base.nodes() as f64;
    let mut csv = String::from("lifetime_ms,mix,config,rx_hot,rx_nonhot,rx_total,rx_mean,cycles\n");
    for (li, mi, c, r, cy) in &rows {
        csv += &format!(
            "{},{},{},{:.4},{:.4},{:.2},{:.4},{cy}\n",
            cli.lifetimes_ms[*li],
            mixes[*mi].0,
            configs[*c].0,
            r.rx_hot,
            r.rx_nonhot,
            r.rx_total,
            r.rx_total / nodes
        );
    }
    std::fs::write(cli.out.join("moving.csv"), &csv)?;
    std::fs::write(cli.out.join("moving.svg"), plot(&csv, base.name())?)?;
    print!("{csv}");
    println!("\nmean receive rate of all nodes, change against off:");
    for (li, mi, c, r, _) in rows.iter().filter(|r| r.2 != 0) {
        let off = rows
            .iter()
            .find(|o| o.0 == *li && o.1 == *mi && o.2 == 0)
            .expect("every point has an off run");
        println!(
            "  {} ms {:<8} {:<8} {:+.1} %",
            cli.lifetimes_ms[*li],
            mixes[*mi].0,
            configs[*c].0,
            100.0 * (r.rx_total / off.3.rx_total - 1.0)
        );
    }
    Ok(())
}
