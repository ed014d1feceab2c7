// Place-and-route wrapper of pft_axis: its ports (285 bits at 64-bit data, 1,293 at 512)
// are more than an HX8K ct256 or an LFE5U-25F CABGA256 has pins, so the wrapper feeds every
// input but `rst` (its own pin) from a shift register on one pin and registers every output,
// folded by XOR into one pin (no logic is pruned). Both sides are registered: the paths into
// and out of pft_axis are register to register, like inside a NIC, but the reset's.
// D and U must match the export (pft-verilog --design pft_axis --data-width D --user-width U).
// Used by synth/axis/synth.sh (Fmax of pft_axis and, with BARE defined, of pft_injector in
// the same kind of wrapper) and by the FuseSoC core's synth targets (synth/pft_axis.core).
// The wrapper's own cells are not in the LUT/FF columns: those come from Yosys on the
// design alone.
module pft_axis_wrap #(parameter D = 64, parameter U = 1) (
    input wire clk,
    input wire rst,
    input wire din,
    output reg dout
);
`ifdef BARE
    localparam NI = 1 + 1 + 8 + 1 + 4 + 32;                 // flit_valid, flit_head, credit_return, csr_we, csr_addr, csr_wdata
    localparam NO = 1 + 1 + 16 + 1 + 32;                    // send, congested, used_credits, throttled, csr_rdata
`else
    localparam NI = D + D / 8 + 2 + U + 1 + 8 + 3 + 1 + 32 + 4 + 1 + 1 + 8 + 3 + 1 + 1 + 8 + 1;
    localparam NO = 1 + D + D / 8 + 2 + U + 1 + 1 + 2 + 1 + 1 + 32 + 2 + 1 + 1 + 1 + 16;
`endif
    reg [NI-1:0] in_q = 0;
    reg [NO-1:0] out_q = 0;
    wire [NO-1:0] out_w;
    always @(posedge clk) begin
        in_q <= {in_q[NI-2:0], din};
        out_q <= out_w;
        dout <= ^out_q;
    end
`ifdef BARE
    pft_injector dut(.clock(clk), .reset(rst),
        .flit_valid(in_q[0]), .flit_head(in_q[1]), .credit_return(in_q[9:2]),
        .csr_we(in_q[10]), .csr_addr(in_q[14:11]), .csr_wdata(in_q[46:15]),
        .send(out_w[0]), .congested(out_w[1]), .used_credits(out_w[17:2]),
        .throttled(out_w[18]), .csr_rdata(out_w[50:19]));
`else
    localparam K = D / 8;
    // input slices, in port order
    localparam I_TDATA = 0, I_TKEEP = I_TDATA + D, I_TVALID = I_TKEEP + K,
               I_TLAST = I_TVALID + 1, I_TUSER = I_TLAST + 1, I_MREADY = I_TUSER + U,
               I_AWADDR = I_MREADY + 1, I_AWPROT = I_AWADDR + 8, I_AWVALID = I_AWPROT + 3,
               I_WDATA = I_AWVALID + 1, I_WSTRB = I_WDATA + 32, I_WVALID = I_WSTRB + 4,
               I_BREADY = I_WVALID + 1, I_ARADDR = I_BREADY + 1, I_ARPROT = I_ARADDR + 8,
               I_ARVALID = I_ARPROT + 3, I_RREADY = I_ARVALID + 1, I_CREDIT = I_RREADY + 1,
               I_PAUSE = I_CREDIT + 8;
    // output slices
    localparam O_TREADY = 0, O_TDATA = 1, O_TKEEP = O_TDATA + D, O_TVALID = O_TKEEP + K,
               O_TLAST = O_TVALID + 1, O_TUSER = O_TLAST + 1, O_AWREADY = O_TUSER + U,
               O_WREADY = O_AWREADY + 1, O_BRESP = O_WREADY + 1, O_BVALID = O_BRESP + 2,
               O_ARREADY = O_BVALID + 1, O_RDATA = O_ARREADY + 1, O_RRESP = O_RDATA + 32,
               O_RVALID = O_RRESP + 2, O_CONG = O_RVALID + 1, O_THR = O_CONG + 1,
               O_USED = O_THR + 1;
    pft_axis dut(.clk(clk), .rst(rst),
        .s_axis_tdata(in_q[I_TDATA +: D]), .s_axis_tkeep(in_q[I_TKEEP +: K]),
        .s_axis_tvalid(in_q[I_TVALID]), .s_axis_tready(out_w[O_TREADY]),
        .s_axis_tlast(in_q[I_TLAST]), .s_axis_tuser(in_q[I_TUSER +: U]),
        .m_axis_tdata(out_w[O_TDATA +: D]), .m_axis_tkeep(out_w[O_TKEEP +: K]),
        .m_axis_tvalid(out_w[O_TVALID]), .m_axis_tready(in_q[I_MREADY]),
        .m_axis_tlast(out_w[O_TLAST]), .m_axis_tuser(out_w[O_TUSER +: U]),
        .s_axil_awaddr(in_q[I_AWADDR +: 8]), .s_axil_awprot(in_q[I_AWPROT +: 3]),
        .s_axil_awvalid(in_q[I_AWVALID]), .s_axil_awready(out_w[O_AWREADY]),
        .s_axil_wdata(in_q[I_WDATA +: 32]), .s_axil_wstrb(in_q[I_WSTRB +: 4]),
        .s_axil_wvalid(in_q[I_WVALID]), .s_axil_wready(out_w[O_WREADY]),
        .s_axil_bresp(out_w[O_BRESP +: 2]), .s_axil_bvalid(out_w[O_BVALID]),
        .s_axil_bready(in_q[I_BREADY]), .s_axil_araddr(in_q[I_ARADDR +: 8]),
        .s_axil_arprot(in_q[I_ARPROT +: 3]), .s_axil_arvalid(in_q[I_ARVALID]),
        .s_axil_arready(out_w[O_ARREADY]), .s_axil_rdata(out_w[O_RDATA +: 32]),
        .s_axil_rresp(out_w[O_RRESP +: 2]), .s_axil_rvalid(out_w[O_RVALID]),
        .s_axil_rready(in_q[I_RREADY]), .credit_return(in_q[I_CREDIT +: 8]),
        .pause(in_q[I_PAUSE]), .congested(out_w[O_CONG]), .throttled(out_w[O_THR]),
        .used_credits(out_w[O_USED +: 16]));
`endif
endmodule
