// Smoke test of the exported pft_axis (AXI-Stream + AXI4-Lite IP) for FuseSoC's `sim`
// target (Icarus): reset; the register-block header and SLVERR through AXI4-Lite; CTRL set
// to FT-FI with f(c) = k = 3 and TH_ENTER = 0; then 40 single-beat frames and one 3-beat
// frame through the stream with every credit back after one cycle: each beat leaves
// m_axis unchanged and in order, heads are one every 1 + f(c) = 4 cycles once Congested,
// and the 3-beat frame's beats follow each other without a gap. The full checks are the
// cocotb testbench (tb/cocotb/test_pft_axis.py). Prints "PASS" and ends with $finish, or
// "FAIL ..." and ends with $fatal. Addresses come from the generated map (pft_regs.vh).
`timescale 1ns / 1ps
`include "pft_regs.vh"
module tb_pft_axis;
    reg clk = 0, rst = 1;
    reg [63:0] s_tdata = 0;
    reg [7:0] s_tkeep = 8'hff;
    reg s_tvalid = 0, s_tlast = 0, s_tuser = 0, m_tready = 1, pause = 0;
    wire s_tready, m_tvalid, m_tlast, m_tuser;
    wire [63:0] m_tdata;
    wire [7:0] m_tkeep;
    reg [7:0] awaddr = 0, araddr = 0;
    reg awvalid = 0, wvalid = 0, bready = 0, arvalid = 0, rready = 0;
    reg [31:0] wdata = 0;
    reg [3:0] wstrb = 0;
    wire awready, wready, bvalid, arready, rvalid;
    wire [1:0] bresp, rresp;
    wire [31:0] rdata;
    reg [7:0] credit_return = 0;
    wire congested, throttled;
    wire [15:0] used_credits;
    reg [31:0] got;
    reg [1:0] resp;
    integer t, beats_in, beats_out, last_head, gaps_bad, errors;
    reg prev_send;

    pft_axis dut(.clk(clk), .rst(rst),
        .s_axis_tdata(s_tdata), .s_axis_tkeep(s_tkeep), .s_axis_tvalid(s_tvalid),
        .s_axis_tready(s_tready), .s_axis_tlast(s_tlast), .s_axis_tuser(s_tuser),
        .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tvalid(m_tvalid),
        .m_axis_tready(m_tready), .m_axis_tlast(m_tlast), .m_axis_tuser(m_tuser),
        .s_axil_awaddr(awaddr), .s_axil_awprot(3'b0), .s_axil_awvalid(awvalid),
        .s_axil_awready(awready), .s_axil_wdata(wdata), .s_axil_wstrb(wstrb),
        .s_axil_wvalid(wvalid), .s_axil_wready(wready), .s_axil_bresp(bresp),
        .s_axil_bvalid(bvalid), .s_axil_bready(bready), .s_axil_araddr(araddr),
        .s_axil_arprot(3'b0), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
        .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid),
        .s_axil_rready(rready), .credit_return(credit_return), .pause(pause),
        .congested(congested), .throttled(throttled), .used_credits(used_credits));

    always #5 clk = ~clk;

    // AXI4-Lite write: AW and W together until both are taken, then the B response.
    task axil_write(input [7:0] a, input [31:0] d, output [1:0] r);
        begin
            @(negedge clk) begin awaddr = a; wdata = d; wstrb = 4'hf; awvalid = 1; wvalid = 1; end
            #1 while (!(awready && wready)) @(negedge clk) #1;
            @(negedge clk) begin awvalid = 0; wvalid = 0; bready = 1; end
            #1 while (!bvalid) @(negedge clk) #1;
            r = bresp;
            @(negedge clk) bready = 0;
        end
    endtask

    task axil_read(input [7:0] a, output [31:0] d, output [1:0] r);
        begin
            @(negedge clk) begin araddr = a; arvalid = 1; end
            #1 while (!arready) @(negedge clk) #1;
            @(negedge clk) begin arvalid = 0; rready = 1; end
            #1 while (!rvalid) @(negedge clk) #1;
            d = rdata; r = rresp;
            @(negedge clk) rready = 0;
        end
    endtask

    // The MAC side: every beat taken must be the next beat sent (data = its number).
    always @(posedge clk) if (!rst && m_tvalid && m_tready) begin
        if (m_tdata !== beats_out || m_tkeep !== 8'hff || m_tuser !== beats_out[0]
            || m_tlast !== (beats_out < 40 || beats_out == 42))
            errors = errors + 1;
        beats_out = beats_out + 1;
    end

    initial begin
        errors = 0; beats_in = 0; beats_out = 0;
        @(negedge clk) rst = 0;
        axil_read(`PFT_AXIL_RB_TYPE_OFFSET, got, resp);
        if (got !== `PFT_AXIL_RB_TYPE || resp !== 2'b00) $fatal(1, "FAIL RB_TYPE %h resp %0d", got, resp);
        axil_read(`PFT_AXIL_SPAN, got, resp);
        if (resp !== 2'b10) $fatal(1, "FAIL read at the span: resp %0d, want SLVERR", resp);
        // TH_ENTER = 0 (Congested from c = 1), TH_ESCAPE = 0, SHAPE m = 0, n = 16: f(c) = k = 3
        axil_write(`PFT_AXIL_TH_ENTER_OFFSET, 0, resp);
        axil_write(`PFT_AXIL_TH_ESCAPE_OFFSET, 0, resp);
        axil_write(`PFT_AXIL_SHAPE_OFFSET, (32 << `PFT_SHAPE_R_WIDTH_OFFSET)
                   | (16 << `PFT_SHAPE_N_OFFSET) | (0 << `PFT_SHAPE_M_OFFSET), resp);
        axil_write(`PFT_AXIL_K_OFFSET, 3, resp);
        axil_write(`PFT_AXIL_CTRL_OFFSET, 1 << `PFT_CTRL_ENABLE_OFFSET, resp);
        if (resp !== 2'b00) $fatal(1, "FAIL CTRL write resp %0d", resp);
        axil_read(`PFT_AXIL_CTRL_OFFSET, got, resp);
        if (got !== ((1 << `PFT_CTRL_ENABLE_OFFSET) | (1 << `PFT_CTRL_GATING_OFFSET)))
            $fatal(1, "FAIL CTRL reads %h, want enable and gating", got);
        // 40 single-beat frames, then one of 3 beats; each credit returns a cycle later
        last_head = -100; gaps_bad = 0; prev_send = 0;
        for (t = 0; t < 400 && beats_in < 43; t = t + 1) begin
            @(negedge clk);
            credit_return = prev_send;
            s_tvalid = 1; s_tdata = beats_in; s_tuser = beats_in[0];
            s_tlast = beats_in < 40 || beats_in == 42;
            #1;
            if (s_tready) begin
                // heads once Congested: one every 1 + f(c) = 4 cycles; inside the frame: none
                if (beats_in <= 40 && beats_in > 2 && t - last_head != 4) gaps_bad = gaps_bad + 1;
                if (beats_in > 40 && t - last_head != beats_in - 40) gaps_bad = gaps_bad + 1;
                if (beats_in <= 40) last_head = t;
                beats_in = beats_in + 1;
            end
            prev_send = s_tready;
        end
        @(negedge clk) begin s_tvalid = 0; credit_return = prev_send; end
        repeat (4) @(negedge clk) credit_return = 0;
        if (beats_in != 43 || beats_out != 43) $fatal(1, "FAIL %0d beats in, %0d out", beats_in, beats_out);
        if (errors != 0) $fatal(1, "FAIL %0d beats changed or out of order", errors);
        if (gaps_bad != 0) $fatal(1, "FAIL %0d gaps differ from the FI interval", gaps_bad);
        axil_read(`PFT_AXIL_CNT_SENT_OFFSET, got, resp);
        if (got !== 43) $fatal(1, "FAIL CNT_SENT %0d, want 43", got);
        $display("PASS: 43 beats through, heads every 4 cycles, the 3-beat frame without a gap");
        $finish;
    end
endmodule
