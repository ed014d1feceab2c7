#!/usr/bin/env bash
# Check the exported Verilog with three tools; print one line per tool (OK or the failure) and
# exit non-zero if any fails. This is the check step of `make verilog`.
#
#   usage: bash synth/check_verilog.sh [FILE.v]      (default: synth/out/pft_injector.v)
#   PFT_TOP=pft_injector_pipelined bash synth/check_verilog.sh synth/out/pft_injector_pipelined.v
#
#   yosys     read_verilog; hierarchy -check -top pft_injector; proc; check -assert, and no latch
#             (no "Latch inferred" in the log, no $dlatch cell)     -> synth/yosys/common.ys
#   verilator --lint-only -Wall with the documented waivers only   -> synth/lint/verilator_waivers.vlt
#   iverilog  -g2005 -Wall, any warning fails
#
# Full logs: synth/out/check/$PFT_TOP/{yosys,verilator,iverilog}.log. Run from anywhere.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
# A path given on the command line is relative to the caller's directory.
arg="${1:+$(realpath -m -- "$1")}"
cd "$root"
# shellcheck source=synth/env.sh
source "$here/env.sh"

verilog="${arg:-$PFT_VERILOG}"
if [[ ! -f "$verilog" ]]; then
    echo "error: $verilog not found (run: cargo run --release --bin pft-verilog)" >&2
    exit 2
fi
require_tool "$YOSYS" "$VERILATOR" "$IVERILOG"

logs="synth/out/check/$PFT_TOP"
mkdir -p "$logs"
ys_scripts "$logs/ys"
failed=0

# report TOOL RC LOG: print "TOOL: OK" or "TOOL: FAILED ..." with the first error lines.
report() {
    local tool="$1" rc="$2" log="$3" pattern="$4"
    if [[ "$rc" -eq 0 ]]; then
        printf '%-10s OK\n' "$tool:"
    else
        failed=1
        printf '%-10s FAILED (exit %s), log %s\n' "$tool:" "$rc" "$log"
        { grep -E "$pattern" "$log" || tail -n 5 "$log"; } | head -n 8 | sed 's/^/    /'
    fi
}

# (a) Yosys: elaboration, netlist checks, no latches.
rc=0
"$YOSYS" -q -l "$logs/yosys.log" -p "read_verilog $verilog; script $logs/ys/common.ys" \
    >/dev/null 2>&1 || rc=$?
# Belt and braces: PROC_DLATCH's message, in case a latch cell is renamed by a later Yosys.
if [[ "$rc" -eq 0 ]] && grep -q "Latch inferred" "$logs/yosys.log"; then
    echo "ERROR: latch inferred (see 'Latch inferred' lines)" >>"$logs/yosys.log"
    rc=1
fi
report yosys "$rc" "$logs/yosys.log" 'ERROR|Latch inferred|Warning'

# (b) Verilator lint, waivers in synth/lint/verilator_waivers.vlt only. Warnings are fatal.
rc=0
"$VERILATOR" --lint-only -Wall --top-module "$PFT_TOP" \
    synth/lint/verilator_waivers.vlt "$verilog" >"$logs/verilator.log" 2>&1 || rc=$?
report verilator "$rc" "$logs/verilator.log" '^%(Warning|Error)'

# (c) Icarus Verilog, Verilog-2005, all warnings; any output at all counts as a failure.
rc=0
"$IVERILOG" -g2005 -Wall -s "$PFT_TOP" -o "$logs/iverilog.vvp" "$verilog" \
    >"$logs/iverilog.log" 2>&1 || rc=$?
if [[ "$rc" -eq 0 && -s "$logs/iverilog.log" ]]; then
    rc=1
fi
report iverilog "$rc" "$logs/iverilog.log" '.'

exit "$failed"
