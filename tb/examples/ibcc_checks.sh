#!/usr/bin/env bash
# The checks behind docs/results.md's 100 % B misses of the windy forest ("The windy forest
# at 50, 75 and 100 % B nodes", "Misses, measured"): copies of
# scenarios/ib-windy-forest.toml, each changed in one thing, run by the `windy_forest` and
# `ib_census` examples at 100 % B nodes.
#   cct    p = 60, three `[[cc]]` entries: Table I's (`ibcc`), a 1024-entry linear CCT
#          (`ibcc_cct1024`: ccti_limit = 1023) and that CCT with an increase of 2 a BECN
#          (`ibcc_inc2`); `ib_census` of the last two (mean CCTI, full input buffers)
#   bypass p = 60 and 90, `network.arbitration = "bypass"` (the switch allocator before
#          2026-11-25)
#   buf128, buf512
#          p = 90, no congestion control, `network.buffer_flits` = 128 or 512 (the file: 256)
# Writes OUT/checks.csv: check, then the columns of each copy's windy.csv (p, config,
# rx_hot, rx_nonhot, rx_total, t_max in Gb/s, b), OUT/<check>/ (each copy's scenario.toml,
# and runs/ with its windy.csv and windy.svg) and OUT/census-<entry>.txt. Ten runs and two
# censuses of 1.5 M cycles on 648 NICs, two at a time: 4.5 minutes on 2 cores (2026-12-07).
#
#   bash tb/examples/ibcc_checks.sh OUT        (OUT: a new directory)
set -euo pipefail
out=${1:?usage: ibcc_checks.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "error: $out exists; give a new directory" >&2
    exit 1
fi
(cd "$root" && cargo build --release -p pft-sim --example windy_forest --example ib_census)
bin=$(cd "$root" && bash tb/release_dir.sh)/examples
base=$root/scenarios/ib-windy-forest.toml
mkdir -p "$out"

# copy NAME EDIT...: OUT/NAME/scenario.toml, the base file through `sed` with the edits
copy() {
    local name=$1
    shift
    mkdir -p "$out/$name"
    sed "$@" "$base" > "$out/$name/scenario.toml"
}
copy cct -e '$a\
\
[[cc]]\
name = "ibcc_cct1024"\
kind = "ibcc"\
ccti_limit = 1023\
\
[[cc]]\
name = "ibcc_inc2"\
kind = "ibcc"\
ccti_increase = 2\
ccti_limit = 1023'
copy bypass -e '/^\[network\]/a\
arbitration = "bypass"'
# (no [[cc]] entry: congestion control off only)
copy buf128 -e 's/^buffer_flits = 256 .*/buffer_flits = 128/' -e '/^\[\[cc\]\]/,$d'
copy buf512 -e 's/^buffer_flits = 256 .*/buffer_flits = 512/' -e '/^\[\[cc\]\]/,$d'
for c in buf128 buf512; do
    grep -q "^buffer_flits = ${c#buf}\$" "$out/$c/scenario.toml" ||
        { echo "error: $c: buffer_flits not replaced" >&2; exit 1; }
done

run() {
    local name=$1 p=$2
    "$bin/windy_forest" "$out/$name/scenario.toml" --out "$out/$name/runs" --b 100 --p "$p" --jobs 2
}
run cct 60
run bypass 60,90
"$bin/windy_forest" "$out/buf128/scenario.toml" --out "$out/buf128/runs" --b 100 --p 90 --jobs 1 &
pid=$!
"$bin/windy_forest" "$out/buf512/scenario.toml" --out "$out/buf512/runs" --b 100 --p 90 --jobs 1
wait $pid
B100=(--set workload.frac_b=1.0 --set workload.frac_c=0.0 --set workload.frac_v=0.0)
"$bin/ib_census" "$out/cct/scenario.toml" --cc ibcc_cct1024 "${B100[@]}" > "$out/census-ibcc_cct1024.txt" &
pid=$!
"$bin/ib_census" "$out/cct/scenario.toml" --cc ibcc_inc2 "${B100[@]}" > "$out/census-ibcc_inc2.txt"
wait $pid

{
    head -1 "$out/cct/runs/windy.csv" | sed 's/^/check,/'
    for c in cct bypass buf128 buf512; do
        tail -n +2 "$out/$c/runs/windy.csv" | sed "s/^/$c,/"
    done
} > "$out/checks.csv"
cat "$out/checks.csv"
