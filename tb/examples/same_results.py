#!/usr/bin/env python3
"""Compare two result trees of `pftsim compare` (old, new): every CSV row and every JSON
value of the old tree must be equal in the new one. Ignored: `wall_seconds`, the echoed
`config`, `manifest.json` (the command line and start time of each run), SVG plots (their
titles name the scheme), and columns or fields that only the new tree has, counters of a
`cc_counters` string ("name=value ...") included. Prints each difference; exit status 1 if
any. Used by same_results.sh."""
import json, sys, os, csv, io
a, b = sys.argv[1], sys.argv[2]
bad = 0
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("wall_seconds", "config")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
def counters(x):
    """A `cc_counters` cell ("name=value ...") as a dict."""
    return dict(kv.split("=", 1) for kv in x.split())
def sub(old, new, path):
    """old must be contained in new (new may have extra keys)."""
    global bad
    if path.endswith(".cc_counters") and isinstance(old, str) and isinstance(new, str):
        old, new = counters(old), counters(new)
    if isinstance(old, dict) and isinstance(new, dict):
        for k, v in old.items():
            if k not in new:
                print(f"{path}.{k}: missing in new"); bad += 1
            else:
                sub(v, new[k], f"{path}.{k}")
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            print(f"{path}: length {len(old)} vs {len(new)}"); bad += 1
        for i, (x, y) in enumerate(zip(old, new)):
            sub(x, y, f"{path}[{i}]")
    elif old != new:
        print(f"{path}: {old!r} vs {new!r}"); bad += 1
def rows(p):
    with open(p) as f:
        r = list(csv.DictReader(f))
    for x in r:
        x.pop("wall_seconds", None)
    return r
n = 0
for root, _, files in os.walk(a):
    for f in files:
        pa = os.path.join(root, f); pb = os.path.join(b, os.path.relpath(pa, a))
        if f.endswith(".log") or f == "DONE" or f == "manifest.json": continue
        if not os.path.exists(pb):
            print(f"{pb}: missing"); bad += 1; continue
        n += 1
        if f.endswith(".json"):
            sub(strip(json.load(open(pa))), strip(json.load(open(pb))), pb)
        elif f.endswith(".csv"):
            sub(rows(pa), rows(pb), pb)
        elif f.endswith(".svg"):
            pass  # titles may name the scheme differently
print(f"{n} files compared, {bad} differences")
sys.exit(1 if bad else 0)
