//! Percentiles, summaries, Jain's index and per-process distributions on known data.

use pft_sim::metrics::stats::LatencySamples;
use pft_sim::metrics::{
    jain_index, percentile_from_top, percentile_sorted, CsvTable, Distribution, Histogram, Summary,
};

#[test]
fn nearest_rank_percentiles_on_known_data() {
    let v: Vec<f64> = (1..=100).map(f64::from).collect();
    assert_eq!(percentile_sorted(&v, 50.0), Some(50.0));
    assert_eq!(percentile_sorted(&v, 99.0), Some(99.0));
    assert_eq!(percentile_sorted(&v, 99.5), Some(100.0));
    assert_eq!(percentile_sorted(&v, 100.0), Some(100.0));
    assert_eq!(percentile_sorted(&v, 0.0), Some(1.0));
    assert_eq!(percentile_sorted(&v, 1.0), Some(1.0));
    assert_eq!(percentile_sorted(&v, 1.5), Some(2.0));
    // from the top: 99 % of the samples are >= 2
    assert_eq!(percentile_from_top(&v, 99.0), Some(2.0));
    assert_eq!(percentile_from_top(&v, 50.0), Some(51.0));
    // small sets
    assert_eq!(percentile_sorted(&[5.0], 99.0), Some(5.0));
    assert_eq!(percentile_sorted(&[1.0, 2.0], 50.0), Some(1.0));
    assert_eq!(percentile_sorted(&[1.0, 2.0], 99.0), Some(2.0));
    let ten: Vec<f64> = (1..=10).map(f64::from).collect();
    assert_eq!(percentile_sorted(&ten, 99.0), Some(10.0));
    assert_eq!(percentile_sorted(&ten, 90.0), Some(9.0));
    assert_eq!(percentile_from_top(&ten, 90.0), Some(2.0));
    // nearest rank rounds the rank up, never to the nearest
    assert_eq!(percentile_sorted(&ten, 12.0), Some(2.0));
    assert_eq!(percentile_sorted(&[1.0, 2.0, 3.0], 34.0), Some(2.0));
    assert_eq!(percentile_from_top(&ten, 12.0), Some(9.0));
    // out of range
    assert_eq!(percentile_sorted(&[], 50.0), None);
    assert_eq!(percentile_sorted(&v, 101.0), None);
    assert_eq!(percentile_sorted(&v, f64::NAN), None);
}

#[test]
fn summary_of_raw_samples_is_not_clamped() {
    // BookSim would clamp these into its last 1000-cycle bin; we keep them.
    let mut s = LatencySamples::default();
    for x in (1..=200u64).rev() {
        s.push(x * 1000);
    }
    let m = s.summary().unwrap();
    assert_eq!(m.count, 200);
    assert_eq!(m.min, 1000.0);
    assert_eq!(m.p50, 100_000.0);
    assert_eq!(m.p99, 198_000.0);
    assert_eq!(m.max, 200_000.0);
    assert!((m.mean - 100_500.0).abs() < 1e-9);
    let f: Vec<f64> = s.samples.iter().map(|&x| x as f64).collect();
    assert_eq!(Summary::of(&f).unwrap(), m);
    assert_eq!(Summary::of(&[]), None);
    assert_eq!(LatencySamples::default().summary(), None);
    let csv = s.to_csv_string().unwrap();
    assert!(csv.starts_with("index,cycles\n0,200000\n"), "{csv}");
    assert_eq!(csv.lines().count(), 201);
}

#[test]
fn jain_index_bounds() {
    assert!((jain_index(&[3.0; 8]).unwrap() - 1.0).abs() < 1e-12);
    assert!((jain_index(&[0.0, 0.0, 5.0, 0.0]).unwrap() - 0.25).abs() < 1e-12);
    assert!((jain_index(&[1.0, 3.0]).unwrap() - 0.8).abs() < 1e-12);
    assert_eq!(jain_index(&[]), None);
    assert_eq!(jain_index(&[0.0, 0.0]), None);
    assert_eq!(jain_index(&[1.0, -1.0]), None);
    assert_eq!(jain_index(&[1.0, f64::INFINITY]), None);
}

#[test]
fn distribution_of_per_process_values() {
    let v: Vec<f64> = (1..=10).rev().map(f64::from).collect();
    let d = Distribution::new(&v, 5).unwrap();
    assert_eq!(d.count, 10);
    assert_eq!(d.sorted, (1..=10).map(f64::from).collect::<Vec<_>>());
    assert_eq!(d.mean, 5.5);
    assert_eq!(
        (
            d.quantiles.min,
            d.quantiles.p50,
            d.quantiles.p90,
            d.quantiles.max
        ),
        (1.0, 5.0, 9.0, 10.0)
    );
    assert_eq!(d.quantiles.p1, 1.0);
    assert_eq!(d.histogram.counts, vec![2, 2, 2, 2, 2]);
    assert!((d.histogram.bin_width - 1.8).abs() < 1e-12);
    let rows = d.csv_rows();
    assert_eq!(rows.len(), 5);
    assert_eq!((rows[4].to, rows[4].count), (10.0, 2));
    assert_eq!(d.value_rows()[9].value, 10.0);
    assert!(d
        .to_csv_string()
        .unwrap()
        .starts_with("bin,from,to,count\n"));
    // degenerate: all equal -> one bin; NaN ignored; empty -> None
    let h = Histogram::new(&[4.0, 4.0, f64::NAN], 10).unwrap();
    assert_eq!(h.counts, vec![2]);
    assert_eq!(Distribution::new(&[], 5), None);
    let json = serde_json::to_string(&d).unwrap();
    let back: Distribution = serde_json::from_str(&json).unwrap();
    assert_eq!(back, d);
}
