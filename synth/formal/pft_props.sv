// Formal properties of the exported PFT block (synth/out/pft_injector.v, top `pft_injector`;
// and of the pipelined build, see "The pipelined build" at the end of this header).
//
// Checked by synth/formal/run.sh with Yosys 0.23 and yosys-smtbmc (z3): a bounded model check
// from power-up (depth 30) and k-induction. docs/formal.md has the results and how to read them.
// The level f(c) itself is proved in pft_level.sv (property level_is_f); this file uses it.
//
// Register addresses, field bit positions and widths come from the register map's generated
// SystemVerilog package (hdl/generated/pft_regs_pkg.sv, from hdl/src/regs.rs; run.sh reads it
// first). Yosys 0.23 has no `import`, so they are written package-qualified, pft_regs_pkg::X.
//
// This module wraps the unmodified export. Its inputs are the block's inputs and are left free:
// yosys-smtbmc picks any value for each of them in every cycle, subject only to the assumptions
// below. run.sh builds one model per property: it defines exactly one `P_<NAME>` macro, which
// enables that property's assertions, the helper invariants it needs (`H_<NAME>`, asserted too,
// so they are proved along with it) and the assumption it is stated under (only
// A_CREDIT_LIMIT is specific to one property).
//
// ---------------------------------------------------------------------------------------------
// What the properties observe
// ---------------------------------------------------------------------------------------------
// Top ports: send, congested, throttled, used_credits (= c). Yosys 0.23 does not resolve
// hierarchical references (`dut.fsm.state$q` becomes an undriven implicit wire), so internal
// signals are bound after `flatten` by the `connect` lines in observe.ys: each `obs_*` wire
// below is declared undriven here and connected there to one signal of the flattened design
// (run.sh runs `check -assert`, which fails if one is left undriven). They are:
//
//   obs_state          fsm.state$q        the FSM: Normal (0) / Congested (1)
//   obs_win, obs_hit   fsm.win_count$q, fsm.hit_count$q   the AT window and hit counters
//   obs_gap            fi.count$q         the FI gap counter (helper invariant H_GAP only)
//   obs_r              ri.state$q         the RI generator output r
//   obs_level,         shifter$level,     the level f(c) as the design computes it (32 bits)
//   obs_level_ovf      shifter$level_ovf  and its "f(c) >= 2^32" flag; see below
//   obs_ctrl           csr.ctrl$q         CTRL: enable[0], det_mode[1] (1 AT), thr_mode[2] (1 RI),
//                                         gating[3] (1 packet)
//   obs_r_width        csr.r_width_q$q    SHAPE.r_width as stored
//   obs_credit_limit, obs_th_enter, obs_th_escape, obs_win_e, obs_cnt_e, obs_win_s,
//   obs_cnt_s, obs_m, obs_n, obs_k        the registers CREDIT_LIMIT, TH_ENTER, TH_ESCAPE,
//                                         AT_WIN_E, AT_CNT_E, AT_WIN_S, AT_CNT_S, SHAPE.m,
//                                         SHAPE.n and K as stored: the value software last
//                                         wrote (masked as in docs/registers.md) or the reset
//                                         value
//   obs_left, obs_distance, obs_spill_mask, obs_r_mask   the decoded copy of SHAPE
//                                         that drives the shifter and the RI compare
//                                         (property shape_decoded only)
//   obs_err_underflow, obs_err_overflow   the sticky STATUS error flags
//
// Every reference value here (the AT pseudo-code, the credit update, the gap counter) is
// computed from the spec's text, not taken from the design, with one exception: the FI and RI
// properties compare against the design's own level (obs_level, obs_level_ovf) instead of
// recomputing f(c). That is sound because two other properties prove it equal to the spec's
// f(c) = floor(c * 2^m / 2^n) + k in every reachable state:
//   level_is_f     (pft_level.sv) for every c, m, n, k: the design's decoder followed by its
//                  shifter gives level_ovf = (f(c) >= 2^32), and level = f(c) when it is clear.
//   shape_decoded  (here) the decoded SHAPE registers always hold the decoder's output for
//                  the stored m and n.
// Splitting it this way keeps each check small: z3 needed 13 to 60 s per BMC step when the
// 48-bit f(c) and the design's barrel shifter met inside a 30-step unrolling, and needs 2 s
// for the same question asked once, combinationally.
//
// Cut points (run.sh, list PROPERTIES): for speed, some properties are checked with one design
// signal replaced by a free input: throttle_ok for the credit and detector properties, the
// next FSM state and the next RI generator value for the throttling properties. A free input
// can take the real value too, so a property proved with a cut holds for the real design; it
// then also says that it holds whatever the cut-off logic does. `CUTS=0 bash run.sh` checks
// every property on the whole design instead; both pass (docs/formal.md).
//
// ---------------------------------------------------------------------------------------------
// Assumptions (the environment the block is specified for)
// ---------------------------------------------------------------------------------------------
// A_RESET        `reset` is high in the first cycle after power-up (docs/behaviour.md: "the
//                block must see reset for at least one cycle before use"). After that, reset
//                is free: it may be asserted in any cycle, for any number of cycles.
// (free)         flit_valid and flit_head are free (a head input that changes while a flit
//                waits, or is high for every flit, is still a legal input). credit_return is free over its whole range 0..255,
//                including more credits than are in use: that is a link error the block must
//                survive (it clamps c at 0 and sets err_underflow), so it is not assumed away.
//                csr_we, csr_addr and csr_wdata are free: any register, any value, any cycle,
//                including reserved bits, writes to read-only registers, SEED = 0, thresholds
//                in either order, windows and counts of 0, CREDIT_LIMIT below c. So every
//                property holds for every register value the block accepts, and across
//                run-time reprogramming, unless it says otherwise.
// A_CREDIT_LIMIT (property c_within_limit only) software never writes CREDIT_LIMIT below the
//                credits in use once this cycle's flit has left: a write to CREDIT_LIMIT
//                has its field >= c + send. Without it c may legally sit above the limit
//                (docs/behaviour.md, Credits); property c_update covers that case.
//
// Covers: next to its assertions, each property has `cover` statements for the situations it
// talks about (a send in Congested FI after a non-zero level, an AT flip after 2 hits, ...).
// run.sh requires each of them to be reached within the BMC depth on the design without cut
// points, so no property passes only because its premise can never be true.
//
// Time: all assertions are immediate assertions on the values of one cycle (registered values
// plus that cycle's inputs). A statement about cycle t+1 is checked in cycle t+1 against
// `exp_*` registers holding what the spec predicts from cycle t. `first` is high only in the
// power-up cycle; assertions that need a previous cycle, or the state that the first reset
// establishes, are not checked in it.
//
// ---------------------------------------------------------------------------------------------
// The pipelined build (synth/out/pft_injector_pipelined.v, top `pft_injector_pipelined`)
// ---------------------------------------------------------------------------------------------
// run.sh checks it with -DPIPELINED: the same wrapper around that top, the same assumptions
// and the same statements, except where the throttle's timing differs (docs/behaviour.md,
// "Pipelined build": the verdict of cycle t compares that cycle's gap or r with the level
// register of cycle t-1, L(t-1) = f(c(t-3)), and r with the RI mask of cycle t-1):
//   obs_level, obs_level_ovf  level_pipe.level_q$q, level_ovf_q$q: the level register L
//                             (observe_pft_injector_pipelined.ys), not a combinational level
//   idle_ge_f, r_ge_f         compare with `prev_level`, `prev_level_ovf` (L and its flag of
//                             the previous cycle) and r with `prev_r_mask`; so fi_spacing,
//                             fi_not_stricter, ri_gate (and the covers of packet_body_passes)
//                             keep their text and state the delayed compare
//   level_is_f                a sequential property of the running design (P_LEVEL_IS_F):
//                             L(t) = f(c(t-2)) with m, n of cycle t-2 and k of cycle t-1
//   H_GAP                     also: the FI's second register gap_inc = min(gap + 1, 0xFFFF)
// Its export computes more a cycle ahead: the compares of c with CREDIT_LIMIT, TH_ENTER and
// TH_ESCAPE (CreditCompare), the detector's AT flags (CongestionFsmFast) and the RI verdict
// from a masked look-ahead register. Inductions need invariants on those registers; run.sh
// defines LOOKAHEAD_CMP, LOOKAHEAD_FSM, LOOKAHEAD_RI when the export has them, binds them
// (observe_lookahead_*.ys), and the properties lookahead_limit, lookahead_enter,
// lookahead_escape and lookahead_fsm prove them; the other properties assume them (below,
// "The pipelined export's look-ahead registers"). Every other statement is unchanged.
// ---------------------------------------------------------------------------------------------

`default_nettype none

module pft_formal (
    input wire        clock,
    input wire        reset,
    input wire        flit_valid,
    input wire        flit_head,
    input wire [7:0]  credit_return,
    input wire        csr_we,
    input wire [pft_regs_pkg::PFT_ADDR_BITS-1:0] csr_addr,
    input wire [31:0] csr_wdata
);
    wire        send;
    wire        congested;
    wire        throttled;
    wire [15:0] c;
    wire [31:0] csr_rdata;

    // The build under test: run.sh defines PIPELINED for the pipelined export (top
    // pft_injector_pipelined: same ports; see "The pipelined build" below).
`ifdef PIPELINED
    pft_injector_pipelined dut (
`else
    pft_injector dut (
`endif
        .clock(clock),
        .reset(reset),
        .flit_valid(flit_valid),
        .flit_head(flit_head),
        .credit_return(credit_return),
        .csr_we(csr_we),
        .csr_addr(csr_addr),
        .csr_wdata(csr_wdata),
        .send(send),
        .congested(congested),
        .used_credits(c),
        .throttled(throttled),
        .csr_rdata(csr_rdata)
    );

    // Internal signals, connected by observe.ys (see the table above).
    (* keep *) wire        obs_state;
    (* keep *) wire [15:0] obs_win;
    (* keep *) wire [15:0] obs_hit;
    (* keep *) wire [15:0] obs_gap;
    (* keep *) wire [31:0] obs_r;
    (* keep *) wire [31:0] obs_level;
    (* keep *) wire        obs_level_ovf;
    // The registers as stored: as wide as their fields in the register map (CTRL: its fields,
    // gating the highest); a design register of another width fails observe.ys's `connect`.
    (* keep *) wire [pft_regs_pkg::PFT_CTRL_GATING_OFFSET:0]          obs_ctrl;
    (* keep *) wire [pft_regs_pkg::PFT_SHAPE_R_WIDTH_WIDTH-1:0]      obs_r_width;
    (* keep *) wire [31:0] obs_r_mask;
    (* keep *) wire [pft_regs_pkg::PFT_CREDIT_LIMIT_WIDTH-1:0]       obs_credit_limit;
    (* keep *) wire [pft_regs_pkg::PFT_TH_ENTER_WIDTH-1:0]           obs_th_enter;
    (* keep *) wire [pft_regs_pkg::PFT_TH_ESCAPE_WIDTH-1:0]          obs_th_escape;
    (* keep *) wire [pft_regs_pkg::PFT_AT_WIN_E_WIDTH-1:0]           obs_win_e;
    (* keep *) wire [pft_regs_pkg::PFT_AT_CNT_E_WIDTH-1:0]           obs_cnt_e;
    (* keep *) wire [pft_regs_pkg::PFT_AT_WIN_S_WIDTH-1:0]           obs_win_s;
    (* keep *) wire [pft_regs_pkg::PFT_AT_CNT_S_WIDTH-1:0]           obs_cnt_s;
    (* keep *) wire [pft_regs_pkg::PFT_SHAPE_M_WIDTH-1:0]            obs_m;
    (* keep *) wire [pft_regs_pkg::PFT_SHAPE_N_WIDTH-1:0]            obs_n;
    (* keep *) wire [pft_regs_pkg::PFT_K_WIDTH-1:0]                  obs_k;
    (* keep *) wire        obs_left;
    (* keep *) wire [4:0]  obs_distance;
    (* keep *) wire [15:0] obs_spill_mask;
    (* keep *) wire        obs_err_underflow;
    (* keep *) wire        obs_err_overflow;
`ifdef PIPELINED
    (* keep *) wire [15:0] obs_gap_inc;     // fi.gap_inc$q: min(gap + 1, 0xFFFF), kept ready
    (* keep *) wire        obs_fi_ok;       // fi.ok_q$q: the FI verdict of this cycle
    (* keep *) wire        obs_ri_ok;       // ri.ok_q$q: the RI verdict of this cycle
`endif
`ifdef LOOKAHEAD_CMP
    // The pipelined build's look-ahead compares of c (CreditCompare: cmp_limit, cmp_enter,
    // cmp_escape), observe_lookahead_cmp.ys: the held difference c - x (18 bits) is
    // base + plus - 1, base = zeroed ? neg_x : d_q (`base`, `plus`); neg_x = 1 - x; and the
    // flag the design reads.
    (* keep *) wire [17:0] obs_lim_base, obs_ent_base, obs_esc_base;
    (* keep *) wire        obs_lim_plus, obs_ent_plus, obs_esc_plus;
    (* keep *) wire [17:0] obs_lim_negx, obs_ent_negx, obs_esc_negx;
    (* keep *) wire        obs_lim_lt, obs_ent_gt, obs_esc_lt;
`endif
`ifdef LOOKAHEAD_RI
    // The pipelined build's RI generator: its next output xorshift(r) (ri.ahead$q) and the same
    // already masked with the mask of its cycle (ri.ahead_masked$q), observe_lookahead_ri.ys.
    (* keep *) wire [31:0] obs_ri_ahead, obs_ri_ahead_masked;
`endif
`ifdef LOOKAHEAD_FSM
    // The pipelined build's detector (CongestionFsmFast), observe_lookahead_fsm.ys: the
    // precomputed win + 1, win + 2, hit + 1, hit + 2 and the flags wrap, end, T' == 0,
    // hit >= T', hit + 1 >= T' (helper H_FSM only).
    (* keep *) wire [15:0] obs_win_p1, obs_win_p2, obs_hit_p1, obs_hit_p2;
    (* keep *) wire        obs_wrap, obs_end, obs_tp0, obs_ge0, obs_ge1;
`endif

    // ---- A_RESET ----------------------------------------------------------------------------
    reg first = 1'b1;
    always @(posedge clock) first <= 1'b0;
    always @* if (first) assume (reset);

    // ---- The spec's quantities ----------------------------------------------------------------
    wire enable      = obs_ctrl[pft_regs_pkg::PFT_CTRL_ENABLE_OFFSET];
    wire det_at      = obs_ctrl[pft_regs_pkg::PFT_CTRL_DET_MODE_OFFSET];
    wire thr_ri      = obs_ctrl[pft_regs_pkg::PFT_CTRL_THR_MODE_OFFSET];
    wire gate_packet = obs_ctrl[pft_regs_pkg::PFT_CTRL_GATING_OFFSET];
    // docs/behaviour.md, packet gating: the throttle decides only for a packet's first flit;
    // `gated` says whether this cycle's flit is one the throttle decides for.
    wire gated = !gate_packet || flit_head;

    // Spec 1: a credit is available when c < CREDIT_LIMIT; a flit is ready to go when the NIC
    // has one, a credit is available and the block is not in reset.
    wire credit_ok = c < obs_credit_limit;
    wire ready     = !reset && flit_valid && credit_ok;

    // Spec 3, FI: `gap` counts the cycles since the last flit was sent, 16 bits, saturating at
    // 0xFFFF, cleared by a send; reset sets it to 0xFFFF (docs/behaviour.md: no flit sent "for
    // ever"). `idle` is that counter, kept here from the `send` port alone.
    reg [15:0] idle = 16'hffff;
    always @(posedge clock)
        if (reset)                 idle <= 16'hffff;
        else if (send)             idle <= 16'd0;
        else if (idle != 16'hffff) idle <= idle + 16'd1;

    // RI compares the low r_width bits of r (all 32 for r_width 0 or above 32: r is the
    // generator's state, as wide as SEED).
    wire [31:0] spec_r_mask = (obs_r_width == 0 || obs_r_width >= pft_regs_pkg::PFT_SEED_WIDTH)
                            ? 32'hffffffff : ((32'd1 << obs_r_width) - 32'd1);
`ifndef PIPELINED
    // `idle >= f(c)` and `r >= f(c)` with f(c) exact: f(c) >= 2^32 (level_ovf) is never reached
    // by either; otherwise f(c) = level (see level_is_f and shape_decoded above).
    wire idle_ge_f = !obs_level_ovf && {16'd0, idle} >= obs_level;
    wire r_ge_f    = !obs_level_ovf && (obs_r & spec_r_mask) >= obs_level;
    wire [31:0] gate_level = obs_level;     // the level the gates of this cycle compare with
`else
    // The pipelined build (see "The pipelined build" at the end of this header): the gates of
    // cycle t compare this cycle's idle and r with the level register of cycle t-1,
    // L(t-1) = f(c(t-3)) (level_is_f), and r with the mask of cycle t-1. `prev_level`,
    // `prev_level_ovf` and `prev_r_mask` hold those values; in the power-up cycle they are
    // undefined, but reset is high then, so no flit is ready and no gate property applies.
    reg [31:0] prev_level;
    reg        prev_level_ovf;
    reg [31:0] prev_r_mask;
    always @(posedge clock) begin
        prev_level     <= obs_level;
        prev_level_ovf <= obs_level_ovf;
        prev_r_mask    <= spec_r_mask;
    end
    wire idle_ge_f = !prev_level_ovf && {16'd0, idle} >= prev_level;
    wire r_ge_f    = !prev_level_ovf && (obs_r & prev_r_mask) >= prev_level;
    wire [31:0] gate_level = prev_level;
`endif

    // Spec 2, AT (repaired Algorithm 2), for the current state. Computed on 17 bits so that a
    // 16-bit wrap in the design could not hide behind the same wrap here.
    wire [15:0] W        = obs_state ? obs_win_s : obs_win_e;      // T_s  / T_e
    wire [15:0] TP       = obs_state ? obs_cnt_s : obs_cnt_e;      // T_s' / T_e'
    wire        hit_now  = obs_state ? (c < obs_th_escape) : (c > obs_th_enter);
    wire [16:0] win_tmp  = (obs_win == W) ? 17'd0 : {1'b0, obs_win} + 17'd1;
    wire [16:0] hit_tmp  = (win_tmp == {1'b0, W}) ? 17'd0 : {1'b0, obs_hit} + {16'd0, hit_now};
    wire        at_flip  = hit_tmp >= {1'b0, TP};
    // Spec 2, FT (Algorithm 1): Normal -> Congested when c > TH_ENTER, Congested -> Normal when
    // c < TH_ESCAPE: the same strict comparison as the AT hit condition.
    wire        ft_flip  = hit_now;
    // docs/behaviour.md: a CSR write to a detector register (CTRL, TH_ENTER, TH_ESCAPE, AT_*)
    // restarts the AT window.
    wire        det_write = csr_we && (csr_addr == pft_regs_pkg::PFT_CTRL_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_TH_ENTER_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_TH_ESCAPE_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_AT_WIN_E_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_AT_CNT_E_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_AT_WIN_S_ADDR ||
                                       csr_addr == pft_regs_pkg::PFT_AT_CNT_S_ADDR);

    // Which rule governs the state in this cycle.
    localparam [1:0] MODE_OFF = 2'd0, MODE_FT = 2'd1, MODE_AT = 2'd2;
    wire [1:0] mode = (reset || !enable) ? MODE_OFF : (det_at ? MODE_AT : MODE_FT);

    // What the spec predicts for the next cycle.
    wire        spec_state_next = (mode == MODE_OFF) ? 1'b0
                                : (mode == MODE_FT)  ? (obs_state ^ ft_flip)
                                :                      (obs_state ^ at_flip);
    // The AT counters: cleared by reset, while disabled, under FT (the design keeps them at 0
    // there), on a flip and on a detector-register write; else they take win_tmp and hit_tmp.
    wire        counters_clear  = (mode != MODE_AT) || at_flip || det_write;
    wire [16:0] spec_win_next   = counters_clear ? 17'd0 : win_tmp;
    wire [16:0] spec_hit_next   = counters_clear ? 17'd0 : hit_tmp;

    // Spec 1 and docs/behaviour.md (Credits): c(t+1) = c(t) + send(t) - credit_return(t) on 17
    // bits; if that is negative, c becomes 0 and err_underflow is set. err_overflow is set at
    // the end of a cycle that starts with c > CREDIT_LIMIT. A write of 1 to STATUS's
    // err_underflow / err_overflow bit clears that flag and wins over the same cycle's update;
    // reset clears everything.
    wire [16:0] c_plus_send  = {1'b0, c} + {16'd0, send};
    wire        underflow    = {9'd0, credit_return} > c_plus_send;
    wire [16:0] c_minus_ret  = c_plus_send - {9'd0, credit_return};
    wire [15:0] spec_c_next  = (reset || underflow) ? 16'd0 : c_minus_ret[15:0];
    wire        status_write = csr_we && csr_addr == pft_regs_pkg::PFT_STATUS_ADDR;
    wire        clear_uf     = status_write &&
                               csr_wdata[pft_regs_pkg::PFT_STATUS_ERR_UNDERFLOW_OFFSET];
    wire        clear_of     = status_write &&
                               csr_wdata[pft_regs_pkg::PFT_STATUS_ERR_OVERFLOW_OFFSET];
    wire        spec_uf_next = !reset && !clear_uf && (obs_err_underflow || underflow);
    wire        spec_of_next = !reset && !clear_of && (obs_err_overflow || c > obs_credit_limit);

    // Last cycle's values and the spec's predictions for this cycle.
    reg        exp_state;
    reg [16:0] exp_win, exp_hit;
    reg [1:0]  prev_mode;
    reg [15:0] prev_c, prev_credit_limit, exp_c;
    reg        prev_send, prev_state, exp_uf, exp_of;
    reg [15:0] prev_tp;
    always @(posedge clock) begin
        exp_state         <= spec_state_next;
        exp_win           <= spec_win_next;
        exp_hit           <= spec_hit_next;
        prev_mode         <= mode;
        prev_c            <= c;
        prev_credit_limit <= obs_credit_limit;
        prev_send         <= send;
        prev_state        <= obs_state;
        prev_tp           <= TP;
        exp_c             <= spec_c_next;
        exp_uf            <= spec_uf_next;
        exp_of            <= spec_of_next;
    end

    // ==== Helper invariants (strengthening for k-induction; asserted, hence proved) ==========
    // (The pipelined build's look-ahead invariants are each proved by a property of their own
    // and assumed elsewhere; see "The pipelined export's look-ahead registers" below.)

`ifdef P_FI_SPACING
  `define H_GAP
`endif
`ifdef P_FI_NOT_STRICTER
  `define H_GAP
`endif
`ifdef P_AT_STATE
  `define H_WINDOW
`endif
`ifdef P_AT_COUNTERS
  `define H_WINDOW
`endif
`ifdef P_AT_WITHIN_WINDOW
  `define H_WINDOW
`endif

`ifdef P_RI_GATE
  `define H_RMASK
`endif
`ifdef P_LOOKAHEAD_FSM
  `define H_WINDOW
`endif

// The pipelined export's look-ahead registers (run.sh defines LOOKAHEAD_CMP, LOOKAHEAD_FSM when
// the export has them). Their invariants are proved once, each by its own property
// (lookahead_limit, lookahead_enter, lookahead_escape, lookahead_fsm: asserted there), and
// assumed by every other property that needs them. Assuming a proved invariant is sound
// (every reachable state satisfies it; no assumption is used to prove itself) and keeps the
// 30-step BMCs fast: asserted in each of them, the compares' 18-bit arithmetic cost z3 about
// 50 s per step. run.sh cuts the inputs of the assumed registers (groups `cmp`, `fsm`) in
// exactly the properties that assume them here, and checks the broken designs without these
// macros (a broken design need not satisfy them). The RI look-ahead (LOOKAHEAD_RI) has one
// invariant, asserted in ri_gate (H_RMASK).
`ifdef LOOKAHEAD_CMP
  `define H_CMP
  `define LA_LIM assume
  `define LA_ENT assume
  `define LA_ESC assume
  `ifdef P_LOOKAHEAD_LIMIT
    `undef LA_LIM
    `define LA_LIM assert
    `define H_CMP_FULL
  `endif
  `ifdef P_LOOKAHEAD_ENTER
    `undef LA_ENT
    `define LA_ENT assert
    `define H_CMP_FULL
  `endif
  `ifdef P_LOOKAHEAD_ESCAPE
    `undef LA_ESC
    `define LA_ESC assert
    `define H_CMP_FULL
  `endif
  // not needed (and left out of the cone) where c's compares play no part
  `ifdef P_SHAPE_DECODED
    `undef H_CMP
  `endif
  `ifdef P_LEVEL_IS_F
    `undef H_CMP
  `endif
  `ifdef P_HELD_NORMAL
    `undef H_CMP
  `endif
  `ifdef P_LOOKAHEAD_FSM
    `undef H_CMP
  `endif
`endif
`define LA_WIN assert
`ifdef LOOKAHEAD_FSM
  `define LA_FSM assume
  `ifdef P_LOOKAHEAD_FSM
    `undef LA_FSM
    `define LA_FSM assert
  `endif
  `ifdef H_WINDOW
    `define H_FSM
  `endif
  // H_WINDOW is proved with H_FSM by lookahead_fsm; at_state and at_counters assume it
  // (at_within_window, which it implies, still asserts it)
  `ifdef P_AT_STATE
    `undef LA_WIN
    `define LA_WIN assume
  `endif
  `ifdef P_AT_COUNTERS
    `undef LA_WIN
    `define LA_WIN assume
  `endif
`endif

`ifdef H_RMASK
    // H_RMASK: the decoded RI mask is the spec's mask of the stored r_width (shape_decoded
    // proves the same; asserted here so that induction may use it).
    always @* if (!first) assert (obs_r_mask == spec_r_mask);
  `ifdef LOOKAHEAD_RI
    // and (pipelined build) the generator's masked look-ahead register is its next output
    // masked with this cycle's mask, the value the RI verdict for the next cycle compares.
    always @* assert (obs_ri_ahead_masked == (obs_ri_ahead & obs_r_mask));
  `endif
`endif

`ifdef H_GAP
    // H_GAP: the design's gap counter is the spec's `idle` counter above.
    always @* if (!first) assert (obs_gap == idle);
  `ifdef PIPELINED
    // and the pipelined FI's second register holds the next gap without a send,
    // min(idle + 1, 0xFFFF) (the value its precomputed compare uses).
    always @* if (!first) assert (obs_gap_inc == ((idle == 16'hffff) ? idle : idle + 16'd1));
  `endif
`endif

`ifdef H_WINDOW
    // H_WINDOW: win never passes W; inside a window `hit` is at most `win` + 1, and it is 0 in
    // the window's last cycle (win == W). (With win <= W these give hit <= W.) Asserted,
    // except in the pipelined build's at_state and at_counters (see LA_WIN above).
    always @* if (!first) `LA_WIN (obs_win <= W && {1'b0, obs_hit} <= {1'b0, obs_win} + 17'd1 &&
                                  (obs_win != W || obs_hit == 16'd0));
`endif

`ifdef H_CMP
    // H_CMP (pipelined build): each look-ahead compare's flag equals the compare of this
    // cycle's c and register x: CREDIT_LIMIT (c < x: a credit is available), TH_ENTER
    // (c > x), TH_ESCAPE (c < x); and (H_CMP_FULL, in the lookahead_* properties, which
    // prove it) the compare holds c - x (18 bits, two's complement) as base + plus - 1, and
    // 1 - x in neg_x, from which the next cycle's flag is computed. Proved by
    // lookahead_limit (the credit-limit compare alone), lookahead_enter and lookahead_escape
    // (each assuming the first: c stays within 16 bits only because a flit needs a credit).
    // Everywhere else the flags are assumed, and run.sh cuts their inputs (the compares'
    // arithmetic leaves the cone): the properties are then proved for any flag values that
    // agree with c and the registers, which the real compares' values do.
    wire [17:0] c18 = {2'b0, c};
    always @* if (!first) begin
        `LA_LIM (obs_lim_lt == (c < obs_credit_limit));
  `ifdef H_CMP_FULL
        `LA_LIM (obs_lim_base + {17'd0, obs_lim_plus} - 18'd1 ==
                 c18 - {2'b0, obs_credit_limit});
        `LA_LIM (obs_lim_negx == 18'd1 - {2'b0, obs_credit_limit});
  `endif
  `ifndef P_LOOKAHEAD_LIMIT
    `ifndef P_LOOKAHEAD_ESCAPE
        `LA_ENT (obs_ent_gt == (c > obs_th_enter));
      `ifdef H_CMP_FULL
        `LA_ENT (obs_ent_base + {17'd0, obs_ent_plus} - 18'd1 ==
                 c18 - {2'b0, obs_th_enter});
        `LA_ENT (obs_ent_negx == 18'd1 - {2'b0, obs_th_enter});
      `endif
    `endif
    `ifndef P_LOOKAHEAD_ENTER
        `LA_ESC (obs_esc_lt == (c < obs_th_escape));
      `ifdef H_CMP_FULL
        `LA_ESC (obs_esc_base + {17'd0, obs_esc_plus} - 18'd1 ==
                 c18 - {2'b0, obs_th_escape});
        `LA_ESC (obs_esc_negx == 18'd1 - {2'b0, obs_th_escape});
      `endif
    `endif
  `endif
    end
`endif

`ifdef H_FSM
    // H_FSM (pipelined build): the detector's precomputed counters and flags agree with win,
    // hit and the current state's W and T' (the spec's win_tmp for `end`). Proved by
    // lookahead_fsm (with H_WINDOW); assumed by the AT properties, for which run.sh cuts the
    // inputs of these registers (as for H_CMP).
    always @* if (!first) begin
        `LA_FSM (obs_win_p1 == obs_win + 16'd1 && obs_win_p2 == obs_win + 16'd2);
        `LA_FSM (obs_hit_p1 == obs_hit + 16'd1 && obs_hit_p2 == obs_hit + 16'd2);
        `LA_FSM (obs_wrap == (obs_win == W));
        `LA_FSM (obs_end == (win_tmp == {1'b0, W}));
        `LA_FSM (obs_tp0 == (TP == 16'd0));
        `LA_FSM (obs_ge0 == (obs_hit >= TP));
        `LA_FSM (obs_ge1 == ({1'b0, obs_hit} + 17'd1 >= {1'b0, TP}));
    end
`endif

    // ==== The properties ======================================================================

`ifdef P_NO_SEND_WITHOUT_CREDIT
    // no_send_without_credit. A flit is never sent without a credit: whenever `send` is high,
    // c < CREDIT_LIMIT, the NIC offers a flit (flit_valid) and reset is low. Holds in every
    // cycle, the power-up cycle included.
    // Observes: send, used_credits, flit_valid, reset, CREDIT_LIMIT.
    always @* assert (!send || (credit_ok && flit_valid && !reset));
    always @* begin
        cover (send);
        cover (flit_valid && !reset && !credit_ok);    // a flit held back for want of a credit
    end
`endif

`ifdef P_C_UPDATE
    // c_update. `c` never wraps, at either end. Exactly: c(t+1) = c(t) + send(t) -
    // credit_return(t) when that is >= 0; 0 after reset; and 0, with err_underflow set, when
    // more credits come back than are in use (a wrap would give 0xFFxx). c rises only by 1,
    // only through a send, and only from below CREDIT_LIMIT (<= 0xFFFF), so it cannot wrap
    // past 0xFFFF either, nor rise above CREDIT_LIMIT. The sticky flags follow
    // docs/behaviour.md: err_underflow is set by a clamp, err_overflow after a cycle that
    // starts with c > CREDIT_LIMIT (software lowered the limit), write-1-to-clear wins, reset
    // clears.
    // Observes: used_credits, send, credit_return, reset, CREDIT_LIMIT, CSR writes to STATUS,
    // the two STATUS error flags.
    always @* if (!first) begin
        assert (c == exp_c);
        assert (c <= prev_c || (c == prev_c + 16'd1 && prev_send && prev_c < prev_credit_limit));
        assert (obs_err_underflow == exp_uf);
        assert (obs_err_overflow == exp_of);
    end
    always @* if (!first) begin
        cover (!reset && underflow && c != 16'd0);     // a clamp at 0 from a non-zero c
        cover (!reset && c > obs_credit_limit);        // CREDIT_LIMIT lowered below c
        cover (c > prev_c);                            // a send raised c
    end
`endif

`ifdef P_C_WITHIN_LIMIT
    // c_within_limit. `c` never exceeds CREDIT_LIMIT, as long as software does not lower
    // CREDIT_LIMIT below the credits in use (A_CREDIT_LIMIT). Holds from power-up on.
    // Observes: used_credits, CREDIT_LIMIT; assumes A_CREDIT_LIMIT on the CSR port.
    wire [16:0] limit_wdata = {1'b0, csr_wdata[pft_regs_pkg::PFT_CREDIT_LIMIT_OFFSET +:
                                                pft_regs_pkg::PFT_CREDIT_LIMIT_WIDTH]};
    always @* if (csr_we && csr_addr == pft_regs_pkg::PFT_CREDIT_LIMIT_ADDR)
        assume (limit_wdata >= c_plus_send);
    always @* assert (c <= obs_credit_limit);
    always @* cover (c == obs_credit_limit && c != 16'd0);   // c reaches the limit
`endif

`ifdef P_NORMAL_NEVER_THROTTLES
    // normal_never_throttles. With the block enabled and the state Normal, or with the block
    // disabled, throttling never holds back a ready flit with a credit: flit_valid,
    // c < CREDIT_LIMIT and no reset imply send, and not throttled. Also: the `congested` port
    // is exactly state & enable, and `throttled` is high only while congested.
    // Observes: send, throttled, congested, flit_valid, reset, used_credits, CREDIT_LIMIT,
    // CTRL.enable, the FSM state.
    always @* begin
        if ((!enable || !obs_state) && ready) assert (send && !throttled);
        assert (congested == (obs_state && enable));
        assert (!throttled || congested);
    end
    always @* begin
        cover (enable && !obs_state && ready);          // enabled, Normal, a ready flit
        cover (throttled);                              // and throttling does happen
    end
`endif

`ifdef P_FI_SPACING
    // fi_spacing. Under FI, in the Congested state, a flit is sent only if at least f(c) idle
    // cycles have passed since the previous send: idle >= f(c), with idle the spec's 16-bit
    // gap counter (cycles since the last send, saturating at 0xFFFF, 0xFFFF after reset) and
    // f(c) = floor(c * 2^m / 2^n) + k exact, with this cycle's c, m, n and k. So two sends in
    // Congested are at least f(c) idle cycles apart, and a level above 0xFFFF, which the
    // 16-bit counter never reaches, lets no flit out at all.
    // Observes: send, congested, CTRL.thr_mode, the level (level, level_ovf).
    // Helper: H_GAP. Relies on: level_is_f, shape_decoded (the level is f(c)).
    // With packet gating this is about head flits (the flits the throttle decides for).
    always @* if (congested && !thr_ri && send && gated) assert (idle_ge_f);
    always @* begin
        cover (congested && !thr_ri && send && gate_level != 32'd0 && idle != 16'hffff);
        cover (congested && !thr_ri && send && gate_packet && flit_head && gate_level != 32'd0);
`ifdef PIPELINED
        // the delay matters: sent on L(t-1) although idle < L(t), the level of this cycle
        cover (congested && !thr_ri && send && gated && {16'd0, idle} < obs_level);
`endif
    end
`endif

`ifdef P_FI_NOT_STRICTER
    // fi_not_stricter. The converse of fi_spacing: under FI in Congested, a ready flit with a
    // credit is sent as soon as idle >= f(c). With fi_spacing: in Congested FI,
    // send = ready & (idle >= f(c)) exactly, so a source that always has a flit gets one
    // flit per 1 + f(c) cycles.
    // Observes: as fi_spacing, plus flit_valid, reset, used_credits, CREDIT_LIMIT.
    // Helper: H_GAP. Relies on: level_is_f, shape_decoded.
    always @* if (congested && !thr_ri && ready && idle_ge_f) assert (send);
    always @* begin
        cover (congested && !thr_ri && ready && idle_ge_f && idle != 16'hffff);
        cover (congested && !thr_ri && ready && !idle_ge_f);   // held back by FI
    end
`endif

`ifdef P_RI_GATE
    // ri_gate. Under RI in Congested, a ready flit with a credit is sent exactly when
    // r >= f(c) (32-bit compare), hence never when f(c) >= 2^32.
    // Observes: send, congested, CTRL.thr_mode, flit_valid, reset, used_credits, CREDIT_LIMIT,
    // the generator output r, the level. Relies on: level_is_f, shape_decoded.
    // With packet gating this is about head flits; r is compared on its low r_width bits.
    always @* if (congested && thr_ri && ready && gated) assert (send == r_ge_f);
    always @* begin
        cover (congested && thr_ri && ready && send);
        cover (congested && thr_ri && ready && !send);
        cover (congested && thr_ri && ready && gated && !send && obs_r_width == 6'd8);
        cover (congested && thr_ri && ready && gated && send && obs_r_width == 6'd8 &&
               obs_r[31:8] != 24'd0);   // sent although r itself is above 2^8 > ... level
`ifdef PIPELINED
        // the delay matters: sent on L(t-1) although (r & mask) < L(t), this cycle's level
        cover (congested && thr_ri && ready && gated && send &&
               (obs_r & spec_r_mask) < obs_level);
`endif
    end
`endif

`ifdef P_PACKET_BODY_PASSES
    // packet_body_passes. With packet gating (CTRL.gating = 1), the block never holds back a
    // flit that is not a packet's first (flit_head low) and has a credit: ready implies send,
    // in Normal and in Congested, under FI and RI. (Heads are throttled as in flit gating:
    // fi_spacing, fi_not_stricter and ri_gate cover them.)
    // Observes: send, throttled, flit_valid, flit_head, reset, used_credits, CREDIT_LIMIT,
    // CTRL.gating.
    always @* if (gate_packet && !flit_head && ready) assert (send && !throttled);
    always @* begin
        cover (gate_packet && !flit_head && ready && congested && !thr_ri && !idle_ge_f);
        cover (gate_packet && !flit_head && ready && congested && thr_ri && !r_ge_f);
        cover (gate_packet && flit_head && ready && throttled);  // a head is still held
    end
`endif

`ifdef P_SHAPE_DECODED
    // shape_decoded. The decoded copy of SHAPE that drives the shifter always equals the
    // design's decoder (module pft_injector$csr$decode, instantiated here) applied to the
    // stored m and n: a SHAPE write and reset update both together, nothing else touches
    // either. With level_is_f this makes the level equal f(c) in every reachable state.
    // Observes: SHAPE.m, SHAPE.n, the decoded registers (left, distance, spill_mask).
    wire        dec_left;
    wire [4:0]  dec_distance;
    wire [15:0] dec_spill_mask;
    wire [31:0] dec_r_mask;
`ifdef PIPELINED
    pft_injector_pipelined$csr$decode h_decode (
`else
    pft_injector$csr$decode h_decode (
`endif
        .m(obs_m), .n(obs_n), .r_width(obs_r_width), .left(dec_left), .distance(dec_distance),
        .spill_mask(dec_spill_mask), .r_mask(dec_r_mask)
    );
    always @* if (!first) assert (obs_left == dec_left && obs_distance == dec_distance &&
                                  obs_spill_mask == dec_spill_mask && obs_r_mask == dec_r_mask);
    // and the decoded mask is the spec's: the low r_width bits (all for 0 or above 32)
    always @* if (!first) assert (obs_r_mask == spec_r_mask);
    always @* if (!first) begin
        cover (!obs_left && obs_n - obs_m <= 5'd16);        // a right shift by 1..16
        cover (!obs_left && obs_n - obs_m > 5'd16);         // n - m > 16: the level is k
        cover (obs_left && obs_spill_mask != 16'd0);        // a left shift that can overflow
        cover (obs_r_width == 6'd1);                        // the narrowest r
        cover (obs_r_width == 6'd40);                       // a width above 32 (acts as 32)
    end
`endif

`ifdef P_FT_STATE
    // ft_state. Under FT (enabled, det_mode = 0, no reset) the state changes exactly under
    // the spec's conditions: Normal -> Congested iff c > TH_ENTER, Congested -> Normal iff
    // c < TH_ESCAPE (strict, on the registered c of that cycle), the new state holding from
    // the next cycle. No other state change happens under FT.
    // Observes: the FSM state, used_credits, TH_ENTER, TH_ESCAPE, CTRL, reset.
    always @* if (!first && prev_mode == MODE_FT) assert (obs_state == exp_state);
    always @* if (!first) begin
        cover (prev_mode == MODE_FT && !prev_state && obs_state);   // enter Congested
        cover (prev_mode == MODE_FT && prev_state && !obs_state);   // leave it
    end
`endif

`ifdef P_AT_STATE
    // at_state. Under AT (enabled, det_mode = 1, no reset) the state changes exactly when
    // the spec's repaired Algorithm 2 says so: with W, T', the condition, win_tmp and hit_tmp
    // as the spec (section 2) writes them, on the design's current win and hit, the state
    // flips iff hit_tmp >= T'. With at_counters (the counters follow the same pseudo-code)
    // this is the spec's AT detector, cycle by cycle.
    // Observes: the FSM state, win, hit, used_credits, TH_ENTER, TH_ESCAPE, AT_*, CTRL, reset.
    // Helper: H_WINDOW.
    always @* if (!first && prev_mode == MODE_AT) assert (obs_state == exp_state);
    always @* if (!first) begin
        // enter and leave Congested after counting at least 2 hits
        cover (prev_mode == MODE_AT && !prev_state && obs_state && prev_tp >= 16'd2);
        cover (prev_mode == MODE_AT && prev_state && !obs_state && prev_tp >= 16'd2);
    end
`endif

`ifdef P_HELD_NORMAL
    // held_normal. The only other state change: after a cycle with reset high or the block
    // disabled (CTRL.enable = 0) the state is Normal, whatever it was (spec 3: "with the block
    // disabled the state is held Normal").
    // Observes: the FSM state, reset, CTRL.enable.
    always @* if (!first && prev_mode == MODE_OFF) assert (!obs_state);
    always @* if (!first) cover (prev_mode == MODE_OFF && prev_state);  // leave Congested
`endif

`ifdef P_AT_COUNTERS
    // at_counters. The AT counters follow the spec's pseudo-code: win <= win_tmp and
    // hit <= hit_tmp, both cleared when the state flips, plus the project's decisions: both
    // cleared by a write to a detector register (restart), and held at 0 under reset, while
    // disabled and under FT.
    // Observes: win, hit, the FSM state, used_credits, the detector registers, CSR writes,
    // reset. Helper: H_WINDOW.
    always @* if (!first) assert ({1'b0, obs_win} == exp_win && {1'b0, obs_hit} == exp_hit);
    always @* if (!first) begin
        cover (det_at && enable && obs_win == W && W >= 16'd2);   // a window runs to its end
        cover (det_at && enable && obs_hit >= 16'd2);             // hits accumulate
    end
`endif

`ifdef P_AT_WITHIN_WINDOW
    // at_within_window. The AT counters never exceed their window: win <= W and hit <= W,
    // W being the current state's window register (AT_WIN_E in Normal, AT_WIN_S in
    // Congested), across any reprogramming of windows, counts, thresholds and modes.
    // Observes: win, hit, the FSM state, AT_WIN_E, AT_WIN_S. Helper: H_WINDOW.
    always @* if (!first) assert (obs_win <= W && obs_hit <= W);
    always @* if (!first) cover (obs_hit == W && W >= 16'd2);      // hit reaches the bound
`endif

`ifdef P_LOOKAHEAD_LIMIT
    // lookahead_limit, lookahead_enter, lookahead_escape (pipelined build, when the export has
    // look-ahead compares of c). Not statements of the spec: the invariant H_CMP above, for
    // the compare with CREDIT_LIMIT, TH_ENTER and TH_ESCAPE, proved here (from power-up,
    // whatever the throttle decides) so that the other properties may assume it. If one
    // fails, the results of the pipelined build do not count.
    // Observes: used_credits, the register compared with, the compare's registers.
    always @* if (!first) begin
        cover (!obs_lim_lt && c == obs_credit_limit && c != 16'd0);   // no credit left
        cover (c > obs_credit_limit);                                  // limit lowered below c
    end
`endif
`ifdef P_LOOKAHEAD_ENTER
    always @* if (!first) cover (obs_ent_gt && c == obs_th_enter + 16'd1);
`endif
`ifdef P_LOOKAHEAD_ESCAPE
    always @* if (!first) cover (obs_esc_lt && c != 16'd0 && c == obs_th_escape - 16'd1);
`endif

`ifdef P_LOOKAHEAD_FSM
    // lookahead_fsm (pipelined build, when the export's detector has look-ahead registers).
    // Not a statement of the spec: the invariants H_FSM and H_WINDOW above, asserted and
    // proved together here (from power-up, whatever the compares of c say: run.sh cuts
    // them), so that the AT properties may assume H_FSM. If this fails, the AT results of
    // the pipelined build do not count.
    // Observes: the FSM state, win, hit, AT_*, CTRL, and the detector's look-ahead registers.
    always @* if (!first) begin
        cover (det_at && enable && obs_end && obs_hit >= 16'd2);   // a window about to end
        cover (det_at && enable && obs_wrap && W >= 16'd2);         // and ended
    end
`endif

`ifdef P_LEVEL_IS_F
  `ifdef PIPELINED
    // level_is_f, pipelined build (the default build's is combinational, pft_level.sv). The
    // level register L that the gates compare with holds the spec's f(c) of two cycles
    // earlier, in the running design. From the third cycle after power-up on (the pipeline
    // registers have no reset and power up at 0), in every cycle t:
    //   F = floor(c(t-2) * 2^m(t-2) / 2^n(t-2)) + k(t-1)      (exact, 48 bits)
    //   level_ovf(t) == (F >= 2^32), and level(t) == F when level_ovf(t) is clear
    // with c = used_credits and m, n, k the stored SHAPE.m, SHAPE.n and K of those cycles (K
    // enters one cycle after c, m and n: the second stage adds it). With SHAPE and K unchanged
    // over those cycles this is L(t+2) = f(c(t)). As the design computes it: SHAPE decoded
    // (shape_decoded), the shift stage (level_pipe.shifter into shift_q, shift_ovf_q), the
    // add stage (level_q, level_ovf_q), and the wiring from the credit counter and the CSRs;
    // all of it is checked here against the 48-bit formula.
    // Observes: the level register (level_q, level_ovf_q), used_credits, SHAPE m, n, K.
    // Helper: H_DECODED (the decoded SHAPE registers hold decode(m, n), as in shape_decoded).
    reg [15:0] c_1, c_2;
    reg [pft_regs_pkg::PFT_K_WIDTH-1:0]       k_1;
    reg [pft_regs_pkg::PFT_SHAPE_M_WIDTH-1:0] m_1, m_2;
    reg [pft_regs_pkg::PFT_SHAPE_N_WIDTH-1:0] n_1, n_2;
    reg [1:0]  age = 2'd0;                      // cycles since power-up, saturating at 2
    always @(posedge clock) begin
        c_1 <= c;      c_2 <= c_1;
        m_1 <= obs_m;  m_2 <= m_1;
        n_1 <= obs_n;  n_2 <= n_1;
        k_1 <= obs_k;
        if (age != 2'd2) age <= age + 2'd1;
    end
    wire [47:0] f_shl = {32'd0, c_2} << m_2;
    wire [47:0] f_2   = (f_shl >> n_2) + {32'd0, k_1};
    always @* if (age == 2'd2) begin
        assert (obs_level_ovf == (f_2[47:32] != 16'd0));
        assert (obs_level_ovf || obs_level == f_2[31:0]);
    end
    // H_DECODED
    wire        pd_left;
    wire [4:0]  pd_distance;
    wire [15:0] pd_spill_mask;
    wire [31:0] pd_r_mask;
    pft_injector_pipelined$csr$decode h_pdecode (
        .m(obs_m), .n(obs_n), .r_width(obs_r_width), .left(pd_left), .distance(pd_distance),
        .spill_mask(pd_spill_mask), .r_mask(pd_r_mask)
    );
    always @* if (!first) assert (obs_left == pd_left && obs_distance == pd_distance &&
                                  obs_spill_mask == pd_spill_mask);
    always @* if (age == 2'd2) begin
        cover (obs_level != 32'd0 && c_2 != c_1 && m_2 != n_2);   // a level that moves with c
        cover (obs_level_ovf);                                    // f >= 2^32
        cover (k_1 != obs_k && obs_level != 32'd0);               // K rewritten in between
    end
  `endif
`endif

endmodule

`default_nettype wire
