#!/usr/bin/env bash
# Recheck of the torus per-hop mapping against BookSim's `use_noc_latency` (issue 39).
# BookSim 2's kncube.cpp gives a torus's router-to-router channels, flits and credits alike,
# a latency of 2 cycles when use_noc_latency = 1 (its default; the tb/booksim/torus8_*.cfg
# files do not set it) and 1 when it is 0 (a mesh: 1 either way); the NIC channels stay at 1.
# fly.cpp sets 1 and never reads the key. This runs, at the low loads of curves.sh and at
# its saturation point (0.9, BookSim in throughput mode), the torus configs and the fly:
# - BookSim as shipped (use_noc_latency = 1) and with use_noc_latency = 0;
# - ours under three per-hop mappings:
#   a: --link-latency 1 --credit-latency 1 --head-latency 3 --switch-latency 2 (curves.sh)
#   b: --link-latency 2 --credit-latency 2 --head-latency 2 --switch-latency 2 (BookSim's
#      torus channels; ours has one link latency, so the NIC links take 2 as well)
#   c: --link-latency 1 --credit-latency 1 --head-latency 2 --switch-latency 2 (BookSim's
#      router on 1-cycle channels)
# Everything else as curves.sh (16-flit packets, lanes of 8 flits, --warmup 20000
# --cycles 50000; BookSim 3 warm-up and up to 5 sample periods of 10,000 cycles).
#
#   bash tb/booksim/torus_noc_latency.sh OUT.csv [BOOKSIM_DIR]
set -euo pipefail
out=${1:?usage: torus_noc_latency.sh OUT.csv [BOOKSIM_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:-$root/target/booksim/booksim2}
if [ -e "$out" ] || [ -e "$out.part" ]; then
    echo "error: $out (or $out.part) exists; give a new file" >&2
    exit 1
fi
bash "$root/tb/booksim/build.sh" "$dir"
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim CFG LOAD SIM_TYPE NOC: "accepted,latency", empty when unstable
booksim() {
    {
        echo "use_noc_latency = $4;"
        sed -e "s/^injection_rate = .*/injection_rate = $2;/" -e "s/^sim_type = .*/sim_type = $3;/" \
            "$root/tb/booksim/$1.cfg"
    } > "$tmp/run.cfg"
    { nice "$dir/src/booksim" "$tmp/run.cfg" || true; } > "$tmp/log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    echo "${acc:-},${lat:-}"
}
# ours LINK HEAD FLAGS...
ours() {
    local link=$1 head=$2
    shift 2
    nice "$bench" --packet-flits 16 --vc-buf 8 --cc none --link-latency "$link" \
        --credit-latency "$link" --switch-latency 2 --head-latency "$head" --warmup 20000 \
        --cycles 50000 --seed 1 "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
# name, BookSim config, our flags (the stock BookSim only: no patches)
nets=(
    "dor_2vc torus8_dor_vc2 --topo torus:8,2 --vcs 2 --routing dor"
    "dor_4vc torus8_dor_vc4 --topo torus:8,2 --vcs 4 --routing dor"
    "adaptive_4vc torus8_adapt_vc4 --topo torus:8,2 --vcs 4 --routing duato"
    "fly_4vc fly4_3_vc4 --topo fly:4,3 --vcs 4"
)
echo "network,offered,booksim_noc1_accepted,booksim_noc1_latency,booksim_noc0_accepted,booksim_noc0_latency,ours_a_accepted,ours_a_latency,ours_b_accepted,ours_b_latency,ours_c_accepted,ours_c_latency" > "$out.part"
for load in 0.05 0.1 0.2 0.9; do
    mode=latency
    [ "$load" = 0.9 ] && mode=throughput
    for net in "${nets[@]}"; do
        # shellcheck disable=SC2086 # split into name, config and flags
        set -- $net
        name=$1 cfg=$2
        shift 2
        row="$name,$load,$(booksim "$cfg" "$load" "$mode" 1),$(booksim "$cfg" "$load" "$mode" 0)"
        row="$row,$(ours 1 3 --load "$load" "$@"),$(ours 2 2 --load "$load" "$@")"
        echo "$row,$(ours 1 2 --load "$load" "$@")" >> "$out.part"
    done
    echo "$(date -u +%H:%M:%S) load $load done" >&2
done
mv "$out.part" "$out"
