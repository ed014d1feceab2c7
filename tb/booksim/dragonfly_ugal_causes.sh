#!/usr/bin/env bash
# Why ours accepts about twice what BookSim 2 does with ugal under group_shift (bad_dragon)
# at an offered 0.8 on the k = 4 dragonfly (issue 39, docs/network.md §9, "Dragonflies
# beside BookSim 2"). All BookSim runs: dragonfly4.cfg in throughput mode, stopped once it
# has printed its statistics (the drain of the queued packets that follows changes none).
# - the measured window: dragonfly4.cfg's warmup_periods = 1 with max_samples = 1 makes
#   BookSim measure its first 10,000 cycles (the warm-up: it starts from an empty network);
#   max_samples = 2 measures cycles 10,000-20,000 as ours (--warmup 10000 --cycles 10000);
# - BookSim variants in that window, each a copy of the stock build with patches from
#   tb/booksim/: dragonfly_inject_one_lane.patch (NICs inject into VC 0 only; stock: a
#   random one of the 3 VCs per packet, ours: one lane), ugal_intm_group.patch (a
#   non-minimal packet turns minimal at the first router of its intermediate node's
#   group, as ours; stock: at the intermediate router, one more local hop in most cases),
#   and both;
# - ours: ugal as dragonfly.sh, ugal over BookSim's window (--warmup 0 --cycles 10000),
#   and valiant (every packet leaving its group through a random group).
#
#   bash tb/booksim/dragonfly_ugal_causes.sh OUT.csv [BOOKSIM_DIR]
set -euo pipefail
out=${1:?usage: dragonfly_ugal_causes.sh OUT.csv [BOOKSIM_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:-$root/target/booksim/booksim2}
load=0.8
if [ -e "$out" ] || [ -e "$out.part" ]; then
    echo "error: $out (or $out.part) exists; give a new file" >&2
    exit 1
fi
bash "$root/tb/booksim/build.sh" "$dir"
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
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim BIN_DIR MAX_SAMPLES: the accepted rate of ugal, bad_dragon at $load in the last
# period BookSim printed before its drain
booksim() {
    sed -e "s/^routing_function = .*/routing_function = ugal;/" -e "s/^traffic = .*/traffic = bad_dragon;/" \
        -e "s/^injection_rate = .*/injection_rate = $load;/" -e "s/^sim_type = .*/sim_type = throughput;/" \
        -e "s/^max_samples = .*/max_samples = $2;/" "$root/tb/booksim/dragonfly4.cfg" > "$tmp/run.cfg"
    nice "$1/src/booksim" "$tmp/run.cfg" > "$tmp/log" 2>&1 &
    local pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if grep -q '^Draining remaining packets' "$tmp/log"; then
            kill "$pid" 2>/dev/null || true
            break
        fi
        sleep 2
    done
    wait "$pid" 2>/dev/null || true
    grep -q '^Draining remaining packets' "$tmp/log" || return 0
    sed -n 's/^Accepted flit rate average= *\([0-9.]*\).*/\1/p' "$tmp/log" | tail -1
}
ours() {
    nice "$bench" --topo dragonfly:4,8,4 --vcs 3 --vc-buf 256 --packet-flits 8 --cc none \
        --link-latency 1 --credit-latency 1 --local-latency 10 --global-latency 100 \
        --switch-latency 2 --head-latency 3 --lane-reuse tail --seed 1 --pattern group_shift \
        --load "$load" "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p'
}
echo "simulator,variant,window_cycles,offered,accepted" > "$out.part"
# variant (build dir suffix, - for stock), max_samples
for v in "stock 1" "stock 2" "dragonfly_inject_one_lane 2" "ugal_intm_group 2" "ugal_both 2"; do
    read -r name samples <<< "$v"
    bdir=$dir
    [ "$name" = stock ] || bdir=$dir-$name
    window=0-10000
    [ "$samples" = 2 ] && window=10000-20000
    echo "booksim,$name,$window,$load,$(booksim "$bdir" "$samples")" >> "$out.part"
    echo "$(date -u +%H:%M:%S) booksim $name $samples done" >&2
done
echo "ours,ugal,10000-20000,$load,$(ours --routing ugal --warmup 10000 --cycles 10000)" >> "$out.part"
echo "ours,ugal,0-10000,$load,$(ours --routing ugal --warmup 0 --cycles 10000)" >> "$out.part"
echo "ours,valiant,10000-20000,$load,$(ours --routing valiant --warmup 10000 --cycles 10000)" >> "$out.part"
mv "$out.part" "$out"
