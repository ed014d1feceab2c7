#!/usr/bin/env bash
# BookSim 2 beside our network model on the same configuration (issue 22's yardstick).
# Builds BookSim 2 (booksim/booksim2 at a fixed commit; needs g++, bison, flex) into
# target/booksim/, then runs each comparison: BookSim on tb/booksim/<name>.cfg and
# `net-bench` with the matching flags, and prints both accepted rates.
#
#   bash tb/booksim/run.sh [BOOKSIM_DIR]
#
# BOOKSIM_DIR: an existing checkout to build instead of cloning from GitHub.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=28f43299
dir=${1:-$root/target/booksim/booksim2}
if [ ! -d "$dir/src" ]; then
    mkdir -p "$(dirname "$dir")"
    git clone -q https://github.com/booksim/booksim2 "$dir"
    git -C "$dir" checkout -q "$rev"
fi
[ -x "$dir/src/booksim" ] || make -C "$dir/src" -j2 >/dev/null
(cd "$root" && cargo build --release -q --bin net-bench)
bench="$(cd "$root" && bash tb/release_dir.sh)/net-bench"
# BookSim exits with status 255 after printing its results: the rate line is what counts.
booksim_rate() { { "$dir/src/booksim" "$1" || true; } | sed -n 's/^Accepted flit rate average = \([0-9.]*\).*/\1/p' | tail -1; }
ours_rate() { "$bench" "$@" | tr ' ' '\n' | sed -n 's/^accepted_flits_per_node_cycle=//p'; }

# single32: saturation throughput of one 32-port input-queued switch, uniform traffic,
# 64-flit packets, no VOQ (head-of-line blocking: 2 - sqrt(2) = 0.586 in the limit).
b=$(booksim_rate "$root/tb/booksim/single32.cfg")
o=$(ours_rate --topo single:32 --cc none --load 0.95 --cycles 100000 --seed 1)
echo "single32 (saturation, uniform, 64-flit packets): booksim $b ours $o"
