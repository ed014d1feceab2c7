#!/usr/bin/env python3
"""Runs' series.csv in coarser bins: the mean of each column over every EVERY cycles
(default 2,000), as CSV on standard output, each row led by its RUN_DIR as given.

    python3 tb/selftuned/trace.py [--every N] [--from C] [--to C] RUN_DIR [...] > trace.csv

Rates (`accepted`, `injected`) are means over the bin; the other columns (flits held,
the scheme's and the lanes' probes) are means of their samples in the bin, and the
cumulative counters (`disha_recoveries`, `token_held_cycles`) become their increase over
the bin. Every RUN_DIR must have the same columns."""
import argparse
import csv
import os
import sys

CUMULATIVE = ("disha_recoveries", "token_held_cycles")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=2000, help="bin length, cycles (default 2000)")
    ap.add_argument("--from", dest="start", type=int, default=0,
                    help="first bin written: the one holding this cycle (default 0)")
    ap.add_argument("--to", dest="end", type=int, default=None,
                    help="bins starting at or after this cycle are not written (default: none)")
    ap.add_argument("runs", nargs="+", help="run directories (each with series.csv)")
    a = ap.parse_args()
    if a.every < 1:
        sys.exit("error: --every must be at least 1")
    w = csv.writer(sys.stdout)
    head = None
    for d in a.runs:
        path = os.path.join(d, "series.csv")
        try:
            rows = list(csv.DictReader(open(path)))
        except OSError as e:
            sys.exit(f"error: {path}: {e.strerror}")
        if not rows:
            sys.exit(f"error: {path} has no rows")
        cols = [c for c in rows[0] if c != "cycle"]
        if head is None:
            head = cols
            w.writerow(["run", "cycle"] + cols)
        elif cols != head:
            sys.exit(f"error: {path} has columns {cols}, not {head}")
        bins = {}
        for r in rows:
            bins.setdefault(int(r["cycle"]) // a.every, []).append(r)
        last = {c: 0.0 for c in CUMULATIVE}
        for b in sorted(bins):
            rs = bins[b]
            out = []
            for c in cols:
                if c in CUMULATIVE:
                    end = float(rs[-1][c])
                    out.append(f"{end - last[c]:.0f}")
                    last[c] = end
                else:
                    m = sum(float(r[c]) for r in rs) / len(rs)
                    out.append(f"{m:.0f}" if abs(m) >= 100 else f"{m:.4g}")
            c = b * a.every
            if c + a.every > a.start and (a.end is None or c < a.end):
                w.writerow([d, c] + out)


if __name__ == "__main__":
    main()
