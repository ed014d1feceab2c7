// Formal properties of the exported PFT block (synth/out/pft_injector.v, top `pft_injector`).
//
// Checked by synth/formal/run.sh with Yosys 0.23 and yosys-smtbmc (z3): a bounded model check
// from power-up (depth 30) and k-induction. docs/formal.md has the results and how to read them.
// The level f(c) itself is proved in pft_level.sv (property level_is_f); this file uses it.
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
//   obs_left, obs_distance, obs_zero, obs_spill_mask, obs_r_mask   the decoded copy of SHAPE
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
//                credits in use once this cycle's flit has left: a write to address 1 has
//                csr_wdata[15:0] >= c + send. Without it c may legally sit above the limit
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
// ---------------------------------------------------------------------------------------------

`default_nettype none

module pft_formal (
    input wire        clock,
    input wire        reset,
    input wire        flit_valid,
    input wire        flit_head,
    input wire [7:0]  credit_return,
    input wire        csr_we,
    input wire [3:0]  csr_addr,
    input wire [31:0] csr_wdata
);
    wire        send;
    wire        congested;
    wire        throttled;
    wire [15:0] c;
    wire [31:0] csr_rdata;

    pft_injector dut (
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
    (* keep *) wire [3:0]  obs_ctrl;
    (* keep *) wire [5:0]  obs_r_width;
    (* keep *) wire [31:0] obs_r_mask;
    (* keep *) wire [15:0] obs_credit_limit;
    (* keep *) wire [15:0] obs_th_enter;
    (* keep *) wire [15:0] obs_th_escape;
    (* keep *) wire [15:0] obs_win_e;
    (* keep *) wire [15:0] obs_cnt_e;
    (* keep *) wire [15:0] obs_win_s;
    (* keep *) wire [15:0] obs_cnt_s;
    (* keep *) wire [4:0]  obs_m;
    (* keep *) wire [4:0]  obs_n;
    (* keep *) wire [15:0] obs_k;
    (* keep *) wire        obs_left;
    (* keep *) wire [4:0]  obs_distance;
    (* keep *) wire        obs_zero;
    (* keep *) wire [15:0] obs_spill_mask;
    (* keep *) wire        obs_err_underflow;
    (* keep *) wire        obs_err_overflow;

    // ---- A_RESET ----------------------------------------------------------------------------
    reg first = 1'b1;
    always @(posedge clock) first <= 1'b0;
    always @* if (first) assume (reset);

    // ---- The spec's quantities ----------------------------------------------------------------
    wire enable = obs_ctrl[0];
    wire det_at = obs_ctrl[1];
    wire thr_ri = obs_ctrl[2];
    wire gate_packet = obs_ctrl[3];
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

    // `idle >= f(c)` and `r >= f(c)` with f(c) exact: f(c) >= 2^32 (level_ovf) is never reached
    // by either; otherwise f(c) = level (see level_is_f and shape_decoded above).
    wire idle_ge_f = !obs_level_ovf && {16'd0, idle} >= obs_level;
    // RI compares the low r_width bits of r (all 32 for r_width 0 or above 32).
    wire [31:0] spec_r_mask = (obs_r_width == 6'd0 || obs_r_width >= 6'd32) ? 32'hffffffff
                            : ((32'd1 << obs_r_width) - 32'd1);
    wire r_ge_f    = !obs_level_ovf && (obs_r & spec_r_mask) >= obs_level;

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
    // docs/behaviour.md: a CSR write to a detector register (CTRL, TH_ENTER, TH_ESCAPE, AT_*,
    // i.e. addresses 0 and 2..7) restarts the AT window.
    wire        det_write = csr_we && (csr_addr == 4'd0 || (csr_addr >= 4'd2 && csr_addr <= 4'd7));

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
    // the end of a cycle that starts with c > CREDIT_LIMIT. A write of 1 to STATUS bit 1/2
    // clears that flag and wins over the same cycle's update; reset clears everything.
    wire [16:0] c_plus_send  = {1'b0, c} + {16'd0, send};
    wire        underflow    = {9'd0, credit_return} > c_plus_send;
    wire [16:0] c_minus_ret  = c_plus_send - {9'd0, credit_return};
    wire [15:0] spec_c_next  = (reset || underflow) ? 16'd0 : c_minus_ret[15:0];
    wire        clear_uf     = csr_we && csr_addr == 4'd11 && csr_wdata[1];
    wire        clear_of     = csr_we && csr_addr == 4'd11 && csr_wdata[2];
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

`ifdef H_RMASK
    // H_RMASK: the decoded RI mask is the spec's mask of the stored r_width (shape_decoded
    // proves the same; asserted here so that induction may use it).
    always @* if (!first) assert (obs_r_mask == spec_r_mask);
`endif

`ifdef H_GAP
    // H_GAP: the design's gap counter is the spec's `idle` counter above.
    always @* if (!first) assert (obs_gap == idle);
`endif

`ifdef H_WINDOW
    // H_WINDOW: win never passes W; inside a window `hit` is at most `win` + 1, and it is 0 in
    // the window's last cycle (win == W). (With win <= W these give hit <= W.)
    always @* if (!first) assert (obs_win <= W && {1'b0, obs_hit} <= {1'b0, obs_win} + 17'd1 &&
                                  (obs_win != W || obs_hit == 16'd0));
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
    always @* if (csr_we && csr_addr == 4'd1) assume ({1'b0, csr_wdata[15:0]} >= c_plus_send);
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
        cover (congested && !thr_ri && send && obs_level != 32'd0 && idle != 16'hffff);
        cover (congested && !thr_ri && send && gate_packet && flit_head && obs_level != 32'd0);
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
    // Observes: SHAPE.m, SHAPE.n, the decoded registers (left, distance, zero, spill_mask).
    wire        dec_left, dec_zero;
    wire [4:0]  dec_distance;
    wire [15:0] dec_spill_mask;
    wire [31:0] dec_r_mask;
    pft_injector$csr$decode h_decode (
        .m(obs_m), .n(obs_n), .r_width(obs_r_width), .left(dec_left), .distance(dec_distance),
        .zero(dec_zero), .spill_mask(dec_spill_mask), .r_mask(dec_r_mask)
    );
    always @* if (!first) assert (obs_left == dec_left && obs_distance == dec_distance &&
                                  obs_zero == dec_zero && obs_spill_mask == dec_spill_mask &&
                                  obs_r_mask == dec_r_mask);
    // and the decoded mask is the spec's: the low r_width bits (all for 0 or above 32)
    always @* if (!first) assert (obs_r_mask == spec_r_mask);
    always @* if (!first) begin
        cover (!obs_left && !obs_zero && obs_n != 5'd0);    // a right shift
        cover (obs_zero);                                   // n - m > 16
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

endmodule

`default_nettype wire
