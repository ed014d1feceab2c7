#!/usr/bin/env python3
"""Seed 004's Fig. 12 beside Fig. 11 on scenarios/mvcm-hotspot.toml: one CSV row per run
directory (`pftsim run ... --cc ROW --set seed=S --out DIR`), from its summary.json
(`coldhot`) and coldhot.csv.

    python3 tb/mvcm/fig12.py SEED:ROW:DIR [SEED:ROW:DIR ...] > fig12.csv

Columns beyond summary.json's: hot_marked_0_100k (hot packets delivered marked over those
delivered in the first 100,000 cycles, the onset), peak_bin (cycle of the bin with the
largest cold mean latency) and cold_thr_cv (the cold bytes per node per cycle over the bins
from 32,000 to 600,000: standard deviation / mean, the throughput's oscillation)."""
import csv
import json
import statistics
import sys

KEYS = ["cold_lat_peak", "cold_lat_mean", "hot_link_util", "marked_cold_frac",
        "marked_hot_frac", "hot_flits_in_flight_peak", "cold_wait_mean", "hot_delivered",
        "cold_delivered"]


def main(args):
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["seed", "row"] + KEYS + ["hot_marked_0_100k", "peak_bin", "cold_thr_cv"])
    for a in args:
        seed, row, d = a.split(":", 2)
        s = json.load(open(f"{d}/summary.json"))["coldhot"]
        bins = list(csv.DictReader(open(f"{d}/coldhot.csv")))
        first = [b for b in bins if int(b["cycle"]) < 100_000]
        hm = sum(int(b["hot_marked"]) for b in first)
        hd = sum(int(b["hot_delivered"]) for b in first)
        peak = max(bins, key=lambda b: float(b["cold_lat_mean"] or 0))["cycle"]
        thr = [float(b["cold_bytes_per_node_cycle"]) for b in bins
               if 32_000 <= int(b["cycle"]) < 600_000]
        cv = statistics.pstdev(thr) / statistics.mean(thr)
        vals = [f"{s[k]:.6g}" if isinstance(s[k], float) else str(s[k]) for k in KEYS]
        w.writerow([seed, row] + vals + [f"{hm / hd:.4f}" if hd else "", peak, f"{cv:.4f}"])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
