// iverilog replay of recorded vectors on the exported Verilog (same format as replay.cpp).
// iverilog -g2005 -o replay.vvp replay_tb.v pft_injector.v && vvp replay.vvp +vectors=FILE
// +first: stop after the first cycle that mismatches (a mutant test needs one, not all).
`timescale 1ns/1ps
// DUT: the module under test (iverilog -DDUT=name), any top with pft_injector's ports.
`ifndef DUT
`define DUT pft_injector
`endif
module replay_tb;
    // clock starts low: a declaration initialiser of 1 is a rising edge at time 0 in Icarus,
    // which would clock the DUT before its combinational logic has settled.
    reg clock = 0, reset = 0, flit_valid = 0, flit_head = 0, csr_we = 0;
    reg [7:0] credit_return = 0;
    reg [3:0] csr_addr = 0;
    reg [31:0] csr_wdata = 0;
    wire send, congested, throttled;
    wire [15:0] used_credits;
    wire [31:0] csr_rdata;
    `DUT dut(.clock(clock), .reset(reset), .flit_valid(flit_valid), .flit_head(flit_head),
        .credit_return(credit_return), .csr_we(csr_we), .csr_addr(csr_addr),
        .csr_wdata(csr_wdata), .send(send), .congested(congested), .used_credits(used_credits),
        .throttled(throttled), .csr_rdata(csr_rdata));
    integer fd, n, cycles, bad, first;
    reg [31:0] rst, fv, fh, cr, we, ad, wd, e_send, e_cong, e_thr, e_c, e_rd;
    reg [8*256-1:0] path;
    initial begin
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("usage: vvp replay.vvp +vectors=FILE");
            $finish_and_return(2);
        end
        fd = $fopen(path, "r");
        if (fd == 0) begin
            $display("cannot open vectors");
            $finish_and_return(2);
        end
        cycles = 0; bad = 0;
        first = $test$plusargs("first");
        #1;
        while (!$feof(fd) && !(first && bad != 0)) begin
            n = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h\n", rst, fv, fh, cr, we, ad, wd,
                        e_send, e_cong, e_thr, e_c, e_rd);
            if (n == 12) begin
                clock = 0; reset = rst[0]; flit_valid = fv[0]; flit_head = fh[0]; credit_return = cr[7:0];
                csr_we = we[0]; csr_addr = ad[3:0]; csr_wdata = wd;
                #5;
                if (send !== e_send[0] || congested !== e_cong[0] || throttled !== e_thr[0] ||
                    used_credits !== e_c[15:0] || csr_rdata !== e_rd) begin
                    if (bad < 10)
                        $display("cycle %0d: verilog send=%h c=%h rdata=%h | rust-hdl send=%h c=%h rdata=%h",
                                 cycles, send, used_credits, csr_rdata, e_send[0], e_c[15:0], e_rd);
                    bad = bad + 1;
                end
                clock = 1;
                #5;
                cycles = cycles + 1;
            end else if (n != -1) begin
                // skip a comment line
                n = $fgetc(fd);
                while (n != 10 && n != -1) n = $fgetc(fd);
            end
        end
        $display("cycles %0d mismatches %0d", cycles, bad);
        $finish_and_return(bad != 0);
    end
endmodule
