//! The placement study of a sweep with two seeds or more (docs/sweeps.md, "Placement
//! study"). GPCNeT draws a new placement (canary nodes, congestor groups, roots) on every
//! run from `time(NULL)` (`network_load_test.c:558-564`), so a testbed's "PFT on" and "PFT
//! off" runs are two different placements. A seed here is a placement; this pairs the
//! entry's run at one seed with the `off` run at another, as such a testbed comparison
//! would, beside the same-placement F_C the sweep reports.
//!
//! `placement.csv`: one row per point and ordered pair of seeds (a, b), a = b included:
//! `f_c` = F_C of the entry at seed a against `off` at seed b; `f_c_off` = the same for
//! `off` at seed a against `off` at seed b (what the comparison reports when the control
//! does nothing). `placement.svg`: their distributions.

use super::super::{plot, sanitize};
use super::collect::Row;
use super::plan::Plan;
use super::plots::MAX_SERIES;
use anyhow::Context;

pub const CSV: &str = "placement.csv";
pub const SVG: &str = "placement.svg";

/// The files of the study: none for a sweep of one seed.
pub fn names(plan: &Plan) -> Vec<String> {
    if plan.seeds.len() < 2 {
        return Vec::new();
    }
    vec![CSV.to_string(), SVG.to_string()]
}

/// F_C of (bandwidth, latency) `on` against `off`: (B_on D_off) / (B_off D_on), as
/// `compare` computes it (to the last bit).
fn f_c(on: (Option<f64>, Option<f64>), off: (Option<f64>, Option<f64>)) -> Option<f64> {
    let (Some(b1), Some(d1), Some(b0), Some(d0)) = (on.0, on.1, off.0, off.1) else {
        return None;
    };
    crate::metrics::gpcnet::control_factor(b1, d1, b0, d0)
}

/// One pair of the study.
struct Pair {
    point: usize,
    seed_on: u64,
    seed_off: u64,
    f_c: Option<f64>,
    f_c_off: Option<f64>,
}

fn pairs(plan: &Plan, rows: &[Row]) -> Vec<Pair> {
    let mut v = Vec::new();
    for (pi, p) in plan.points.iter().enumerate() {
        let of = |s: u64| rows.iter().find(|r| r.point == p.id && r.seed == s);
        for &a in &plan.seeds {
            for &b in &plan.seeds {
                let (Some(ra), Some(rb)) = (of(a), of(b)) else {
                    continue;
                };
                v.push(Pair {
                    point: pi,
                    seed_on: a,
                    seed_off: b,
                    f_c: f_c((ra.bw_mean, ra.lat_mean), (rb.bw_off, rb.lat_off)),
                    f_c_off: f_c((ra.bw_off, ra.lat_off), (rb.bw_off, rb.lat_off)),
                });
            }
        }
    }
    v
}

fn num(v: Option<f64>) -> String {
    v.map_or(String::new(), |x| format!("{x}"))
}

/// Writes `placement.csv` and `placement.svg` (two seeds or more); returns their names.
pub fn write(dir: &std::path::Path, plan: &Plan, rows: &[Row]) -> anyhow::Result<Vec<String>> {
    if plan.seeds.len() < 2 {
        return Ok(Vec::new());
    }
    let all = pairs(plan, rows);
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut h = vec!["point".to_string()];
    h.extend(plan.axes.iter().cloned());
    h.extend(["seed_on", "seed_off", "same_placement", "f_c", "f_c_off"].map(String::from));
    w.write_record(&h)?;
    for p in &all {
        let pt = &plan.points[p.point];
        let mut rec = vec![pt.id.clone()];
        rec.extend(pt.values.iter().map(|v| v.trim_matches('"').to_string()));
        rec.extend([
            p.seed_on.to_string(),
            p.seed_off.to_string(),
            (p.seed_on == p.seed_off).to_string(),
            num(p.f_c),
            num(p.f_c_off),
        ]);
        w.write_record(rec)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
    super::exec::write(dir, CSV, std::str::from_utf8(&bytes).context("UTF-8")?)?;

    // Distributions of log10 F_C (ratios spread over decades): off against off first
    // (placement alone), then per point its same-placement and independent-placement F_C.
    let cross = |p: &&Pair| p.seed_on != p.seed_off;
    let mut series: Vec<(String, Vec<f64>)> = vec![(
        "off vs off, independent placements".to_string(),
        all.iter()
            .filter(|p| p.point == 0)
            .filter(cross)
            .filter_map(|p| p.f_c_off)
            .map(f64::log10)
            .collect(),
    )];
    for (pi, pt) in plan.points.iter().enumerate() {
        if series.len() + 2 > MAX_SERIES {
            break;
        }
        let label = if plan.axes.is_empty() {
            plan.entry.clone()
        } else {
            sanitize(
                &pt.values
                    .iter()
                    .map(|v| v.trim_matches('"'))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        };
        let of = |same: bool| -> Vec<f64> {
            all.iter()
                .filter(|p| p.point == pi && (p.seed_on == p.seed_off) == same)
                .filter_map(|p| p.f_c)
                .map(f64::log10)
                .collect()
        };
        series.push((format!("{label}: same placement"), of(true)));
        series.push((format!("{label}: independent placements"), of(false)));
    }
    let n = plan.seeds.len();
    let title = format!(
        "{}: F_C, on and off at one placement ({n} per line) or two ({} per line)",
        plan.scenario,
        n * (n - 1)
    );
    // no parenthesis: the y axis takes a unit from one
    let what = "log10 F_C: 0 = no change, 0.41 = the PFT paper's 2.58, -0.41 = 1/2.58";
    let svg = plot::distribution_of_svg(&title, what, "pairs", &series, 24)?;
    super::super::output::write_atomic(&dir.join(SVG), svg.as_bytes())?;
    Ok(names(plan))
}

#[cfg(test)]
mod tests {
    use super::f_c;

    #[test]
    fn f_c_is_bandwidth_gain_times_latency_gain() {
        // twice the bandwidth and half the latency: 4
        assert_eq!(
            f_c((Some(2.0), Some(50.0)), (Some(1.0), Some(100.0))),
            Some(4.0)
        );
        assert_eq!(f_c((None, Some(1.0)), (Some(1.0), Some(1.0))), None);
        assert_eq!(f_c((Some(1.0), Some(0.0)), (Some(1.0), Some(1.0))), None);
    }
}
