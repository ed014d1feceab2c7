#!/usr/bin/env bash
# MVCM's thresholds the seed's way (seed 004 §4.3, issue 42): the mean fill of the input
# buffers and output queues under uniform traffic near saturation, on
# scenarios/mvcm-hotspot.toml's network. Each load is one `pftsim run` of an `mvcm` row
# that never marks (thresholds 100 %), so the sources run at full rate; its counters
# `in_fill_flits_sum / in_fill_heads` (the input buffer's flits when a data packet's head
# arrives, the packet included: what MB compares) and `out_fill_flits_sum /
# out_fill_heads` (the output queue's flits when a head leaves: what VB compares) give the
# means. Prints one CSV line per load: load, accepted flits/node/cycle, the two means in
# flits and in percent of the buffers.
#
#   bash tb/mvcm/occupancy.sh OUT_DIR [LOAD ...]   (PFTSIM=path: that pftsim; default
#   loads 0.3 0.4 0.5 0.6 0.7 0.8 0.9 flits/node/cycle; CYCLES=30000, WARMUP=10000)
set -euo pipefail
out=${1:?usage: occupancy.sh OUT_DIR [LOAD ...]}
shift
loads=${*:-0.3 0.4 0.5 0.6 0.7 0.8 0.9}
source "$(dirname "$0")/lib.sh"
new_out "$out"
pftsim_bin
# the scenario's network, a uniform workload, one mvcm row that never marks
awk '/^\[cycles\]/ { exit } { print }' "$root/scenarios/mvcm-hotspot.toml" >"$out/uniform.toml"
cat >>"$out/uniform.toml" <<ROWS
[cycles]
max = ${CYCLES:-30000}
warmup = ${WARMUP:-10000}
ROWS
awk '/^\[network\]/ { on = 1 } /^\[workload\]/ { exit } on { print }' \
    "$root/scenarios/mvcm-hotspot.toml" >>"$out/uniform.toml"
cat >>"$out/uniform.toml" <<'ROWS'
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 278
[[cc]]
name = "mvcm_nomark"
kind = "mvcm"
in_threshold_percent = 100
out_threshold_percent = 100
ROWS
buf=$(awk -F'[ =#]+' '/^buffer_flits/ { print $2 }' "$out/uniform.toml")
obuf=$(awk -F'[ =#]+' '/^out_buffer_flits/ { print $2 }' "$out/uniform.toml")
echo "load,accepted,in_fill_flits,in_fill_pct,out_fill_flits,out_fill_pct"
for l in $loads; do
    "$bin" run "$out/uniform.toml" --cc mvcm_nomark --out "$out/load$l" --quiet --yes \
        --set workload.load="$l" >/dev/null
    python3 - "$out/load$l/summary.json" "$l" "$buf" "$obuf" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
def find(o, key):
    if isinstance(o, dict):
        if key in o:
            return o[key]
        for v in o.values():
            r = find(v, key)
            if r is not None:
                return r
    elif isinstance(o, list):
        for v in o:
            r = find(v, key)
            if r is not None:
                return r
    return None
c = {k: find(s, k) for k in ["in_fill_flits_sum", "in_fill_heads", "out_fill_flits_sum", "out_fill_heads"]}
acc = s["throughput"]["accepted_per_node_cycle"]
inf = c["in_fill_flits_sum"] / max(c["in_fill_heads"], 1)
outf = c["out_fill_flits_sum"] / max(c["out_fill_heads"], 1)
b, ob = float(sys.argv[3]), float(sys.argv[4])
print(f"{sys.argv[2]},{acc:.4f},{inf:.1f},{100 * inf / b:.1f},{outf:.1f},{100 * outf / ob:.1f}")
PY
done
