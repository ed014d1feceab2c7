//! Fig. 1(a)(b) of the PFT paper, measured from the RTL against a credit link, beside
//! equation (1) (docs/reproduction.md, "Fig. 1"; the method is `pft_tb::fig1`).
//!
//! ```text
//! cargo run --release -p pft-tb --example fig1 -- --out out/reproduce/fig1 [--cycles N]
//! ```
//!
//! Writes `fig1.csv` (fig, strategy, m, n, k, c, f_c, measured_rate, eq1_rate, cycles),
//! `fig1a.svg` and `fig1b.svg`, and prints the largest gap between measurement and eq. (1).

use anyhow::{bail, Context};
use pft_hdl::model::level;
use pft_tb::fig1::{curves, measure, Curve, Point};
use plotters::prelude::*;
use std::path::PathBuf;

fn plot(path: &PathBuf, title: &str, series: &[(Curve, Vec<Point>)]) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("plot: {e}");
    let xmax = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|p| p.c as f64))
        .fold(1.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..xmax, 0.0..1.05)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("used credits c")
            .y_desc("injection rate (flits/cycle)")
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (curve, pts)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            // equation (1), densely
            let eq: Vec<(f64, f64)> = (0..=400)
                .map(|j| {
                    let c = (xmax * j as f64 / 400.0).min(65535.0) as u16;
                    (c as f64, curve.eq1(c))
                })
                .collect();
            chart
                .draw_series(LineSeries::new(eq, color.stroke_width(1)))
                .map_err(|e| err(&e))?
                .label(format!("{} (eq. 1: line; RTL: dots)", curve.label()))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart
                .draw_series(
                    pts.iter()
                        .map(|p| Circle::new((p.c as f64, p.rate), 4, color.filled())),
                )
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))
}

fn main() -> anyhow::Result<()> {
    let mut out = PathBuf::from("out/reproduce/fig1");
    let mut cycles = 8192u64;
    let mut args = pft_tb::args()?.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = PathBuf::from(args.next().context("--out needs a directory")?),
            "--cycles" => {
                cycles = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&v| (1..=10_000_000).contains(&v))
                    .context("--cycles needs an integer in 1..=10000000")?
            }
            _ => bail!("unknown argument {a:?} (usage: fig1 [--out DIR] [--cycles N])"),
        }
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let curves = curves();
    // the curves on all cores
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<anyhow::Result<Vec<Point>>>>> =
        curves.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= curves.len() {
                    break;
                }
                *results[i].lock().expect("no panics") = Some(measure(curves[i], cycles));
            });
        }
    });
    let mut all = Vec::new();
    for (curve, r) in curves.iter().zip(results) {
        let pts = r
            .into_inner()
            .expect("no panics")
            .expect("every curve ran")?;
        all.push((*curve, pts));
    }
    let mut csv = String::from("fig,strategy,m,n,k,c,f_c,measured_rate,eq1_rate,cycles\n");
    let mut worst: f64 = 0.0;
    for (curve, pts) in &all {
        for p in pts {
            csv += &format!(
                "{},{},{},{},{},{},{},{},{},{}\n",
                curve.fig,
                if curve.ri { "RI" } else { "FI" },
                curve.m,
                curve.n,
                curve.k,
                p.c,
                level(p.c, curve.m, curve.n, curve.k),
                p.rate,
                p.eq1,
                cycles
            );
            worst = worst.max((p.rate - p.eq1).abs());
        }
    }
    std::fs::write(out.join("fig1.csv"), csv)?;
    for (fig, title) in [
        (
            "1a",
            "Fig. 1(a): FI, m = 0, k = 0, n = 8..12: injection rate vs c (RTL) and eq. (1)",
        ),
        (
            "1b",
            "Fig. 1(b): RI, n = 0, k = 0, m = 15..22: injection rate vs c (RTL) and eq. (1)",
        ),
    ] {
        let series: Vec<(Curve, Vec<Point>)> = all
            .iter()
            .filter(|(c, _)| c.fig == fig)
            .map(|(c, p)| (*c, p.clone()))
            .collect();
        plot(&out.join(format!("fig{fig}.svg")), title, &series)?;
    }
    println!(
        "fig1: {} curves, {} points, {cycles} cycles each; largest |measured - eq. (1)| = {worst:.4}; wrote {}",
        all.len(),
        all.iter().map(|(_, p)| p.len()).sum::<usize>(),
        out.display()
    );
    Ok(())
}
