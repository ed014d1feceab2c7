#!/usr/bin/env python3
"""The tables of tb/mvcm/windows.sh and tb/mvcm/pfister.sh from their runs' summary.json
(`coldhot`) and coldhot.csv.

    python3 tb/mvcm/windows.py OUT SEED:ROW:DIR [SEED:ROW:DIR ...]

Writes OUT/windows.csv (one line per run) and OUT/fig10.csv (per run and 100,000 cycles:
the hot packets delivered marked over those delivered, the hot-spot link's mean busy
fraction over the 2,000-cycle bins, the cold packets delivered marked, the bins that had
any and the most in one bin)."""
import csv
import json
import sys

KEYS = ["cold_lat_peak", "cold_lat_mean", "marked_cold_frac", "marked_hot_frac",
        "hot_flits_in_flight_peak", "hot_link_util", "hot_delivered", "cold_wait_mean",
        "congestion_end"]
# MVCM's counters (empty for the other schemes): input marks, ACKs of marked packets not
# validated, window decreases, fast resets
COUNTERS = ["mb_marked", "acks_warm", "dw_down", "fast_resets"]


def fmt(v):
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def main(out, args):
    with open(f"{out}/windows.csv", "w", newline="") as f1, \
            open(f"{out}/fig10.csv", "w", newline="") as f2:
        w1 = csv.writer(f1, lineterminator="\n")
        w2 = csv.writer(f2, lineterminator="\n")
        w1.writerow(["seed", "row"] + KEYS + COUNTERS)
        w2.writerow(["seed", "row", "from", "to", "hot_marked_frac", "hot_link_busy",
                     "cold_marked", "cold_marked_bins", "cold_marked_bin_max"])
        for a in args:
            seed, row, d = a.split(":", 2)
            j = json.load(open(f"{d}/summary.json"))
            s = j["coldhot"]
            c = j.get("cc_counters") or {}
            w1.writerow([seed, row] + [fmt(s[k]) for k in KEYS] + [c.get(k, "") for k in COUNTERS])
            bins = list(csv.DictReader(open(f"{d}/coldhot.csv")))
            end = max(int(x["cycle"]) for x in bins) + 1
            for lo in range(0, end, 100_000):
                b = [x for x in bins if lo <= int(x["cycle"]) < lo + 100_000]
                hm = sum(int(x["hot_marked"]) for x in b)
                hd = sum(int(x["hot_delivered"]) for x in b)
                busy = sum(float(x["hot_link_util"]) for x in b) / len(b) if b else 0.0
                cm = [int(x["cold_marked"]) for x in b]
                w2.writerow([seed, row, lo, lo + 100_000,
                             f"{hm / hd:.4f}" if hd else "", f"{busy:.4f}",
                             sum(cm), sum(1 for c in cm if c), max(cm, default=0)])


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
