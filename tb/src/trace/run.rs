//! The trace driver: build an engine, apply the config prelude, then run open loop (stimulus
//! rows) or closed loop (against `pft_sim::link::CreditLink`), recording every traced cycle.

use super::config::TraceConfig;
use super::output::AtomicFile;
use super::record::{CsvSink, LinkSummary, Row, Stats, Summary, VcdSink};
use super::stimulus_csv::{self, StimulusRow};
use anyhow::{Context, Result};
use pft_hdl::model::{Inputs, PftModel};
use pft_hdl::stepper::{Engine, RtlStepper};
use pft_sim::link::{CreditLink, LinkConfig};
use std::io::Write;
use std::path::Path;

/// Which implementation of the block runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The rust-hdl RTL, stepped by hand (slower: 10^4 to 2x10^5 cycles/s as measured).
    Rtl,
    /// The plain-Rust reference model (fast).
    Model,
}

impl EngineKind {
    pub fn build(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Rtl => Box::new(RtlStepper::new()),
            EngineKind::Model => Box::new(PftModel::new()),
        }
    }
}

/// The output files of a run, each optional. Nothing appears under a final name until
/// `commit`; dropping `Sinks` uncommitted removes every temporary file.
#[derive(Default)]
pub struct Sinks {
    pub csv: Option<CsvSink<AtomicFile>>,
    pub vcd: Option<VcdSink<AtomicFile>>,
    pub summary: Option<AtomicFile>,
    /// Closed loop: the NIC's inputs, in stimulus format, for an open-loop replay.
    pub record: Option<Vec<StimulusRow>>,
    record_file: Option<AtomicFile>,
}

fn create(path: &Path, what: &str) -> Result<AtomicFile> {
    AtomicFile::create(path)
        .with_context(|| format!("cannot create {what} file {}", path.display()))
}

impl Sinks {
    /// Open (under temporary names) every requested output.
    pub fn create(
        out: Option<&Path>,
        vcd: Option<&Path>,
        summary: Option<&Path>,
        record_stimulus: Option<&Path>,
        closed_loop: bool,
        packets: bool,
        vcd_comment: &str,
    ) -> Result<Self> {
        let mut s = Sinks::default();
        if let Some(p) = out {
            let f = create(p, "--out")?;
            s.csv = Some(
                CsvSink::new(f, closed_loop, packets)
                    .with_context(|| format!("writing {}", p.display()))?,
            );
        }
        if let Some(p) = vcd {
            let f = create(p, "--vcd")?;
            s.vcd = Some(
                VcdSink::new(f, closed_loop, packets, vcd_comment)
                    .with_context(|| format!("writing {}", p.display()))?,
            );
        }
        if let Some(p) = summary {
            s.summary = Some(create(p, "--summary")?);
        }
        if let Some(p) = record_stimulus {
            s.record_file = Some(create(p, "--record-stimulus")?);
            s.record = Some(Vec::new());
        }
        Ok(s)
    }

    fn row(&mut self, r: &Row) -> Result<()> {
        if let Some(c) = self.csv.as_mut() {
            c.row(r).context("writing --out")?;
        }
        if let Some(v) = self.vcd.as_mut() {
            v.row(r).context("writing --vcd")?;
        }
        if let Some(rec) = self.record.as_mut() {
            rec.push(StimulusRow {
                flit_valid: r.flit_valid,
                credit_return: r.credit_return,
                flit_head: r.flit_head,
            });
        }
        Ok(())
    }

    /// Write the summary and the recorded stimulus, then rename every file into place.
    pub fn commit(mut self, summary: &Summary) -> Result<()> {
        if let Some(f) = self.summary.as_mut() {
            serde_json::to_writer_pretty(&mut *f, summary).context("writing --summary")?;
            writeln!(f).context("writing --summary")?;
        }
        if let (Some(f), Some(rows)) = (self.record_file.as_mut(), self.record.as_ref()) {
            stimulus_csv::write(f, rows).context("writing --record-stimulus")?;
        }
        if let Some(v) = self.vcd.as_mut() {
            v.finish().context("writing --vcd")?;
        }
        // Flush everything first, so that a full disk fails before any file is renamed, and
        // rename the summary last: its presence marks a finished run.
        let mut files: Vec<&mut AtomicFile> = Vec::new();
        files.extend(self.csv.as_mut().map(|c| c.inner()));
        files.extend(self.vcd.as_mut().map(|v| v.inner()));
        files.extend(self.record_file.as_mut());
        files.extend(self.summary.as_mut());
        for f in files.iter_mut() {
            let p = f.path().display().to_string();
            f.finish().with_context(|| format!("writing {p}"))?;
        }
        // A rename onto a directory fails: find out before the first rename.
        for f in files.iter() {
            anyhow::ensure!(
                !f.path().is_dir(),
                "cannot write {}: it is a directory",
                f.path().display()
            );
        }
        for f in files {
            let p = f.path().display().to_string();
            f.commit()
                .with_context(|| format!("cannot rename the temporary file to {p}"))?;
        }
        Ok(())
    }
}

/// One engine after the prelude, and the statistics of the traced cycles.
pub struct Tracer {
    engine: Box<dyn Engine>,
    cycle: u64,
    pub stats: Stats,
}

impl Tracer {
    /// Build the engine and run the prelude (`TraceConfig::prelude`), untraced.
    pub fn new(kind: EngineKind, cfg: &TraceConfig) -> Self {
        let mut engine = kind.build();
        for i in cfg.prelude() {
            engine.step(&i);
        }
        Tracer {
            engine,
            cycle: 0,
            stats: Stats::default(),
        }
    }

    /// Run one traced cycle with these inputs; the row has no `buf` yet. `flit_head`: None
    /// for 1-flit packets (the block's input is then 1: every flit starts a packet).
    pub fn step(&mut self, flit_valid: bool, flit_head: Option<bool>, credit_return: u8) -> Row {
        let p = self.engine.probe();
        let o = self.engine.step(&Inputs {
            flit_valid,
            flit_head: flit_head.unwrap_or(true),
            credit_return,
            ..Default::default()
        });
        debug_assert_eq!((p.c, p.state), (o.used_credits, o.congested));
        let row = Row {
            cycle: self.cycle,
            flit_valid,
            credit_return,
            send: o.send,
            throttled: o.throttled,
            congested: o.congested,
            c: o.used_credits,
            level: p.level,
            gap: p.gap,
            r: p.r,
            win: p.win,
            hit: p.hit,
            cnt_congested: p.cnt_congested,
            cnt_sent: p.cnt_sent,
            cnt_throttled: p.cnt_throttled,
            err_underflow: p.err_underflow,
            err_overflow: p.err_overflow,
            buf: None,
            flit_head,
        };
        self.cycle += 1;
        row
    }

    /// Account a finished row and send it to the sinks.
    pub fn record(&mut self, row: &Row, sinks: &mut Sinks) -> Result<()> {
        self.stats.add(row);
        sinks.row(row)
    }
}

fn summary(stats: &Stats, cfg: &TraceConfig, link: Option<LinkSummary>) -> Summary {
    Summary {
        cycles: stats.cycles,
        sent: stats.sent,
        injection_rate: stats.injection_rate(),
        mean_c: stats.mean_c(),
        max_c: stats.max_c,
        frac_congested: stats.frac_congested(),
        throttled: stats.throttled,
        frac_throttled: stats.frac_throttled(),
        enters_congested: stats.enters,
        first_enter_cycle: stats.first_enter,
        leaves_congested: stats.leaves,
        last_leave_cycle: stats.last_leave,
        congested_at_end: stats.last.congested,
        err_underflow: stats.last.err_underflow,
        err_overflow: stats.last.err_overflow,
        over_return_cycles: stats.over_returns,
        first_over_return: stats.first_over_return,
        mode: cfg.mode_name(),
        config: *cfg,
        link,
    }
}

/// Open loop: one traced cycle per stimulus row.
pub fn open_loop(
    kind: EngineKind,
    cfg: &TraceConfig,
    stim: &[StimulusRow],
    sinks: &mut Sinks,
) -> Result<Summary> {
    let mut t = Tracer::new(kind, cfg);
    for s in stim {
        let row = t.step(s.flit_valid, s.flit_head, s.credit_return);
        t.record(&row, sinks)?;
    }
    Ok(summary(&t.stats, cfg, None))
}

/// Closed loop: `cycles` traced cycles; the source always has a flit, in packets of
/// `packet_flits` flits (1: every flit starts a packet, and the trace has no `flit_head`);
/// `credit_return` comes from the link. The link's buffer is the block's CREDIT_LIMIT.
pub fn closed_loop(
    kind: EngineKind,
    cfg: &TraceConfig,
    link_cfg: &LinkConfig,
    cycles: u64,
    packet_flits: u32,
    sinks: &mut Sinks,
) -> Result<Summary> {
    assert_eq!(link_cfg.capacity_flits, cfg.regs.credit_limit as u32);
    assert!(packet_flits >= 1);
    let mut t = Tracer::new(kind, cfg);
    let mut link = CreditLink::new(link_cfg);
    // flits of the current packet already sent
    let mut in_packet = 0u32;
    for _ in 0..cycles {
        // Read phase: the NIC sees the credit channel's head; then evaluate and commit.
        let credit_return = link.credit_return();
        let head = (packet_flits > 1).then_some(in_packet == 0);
        let mut row = t.step(true, head, credit_return);
        if row.send {
            in_packet = (in_packet + 1) % packet_flits;
        }
        let lc = link
            .step(row.send)
            .with_context(|| format!("link invariant violated (seed {})", link_cfg.seed))?;
        row.buf = Some(lc.occupancy_flits);
        t.record(&row, sinks)?;
    }
    let ls = LinkSummary {
        latency_cycles: link_cfg.latency_cycles,
        credit_round_trip_cycles: 2 * link_cfg.latency_cycles as u64 + 1,
        drain_schedule: link_cfg.drain.to_string(),
        seed: link_cfg.seed,
        packet_flits,
        mean_buf_flits: t.stats.mean_buf(),
        max_buf_flits: t.stats.max_buf,
    };
    Ok(summary(&t.stats, cfg, Some(ls)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(flit_valid: bool, credit_return: u8) -> StimulusRow {
        StimulusRow {
            flit_valid,
            credit_return,
            flit_head: None,
        }
    }

    /// Over-returns as the block counts them: a return of exactly c + send is none; one
    /// in the last cycle counts although the flag shows only from the next cycle.
    #[test]
    fn over_returns_are_counted_as_the_block_sees_them() {
        let cfg = TraceConfig::default();
        for engine in [EngineKind::Model, EngineKind::Rtl] {
            // cycle 0: c = 0, a flit leaves and its credit comes back at once (c + send)
            let s = open_loop(engine, &cfg, &[row(true, 1)], &mut Sinks::default()).unwrap();
            assert_eq!((s.over_return_cycles, s.first_over_return), (0, None));
            assert!(!s.err_underflow);
            // cycle 1: c = 1, no flit, 2 back: the last cycle, the flag not yet visible
            let stim = [row(true, 0), row(false, 2)];
            let s = open_loop(engine, &cfg, &stim, &mut Sinks::default()).unwrap();
            assert_eq!(s.over_return_cycles, 1);
            assert_eq!(
                s.first_over_return,
                Some(crate::trace::record::OverReturn {
                    cycle: 1,
                    credit_return: 2,
                    c: 1,
                    send: false
                })
            );
            assert!(!s.err_underflow, "set at the end of the last cycle");
            // two more: counted, the first kept
            let stim = [row(true, 0), row(false, 2), row(false, 1), row(true, 3)];
            let s = open_loop(engine, &cfg, &stim, &mut Sinks::default()).unwrap();
            assert_eq!(s.over_return_cycles, 3);
            assert_eq!(s.first_over_return.map(|f| f.cycle), Some(1));
            assert!(s.err_underflow);
        }
    }
}
