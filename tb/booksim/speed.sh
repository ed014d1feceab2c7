#!/usr/bin/env bash
# Simulation speed of BookSim 2 and of our lane router on the same network, alternating
# (issue 22: at least 10x BookSim's node-cycles per CPU second): a 16-ary 2-cube torus, DOR,
# 4 lanes of 8 flits, 16-flit packets, uniform traffic at 0.16 flits/node/cycle, 1-cycle
# channels (tb/booksim/torus16_dor_vc4.cfg). BookSim's CPU time is its user+system time
# (/usr/bin/time) over the cycles it reports; ours is net-bench's node_cycles_per_cpu_s.
#
#   bash tb/booksim/speed.sh [ROUNDS] [BOOKSIM_DIR]
set -euo pipefail
rounds=${1:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:-$root/target/booksim/booksim2}
[ -x "$dir/src/booksim" ] || { echo "error: no $dir/src/booksim: run tb/booksim/run.sh first" >&2; exit 1; }
(cd "$root" && cargo build --release -q --bin net-bench)
bench=$(cd "$root" && bash tb/release_dir.sh)/net-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < rounds; i++)); do
    { /usr/bin/time -f "%U %S" -o "$tmp/t" "$dir/src/booksim" "$root/tb/booksim/torus16_dor_vc4.cfg" || true; } > "$tmp/log" 2>&1
    cyc=$(sed -n 's/^Time taken is \([0-9]*\) cycles.*/\1/p' "$tmp/log" | tail -1)
    # the last line is "user system" (a line before it reports BookSim's exit status 255)
    b=$(tail -1 "$tmp/t" | awk -v c="$cyc" '{ printf "%.3e", c * 256 / ($1 + $2) }')
    o=$("$bench" --topo torus:16,2 --vcs 4 --vc-buf 8 --routing dor \
        --packet-flits 16 --cc none --load 0.16 --link-latency 1 --credit-latency 1 \
        --switch-latency 5 --cycles "$cyc" --seed 1 | tr ' ' '\n' | sed -n 's/^node_cycles_per_cpu_s=//p')
    echo "round $i: $cyc cycles: booksim $b ours $o node-cycles/CPU-s, ours/booksim $(awk -v o="$o" -v b="$b" 'BEGIN { printf "%.1f", o / b }')"
done
