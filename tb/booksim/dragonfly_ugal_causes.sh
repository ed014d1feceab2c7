#!/usr/bin/env bash
# Why ours accepts about twice what BookSim 2 does with ugal under group_shift (bad_dragon)
# at an offered 0.8 on the k = 4 dragonfly (issue 39, docs/network.md §9, "Dragonflies
# beside BookSim 2"). BookSim variants, each a copy of the stock build with one patch from
# tb/booksim/ applied (or both), the rest as dragonfly.sh (throughput mode):
# - stock;
# - dragonfly_inject_one_lane.patch: its NICs inject into VC 0 only (stock: a random one
#   of the 3 VCs per packet), as our NIC's one lane;
# - ugal_intm_group.patch: a non-minimal packet turns minimal at the first router of its
#   intermediate node's group (stock: at the intermediate router itself, one more local
#   hop in most cases), as ours, which routes through an intermediate group;
# - both patches.
# Ours: ugal (dragonfly.sh's command), and valiant (every packet leaving its group goes
# through a random group: the non-minimal capacity of our wiring and lanes).
#
#   bash tb/booksim/dragonfly_ugal_causes.sh OUT.csv [BOOKSIM_DIR]
set -euo pipefail
out=${1:?usage: dragonfly_ugal_causes.sh OUT.csv [BOOKSIM_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=28f43299
dir=${2:-$root/target/booksim/booksim2}
load=0.8
if [ -e "$out" ] || [ -e "$out.part" ]; then
    echo "error: $out (or $out.part) exists; give a new file" >&2
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
# patched copies of the stock build (only dragonfly.cpp recompiles): $dir-<name>
build() {
    local name=$1
    shift
    local pdir=$dir-$name
    if [ ! -x "$pdir/src/booksim" ] || [ "$pdir/src/booksim" -ot "$pdir/src/networks/dragonfly.cpp" ]; then
        rm -rf "$pdir"
        cp -a "$dir" "$pdir"
        for patch in "$@"; do
            git -C "$pdir" apply "$root/tb/booksim/$patch.patch"
        done
        nice make -C "$pdir/src" -j2 >/dev/null 2>&1
    fi
}
build dragonfly_inject_one_lane dragonfly_inject_one_lane
build ugal_intm_group ugal_intm_group
build ugal_both dragonfly_inject_one_lane ugal_intm_group
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$root/target/release/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim BIN_DIR: "accepted,latency" of ugal, bad_dragon at $load, throughput mode
booksim() {
    sed -e "s/^routing_function = .*/routing_function = ugal;/" -e "s/^traffic = .*/traffic = bad_dragon;/" \
        -e "s/^injection_rate = .*/injection_rate = $load;/" -e "s/^sim_type = .*/sim_type = throughput;/" \
        "$root/tb/booksim/dragonfly4.cfg" > "$tmp/run.cfg"
    { nice "$1/src/booksim" "$tmp/run.cfg" || true; } > "$tmp/log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$tmp/log" | tail -1)
    echo "${acc:-},${lat:-}"
}
ours() {
    nice "$bench" --topo dragonfly:4,8,4 --vcs 3 --vc-buf 256 --packet-flits 8 --cc none \
        --link-latency 1 --credit-latency 1 --local-latency 10 --global-latency 100 \
        --switch-latency 2 --head-latency 3 --lane-reuse tail --warmup 10000 --cycles 10000 \
        --seed 1 --pattern group_shift --load "$load" "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
echo "simulator,variant,offered,accepted,latency" > "$out.part"
for v in stock dragonfly_inject_one_lane ugal_intm_group ugal_both; do
    bdir=$dir
    [ "$v" = stock ] || bdir=$dir-$v
    echo "booksim,$v,$load,$(booksim "$bdir")" >> "$out.part"
    echo "$(date -u +%H:%M:%S) booksim $v done" >&2
done
for r in ugal valiant; do
    echo "ours,$r,$load,$(ours --routing "$r")" >> "$out.part"
done
mv "$out.part" "$out"
