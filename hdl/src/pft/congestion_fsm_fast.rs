//! The detector of `CongestionFsm`, same cycle behaviour, restructured for the pipelined
//! build's clock: every compare is made a cycle ahead, so the state and the counters are a
//! few gates from registers.

use rust_hdl::prelude::*;

/// Same ports (plus the values being loaded, for the look-ahead) and the same behaviour as
/// `CongestionFsm` (spec §2). The AT update of `CongestionFsm`,
///
/// ```text
///   win' = wrap ? 0 : win + 1                    wrap = (win == w)
///   hit' = end ? 0 : hit + hit_now               end  = (win' == w)
///   flip = hit' >= T'   =  end ? (T' == 0) : hit_now ? (hit + 1 >= T') : (hit >= T')
/// ```
///
/// is computed from flags held in registers: `wrap`, `end`, `T' == 0`, `hit >= T'` and
/// `hit + 1 >= T'`, and the two threshold compares of `hit_now` (`above`, `below`: registers
/// of `CreditCompare`). Each flag is set in the cycle
/// before from what that cycle knows: a cycle that clears the counters (FT, disabled,
/// flip, restart, reset) loads the flags of an empty window with the next cycle's state and
/// registers; a cycle that counts on loads them from the current flags, from `win + 2 == w`
/// and from `hit + 2 >= T'` (`win + 1`, `win + 2`, `hit + 1`, `hit + 2` have registers of
/// their own). The flags power up with the values of the all-zero state.
#[derive(LogicBlock)]
pub struct CongestionFsmFast {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: Normal, counters 0.
    pub reset: Signal<In, Bit>,
    /// CTRL.enable.
    pub enable: Signal<In, Bit>,
    /// CTRL.det_mode: false FT, true AT.
    pub det_at: Signal<In, Bit>,
    /// Restart the AT window (clear `win` and `hit`).
    pub restart: Signal<In, Bit>,
    /// `c > TH_ENTER` (a register, `CreditCompare`).
    pub above: Signal<In, Bit>,
    /// `c < TH_ESCAPE` (a register, `CreditCompare`).
    pub below: Signal<In, Bit>,
    /// AT_WIN_E (T_e).
    pub win_e: Signal<In, Bits<16>>,
    /// AT_CNT_E (T_e').
    pub cnt_e: Signal<In, Bits<16>>,
    /// AT_WIN_S (T_s).
    pub win_s: Signal<In, Bits<16>>,
    /// AT_CNT_S (T_s').
    pub cnt_s: Signal<In, Bits<16>>,
    /// AT_WIN_E of the next cycle.
    pub win_e_next: Signal<In, Bits<16>>,
    /// AT_CNT_E of the next cycle.
    pub cnt_e_next: Signal<In, Bits<16>>,
    /// AT_WIN_S of the next cycle.
    pub win_s_next: Signal<In, Bits<16>>,
    /// AT_CNT_S of the next cycle.
    pub cnt_s_next: Signal<In, Bits<16>>,
    /// Congested, as the throttle sees it (state and enable).
    pub congested: Signal<Out, Bit>,
    /// AT window counter.
    pub win: Signal<Out, Bits<16>>,
    /// AT hit counter.
    pub hit: Signal<Out, Bits<16>>,
    state: DFF<Bit>,
    win_count: DFF<Bits<16>>,
    hit_count: DFF<Bits<16>>,
    /// `win + 1`, `win + 2`, `hit + 1`, `hit + 2` (mod 2^16).
    win_p1: DFFWithInit<Bits<16>>,
    win_p2: DFFWithInit<Bits<16>>,
    hit_p1: DFFWithInit<Bits<16>>,
    hit_p2: DFFWithInit<Bits<16>>,
    /// `win == w`, `win' == w`, `T' == 0`, `hit >= T'`, `hit + 1 >= T'` (w, T' of the state).
    wrap_q: DFFWithInit<Bit>,
    end_q: DFFWithInit<Bit>,
    tp0_q: DFFWithInit<Bit>,
    ge0_q: DFFWithInit<Bit>,
    ge1_q: DFFWithInit<Bit>,
    hit_now: Signal<Local, Bit>,
    flip: Signal<Local, Bit>,
    count_on: Signal<Local, Bit>,
    at_on: Signal<Local, Bit>,
    hit_hold: Signal<Local, Bit>,
    state_next: Signal<Local, Bit>,
    w: Signal<Local, Bits<16>>,
    tp: Signal<Local, Bits<16>>,
    win_p3: Signal<Local, Bits<16>>,
    hit_p3: Signal<Local, Bits<16>>,
    eq2: Signal<Local, Bit>,
    ge2: Signal<Local, Bit>,
    w_s_zero: Signal<Local, Bit>,
    w_e_zero: Signal<Local, Bit>,
    w_s_le1: Signal<Local, Bit>,
    w_e_le1: Signal<Local, Bit>,
    tp_s_zero: Signal<Local, Bit>,
    tp_e_zero: Signal<Local, Bit>,
    tp_s_le1: Signal<Local, Bit>,
    tp_e_le1: Signal<Local, Bit>,
    w_next_zero: Signal<Local, Bit>,
    w_next_le1: Signal<Local, Bit>,
    tp_next_zero: Signal<Local, Bit>,
    tp_next_le1: Signal<Local, Bit>,
}

impl Default for CongestionFsmFast {
    fn default() -> Self {
        let one = || DFFWithInit::new(true);
        let n16 = |v: u64| DFFWithInit::new(v.into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            det_at: Default::default(),
            restart: Default::default(),
            above: Default::default(),
            below: Default::default(),
            win_e: Default::default(),
            cnt_e: Default::default(),
            win_s: Default::default(),
            cnt_s: Default::default(),
            win_e_next: Default::default(),
            cnt_e_next: Default::default(),
            win_s_next: Default::default(),
            cnt_s_next: Default::default(),
            congested: Default::default(),
            win: Default::default(),
            hit: Default::default(),
            state: Default::default(),
            win_count: Default::default(),
            hit_count: Default::default(),
            win_p1: n16(1),
            win_p2: n16(2),
            hit_p1: n16(1),
            hit_p2: n16(2),
            wrap_q: one(),
            end_q: one(),
            tp0_q: one(),
            ge0_q: one(),
            ge1_q: one(),
            hit_now: Default::default(),
            flip: Default::default(),
            count_on: Default::default(),
            at_on: Default::default(),
            hit_hold: Default::default(),
            state_next: Default::default(),
            w: Default::default(),
            tp: Default::default(),
            win_p3: Default::default(),
            hit_p3: Default::default(),
            eq2: Default::default(),
            ge2: Default::default(),
            w_s_zero: Default::default(),
            w_e_zero: Default::default(),
            w_s_le1: Default::default(),
            w_e_le1: Default::default(),
            tp_s_zero: Default::default(),
            tp_e_zero: Default::default(),
            tp_s_le1: Default::default(),
            tp_e_le1: Default::default(),
            w_next_zero: Default::default(),
            w_next_le1: Default::default(),
            tp_next_zero: Default::default(),
            tp_next_le1: Default::default(),
        }
    }
}

impl Logic for CongestionFsmFast {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, win_count, hit_count, win_p1, win_p2, hit_p1, hit_p2, wrap_q,
            end_q, tp0_q, ge0_q, ge1_q
        );
        // ---- this cycle, from registers ----
        if self.state.q.val() {
            self.hit_now.next = self.below.val();
            self.w.next = self.win_s.val();
            self.tp.next = self.cnt_s.val();
        } else {
            self.hit_now.next = self.above.val();
            self.w.next = self.win_e.val();
            self.tp.next = self.cnt_e.val();
        }
        if self.end_q.q.val() {
            self.flip.next = self.tp0_q.q.val();
        } else if self.hit_now.val() {
            self.flip.next = self.ge1_q.q.val();
        } else {
            self.flip.next = self.ge0_q.q.val();
        }
        self.at_on.next =
            !self.reset.val() & self.enable.val() & self.det_at.val() & !self.restart.val();
        self.count_on.next = self.at_on.val() & !self.flip.val();
        // Counting on without a hit and without a window end: the hit counter and its flags
        // hold. (There flip = ge0, so this needs neither flip nor count_on: it is the clock
        // enable of those registers, and short.)
        self.hit_hold.next =
            self.at_on.val() & !self.end_q.q.val() & !self.hit_now.val() & !self.ge0_q.q.val();
        self.state_next.next = self.state.q.val();
        if !self.enable.val() {
            self.state_next.next = false;
        } else if !self.det_at.val() {
            // FT: the first hit flips the state.
            self.state_next.next = self.state.q.val() ^ self.hit_now.val();
        } else if self.flip.val() {
            // AT: enough hits in this window, flip at once.
            self.state_next.next = !self.state.q.val();
        }
        if self.reset.val() {
            self.state_next.next = false;
        }
        self.state.d.next = self.state_next.val();

        // ---- look-ahead: the counters and their flags ----
        self.win_p3.next = self.win_p2.q.val() + 1;
        self.hit_p3.next = self.hit_p2.q.val() + 1;
        self.eq2.next = self.win_p2.q.val() == self.w.val();
        self.ge2.next = self.hit_p2.q.val() >= self.tp.val();
        // The next state's w and T' tested against 0 and 1 for both states, so that the late
        // state_next only picks a flag (it is not followed by a 16-bit reduction).
        self.w_s_zero.next = self.win_s_next.val() == 0;
        self.w_e_zero.next = self.win_e_next.val() == 0;
        self.w_s_le1.next = (self.win_s_next.val() >> 1) == 0;
        self.w_e_le1.next = (self.win_e_next.val() >> 1) == 0;
        self.tp_s_zero.next = self.cnt_s_next.val() == 0;
        self.tp_e_zero.next = self.cnt_e_next.val() == 0;
        self.tp_s_le1.next = (self.cnt_s_next.val() >> 1) == 0;
        self.tp_e_le1.next = (self.cnt_e_next.val() >> 1) == 0;
        if self.state_next.val() {
            self.w_next_zero.next = self.w_s_zero.val();
            self.w_next_le1.next = self.w_s_le1.val();
            self.tp_next_zero.next = self.tp_s_zero.val();
            self.tp_next_le1.next = self.tp_s_le1.val();
        } else {
            self.w_next_zero.next = self.w_e_zero.val();
            self.w_next_le1.next = self.w_e_le1.val();
            self.tp_next_zero.next = self.tp_e_zero.val();
            self.tp_next_le1.next = self.tp_e_le1.val();
        }
        if self.count_on.val() {
            // Counting on: w and T' stay (a write to them restarts the window).
            if self.wrap_q.q.val() {
                self.win_count.d.next = 0.into();
                self.win_p1.d.next = 1.into();
                self.win_p2.d.next = 2.into();
            } else {
                self.win_count.d.next = self.win_p1.q.val();
                self.win_p1.d.next = self.win_p2.q.val();
                self.win_p2.d.next = self.win_p3.val();
            }
            if self.end_q.q.val() {
                self.end_q.d.next = self.w.val() == 0;
            } else if self.wrap_q.q.val() {
                self.end_q.d.next = self.w.val() == 1;
            } else {
                self.end_q.d.next = self.eq2.val();
            }
            self.wrap_q.d.next = self.end_q.q.val();
        } else {
            // An empty window next cycle, with the next state's w and T'.
            self.win_count.d.next = 0.into();
            self.win_p1.d.next = 1.into();
            self.win_p2.d.next = 2.into();
            self.wrap_q.d.next = self.w_next_zero.val();
            self.end_q.d.next = self.w_next_le1.val();
            self.tp0_q.d.next = self.tp_next_zero.val();
        }
        if !self.hit_hold.val() {
            if self.count_on.val() & !self.end_q.q.val() {
                // a hit: hit + 1
                self.hit_count.d.next = self.hit_p1.q.val();
                self.hit_p1.d.next = self.hit_p2.q.val();
                self.hit_p2.d.next = self.hit_p3.val();
                self.ge0_q.d.next = self.ge1_q.q.val();
                self.ge1_q.d.next = self.ge2.val();
            } else {
                // cleared: the window ended, or a new window starts
                self.hit_count.d.next = 0.into();
                self.hit_p1.d.next = 1.into();
                self.hit_p2.d.next = 2.into();
                if self.count_on.val() {
                    self.ge0_q.d.next = self.tp0_q.q.val();
                    self.ge1_q.d.next = (self.tp.val() >> 1) == 0;
                } else {
                    self.ge0_q.d.next = self.tp_next_zero.val();
                    self.ge1_q.d.next = self.tp_next_le1.val();
                }
            }
        }
        self.congested.next = self.state.q.val() & self.enable.val();
        self.win.next = self.win_count.q.val();
        self.hit.next = self.hit_count.q.val();
    }
}

#[test]
fn congestion_fsm_fast_synthesizes() {
    let mut uut = CongestionFsmFast::default();
    uut.connect_all();
    yosys_validate("congestion_fsm_fast", &generate_verilog(&uut)).unwrap();
}
