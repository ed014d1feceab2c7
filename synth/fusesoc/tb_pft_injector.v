// Smoke test of the exported block for FuseSoC's `sim` target (Icarus): reset, configure
// through the CSR bus, check a register read-back, the credit count and an FT-FI gap.
// Prints "PASS" and ends with $finish, or "FAIL ..." and ends with $fatal.
// The module under test is `PFT_DUT` (default pft_injector; the pipelined core sets
// pft_injector_pipelined, whose FI interval is the same once f(c) stands still).
// Register addresses and layouts come from the generated map (hdl/generated/pft_regs.vh).
`timescale 1ns / 1ps
`include "pft_regs.vh"
`ifndef PFT_DUT
`define PFT_DUT pft_injector
`endif
module tb_pft_injector;
    reg clock = 0, reset = 1, flit_valid = 0, flit_head = 1, csr_we = 0;
    reg [7:0] credit_return = 0;
    reg [`PFT_ADDR_BITS-1:0] csr_addr = 0;
    reg [31:0] csr_wdata = 0;
    wire send, congested, throttled;
    wire [15:0] used_credits;
    wire [31:0] csr_rdata;
    integer t, sent, last, gaps_bad;
    reg prev;

    `PFT_DUT dut(.clock(clock), .reset(reset), .flit_valid(flit_valid),
        .flit_head(flit_head), .credit_return(credit_return), .csr_we(csr_we),
        .csr_addr(csr_addr), .csr_wdata(csr_wdata), .send(send), .congested(congested),
        .used_credits(used_credits), .throttled(throttled), .csr_rdata(csr_rdata));

    always #5 clock = ~clock;

    task write(input [`PFT_ADDR_BITS-1:0] a, input [31:0] d);
        begin
            @(negedge clock) begin csr_we = 1; csr_addr = a; csr_wdata = d; end
            @(negedge clock) csr_we = 0;
        end
    endtask

    initial begin
        @(negedge clock) reset = 0;
        // TH_ENTER = 0 (Congested from c = 1), TH_ESCAPE = 0, SHAPE m = 0, n = 16: f(c) = k = 3
        write(`PFT_TH_ENTER_ADDR, 0);
        write(`PFT_TH_ESCAPE_ADDR, 0);
        write(`PFT_SHAPE_ADDR, (32 << `PFT_SHAPE_R_WIDTH_OFFSET) | (16 << `PFT_SHAPE_N_OFFSET)
                               | (0 << `PFT_SHAPE_M_OFFSET));
        write(`PFT_K_ADDR, 3);
        csr_addr = `PFT_K_ADDR;
        #1 if (csr_rdata !== 32'd3) $fatal(1, "FAIL K read back %0d", csr_rdata);
        write(`PFT_CTRL_ADDR, 1 << `PFT_CTRL_ENABLE_OFFSET); // CTRL: enabled, FT, FI
        // every flit's credit returns in the next cycle: c stays at 0 or 1
        sent = 0; last = -100; gaps_bad = 0; prev = 0;
        flit_valid = 1;
        // each cycle (from a falling edge): the previous cycle's flit's credit comes back
        for (t = 0; t < 400; t = t + 1) begin
            credit_return = prev;
            #1;
            if (send) begin
                // once Congested, one flit every 1 + f(c) = 4 cycles
                if (t > 8 && t - last != 4) gaps_bad = gaps_bad + 1;
                last = t;
                sent = sent + 1;
            end
            prev = send;
            @(negedge clock);
        end
        flit_valid = 0;
        credit_return = prev;
        if (gaps_bad != 0) $fatal(1, "FAIL %0d gaps differ from 4 cycles", gaps_bad);
        if (sent < 95 || sent > 105) $fatal(1, "FAIL %0d flits in 400 cycles, want about 100", sent);
        csr_addr = `PFT_CNT_SENT_ADDR;
        #1 if (csr_rdata !== sent) $fatal(1, "FAIL CNT_SENT %0d, sent %0d", csr_rdata, sent);
        $display("PASS: %0d flits in 400 cycles, FI interval 4", sent);
        $finish;
    end
endmodule
