//! GPCNeT summaries, Congestion Impact Factor and F_C on known inputs.

use pft_sim::metrics::{
    congestion_impact, control_factor, control_factors, impact_factor, summarize, CsvTable,
    GpcnetSummary,
};
use pft_sim::net::NodeId;
use pft_sim::workload::gpcnet::{
    CanaryProcessResult, CanaryTestResult, CongestorProcessResult, GpcnetResults,
};
use pft_sim::workload::{CanaryTest, CongestorKind};

fn proc_(p: u32, samples: Vec<f64>, rings: Vec<f64>) -> CanaryProcessResult {
    CanaryProcessResult {
        process: p,
        node: NodeId(p),
        comm: 0,
        samples,
        ring_values: rings,
    }
}

/// A run whose latency samples are `lat` (per process, one ring) and bandwidth samples `bw`.
fn results(on: bool, lat: &[Vec<f64>], bw: &[Vec<f64>]) -> GpcnetResults {
    let mk = |test: CanaryTest, v: &[Vec<f64>]| CanaryTestResult {
        test,
        units: test.units().to_string(),
        start_cycle: Some(0),
        end_cycle: Some(100),
        processes: v
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ring = if test.higher_is_better() {
                    // bytes/cycle of the ring as GPCNeT: total bytes / total time; with
                    // equal bytes per iteration that is the harmonic mean of the samples
                    s.len() as f64 / s.iter().map(|x| 1.0 / x).sum::<f64>()
                } else {
                    s.iter().sum::<f64>() / s.len() as f64
                };
                proc_(i as u32, s.clone(), vec![ring])
            })
            .collect(),
    };
    GpcnetResults {
        nodes: 10,
        ppn: 1,
        congestors_on: on,
        canary_start_cycle: Some(0),
        canary_end_cycle: Some(100),
        finished: true,
        measure_cycles: 100,
        tests: vec![mk(CanaryTest::Latency, lat), mk(CanaryTest::Bandwidth, bw)],
        congestors: vec![
            CongestorProcessResult {
                process: 5,
                node: NodeId(5),
                group: 0,
                kind: CongestorKind::Incast,
                root: true,
                bytes: 0,
                ops: 0,
            },
            CongestorProcessResult {
                process: 6,
                node: NodeId(6),
                group: 0,
                kind: CongestorKind::Incast,
                root: false,
                bytes: 4096,
                ops: 1,
            },
        ],
    }
}

fn lat_set(scale: f64) -> Vec<Vec<f64>> {
    // 2 processes x 100 samples: 1..=100 and 101..=200 cycles (times scale)
    vec![
        (1..=100).map(|x| x as f64 * scale).collect(),
        (101..=200).map(|x| x as f64 * scale).collect(),
    ]
}

fn bw_set(v: f64) -> Vec<Vec<f64>> {
    vec![vec![v; 50], (1..=50).map(|x| x as f64 * v / 50.0).collect()]
}

#[test]
fn summary_columns_follow_gpcnet() {
    let s = summarize(&results(true, &lat_set(1.0), &bw_set(10.0)), 4);
    let lat = s.test(CanaryTest::Latency).unwrap();
    assert_eq!(lat.avg, Some(100.5));
    assert_eq!(lat.tail, Some(198.0), "nearest-rank p99 of 1..=200");
    assert_eq!(lat.samples.unwrap().count, 200);
    let pp = lat.per_process.as_ref().unwrap();
    assert_eq!(pp.sorted, vec![50.5, 150.5]);
    let bw = s.test(CanaryTest::Bandwidth).unwrap();
    // 100 samples: 50 x 10.0 and 0.2..=10.0; 99 % of them are >= 0.4 (from the top)
    assert!((bw.tail.unwrap() - 0.4).abs() < 1e-12, "{:?}", bw.tail);
    assert!(bw.avg.unwrap() < 10.0 && bw.avg.unwrap() > 5.0);
    assert_eq!(s.groups.len(), 1);
    assert_eq!((s.groups[0].senders, s.groups[0].total_bytes), (1, 4096));
    assert!((s.groups[0].bytes_per_cycle - 40.96).abs() < 1e-9);
    // JSON round trip and CSV rows
    let back: GpcnetSummary = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let csv = s.to_csv_string().unwrap();
    assert!(
        csv.starts_with("test,units,congestors_on,complete,processes,avg,tail,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    assert!(
        csv.contains("latency,cycles,true,true,2,100.5,198"),
        "{csv}"
    );
}

#[test]
fn congestion_impact_factor_on_known_inputs() {
    assert_eq!(impact_factor(false, 10.0, 25.0), Some(2.5));
    assert_eq!(impact_factor(true, 100.0, 40.0), Some(2.5));
    assert_eq!(impact_factor(true, 100.0, 0.0), None);
    let iso = summarize(&results(false, &lat_set(1.0), &bw_set(10.0)), 4);
    let cong = summarize(&results(true, &lat_set(3.0), &bw_set(2.5)), 4);
    let cif = congestion_impact(&iso, &cong);
    assert_eq!(cif.factors.len(), 2);
    for f in &cif.factors {
        let (a, t) = (f.avg.unwrap(), f.tail.unwrap());
        match f.test {
            CanaryTest::Latency => {
                assert!((a - 3.0).abs() < 1e-12 && (t - 3.0).abs() < 1e-12, "{f:?}")
            }
            CanaryTest::Bandwidth => {
                assert!((a - 4.0).abs() < 1e-12 && (t - 4.0).abs() < 1e-12, "{f:?}")
            }
            _ => unreachable!(),
        }
    }
    let csv = cif.to_csv_string().unwrap();
    assert!(csv.starts_with("test,avg,tail,"), "{csv}");
}

#[test]
fn control_factor_on_known_inputs() {
    assert_eq!(control_factor(2.0, 1.0, 1.0, 2.0), Some(4.0));
    assert_eq!(control_factor(1.0, 1.0, 1.0, 1.0), Some(1.0));
    assert_eq!(control_factor(1.0, 0.0, 1.0, 1.0), None);
    // control off: bandwidth 10, latency x1; control on: bandwidth 20, latency x0.5
    let off = summarize(&results(true, &lat_set(1.0), &bw_set(10.0)), 4);
    let on = summarize(&results(true, &lat_set(0.5), &bw_set(20.0)), 4);
    let fc = control_factors(&on, &off);
    assert!((fc.primary.unwrap() - 4.0).abs() < 1e-12, "{fc:?}");
    let tail = fc.all.iter().find(|f| f.statistic == "tail").unwrap();
    assert!((tail.f_c.unwrap() - 4.0).abs() < 1e-12);
    assert_eq!(fc.all.len(), 2, "no allreduce test in these runs");
    // swapping the runs inverts it
    let inv = control_factors(&off, &on).primary.unwrap();
    assert!((inv - 0.25).abs() < 1e-12);
    assert_eq!(fc.csv_rows().len(), 2);
    assert!(fc
        .to_csv_string()
        .unwrap()
        .starts_with("statistic,delay_test,b_c,d_c,b_0,d_0,f_c\n"));
}
