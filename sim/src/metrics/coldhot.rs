//! Cold and hot messages of a hot-spot workload against time (seed 004's Figs 5-6 and its
//! hot-spot link utilisation): per bin of delivery cycles, the mean latency of cold and hot
//! messages, what was delivered, the cold throughput, the utilisation of the hot spots'
//! ejection links and the marked messages; over the run, the peak cold latency, the
//! hot-spot link utilisation while the hot-spot burst lasts and the marked fractions.
//!
//! - **Hot and cold.** A message is *hot* when its destination was a hot spot in the cycle
//!   it was created (with moving hot spots, the set in force then), *cold* otherwise. The
//!   split is by destination, not by sender: the congestion tree grows back from the hot
//!   spot's ejection link, its root, and every message to a hot spot joins the tree
//!   whoever sent it, so a uniform (V) host's message that happens to go to the hot spot is
//!   hot, and a C node's message is hot because it goes there. The cold messages are the
//!   ones the tree should not touch: their latency is the victims' (seed 004's cold flows).
//! - **Latency** is `delivered - created` (from generation, source queueing included);
//!   its **source wait** `injected - created` is the part spent at the source NIC (its
//!   queues and the scheme's gate) before the first flit left.
//! - **Hot flits in flight**: the flits of hot messages between their first flit's
//!   injection and their delivery (messages delivered by the run's end); the run's
//!   largest count bounds the congestion tree's size (in flits).
//! - **Marked**: the scheme's `Scheme::marked` of `Delivery::bits` (the OR of the
//!   message's packets' scheme bits at its destination): any bit set (IB CC's FECN,
//!   Renato's mark), MVCM's VB (validated: its hot class).
//! - **Bins** are of delivery cycles, `period` cycles long (`timeseries.period`, as
//!   `series.csv`), from cycle 0 to the run's end; the last one may be shorter and its
//!   rates are over its own length. Bins hold sums, so that past `MAX_ROWS` pairs merge
//!   exactly (the period doubles, as `NetSeries`'s).
//!
//! docs/scenarios.md ("coldhot.csv") and docs/workloads.md give the columns.

use crate::net::types::Delivery;
use crate::workload::{tag, AnyWorkload, HotspotWorkload, NodeClass};
use serde::{Deserialize, Serialize};

/// Most bins kept.
pub const MAX_ROWS: usize = 1 << 18;

/// How the run classifies one delivery (`kind_of` for a hot-spot workload).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kind {
    /// Its destination was a hot spot when it was created.
    pub hot: bool,
    /// A hot-spot message of a C node (a contributor of the burst): the congestion
    /// period ends with the delivery of the last one.
    pub from_c: bool,
}

/// The kind of delivery `d` of the hot-spot workload `h`: hot when its destination was a
/// hot spot in the cycle it was created (`HotspotWorkload::hotspots_at`), from a C node
/// when it is a C node's hot-spot message.
pub fn kind_of(h: &HotspotWorkload, d: &Delivery) -> Kind {
    let hot = h.hotspots_at(d.msg.created).contains(&d.msg.dst);
    Kind {
        hot,
        from_c: hot && d.msg.tag == tag::HOTSPOT_HOT && h.class_of(d.msg.src) == NodeClass::C,
    }
}

/// A delivered message's cycles: created, first flit injected, delivered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Times {
    pub created: u64,
    pub injected: u64,
    pub delivered: u64,
}

/// Sums over the messages of one class in one bin (or the whole run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassSums {
    pub delivered: u64,
    pub latency_sum: u128,
    /// Sum of `injected - created` (source wait).
    pub wait_sum: u128,
    pub bytes: u64,
    pub flits: u64,
    pub marked: u64,
}

impl ClassSums {
    fn add(&mut self, lat: u64, wait: u64, bytes: u64, flits: u64, marked: bool) {
        self.delivered += 1;
        self.latency_sum += lat as u128;
        self.wait_sum += wait as u128;
        self.bytes += bytes;
        self.flits += flits;
        self.marked += marked as u64;
    }

    fn merge(&mut self, o: &ClassSums) {
        self.delivered += o.delivered;
        self.latency_sum += o.latency_sum;
        self.wait_sum += o.wait_sum;
        self.bytes += o.bytes;
        self.flits += o.flits;
        self.marked += o.marked;
    }

    /// Mean latency, `None` over no message.
    pub fn latency_mean(&self) -> Option<f64> {
        (self.delivered > 0).then(|| self.latency_sum as f64 / self.delivered as f64)
    }

    /// Mean source wait, `None` over no message.
    pub fn wait_mean(&self) -> Option<f64> {
        (self.delivered > 0).then(|| self.wait_sum as f64 / self.delivered as f64)
    }

    /// Marked / delivered, `None` over no message.
    pub fn marked_frac(&self) -> Option<f64> {
        (self.delivered > 0).then(|| self.marked as f64 / self.delivered as f64)
    }
}

/// One bin's sums: cold, hot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bin {
    cold: ClassSums,
    hot: ClassSums,
}

/// One row of `coldhot.csv` (the columns, in order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColdHotRow {
    /// The bin's first cycle.
    pub cycle: u64,
    /// Mean `delivered - created` of the cold messages delivered in the bin (empty: none).
    pub cold_lat_mean: Option<f64>,
    /// The same for the hot messages.
    pub hot_lat_mean: Option<f64>,
    pub cold_delivered: u64,
    pub hot_delivered: u64,
    /// Cold payload bytes delivered per cycle of the bin per NIC (all NICs).
    pub cold_bytes_per_node_cycle: f64,
    /// Flits of hot messages delivered per cycle of the bin per hot spot: the busy share
    /// of a hot spot's ejection link (flits = `ceil(bytes / flit_bytes)` per message).
    pub hot_link_util: f64,
    /// Cold / hot messages delivered in the bin marked.
    pub cold_marked: u64,
    pub hot_marked: u64,
    /// Mean source wait `injected - created` of the cold (hot) messages delivered in the
    /// bin (empty: none): the part of their latency spent at the source NIC.
    pub cold_wait_mean: Option<f64>,
    pub hot_wait_mean: Option<f64>,
}

/// What `summary.json` (`coldhot`) and `compare.csv` carry of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColdHotSummary {
    /// Bin length of `coldhot.csv` and of `cold_lat_peak`, cycles.
    pub bin_cycles: u64,
    /// Whole run: cold and hot messages delivered, marked, and their mean latency.
    pub cold_delivered: u64,
    pub hot_delivered: u64,
    pub cold_marked: u64,
    pub hot_marked: u64,
    pub cold_lat_mean: Option<f64>,
    pub hot_lat_mean: Option<f64>,
    /// The largest per-bin mean latency of cold messages, cycles.
    pub cold_lat_peak: Option<f64>,
    /// The largest per-bin mean latency of hot messages, cycles.
    pub hot_lat_peak: Option<f64>,
    /// The congestion period: from the cycle the first hot-spot message of a C node was
    /// created to the cycle the last one delivered was delivered (both included); `None`
    /// when no C node's message was delivered.
    pub congestion_start: Option<u64>,
    pub congestion_end: Option<u64>,
    /// Flits of hot messages delivered in the congestion period per cycle of it per hot
    /// spot (the hot spots' ejection links' busy share).
    pub hot_link_util: Option<f64>,
    /// Cold (hot) messages delivered marked / cold (hot) messages delivered,
    /// whole run.
    pub marked_cold_frac: Option<f64>,
    pub marked_hot_frac: Option<f64>,
    /// Whole run: mean source wait (`injected - created`) of the cold and hot messages,
    /// and the largest per-bin mean of the cold ones, cycles.
    pub cold_wait_mean: Option<f64>,
    pub hot_wait_mean: Option<f64>,
    pub cold_wait_peak: Option<f64>,
    /// The most flits of hot messages in flight at once (first flit injected, message
    /// not yet delivered), whole run: a bound on the congestion tree's size.
    pub hot_flits_in_flight_peak: u64,
}

/// The collector of one run, fed every delivery in delivery order.
#[derive(Clone, Debug, PartialEq)]
pub struct ColdHot {
    /// Bin length, cycles (the caller's, doubled at each merge).
    pub period: u64,
    pub nodes: u32,
    /// Hot spots at a time (`HotspotConfig::hotspots`): the links the utilisation shares.
    pub hotspots: u32,
    pub flit_bytes: u32,
    bins: Vec<Bin>,
    total: Bin,
    /// Cycles run (`close`): the last bin ends there.
    end: u64,
    /// First creation of a C node's hot-spot message (`start_congestion`).
    c_start: Option<u64>,
    /// Last delivery of a C node's hot-spot message.
    c_end: Option<u64>,
    /// Hot flits delivered from `c_start` on; and their count at the end of cycle `c_end`.
    acc: u64,
    acc_at_end: u64,
    /// Hot messages' (injected, delivered, flits), for the in-flight peak.
    hot_spans: Vec<(u64, u64, u64)>,
}

impl ColdHot {
    /// Bins of `period` cycles (at least 1) over `nodes` NICs, `hotspots` hot spots and
    /// flits of `flit_bytes` bytes.
    pub fn new(period: u64, nodes: u32, hotspots: u32, flit_bytes: u32) -> Self {
        ColdHot {
            period: period.max(1),
            nodes: nodes.max(1),
            hotspots: hotspots.max(1),
            flit_bytes: flit_bytes.max(1),
            bins: Vec::new(),
            total: Bin::default(),
            end: 0,
            c_start: None,
            c_end: None,
            acc: 0,
            acc_at_end: 0,
            hot_spans: Vec::new(),
        }
    }

    /// The collector of a run of `w` with bins of `period` cycles and flits of
    /// `flit_bytes` bytes: for a hot-spot workload only (`None` for the others).
    pub fn of_run(w: &AnyWorkload, period: u64, flit_bytes: u32) -> Option<ColdHot> {
        let AnyWorkload::Hotspot(h) = w else {
            return None;
        };
        let hotspots = h.hotspots().len() as u32;
        Some(ColdHot::new(period, h.nodes(), hotspots, flit_bytes))
    }

    /// Cycle `now` of a run of `w` (after its step): the start of the congestion period
    /// as the workload knows it, and the cycle's deliveries `ds`. The run ends after the
    /// last cycle fed.
    pub fn feed(
        &mut self,
        w: &AnyWorkload,
        now: u64,
        ds: &[Delivery],
        marked: impl Fn(u8) -> bool,
    ) {
        let AnyWorkload::Hotspot(h) = w else {
            return;
        };
        if let Some(c) = h.first_c_hot_created() {
            self.start_congestion(c);
        }
        for d in ds {
            let k = kind_of(h, d);
            let times = Times {
                created: d.msg.created,
                injected: d.injected,
                delivered: d.delivered,
            };
            self.record(times, d.msg.bytes, marked(d.bits), k);
        }
        self.close(now + 1);
    }

    /// The congestion period starts in `cycle`: the first hot-spot message of a C node was
    /// created then (the workload knows it when it creates it; call before the deliveries
    /// of that cycle). Later calls are ignored.
    pub fn start_congestion(&mut self, cycle: u64) {
        if self.c_start.is_none() {
            self.c_start = Some(cycle);
        }
    }

    /// One delivery: its cycles, payload `bytes`, whether it counts as marked (the
    /// scheme's `marked` of its bits), and its kind. Deliveries come in nondecreasing
    /// `delivered` order.
    pub fn record(&mut self, t: Times, bytes: u32, marked: bool, kind: Kind) {
        let Times {
            created,
            injected,
            delivered,
        } = t;
        let flits = (bytes as u64).div_ceil(self.flit_bytes as u64).max(1);
        let lat = delivered.saturating_sub(created);
        let wait = injected.saturating_sub(created);
        let mut k = (delivered / self.period) as usize;
        while k >= MAX_ROWS {
            self.merge();
            k = (delivered / self.period) as usize;
        }
        if self.bins.len() <= k {
            self.bins.resize(k + 1, Bin::default());
        }
        let (bin, tot) = if kind.hot {
            (&mut self.bins[k].hot, &mut self.total.hot)
        } else {
            (&mut self.bins[k].cold, &mut self.total.cold)
        };
        bin.add(lat, wait, bytes as u64, flits, marked);
        tot.add(lat, wait, bytes as u64, flits, marked);
        if kind.hot {
            self.hot_spans
                .push((injected.min(delivered), delivered, flits));
        }
        if kind.hot && self.c_start.is_some_and(|s| delivered >= s) {
            self.acc += flits;
            if self.c_end == Some(delivered) {
                self.acc_at_end = self.acc;
            }
        }
        if kind.from_c {
            // the workload has called `start_congestion` by now; if not (a caller
            // without the hint), the message's own creation starts the period
            if self.c_start.is_none() {
                self.c_start = Some(created);
                self.acc = flits;
            }
            self.c_end = Some(delivered);
            self.acc_at_end = self.acc;
        }
        self.end = self.end.max(delivered + 1);
    }

    /// The run ended after `cycles` cycles (the last bin ends there).
    pub fn close(&mut self, cycles: u64) {
        self.end = self.end.max(cycles);
    }

    /// Pairs of bins into one; the period doubles.
    fn merge(&mut self) {
        let bins = std::mem::take(&mut self.bins);
        self.bins = bins
            .chunks(2)
            .map(|p| {
                let mut b = p[0];
                if let Some(o) = p.get(1) {
                    b.cold.merge(&o.cold);
                    b.hot.merge(&o.hot);
                }
                b
            })
            .collect();
        self.period *= 2;
    }

    /// Length of bin `k` (the last one ends at the run's end).
    fn bin_len(&self, k: usize) -> u64 {
        let from = k as u64 * self.period;
        self.period.min(self.end.saturating_sub(from)).max(1)
    }

    /// The rows of `coldhot.csv`: one per bin from cycle 0 to the run's end.
    pub fn rows(&self) -> Vec<ColdHotRow> {
        let n = self.end.div_ceil(self.period) as usize;
        (0..n.max(self.bins.len()))
            .map(|k| {
                let b = self.bins.get(k).copied().unwrap_or_default();
                let len = self.bin_len(k) as f64;
                ColdHotRow {
                    cycle: k as u64 * self.period,
                    cold_lat_mean: b.cold.latency_mean(),
                    hot_lat_mean: b.hot.latency_mean(),
                    cold_delivered: b.cold.delivered,
                    hot_delivered: b.hot.delivered,
                    cold_bytes_per_node_cycle: b.cold.bytes as f64 / (len * self.nodes as f64),
                    hot_link_util: b.hot.flits as f64 / (len * self.hotspots as f64),
                    cold_marked: b.cold.marked,
                    hot_marked: b.hot.marked,
                    cold_wait_mean: b.cold.wait_mean(),
                    hot_wait_mean: b.hot.wait_mean(),
                }
            })
            .collect()
    }

    /// `coldhot.csv`.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        super::csv_table::rows_to_string(&self.rows())
    }

    /// The run's figures (`summary.json`'s `coldhot`, the compare columns).
    pub fn summary(&self) -> ColdHotSummary {
        let peak = |f: fn(&Bin) -> Option<f64>| {
            self.bins
                .iter()
                .filter_map(f)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
        };
        let (period, util) = match (self.c_start, self.c_end) {
            (Some(s), Some(e)) if e >= s => {
                let cycles = e - s + 1;
                (
                    (Some(s), Some(e)),
                    Some(self.acc_at_end as f64 / (cycles as f64 * self.hotspots as f64)),
                )
            }
            _ => ((None, None), None),
        };
        ColdHotSummary {
            bin_cycles: self.period,
            cold_delivered: self.total.cold.delivered,
            hot_delivered: self.total.hot.delivered,
            cold_marked: self.total.cold.marked,
            hot_marked: self.total.hot.marked,
            cold_lat_mean: self.total.cold.latency_mean(),
            hot_lat_mean: self.total.hot.latency_mean(),
            cold_lat_peak: peak(|b| b.cold.latency_mean()),
            hot_lat_peak: peak(|b| b.hot.latency_mean()),
            congestion_start: period.0,
            congestion_end: period.1,
            hot_link_util: util,
            marked_cold_frac: self.total.cold.marked_frac(),
            marked_hot_frac: self.total.hot.marked_frac(),
            cold_wait_mean: self.total.cold.wait_mean(),
            hot_wait_mean: self.total.hot.wait_mean(),
            cold_wait_peak: peak(|b| b.cold.wait_mean()),
            hot_flits_in_flight_peak: self.hot_in_flight_peak(),
        }
    }

    /// The most hot flits in flight at once: each hot message counts its flits from the
    /// cycle its first flit left to its delivery cycle, both included.
    fn hot_in_flight_peak(&self) -> u64 {
        let mut ev: Vec<(u64, i64)> = Vec::with_capacity(2 * self.hot_spans.len());
        for &(i, d, f) in &self.hot_spans {
            ev.push((i, f as i64));
            ev.push((d + 1, -(f as i64)));
        }
        // at one cycle, leaving before entering: a span ending at d and one starting at
        // d + 1 do not overlap
        ev.sort_unstable();
        let (mut now, mut peak) = (0i64, 0i64);
        for (_, df) in ev {
            now += df;
            peak = peak.max(now);
        }
        peak as u64
    }

    /// (bin middle, mean cold latency) of the bins with cold messages.
    pub fn cold_latency_points(&self) -> Vec<(f64, f64)> {
        self.points(|r| r.cold_lat_mean)
    }

    /// (bin middle, mean hot latency) of the bins with hot messages.
    pub fn hot_latency_points(&self) -> Vec<(f64, f64)> {
        self.points(|r| r.hot_lat_mean)
    }

    /// (bin middle, cold throughput as a share of a NIC's link: payload bytes per node
    /// per cycle / `flit_bytes`, the link carrying one flit per cycle).
    pub fn cold_link_share_points(&self) -> Vec<(f64, f64)> {
        let fb = self.flit_bytes as f64;
        self.points(|r| Some(r.cold_bytes_per_node_cycle / fb))
    }

    /// (bin middle, hot-spot link utilisation).
    pub fn hot_link_points(&self) -> Vec<(f64, f64)> {
        self.points(|r| Some(r.hot_link_util))
    }

    fn points(&self, f: impl Fn(&ColdHotRow) -> Option<f64>) -> Vec<(f64, f64)> {
        self.rows()
            .iter()
            .enumerate()
            .filter_map(|(k, r)| {
                let mid = r.cycle as f64 + self.bin_len(k) as f64 / 2.0;
                f(r).map(|v| (mid, v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(delivered: u64, created: u64, injected: u64) -> Times {
        Times {
            created,
            injected,
            delivered,
        }
    }

    const COLD: Kind = Kind {
        hot: false,
        from_c: false,
    };
    const HOT_V: Kind = Kind {
        hot: true,
        from_c: false,
    };
    const HOT_C: Kind = Kind {
        hot: true,
        from_c: true,
    };

    #[test]
    fn bins_means_rates_and_the_congestion_period() {
        // 4 NICs, 1 hot spot, 64-byte flits, bins of 10 cycles
        let mut c = ColdHot::new(10, 4, 1, 64);
        c.record(at(3, 1, 2), 100, false, COLD); // lat 2, wait 1, 2 flits
        c.record(at(5, 1, 2), 64, true, HOT_V); // before the burst: not in the period
        c.start_congestion(6);
        c.record(at(8, 0, 5), 128, false, COLD); // lat 8, wait 5
        c.record(at(9, 6, 7), 640, true, HOT_C); // lat 3, 10 flits, first C
        c.record(at(14, 7, 8), 64, false, HOT_V); // in the period, 1 flit
        c.record(at(15, 10, 11), 640, false, HOT_C); // last C: 10 flits
        c.record(at(15, 2, 3), 64, true, HOT_V); // same cycle: counts
        c.record(at(16, 2, 3), 64, false, HOT_V); // after the period
        c.close(25);
        let r = c.rows();
        assert_eq!(r.len(), 3, "bins of 10 up to cycle 25");
        assert_eq!(r[0].cold_lat_mean, Some(5.0));
        assert_eq!(r[0].hot_lat_mean, Some(3.5));
        assert_eq!((r[0].cold_delivered, r[0].hot_delivered), (2, 2));
        assert_eq!(r[0].cold_bytes_per_node_cycle, 228.0 / 40.0);
        assert_eq!(r[0].hot_link_util, 11.0 / 10.0);
        assert_eq!((r[0].cold_marked, r[0].hot_marked), (0, 2));
        assert_eq!(r[1].cold_lat_mean, None);
        assert_eq!(r[1].hot_delivered, 4);
        assert_eq!(r[2].cycle, 20);
        assert_eq!(r[2].hot_link_util, 0.0);
        let s = c.summary();
        assert_eq!(s.cold_lat_peak, Some(5.0));
        assert_eq!((s.congestion_start, s.congestion_end), (Some(6), Some(15)));
        // 10 + 1 + 10 + 1 flits over cycles 6..=15
        assert_eq!(s.hot_link_util, Some(22.0 / 10.0));
        assert_eq!(s.marked_cold_frac, Some(0.0));
        assert_eq!(s.marked_hot_frac, Some(3.0 / 6.0));
        assert_eq!(r[0].cold_wait_mean, Some(3.0));
        assert_eq!(r[0].hot_wait_mean, Some(1.0));
        assert_eq!(s.cold_wait_peak, Some(3.0));
        assert_eq!(s.hot_wait_mean, Some(1.0));
        // in flight: 1 (2..=5) + 1 + 1 (3..=15, 3..=16) + 10 (7..=9) peaks at 13 in
        // cycle 8 (+1, 8..=14), again at 11 after 10 leave and 10 enter
        assert_eq!(s.hot_flits_in_flight_peak, 13);
        let csv = c.to_csv().unwrap();
        assert!(csv.starts_with(
            "cycle,cold_lat_mean,hot_lat_mean,cold_delivered,hot_delivered,\
             cold_bytes_per_node_cycle,hot_link_util,cold_marked,hot_marked,\
             cold_wait_mean,hot_wait_mean\n"
        ));
        assert!(csv.contains("\n10,,"), "{csv}");
    }

    /// A hot message's flits count from its injection cycle to its delivery cycle, both
    /// included; at one cycle those leaving go before those entering.
    #[test]
    fn hot_flits_in_flight_count_both_ends() {
        let mut c = ColdHot::new(100, 4, 1, 1);
        c.record(at(20, 5, 10), 5, false, HOT_V); // 5 flits over 10..=20
        c.record(at(30, 15, 20), 3, false, HOT_V); // 3 over 20..=30: 8 at cycle 20
        c.record(at(40, 25, 31), 7, false, HOT_V); // 7 over 31..=40: not with the 3
        c.record(at(40, 25, 38), 50, false, COLD); // cold flits do not count
        assert_eq!(c.summary().hot_flits_in_flight_peak, 8);
    }

    #[test]
    fn no_burst_no_period_and_bins_merge_exactly() {
        let mut c = ColdHot::new(1, 2, 1, 1);
        for t in 0..(MAX_ROWS as u64 + 10) {
            // waits of 0 and 1 in turn: a merged bin holds one of each
            c.record(
                at(t, t.saturating_sub(4), t.saturating_sub(4) + t % 2),
                1,
                false,
                COLD,
            );
        }
        assert_eq!(c.period, 2);
        let s = c.summary();
        assert_eq!(s.hot_link_util, None);
        assert_eq!(s.marked_hot_frac, None);
        assert_eq!(s.cold_delivered, MAX_ROWS as u64 + 10);
        assert_eq!(s.cold_lat_peak, Some(4.0));
        assert_eq!(s.cold_wait_peak, Some(0.5));
        assert!(c.rows().iter().all(|r| r.cold_wait_mean == Some(0.5)));
        assert_eq!(s.hot_flits_in_flight_peak, 0);
        assert!(c.rows().iter().all(|r| r.cold_delivered == 2));
    }
}
