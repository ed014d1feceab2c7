//! The one-bit Normal/Congested FSM and its detector: fixed threshold (FT) or windowed count
//! (AT), selected at run time.

use rust_hdl::prelude::*;

/// Detector and state register (spec §2).
///
/// FT: Normal -> Congested when `c > th_enter`; Congested -> Normal when `c < th_escape`.
/// AT: a window counter `win` and a hit counter `hit`, shared by both states, count the cycles
/// of the current window in which the current state's condition holds; the state flips as soon
/// as `hit` reaches the state's count (T'), mid-window, and both counters clear. `restart`
/// (a write to a detector register) clears both counters. Disabled: held Normal, counters 0.
#[derive(LogicBlock, Default)]
pub struct CongestionFsm {
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
    /// Used credits.
    pub c: Signal<In, Bits<16>>,
    /// TH_ENTER.
    pub th_enter: Signal<In, Bits<16>>,
    /// TH_ESCAPE.
    pub th_escape: Signal<In, Bits<16>>,
    /// AT_WIN_E (T_e).
    pub win_e: Signal<In, Bits<16>>,
    /// AT_CNT_E (T_e').
    pub cnt_e: Signal<In, Bits<16>>,
    /// AT_WIN_S (T_s).
    pub win_s: Signal<In, Bits<16>>,
    /// AT_CNT_S (T_s').
    pub cnt_s: Signal<In, Bits<16>>,
    /// Congested, as the throttle sees it (state and enable).
    pub congested: Signal<Out, Bit>,
    /// AT window counter.
    pub win: Signal<Out, Bits<16>>,
    /// AT hit counter.
    pub hit: Signal<Out, Bits<16>>,
    state: DFF<Bit>,
    win_count: DFF<Bits<16>>,
    hit_count: DFF<Bits<16>>,
    hit_now: Signal<Local, Bit>,
    w: Signal<Local, Bits<16>>,
    tp: Signal<Local, Bits<16>>,
    hit_one: Signal<Local, Bits<16>>,
    win_inc: Signal<Local, Bits<16>>,
    hit_inc: Signal<Local, Bits<16>>,
    win_tmp: Signal<Local, Bits<16>>,
    hit_tmp: Signal<Local, Bits<16>>,
    wrap: Signal<Local, Bit>,
    window_end: Signal<Local, Bit>,
    not_tp: Signal<Local, Bits<16>>,
    ge17: Signal<Local, Bits<17>>,
    at_flip: Signal<Local, Bit>,
}

impl Logic for CongestionFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, win_count, hit_count);
        // The current state's condition, window and count.
        if self.state.q.val() {
            self.hit_now.next = self.c.val() < self.th_escape.val();
            self.w.next = self.win_s.val();
            self.tp.next = self.cnt_s.val();
        } else {
            self.hit_now.next = self.c.val() > self.th_enter.val();
            self.w.next = self.win_e.val();
            self.tp.next = self.cnt_e.val();
        }
        // Increments go through Locals so that Verilog truncates them like Rust does. The hit
        // is the increment's carry in, not a mux after it.
        self.win_inc.next = self.win_count.q.val() + 1;
        if self.hit_now.val() {
            self.hit_one.next = 1.into();
        } else {
            self.hit_one.next = 0.into();
        }
        self.hit_inc.next = self.hit_count.q.val() + self.hit_one.val();
        // win_tmp: the window count after this cycle (0 after the window's last cycle).
        self.wrap.next = self.win_count.q.val() == self.w.val();
        if self.wrap.val() {
            self.win_tmp.next = 0.into();
        } else {
            self.win_tmp.next = self.win_inc.val();
        }
        // window_end = (win_tmp == w), from the two cases of win_tmp: no compare after a mux.
        if self.wrap.val() {
            self.window_end.next = self.w.val() == 0;
        } else {
            self.window_end.next = self.win_inc.val() == self.w.val();
        }
        if self.window_end.val() {
            self.hit_tmp.next = 0.into();
        } else {
            self.hit_tmp.next = self.hit_inc.val();
        }
        // at_flip = (hit_tmp >= tp). At the window's end hit_tmp is 0; otherwise hit_inc >= tp
        // is the carry out of hit_inc + !tp + 1, with the inversion in tp's select.
        self.not_tp.next = !self.tp.val();
        self.ge17.next =
            bit_cast::<17, 16>(self.hit_inc.val()) + bit_cast::<17, 16>(self.not_tp.val()) + 1;
        if self.window_end.val() {
            self.at_flip.next = self.tp.val() == 0;
        } else {
            self.at_flip.next = self.ge17.val().get_bit(16);
        }
        if !self.enable.val() {
            self.state.d.next = false;
            self.win_count.d.next = 0.into();
            self.hit_count.d.next = 0.into();
        } else if !self.det_at.val() {
            // FT: the first hit flips the state.
            if self.hit_now.val() {
                self.state.d.next = !self.state.q.val();
            }
            self.win_count.d.next = 0.into();
            self.hit_count.d.next = 0.into();
        } else if self.at_flip.val() {
            // AT: enough hits in this window, flip at once.
            self.state.d.next = !self.state.q.val();
            self.win_count.d.next = 0.into();
            self.hit_count.d.next = 0.into();
        } else if self.restart.val() {
            self.win_count.d.next = 0.into();
            self.hit_count.d.next = 0.into();
        } else {
            self.win_count.d.next = self.win_tmp.val();
            self.hit_count.d.next = self.hit_tmp.val();
        }
        if self.reset.val() {
            self.state.d.next = false;
            self.win_count.d.next = 0.into();
            self.hit_count.d.next = 0.into();
        }
        self.congested.next = self.state.q.val() & self.enable.val();
        self.win.next = self.win_count.q.val();
        self.hit.next = self.hit_count.q.val();
    }
}

#[test]
fn congestion_fsm_synthesizes() {
    let mut uut = CongestionFsm::default();
    uut.connect_all();
    yosys_validate("congestion_fsm", &generate_verilog(&uut)).unwrap();
}
