#!/usr/bin/env bash
# Latency-load curves of BookSim 2 and our lane router on the same networks (issue 22),
# uniform traffic, 16-flit packets, lanes of 8 flits:
# - an 8-ary 2-cube torus with dimension-order routing, 2 and 4 lanes (`dor_2vc`,
#   `dor_4vc`), and adaptive routing, 4 lanes, against BookSim's min_adapt as shipped
#   (`adaptive_4vc`) and against BookSim with min_adapt_lanes.patch, which offers the
#   adaptive directions on lanes 2-3 as our `duato` does instead of lane 3 only
#   (`adaptive_4vc_lanes`);
# - a 4-ary 3-fly with destination-tag routing, 4 lanes, against BookSim as shipped
#   (`fly_4vc`: its NICs inject into 4 lanes) and with inject_one_lane.patch (`fly_4vc_inject1`:
#   one injection lane, as our NIC).
# Writes one CSV row per (network, offered load): BookSim's and our accepted rate and mean
# packet latency, and per network a `-saturation` row: the accepted rates at an offered
# load of 0.9.
#
#   bash tb/booksim/curves.sh OUT.csv [BOOKSIM_DIR]
#
# Delays matched to BookSim's router (docs/network.md §9, "BookSim 2"): 1-cycle links and
# credits, head_latency_cycles = 3 (its routing and VC allocation, and the input write),
# switch_latency_cycles = 2 (its switch allocation and traversal). Ours: `net-bench
# --warmup 20000 --cycles 50000`; BookSim: sim_type = latency, 3 warm-up and up to 5
# sample periods of 10,000 cycles.
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
# patched copies beside the stock one, built once: $dir-<patch name>
for patch in min_adapt_lanes inject_one_lane; do
    pdir=$dir-$patch
    if [ ! -x "$pdir/src/booksim" ]; then
        rm -rf "$pdir"
        git clone -q "$dir" "$pdir"
        git -C "$pdir" checkout -q "$rev"
        git -C "$pdir" apply "$root/tb/booksim/$patch.patch"
        make -C "$pdir/src" -j2 >/dev/null 2>&1
    fi
done
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim CFG LOAD [SIM_TYPE] [PATCH]: BookSim exits with status 255 after printing its
# results; an unstable (saturated) run prints no averages: its columns are left empty.
booksim() {
    local bin=$dir/src/booksim
    if [ -n "${4:-}" ]; then bin=$dir-$4/src/booksim; fi
    sed -e "s/^injection_rate = .*/injection_rate = $2;/" -e "s/^sim_type = .*/sim_type = ${3:-latency};/" "$root/tb/booksim/$1.cfg" > "$tmp/run.cfg"
    { "$bin" "$tmp/run.cfg" || true; } > "$tmp/log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    echo "${acc:-},${lat:-}"
}
ours() {
    "$bench" --packet-flits 16 --vc-buf 8 --cc none --link-latency 1 --credit-latency 1 \
        --switch-latency 2 --head-latency 3 --warmup 20000 --cycles 50000 --seed 1 "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
# name, BookSim config, BookSim patch (- for none), our flags
nets=(
    "dor_2vc torus8_dor_vc2 - --topo torus:8,2 --vcs 2 --routing dor"
    "dor_4vc torus8_dor_vc4 - --topo torus:8,2 --vcs 4 --routing dor"
    "adaptive_4vc torus8_adapt_vc4 - --topo torus:8,2 --vcs 4 --routing duato"
    "adaptive_4vc_lanes torus8_adapt_vc4 min_adapt_lanes --topo torus:8,2 --vcs 4 --routing duato"
    "fly_4vc fly4_3_vc4 - --topo fly:4,3 --vcs 4"
    "fly_4vc_inject1 fly4_3_vc4 inject_one_lane --topo fly:4,3 --vcs 4"
)
echo "network,offered,booksim_accepted,booksim_latency,ours_accepted,ours_latency" > "$out.part"
for load in 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.7 0.9; do
    for net in "${nets[@]}"; do
        # shellcheck disable=SC2086 # split into name, config, patch and flags
        set -- $net
        name=$1 cfg=$2 patch=$3
        shift 3
        [ "$patch" = - ] && patch=
        if [ "$load" = 0.9 ]; then
            # saturation: BookSim in its throughput mode (which keeps running past
            # saturation), ours over the measured window
            echo "$name-saturation,0.9,$(booksim "$cfg" 0.9 throughput "$patch"),$(ours --load 0.9 "$@")" >> "$out.part"
        else
            echo "$name,$load,$(booksim "$cfg" "$load" latency "$patch"),$(ours --load "$load" "$@")" >> "$out.part"
        fi
    done
    echo "load $load done" >&2
done
mv "$out.part" "$out"
