#!/usr/bin/env python3
"""One FPGA family's numbers from a Yosys `stat` report and a nextpnr `--report` JSON: the
cells of the mapped design, the flip-flops, and the achieved Fmax of the clock. Writes them
as JSON and prints one line.

  family_summary.py FAMILY STAT.txt REPORT.json OUT.json --device D --freq MHZ --seed S
"""
import argparse, json, re, sys

p = argparse.ArgumentParser()
p.add_argument("family")
p.add_argument("stat")
p.add_argument("report")
p.add_argument("out")
p.add_argument("--device", required=True)
p.add_argument("--freq", type=float, required=True)
p.add_argument("--seed", type=int, required=True)
p.add_argument("--ff-prefix", default="TRELLIS_FF")
p.add_argument("--lut-prefix", default="LUT4")
p.add_argument("--lut-label", default="LUT4")
a = p.parse_args()

cells = {}
for line in open(a.stat):
    m = re.match(r"\s+(\d+)\s+(\S+)\s*$", line)
    # cell types are upper case (LUT4, TRELLIS_FF); `stat`'s own totals are lower case
    if m and m.group(2) != m.group(2).lower() and not m.group(2).startswith("$"):
        cells[m.group(2)] = int(m.group(1))
rep = json.load(open(a.report))
fmax = None
for clk, v in rep.get("fmax", {}).items():
    fmax = v.get("achieved") if fmax is None else min(fmax, v.get("achieved"))
lut = sum(n for c, n in cells.items() if c.startswith(a.lut_prefix))
ff = sum(n for c, n in cells.items() if c.startswith(a.ff_prefix))
out = {
    "family": a.family,
    "device": a.device,
    "seed": a.seed,
    "constraint_mhz": a.freq,
    "fmax_mhz": round(fmax, 2) if fmax is not None else None,
    "lut4": lut,
    "lut_label": a.lut_label,
    "ff": ff,
    "cells": cells,
    "utilisation": rep.get("utilization", {}),
}
json.dump(out, open(a.out, "w"), indent=2, sort_keys=True)
print(f"{a.family} {a.device}: {lut} {a.lut_label}, {ff} FF, "
      + ", ".join(f"{n} {c}" for c, n in sorted(cells.items()) if not c.startswith((a.lut_prefix, a.ff_prefix)))
      + f"; Fmax {out['fmax_mhz']} MHz (constraint {a.freq} MHz, seed {a.seed})")
