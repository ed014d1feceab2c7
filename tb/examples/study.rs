//! The study's table and figures (`tb/study/run.sh`, `make study`; issue 45). Reads every
//! fabric's sweep directory `OUT_DIR/<fabric>/` (its `sweep.json` and each run's
//! `summary.json` and `nodes.csv`) and writes:
//!
//! - `OUT_DIR/study.csv`, one row per fabric, motif, scheme and seed: `fabric`, `motif`,
//!   `scheme` (`none` is the sweep's `off` run), `seed`, `iter_mean` (the victim's mean
//!   iteration time, cycles), `iter_alone` (the same in the isolated run: the victim alone,
//!   no congestion control), `slowdown` (= `iter_mean / iter_alone`, GPCNeT's congestion
//!   impact on the motif's iteration time), `agg_flits_per_cycle` (flits the aggressor's
//!   NICs accepted per cycle of the run, all of them together: the incast's delivered
//!   rate), `agg_jain` (Jain's index of the flits injected by the aggressor's senders, every
//!   aggressor NIC but the one that received the most: how evenly the scheme shares the
//!   congested link), `victim_jain` (Jain's index of the victim NICs' accepted rates),
//!   `thr_pct` (% of NIC-cycles throttled), `finished`, `cycles_run`;
//! - `OUT_DIR/study_<fabric>.svg`: the victim's slowdown per motif, one bar per scheme (the
//!   mean over the seeds; a line from the smallest to the largest seed), log scale;
//! - on standard output, per fabric, the markdown table of docs/results.md ("The study"):
//!   per scheme the mean slowdown of each motif and, over all motifs, the mean aggressor
//!   rate and fairness.
//!
//! ```text
//! cargo run --release -p pft-tb --example study -- OUT_DIR
//! ```

use anyhow::bail;
use pft_tb::study::{aggressor, csv_text, mean, read_study, Row};
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// Grouped bars: per motif, one bar per scheme (mean over seeds) with the seeds' range.
fn bars_svg(
    title: &str,
    motifs: &[String],
    schemes: &[String],
    cell: &dyn Fn(&str, &str) -> Vec<f64>,
) -> anyhow::Result<String> {
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("plot: {e}");
    let top = motifs
        .iter()
        .flat_map(|m| schemes.iter().flat_map(move |s| cell(m, s)))
        .filter(|v| v.is_finite())
        .fold(2.0f64, f64::max)
        * 1.3;
    let bottom = motifs
        .iter()
        .flat_map(|m| schemes.iter().flat_map(move |s| cell(m, s)))
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(1.0f64, f64::min)
        * 0.8;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let n = motifs.len() as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n, (bottom..top).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(motifs.len() * 2 + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                if (x - x.floor() - 0.5).abs() < 1e-6 && i < motifs.len() {
                    motifs[i].clone()
                } else {
                    String::new()
                }
            })
            .y_desc("victim slowdown (iteration time / alone, log scale)")
            .x_desc("victim motif")
            .draw()
            .map_err(|e| err(&e))?;
        let w = 0.8 / schemes.len().max(1) as f64;
        for (j, s) in schemes.iter().enumerate() {
            let color = Palette99::pick(j).to_rgba();
            let mut first = true;
            for (i, m) in motifs.iter().enumerate() {
                let v: Vec<f64> = cell(m, s).into_iter().filter(|x| x.is_finite()).collect();
                if v.is_empty() {
                    continue;
                }
                let x0 = i as f64 + 0.1 + j as f64 * w;
                let bar = Rectangle::new([(x0, bottom), (x0 + w * 0.9, mean(&v))], color.filled());
                let anno = chart
                    .draw_series(std::iter::once(bar))
                    .map_err(|e| err(&e))?;
                if first {
                    anno.label(s.as_str()).legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                    });
                    first = false;
                }
                let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = v.iter().copied().fold(0.0, f64::max);
                let xm = x0 + w * 0.45;
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(xm, lo), (xm, hi)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(|e| err(&e))?;
            }
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 1.0), (n, 1.0)],
                RED.stroke_width(1),
            )))
            .map_err(|e| err(&e))?
            .label("1: as fast as alone")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], RED.stroke_width(1)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

/// The seeds of some rows, "1-3" or "1, 4, 9".
fn seeds(rows: &[&Row]) -> String {
    let mut v: Vec<u64> = rows.iter().map(|r| r.seed).collect();
    v.sort_unstable();
    v.dedup();
    match v.as_slice() {
        [a, .., b] if (b - a) as usize + 1 == v.len() => format!("{a}-{b}"),
        _ => v.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
    }
}

fn main() -> anyhow::Result<()> {
    let args = pft_tb::args()?;
    let [out] = args.as_slice() else {
        bail!("usage: study OUT_DIR (the directory of tb/study/run.sh)");
    };
    let out = Path::new(out);
    let (rows, fabrics) = read_study(out)?;
    std::fs::write(out.join("study.csv"), csv_text(&rows)?)?;
    let mut text = String::new();
    for f in fabrics {
        let fr: Vec<&Row> = rows.iter().filter(|r| r.fabric == f).collect();
        let mut motifs: Vec<String> = Vec::new();
        let mut schemes: Vec<String> = vec!["none".into()];
        for r in &fr {
            if !motifs.contains(&r.motif) {
                motifs.push(r.motif.clone());
            }
            if !schemes.contains(&r.scheme) {
                schemes.push(r.scheme.clone());
            }
        }
        // the scenarios' order: none, PFT's two readings, IB CC, DCQCN, then the others
        let rank = |s: &String| {
            ["none", "paper", "r19_escape", "ibcc", "dcqcn"]
                .iter()
                .position(|x| x == s)
                .unwrap_or(5)
        };
        schemes.sort_by_key(|s| (rank(s), s.clone()));
        let sel = |m: &str, s: &str| -> Vec<&Row> {
            fr.iter()
                .filter(|r| r.motif == m && r.scheme == s)
                .copied()
                .collect()
        };
        let cell =
            |m: &str, s: &str| -> Vec<f64> { sel(m, s).iter().map(|r| r.slowdown()).collect() };
        let svg = bars_svg(
            &format!(
                "{f}: victim slowdown beside an aggressor ({}), seeds {}",
                aggressor(&out.join(f)).unwrap_or_else(|| "?".into()),
                seeds(&fr)
            ),
            &motifs,
            &schemes,
            &cell,
        )?;
        std::fs::write(out.join(format!("study_{f}.svg")), svg)?;
        writeln!(text, "\n### {f}\n")?;
        write!(text, "| scheme |")?;
        for m in &motifs {
            write!(text, " {m} |")?;
        }
        writeln!(
            text,
            " aggressor flits/cycle | aggressor Jain | throttled % | unfinished |"
        )?;
        writeln!(text, "|---|{}---|---|---|---|", "---|".repeat(motifs.len()))?;
        for s in &schemes {
            write!(text, "| {s} |")?;
            let all: Vec<&Row> = fr.iter().filter(|r| &r.scheme == s).copied().collect();
            for m in &motifs {
                write!(text, " {:.2} |", mean(&cell(m, s)))?;
            }
            let col = |g: &dyn Fn(&Row) -> f64| mean(&all.iter().map(|r| g(r)).collect::<Vec<_>>());
            writeln!(
                text,
                " {:.3} | {:.3} | {:.1} | {} |",
                col(&|r| r.agg_rate),
                col(&|r| r.agg_jain),
                col(&|r| r.thr_pct),
                all.iter().filter(|r| !r.finished).count()
            )?;
        }
    }
    print!("{text}");
    eprintln!(
        "wrote {} ({} runs) and the study_<fabric>.svg figures",
        out.join("study.csv").display(),
        rows.len()
    );
    Ok(())
}
