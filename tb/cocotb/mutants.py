#!/usr/bin/env python3
"""Broken copies of synth/out/pft_axis.v that test_pft_axis.py must catch: each mutant is
one textual change of the exported Verilog, run under the test that is meant to catch it
(run.py --design pft_axis --testcase ...); the script fails if a mutant passes. Not part of
`make cocotb` (about 4 minutes); run it after changing the testbench:

  .venv/bin/python tb/cocotb/mutants.py [--verilog synth/out/pft_axis.v] [--build-dir DIR]
"""
import argparse
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
root = here.parent.parent

# (name, from, to, the test that must fail)
MUTANTS = [
    ("pause mask gone", "flit_valid = s_tvalid & room & ~(pause & ~started$q);",
     "flit_valid = s_tvalid & room;", "ft_fi_cycle_exact_frames_end_to_end"),
    ("register cannot drain and fill in one cycle", "room = ~valid$q | m_tready;",
     "room = ~valid$q;", "ft_fi_cycle_exact_frames_end_to_end"),
    ("register loads over a stalled beat", "room = ~valid$q | m_tready;", "room = 1'b1;",
     "ft_fi_cycle_exact_frames_end_to_end"),
    ("data register not held while stalled", "data$d = data$q;", "data$d = s_tdata;",
     "ft_fi_cycle_exact_frames_end_to_end"),
    ("CNT_THROTTLED counts double", "throttled_count$d = throttled_count$q + 32'h1;",
     "throttled_count$d = throttled_count$q + 32'h2;", "ft_fi_cycle_exact_frames_end_to_end"),
    ("every beat a packet's first", "started$d = ~s_tlast;", "started$d = 1'b0;",
     "ft_fi_cycle_exact_frames_end_to_end"),
    ("tkeep forced to all ones", "keep$d = s_tkeep;", "keep$d = 8'hff;",
     "ft_fi_cycle_exact_frames_end_to_end"),
    ("tuser dropped", "user$d = s_tuser;", "user$d = 1'b0;",
     "ft_fi_cycle_exact_frames_end_to_end"),
    ("FI gap off by one", "operand = ((gap) & 32'hffffffff);",
     "operand = ((gap + 16'h1) & 32'hffffffff);", "ft_fi_cycle_exact_frames_end_to_end"),
    ("CTRL writes do not set gating", "pft$csr_wdata = axil_data$csr_wdata | ctrl_gating;",
     "pft$csr_wdata = axil_data$csr_wdata;", "ft_fi_cycle_exact_frames_end_to_end"),
    ("RI generator's top bit lost", "operand = r & mask;", "operand = r & mask & 32'h7fffffff;",
     "ri_rate_follows_the_spec"),
    ("reset keeps the output register", "if (reset) begin\n            valid$d = 1'b0;\n",
     "if (reset) begin\n", "reset_in_the_middle_of_a_frame"),
    ("reset keeps the packet tracker",
     "valid$d = 1'b0;\n            started$d = 1'b0;\n        end\n    end\n",
     "valid$d = 1'b0;\n        end\n    end\n", "reset_in_the_middle_of_a_frame"),
    ("SLVERR answered OKAY", "b_resp$d = 32'h2;", "b_resp$d = 32'h0;",
     "axil_register_block"),
    ("byte strobes ignored", "csr_wdata = (wdata & wmask) | (old & ~wmask);",
     "csr_wdata = wdata;", "axil_register_block"),
]

p = argparse.ArgumentParser()
p.add_argument("--verilog", default=str(root / "synth/out/pft_axis.v"))
p.add_argument("--build-dir", default=str(root / "out/cocotb-mutants"))
p.add_argument("--only", type=int, nargs="*", help="run only these mutants (indices)")
a = p.parse_args()
src = Path(a.verilog).read_text()
out = Path(a.build_dir).resolve()
escaped, ran = [], 0
for i, (name, old, new, test) in enumerate(MUTANTS):
    if a.only and i not in a.only:
        continue
    if src.count(old) != 1:
        sys.exit(f"mutant {i} ({name}): {old!r} occurs {src.count(old)} times in {a.verilog}")
    d = out / f"m{i}"
    d.mkdir(parents=True, exist_ok=True)
    (d / "pft_axis.v").write_text(src.replace(old, new))
    r = subprocess.run([sys.executable, str(here / "run.py"), "--design", "pft_axis",
                        "--axis-verilog", str(d / "pft_axis.v"), "--build-dir", str(d),
                        "--testcase", test], capture_output=True, text=True)
    log = r.stdout + r.stderr
    (d / "log.txt").write_text(log)
    why = next((ln.strip() for ln in log.splitlines() if "Error:" in ln), "")
    caught = r.returncode != 0
    ran += 1
    print(f"mutant {i:2} {name:45} {test:40} {'caught' if caught else 'ESCAPED'}: {why[:150]}")
    if not caught:
        escaped.append(name)
if escaped:
    sys.exit(f"mutants: FAILED: {len(escaped)} escaped: {escaped}")
print(f"mutants: all {ran} caught")
