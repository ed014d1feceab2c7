//! What a run of the property exercised: per case (`CaseCov`) and over the run (`Totals`,
//! whose `check` fails a run that covered too little).

use std::fmt::Write as _;

/// What one case exercised.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CaseCov {
    pub(crate) cycles: u64,
    pub(crate) sent: u64,
    pub(crate) enters: u64,
    pub(crate) leaves: u64,
    pub(crate) at_switches: u64,
    pub(crate) fi_throttled: u64,
    pub(crate) ri_throttled: u64,
    pub(crate) full: u64,
    pub(crate) underflows: u64,
    pub(crate) overflows: u64,
    pub(crate) resets: u64,
    pub(crate) writes: u64,
    pub(crate) alias_writes: u64,
    /// Cycles spent Congested in FT with TH_ENTER < TH_ESCAPE and with >=.
    pub(crate) ft_cong_lt: u64,
    pub(crate) ft_cong_ge: u64,
    /// Cycles in AT with a window of 0, and with count > window, while enabled.
    pub(crate) at_win0: u64,
    pub(crate) at_cnt_gt_win: u64,
    /// Packet gating, Congested, a flit ready with a credit: a head held back, a non-head
    /// sent past the throttle's verdict.
    pub(crate) pkt_head_held: u64,
    pub(crate) pkt_body_passed: u64,
    /// RI throttled with r_width 1 (the narrowest), and with all 32 bits compared.
    pub(crate) ri_w1_throttled: u64,
    pub(crate) ri_w32_throttled: u64,
}

/// Coverage over all cases of a run.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totals {
    pub(crate) cases: u64,
    pub(crate) cycles: u64,
    pub(crate) sent: u64,
    pub(crate) fi_throttled: u64,
    pub(crate) ri_throttled: u64,
    pub(crate) enters: u64,
    pub(crate) leaves: u64,
    pub(crate) at_switches: u64,
    pub(crate) underflows: u64,
    pub(crate) overflows: u64,
    pub(crate) resets: u64,
    pub(crate) writes: u64,
    pub(crate) alias_writes: u64,
    /// Cases in which each thing happened at least once.
    pub(crate) cases_entered: u64,
    pub(crate) cases_left: u64,
    pub(crate) cases_fi_throttled: u64,
    pub(crate) cases_ri_throttled: u64,
    pub(crate) cases_at_switched: u64,
    pub(crate) cases_full: u64,
    pub(crate) cases_underflow: u64,
    pub(crate) cases_overflow: u64,
    pub(crate) cases_reset: u64,
    pub(crate) cases_ft_cong_lt: u64,
    pub(crate) cases_ft_cong_ge: u64,
    pub(crate) cases_at_win0: u64,
    pub(crate) cases_at_cnt_gt_win: u64,
    pub(crate) cases_pkt_head_held: u64,
    pub(crate) cases_pkt_body_passed: u64,
    pub(crate) cases_ri_w1: u64,
    pub(crate) cases_ri_w32: u64,
}

impl Totals {
    pub(crate) fn add(&mut self, c: &CaseCov) {
        let n = |x: u64| (x > 0) as u64;
        self.cases += 1;
        self.cycles += c.cycles;
        self.sent += c.sent;
        self.fi_throttled += c.fi_throttled;
        self.ri_throttled += c.ri_throttled;
        self.enters += c.enters;
        self.leaves += c.leaves;
        self.at_switches += c.at_switches;
        self.underflows += c.underflows;
        self.overflows += c.overflows;
        self.resets += c.resets;
        self.writes += c.writes;
        self.alias_writes += c.alias_writes;
        self.cases_entered += n(c.enters);
        self.cases_left += n(c.leaves);
        self.cases_fi_throttled += n(c.fi_throttled);
        self.cases_ri_throttled += n(c.ri_throttled);
        self.cases_at_switched += n(c.at_switches);
        self.cases_full += n(c.full);
        self.cases_underflow += n(c.underflows);
        self.cases_overflow += n(c.overflows);
        self.cases_reset += n(c.resets);
        self.cases_ft_cong_lt += n(c.ft_cong_lt);
        self.cases_ft_cong_ge += n(c.ft_cong_ge);
        self.cases_at_win0 += n(c.at_win0);
        self.cases_at_cnt_gt_win += n(c.at_cnt_gt_win);
        self.cases_pkt_head_held += n(c.pkt_head_held);
        self.cases_pkt_body_passed += n(c.pkt_body_passed);
        self.cases_ri_w1 += n(c.ri_w1_throttled);
        self.cases_ri_w32 += n(c.ri_w32_throttled);
    }

    /// The run exercised what the strategies aim at: each listed thing happened in at least
    /// the given fraction of the cases (and at least once).
    pub(crate) fn check(&self) -> Result<(), String> {
        let need = [
            // About half of what the default run measures (docs/verification.md).
            ("cases that entered Congested", self.cases_entered, 0.30),
            ("cases that left Congested", self.cases_left, 0.20),
            ("cases throttled by FI", self.cases_fi_throttled, 0.15),
            ("cases throttled by RI", self.cases_ri_throttled, 0.08),
            ("cases with an AT switch", self.cases_at_switched, 0.15),
            ("cases that ran out of credits", self.cases_full, 0.35),
            ("cases with a credit underflow", self.cases_underflow, 0.20),
            ("cases with a credit overflow", self.cases_overflow, 0.08),
            ("cases with a reset mid-run", self.cases_reset, 0.20),
            (
                "cases Congested in FT with enter < escape",
                self.cases_ft_cong_lt,
                0.10,
            ),
            (
                "cases Congested in FT with enter >= escape",
                self.cases_ft_cong_ge,
                0.10,
            ),
            ("cases in AT with a window of 0", self.cases_at_win0, 0.04),
            (
                "cases in AT with count > window",
                self.cases_at_cnt_gt_win,
                0.12,
            ),
            (
                "cases with packet gating holding a head",
                self.cases_pkt_head_held,
                0.05,
            ),
            (
                "cases with packet gating passing a non-head past the throttle",
                self.cases_pkt_body_passed,
                0.05,
            ),
            (
                "cases throttled by RI with r_width 1",
                self.cases_ri_w1,
                0.005,
            ),
            (
                "cases throttled by RI with 32 bits",
                self.cases_ri_w32,
                0.03,
            ),
        ];
        let mut bad = String::new();
        for (what, got, frac) in need {
            let min = ((self.cases as f64 * frac).ceil() as u64).max(1);
            if got < min {
                writeln!(
                    bad,
                    "  {what}: {got} of {} cases, need >= {min}",
                    self.cases
                )
                .unwrap();
            }
        }
        if self.alias_writes == 0 {
            bad += "  no write to an address past the 4-bit port\n";
        }
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!("coverage too low:\n{bad}{self:#?}"))
        }
    }
}
