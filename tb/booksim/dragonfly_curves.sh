#!/usr/bin/env bash
# Load sweeps of BookSim 2's dragonflynew (k = 4: 1,056 nodes) beside our dragonfly (issue
# 39): the four cases of dragonfly.sh (min and ugal routing, uniform and group_shift =
# BookSim's bad_dragon traffic, 3 lanes of 256 flits, 8-flit packets, the same per-hop
# mapping and run lengths), each over its own list of offered loads (group_shift saturates
# near 1/32 under min, so its loads are lower). Writes one CSV row per (routing, pattern,
# offered load): BookSim's run mode and its and our accepted rate and mean packet latency;
# the plots come from
#   cargo run --release -p pft-tb --example booksim_dragonfly_plot -- OUT.csv DIR
#
#   bash tb/booksim/dragonfly_curves.sh OUT.csv [BOOKSIM_DIR]
#
# BookSim runs `sim_type = latency` (dragonfly4.cfg: warmup_periods = 1 and max_samples =
# 1, so its statistics are those of its first 10,000 cycles, from an empty network; then
# it drains the packets it measured); when that run stops unstable (its mean latency
# passes latency_thres = 500 cycles, no overall averages printed) the point is run again
# in `throughput` mode, stopped once it has printed its period's statistics (it would
# then deliver every queued packet, a long drain past saturation that changes none of
# them), and only its accepted rate is kept (its latency then covers only the packets
# delivered within the period). Offered 0.8 runs `throughput` directly, as dragonfly.sh.
# booksim_mode says which. Two streams run side by side (2 cores), each under nice, each
# appending its rows to OUT.csv.part-a / -b as it goes; a second call with the same OUT
# resumes a stopped sweep (points already in the part files are skipped). Inside a case
# the loads run in the order listed: the knee of the uniform curves first.
set -euo pipefail
out=${1:?usage: dragonfly_curves.sh OUT.csv [BOOKSIM_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:-$root/target/booksim/booksim2}
if [ -e "$out" ]; then
    echo "error: $out exists; give a new file" >&2
    exit 1
fi
# routing pattern loads...: the sweep
cases=(
    "ugal group_shift 0.02 0.05 0.1 0.2 0.8"
    "min uniform 0.3 0.45 0.5 0.4 0.2 0.6 0.1 0.02 0.8"
    "min group_shift 0.01 0.02 0.03 0.05 0.1"
    "ugal uniform 0.3 0.45 0.5 0.4 0.2 0.6 0.1 0.02 0.8"
)
bash "$root/tb/booksim/build.sh" "$dir"
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# booksim TAG ROUTING TRAFFIC LOAD SIM_TYPE: prints "accepted,latency", empty when the run
# printed no overall averages (unstable); in throughput mode the accepted rate of the
# period (the line printed before "Draining remaining packets"; the overall average
# repeats it) and no latency
booksim() {
    sed -e "s/^routing_function = .*/routing_function = $2;/" -e "s/^traffic = .*/traffic = $3;/" \
        -e "s/^injection_rate = .*/injection_rate = $4;/" -e "s/^sim_type = .*/sim_type = $5;/" \
        "$root/tb/booksim/dragonfly4.cfg" > "$tmp/$1.cfg"
    local log=$tmp/$1.log
    if [ "$5" = throughput ]; then
        nice "$dir/src/booksim" "$tmp/$1.cfg" > "$log" 2>&1 &
        local pid=$!
        while kill -0 "$pid" 2>/dev/null; do
            if grep -q '^Draining remaining packets' "$log"; then
                kill "$pid" 2>/dev/null || true
                break
            fi
            sleep 2
        done
        wait "$pid" 2>/dev/null || true
        acc=$(sed -n 's/^Accepted flit rate average= *\([0-9.]*\).*/\1/p' "$log" | tail -1)
        grep -q '^Draining remaining packets' "$log" || acc=
        echo "${acc:-},"
        return
    fi
    { nice "$dir/src/booksim" "$tmp/$1.cfg" || true; } > "$log" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' "$log" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.]*\).*/\1/p' "$log" | tail -1)
    [ -n "$acc" ] || lat=
    echo "${acc:-},${lat:-}"
}
ours() {
    nice "$bench" --topo dragonfly:4,8,4 --vcs 3 --vc-buf 256 --packet-flits 8 --cc none \
        --link-latency 1 --credit-latency 1 --local-latency 10 --global-latency 100 \
        --switch-latency 2 --head-latency 3 --lane-reuse tail --warmup 10000 --cycles 10000 \
        --seed 1 "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
# sweep TAG CASE...: one stream, rows to $out.part-TAG
sweep() {
    local tag=$1
    shift
    for c in "$@"; do
        read -r routing pattern loads <<< "$c"
        traffic=uniform
        [ "$pattern" = group_shift ] && traffic=bad_dragon
        for load in $loads; do
            if grep -q "^$routing,$pattern,$load," "$out.part-$tag"; then
                continue # resumed: done before
            fi
            mode=latency
            [ "$load" = 0.8 ] && mode=throughput
            bs=$(booksim "$tag" "$routing" "$traffic" "$load" "$mode")
            if [ "$bs" = "," ] && [ "$mode" = latency ]; then
                mode=throughput
                bs=$(booksim "$tag" "$routing" "$traffic" "$load" "$mode")
            fi
            echo "$routing,$pattern,$load,$mode,$bs,$(ours --routing "$routing" --pattern "$pattern" --load "$load")" >> "$out.part-$tag"
            echo "$(date -u +%H:%M:%S) $routing $pattern $load ($mode) done" >&2
        done
    done
}
head="routing,pattern,offered,booksim_mode,booksim_accepted,booksim_latency,ours_accepted,ours_latency"
[ -e "$out.part-a" ] || echo "$head" > "$out.part-a"
[ -e "$out.part-b" ] || echo "$head" > "$out.part-b"
sweep a "${cases[0]}" "${cases[1]}" &
pa=$!
sweep b "${cases[2]}" "${cases[3]}" &
pb=$!
wait "$pa"
wait "$pb"
{ cat "$out.part-a"; tail -n +2 "$out.part-b"; } > "$out.part"
mv "$out.part" "$out"
rm "$out.part-a" "$out.part-b"
