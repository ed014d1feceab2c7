`timescale 1ns / 1ps
// sideband_node: one node's share of the side-band gather of seed 003 (Thottethodi, Lebeck
// and Mukherjee), for a k-ary 2-cube with full-duplex side-band links of h = 2 cycles per
// hop. A cost model for docs/hardware.md, written by hand (it is not part of the rust-hdl
// design); tb_sideband_torus.v checks on a 16 x 16 torus that every node receives the same,
// exact global sums.
//
// Dimension-wise aggregation (the seed's Fig. 2): at a gather's start every node sends its
// value (full buffers, flits delivered in the last g cycles) both ways along dimension 0
// (X); every hop (2 cycles) each node adds what arrives from both sides and forwards it
// onwards, for k/2 hops on one side and k/2 - 1 on the other, so every node has its row's
// sum after k/2 hops (phase I). Phase II does the same with the row sums along dimension 1
// (Y): every node then has the global sum. g = (k/2) * h * n = 2k cycles (32 for k = 16);
// the sum of the values sampled at one gather's start arrives at the next one's, g cycles
// later, as `snap_valid` with `snap_full`, `snap_flits` (the throttle's snapshot ports).
//
// Link word: {full count (CW bits), flits (FW bits)}, 12 + 13 = 25 bits (the seed's widths
// for 3,072 buffers and 256 nodes; 13 bits hold 8,191 flits, one less than the seed's
// maximum of 32 * 256 = 8,192, reached only if every node delivers a flit in every cycle
// of a gather: the flit field then wraps to 0). The two fields are added separately.
//
// The registers: out_p/out_m drive the + and - ports of both dimensions (a neighbour only
// listens in its dimension's phase), in_m_q/in_p_q hold what arrived (from the current
// phase's dimension), acc the running sum. All nodes share the clock and the reset, so
// their gather counters agree.
module sideband_node #(
    parameter K   = 16,  // nodes per ring (even)
    parameter CW  = 12,  // full-count field of the link word
    parameter FW  = 13,  // flit field of the link word
    parameter LCW = 4,   // this node's full buffers (0..12 for 4 ports x 3 VCs)
    parameter LFW = 6    // this node's flits delivered in one gather (0..g)
) (
    input  wire                 clock,
    input  wire                 reset,       // synchronous; the next cycle starts a gather
    input  wire [LCW-1:0]       local_full,  // this node's full buffers (sampled at a gather's start)
    input  wire                 deliver,     // a flit delivered at this node this cycle
    input  wire [CW+FW-1:0]     x_in_m,      // from the X- neighbour's x_out_p
    input  wire [CW+FW-1:0]     x_in_p,      // from the X+ neighbour's x_out_m
    input  wire [CW+FW-1:0]     y_in_m,
    input  wire [CW+FW-1:0]     y_in_p,
    output wire [CW+FW-1:0]     x_out_p,
    output wire [CW+FW-1:0]     x_out_m,
    output wire [CW+FW-1:0]     y_out_p,
    output wire [CW+FW-1:0]     y_out_m,
    output wire                 snap_valid,  // the global snapshot, once per gather
    output wire [15:0]          snap_full,
    output wire [23:0]          snap_flits
);
    localparam W  = CW + FW;
    localparam G  = 2 * K;       // gather duration: (K/2) hops * 2 cycles * 2 dimensions
    localparam CB = $clog2(G);

    reg [CB-1:0]  cnt;           // cycle within the gather
    reg           started;       // a gather has begun since reset (a snapshot is due)
    reg [W-1:0]   out_p, out_m;  // the words on the + and - ports
    reg [W-1:0]   in_m_q, in_p_q;// what arrived from the - and + neighbours
    reg [W-1:0]   acc;           // the running sum of the phase
    reg [LFW-1:0] flits_local;   // flits delivered here since the gather's start

    wire            boundary = ~cnt[0];          // a hop ends every 2 cycles
    wire [CB-3:0]   hop      = cnt[CB-2:1];      // hop within the phase (0..K/2-1)
    wire            phase    = cnt[CB-1];        // 0: X (phase I), 1: Y (phase II)
    wire            first    = (hop == 0);
    // At a phase's first hop, the last hop of the previous phase arrives, from - only.
    wire [W-1:0]    from_p   = first ? {W{1'b0}} : in_p_q;
    wire [CW-1:0]   sum_c    = acc[W-1:FW] + in_m_q[W-1:FW] + from_p[W-1:FW];
    wire [FW-1:0]   sum_f    = acc[FW-1:0] + in_m_q[FW-1:0] + from_p[FW-1:0];
    wire [W-1:0]    sum      = {sum_c, sum_f};
    wire [W-1:0]    own      = {{(CW-LCW){1'b0}}, local_full, {(FW-LFW){1'b0}}, flits_local};

    always @(posedge clock) begin
        flits_local <= flits_local + {{(LFW-1){1'b0}}, deliver};
        if (!boundary) begin
            // A word arrives: from the dimension of this phase.
            in_m_q <= phase ? y_in_m : x_in_m;
            in_p_q <= phase ? y_in_p : x_in_p;
        end else if (!first) begin
            // A hop: add both sides, forward each onwards.
            acc   <= sum;
            out_p <= in_m_q;
            out_m <= in_p_q;
        end else if (phase) begin
            // Phase II starts: the row's sum goes both ways along Y.
            acc   <= sum;
            out_p <= sum;
            out_m <= sum;
        end else begin
            // A gather starts: the snapshot is out (snap_*); send this node's values.
            acc         <= own;
            out_p       <= own;
            out_m       <= own;
            flits_local <= {{(LFW-1){1'b0}}, deliver};
            started     <= 1'b1;
        end
        cnt <= cnt + 1'b1;
        if (reset) begin
            cnt         <= {CB{1'b0}};
            started     <= 1'b0;
            flits_local <= {LFW{1'b0}};
        end
    end

    assign x_out_p    = out_p;
    assign y_out_p    = out_p;
    assign x_out_m    = out_m;
    assign y_out_m    = out_m;
    assign snap_valid = started & boundary & first & ~phase;
    assign snap_full  = {{(16-CW){1'b0}}, sum_c};
    assign snap_flits = {{(24-FW){1'b0}}, sum_f};
endmodule
