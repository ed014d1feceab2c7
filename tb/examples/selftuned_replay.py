#!/usr/bin/env python3
"""Replay the self-tuned throttle's tuner (seed 003; docs/cc/selftuned.md, "Tuner") on one
`pftsim run` of a `selftuned` row with `--set timeseries.period=1`, and say which rule
moved the threshold in each tuning period.

    python3 tb/examples/selftuned_replay.py RUN_DIR [--to C] [--csv FILE]

From RUN_DIR/series.csv, per cycle: `full_buffers` (the count a snapshot takes) and
`accepted` x NICs (the flits delivered), fed through the side-band (a snapshot at every
multiple of g, arriving g cycles later) and the rules of hdl/src/selftuned/model.rs, with
the row's keys from RUN_DIR/summary.json. The replay's T and gate are checked against the
`threshold` and `inhibit` probes in every cycle (exit status 1 if any cycle differs).
Prints how often each rule fired in the decisions before cycle C (default: all): a new
best period, step 2's inc or drop (with how many a reset in the same period overrode),
the local-maxima reset and the clearing of the best period; then the cycles of the clears
and the resets that lowered T. `--csv` writes (a new file only)
every decision: its cycle (T changes from the next cycle), T before and after, the
period's flits, the newest count, T_max, N_max and the rules that fired."""
import argparse
import csv
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="run directory (series.csv with period 1, summary.json)")
    ap.add_argument("--to", type=int, default=None, help="count decisions before this cycle")
    ap.add_argument("--csv", default=None, help="write every decision to this file")
    a = ap.parse_args()
    s = json.load(open(os.path.join(a.run, "summary.json")))
    if s.get("timeseries_period") != 1:
        sys.exit("error: the run needs --set timeseries.period=1")
    cc, der = s["cc"], s["cc_derived"]
    if cc.get("kind") != "selftuned":
        sys.exit("error: not a selftuned row")
    buffers = s["cc_counters"]["buffers"]
    nodes = s["nodes"]
    pct = lambda p: int(p * buffers / 100.0)
    g = cc["gather_cycles"] or der["gather_cycles"]
    t = cc["threshold"] if cc["threshold"] is not None else der.get("threshold", pct(cc["init_percent"]))
    t = min(t, buffers)
    if cc["tune"]:
        periods, inc, dec, resetp = cc["tune_cycles"] // g, pct(cc["inc_percent"]), pct(cc["dec_percent"]), cc["reset_percent"]
    else:
        periods, inc, dec, resetp = min(max(cc["tune_cycles"] // g, 1), 255), 0, 0, 0
    drop, r, linear = cc["drop_percent"], cc["resets"], cc["estimate"] == "linear"

    rows = list(csv.DictReader(open(os.path.join(a.run, "series.csv"))))
    full = [int(float(x["full_buffers"])) for x in rows]
    thr = [int(float(x["threshold"])) for x in rows]
    inh = [int(float(x["inhibit"])) for x in rows]
    delivered = [0]  # flits delivered before each cycle
    for x in rows:
        delivered.append(delivered[-1] + round(float(x["accepted"]) * nodes))

    s0 = s1 = seen = age = in_period = bw_acc = 0
    throttling = False
    bw_prev = max_bw = n_max = t_max = resets = 0
    pending, delivered_at = None, 0
    differ, log = 0, []
    for c in range(len(rows)):
        arriving = None
        if c % g == 0:
            taken = (full[c], delivered[c] - delivered_at)
            delivered_at = delivered[c]
            arriving, pending = pending, taken
        if seen == 0:
            est = 0
        elif seen == 1 or not linear:
            est = s0 * g
        else:
            est = s0 * g + (s0 - s1) * (g + age)
        gate = seen > 0 and est > t * g
        differ += t != thr[c] or int(gate) != inh[c]
        held = throttling or gate
        if arriving is None:
            throttling, age = held, min(age + 1, g - 1)
            continue
        s1, s0, seen, age = s0, arriving[0], min(seen + 1, 2), 0
        bw = bw_acc + arriving[1]
        if in_period + 1 < periods:
            in_period, bw_acc, throttling = in_period + 1, bw, held
            continue
        before, fired = t, []
        if bw > max_bw:
            max_bw, n_max, t_max = bw, s0, t
            fired.append("best")
        if bw * 100 < drop * bw_prev:
            t = max(t - dec, 0)
            fired.append("drop")
        elif held:
            t = min(t + inc, buffers)
            fired.append("inc")
        if bw * 100 < resetp * max_bw:
            t = min(t_max, n_max)
            resets += 1
            fired.append("reset")
            if resets >= r:
                max_bw = resets = 0
                fired.append("clear")
        else:
            resets = 0
        bw_prev = bw
        log.append((c, before, t, bw, s0, t_max, n_max, "+".join(fired)))
        in_period, bw_acc, throttling = 0, 0, False

    print(f"{len(rows)} cycles, {len(log)} decisions; cycles where the replay's T or gate "
          f"differs from the probes: {differ}")
    upto = [d for d in log if a.to is None or d[0] < a.to]
    when = "all decisions" if a.to is None else f"decisions before cycle {a.to}"
    def n(rule, also=None):
        return sum(rule in d[7].split("+") and (also is None or also in d[7].split("+")) for d in upto)
    print(f"{when}: {len(upto)}; best {n('best')}, inc {n('inc')} ({n('inc', 'reset')} overridden by a reset), "
          f"drop {n('drop')} ({n('drop', 'reset')} overridden by a reset), reset {n('reset')}, "
          f"clear {n('clear')}")
    print("best period cleared at cycles: " + " ".join(str(d[0]) for d in upto if "clear" in d[7]))
    print("resets that lowered T (cycle: T before -> after, T_max, N_max):")
    for d in upto:
        if "reset" in d[7] and d[2] < d[1]:
            print(f"  {d[0]}: {d[1]} -> {d[2]}, {d[5]}, {d[6]}")
    if a.csv:
        # a new file only: never over a run's own files or another result
        try:
            f = open(a.csv, "x", newline="")
        except FileExistsError:
            sys.exit(f"error: {a.csv} exists: give a new file (nothing is overwritten)")
        with f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["cycle", "t_before", "t_after", "bw_flits", "full", "t_max", "n_max", "rules"])
            w.writerows(log)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
