// Properties of the exported pft_axis (synth/out/pft_axis.v, 64-bit data), checked by
// synth/formal/axis/run.sh with Yosys and yosys-smtbmc (BMC from reset). The environment
// is assumed to follow the protocols (a source holds valid and payload until ready; the
// AXI4-Lite master holds AW/W/AR until accepted); everything else is free, credits and
// register values included. Asserted:
//   stream_hold     m_axis_tvalid stays high until accepted; tdata/tkeep/tlast/tuser
//                   stable while stalled
//   stream_beats    beats accepted - beats delivered = m_axis_tvalid (0 or 1): no beat
//                   created or lost; the presented beat is the last one accepted
//                   (data, keep, last, user): none reordered or changed
//   no_gap_gating   inside a packet (a beat without tlast accepted) the throttle never
//                   holds a beat back (throttled low)
//   pause_heads     under pause no packet starts (no first beat accepted)
//   axil_one_resp   at most one write and one read outstanding; bvalid/rvalid only with
//                   one outstanding; responses held (with their data) until ready
module pft_axis_props (
    input wire clk,
    input wire rst,
    input wire [63:0] s_axis_tdata,
    input wire [7:0] s_axis_tkeep,
    input wire s_axis_tvalid,
    input wire s_axis_tlast,
    input wire s_axis_tuser,
    input wire m_axis_tready,
    input wire [7:0] s_axil_awaddr,
    input wire [2:0] s_axil_awprot,
    input wire s_axil_awvalid,
    input wire [31:0] s_axil_wdata,
    input wire [3:0] s_axil_wstrb,
    input wire s_axil_wvalid,
    input wire s_axil_bready,
    input wire [7:0] s_axil_araddr,
    input wire [2:0] s_axil_arprot,
    input wire s_axil_arvalid,
    input wire s_axil_rready,
    input wire [7:0] credit_return,
    input wire pause
);
    wire s_axis_tready, m_axis_tvalid, m_axis_tlast, m_axis_tuser;
    wire [63:0] m_axis_tdata;
    wire [7:0] m_axis_tkeep;
    wire s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
    wire [1:0] s_axil_bresp, s_axil_rresp;
    wire [31:0] s_axil_rdata;
    wire congested, throttled;
    wire [15:0] used_credits;

    pft_axis dut (.*);

    reg init = 1;
    always @(posedge clk) init <= 0;

    // ---- environment ----
    always @(*) if (init) assume (rst);
    always @(posedge clk) if (!init && !$past(rst) && !rst) begin
        if ($past(s_axis_tvalid && !s_axis_tready)) begin
            assume (s_axis_tvalid);
            assume (s_axis_tdata == $past(s_axis_tdata) && s_axis_tkeep == $past(s_axis_tkeep)
                    && s_axis_tlast == $past(s_axis_tlast) && s_axis_tuser == $past(s_axis_tuser));
        end
        if ($past(s_axil_awvalid && !s_axil_awready))
            assume (s_axil_awvalid && s_axil_awaddr == $past(s_axil_awaddr));
        if ($past(s_axil_wvalid && !s_axil_wready))
            assume (s_axil_wvalid && s_axil_wdata == $past(s_axil_wdata)
                    && s_axil_wstrb == $past(s_axil_wstrb));
        if ($past(s_axil_arvalid && !s_axil_arready))
            assume (s_axil_arvalid && s_axil_araddr == $past(s_axil_araddr));
    end

    // ---- shadow state ----
    reg [1:0] inside;          // beats accepted and not delivered
    reg [63:0] e_data; reg [7:0] e_keep; reg e_last, e_user;
    reg in_pkt;                // a packet started at the input
    reg [1:0] w_out, r_out;    // outstanding AXI4-Lite requests
    wire acc = s_axis_tvalid && s_axis_tready;
    wire del = m_axis_tvalid && m_axis_tready;
    always @(posedge clk) begin
        if (rst) begin
            inside <= 0; in_pkt <= 0; w_out <= 0; r_out <= 0;
        end else begin
            inside <= inside + acc - del;
            if (acc) begin
                e_data <= s_axis_tdata; e_keep <= s_axis_tkeep;
                e_last <= s_axis_tlast; e_user <= s_axis_tuser;
                in_pkt <= !s_axis_tlast;
            end
            w_out <= w_out + (s_axil_awvalid && s_axil_awready) - (s_axil_bvalid && s_axil_bready);
            r_out <= r_out + (s_axil_arvalid && s_axil_arready) - (s_axil_rvalid && s_axil_rready);
        end
    end

    // ---- properties ----
    always @(posedge clk) if (!init && !$past(rst) && !rst) begin
`ifdef P_STREAM_HOLD
        if ($past(m_axis_tvalid && !m_axis_tready)) begin
            assert (m_axis_tvalid);
            assert (m_axis_tdata == $past(m_axis_tdata) && m_axis_tkeep == $past(m_axis_tkeep)
                    && m_axis_tlast == $past(m_axis_tlast) && m_axis_tuser == $past(m_axis_tuser));
        end
`endif
`ifdef P_AXIL_ONE_RESP
        if ($past(s_axil_bvalid && !s_axil_bready))
            assert (s_axil_bvalid && s_axil_bresp == $past(s_axil_bresp));
        if ($past(s_axil_rvalid && !s_axil_rready))
            assert (s_axil_rvalid && s_axil_rresp == $past(s_axil_rresp)
                    && s_axil_rdata == $past(s_axil_rdata));
`endif
    end
    always @(*) if (!init && !rst) begin
`ifdef P_STREAM_BEATS
        assert (inside == m_axis_tvalid);
        if (m_axis_tvalid)
            assert (m_axis_tdata == e_data && m_axis_tkeep == e_keep && m_axis_tlast == e_last
                    && m_axis_tuser == e_user);
`endif
`ifdef P_NO_GAP_GATING
        if (in_pkt) assert (!throttled);
`endif
`ifdef P_PAUSE_HEADS
        if (pause && !in_pkt) assert (!s_axis_tready);
`endif
`ifdef P_AXIL_ONE_RESP
        assert (w_out <= 1 && r_out <= 1);
        assert (s_axil_bvalid == (w_out == 1) || (w_out == 1 && !s_axil_bvalid));
        if (s_axil_bvalid) assert (w_out == 1);
        if (s_axil_rvalid) assert (r_out == 1);
        if (s_axil_awready) assert (s_axil_wready && w_out == 0);
        if (s_axil_arready) assert (r_out == 0);
`endif
    end
endmodule
