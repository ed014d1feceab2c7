// pft_injector_ref: hand-written Verilog-2005 reference of the PFT injection block.
//
// Written from /work/shared/spec/PFT-SPEC.md, docs/behaviour.md, docs/registers.md and the
// plain-Rust model (hdl/src/model.rs, hdl/src/regs.rs), independently of the rust-hdl RTL.
// Cycle-exact to PftModel::step: every output is combinational from this cycle's registered
// state and inputs; all state changes at the rising edge of `clock`.
//
// Reset is synchronous, active high. Every flip-flop also powers up at 0 (declaration
// initialisers), like the model's all-zero Default, so the block is defined before the first
// reset too. A reset cycle ignores that cycle's CSR write and blocks `send`.
//
// Within one edge, a CSR write lands after the cycle's own update, so a write to SEED, to a
// STATUS error bit or to a counter wins over what the block did in that cycle.

module pft_injector_ref (
    input  wire        clock,
    input  wire        reset,
    input  wire        flit_valid,
    input  wire        flit_head,
    input  wire [7:0]  credit_return,
    input  wire        csr_we,
    input  wire [3:0]  csr_addr,
    input  wire [31:0] csr_wdata,
    output wire        send,
    output wire        congested,
    output wire [15:0] used_credits,
    output wire        throttled,
    output reg  [31:0] csr_rdata
);

    // ---------------------------------------------------------------- register map
    localparam [3:0] A_CTRL          = 4'h0,
                     A_CREDIT_LIMIT  = 4'h1,
                     A_TH_ENTER      = 4'h2,
                     A_TH_ESCAPE     = 4'h3,
                     A_AT_WIN_E      = 4'h4,
                     A_AT_CNT_E      = 4'h5,
                     A_AT_WIN_S      = 4'h6,
                     A_AT_CNT_S      = 4'h7,
                     A_SHAPE         = 4'h8,
                     A_K             = 4'h9,
                     A_SEED          = 4'hA,
                     A_STATUS        = 4'hB,
                     A_CNT_CONGESTED = 4'hC,
                     A_CNT_SENT      = 4'hD,
                     A_CNT_THROTTLED = 4'hE,
                     A_AT_STATUS     = 4'hF;

    localparam [15:0] RST_CREDIT_LIMIT = 16'h0400;
    localparam [15:0] RST_TH_ENTER     = 16'h0250;
    localparam [15:0] RST_TH_ESCAPE    = 16'h02A0;
    localparam [15:0] RST_AT_WIN       = 16'd64;   // our choice: the paper gives no windows
    localparam [15:0] RST_AT_CNT       = 16'd48;   // 3/4 of the window
    localparam [4:0]  RST_M            = 5'd18;
    localparam [4:0]  RST_N            = 5'd0;
    localparam [5:0]  RST_R_WIDTH      = 6'd32;
    localparam [31:0] RST_SEED         = 32'h9E3779B9;

    // ---------------------------------------------------------------- state
    // Software registers.
    reg  [3:0]  ctrl         = 4'd0;   // gating[3] thr_mode[2] det_mode[1] enable[0]
    reg  [15:0] credit_limit = 16'd0;
    reg  [15:0] th_enter     = 16'd0;
    reg  [15:0] th_escape    = 16'd0;
    reg  [15:0] at_win_e     = 16'd0;
    reg  [15:0] at_cnt_e     = 16'd0;
    reg  [15:0] at_win_s     = 16'd0;
    reg  [15:0] at_cnt_s     = 16'd0;
    reg  [4:0]  shape_m      = 5'd0;
    reg  [4:0]  shape_n      = 5'd0;
    reg  [5:0]  r_width      = 6'd0;
    reg  [15:0] k            = 16'd0;
    reg  [31:0] seed         = 32'd0;

    // Block state: the paper's four counters (c, win, hit, gap), its one-bit FSM, the RI
    // generator, the sticky credit errors and three event counters for software.
    reg  [15:0] c             = 16'd0;
    reg         err_underflow = 1'b0;
    reg         err_overflow  = 1'b0;
    reg         state         = 1'b0;  // 0 Normal, 1 Congested
    reg  [15:0] win           = 16'd0;
    reg  [15:0] hit           = 16'd0;
    reg  [15:0] gap           = 16'd0;
    reg  [31:0] r             = 32'd0;
    reg  [31:0] cnt_congested = 32'd0;
    reg  [31:0] cnt_sent      = 32'd0;
    reg  [31:0] cnt_throttled = 32'd0;

    wire enable      = ctrl[0];
    wire det_at      = ctrl[1];
    wire thr_ri      = ctrl[2];
    wire gate_packet = ctrl[3];

    // ---------------------------------------------------------------- send decision
    // Disabled, the block is never Congested, whatever `state` holds.
    assign congested    = state & enable;
    assign used_credits = c;

    // f(c) = ((c << m) >> n) + k, exact: c << 31 needs 47 bits and the sum stays below 2^48,
    // so a 48-bit vector loses nothing.
    wire [47:0] c_shifted = ({32'd0, c} << shape_m) >> shape_n;
    wire [47:0] level     = c_shifted + {32'd0, k};

    // RI compares the low r_width bits of r; 0 and anything above 31 mean all 32 bits.
    wire [31:0] r_mask = (r_width == 6'd0 || r_width >= 6'd32) ? 32'hFFFF_FFFF
                                                                : ((32'd1 << r_width) - 32'd1);

    // FI gates on the cycles since the last flit, RI on the random number; both compared
    // with the full-width level, so a level of 2^16 (FI) or 2^32 (RI) or more never opens.
    wire [31:0] gate_value  = thr_ri ? (r & r_mask) : {16'd0, gap};
    wire        throttle_ok = ~congested | ({16'd0, gate_value} >= level);

    // Packet gating: only a packet's first flit waits for the throttle.
    wire pass      = throttle_ok | (gate_packet & ~flit_head);
    wire credit_ok = c < credit_limit;
    wire ready     = ~reset & flit_valid & credit_ok;

    assign send      = ready & pass;
    assign throttled = ready & ~pass;

    // ---------------------------------------------------------------- CSR write decode
    wire wr_seed          = csr_we && csr_addr == A_SEED;
    wire wr_status        = csr_we && csr_addr == A_STATUS;
    wire wr_cnt_congested = csr_we && csr_addr == A_CNT_CONGESTED;
    wire wr_cnt_sent      = csr_we && csr_addr == A_CNT_SENT;
    wire wr_cnt_throttled = csr_we && csr_addr == A_CNT_THROTTLED;

    // A write to any detector register (CTRL, thresholds, AT windows and counts) restarts
    // the AT window, so win <= W and hit <= W hold even when software shrinks a window.
    wire wr_detector = csr_we && (csr_addr == A_CTRL || (csr_addr >= A_TH_ENTER &&
                                                         csr_addr <= A_AT_CNT_S));

    // Zero is the xorshift generator's fixed point: a write of 0 loads the reset seed.
    wire [31:0] seed_wvalue = (csr_wdata == 32'd0) ? RST_SEED : csr_wdata;

    // Bits outside a register's fields are dropped.
    always @(posedge clock) begin
        if (reset) begin
            ctrl         <= 4'd0;
            credit_limit <= RST_CREDIT_LIMIT;
            th_enter     <= RST_TH_ENTER;
            th_escape    <= RST_TH_ESCAPE;
            at_win_e     <= RST_AT_WIN;
            at_cnt_e     <= RST_AT_CNT;
            at_win_s     <= RST_AT_WIN;
            at_cnt_s     <= RST_AT_CNT;
            shape_m      <= RST_M;
            shape_n      <= RST_N;
            r_width      <= RST_R_WIDTH;
            k            <= 16'd0;
            seed         <= RST_SEED;
        end else if (csr_we) begin
            case (csr_addr)
                A_CTRL:         ctrl         <= csr_wdata[3:0];
                A_CREDIT_LIMIT: credit_limit <= csr_wdata[15:0];
                A_TH_ENTER:     th_enter     <= csr_wdata[15:0];
                A_TH_ESCAPE:    th_escape    <= csr_wdata[15:0];
                A_AT_WIN_E:     at_win_e     <= csr_wdata[15:0];
                A_AT_CNT_E:     at_cnt_e     <= csr_wdata[15:0];
                A_AT_WIN_S:     at_win_s     <= csr_wdata[15:0];
                A_AT_CNT_S:     at_cnt_s     <= csr_wdata[15:0];
                A_SHAPE: begin
                    shape_m <= csr_wdata[4:0];
                    shape_n <= csr_wdata[12:8];
                    r_width <= csr_wdata[21:16];
                end
                A_K:            k            <= csr_wdata[15:0];
                A_SEED:         seed         <= seed_wvalue;
                default: ;  // status and counters are handled with the state they belong to
            endcase
        end
    end

    // ---------------------------------------------------------------- credit counter
    always @(posedge clock) begin
        if (reset) begin
            c             <= 16'd0;
            err_underflow <= 1'b0;
            err_overflow  <= 1'b0;
        end else begin
            // c(t+1) = c + send - credit_return, checked on 17 bits: more credits back than
            // in use set the sticky underflow flag and clamp c at 0 instead of wrapping.
            // Otherwise the result fits 16 bits (a send needs c < CREDIT_LIMIT <= 0xFFFF).
            if ({9'd0, credit_return} > {1'b0, c} + {16'd0, send}) begin
                c             <= 16'd0;
                err_underflow <= 1'b1;
            end else begin
                c <= c + {15'd0, send} - {8'd0, credit_return};
            end
            // Only possible after software lowered CREDIT_LIMIT below the credits in flight.
            if (c > credit_limit)
                err_overflow <= 1'b1;
            // Write 1 to clear; the clear wins over a set in the same cycle.
            if (wr_status && csr_wdata[1])
                err_underflow <= 1'b0;
            if (wr_status && csr_wdata[2])
                err_overflow <= 1'b0;
        end
    end

    // ---------------------------------------------------------------- detector
    // FT: flip on the first cycle the current state's condition holds.
    // AT (spec Algorithm 2, repaired): count the condition over a window of W cycles and flip,
    // at once, when the count reaches T'. win/hit clear on a flip and on a detector write.
    wire        hit_now   = state ? (c < th_escape) : (c > th_enter);
    wire [15:0] at_window = state ? at_win_s : at_win_e;
    wire [15:0] at_needed = state ? at_cnt_s : at_cnt_e;
    wire [15:0] win_tmp   = (win == at_window) ? 16'd0 : win + 16'd1;
    wire [15:0] hit_tmp   = (win_tmp == at_window) ? 16'd0 : hit + {15'd0, hit_now};

    always @(posedge clock) begin
        if (reset || !enable) begin
            // Disabled: held Normal with an empty window.
            state <= 1'b0;
            win   <= 16'd0;
            hit   <= 16'd0;
        end else if (!det_at) begin
            state <= state ^ hit_now;
            win   <= 16'd0;
            hit   <= 16'd0;
        end else if (hit_tmp >= at_needed) begin
            state <= ~state;
            win   <= 16'd0;
            hit   <= 16'd0;
        end else if (wr_detector) begin
            win   <= 16'd0;
            hit   <= 16'd0;
        end else begin
            win   <= win_tmp;
            hit   <= hit_tmp;
        end
    end

    // ---------------------------------------------------------------- throttle state
    // gap: cycles since the last flit left, saturating; it resets saturated so the first flit
    // after reset is not held. r: xorshift32 (13, 17, 5), free-running, period 2^32 - 1; every
    // bit changes each cycle, unlike a one-bit-per-cycle shift register.
    wire [31:0] xs1    = r   ^ (r   << 13);
    wire [31:0] xs2    = xs1 ^ (xs1 >> 17);
    wire [31:0] r_next = xs2 ^ (xs2 << 5);

    always @(posedge clock) begin
        if (reset) begin
            gap <= 16'hFFFF;
            r   <= RST_SEED;
        end else begin
            if (send)
                gap <= 16'd0;
            else if (gap != 16'hFFFF)
                gap <= gap + 16'd1;
            // A SEED write reloads the generator so that NICs do not throttle in lock-step.
            r <= wr_seed ? seed_wvalue : r_next;
        end
    end

    // ---------------------------------------------------------------- event counters
    // Wrap at 2^32; any write to one clears it (and wins over that cycle's increment).
    always @(posedge clock) begin
        if (reset) begin
            cnt_congested <= 32'd0;
            cnt_sent      <= 32'd0;
            cnt_throttled <= 32'd0;
        end else begin
            cnt_congested <= wr_cnt_congested ? 32'd0 : cnt_congested + {31'd0, congested};
            cnt_sent      <= wr_cnt_sent      ? 32'd0 : cnt_sent      + {31'd0, send};
            cnt_throttled <= wr_cnt_throttled ? 32'd0 : cnt_throttled + {31'd0, throttled};
        end
    end

    // ---------------------------------------------------------------- CSR read mux
    // Combinational, zero-latency read of registered values; unused bits read as 0.
    always @* begin
        case (csr_addr)
            A_CTRL:          csr_rdata = {28'd0, ctrl};
            A_CREDIT_LIMIT:  csr_rdata = {16'd0, credit_limit};
            A_TH_ENTER:      csr_rdata = {16'd0, th_enter};
            A_TH_ESCAPE:     csr_rdata = {16'd0, th_escape};
            A_AT_WIN_E:      csr_rdata = {16'd0, at_win_e};
            A_AT_CNT_E:      csr_rdata = {16'd0, at_cnt_e};
            A_AT_WIN_S:      csr_rdata = {16'd0, at_win_s};
            A_AT_CNT_S:      csr_rdata = {16'd0, at_cnt_s};
            A_SHAPE:         csr_rdata = {10'd0, r_width, 3'd0, shape_n, 3'd0, shape_m};
            A_K:             csr_rdata = {16'd0, k};
            A_SEED:          csr_rdata = seed;
            A_STATUS:        csr_rdata = {c, 13'd0, err_overflow, err_underflow, congested};
            A_CNT_CONGESTED: csr_rdata = cnt_congested;
            A_CNT_SENT:      csr_rdata = cnt_sent;
            A_CNT_THROTTLED: csr_rdata = cnt_throttled;
            A_AT_STATUS:     csr_rdata = {hit, win};
            default:         csr_rdata = 32'd0;  // unreachable: all 16 addresses are decoded
        endcase
    end

endmodule
