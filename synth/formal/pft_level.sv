// level_is_f: the design's level equals the spec's f(c), for every c, m, n and k.
//
// Spec section 3: f(c) = ((c << m) >> n) + k computed without losing the bits shifted out on
// the left, i.e. floor(c * 2^m / 2^n) + k, with 16-bit c, 5-bit m and n, 16-bit k, unsigned.
// c < 2^16 and m <= 31, so 48 bits hold f(c) exactly; it is computed that way below.
//
// The design never builds that 48-bit value (docs/behaviour.md, Throttling): SHAPE is decoded
// when written (module pft_injector$csr$decode) and a single barrel shifter plus an adder
// (module pft_injector$shifter) give a 32-bit `level` and a flag `level_ovf`. The property:
//
//   level_ovf == (f(c) >= 2^32)                  the flag means exactly "too big for 32 bits"
//   level_ovf || level == f(c)                   otherwise level is f(c) itself
//
// This is combinational: all four inputs are free, so one SMT query covers all 2^42 input
// combinations (no depth, nothing to assume). It is the exhaustive version of the RTL test
// `shifter_is_exact_for_every_m_n` (which samples c and k). The same check proves the decoded
// RI mask for every SHAPE.r_width. The property shape_decoded in
// pft_props.sv shows that the running design always feeds the shifter decode(m, n) of its
// stored m and n, so together they prove level = f(c) in every reachable state; the FI and
// RI properties rely on that.
//
// Observes: the two sub-modules of the export, instantiated directly (not the whole block).
// The inputs are as wide as their register fields in the generated package pft_regs_pkg
// (hdl/generated/pft_regs_pkg.sv; c as STATUS.c), which run.sh reads first.

`default_nettype none

module pft_level_formal (
    input wire [pft_regs_pkg::PFT_STATUS_C_WIDTH-1:0]       c,
    input wire [pft_regs_pkg::PFT_SHAPE_M_WIDTH-1:0]        m,
    input wire [pft_regs_pkg::PFT_SHAPE_N_WIDTH-1:0]        n,
    input wire [pft_regs_pkg::PFT_K_WIDTH-1:0]              k,
    input wire [pft_regs_pkg::PFT_SHAPE_R_WIDTH_WIDTH-1:0]  r_width
);
    wire        left;
    wire [4:0]  distance;
    wire [15:0] spill_mask;
    wire [31:0] r_mask;
    pft_injector$csr$decode decode (
        .m(m), .n(n), .r_width(r_width), .left(left), .distance(distance),
        .spill_mask(spill_mask), .r_mask(r_mask)
    );

    wire [31:0] level;
    wire        level_ovf;
    pft_injector$shifter shifter (
        .c(c), .left(left), .distance(distance), .spill_mask(spill_mask), .k(k),
        .level(level), .level_ovf(level_ovf)
    );

    wire [47:0] f_shl = {32'd0, c} << m;
    wire [47:0] f     = (f_shl >> n) + {32'd0, k};

    always @* begin
        assert (level_ovf == (f[47:32] != 16'd0));
        assert (level_ovf || level == f[31:0]);
        // the RI mask: the low r_width bits of r, all 32 for 0 and widths above 32 (r is the
        // generator's state, as wide as SEED)
        assert (r_mask == ((r_width == 0 || r_width >= pft_regs_pkg::PFT_SEED_WIDTH)
                           ? 32'hffffffff : (32'd1 << r_width) - 32'd1));
    end
endmodule

`default_nettype wire
