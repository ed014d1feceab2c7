#!/usr/bin/env python3
"""What each size change of the default build buys, measured one step at a time.

The default build was made smaller (docs/hardware.md, "Smaller by default") by seven
behaviour-preserving RTL changes. This script replays them as Verilog edits on the export of
the commit before them, cumulatively, and synthesizes every step with the same flow as
`make synth` (Yosys `synth_ice40`, nextpnr-ice40 HX8K ct256): one row per step with SB_LUT4,
flip-flops, SB_CARRY and Fmax per placer seed. The edits mirror the RTL changes; the last row of
the table in docs/hardware.md is the real export, measured by `make synth`.

    git worktree add /tmp/pft-old f713a69     # the commit before the changes
    (cd /tmp/pft-old && cargo run --release --bin pft-verilog -- /tmp/old.v)
    python3 synth/tools/size_steps.py /tmp/old.v --seeds 1,2,3,4

Each edit asserts that the text it replaces occurs exactly once, so it fails loudly on any
other input. Scratch files go to a temporary directory.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def rep(s, old, new):
    n = s.count(old)
    if n != 1:
        sys.exit(f"error: expected one occurrence, found {n}: {old[:70]!r}")
    return s.replace(old, new)


def module_span(s, name):
    i = s.index(f"module {name}(")
    return i, s.index("endmodule", i)


def compare_shared(s):
    """One 32-bit comparator for FI and RI, written as the carry out of level + !x."""
    s = rep(s, "    reg  throttle_ok;", "    reg  throttle_ok;\n    reg [31:0] operand;\n    reg [32:0] s33;")
    return rep(
        s,
        """        if (~fsm$congested) begin
            throttle_ok = 1'b1;
        end
        else if (csr$thr_ri) begin
            throttle_ok = ri$ok;
        end
        else begin
            throttle_ok = fi$ok;
        end""",
        """        operand = csr$thr_ri ? (ri$r & csr$r_mask) : {16'b0, fi$gap};
        s33 = {1'b0, shifter$level} + {1'b0, ~operand};
        throttle_ok = ~fsm$congested | (~shifter$level_ovf & ~s33[32]);""",
    )


def adder33(s):
    """level and its carry from one 33-bit adder."""
    return rep(
        s,
        """        lo16 = shifted[(32'h0)+:(16)];
        hi16 = shifted[(32'h10)+:(16)];
        lo17 = ((lo16) & 17'h1ffff) + ((k) & 17'h1ffff);
        carry = lo17[32'h10] & &hi16;""",
        """        {carry, level} = {1'b0, shifted} + {17'b0, k};""",
    )


def barrel_last_stage(s):
    """The barrel's last stage picks: upper half (right), up by 16, or as is; no zero flag."""
    s = rep(
        s,
        """            distance = d5 ^ 32'h10;
            zero = r6 > sixteen;""",
        """            distance = d5[4] ? {1'b0, d5[3:0]} : 5'd0;
            zero = 1'b0;""",
    )
    return rep(
        s,
        """        barrel = c32 << distance;
        if (left) begin
            shifted = barrel;
        end
        else if (zero) begin
            shifted = 32'h0;
        end
        else begin
            shifted = barrel >> 32'h10;
        end""",
        """        barrel = c32 << distance[3:0];
        if (~left) begin
            shifted = barrel >> 32'h10;
        end
        else if (distance[4]) begin
            shifted = barrel << 32'h10;
        end
        else begin
            shifted = barrel;
        end""",
    )


def at_detector(s):
    """Hit as the increment's carry in; window end from the two cases of win_tmp; the AT flip
    compare as the carry out of hit_inc + !tp + 1."""
    s = rep(
        s,
        """        if (hit_now) begin
            hit_inc = hit_count$q + 32'h1;
        end
        else begin
            hit_inc = hit_count$q;
        end""",
        """        hit_inc = hit_count$q + {15'b0, hit_now};""",
    )
    a, _ = module_span(s, "pft_injector$fsm")
    j = s.index("// Update code", a)
    s = s[:j] + "reg [16:0] ge17;\n    reg endw;\n    " + s[j:]
    s = rep(
        s,
        """        if (win_tmp == w) begin
            hit_tmp = 32'h0;
        end""",
        """        endw = (win_count$q == w) ? (w == 16'h0) : (win_inc == w);
        ge17 = {1'b0, hit_inc} + {1'b0, ~tp} + 17'd1;
        if (endw) begin
            hit_tmp = 32'h0;
        end""",
    )
    return rep(s, "        else if (hit_tmp >= tp) begin", "        else if (endw ? (tp == 16'h0) : ge17[16]) begin")


def seed_load(s):
    """A SEED write of 0 as the same synchronous load as reset."""
    s = rep(s, "                        seed_q$d = seed_load;", "                        seed_q$d = wdata;")
    s = rep(
        s,
        "            seed_q$d = rst_seed;",
        """            seed_q$d = rst_seed;
        end
        if (we & (addr == 4'd10) & (wdata == 32'h0)) begin
            seed_q$d = rst_seed;""",
    )
    s = rep(s, "        ri$seed = csr$seed_load;", "        ri$seed = csr_wdata;")
    return rep(
        s,
        """        if (reset) begin
            state$d = reset_seed;""",
        """        if (reset | (reseed & (seed == 32'h0))) begin
            state$d = reset_seed;""",
    )


def decode_masks(s):
    """The spill and RI masks as shifts of constants: no subtraction."""
    s = rep(s, "            spill_mask = ones << spill_sh;", "            spill_mask = d5[4] ? ~(ones >> d5[3:0]) : 16'h0;")
    return rep(
        s,
        """            r_mask = ones32 >> mask_sh;""",
        """            r_mask = ~(ones32 << r_width[4:0]);""",
    )


def credit_one_subtract(s):
    """c - credit_return, then send as the carry into the second adder."""
    return rep(
        s,
        """        if (send) begin
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
        end""",
        """        dec_send = dec_idle + {16'b0, send};
        if (dec_send[16]) begin
            count$d = 32'h0;
            underflow$d = 1'b1;
        end
        else begin
            count$d = dec_send[15:0];
        end""",
    )


STEPS = [
    ("one comparator for FI and RI (`ThrottleCompare`)", compare_shared),
    ("`+ k` and its carry from one 33-bit adder", adder33),
    ("barrel: the last stage picks right/up-by-16/as-is (no `zero`)", barrel_last_stage),
    ("AT detector: hit as carry in, window end without a compare after a mux, flip as a carry out", at_detector),
    ("SEED write of 0 as the same synchronous load as reset", seed_load),
    ("SHAPE decode: spill and RI masks as shifts of constants", decode_masks),
    ("credit counter: one subtract, `send` as the carry in", credit_one_subtract),
]


def synth(verilog, work, seeds):
    ys = (
        f"read_verilog {verilog}; hierarchy -check -top pft_injector; proc; check -assert; "
        f"synth_ice40 -top pft_injector -json {work}/d.json; tee -q -o {work}/stat.txt stat"
    )
    subprocess.run(["yosys", "-q", "-l", f"{work}/yosys.log", "-p", ys], check=True, capture_output=True)
    stat = open(f"{work}/stat.txt").read()

    def cells(pat):
        return sum(int(n) for n in re.findall(r"^\s+" + pat + r"\s+(\d+)", stat, re.M))

    row = {"lut4": cells("SB_LUT4"), "ff": cells(r"SB_DFF\w*"), "carry": cells("SB_CARRY"), "fmax": []}
    for seed in seeds:
        rep_json = f"{work}/report{seed}.json"
        subprocess.run(
            ["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", f"{work}/d.json", "--freq", "32",
             "--seed", str(seed), "--timing-allow-fail", "--report", rep_json],
            check=True, capture_output=True,
        )
        fmax = json.load(open(rep_json))["fmax"]
        row["fmax"].append(min(v["achieved"] for v in fmax.values()))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("verilog", help="the default export of the commit before the changes (f713a69)")
    ap.add_argument("--seeds", default="1", help="nextpnr seeds, comma-separated (default 1)")
    args = ap.parse_args()
    seeds = [int(x) for x in args.seeds.split(",")]
    src = open(args.verilog).read()
    with tempfile.TemporaryDirectory() as work:
        print("| step | SB_LUT4 | change | FF | SB_CARRY | Fmax MHz, seeds " + "/".join(map(str, seeds)) + " |")
        print("|---|---|---|---|---|---|")
        prev = None
        for i, (name, edit) in enumerate([("export of the commit before (none)", None)] + STEPS):
            if edit is not None:
                src = edit(src)
            path = os.path.join(work, f"step{i}.v")
            open(path, "w").write(src)
            row = synth(path, work, seeds)
            delta = "" if prev is None else f"{row['lut4'] - prev:+d}"
            prev = row["lut4"]
            fmax = " / ".join(f"{f:.2f}" for f in row["fmax"])
            print(f"| {i}. {name} | {row['lut4']} | {delta} | {row['ff']} | {row['carry']} | {fmax} |", flush=True)


if __name__ == "__main__":
    main()
