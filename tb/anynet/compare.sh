#!/usr/bin/env bash
# Built-in topologies against the same topologies written as anynet files (issue 43):
# one CSV row per (topology, load) with both accepted rates and mean latencies.
#
#   bash tb/anynet/compare.sh OUT.csv [LOADS...]     (default loads 0.1 0.3 0.5 0.8)
#
# The file versions route up*/down* and (with lanes) `shortest`, `shortest_rising`,
# `shortest_adaptive` and `shortest_updown` (docs/network.md, "Topologies from a file");
# the built-in ones their
# own routing: d-mod-k up/down (fat tree, k-ary n-tree), dimension order with dateline
# lanes (torus), Duato's adaptive routing (torus8x8-duato), minimal (dragonfly). Same lanes,
# buffers, packets and latencies on both sides (dragonfly4-lat: the links inside and
# between groups 10 and 100 cycles, written into its file); 10,000 cycles of warm-up,
# 20,000 measured, seed 1 (SEED=n: seed n, both sides). ONLY="name ..." runs those cases
# alone. RELABEL=n (n >= 1): the file side runs a copy of each file with its routers
# renumbered at random by seed n (tb/anynet/relabel.py: the same graph, latencies and NICs;
# the routing's tie-breaks, port order and up*/down* root change); 0, the default, none.
set -euo pipefail
out=${1:?usage: compare.sh OUT.csv [LOADS...]}
seed=${SEED:-1}
case "$seed" in '' | *[!0-9]*) echo "error: SEED must be a whole number >= 0, got '$seed'" >&2; exit 2 ;; esac
relabel=${RELABEL:-0}
case "$relabel" in '' | *[!0-9]*) echo "error: RELABEL must be a whole number >= 0, got '$relabel'" >&2; exit 2 ;; esac
shift
loads=("$@")
[ ${#loads[@]} -gt 0 ] || loads=(0.1 0.3 0.5 0.8)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new file" >&2
    exit 1
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$root" && cargo build --release -q --locked --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name|built-in topology|file routings|options (both sides)|built-in's own options|
# topology options (the built-in side and the file's writing)
cases=(
    "ft128|ft128|updown|--packet-flits 8|"
    "tree4x3|tree:4,3|updown|--packet-flits 8|"
    "torus8x8|torus:8,2|updown shortest shortest_rising shortest_adaptive shortest_updown|--vcs 8 --vc-buf 16 --packet-flits 8|"
    "torus8x8-duato|torus:8,2|shortest_adaptive shortest_updown|--vcs 8 --vc-buf 16 --packet-flits 8|--routing duato"
    "dragonfly4|dragonfly:4,8,4|updown shortest shortest_rising shortest_adaptive shortest_updown|--vcs 3 --vc-buf 256 --packet-flits 8 --lane-reuse tail|"
    "dragonfly4-lat|dragonfly:4,8,4|updown shortest shortest_rising shortest_adaptive shortest_updown|--vcs 3 --vc-buf 256 --packet-flits 8 --lane-reuse tail||--local-latency 10 --global-latency 100"
)
run() {
    # shellcheck disable=SC2086
    "$bench" --cc none --warmup 10000 --cycles 20000 --seed "$seed" --topo "$@" |
        tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p; s/^latency_mean_cycles=//p' |
        paste -sd,
}
for o in ${ONLY:-}; do
    if ! printf '%s\n' "${cases[@]}" | grep -q "^$o|"; then
        echo "error: ONLY: no case named $o" >&2
        exit 1
    fi
done
echo "topology,offered,file_routing,builtin_accepted,builtin_latency,file_accepted,file_latency" > "$out.part"
for c in "${cases[@]}"; do
    IFS='|' read -r name topo routings opts own tops <<< "$c"
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
        continue
    fi
    # shellcheck disable=SC2086
    "$bench" --topo "$topo" $tops --write-anynet "$tmp/$name.net"
    if [ "$relabel" != 0 ]; then
        python3 "$root/tb/anynet/relabel.py" "$tmp/$name.net" "$relabel" "$tmp/$name.r.net"
        mv "$tmp/$name.r.net" "$tmp/$name.net"
    fi
    for load in "${loads[@]}"; do
        # shellcheck disable=SC2086
        b=$(run "$topo" $opts $own $tops --load "$load")
        for r in $routings; do
            # shellcheck disable=SC2086
            f=$(run "file:$tmp/$name.net" $opts --routing "$r" --load "$load")
            echo "$name,$load,$r,$b,$f" | tee -a "$out.part"
        done
    done
done
mv "$out.part" "$out"
