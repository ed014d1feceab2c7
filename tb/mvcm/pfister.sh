#!/usr/bin/env bash
# Pfister (IB CC) on scenarios/mvcm-hotspot.toml, run to the end of its burst, and with a
# CCTI timer ten times shorter (docs/results.md, "The hot-packet marking order" and
# "Pfister's burst, run to completion"): seed 1, one `pftsim run` each of
#   none (700,000 cycles), pfister (to 1.7 M cycles), pfister_ccti15 (ccti_timer = 15).
# Writes OUT/rows.toml, OUT/<run>/, OUT/windows.csv (one line per run) and OUT/fig10.csv
# (per 100,000 cycles: hot packets marked, the hot-spot link busy, cold packets marked).
#
#   bash tb/mvcm/pfister.sh OUT_DIR   (PFTSIM=path: that pftsim)
set -euo pipefail
out=${1:?usage: pfister.sh OUT_DIR}
source "$(dirname "$0")/lib.sh"
new_out "$out"
pftsim_bin
scenario_head "$out/rows.toml"
{
    cc_row none none
    cc_row pfister ibcc threshold=11
    cc_row pfister_ccti15 ibcc threshold=11 ccti_timer=15
} >>"$out/rows.toml"
"$bin" run "$out/rows.toml" --cc none --out "$out/none" --quiet
"$bin" run "$out/rows.toml" --cc pfister --set cycles.max=1700000 --out "$out/pfister_1.7M" --quiet
"$bin" run "$out/rows.toml" --cc pfister_ccti15 --out "$out/pfister_ccti15" --quiet
python3 "$root/tb/mvcm/windows.py" "$out" "1:none:$out/none" "1:pfister_1.7M:$out/pfister_1.7M" \
    "1:pfister_ccti15:$out/pfister_ccti15"
echo "wrote $out/windows.csv and $out/fig10.csv"
