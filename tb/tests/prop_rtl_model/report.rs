//! A failure's report: the minimal trace, cycle by cycle, with the registers by name.

use super::{Mismatch, PRELUDE_LEN};
use pft_hdl::model::{Inputs, Outputs, Regs};
use pft_hdl::regs;
use pft_hdl::stepper::Probe;
use std::fmt::Write as _;

// ------------------------------------------------------------------------------------------
// Reports
// ------------------------------------------------------------------------------------------

pub(crate) fn reg_name(a: u8) -> String {
    let r = regs::REGS[(a & 0xF) as usize].name;
    if a < 16 {
        r.to_string()
    } else {
        format!("0x{a:02X}->{r}")
    }
}

pub(crate) fn fmt_regs(r: &Regs) -> String {
    let ctrl = r.ctrl & regs::CTRL_MASK;
    format!(
        "CTRL=0x{:X} ({} {} {}) CREDIT_LIMIT={} TH_ENTER={} TH_ESCAPE={} AT_WIN_E={} AT_CNT_E={} \
         AT_WIN_S={} AT_CNT_S={} m={} n={} k={} SEED=0x{:08X}",
        r.ctrl,
        if ctrl & regs::CTRL_ENABLE != 0 {
            "enabled"
        } else {
            "disabled"
        },
        if ctrl & regs::CTRL_DET_AT != 0 {
            "AT"
        } else {
            "FT"
        },
        if ctrl & regs::CTRL_THR_RI != 0 {
            "RI"
        } else {
            "FI"
        },
        r.credit_limit,
        r.th_enter,
        r.th_escape,
        r.at_win_e,
        r.at_cnt_e,
        r.at_win_s,
        r.at_cnt_s,
        r.m,
        r.n,
        r.k,
        r.seed
    )
}

pub(crate) fn fmt_inputs(i: &Inputs) -> String {
    let mut s = String::new();
    if i.reset {
        s += "RESET ";
    }
    write!(s, "v={} ret={:<3} ", i.flit_valid as u8, i.credit_return).unwrap();
    if i.csr_we {
        write!(s, "wr {}=0x{:X}", reg_name(i.csr_addr), i.csr_wdata).unwrap();
    } else {
        write!(s, "rd {}", reg_name(i.csr_addr)).unwrap();
    }
    s
}

pub(crate) fn fmt_side(o: &Outputs, p: &Probe) -> String {
    let level = if p.level >= 1 << 32 {
        ">=2^32".to_string()
    } else {
        p.level.to_string()
    };
    format!(
        "send={} cong={} thr={} c={} rdata=0x{:08X} | next: c={} cong={} win={} hit={} gap={} r=0x{:08X} \
         f(c)={} cnt={}/{}/{} err={}{}",
        o.send as u8,
        o.congested as u8,
        o.throttled as u8,
        o.used_credits,
        o.csr_rdata,
        p.c,
        p.state as u8,
        p.win,
        p.hit,
        p.gap,
        p.r,
        level,
        p.cnt_congested,
        p.cnt_sent,
        p.cnt_throttled,
        p.err_underflow as u8,
        p.err_overflow as u8
    )
}

/// The trace of a mismatch, one line per cycle; the first prelude is summarised by the
/// register values it loads, and the mismatching cycle shows both sides.
pub(crate) fn fmt_trace(m: &Mismatch, dut_name: &str, ref_name: &str) -> String {
    let mut s = String::new();
    writeln!(
        s,
        "registers (prelude: reset + 11 writes): {}",
        fmt_regs(&m.regs)
    )
    .unwrap();
    let skipped = m.total - m.cycles.len();
    if skipped > 0 {
        writeln!(s, "  ... {skipped} earlier cycles not shown").unwrap();
    }
    let last = m.cycles.len() - 1;
    for (k, c) in m.cycles.iter().enumerate() {
        // The first prelude is the registers line above (unless it is where they differ).
        if c.t < PRELUDE_LEN && k != last {
            continue;
        }
        let tag = if c.prelude { " (prelude)" } else { "" };
        if k == last && !c.equal() {
            writeln!(s, "t={:<5} {}{tag}   <== MISMATCH", c.t, fmt_inputs(&c.i)).unwrap();
            writeln!(s, "    {dut_name:<5} {}", fmt_side(&c.dut, &c.dut_p)).unwrap();
            writeln!(s, "    {ref_name:<5} {}", fmt_side(&c.refr, &c.ref_p)).unwrap();
        } else {
            writeln!(
                s,
                "t={:<5} {:<34}{tag} {}",
                c.t,
                fmt_inputs(&c.i),
                fmt_side(&c.dut, &c.dut_p)
            )
            .unwrap();
        }
    }
    s
}

/// Length of a fully recorded failing trace after the first prelude: (cycles, cycles with an
/// active input).
pub(crate) fn trace_size(m: &Mismatch) -> (usize, usize) {
    assert_eq!(
        m.total,
        m.cycles.len(),
        "trace_size needs a fully recorded run"
    );
    let after = &m.cycles[PRELUDE_LEN..];
    (after.len(), after.iter().filter(|c| c.active()).count())
}
