// A 16 x 16 torus of sideband_node: random full-buffer counts and deliveries at every node
// for 40 gathers; at every gather's start each node's snapshot must be the exact global sum
// of the values sampled one gather earlier (full buffers at the sample, flits delivered in
// the g cycles before it, modulo 2^13), the same at all 256 nodes, and snap_valid must be
// set there and only there. Prints "PASS ..." or "FAIL ..." (synth/sideband/run.sh runs it:
// iverilog -g2005, vvp).
`timescale 1ns / 1ps
module tb_sideband_torus;
    localparam K = 16, N = K * K, W = 25, G = 2 * K, GATHERS = 40;
    reg clock = 0, reset = 1;
    reg [4*N-1:0] local_full;
    reg [N-1:0]   deliver;
    wire [W-1:0]  xp [0:N-1], xm [0:N-1], yp [0:N-1], ym [0:N-1];
    wire [N-1:0]  valid;
    wire [15:0]   sfull [0:N-1];
    wire [23:0]   sflits [0:N-1];

    genvar gx, gy;
    generate
        for (gy = 0; gy < K; gy = gy + 1) begin : row
            for (gx = 0; gx < K; gx = gx + 1) begin : col
                localparam I  = gy * K + gx;
                localparam XM = gy * K + (gx + K - 1) % K, XP = gy * K + (gx + 1) % K;
                localparam YM = ((gy + K - 1) % K) * K + gx, YP = ((gy + 1) % K) * K + gx;
                sideband_node #(.K(K)) node (
                    .clock(clock), .reset(reset),
                    .local_full(local_full[4*I +: 4]), .deliver(deliver[I]),
                    .x_in_m(xp[XM]), .x_in_p(xm[XP]), .y_in_m(yp[YM]), .y_in_p(ym[YP]),
                    .x_out_p(xp[I]), .x_out_m(xm[I]), .y_out_p(yp[I]), .y_out_m(ym[I]),
                    .snap_valid(valid[I]), .snap_full(sfull[I]), .snap_flits(sflits[I]));
            end
        end
    endgenerate

    integer cyc, i, errors, checked, want_full, want_flits, win_flits, sampled;
    integer seed;
    always #5 clock = ~clock;

    initial begin
        errors = 0; checked = 0; seed = 3; sampled = 0; win_flits = 0;
        want_full = 0; want_flits = 0;
        local_full = 0; deliver = 0;
        @(negedge clock); @(negedge clock);
        reset = 0;
        for (cyc = 0; cyc < G * GATHERS; cyc = cyc + 1) begin
            // inputs of this cycle (changed at the falling edge)
            for (i = 0; i < N; i = i + 1) begin
                local_full[4*i +: 4] = ($unsigned($random(seed)) % 13);
                deliver[i] = ($unsigned($random(seed)) % 4) != 0;
            end
            #1;
            if (cyc % G == 0) begin
                // a gather's start: the snapshot of the previous sample is due
                for (i = 0; i < N; i = i + 1) begin
                    if (valid[i] !== (sampled != 0)) begin
                        if (errors < 10) $display("FAIL cycle %0d node %0d: snap_valid %b", cyc, i, valid[i]);
                        errors = errors + 1;
                    end
                    if (sampled && (sfull[i] !== want_full || sflits[i] !== (want_flits % 8192))) begin
                        if (errors < 10) $display("FAIL cycle %0d node %0d: full %0d flits %0d, want %0d %0d",
                                                  cyc, i, sfull[i], sflits[i], want_full, want_flits % 8192);
                        errors = errors + 1;
                    end
                end
                if (sampled) checked = checked + 1;
                // this cycle's sample: full buffers now, flits of the cycles since the last one
                want_full = 0;
                for (i = 0; i < N; i = i + 1) want_full = want_full + local_full[4*i +: 4];
                want_flits = win_flits;
                win_flits = 0;
                sampled = 1;
            end else begin
                for (i = 0; i < N; i = i + 1) begin
                    if (valid[i] !== 1'b0) begin
                        if (errors < 10) $display("FAIL cycle %0d node %0d: snap_valid between gathers", cyc, i);
                        errors = errors + 1;
                    end
                end
            end
            for (i = 0; i < N; i = i + 1) win_flits = win_flits + deliver[i];
            @(negedge clock);
        end
        if (errors == 0 && checked == GATHERS - 1)
            $display("PASS: %0d gathers, %0d nodes, every snapshot exact at every node", checked, N);
        else
            $display("FAIL: %0d errors, %0d gathers checked", errors, checked);
        $finish;
    end
endmodule
