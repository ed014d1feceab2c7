//! The register file (spec §4): a simple CSR port, the control registers, and the read-back
//! of status and counters. Addresses and reset values come from [`crate::regs`].

use super::shape_decode::ShapeDecode;
use crate::regs::*;
use rust_hdl::prelude::*;

/// Register file with one write port and one combinational read port.
///
/// A write (`we` high at a rising edge) lands at that edge; the block uses the new value from
/// the next cycle on. Reads return registered values of the current cycle. Writes to STATUS
/// clear the error bits written as 1; writes to a counter clear it; a write of 0 to SEED
/// loads the reset seed. See `docs/registers.md`.
#[derive(LogicBlock)]
pub struct Csr {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every register to its reset value.
    pub reset: Signal<In, Bit>,
    /// Write enable.
    pub we: Signal<In, Bit>,
    /// Word address (reads and writes).
    pub addr: Signal<In, Bits<4>>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// Read data for `addr`.
    pub rdata: Signal<Out, Bits<32>>,
    /// STATUS.congested.
    pub congested: Signal<In, Bit>,
    /// STATUS.err_underflow.
    pub err_underflow: Signal<In, Bit>,
    /// STATUS.err_overflow.
    pub err_overflow: Signal<In, Bit>,
    /// STATUS.c.
    pub c: Signal<In, Bits<16>>,
    /// CNT_CONGESTED.
    pub cnt_congested: Signal<In, Bits<32>>,
    /// CNT_SENT.
    pub cnt_sent: Signal<In, Bits<32>>,
    /// CNT_THROTTLED.
    pub cnt_throttled: Signal<In, Bits<32>>,
    /// AT_STATUS.win.
    pub win: Signal<In, Bits<16>>,
    /// AT_STATUS.hit.
    pub hit: Signal<In, Bits<16>>,
    /// CTRL.enable.
    pub enable: Signal<Out, Bit>,
    /// CTRL.det_mode (AT when high).
    pub det_at: Signal<Out, Bit>,
    /// CTRL.thr_mode (RI when high).
    pub thr_ri: Signal<Out, Bit>,
    /// CTRL.gating (packet when high).
    pub gate_packet: Signal<Out, Bit>,
    /// CTRL.thr_mode of the next cycle (this cycle's CTRL write or reset applied).
    pub thr_ri_next: Signal<Out, Bit>,
    /// CREDIT_LIMIT.
    pub credit_limit: Signal<Out, Bits<16>>,
    /// TH_ENTER.
    pub th_enter: Signal<Out, Bits<16>>,
    /// TH_ESCAPE.
    pub th_escape: Signal<Out, Bits<16>>,
    /// Strobe: CREDIT_LIMIT is loaded this cycle (a write or reset).
    pub credit_limit_load: Signal<Out, Bit>,
    /// Strobe: TH_ENTER is loaded this cycle.
    pub th_enter_load: Signal<Out, Bit>,
    /// Strobe: TH_ESCAPE is loaded this cycle.
    pub th_escape_load: Signal<Out, Bit>,
    /// The value CREDIT_LIMIT loads (reset value or write data).
    pub credit_limit_value: Signal<Out, Bits<16>>,
    /// The value TH_ENTER loads.
    pub th_enter_value: Signal<Out, Bits<16>>,
    /// The value TH_ESCAPE loads.
    pub th_escape_value: Signal<Out, Bits<16>>,
    /// AT_WIN_E of the next cycle.
    pub at_win_e_next: Signal<Out, Bits<16>>,
    /// AT_CNT_E of the next cycle.
    pub at_cnt_e_next: Signal<Out, Bits<16>>,
    /// AT_WIN_S of the next cycle.
    pub at_win_s_next: Signal<Out, Bits<16>>,
    /// AT_CNT_S of the next cycle.
    pub at_cnt_s_next: Signal<Out, Bits<16>>,
    /// AT_WIN_E.
    pub at_win_e: Signal<Out, Bits<16>>,
    /// AT_CNT_E.
    pub at_cnt_e: Signal<Out, Bits<16>>,
    /// AT_WIN_S.
    pub at_win_s: Signal<Out, Bits<16>>,
    /// AT_CNT_S.
    pub at_cnt_s: Signal<Out, Bits<16>>,
    /// SHAPE decoded: m >= n.
    pub shape_left: Signal<Out, Bit>,
    /// SHAPE decoded: barrel distance.
    pub shape_distance: Signal<Out, Bits<5>>,
    /// SHAPE decoded: bits of c that spill past bit 31.
    pub shape_spill_mask: Signal<Out, Bits<16>>,
    /// SHAPE decoded: the bits of r that RI compares (r_width).
    pub r_mask: Signal<Out, Bits<32>>,
    /// `r_mask` of the next cycle (this cycle's SHAPE write or reset applied).
    pub r_mask_next: Signal<Out, Bits<32>>,
    /// K.
    pub k: Signal<Out, Bits<16>>,
    /// Strobe: SEED written this cycle; load the seed into the generator (the write data, or
    /// the reset seed for a write of 0).
    pub reseed: Signal<Out, Bit>,
    /// The seed a SEED write stores and loads (the reset seed instead of 0), for a generator
    /// that takes it ready-made (the pipelined build's).
    pub seed_load: Signal<Out, Bits<32>>,
    /// Strobe: a detector register is written; restart the AT window.
    pub restart: Signal<Out, Bit>,
    /// Strobe: clear err_underflow.
    pub clear_underflow: Signal<Out, Bit>,
    /// Strobe: clear err_overflow.
    pub clear_overflow: Signal<Out, Bit>,
    /// Strobe: clear CNT_CONGESTED.
    pub clear_congested: Signal<Out, Bit>,
    /// Strobe: clear CNT_SENT.
    pub clear_sent: Signal<Out, Bit>,
    /// Strobe: clear CNT_THROTTLED.
    pub clear_throttled: Signal<Out, Bit>,
    // Reset values (derived from crate::regs - do not override).
    rst_credit_limit: Constant<Bits<16>>,
    rst_th_enter: Constant<Bits<16>>,
    rst_th_escape: Constant<Bits<16>>,
    rst_at_win_e: Constant<Bits<16>>,
    rst_at_cnt_e: Constant<Bits<16>>,
    rst_at_win_s: Constant<Bits<16>>,
    rst_at_cnt_s: Constant<Bits<16>>,
    rst_m: Constant<Bits<5>>,
    rst_n: Constant<Bits<5>>,
    rst_r_width: Constant<Bits<6>>,
    rst_k: Constant<Bits<16>>,
    rst_seed: Constant<Bits<32>>,
    ctrl: DFF<Bits<4>>,
    credit_limit_q: DFF<Bits<16>>,
    th_enter_q: DFF<Bits<16>>,
    th_escape_q: DFF<Bits<16>>,
    at_win_e_q: DFF<Bits<16>>,
    at_cnt_e_q: DFF<Bits<16>>,
    at_win_s_q: DFF<Bits<16>>,
    at_cnt_s_q: DFF<Bits<16>>,
    m_q: DFF<Bits<5>>,
    n_q: DFF<Bits<5>>,
    r_width_q: DFF<Bits<6>>,
    k_q: DFF<Bits<16>>,
    seed_q: DFF<Bits<32>>,
    // SHAPE is also stored decoded (written together with m_q/n_q) to keep the decode out of
    // the per-cycle path.
    decode: ShapeDecode,
    left_q: DFF<Bit>,
    distance_q: DFF<Bits<5>>,
    spill_mask_q: DFF<Bits<16>>,
    r_mask_q: DFF<Bits<32>>,
    seed_zero: Signal<Local, Bit>,
    status: Signal<Local, Bits<32>>,
    at_status: Signal<Local, Bits<32>>,
}

impl Default for Csr {
    fn default() -> Self {
        let c16 = |v: u16| Constant::new((v as u64).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            we: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            rdata: Default::default(),
            congested: Default::default(),
            err_underflow: Default::default(),
            err_overflow: Default::default(),
            c: Default::default(),
            cnt_congested: Default::default(),
            cnt_sent: Default::default(),
            cnt_throttled: Default::default(),
            win: Default::default(),
            hit: Default::default(),
            enable: Default::default(),
            det_at: Default::default(),
            thr_ri: Default::default(),
            gate_packet: Default::default(),
            thr_ri_next: Default::default(),
            credit_limit: Default::default(),
            th_enter: Default::default(),
            th_escape: Default::default(),
            credit_limit_load: Default::default(),
            th_enter_load: Default::default(),
            th_escape_load: Default::default(),
            credit_limit_value: Default::default(),
            th_enter_value: Default::default(),
            th_escape_value: Default::default(),
            at_win_e_next: Default::default(),
            at_cnt_e_next: Default::default(),
            at_win_s_next: Default::default(),
            at_cnt_s_next: Default::default(),
            at_win_e: Default::default(),
            at_cnt_e: Default::default(),
            at_win_s: Default::default(),
            at_cnt_s: Default::default(),
            shape_left: Default::default(),
            shape_distance: Default::default(),
            shape_spill_mask: Default::default(),
            r_mask: Default::default(),
            r_mask_next: Default::default(),
            k: Default::default(),
            reseed: Default::default(),
            seed_load: Default::default(),
            restart: Default::default(),
            clear_underflow: Default::default(),
            clear_overflow: Default::default(),
            clear_congested: Default::default(),
            clear_sent: Default::default(),
            clear_throttled: Default::default(),
            rst_credit_limit: c16(RESET_CREDIT_LIMIT),
            rst_th_enter: c16(RESET_TH_ENTER),
            rst_th_escape: c16(RESET_TH_ESCAPE),
            rst_at_win_e: c16(RESET_AT_WIN_E),
            rst_at_cnt_e: c16(RESET_AT_CNT_E),
            rst_at_win_s: c16(RESET_AT_WIN_S),
            rst_at_cnt_s: c16(RESET_AT_CNT_S),
            rst_m: Constant::new((RESET_M as u64).into()),
            rst_n: Constant::new((RESET_N as u64).into()),
            rst_r_width: Constant::new((RESET_R_WIDTH as u64).into()),
            rst_k: c16(RESET_K),
            rst_seed: Constant::new((RESET_SEED as u64).into()),
            ctrl: Default::default(),
            credit_limit_q: Default::default(),
            th_enter_q: Default::default(),
            th_escape_q: Default::default(),
            at_win_e_q: Default::default(),
            at_cnt_e_q: Default::default(),
            at_win_s_q: Default::default(),
            at_cnt_s_q: Default::default(),
            m_q: Default::default(),
            n_q: Default::default(),
            r_width_q: Default::default(),
            k_q: Default::default(),
            seed_q: Default::default(),
            decode: Default::default(),
            left_q: Default::default(),
            distance_q: Default::default(),
            spill_mask_q: Default::default(),
            r_mask_q: Default::default(),
            seed_zero: Default::default(),
            status: Default::default(),
            at_status: Default::default(),
        }
    }
}

impl Logic for Csr {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ctrl,
            credit_limit_q,
            th_enter_q,
            th_escape_q,
            at_win_e_q,
            at_cnt_e_q,
            at_win_s_q,
            at_cnt_s_q,
            m_q,
            n_q,
            r_width_q,
            k_q,
            seed_q,
            left_q,
            distance_q,
            spill_mask_q,
            r_mask_q
        );
        // The SHAPE decoder sees the value being loaded: the reset value or the write data.
        if self.reset.val() {
            self.decode.m.next = self.rst_m.val();
            self.decode.n.next = self.rst_n.val();
            self.decode.r_width.next = self.rst_r_width.val();
        } else {
            self.decode.m.next = self.wdata.val().get_bits::<5>(0);
            self.decode.n.next = self.wdata.val().get_bits::<5>(8);
            self.decode.r_width.next = self.wdata.val().get_bits::<6>(16);
        }
        self.seed_zero.next = self.wdata.val() == 0;
        if self.seed_zero.val() {
            self.seed_load.next = self.rst_seed.val();
        } else {
            self.seed_load.next = self.wdata.val();
        }
        self.reseed.next = false;
        self.restart.next = false;
        self.credit_limit_load.next = self.reset.val();
        self.th_enter_load.next = self.reset.val();
        self.th_escape_load.next = self.reset.val();
        if self.reset.val() {
            self.credit_limit_value.next = self.rst_credit_limit.val();
            self.th_enter_value.next = self.rst_th_enter.val();
            self.th_escape_value.next = self.rst_th_escape.val();
        } else {
            self.credit_limit_value.next = self.wdata.val().get_bits::<16>(0);
            self.th_enter_value.next = self.wdata.val().get_bits::<16>(0);
            self.th_escape_value.next = self.wdata.val().get_bits::<16>(0);
        }
        self.clear_underflow.next = false;
        self.clear_overflow.next = false;
        self.clear_congested.next = false;
        self.clear_sent.next = false;
        self.clear_throttled.next = false;
        if self.we.val() {
            // Literal addresses, offsets and widths: hdl_gen cannot translate paths such as
            // `addr::CTRL`. `DECODE_MATCHES_REGS` below ties each one to crate::regs, so a
            // change to the register table that this decode does not follow fails the build.
            match self.addr.val().index() {
                0 => {
                    self.ctrl.d.next = self.wdata.val().get_bits::<4>(0);
                    self.restart.next = true;
                }
                1 => {
                    self.credit_limit_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.credit_limit_load.next = true;
                }
                2 => {
                    self.th_enter_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.th_enter_load.next = true;
                    self.restart.next = true;
                }
                3 => {
                    self.th_escape_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.th_escape_load.next = true;
                    self.restart.next = true;
                }
                4 => {
                    self.at_win_e_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.restart.next = true;
                }
                5 => {
                    self.at_cnt_e_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.restart.next = true;
                }
                6 => {
                    self.at_win_s_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.restart.next = true;
                }
                7 => {
                    self.at_cnt_s_q.d.next = self.wdata.val().get_bits::<16>(0);
                    self.restart.next = true;
                }
                8 => {
                    self.m_q.d.next = self.wdata.val().get_bits::<5>(0);
                    self.n_q.d.next = self.wdata.val().get_bits::<5>(8);
                    self.r_width_q.d.next = self.wdata.val().get_bits::<6>(16);
                    self.left_q.d.next = self.decode.left.val();
                    self.distance_q.d.next = self.decode.distance.val();
                    self.spill_mask_q.d.next = self.decode.spill_mask.val();
                    self.r_mask_q.d.next = self.decode.r_mask.val();
                }
                9 => {
                    self.k_q.d.next = self.wdata.val().get_bits::<16>(0);
                }
                10 => {
                    self.seed_q.d.next = self.wdata.val();
                    self.reseed.next = true;
                }
                11 => {
                    self.clear_underflow.next = self.wdata.val().get_bit(1);
                    self.clear_overflow.next = self.wdata.val().get_bit(2);
                }
                12 => {
                    self.clear_congested.next = true;
                }
                13 => {
                    self.clear_sent.next = true;
                }
                14 => {
                    self.clear_throttled.next = true;
                }
                _ => {}
            }
        }
        if self.reset.val() {
            self.ctrl.d.next = 0.into();
            self.credit_limit_q.d.next = self.rst_credit_limit.val();
            self.th_enter_q.d.next = self.rst_th_enter.val();
            self.th_escape_q.d.next = self.rst_th_escape.val();
            self.at_win_e_q.d.next = self.rst_at_win_e.val();
            self.at_cnt_e_q.d.next = self.rst_at_cnt_e.val();
            self.at_win_s_q.d.next = self.rst_at_win_s.val();
            self.at_cnt_s_q.d.next = self.rst_at_cnt_s.val();
            self.m_q.d.next = self.rst_m.val();
            self.n_q.d.next = self.rst_n.val();
            self.r_width_q.d.next = self.rst_r_width.val();
            self.left_q.d.next = self.decode.left.val();
            self.distance_q.d.next = self.decode.distance.val();
            self.spill_mask_q.d.next = self.decode.spill_mask.val();
            self.r_mask_q.d.next = self.decode.r_mask.val();
            self.k_q.d.next = self.rst_k.val();
        }
        // A SEED write of 0 stores the reset seed: the same constant as reset, so both are one
        // synchronous load of the register rather than a mux in front of each bit.
        if self.reset.val() | (self.reseed.val() & self.seed_zero.val()) {
            self.seed_q.d.next = self.rst_seed.val();
        }
        // Outputs to the datapath.
        self.enable.next = self.ctrl.q.val().get_bit(0);
        self.det_at.next = self.ctrl.q.val().get_bit(1);
        self.thr_ri.next = self.ctrl.q.val().get_bit(2);
        self.gate_packet.next = self.ctrl.q.val().get_bit(3);
        self.thr_ri_next.next = self.ctrl.d.val().get_bit(2);
        self.credit_limit.next = self.credit_limit_q.q.val();
        self.th_enter.next = self.th_enter_q.q.val();
        self.th_escape.next = self.th_escape_q.q.val();
        self.at_win_e_next.next = self.at_win_e_q.d.val();
        self.at_cnt_e_next.next = self.at_cnt_e_q.d.val();
        self.at_win_s_next.next = self.at_win_s_q.d.val();
        self.at_cnt_s_next.next = self.at_cnt_s_q.d.val();
        self.at_win_e.next = self.at_win_e_q.q.val();
        self.at_cnt_e.next = self.at_cnt_e_q.q.val();
        self.at_win_s.next = self.at_win_s_q.q.val();
        self.at_cnt_s.next = self.at_cnt_s_q.q.val();
        self.shape_left.next = self.left_q.q.val();
        self.shape_distance.next = self.distance_q.q.val();
        self.shape_spill_mask.next = self.spill_mask_q.q.val();
        self.r_mask.next = self.r_mask_q.q.val();
        self.r_mask_next.next = self.r_mask_q.d.val();
        self.k.next = self.k_q.q.val();
        // Read port (literals checked against crate::regs by `DECODE_MATCHES_REGS` below).
        self.status.next = bit_cast::<32, 16>(self.c.val()) << 16;
        self.status.next = self.status.val().replace_bit(0, self.congested.val());
        self.status.next = self.status.val().replace_bit(1, self.err_underflow.val());
        self.status.next = self.status.val().replace_bit(2, self.err_overflow.val());
        self.at_status.next =
            (bit_cast::<32, 16>(self.hit.val()) << 16) | bit_cast::<32, 16>(self.win.val());
        match self.addr.val().index() {
            0 => self.rdata.next = bit_cast::<32, 4>(self.ctrl.q.val()),
            1 => self.rdata.next = bit_cast::<32, 16>(self.credit_limit_q.q.val()),
            2 => self.rdata.next = bit_cast::<32, 16>(self.th_enter_q.q.val()),
            3 => self.rdata.next = bit_cast::<32, 16>(self.th_escape_q.q.val()),
            4 => self.rdata.next = bit_cast::<32, 16>(self.at_win_e_q.q.val()),
            5 => self.rdata.next = bit_cast::<32, 16>(self.at_cnt_e_q.q.val()),
            6 => self.rdata.next = bit_cast::<32, 16>(self.at_win_s_q.q.val()),
            7 => self.rdata.next = bit_cast::<32, 16>(self.at_cnt_s_q.q.val()),
            8 => {
                self.rdata.next = (bit_cast::<32, 6>(self.r_width_q.q.val()) << 16)
                    | (bit_cast::<32, 5>(self.n_q.q.val()) << 8)
                    | bit_cast::<32, 5>(self.m_q.q.val())
            }
            9 => self.rdata.next = bit_cast::<32, 16>(self.k_q.q.val()),
            10 => self.rdata.next = self.seed_q.q.val(),
            11 => self.rdata.next = self.status.val(),
            12 => self.rdata.next = self.cnt_congested.val(),
            13 => self.rdata.next = self.cnt_sent.val(),
            14 => self.rdata.next = self.cnt_throttled.val(),
            _ => self.rdata.next = self.at_status.val(),
        }
    }
}

/// True when field `name` is at word address `reg`, bits `offset`.. of `width`, as the decode
/// above has it.
const fn at(name: &str, reg: u8, offset: u32, width: u32) -> bool {
    let f = named(name);
    f.reg == reg && f.offset == offset && f.width == width
}

/// The decode in `Csr::update` holds its addresses, bit offsets and widths as literals (hdl_gen
/// cannot translate `addr::CTRL` or a constant in a kernel). This ties every one of them to the
/// register table: a change in `crate::regs` that `update` does not follow fails the build
/// (pft-regs generates every other language's copy from the same table).
const DECODE_MATCHES_REGS: () = {
    // `addr: Bits<4>`, 16 registers: every address decodes, `_` is the last one.
    assert!(ADDR_BITS == 4 && REGS.len() == 16, "Csr::addr is Bits<4>");
    // The match arms, in address order; reads return the register as these fields lay it out.
    assert!(addr::CTRL == 0, "arm 0 is CTRL");
    assert!(
        at("enable", 0, 0, 1) && at("det_mode", 0, 1, 1),
        "CTRL: enable = bit 0, det_at = bit 1"
    );
    assert!(
        at("thr_mode", 0, 2, 1) && at("gating", 0, 3, 1),
        "CTRL: thr_ri = bit 2, gate_packet = bit 3"
    );
    assert!(
        CTRL_MASK == 0xF && RESET_CTRL == 0,
        "CTRL: ctrl is Bits<4> from wdata[3:0], reset 0"
    );
    assert!(addr::CREDIT_LIMIT == 1, "arm 1 is CREDIT_LIMIT");
    assert!(at("credit_limit", 1, 0, 16), "CREDIT_LIMIT: wdata[15:0]");
    assert!(addr::TH_ENTER == 2, "arm 2 is TH_ENTER");
    assert!(at("th_enter", 2, 0, 16), "TH_ENTER: wdata[15:0]");
    assert!(addr::TH_ESCAPE == 3, "arm 3 is TH_ESCAPE");
    assert!(at("th_escape", 3, 0, 16), "TH_ESCAPE: wdata[15:0]");
    assert!(addr::AT_WIN_E == 4, "arm 4 is AT_WIN_E");
    assert!(at("at_win_e", 4, 0, 16), "AT_WIN_E: wdata[15:0]");
    assert!(addr::AT_CNT_E == 5, "arm 5 is AT_CNT_E");
    assert!(at("at_cnt_e", 5, 0, 16), "AT_CNT_E: wdata[15:0]");
    assert!(addr::AT_WIN_S == 6, "arm 6 is AT_WIN_S");
    assert!(at("at_win_s", 6, 0, 16), "AT_WIN_S: wdata[15:0]");
    assert!(addr::AT_CNT_S == 7, "arm 7 is AT_CNT_S");
    assert!(at("at_cnt_s", 7, 0, 16), "AT_CNT_S: wdata[15:0]");
    assert!(addr::SHAPE == 8, "arm 8 is SHAPE");
    assert!(
        at("m", 8, 0, 5) && at("n", 8, 8, 5) && at("r_width", 8, 16, 6),
        "SHAPE: m = wdata[4:0], n = wdata[12:8], r_width = wdata[21:16]"
    );
    assert!(addr::K == 9, "arm 9 is K");
    assert!(at("k", 9, 0, 16), "K: wdata[15:0]");
    assert!(addr::SEED == 10, "arm 10 is SEED");
    assert!(at("seed", 10, 0, 32), "SEED: all of wdata");
    assert!(addr::STATUS == 11, "arm 11 is STATUS");
    assert!(
        at("congested", 11, 0, 1) && at("err_underflow", 11, 1, 1),
        "STATUS: congested = bit 0, err_underflow = bit 1 (write 1 clears)"
    );
    assert!(
        at("err_overflow", 11, 2, 1) && at("c", 11, 16, 16),
        "STATUS: err_overflow = bit 2 (write 1 clears), c = bits 31:16"
    );
    assert!(addr::CNT_CONGESTED == 12, "arm 12 is CNT_CONGESTED");
    assert!(at("cnt_congested", 12, 0, 32), "CNT_CONGESTED: 32 bits");
    assert!(addr::CNT_SENT == 13, "arm 13 is CNT_SENT");
    assert!(at("cnt_sent", 13, 0, 32), "CNT_SENT: 32 bits");
    assert!(addr::CNT_THROTTLED == 14, "arm 14 is CNT_THROTTLED");
    assert!(at("cnt_throttled", 14, 0, 32), "CNT_THROTTLED: 32 bits");
    assert!(addr::AT_STATUS == 15, "arm _ is AT_STATUS");
    assert!(
        at("win", 15, 0, 16) && at("hit", 15, 16, 16),
        "AT_STATUS: win = bits 15:0, hit = bits 31:16"
    );
    // What a write does: RW registers store, counters clear on any write, STATUS clears the
    // error bits written as 1, AT_STATUS ignores writes; `restart` for the detector registers.
    let mut a = 0;
    while a < REGS.len() {
        let access = match a {
            0..=10 => Access::Rw,
            11..=14 => Access::RoClear,
            _ => Access::Ro,
        };
        assert!(
            REGS[a].access as u8 == access as u8,
            "a register's access differs from its arm"
        );
        assert!(
            restarts_window(a as u8) == matches!(a, 0 | 2..=7),
            "`restart` is set by the writes to addresses 0, 2..=7"
        );
        a += 1;
    }
};
const _: () = DECODE_MATCHES_REGS;

#[test]
fn csr_synthesizes() {
    let mut uut = Csr::default();
    uut.connect_all();
    yosys_validate("csr", &generate_verilog(&uut)).unwrap();
}
