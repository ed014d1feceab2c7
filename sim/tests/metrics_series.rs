//! Delivery statistics (accepted throughput, latency windows) and the PFT time series.
#![allow(clippy::too_many_arguments)]

use pft_sim::metrics::{CsvTable, DeliveryReport, DeliveryStats, TimeSeries, TimeSeriesError};
use pft_sim::net::types::{Delivery, Message};
use pft_sim::net::NodeId;
use pft_sim::workload::tag;

fn d(
    id: u64,
    src: u32,
    dst: u32,
    bytes: u32,
    t: u32,
    created: u64,
    injected: u64,
    delivered: u64,
) -> Delivery {
    Delivery {
        msg: Message {
            id,
            src: NodeId(src),
            dst: NodeId(dst),
            bytes,
            tag: t,
            created,
        },
        injected,
        delivered,
        bits: 0,
    }
}

#[test]
fn accepted_throughput_and_latency_windows() {
    let mut st = DeliveryStats::new(3, 16, 100, 200);
    st.record(&d(0, 0, 1, 64, tag::UNIFORM, 90, 95, 120)); // throughput yes, latency no
    st.record(&d(1, 0, 1, 20, tag::UNIFORM, 150, 150, 160)); // both; 20 B = 2 flits
    st.record(&d(2, 1, 2, 64, tag::CANARY_LATENCY, 190, 195, 230)); // latency only
    st.record(&d(3, 2, 0, 64, tag::UNIFORM, 10, 20, 99)); // neither
    let r = st.report(None);
    assert_eq!(r.cycles, 100);
    assert_eq!(r.per_node[1].accepted_bytes, 84);
    assert_eq!(r.per_node[1].accepted_flits, 6);
    assert!((r.per_node[1].accepted_flits_per_cycle - 0.06).abs() < 1e-12);
    assert_eq!(r.per_node[0].sent_bytes, 84);
    assert_eq!(r.per_node[2].accepted_bytes, 0);
    assert!((r.mean_accepted_flits_per_cycle - 0.02).abs() < 1e-12);
    assert!((r.jain_accepted.unwrap() - 1.0 / 3.0).abs() < 1e-12);
    let u = st.samples(tag::UNIFORM).unwrap();
    assert_eq!((u.total.clone(), u.network.clone()), (vec![10], vec![10]));
    let c = st.samples(tag::CANARY_LATENCY).unwrap();
    assert_eq!((c.total[0], c.network[0]), (40, 35));
    assert_eq!(st.total_latencies_where(tag::is_canary), vec![40]);
    // an early stop shortens the window
    assert_eq!(st.report(Some(150)).cycles, 50);
    // serialisation
    let back: DeliveryReport = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
    let csv = r.to_csv_string().unwrap();
    assert!(
        csv.starts_with("node,accepted_bytes,accepted_flits,accepted_msgs,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 4);
    let rows = r.latency_rows();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].name, "uniform.total");
    assert_eq!(rows[2].name, "canary_latency.total");
    assert_eq!(rows[2].mean, 40.0);
}

#[test]
fn time_series_round_trip_compactly() {
    let mut ts = TimeSeries::new(vec![NodeId(7), NodeId(3), NodeId(7)], 10);
    assert_eq!(ts.watched(), &[NodeId(3), NodeId(7)]);
    assert!(ts.due(20) && !ts.due(25));
    for k in 0..1024u64 {
        let cyc = k * 10;
        ts.push(cyc, NodeId(3), (k % 700) as u32, k % 3 == 0)
            .unwrap();
        ts.push(cyc, NodeId(7), 1000 + k as u32, false).unwrap();
    }
    assert_eq!(ts.len(), 2048);
    assert_eq!(ts.sample_bytes(), 8 * 2048, "8 bytes per sample");
    let s3 = ts.node_samples(NodeId(3));
    assert_eq!(s3.len(), 1024);
    assert_eq!(
        (s3[701].cycle, s3[701].c, s3[701].congested),
        (7010, 1, false)
    );
    assert!(s3[702].congested);
    let all = ts.samples();
    assert_eq!(
        (all[0].node, all[1].node, all[2].cycle),
        (NodeId(3), NodeId(7), 10)
    );
    assert!((ts.congested_fraction(NodeId(3)).unwrap() - 342.0 / 1024.0).abs() < 1e-12);
    assert_eq!(ts.congested_fraction(NodeId(7)), Some(0.0));
    // errors leave the series unchanged
    assert_eq!(
        ts.push(0, NodeId(4), 1, true),
        Err(TimeSeriesError::NotWatched(NodeId(4)))
    );
    assert!(matches!(
        ts.push(5, NodeId(3), 1, true),
        Err(TimeSeriesError::CycleWentBack { .. })
    ));
    assert_eq!(
        ts.push(20_000, NodeId(3), 1 << 31, true),
        Err(TimeSeriesError::CTooLarge(1 << 31))
    );
    assert!(matches!(
        ts.push(1 << 40, NodeId(3), 1, true),
        Err(TimeSeriesError::GapTooLong { .. })
    ));
    assert_eq!(ts.len(), 2048);
    // JSON and CSV
    let back: TimeSeries = serde_json::from_str(&serde_json::to_string(&ts).unwrap()).unwrap();
    assert_eq!(back, ts);
    let csv = ts.to_csv_string().unwrap();
    assert!(
        csv.starts_with("cycle,node,c,congested\n0,3,0,true\n0,7,1000,false\n"),
        "{csv}"
    );
}
