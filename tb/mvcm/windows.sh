#!/usr/bin/env bash
# Why MVCM's peak sits above Renato's at some seeds, and why Renato marks more hot packets
# (docs/results.md, "On the bidirectional MIN"): scenarios/mvcm-hotspot.toml's network and
# traffic with the window and validation ablated, one `pftsim run` per row and seed:
#   renato, renato_w2 (window 2), mvcm (39 / 37), mvcm_dw1 (DWmax 1), mvcm_novalid (no
#   validation), mvcm_seed (66 / 33), pfister, and nohot (`none` with the hot-spot hosts
#   silent: the cold packets' peak without a congestion tree).
# Writes OUT/rows.toml, OUT/<row>-s<seed>/, OUT/windows.csv (one line per run) and
# OUT/fig10.csv (hot packets marked and the hot-spot link per 100,000 cycles).
#
#   bash tb/mvcm/windows.sh OUT_DIR [SEED ...]   (default seeds 1 2; PFTSIM=path: that pftsim)
set -euo pipefail
out=${1:?usage: windows.sh OUT_DIR [SEED ...]}
shift
seeds=("$@")
[ $# -eq 0 ] && seeds=(1 2)
source "$(dirname "$0")/lib.sh"
new_out "$out"
pftsim_bin
scenario_head "$out/rows.toml"
{
    cc_row none none
    cc_row renato renato
    cc_row renato_w2 renato window=2
    cc_row mvcm mvcm in_threshold_percent=39 out_threshold_percent=37
    cc_row mvcm_dw1 mvcm in_threshold_percent=39 out_threshold_percent=37 dw_max=1
    cc_row mvcm_novalid mvcm in_threshold_percent=39 validate=false
    cc_row mvcm_seed mvcm
    cc_row pfister ibcc threshold=11
} >>"$out/rows.toml"
runs=()
for s in "${seeds[@]}"; do
    for r in renato renato_w2 mvcm mvcm_dw1 mvcm_novalid mvcm_seed pfister; do
        "$bin" run "$out/rows.toml" --cc "$r" --set seed="$s" --out "$out/$r-s$s" --quiet
        runs+=("$s:$r:$out/$r-s$s")
    done
    "$bin" run "$out/rows.toml" --cc none --set seed="$s" --set workload.hot_traffic=false \
        --out "$out/nohot-s$s" --quiet
    runs+=("$s:nohot:$out/nohot-s$s")
done
python3 "$root/tb/mvcm/windows.py" "$out" "${runs[@]}"
echo "wrote $out/windows.csv and $out/fig10.csv"
