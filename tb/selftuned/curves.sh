#!/usr/bin/env bash
# Seed 003's steady loads (its Fig. 1 and Figs. 4, 13-15): accepted throughput and mean
# packet latency against offered load on the 16-ary 2-cube of scenarios/selftuned-bursty.toml,
# for every [[cc]] row of that file, under uniform random and complement traffic. Each
# point is `pftsim compare` of that scenario with its phases replaced by a steady load
# (`--set workload.phases=[]`), the same 60,000 cycles and 10,000 of warm-up.
#
#   bash tb/selftuned/curves.sh OUT_DIR [JOBS]
#
# PATTERNS (space-separated; default "uniform complement") adds the seed's other patterns:
# PATTERNS="uniform complement bit_reversal shuffle". Each pattern also gets its own pair
# of plots, OUT_DIR/selftuned_<pattern>_{latency,accepted}.svg.
#
# Writes OUT_DIR/curves.csv (pattern, load, row, accepted, lat_mean, lat_p99, cong%, thr%)
# and OUT_DIR/runs/<pattern>-<load>/ (each compare's own files); then the plots
# OUT_DIR/selftuned_{latency,accepted}.svg (tb/examples/selftuned_curves.rs).
set -euo pipefail
out=${1:?usage: curves.sh OUT_DIR [JOBS]}
jobs=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
sc=$root/scenarios/selftuned-bursty.toml
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
mkdir -p "$out/runs"
cargo build --release -q --bin pftsim --manifest-path "$root/Cargo.toml"
bin=$(bash "$root/tb/release_dir.sh")/pftsim
loads="0.05 0.1 0.15 0.2 0.25 0.3 0.4 0.5 0.7"
points=()
for p in ${PATTERNS-uniform complement}; do
    for l in $loads; do
        points+=("$p $l")
    done
done
one() {
    local p=$1 l=$2
    "$bin" compare "$sc" --out "$out/runs/$p-$l" --yes \
        --set 'workload.phases=[]' --set "workload.load=$l" \
        --set "workload.pattern={ kind = \"$p\" }" >"$out/runs/$p-$l.txt" 2>&1 \
        || { echo "error: $p $l failed, see $out/runs/$p-$l.txt" >&2; return 1; }
}
export -f one
export bin sc out
printf '%s\n' "${points[@]}" | xargs -P "$jobs" -L 1 bash -c 'one $0 $1'
cargo run --release -q -p pft-tb --example selftuned_curves --manifest-path "$root/Cargo.toml" -- "$out"
echo "wrote $out/curves.csv, $out/selftuned_latency.svg, $out/selftuned_accepted.svg"
