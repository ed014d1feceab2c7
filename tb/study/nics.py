#!/usr/bin/env python3
"""Where a study run's NICs stood (docs/results.md, "The study", the causes): for each run
directory given, the aggressor's senders (every aggressor NIC but the root, the one that
received the most) and the victim's NICs, as means over the NICs of nodes.csv's columns:
flits injected per cycle, mean and max used credits c, the fraction of cycles Congested and
throttled. Usage: python3 tb/study/nics.py RUN_DIR...  (e.g. OUT/torus/runs/p0001-s1)"""
import csv
import json
import sys


def mean(rows, key):
    return sum(float(r[key]) for r in rows) / max(1, len(rows))


print("run,scheme,seed,group,nics,injected_per_cycle,mean_c,max_c,frac_congested,frac_throttled")
for d in sys.argv[1:]:
    with open(f"{d}/summary.json") as f:
        s = json.load(f)
    with open(f"{d}/nodes.csv") as f:
        rows = list(csv.DictReader(f))
    agg = [r for r in rows if r["class"] == "aggressor"]
    root = max(agg, key=lambda r: float(r["flits_ejected"]))
    groups = {
        "senders": [r for r in agg if r is not root],
        "victims": [r for r in rows if r["class"] == "victim"],
    }
    for g, rs in groups.items():
        print(
            f"{d},{s['run']},{s['seed']},{g},{len(rs)},{mean(rs, 'injected_per_cycle'):.4f},"
            f"{mean(rs, 'mean_c'):.1f},{mean(rs, 'max_c'):.0f},"
            f"{mean(rs, 'frac_congested'):.3f},{mean(rs, 'frac_throttled'):.3f}"
        )
