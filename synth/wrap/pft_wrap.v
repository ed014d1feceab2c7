`ifndef PFT_DUT
`define PFT_DUT pft_injector
`endif
// Place-and-route wrapper for families whose nextpnr wants every IO on a pin: the block's
// 48 input bits (the clock aside) come from a 71-bit shift register fed by one pin, its 51
// output bits and the register's other 23 are XOR-reduced into a register driving one pin. Every block path starts and ends at a
// flip-flop, as in a NIC.
module pft_wrap(input wire clk, input wire sin, output reg sout);
    reg [70:0] sh;
    always @(posedge clk) sh <= {sh[69:0], sin};
    wire send, congested, throttled;
    wire [15:0] used_credits;
    wire [31:0] csr_rdata;
    `PFT_DUT u(.clock(clk), .reset(sh[0]), .flit_valid(sh[1]), .flit_head(sh[2]),
        .credit_return(sh[10:3]), .csr_we(sh[11]), .csr_addr(sh[15:12]),
        .csr_wdata(sh[47:16]), .send(send), .congested(congested),
        .used_credits(used_credits), .throttled(throttled), .csr_rdata(csr_rdata));
    always @(posedge clk) sout <= ^{send, congested, throttled, used_credits, csr_rdata, sh[70:48]};
endmodule
