#!/usr/bin/env bash
# The ablation rows of docs/results.md ("Why Renato's proposal does as well as MVCM here"):
# scenarios/mvcm-hotspot.toml's network and traffic with other [[cc]] rows, compared at
# the scenario's 16 hot-spot hosts and at 128 (5.5 M cycles). Each `pftsim compare` writes
# its rows' summary.json (`coldhot`: peaks, source waits, hot flits in flight).
#
#   bash tb/mvcm/ablations.sh OUT_DIR [--set KEY=VALUE ...]   (PFTSIM=path: that pftsim)
#
# Extra arguments go to every `pftsim compare` (e.g. `--set cycles.max=20000` for a quick
# try). Writes OUT_DIR/rows.toml, OUT_DIR/hosts16/ and OUT_DIR/hosts128/.
set -euo pipefail
out=${1:?usage: ablations.sh OUT_DIR [--set KEY=VALUE ...]}
shift
source "$(dirname "$0")/lib.sh"
new_out "$out"
pftsim_bin
# the scenario up to its first [[cc]] row, then the ablation rows
scenario_head "$out/rows.toml"
{
    cc_row none none
    cc_row renato renato
    cc_row renato_w2 renato window=2
    cc_row renato_w255 renato window=255
    cc_row renato_src renato 'flow="source"'
    cc_row renato_fimd renato 'response="fimd"'
    cc_row renato_aimd renato 'response="aimd"'
    cc_row pfister ibcc threshold=11
    cc_row mvcm mvcm
    cc_row mvcm_novalid mvcm validate=false
    cc_row mvcm_nowarm mvcm warm=false
    cc_row mvcm_ws13 mvcm ws_max_incs=13
    cc_row mvcm_dw1 mvcm dw_max=1
} >>"$out/rows.toml"
"$bin" compare "$out/rows.toml" --out "$out/hosts16" --quiet --yes "$@"
"$bin" compare "$out/rows.toml" --out "$out/hosts128" --quiet --yes \
    --set workload.frac_c=0.25 --set workload.frac_v=0.75 --set cycles.max=5500000 "$@"
echo "wrote $out/hosts16 and $out/hosts128"
