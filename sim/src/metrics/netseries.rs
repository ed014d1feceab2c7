//! The network's own time series: per bin of `period` cycles, the delivered and injected
//! flits per node per cycle and the flits in the network, with the congestion-control
//! scheme's probes (a threshold, an estimate) at the bin's last cycle. Throughput against
//! time, as seed 003's Figs 7 and 9 show it. Bounded memory: past `MAX_ROWS` rows, pairs
//! of bins merge and the period doubles.

use serde::{Deserialize, Serialize};

/// Most rows kept (about 48 bytes each plus the probes).
pub const MAX_ROWS: usize = 1 << 18;

/// One bin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetRow {
    /// The bin's first cycle.
    pub cycle: u64,
    /// Data flits delivered (ejected at NICs) per node per cycle in the bin.
    pub accepted: f64,
    /// Data flits injected per node per cycle in the bin.
    pub injected: f64,
    /// Flits in the network at the bin's end.
    pub in_network: u64,
    /// The scheme's probes at the bin's last cycle, in `NetSeries::probes` order.
    pub probes: Vec<f64>,
}

/// The series of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetSeries {
    /// Bin length, cycles (the caller's, doubled at each merge).
    pub period: u64,
    pub nodes: u32,
    /// Probe names (the scheme's; empty for none).
    pub probes: Vec<String>,
    pub rows: Vec<NetRow>,
    delivered_at: u64,
    injected_at: u64,
}

impl NetSeries {
    /// Bins of `period` cycles (at least 1) over `nodes` NICs.
    pub fn new(period: u64, nodes: u32) -> Self {
        NetSeries {
            period: period.max(1),
            nodes: nodes.max(1),
            probes: Vec::new(),
            rows: Vec::new(),
            delivered_at: 0,
            injected_at: 0,
        }
    }

    /// True when cycle `t` ends a bin (call `push` after its step).
    pub fn due(&self, t: u64) -> bool {
        (t + 1).is_multiple_of(self.period)
    }

    /// The bin that cycle `t` ends: `delivered` and `injected` are the totals since cycle
    /// 0, `probes` the scheme's values now.
    pub fn push(
        &mut self,
        t: u64,
        delivered: u64,
        injected: u64,
        in_network: u64,
        probes: &[(&str, f64)],
    ) {
        if self.rows.is_empty() && self.probes.is_empty() {
            self.probes = probes.iter().map(|(n, _)| n.to_string()).collect();
        }
        let per = (self.period * self.nodes as u64) as f64;
        self.rows.push(NetRow {
            cycle: t + 1 - self.period,
            accepted: (delivered - self.delivered_at) as f64 / per,
            injected: (injected - self.injected_at) as f64 / per,
            in_network,
            probes: probes.iter().map(|p| p.1).collect(),
        });
        self.delivered_at = delivered;
        self.injected_at = injected;
        if self.rows.len() >= MAX_ROWS {
            self.merge();
        }
    }

    /// Name the probe columns from `probes` if no bin has named them (a run shorter than
    /// one `period`): `series.csv` then has the scheme's header with no rows, not a
    /// narrower header.
    pub fn name_probes(&mut self, probes: &[(&str, f64)]) {
        if self.rows.is_empty() && self.probes.is_empty() {
            self.probes = probes.iter().map(|(n, _)| n.to_string()).collect();
        }
    }

    /// Pairs of bins into one: rates averaged, the later bin's state kept.
    fn merge(&mut self) {
        let rows = std::mem::take(&mut self.rows);
        self.rows = rows
            .chunks(2)
            .map(|p| match p {
                [a, b] => NetRow {
                    cycle: a.cycle,
                    accepted: (a.accepted + b.accepted) / 2.0,
                    injected: (a.injected + b.injected) / 2.0,
                    in_network: b.in_network,
                    probes: b.probes.clone(),
                },
                [a] => a.clone(),
                _ => unreachable!("chunks of 2"),
            })
            .collect();
        self.period *= 2;
    }

    /// `series.csv`: `cycle, accepted, injected, in_network`, then one column per probe.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec!["cycle", "accepted", "injected", "in_network"];
        head.extend(self.probes.iter().map(String::as_str));
        w.write_record(&head)?;
        for r in &self.rows {
            let mut rec = vec![
                r.cycle.to_string(),
                r.accepted.to_string(),
                r.injected.to_string(),
                r.in_network.to_string(),
            ];
            rec.extend(r.probes.iter().map(|v| v.to_string()));
            w.write_record(&rec)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("csv writes UTF-8"))
    }

    /// (bin middle, column) points of `accepted`.
    pub fn accepted_points(&self) -> Vec<(f64, f64)> {
        let half = self.period as f64 / 2.0;
        self.rows
            .iter()
            .map(|r| (r.cycle as f64 + half, r.accepted))
            .collect()
    }

    /// (bin end, probe) points of probe `i`.
    pub fn probe_points(&self, i: usize) -> Vec<(f64, f64)> {
        let p = self.period as f64;
        self.rows
            .iter()
            .map(|r| (r.cycle as f64 + p, r.probes[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_carry_rates_per_node_and_cycle_and_merge_past_the_cap() {
        let mut s = NetSeries::new(10, 4);
        assert!(!s.due(8) && s.due(9));
        s.push(9, 80, 120, 7, &[("threshold", 30.0)]);
        s.push(19, 120, 120, 3, &[("threshold", 60.0)]);
        assert_eq!(s.rows[0].accepted, 2.0);
        assert_eq!(s.rows[0].injected, 3.0);
        assert_eq!(s.rows[1].cycle, 10);
        assert_eq!(s.rows[1].accepted, 1.0);
        assert_eq!(s.rows[1].injected, 0.0);
        let csv = s.to_csv().unwrap();
        assert!(csv.starts_with("cycle,accepted,injected,in_network,threshold\n"));
        assert!(csv.contains("10,1,0,3,60"), "{csv}");
        let mut short = NetSeries::new(10, 4);
        short.name_probes(&[("threshold", 30.0)]);
        assert_eq!(
            short.to_csv().unwrap(),
            "cycle,accepted,injected,in_network,threshold\n"
        );
        s.name_probes(&[("other", 1.0)]);
        assert_eq!(s.probes, vec!["threshold".to_string()]);
        s.merge();
        assert_eq!(s.period, 20);
        assert_eq!(s.rows.len(), 1);
        assert_eq!(s.rows[0].accepted, 1.5);
        assert_eq!(s.rows[0].probes, vec![60.0]);
    }
}
