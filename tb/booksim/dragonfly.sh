#!/usr/bin/env bash
# BookSim 2's dragonflynew (k = 4: 1,056 nodes) beside our dragonfly (issue 39), min and
# ugal routing, uniform and group_shift (BookSim's bad_dragon) traffic, 3 lanes of 256
# flits, 8-flit packets. Writes one CSV row per (routing, pattern, offered load): BookSim's
# and our accepted rate and mean packet latency.
#
#   bash tb/booksim/dragonfly.sh OUT.csv [BOOKSIM_DIR] [LOADS...]
#
# Per-hop mapping (docs/network.md, "Dragonflies beside BookSim 2"): NIC links and credits
# 1 cycle, links inside a group 10 and between groups 100 (flit and credit; BookSim's
# dragonfly.cpp fixes them, use_noc_latency plays no part), head_latency_cycles = 3 and
# switch_latency_cycles = 2 (its RC, VA and SA + ST stages, as for the tori), one packet
# after another in a lane (`--lane-reuse tail`, BookSim's wait_for_tail_credit = 0).
# Ours: --warmup 10000 --cycles 10000; BookSim: warmup_periods = 1 and max_samples = 1 of
# 10,000 cycles (sim_type latency; throughput at the offered load 0.8, which saturates).
# max_samples counts the warm-up period, so BookSim's statistics are those of its first
# 10,000 cycles, from an empty network (docs/network.md, "Dragonflies beside BookSim 2").
set -euo pipefail
out=${1:?usage: dragonfly.sh OUT.csv [BOOKSIM_DIR] [LOADS...]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:-$root/target/booksim/booksim2}
shift $(( $# >= 2 ? 2 : 1 ))
loads=("$@")
[ ${#loads[@]} -gt 0 ] || loads=(0.1 0.8)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new file" >&2
    exit 1
fi
bash "$root/tb/booksim/build.sh" "$dir"
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim ROUTING TRAFFIC LOAD SIM_TYPE: an unstable run prints no averages (empty columns)
booksim() {
    sed -e "s/^routing_function = .*/routing_function = $1;/" -e "s/^traffic = .*/traffic = $2;/" \
        -e "s/^injection_rate = .*/injection_rate = $3;/" -e "s/^sim_type = .*/sim_type = $4;/" \
        "$root/tb/booksim/dragonfly4.cfg" > "$tmp/run.cfg"
    { "$dir/src/booksim" "$tmp/run.cfg" || true; } > "$tmp/log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    echo "${acc:-},${lat:-}"
}
ours() {
    "$bench" --topo dragonfly:4,8,4 --vcs 3 --vc-buf 256 --packet-flits 8 --cc none \
        --link-latency 1 --credit-latency 1 --local-latency 10 --global-latency 100 \
        --switch-latency 2 --head-latency 3 --lane-reuse tail --warmup 10000 --cycles 10000 \
        --seed 1 "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
echo "routing,pattern,offered,booksim_accepted,booksim_latency,ours_accepted,ours_latency" > "$out.part"
for load in "${loads[@]}"; do
    for routing in min ugal; do
        for pattern in uniform group_shift; do
            traffic=uniform
            [ "$pattern" = group_shift ] && traffic=bad_dragon
            mode=latency
            [ "$load" = 0.8 ] && mode=throughput
            echo "$routing,$pattern,$load,$(booksim "$routing" "$traffic" "$load" "$mode"),$(ours --routing "$routing" --pattern "$pattern" --load "$load")" >> "$out.part"
            echo "$routing $pattern $load done" >&2
        done
    done
done
mv "$out.part" "$out"
