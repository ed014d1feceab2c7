#!/usr/bin/env bash
# Latency-load curves of BookSim 2 and our lane router on the same networks (issue 22):
# an 8-ary 2-cube torus under uniform traffic, 16-flit packets, lanes of 8 flits, with
# dimension-order routing (2 and 4 lanes) and adaptive routing (4 lanes). Writes one CSV
# row per (network, offered load): BookSim's and our accepted rate and mean packet latency,
# and per network a `-saturation` row: the accepted rates at an offered load of 0.9.
#
#   bash tb/booksim/curves.sh OUT.csv [BOOKSIM_DIR]
#
# Delays matched to BookSim's router (docs/network.md §9, "BookSim 2"): 1-cycle links and
# credits, switch_latency_cycles = 5. Ours: `net-bench --warmup 20000 --cycles 50000`;
# BookSim: sim_type = latency, 3 warm-up and up to 5 sample periods of 10,000 cycles.
set -euo pipefail
out=${1:?usage: curves.sh OUT.csv [BOOKSIM_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=28f43299
dir=${2:-$root/target/booksim/booksim2}
if [ -e "$out" ]; then
    echo "error: $out exists; give a new file" >&2
    exit 1
fi
if [ ! -x "$dir/src/booksim" ]; then
    if [ ! -d "$dir/src" ]; then
        mkdir -p "$(dirname "$dir")"
        git clone -q https://github.com/booksim/booksim2 "$dir"
        git -C "$dir" checkout -q "$rev"
    fi
    make -C "$dir/src" -j2 >/dev/null
fi
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$root/target/release/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# BookSim exits with status 255 after printing its results; an unstable (saturated) run
# prints no averages: its columns are left empty.
booksim() {
    sed -e "s/^injection_rate = .*/injection_rate = $2;/" -e "s/^sim_type = .*/sim_type = ${3:-latency};/" "$1" > "$tmp/run.cfg"
    { "$dir/src/booksim" "$tmp/run.cfg" || true; } > "$tmp/log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    echo "${acc:-},${lat:-}"
}
ours() {
    "$bench" --topo torus:8,2 --packet-flits 16 --vc-buf 8 --cc none --link-latency 1 \
        --credit-latency 1 --switch-latency 5 --warmup 20000 --cycles 50000 --seed 1 "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
echo "network,offered,booksim_accepted,booksim_latency,ours_accepted,ours_latency" > "$out.part"
# shellcheck disable=SC2129 # one line per simulator run, appended as it finishes
for load in 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.7; do
    echo "dor_2vc,$load,$(booksim "$root/tb/booksim/torus8_dor_vc2.cfg" $load),$(ours --load $load --vcs 2 --routing dor)" >> "$out.part"
    echo "dor_4vc,$load,$(booksim "$root/tb/booksim/torus8_dor_vc4.cfg" $load),$(ours --load $load --vcs 4 --routing dor)" >> "$out.part"
    echo "adaptive_4vc,$load,$(booksim "$root/tb/booksim/torus8_adapt_vc4.cfg" $load),$(ours --load $load --vcs 4 --routing duato)" >> "$out.part"
    echo "load $load done" >&2
done
# Saturation throughput: the accepted rate at an offered load of 0.9, BookSim in its
# throughput mode (which keeps running past saturation), ours over the measured window.
for net in "dor_2vc torus8_dor_vc2 --vcs 2 --routing dor" "dor_4vc torus8_dor_vc4 --vcs 4 --routing dor" \
    "adaptive_4vc torus8_adapt_vc4 --vcs 4 --routing duato"; do
    # shellcheck disable=SC2086 # split into name, config and flags
    set -- $net
    name=$1 cfg=$2
    shift 2
    echo "$name-saturation,0.9,$(booksim "$root/tb/booksim/$cfg.cfg" 0.9 throughput),$(ours --load 0.9 "$@")" >> "$out.part"
done
mv "$out.part" "$out"
