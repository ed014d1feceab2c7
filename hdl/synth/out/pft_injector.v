

module pft_injector(clock,reset,flit_valid,flit_head,credit_return,csr_we,csr_addr,csr_wdata,send,congested,used_credits,throttled,csr_rdata);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  flit_valid;
    input wire  flit_head;
    input wire  [7:0] credit_return;
    input wire  csr_we;
    input wire  [3:0] csr_addr;
    input wire  [31:0] csr_wdata;
    output reg  send;
    output reg  congested;
    output reg  [15:0] used_credits;
    output reg  throttled;
    output reg  [31:0] csr_rdata;
    
    // Stub signals
    reg  csr$clock;
    reg  csr$reset;
    reg  csr$we;
    reg  [3:0] csr$addr;
    reg  [31:0] csr$wdata;
    wire  [31:0] csr$rdata;
    reg  csr$congested;
    reg  csr$err_underflow;
    reg  csr$err_overflow;
    reg  [15:0] csr$c;
    reg  [31:0] csr$cnt_congested;
    reg  [31:0] csr$cnt_sent;
    reg  [31:0] csr$cnt_throttled;
    reg  [15:0] csr$win;
    reg  [15:0] csr$hit;
    wire  csr$enable;
    wire  csr$det_at;
    wire  csr$thr_ri;
    wire  csr$gate_packet;
    wire  [15:0] csr$credit_limit;
    wire  [15:0] csr$th_enter;
    wire  [15:0] csr$th_escape;
    wire  [15:0] csr$at_win_e;
    wire  [15:0] csr$at_cnt_e;
    wire  [15:0] csr$at_win_s;
    wire  [15:0] csr$at_cnt_s;
    wire  csr$shape_left;
    wire  [4:0] csr$shape_distance;
    wire  csr$shape_zero;
    wire  [15:0] csr$shape_spill_mask;
    wire  [31:0] csr$r_mask;
    wire  [15:0] csr$k;
    wire  csr$reseed;
    wire  [31:0] csr$seed_load;
    wire  csr$restart;
    wire  csr$clear_underflow;
    wire  csr$clear_overflow;
    wire  csr$clear_congested;
    wire  csr$clear_sent;
    wire  csr$clear_throttled;
    reg  credit$clock;
    reg  credit$reset;
    reg  credit$send;
    reg  [7:0] credit$credit_return;
    reg  [15:0] credit$credit_limit;
    reg  credit$clear_underflow;
    reg  credit$clear_overflow;
    wire  [15:0] credit$c;
    wire  credit$credit_ok;
    wire  credit$err_underflow;
    wire  credit$err_overflow;
    reg  fsm$clock;
    reg  fsm$reset;
    reg  fsm$enable;
    reg  fsm$det_at;
    reg  fsm$restart;
    reg  [15:0] fsm$c;
    reg  [15:0] fsm$th_enter;
    reg  [15:0] fsm$th_escape;
    reg  [15:0] fsm$win_e;
    reg  [15:0] fsm$cnt_e;
    reg  [15:0] fsm$win_s;
    reg  [15:0] fsm$cnt_s;
    wire  fsm$congested;
    wire  [15:0] fsm$win;
    wire  [15:0] fsm$hit;
    reg  [15:0] shifter$c;
    reg  shifter$left;
    reg  [4:0] shifter$distance;
    reg  shifter$zero;
    reg  [15:0] shifter$spill_mask;
    reg  [15:0] shifter$k;
    wire  [31:0] shifter$level;
    wire  shifter$level_ovf;
    reg  fi$clock;
    reg  fi$reset;
    reg  fi$send;
    reg  [31:0] fi$level;
    reg  fi$level_ovf;
    wire  fi$ok;
    wire  [15:0] fi$gap;
    reg  ri$clock;
    reg  ri$reset;
    reg  ri$reseed;
    reg  [31:0] ri$seed;
    reg  [31:0] ri$level;
    reg  ri$level_ovf;
    reg  [31:0] ri$mask;
    wire  ri$ok;
    wire  [31:0] ri$r;
    reg  counters$clock;
    reg  counters$reset;
    reg  counters$congested;
    reg  counters$sent;
    reg  counters$throttled;
    reg  counters$clear_congested;
    reg  counters$clear_sent;
    reg  counters$clear_throttled;
    wire  [31:0] counters$cnt_congested;
    wire  [31:0] counters$cnt_sent;
    wire  [31:0] counters$cnt_throttled;
    
    // Local signals
    reg  throttle_ok;
    reg  pass;
    reg  ready;
    
    // Sub module instances
    pft_injector$csr csr(
        .clock(csr$clock),
        .reset(csr$reset),
        .we(csr$we),
        .addr(csr$addr),
        .wdata(csr$wdata),
        .rdata(csr$rdata),
        .congested(csr$congested),
        .err_underflow(csr$err_underflow),
        .err_overflow(csr$err_overflow),
        .c(csr$c),
        .cnt_congested(csr$cnt_congested),
        .cnt_sent(csr$cnt_sent),
        .cnt_throttled(csr$cnt_throttled),
        .win(csr$win),
        .hit(csr$hit),
        .enable(csr$enable),
        .det_at(csr$det_at),
        .thr_ri(csr$thr_ri),
        .gate_packet(csr$gate_packet),
        .credit_limit(csr$credit_limit),
        .th_enter(csr$th_enter),
        .th_escape(csr$th_escape),
        .at_win_e(csr$at_win_e),
        .at_cnt_e(csr$at_cnt_e),
        .at_win_s(csr$at_win_s),
        .at_cnt_s(csr$at_cnt_s),
        .shape_left(csr$shape_left),
        .shape_distance(csr$shape_distance),
        .shape_zero(csr$shape_zero),
        .shape_spill_mask(csr$shape_spill_mask),
        .r_mask(csr$r_mask),
        .k(csr$k),
        .reseed(csr$reseed),
        .seed_load(csr$seed_load),
        .restart(csr$restart),
        .clear_underflow(csr$clear_underflow),
        .clear_overflow(csr$clear_overflow),
        .clear_congested(csr$clear_congested),
        .clear_sent(csr$clear_sent),
        .clear_throttled(csr$clear_throttled)
    );
    pft_injector$credit credit(
        .clock(credit$clock),
        .reset(credit$reset),
        .send(credit$send),
        .credit_return(credit$credit_return),
        .credit_limit(credit$credit_limit),
        .clear_underflow(credit$clear_underflow),
        .clear_overflow(credit$clear_overflow),
        .c(credit$c),
        .credit_ok(credit$credit_ok),
        .err_underflow(credit$err_underflow),
        .err_overflow(credit$err_overflow)
    );
    pft_injector$fsm fsm(
        .clock(fsm$clock),
        .reset(fsm$reset),
        .enable(fsm$enable),
        .det_at(fsm$det_at),
        .restart(fsm$restart),
        .c(fsm$c),
        .th_enter(fsm$th_enter),
        .th_escape(fsm$th_escape),
        .win_e(fsm$win_e),
        .cnt_e(fsm$cnt_e),
        .win_s(fsm$win_s),
        .cnt_s(fsm$cnt_s),
        .congested(fsm$congested),
        .win(fsm$win),
        .hit(fsm$hit)
    );
    pft_injector$shifter shifter(
        .c(shifter$c),
        .left(shifter$left),
        .distance(shifter$distance),
        .zero(shifter$zero),
        .spill_mask(shifter$spill_mask),
        .k(shifter$k),
        .level(shifter$level),
        .level_ovf(shifter$level_ovf)
    );
    pft_injector$fi fi(
        .clock(fi$clock),
        .reset(fi$reset),
        .send(fi$send),
        .level(fi$level),
        .level_ovf(fi$level_ovf),
        .ok(fi$ok),
        .gap(fi$gap)
    );
    pft_injector$ri ri(
        .clock(ri$clock),
        .reset(ri$reset),
        .reseed(ri$reseed),
        .seed(ri$seed),
        .level(ri$level),
        .level_ovf(ri$level_ovf),
        .mask(ri$mask),
        .ok(ri$ok),
        .r(ri$r)
    );
    pft_injector$counters counters(
        .clock(counters$clock),
        .reset(counters$reset),
        .congested(counters$congested),
        .sent(counters$sent),
        .throttled(counters$throttled),
        .clear_congested(counters$clear_congested),
        .clear_sent(counters$clear_sent),
        .clear_throttled(counters$clear_throttled),
        .cnt_congested(counters$cnt_congested),
        .cnt_sent(counters$cnt_sent),
        .cnt_throttled(counters$cnt_throttled)
    );
    
    // Update code
    always @(*) begin
        csr$clock = clock;
        credit$clock = clock;
        fsm$clock = clock;
        fi$clock = clock;
        ri$clock = clock;
        counters$clock = clock;
        csr$reset = reset;
        credit$reset = reset;
        fsm$reset = reset;
        fi$reset = reset;
        ri$reset = reset;
        counters$reset = reset;
        csr$we = csr_we;
        csr$addr = csr_addr;
        csr$wdata = csr_wdata;
        csr$congested = fsm$congested;
        csr$err_underflow = credit$err_underflow;
        csr$err_overflow = credit$err_overflow;
        csr$c = credit$c;
        csr$cnt_congested = counters$cnt_congested;
        csr$cnt_sent = counters$cnt_sent;
        csr$cnt_throttled = counters$cnt_throttled;
        csr$win = fsm$win;
        csr$hit = fsm$hit;
        fsm$enable = csr$enable;
        fsm$det_at = csr$det_at;
        fsm$restart = csr$restart;
        fsm$c = credit$c;
        fsm$th_enter = csr$th_enter;
        fsm$th_escape = csr$th_escape;
        fsm$win_e = csr$at_win_e;
        fsm$cnt_e = csr$at_cnt_e;
        fsm$win_s = csr$at_win_s;
        fsm$cnt_s = csr$at_cnt_s;
        shifter$c = credit$c;
        shifter$left = csr$shape_left;
        shifter$distance = csr$shape_distance;
        shifter$zero = csr$shape_zero;
        shifter$spill_mask = csr$shape_spill_mask;
        shifter$k = csr$k;
        fi$level = shifter$level;
        fi$level_ovf = shifter$level_ovf;
        ri$level = shifter$level;
        ri$level_ovf = shifter$level_ovf;
        ri$mask = csr$r_mask;
        ri$reseed = csr$reseed;
        ri$seed = csr$seed_load;
        if (~fsm$congested) begin
            throttle_ok = 1'b1;
        end
        else if (csr$thr_ri) begin
            throttle_ok = ri$ok;
        end
        else begin
            throttle_ok = fi$ok;
        end
        pass = throttle_ok | (csr$gate_packet & ~flit_head);
        ready = ~reset & flit_valid & credit$credit_ok;
        send = ready & pass;
        throttled = ready & ~pass;
        credit$send = send;
        credit$credit_return = credit_return;
        credit$credit_limit = csr$credit_limit;
        credit$clear_underflow = csr$clear_underflow;
        credit$clear_overflow = csr$clear_overflow;
        fi$send = send;
        counters$congested = fsm$congested;
        counters$sent = send;
        counters$throttled = throttled;
        counters$clear_congested = csr$clear_congested;
        counters$clear_sent = csr$clear_sent;
        counters$clear_throttled = csr$clear_throttled;
        congested = fsm$congested;
        used_credits = credit$c;
        csr_rdata = csr$rdata;
    end
    
endmodule // top


module pft_injector$counters(clock,reset,congested,sent,throttled,clear_congested,clear_sent,clear_throttled,cnt_congested,cnt_sent,cnt_throttled);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  congested;
    input wire  sent;
    input wire  throttled;
    input wire  clear_congested;
    input wire  clear_sent;
    input wire  clear_throttled;
    output reg  [31:0] cnt_congested;
    output reg  [31:0] cnt_sent;
    output reg  [31:0] cnt_throttled;
    
    // Stub signals
    reg  [31:0] congested_count$d;
    wire  [31:0] congested_count$q;
    reg  congested_count$clock;
    reg  [31:0] sent_count$d;
    wire  [31:0] sent_count$q;
    reg  sent_count$clock;
    reg  [31:0] throttled_count$d;
    wire  [31:0] throttled_count$q;
    reg  throttled_count$clock;
    
    // Sub module instances
    pft_injector$counters$congested_count congested_count(
        .d(congested_count$d),
        .q(congested_count$q),
        .clock(congested_count$clock)
    );
    pft_injector$counters$sent_count sent_count(
        .d(sent_count$d),
        .q(sent_count$q),
        .clock(sent_count$clock)
    );
    pft_injector$counters$throttled_count throttled_count(
        .d(throttled_count$d),
        .q(throttled_count$q),
        .clock(throttled_count$clock)
    );
    
    // Update code
    always @(*) begin
        congested_count$clock = clock;
        sent_count$clock = clock;
        throttled_count$clock = clock;
        congested_count$d = congested_count$q;
        sent_count$d = sent_count$q;
        throttled_count$d = throttled_count$q;
        if (congested) begin
            congested_count$d = congested_count$q + 32'h1;
        end
        if (sent) begin
            sent_count$d = sent_count$q + 32'h1;
        end
        if (throttled) begin
            throttled_count$d = throttled_count$q + 32'h1;
        end
        if (clear_congested | reset) begin
            congested_count$d = 32'h0;
        end
        if (clear_sent | reset) begin
            sent_count$d = 32'h0;
        end
        if (clear_throttled | reset) begin
            throttled_count$d = 32'h0;
        end
        cnt_congested = congested_count$q;
        cnt_sent = sent_count$q;
        cnt_throttled = throttled_count$q;
    end
    
endmodule // pft_injector$counters


module pft_injector$counters$congested_count(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$counters$congested_count


module pft_injector$counters$sent_count(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$counters$sent_count


module pft_injector$counters$throttled_count(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$counters$throttled_count


module pft_injector$credit(clock,reset,send,credit_return,credit_limit,clear_underflow,clear_overflow,c,credit_ok,err_underflow,err_overflow);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  send;
    input wire  [7:0] credit_return;
    input wire  [15:0] credit_limit;
    input wire  clear_underflow;
    input wire  clear_overflow;
    output reg  [15:0] c;
    output reg  credit_ok;
    output reg  err_underflow;
    output reg  err_overflow;
    
    // Stub signals
    reg  [15:0] count$d;
    wire  [15:0] count$q;
    reg  count$clock;
    reg  underflow$d;
    wire  underflow$q;
    reg  underflow$clock;
    reg  overflow$d;
    wire  overflow$q;
    reg  overflow$clock;
    
    // Local signals
    reg  [16:0] c17;
    reg  [16:0] c17_inc;
    reg  [16:0] ret17;
    reg  [16:0] dec_idle;
    reg  [16:0] dec_send;
    reg  at_limit;
    
    // Sub module instances
    pft_injector$credit$count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    pft_injector$credit$underflow underflow(
        .d(underflow$d),
        .q(underflow$q),
        .clock(underflow$clock)
    );
    pft_injector$credit$overflow overflow(
        .d(overflow$d),
        .q(overflow$q),
        .clock(overflow$clock)
    );
    
    // Update code
    always @(*) begin
        count$clock = clock;
        underflow$clock = clock;
        overflow$clock = clock;
        count$d = count$q;
        underflow$d = underflow$q;
        overflow$d = overflow$q;
        c17 = ((count$q) & 17'h1ffff);
        c17_inc = c17 + 32'h1;
        ret17 = ((credit_return) & 17'h1ffff);
        dec_idle = c17 - ret17;
        dec_send = c17_inc - ret17;
        if (send) begin
            if (dec_send[32'h10]) begin
                count$d = 32'h0;
                underflow$d = 1'b1;
            end
            else begin
                count$d = ((dec_send) & 16'hffff);
            end
        end
        else if (dec_idle[32'h10]) begin
            count$d = 32'h0;
            underflow$d = 1'b1;
        end
        else begin
            count$d = ((dec_idle) & 16'hffff);
        end
        at_limit = count$q == credit_limit;
        credit_ok = count$q < credit_limit;
        if (~credit_ok & ~at_limit) begin
            overflow$d = 1'b1;
        end
        if (clear_underflow) begin
            underflow$d = 1'b0;
        end
        if (clear_overflow) begin
            overflow$d = 1'b0;
        end
        if (reset) begin
            count$d = 32'h0;
            underflow$d = 1'b0;
            overflow$d = 1'b0;
        end
        c = count$q;
        err_underflow = underflow$q;
        err_overflow = overflow$q;
    end
    
endmodule // pft_injector$credit


module pft_injector$credit$count(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$credit$count


module pft_injector$credit$overflow(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$credit$overflow


module pft_injector$credit$underflow(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$credit$underflow


module pft_injector$csr(clock,reset,we,addr,wdata,rdata,congested,err_underflow,err_overflow,c,cnt_congested,cnt_sent,cnt_throttled,win,hit,enable,det_at,thr_ri,gate_packet,credit_limit,th_enter,th_escape,at_win_e,at_cnt_e,at_win_s,at_cnt_s,shape_left,shape_distance,shape_zero,shape_spill_mask,r_mask,k,reseed,seed_load,restart,clear_underflow,clear_overflow,clear_congested,clear_sent,clear_throttled);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  we;
    input wire  [3:0] addr;
    input wire  [31:0] wdata;
    output reg  [31:0] rdata;
    input wire  congested;
    input wire  err_underflow;
    input wire  err_overflow;
    input wire  [15:0] c;
    input wire  [31:0] cnt_congested;
    input wire  [31:0] cnt_sent;
    input wire  [31:0] cnt_throttled;
    input wire  [15:0] win;
    input wire  [15:0] hit;
    output reg  enable;
    output reg  det_at;
    output reg  thr_ri;
    output reg  gate_packet;
    output reg  [15:0] credit_limit;
    output reg  [15:0] th_enter;
    output reg  [15:0] th_escape;
    output reg  [15:0] at_win_e;
    output reg  [15:0] at_cnt_e;
    output reg  [15:0] at_win_s;
    output reg  [15:0] at_cnt_s;
    output reg  shape_left;
    output reg  [4:0] shape_distance;
    output reg  shape_zero;
    output reg  [15:0] shape_spill_mask;
    output reg  [31:0] r_mask;
    output reg  [15:0] k;
    output reg  reseed;
    output reg  [31:0] seed_load;
    output reg  restart;
    output reg  clear_underflow;
    output reg  clear_overflow;
    output reg  clear_congested;
    output reg  clear_sent;
    output reg  clear_throttled;
    
    // Constant declarations
    localparam  rst_credit_limit = 16'h400;
    localparam  rst_th_enter = 16'h250;
    localparam  rst_th_escape = 16'h2a0;
    localparam  rst_at_win_e = 16'h40;
    localparam  rst_at_cnt_e = 16'h30;
    localparam  rst_at_win_s = 16'h40;
    localparam  rst_at_cnt_s = 16'h30;
    localparam  rst_m = 5'b10010;
    localparam  rst_n = 5'b0;
    localparam  rst_r_width = 6'b100000;
    localparam  rst_k = 16'h0;
    localparam  rst_seed = 32'h9e3779b9;
    
    // Stub signals
    reg  [3:0] ctrl$d;
    wire  [3:0] ctrl$q;
    reg  ctrl$clock;
    reg  [15:0] credit_limit_q$d;
    wire  [15:0] credit_limit_q$q;
    reg  credit_limit_q$clock;
    reg  [15:0] th_enter_q$d;
    wire  [15:0] th_enter_q$q;
    reg  th_enter_q$clock;
    reg  [15:0] th_escape_q$d;
    wire  [15:0] th_escape_q$q;
    reg  th_escape_q$clock;
    reg  [15:0] at_win_e_q$d;
    wire  [15:0] at_win_e_q$q;
    reg  at_win_e_q$clock;
    reg  [15:0] at_cnt_e_q$d;
    wire  [15:0] at_cnt_e_q$q;
    reg  at_cnt_e_q$clock;
    reg  [15:0] at_win_s_q$d;
    wire  [15:0] at_win_s_q$q;
    reg  at_win_s_q$clock;
    reg  [15:0] at_cnt_s_q$d;
    wire  [15:0] at_cnt_s_q$q;
    reg  at_cnt_s_q$clock;
    reg  [4:0] m_q$d;
    wire  [4:0] m_q$q;
    reg  m_q$clock;
    reg  [4:0] n_q$d;
    wire  [4:0] n_q$q;
    reg  n_q$clock;
    reg  [5:0] r_width_q$d;
    wire  [5:0] r_width_q$q;
    reg  r_width_q$clock;
    reg  [15:0] k_q$d;
    wire  [15:0] k_q$q;
    reg  k_q$clock;
    reg  [31:0] seed_q$d;
    wire  [31:0] seed_q$q;
    reg  seed_q$clock;
    reg  [4:0] decode$m;
    reg  [4:0] decode$n;
    reg  [5:0] decode$r_width;
    wire  decode$left;
    wire  [4:0] decode$distance;
    wire  decode$zero;
    wire  [15:0] decode$spill_mask;
    wire  [31:0] decode$r_mask;
    reg  left_q$d;
    wire  left_q$q;
    reg  left_q$clock;
    reg  [4:0] distance_q$d;
    wire  [4:0] distance_q$q;
    reg  distance_q$clock;
    reg  zero_q$d;
    wire  zero_q$q;
    reg  zero_q$clock;
    reg  [15:0] spill_mask_q$d;
    wire  [15:0] spill_mask_q$q;
    reg  spill_mask_q$clock;
    reg  [31:0] r_mask_q$d;
    wire  [31:0] r_mask_q$q;
    reg  r_mask_q$clock;
    
    // Local signals
    reg  [31:0] status;
    reg  [31:0] at_status;
    
    // Sub module instances
    pft_injector$csr$ctrl ctrl(
        .d(ctrl$d),
        .q(ctrl$q),
        .clock(ctrl$clock)
    );
    pft_injector$csr$credit_limit_q credit_limit_q(
        .d(credit_limit_q$d),
        .q(credit_limit_q$q),
        .clock(credit_limit_q$clock)
    );
    pft_injector$csr$th_enter_q th_enter_q(
        .d(th_enter_q$d),
        .q(th_enter_q$q),
        .clock(th_enter_q$clock)
    );
    pft_injector$csr$th_escape_q th_escape_q(
        .d(th_escape_q$d),
        .q(th_escape_q$q),
        .clock(th_escape_q$clock)
    );
    pft_injector$csr$at_win_e_q at_win_e_q(
        .d(at_win_e_q$d),
        .q(at_win_e_q$q),
        .clock(at_win_e_q$clock)
    );
    pft_injector$csr$at_cnt_e_q at_cnt_e_q(
        .d(at_cnt_e_q$d),
        .q(at_cnt_e_q$q),
        .clock(at_cnt_e_q$clock)
    );
    pft_injector$csr$at_win_s_q at_win_s_q(
        .d(at_win_s_q$d),
        .q(at_win_s_q$q),
        .clock(at_win_s_q$clock)
    );
    pft_injector$csr$at_cnt_s_q at_cnt_s_q(
        .d(at_cnt_s_q$d),
        .q(at_cnt_s_q$q),
        .clock(at_cnt_s_q$clock)
    );
    pft_injector$csr$m_q m_q(
        .d(m_q$d),
        .q(m_q$q),
        .clock(m_q$clock)
    );
    pft_injector$csr$n_q n_q(
        .d(n_q$d),
        .q(n_q$q),
        .clock(n_q$clock)
    );
    pft_injector$csr$r_width_q r_width_q(
        .d(r_width_q$d),
        .q(r_width_q$q),
        .clock(r_width_q$clock)
    );
    pft_injector$csr$k_q k_q(
        .d(k_q$d),
        .q(k_q$q),
        .clock(k_q$clock)
    );
    pft_injector$csr$seed_q seed_q(
        .d(seed_q$d),
        .q(seed_q$q),
        .clock(seed_q$clock)
    );
    pft_injector$csr$decode decode(
        .m(decode$m),
        .n(decode$n),
        .r_width(decode$r_width),
        .left(decode$left),
        .distance(decode$distance),
        .zero(decode$zero),
        .spill_mask(decode$spill_mask),
        .r_mask(decode$r_mask)
    );
    pft_injector$csr$left_q left_q(
        .d(left_q$d),
        .q(left_q$q),
        .clock(left_q$clock)
    );
    pft_injector$csr$distance_q distance_q(
        .d(distance_q$d),
        .q(distance_q$q),
        .clock(distance_q$clock)
    );
    pft_injector$csr$zero_q zero_q(
        .d(zero_q$d),
        .q(zero_q$q),
        .clock(zero_q$clock)
    );
    pft_injector$csr$spill_mask_q spill_mask_q(
        .d(spill_mask_q$d),
        .q(spill_mask_q$q),
        .clock(spill_mask_q$clock)
    );
    pft_injector$csr$r_mask_q r_mask_q(
        .d(r_mask_q$d),
        .q(r_mask_q$q),
        .clock(r_mask_q$clock)
    );
    
    // Update code
    always @(*) begin
        ctrl$clock = clock;
        credit_limit_q$clock = clock;
        th_enter_q$clock = clock;
        th_escape_q$clock = clock;
        at_win_e_q$clock = clock;
        at_cnt_e_q$clock = clock;
        at_win_s_q$clock = clock;
        at_cnt_s_q$clock = clock;
        m_q$clock = clock;
        n_q$clock = clock;
        r_width_q$clock = clock;
        k_q$clock = clock;
        seed_q$clock = clock;
        left_q$clock = clock;
        distance_q$clock = clock;
        zero_q$clock = clock;
        spill_mask_q$clock = clock;
        r_mask_q$clock = clock;
        ctrl$d = ctrl$q;
        credit_limit_q$d = credit_limit_q$q;
        th_enter_q$d = th_enter_q$q;
        th_escape_q$d = th_escape_q$q;
        at_win_e_q$d = at_win_e_q$q;
        at_cnt_e_q$d = at_cnt_e_q$q;
        at_win_s_q$d = at_win_s_q$q;
        at_cnt_s_q$d = at_cnt_s_q$q;
        m_q$d = m_q$q;
        n_q$d = n_q$q;
        r_width_q$d = r_width_q$q;
        k_q$d = k_q$q;
        seed_q$d = seed_q$q;
        left_q$d = left_q$q;
        distance_q$d = distance_q$q;
        zero_q$d = zero_q$q;
        spill_mask_q$d = spill_mask_q$q;
        r_mask_q$d = r_mask_q$q;
        if (reset) begin
            decode$m = rst_m;
            decode$n = rst_n;
            decode$r_width = rst_r_width;
        end
        else begin
            decode$m = wdata[(32'h0)+:(5)];
            decode$n = wdata[(32'h8)+:(5)];
            decode$r_width = wdata[(32'h10)+:(6)];
        end
        if (wdata == 32'h0) begin
            seed_load = rst_seed;
        end
        else begin
            seed_load = wdata;
        end
        reseed = 1'b0;
        restart = 1'b0;
        clear_underflow = 1'b0;
        clear_overflow = 1'b0;
        clear_congested = 1'b0;
        clear_sent = 1'b0;
        clear_throttled = 1'b0;
        if (we) begin
            case (addr)
                0:
                    begin
                        ctrl$d = wdata[(32'h0)+:(4)];
                        restart = 1'b1;
                    end
                1:
                    begin
                        credit_limit_q$d = wdata[(32'h0)+:(16)];
                    end
                2:
                    begin
                        th_enter_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                3:
                    begin
                        th_escape_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                4:
                    begin
                        at_win_e_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                5:
                    begin
                        at_cnt_e_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                6:
                    begin
                        at_win_s_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                7:
                    begin
                        at_cnt_s_q$d = wdata[(32'h0)+:(16)];
                        restart = 1'b1;
                    end
                8:
                    begin
                        m_q$d = wdata[(32'h0)+:(5)];
                        n_q$d = wdata[(32'h8)+:(5)];
                        r_width_q$d = wdata[(32'h10)+:(6)];
                        left_q$d = decode$left;
                        distance_q$d = decode$distance;
                        zero_q$d = decode$zero;
                        spill_mask_q$d = decode$spill_mask;
                        r_mask_q$d = decode$r_mask;
                    end
                9:
                    begin
                        k_q$d = wdata[(32'h0)+:(16)];
                    end
                10:
                    begin
                        seed_q$d = seed_load;
                        reseed = 1'b1;
                    end
                11:
                    begin
                        clear_underflow = wdata[32'h1];
                        clear_overflow = wdata[32'h2];
                    end
                12:
                    begin
                        clear_congested = 1'b1;
                    end
                13:
                    begin
                        clear_sent = 1'b1;
                    end
                14:
                    begin
                        clear_throttled = 1'b1;
                    end
                default:
                    begin
                    end
            endcase
        end
        if (reset) begin
            ctrl$d = 32'h0;
            credit_limit_q$d = rst_credit_limit;
            th_enter_q$d = rst_th_enter;
            th_escape_q$d = rst_th_escape;
            at_win_e_q$d = rst_at_win_e;
            at_cnt_e_q$d = rst_at_cnt_e;
            at_win_s_q$d = rst_at_win_s;
            at_cnt_s_q$d = rst_at_cnt_s;
            m_q$d = rst_m;
            n_q$d = rst_n;
            r_width_q$d = rst_r_width;
            left_q$d = decode$left;
            distance_q$d = decode$distance;
            zero_q$d = decode$zero;
            spill_mask_q$d = decode$spill_mask;
            r_mask_q$d = decode$r_mask;
            k_q$d = rst_k;
            seed_q$d = rst_seed;
        end
        enable = ctrl$q[32'h0];
        det_at = ctrl$q[32'h1];
        thr_ri = ctrl$q[32'h2];
        gate_packet = ctrl$q[32'h3];
        credit_limit = credit_limit_q$q;
        th_enter = th_enter_q$q;
        th_escape = th_escape_q$q;
        at_win_e = at_win_e_q$q;
        at_cnt_e = at_cnt_e_q$q;
        at_win_s = at_win_s_q$q;
        at_cnt_s = at_cnt_s_q$q;
        shape_left = left_q$q;
        shape_distance = distance_q$q;
        shape_zero = zero_q$q;
        shape_spill_mask = spill_mask_q$q;
        r_mask = r_mask_q$q;
        k = k_q$q;
        status = ((c) & 32'hffffffff) << 32'h10;
        status = (status & ~(1 << (32'h0)) | ((congested) << (32'h0)));
        status = (status & ~(1 << (32'h1)) | ((err_underflow) << (32'h1)));
        status = (status & ~(1 << (32'h2)) | ((err_overflow) << (32'h2)));
        at_status = (((hit) & 32'hffffffff) << 32'h10) | ((win) & 32'hffffffff);
        case (addr)
            0:
                begin
                    rdata = ((ctrl$q) & 32'hffffffff);
                end
            1:
                begin
                    rdata = ((credit_limit_q$q) & 32'hffffffff);
                end
            2:
                begin
                    rdata = ((th_enter_q$q) & 32'hffffffff);
                end
            3:
                begin
                    rdata = ((th_escape_q$q) & 32'hffffffff);
                end
            4:
                begin
                    rdata = ((at_win_e_q$q) & 32'hffffffff);
                end
            5:
                begin
                    rdata = ((at_cnt_e_q$q) & 32'hffffffff);
                end
            6:
                begin
                    rdata = ((at_win_s_q$q) & 32'hffffffff);
                end
            7:
                begin
                    rdata = ((at_cnt_s_q$q) & 32'hffffffff);
                end
            8:
                begin
                    rdata = (((r_width_q$q) & 32'hffffffff) << 32'h10) | (((n_q$q) & 32'hffffffff) << 32'h8) | ((m_q$q) & 32'hffffffff);
                end
            9:
                begin
                    rdata = ((k_q$q) & 32'hffffffff);
                end
            10:
                begin
                    rdata = seed_q$q;
                end
            11:
                begin
                    rdata = status;
                end
            12:
                begin
                    rdata = cnt_congested;
                end
            13:
                begin
                    rdata = cnt_sent;
                end
            14:
                begin
                    rdata = cnt_throttled;
                end
            default:
                begin
                    rdata = at_status;
                end
        endcase
    end
    
endmodule // pft_injector$csr


module pft_injector$csr$at_cnt_e_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$at_cnt_e_q


module pft_injector$csr$at_cnt_s_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$at_cnt_s_q


module pft_injector$csr$at_win_e_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$at_win_e_q


module pft_injector$csr$at_win_s_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$at_win_s_q


module pft_injector$csr$credit_limit_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$credit_limit_q


module pft_injector$csr$ctrl(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$ctrl


module pft_injector$csr$decode(m,n,r_width,left,distance,zero,spill_mask,r_mask);
    
    // Module arguments
    input wire  [4:0] m;
    input wire  [4:0] n;
    input wire  [5:0] r_width;
    output reg  left;
    output reg  [4:0] distance;
    output reg  zero;
    output reg  [15:0] spill_mask;
    output reg  [31:0] r_mask;
    
    // Constant declarations
    localparam  ones = 16'hffff;
    localparam  ones32 = 32'hffffffff;
    localparam  thirty_two = 6'b100000;
    localparam  sixteen = 6'b10000;
    
    // Local signals
    reg  [4:0] d5;
    reg  [5:0] d6;
    reg  [5:0] r6;
    reg  [5:0] spill_sh;
    reg  [5:0] mask_sh;
    
    // Update code
    always @(*) begin
        left = m >= n;
        d5 = m - n;
        d6 = ((m) & 6'h3f) - ((n) & 6'h3f);
        r6 = ((n) & 6'h3f) - ((m) & 6'h3f);
        spill_sh = thirty_two - d6;
        if (left) begin
            distance = d5;
            zero = 1'b0;
            spill_mask = ones << spill_sh;
        end
        else begin
            distance = d5 ^ 32'h10;
            zero = r6 > sixteen;
            spill_mask = 32'h0;
        end
        mask_sh = thirty_two - r_width;
        if ((r_width == 32'h0) | r_width[32'h5]) begin
            r_mask = ones32;
        end
        else begin
            r_mask = ones32 >> mask_sh;
        end
    end
    
endmodule // pft_injector$csr$decode


module pft_injector$csr$distance_q(d,q,clock);
    
    // Module arguments
    input wire  [4:0] d;
    output reg  [4:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 5'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$distance_q


module pft_injector$csr$k_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$k_q


module pft_injector$csr$left_q(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$left_q


module pft_injector$csr$m_q(d,q,clock);
    
    // Module arguments
    input wire  [4:0] d;
    output reg  [4:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 5'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$m_q


module pft_injector$csr$n_q(d,q,clock);
    
    // Module arguments
    input wire  [4:0] d;
    output reg  [4:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 5'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$n_q


module pft_injector$csr$r_mask_q(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$r_mask_q


module pft_injector$csr$r_width_q(d,q,clock);
    
    // Module arguments
    input wire  [5:0] d;
    output reg  [5:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 6'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$r_width_q


module pft_injector$csr$seed_q(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$seed_q


module pft_injector$csr$spill_mask_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$spill_mask_q


module pft_injector$csr$th_enter_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$th_enter_q


module pft_injector$csr$th_escape_q(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$th_escape_q


module pft_injector$csr$zero_q(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$csr$zero_q


module pft_injector$fi(clock,reset,send,level,level_ovf,ok,gap);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  send;
    input wire  [31:0] level;
    input wire  level_ovf;
    output reg  ok;
    output reg  [15:0] gap;
    
    // Stub signals
    reg  [15:0] count$d;
    wire  [15:0] count$q;
    reg  count$clock;
    
    // Local signals
    reg  [31:0] gap32;
    
    // Sub module instances
    pft_injector$fi$count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    
    // Update code
    always @(*) begin
        count$clock = clock;
        count$d = count$q;
        if (send) begin
            count$d = 32'h0;
        end
        else if (~&count$q) begin
            count$d = count$q + 32'h1;
        end
        if (reset) begin
            count$d = 32'hffff;
        end
        gap32 = ((count$q) & 32'hffffffff);
        ok = ~level_ovf & (gap32 >= level);
        gap = count$q;
    end
    
endmodule // pft_injector$fi


module pft_injector$fi$count(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$fi$count


module pft_injector$fsm(clock,reset,enable,det_at,restart,c,th_enter,th_escape,win_e,cnt_e,win_s,cnt_s,congested,win,hit);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  enable;
    input wire  det_at;
    input wire  restart;
    input wire  [15:0] c;
    input wire  [15:0] th_enter;
    input wire  [15:0] th_escape;
    input wire  [15:0] win_e;
    input wire  [15:0] cnt_e;
    input wire  [15:0] win_s;
    input wire  [15:0] cnt_s;
    output reg  congested;
    output reg  [15:0] win;
    output reg  [15:0] hit;
    
    // Stub signals
    reg  state$d;
    wire  state$q;
    reg  state$clock;
    reg  [15:0] win_count$d;
    wire  [15:0] win_count$q;
    reg  win_count$clock;
    reg  [15:0] hit_count$d;
    wire  [15:0] hit_count$q;
    reg  hit_count$clock;
    
    // Local signals
    reg  hit_now;
    reg  [15:0] w;
    reg  [15:0] tp;
    reg  [15:0] win_inc;
    reg  [15:0] hit_inc;
    reg  [15:0] win_tmp;
    reg  [15:0] hit_tmp;
    
    // Sub module instances
    pft_injector$fsm$state state(
        .d(state$d),
        .q(state$q),
        .clock(state$clock)
    );
    pft_injector$fsm$win_count win_count(
        .d(win_count$d),
        .q(win_count$q),
        .clock(win_count$clock)
    );
    pft_injector$fsm$hit_count hit_count(
        .d(hit_count$d),
        .q(hit_count$q),
        .clock(hit_count$clock)
    );
    
    // Update code
    always @(*) begin
        state$clock = clock;
        win_count$clock = clock;
        hit_count$clock = clock;
        state$d = state$q;
        win_count$d = win_count$q;
        hit_count$d = hit_count$q;
        if (state$q) begin
            hit_now = c < th_escape;
            w = win_s;
            tp = cnt_s;
        end
        else begin
            hit_now = c > th_enter;
            w = win_e;
            tp = cnt_e;
        end
        win_inc = win_count$q + 32'h1;
        if (hit_now) begin
            hit_inc = hit_count$q + 32'h1;
        end
        else begin
            hit_inc = hit_count$q;
        end
        if (win_count$q == w) begin
            win_tmp = 32'h0;
        end
        else begin
            win_tmp = win_inc;
        end
        if (win_tmp == w) begin
            hit_tmp = 32'h0;
        end
        else begin
            hit_tmp = hit_inc;
        end
        if (~enable) begin
            state$d = 1'b0;
            win_count$d = 32'h0;
            hit_count$d = 32'h0;
        end
        else if (~det_at) begin
            if (hit_now) begin
                state$d = ~state$q;
            end
            win_count$d = 32'h0;
            hit_count$d = 32'h0;
        end
        else if (hit_tmp >= tp) begin
            state$d = ~state$q;
            win_count$d = 32'h0;
            hit_count$d = 32'h0;
        end
        else if (restart) begin
            win_count$d = 32'h0;
            hit_count$d = 32'h0;
        end
        else begin
            win_count$d = win_tmp;
            hit_count$d = hit_tmp;
        end
        if (reset) begin
            state$d = 1'b0;
            win_count$d = 32'h0;
            hit_count$d = 32'h0;
        end
        congested = state$q & enable;
        win = win_count$q;
        hit = hit_count$q;
    end
    
endmodule // pft_injector$fsm


module pft_injector$fsm$hit_count(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$fsm$hit_count


module pft_injector$fsm$state(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$fsm$state


module pft_injector$fsm$win_count(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$fsm$win_count


module pft_injector$ri(clock,reset,reseed,seed,level,level_ovf,mask,ok,r);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  reseed;
    input wire  [31:0] seed;
    input wire  [31:0] level;
    input wire  level_ovf;
    input wire  [31:0] mask;
    output reg  ok;
    output reg  [31:0] r;
    
    // Constant declarations
    localparam  reset_seed = 32'h9e3779b9;
    
    // Stub signals
    reg  [31:0] state$d;
    wire  [31:0] state$q;
    reg  state$clock;
    
    // Local signals
    reg  [31:0] s1;
    reg  [31:0] x1;
    reg  [31:0] s2;
    reg  [31:0] x2;
    reg  [31:0] s3;
    reg  [31:0] masked;
    
    // Sub module instances
    pft_injector$ri$state state(
        .d(state$d),
        .q(state$q),
        .clock(state$clock)
    );
    
    // Update code
    always @(*) begin
        state$clock = clock;
        state$d = state$q;
        s1 = state$q << 32'hd;
        x1 = state$q ^ s1;
        s2 = x1 >> 32'h11;
        x2 = x1 ^ s2;
        s3 = x2 << 32'h5;
        state$d = x2 ^ s3;
        if (reseed) begin
            state$d = seed;
        end
        if (reset) begin
            state$d = reset_seed;
        end
        masked = state$q & mask;
        ok = ~level_ovf & (masked >= level);
        r = state$q;
    end
    
endmodule // pft_injector$ri


module pft_injector$ri$state(d,q,clock);
    
    // Module arguments
    input wire  [31:0] d;
    output reg  [31:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 32'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // pft_injector$ri$state


module pft_injector$shifter(c,left,distance,zero,spill_mask,k,level,level_ovf);
    
    // Module arguments
    input wire  [15:0] c;
    input wire  left;
    input wire  [4:0] distance;
    input wire  zero;
    input wire  [15:0] spill_mask;
    input wire  [15:0] k;
    output reg  [31:0] level;
    output reg  level_ovf;
    
    // Local signals
    reg  [31:0] c32;
    reg  [31:0] barrel;
    reg  [31:0] shifted;
    reg  [15:0] spill;
    reg  [15:0] lo16;
    reg  [15:0] hi16;
    reg  [16:0] lo17;
    reg  carry;
    
    // Update code
    always @(*) begin
        c32 = ((c) & 32'hffffffff);
        barrel = c32 << distance;
        if (left) begin
            shifted = barrel;
        end
        else if (zero) begin
            shifted = 32'h0;
        end
        else begin
            shifted = barrel >> 32'h10;
        end
        spill = c & spill_mask;
        level = shifted + ((k) & 32'hffffffff);
        lo16 = shifted[(32'h0)+:(16)];
        hi16 = shifted[(32'h10)+:(16)];
        lo17 = ((lo16) & 17'h1ffff) + ((k) & 17'h1ffff);
        carry = lo17[32'h10] & &hi16;
        level_ovf = |spill | carry;
    end
    
endmodule // pft_injector$shifter
