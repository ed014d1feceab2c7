#!/usr/bin/env bash
# Fmax over nextpnr placer seeds: the default build at its 32 MHz anchor clock and the
# pipelined build at 100 MHz, each mapped once by Yosys (synth_ice40, as synth/run.sh maps
# it) and placed and routed on the HX8K (ct256) with seeds 1..SEEDS. A single seed's Fmax
# is one draw of the placer; the spread is what a user of the block should expect.
#
#   bash synth/seeds.sh [SEEDS]      (default 8; make fmax-seeds)
#
# Needs the exported Verilog (make verilog verilog-pipelined). Writes
# synth/reports/seeds.csv (design, freq_constraint_mhz, seed, fmax_mhz, lut4, logic_cells)
# and prints it; the work files go to synth/out/work-seeds/. docs/hardware.md quotes it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
# shellcheck source=synth/env.sh
source "$here/env.sh"
seeds=${1:-8}
case "$seeds" in '' | *[!0-9]* | 0)
    echo "error: SEEDS must be a whole number >= 1, got '$seeds'" >&2
    exit 2
    ;;
esac
require_tool "$YOSYS" "$NEXTPNR_ICE40"
# design top Verilog constraint
designs=(
    "default pft_injector synth/out/pft_injector.v 32"
    "pipelined pft_injector_pipelined synth/out/pft_injector_pipelined.v 100"
)
for d in "${designs[@]}"; do
    read -r _ _ v _ <<<"$d"
    [ -f "$v" ] || { echo "error: $v not found (run: make verilog verilog-pipelined)" >&2; exit 2; }
done
work="$root/synth/out/work-seeds"
rm -rf "$work"
mkdir -p "$work" synth/reports
tmp="$work/seeds.csv"
echo "design,freq_constraint_mhz,seed,fmax_mhz,lut4,logic_cells" >"$tmp"
for d in "${designs[@]}"; do
    read -r name top v freq <<<"$d"
    ys="$work/ys-$name"
    PFT_TOP=$top ys_scripts "$ys"
    cp "$v" "$work/$top.v"
    (cd "$work" && "$YOSYS" -q -l "yosys-$name.log" -p "read_verilog $top.v; script $ys/common.ys; \
        script $ys/synth_ice40.ys")
    lut4=$(grep -E '^ +SB_LUT4 +[0-9]+' "$work/yosys-$name.log" | tail -n 1 | awk '{print $2}')
    for s in $(seq 1 "$seeds"); do
        log="$work/nextpnr-$name-$s.log"
        (cd "$work" && "$NEXTPNR_ICE40" "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" \
            --json "${top}_ice40.json" --freq "$freq" --pcf-allow-unconstrained \
            --timing-allow-fail --seed "$s" >"$log" 2>&1) ||
            { echo "error: nextpnr-ice40 failed, see $log" >&2; exit 1; }
        fmax=$(grep 'Max frequency for clock' "$log" | tail -n 1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
        lcs=$(grep -E 'ICESTORM_LC: +[0-9]+/' "$log" | tail -n 1 | sed -E 's/.*ICESTORM_LC: +([0-9]+)\/.*/\1/')
        echo "$name,$freq,$s,$fmax,$lut4,$lcs" | tee -a "$tmp"
    done
done
cp "$tmp" synth/reports/seeds.csv
echo "wrote synth/reports/seeds.csv"
