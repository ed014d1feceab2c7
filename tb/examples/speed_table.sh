#!/usr/bin/env bash
# docs/network.md §9's tables again: `net-bench` on the rows of the speed table, the IB CC
# cost runs and the sanity figures, ROUNDS rounds alternating (round r: every row once, in
# the order below), one run at a time. Writes OUT/runs.csv: row,round, then every field of
# net-bench's line in its order (docs/network.md §9 names them), so that a reader sees each
# run's speed and memory beside its accepted rate. Run it on an otherwise idle machine:
# the speeds are CPU time and move with what runs beside them. The release build
# (`cargo build --release`, as the docs' commands), or NETBENCH=path.
#
#   bash tb/examples/speed_table.sh OUT [ROUNDS]     (OUT: a new directory; ROUNDS default 5)
set -euo pipefail
out=${1:?usage: speed_table.sh OUT [ROUNDS]}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
case $rounds in '' | *[!0-9]* | 0) echo "error: ROUNDS must be a positive integer" >&2; exit 1 ;; esac
if [ -z "${NETBENCH:-}" ]; then
    (cd "$root" && cargo build --release -p pft-sim --bin net-bench)
    NETBENCH=$(cd "$root" && bash tb/release_dir.sh)/net-bench
fi
mkdir -p "$out"

# row name, then net-bench's flags (the sanity rows and the 10^6-cycle run once: their
# outputs do not depend on the round, and the long run would take most of the time)
rows=(
    "ft128|--topo ft128 --load 0.5 --cycles 100000"
    "ft128_voq|--topo ft128 --load 0.5 --cycles 100000 --voq"
    "ft128_check|--topo ft128 --load 0.5 --cycles 100000 --check"
    "ft120|--topo ft120 --load 0.5 --cycles 100000"
    "ib648_30k|--topo ib648 --load 0.5 --cycles 30000"
    "ft128_rtl|--topo ft128 --load 0.5 --cycles 2000 --engine rtl"
    "ib648_rtl|--topo ib648 --load 0.5 --cycles 300 --engine rtl"
    "ft128_voq_none_200k|--topo ft128 --load 0.5 --cycles 200000 --voq --cc none"
    "ft128_voq_pft_200k|--topo ft128 --load 0.5 --cycles 200000 --voq --cc pft"
    "ft128_voq_ibcc_200k|--topo ft128 --load 0.5 --cycles 200000 --voq --cc ibcc"
)
once=(
    "ib648_1m|--topo ib648 --load 0.5 --cycles 1000000"
    "single32|--topo single:32 --cc none --load 0.95 --cycles 100000"
    "single32_voq|--topo single:32 --cc none --load 0.95 --cycles 100000 --voq"
    "ft128_sat|--topo ft128 --cc none --load 0.95 --cycles 100000"
    "ft128_sat_voq|--topo ft128 --cc none --load 0.95 --cycles 100000 --voq"
)

csv=$out/runs.csv
# one run: its line as CSV (the header from the first line's keys)
one() {
    local name=$1 r=$2 flags=$3 line
    # shellcheck disable=SC2086 # the flags are words
    line=$("$NETBENCH" $flags)
    echo "$line" >> "$out/lines.txt"
    if [ ! -s "$csv" ]; then
        echo "row,round,$(echo "$line" | tr ' ' '\n' | cut -d= -f1 | paste -sd,)" > "$csv"
    fi
    echo "$name,$r,$(echo "$line" | tr ' ' '\n' | cut -d= -f2- | paste -sd,)" >> "$csv"
    echo "$name round $r: $line"
}
for r in $(seq 1 "$rounds"); do
    for row in "${rows[@]}"; do
        one "${row%%|*}" "$r" "${row#*|}"
    done
done
for row in "${once[@]}"; do
    one "${row%%|*}" 1 "${row#*|}"
done
echo "wrote $csv"
