#!/usr/bin/env bash
# Seed 004's sweeps on scenarios/mvcm-hotspot.toml (issue 24), for its rows none, renato,
# pfister and mvcm:
#   - the split of hosts between uniform and hot-spot traffic (the seed's Table 3 is
#     missing): 8, 12, 16, 24, 32, 64 and 128 hot-spot hosts of 512, at medium load;
#   - the load (latency against accepted traffic, the seed's Fig. 9): 0.26, 0.45 and 0.62
#     bytes per cycle per first-stage switch (0.065, 0.1125, 0.155 of a link per host),
#     with the scenario's 16 hot-spot hosts.
# Each point is `pftsim run --cc ROW` with `--set` for the split or the load, run long
# enough for the hot spot's backlog to drain without congestion management (generation of
# the 1,000 packets at the load, or hosts x 1,000 packets through the hot spot's link,
# whichever is longer, plus the 50,000-packet start).
#
#   bash tb/mvcm/sweep.sh OUT_DIR [JOBS]        (PFTSIM=path: use that pftsim, no build)
#
# SPLITS, LOADS and ROWS (space-separated) run a subset: e.g. SPLITS="8 32" LOADS=""
# ROWS="renato mvcm" (defaults: every split, load and row above).
#
# Writes OUT_DIR/runs/<kind>-<value>-<row>/ (each run's files), then OUT_DIR/sweep.csv
# and the plots OUT_DIR/mvcm_split.svg, OUT_DIR/mvcm_split_mean.svg and OUT_DIR/mvcm_load.svg
# (tb/examples/mvcm_sweep.rs).
set -euo pipefail
out=${1:?usage: sweep.sh OUT_DIR [JOBS]}
jobs=${2:-2}
source "$(dirname "$0")/lib.sh"
sc=$root/scenarios/mvcm-hotspot.toml
new_out "$out"
mkdir -p "$out/runs"
pftsim_bin
rows=${ROWS-none renato pfister mvcm}
points=()
# cycles: 50,000 packets at the load, then the longer of the generation and the drain
cycles() { # hot hosts, load
    awk -v h="$1" -v l="$2" 'BEGIN {
        start = 50000 * 35 / (512 * l); gen = 1000 * 35 / l; drain = h * 1000 * 35 / (1 - l);
        t = (gen > drain ? gen : drain); printf "%d", (start + t * 1.1 + 20000) / 1000 * 1000 }'
}
for h in ${SPLITS-8 12 16 24 32 64 128}; do
    for r in $rows; do
        points+=("split $h $r $h 0.1125 $(cycles "$h" 0.1125)")
    done
done
for rate in ${LOADS-0.26 0.62}; do
    l=$(awk -v r="$rate" 'BEGIN { printf "%g", r / 4 }')
    for r in $rows; do
        points+=("load $rate $r 16 $l $(cycles 16 "$l")")
    done
done
one() {
    local kind=$1 value=$2 row=$3 hot=$4 load=$5 max=$6
    local fc v name=$kind-$value-$row
    fc=$(awk -v h="$hot" 'BEGIN { printf "%.10g", h / 512 }')
    v=$(awk -v h="$hot" 'BEGIN { printf "%.10g", 1 - h / 512 }')
    "$bin" run "$sc" --cc "$row" --out "$out/runs/$name" --yes --quiet \
        --set "workload.frac_c=$fc" --set "workload.frac_v=$v" \
        --set "workload.load=$load" --set "cycles.max=$max" >"$out/runs/$name.txt" 2>&1 \
        || { echo "error: $name failed, see $out/runs/$name.txt" >&2; return 1; }
}
export -f one
export bin sc out
printf '%s\n' "${points[@]}" | xargs -P "$jobs" -L 1 bash -c 'one $0 $1 $2 $3 $4 $5'
cargo run --release -q -p pft-tb --example mvcm_sweep --manifest-path "$root/Cargo.toml" -- "$out"
echo "wrote $out/sweep.csv, $out/mvcm_split.svg, $out/mvcm_split_mean.svg, $out/mvcm_load.svg"
