//! One traced cycle (`Row`) and where rows go: the `--out` CSV, the `--vcd` waveform and the
//! running statistics behind `--summary`.

use super::config::TraceConfig;
use serde::Serialize;
use std::io::{self, Write};
use vcd::{IdCode, ReferenceIndex, TimescaleUnit, VarType};

/// Everything traced about one cycle t: inputs and outputs of cycle t, and the registered
/// state the block decided from (the values held during cycle t).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// Traced cycle number, 0 = first cycle after the prelude.
    pub cycle: u64,
    pub flit_valid: bool,
    pub credit_return: u8,
    pub send: bool,
    /// A flit with a credit was held back by the throttle.
    pub throttled: bool,
    pub congested: bool,
    /// Used credits.
    pub c: u16,
    /// f(c) = floor(c * 2^m / 2^n) + k, saturated at 2^32 (4294967296 means "at least").
    pub level: u64,
    pub gap: u16,
    pub r: u32,
    pub win: u16,
    pub hit: u16,
    pub cnt_congested: u32,
    pub cnt_sent: u32,
    pub cnt_throttled: u32,
    pub err_underflow: bool,
    pub err_overflow: bool,
    /// Closed loop only: switch buffer occupancy after this cycle's arrival, before its
    /// departure.
    pub buf: Option<u32>,
    /// Traces of packets only (a `flit_head` stimulus column, or `--packet-flits` > 1): the
    /// `flit_head` input of the cycle.
    pub flit_head: Option<bool>,
}

/// Column names of the `--out` CSV (closed loop appends `buf`, then traces of packets
/// `flit_head`).
pub const CSV_COLUMNS: [&str; 17] = [
    "cycle",
    "send",
    "c",
    "congested",
    "throttled",
    "level",
    "gap",
    "r",
    "win",
    "hit",
    "flit_valid",
    "credit_return",
    "cnt_congested",
    "cnt_sent",
    "cnt_throttled",
    "err_underflow",
    "err_overflow",
];

/// Writes rows as CSV, integers only.
pub struct CsvSink<W: Write> {
    w: W,
}

impl<W: Write> CsvSink<W> {
    pub fn new(mut w: W, closed_loop: bool, packets: bool) -> io::Result<Self> {
        write!(w, "{}", CSV_COLUMNS.join(","))?;
        if closed_loop {
            write!(w, ",buf")?;
        }
        if packets {
            write!(w, ",flit_head")?;
        }
        writeln!(w)?;
        Ok(CsvSink { w })
    }

    pub fn row(&mut self, r: &Row) -> io::Result<()> {
        write!(
            self.w,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.cycle,
            r.send as u8,
            r.c,
            r.congested as u8,
            r.throttled as u8,
            r.level,
            r.gap,
            r.r,
            r.win,
            r.hit,
            r.flit_valid as u8,
            r.credit_return,
            r.cnt_congested,
            r.cnt_sent,
            r.cnt_throttled,
            r.err_underflow as u8,
            r.err_overflow as u8
        )?;
        if let Some(b) = r.buf {
            write!(self.w, ",{b}")?;
        }
        if let Some(h) = r.flit_head {
            write!(self.w, ",{}", h as u8)?;
        }
        writeln!(self.w)
    }

    /// The underlying writer.
    pub fn inner(&mut self) -> &mut W {
        &mut self.w
    }
}

/// VCD scope that holds every signal.
pub const VCD_SCOPE: &str = "pft";
/// Simulated clock period in VCD time units (ns): cycle t spans [10t, 10t+10).
pub const VCD_PERIOD_NS: u64 = 10;

/// VCD signals after `clk`: name and width. Closed loop appends `buf` (32 bits), traces of
/// packets `flit_head` (1 bit).
pub const VCD_SIGNALS: [(&str, u32); 18] = [
    ("flit_valid", 1),
    ("credit_return", 8),
    ("send", 1),
    ("throttled", 1),
    ("congested", 1),
    ("c", 16),
    ("level", 33),
    ("gap", 16),
    ("r", 32),
    ("win", 16),
    ("hit", 16),
    ("cnt_congested", 32),
    ("cnt_sent", 32),
    ("cnt_throttled", 32),
    ("err_underflow", 1),
    ("err_overflow", 1),
    ("buf", 32),
    ("flit_head", 1),
];

fn vcd_values(r: &Row) -> [u64; 18] {
    [
        r.flit_valid as u64,
        r.credit_return as u64,
        r.send as u64,
        r.throttled as u64,
        r.congested as u64,
        r.c as u64,
        r.level,
        r.gap as u64,
        r.r as u64,
        r.win as u64,
        r.hit as u64,
        r.cnt_congested as u64,
        r.cnt_sent as u64,
        r.cnt_throttled as u64,
        r.err_underflow as u64,
        r.err_overflow as u64,
        r.buf.unwrap_or(0) as u64,
        r.flit_head.unwrap_or(true) as u64,
    ]
}

/// Writes rows as a VCD: one `pft` scope, `clk` plus `VCD_SIGNALS`, values of cycle t from
/// its rising edge at 10t ns, `clk` falling at 10t+5 ns; only changes after time 0.
pub struct VcdSink<W: Write> {
    w: vcd::Writer<W>,
    clk: IdCode,
    /// Each signal's id, width and index in `vcd_values`.
    ids: Vec<(IdCode, u32, usize)>,
    prev: Option<[u64; 18]>,
    next_time: u64,
}

impl<W: Write> VcdSink<W> {
    pub fn new(w: W, closed_loop: bool, packets: bool, comment: &str) -> io::Result<Self> {
        let mut w = vcd::Writer::new(w);
        w.version(concat!("pft-trace ", env!("CARGO_PKG_VERSION")))?;
        w.comment(comment)?;
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module(VCD_SCOPE)?;
        let clk = w.add_var(VarType::Wire, 1, "clk", None)?;
        let mut ids = Vec::with_capacity(VCD_SIGNALS.len());
        for (i, &(name, width)) in VCD_SIGNALS.iter().enumerate() {
            if (name == "buf" && !closed_loop) || (name == "flit_head" && !packets) {
                continue;
            }
            let index = (width > 1).then_some(ReferenceIndex::Range(width as i32 - 1, 0));
            ids.push((w.add_var(VarType::Wire, width, name, index)?, width, i));
        }
        w.upscope()?;
        w.enddefinitions()?;
        Ok(VcdSink {
            w,
            clk,
            ids,
            prev: None,
            next_time: 0,
        })
    }

    fn value(&mut self, id: IdCode, width: u32, v: u64) -> io::Result<()> {
        if width == 1 {
            self.w.change_scalar(id, v != 0)
        } else {
            // Same text as `change_vector` with the leading zeros left out (VCD extends
            // a shorter binary value with 0s), formatted in one go for speed.
            writeln!(self.w.writer(), "b{v:b} {id}")
        }
    }

    pub fn row(&mut self, r: &Row) -> io::Result<()> {
        let vals = vcd_values(r);
        let t = r.cycle * VCD_PERIOD_NS;
        self.w.timestamp(t)?;
        let first = self.prev.is_none();
        if first {
            self.w.begin(vcd::SimulationCommand::Dumpvars)?;
        }
        self.w.change_scalar(self.clk, true)?;
        for k in 0..self.ids.len() {
            let (id, width, i) = self.ids[k];
            if self.prev.is_none_or(|p| p[i] != vals[i]) {
                self.value(id, width, vals[i])?;
            }
        }
        if first {
            self.w.end()?;
        }
        self.w.timestamp(t + VCD_PERIOD_NS / 2)?;
        self.w.change_scalar(self.clk, false)?;
        self.prev = Some(vals);
        self.next_time = t + VCD_PERIOD_NS;
        Ok(())
    }

    /// Close the last cycle (a final timestamp at its end) and flush.
    pub fn finish(&mut self) -> io::Result<()> {
        if self.prev.is_some() {
            self.w.timestamp(self.next_time)?;
            self.prev = None;
        }
        self.w.flush()
    }

    /// The underlying writer.
    pub fn inner(&mut self) -> &mut W {
        self.w.writer()
    }
}

/// Running statistics of a trace.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub cycles: u64,
    pub sent: u64,
    pub congested: u64,
    pub throttled: u64,
    pub sum_c: u128,
    pub max_c: u16,
    pub enters: u64,
    pub leaves: u64,
    pub first_enter: Option<u64>,
    pub last_leave: Option<u64>,
    pub last: Row,
    pub sum_buf: u128,
    pub max_buf: u32,
    /// Cycles whose `credit_return` exceeded `c + send` (the block clamps `c` to 0 and sets
    /// its sticky `err_underflow` flag, docs/bad-inputs.md BK-01), and the first of them.
    pub over_returns: u64,
    pub first_over_return: Option<OverReturn>,
}

/// A cycle that returned more credits than were in use (`credit_return > c + send`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OverReturn {
    pub cycle: u64,
    pub credit_return: u8,
    /// Used credits in that cycle.
    pub c: u16,
    /// A flit left in that cycle (it takes a credit the return may give back).
    pub send: bool,
}

impl Stats {
    pub fn add(&mut self, r: &Row) {
        // The block's own test (model.rs): a return above c + send underflows.
        if r.credit_return as u32 > r.c as u32 + r.send as u32 {
            self.over_returns += 1;
            self.first_over_return.get_or_insert(OverReturn {
                cycle: r.cycle,
                credit_return: r.credit_return,
                c: r.c,
                send: r.send,
            });
        }
        let was = self.cycles > 0 && self.last.congested;
        if r.congested && !was {
            self.enters += 1;
            self.first_enter.get_or_insert(r.cycle);
        }
        if !r.congested && was {
            self.leaves += 1;
            self.last_leave = Some(r.cycle);
        }
        self.cycles += 1;
        self.sent += r.send as u64;
        self.congested += r.congested as u64;
        self.throttled += r.throttled as u64;
        self.sum_c += r.c as u128;
        self.max_c = self.max_c.max(r.c);
        if let Some(b) = r.buf {
            self.sum_buf += b as u128;
            self.max_buf = self.max_buf.max(b);
        }
        self.last = *r;
    }

    fn frac(&self, x: u128) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            x as f64 / self.cycles as f64
        }
    }

    pub fn injection_rate(&self) -> f64 {
        self.frac(self.sent as u128)
    }
    pub fn mean_c(&self) -> f64 {
        self.frac(self.sum_c)
    }
    pub fn frac_congested(&self) -> f64 {
        self.frac(self.congested as u128)
    }
    pub fn frac_throttled(&self) -> f64 {
        self.frac(self.throttled as u128)
    }
    pub fn mean_buf(&self) -> f64 {
        self.frac(self.sum_buf)
    }
}

/// The `--summary` JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Traced cycles (the prelude excluded).
    pub cycles: u64,
    /// Flits sent.
    pub sent: u64,
    /// sent / cycles.
    pub injection_rate: f64,
    /// Mean used credits over the traced cycles.
    pub mean_c: f64,
    pub max_c: u16,
    /// Fraction of cycles Congested.
    pub frac_congested: f64,
    /// Cycles a ready flit with a credit was held back by the throttle.
    pub throttled: u64,
    pub frac_throttled: f64,
    /// Normal -> Congested transitions, and the cycle of the first.
    pub enters_congested: u64,
    pub first_enter_cycle: Option<u64>,
    /// Congested -> Normal transitions, and the cycle of the last.
    pub leaves_congested: u64,
    pub last_leave_cycle: Option<u64>,
    pub congested_at_end: bool,
    /// Sticky credit-error flags as held in the last traced cycle (a flag set by the last
    /// cycle itself shows only from the next: see `over_return_cycles`).
    pub err_underflow: bool,
    pub err_overflow: bool,
    /// Cycles that returned more credits than were in use (`credit_return > c + send`):
    /// each sets `err_underflow` for the following cycles. Open loop only; a credit link
    /// never does it.
    pub over_return_cycles: u64,
    /// The first of them (null when none).
    pub first_over_return: Option<OverReturn>,
    /// "ft-fi" .. "at-ri", or "off".
    pub mode: String,
    /// The config as applied (same keys as the TOML file).
    pub config: TraceConfig,
    /// Closed loop only.
    pub link: Option<LinkSummary>,
}

/// Closed-loop facts.
#[derive(Clone, Debug, Serialize)]
pub struct LinkSummary {
    pub latency_cycles: u32,
    /// 2L+1: a credit used in cycle t can carry a new flit in cycle t+2L+1 at the earliest.
    pub credit_round_trip_cycles: u64,
    pub drain_schedule: String,
    pub seed: u64,
    /// Flits per packet of the source (`--packet-flits`; 1: every flit starts a packet).
    pub packet_flits: u32,
    pub mean_buf_flits: f64,
    pub max_buf_flits: u32,
}
