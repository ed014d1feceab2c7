#!/usr/bin/env bash
# Formal check of pft_axis (synth/formal/axis/pft_axis_props.sv): one yosys-smtbmc BMC run
# per property from reset, DEPTH cycles (default 20), then broken copies of the Verilog
# that must fail. PFT's throttle verdict (the FI/RI compare, gate_cmp.ok) is cut to a free
# input, so every property holds for any verdict; the solver ($SOLVER, default z3; `make
# formal` gives yices) runs with --unroll. Prints one line per check; exits non-zero if a
# property fails on the real design or a broken copy is NOT caught.
#   usage: bash synth/formal/axis/run.sh [FILE.v]   (default synth/out/pft_axis.v)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
v="$(realpath -m -- "${1:-$root/synth/out/pft_axis.v}")"
depth="${DEPTH:-20}"
solver="${SOLVER:-z3}"
out="$root/synth/formal/out/pft_axis"
mkdir -p "$out"
props="STREAM_HOLD STREAM_BEATS NO_GAP_GATING PAUSE_HEADS AXIL_ONE_RESP"

# check FILE PROP TAG: 0 if the property holds for DEPTH cycles.
check() {
    local f="$1" p="$2" tag="$3"
    yosys -q -l "$out/$tag.yosys.log" -p "read_verilog $f; read_verilog -formal -sv -DP_$p $here/pft_axis_props.sv; \
        prep -top pft_axis_props; flatten; cutpoint w:dut.pft.gate_cmp.ok; opt -fast; opt_clean; setundef -anyseq; async2sync; dffunmap; \
        write_smt2 -wires $out/$tag.smt2" >/dev/null
    timeout "${TIMEOUT:-600}" yosys-smtbmc -s "$solver" --unroll -t "$depth" --dump-vcd "$out/$tag.vcd" "$out/$tag.smt2" >"$out/$tag.log" 2>&1
}

failed=0
for p in $props; do
    if check "$v" "$p" "$p"; then
        printf '%-16s holds, BMC %s cycles from reset\n' "$p" "$depth"
    else
        printf '%-16s FAILS (counterexample %s)\n' "$p" "$out/$p.vcd"; failed=1
    fi
done

# Broken copies: each must fail the property named.
mutant() {
    local p="$1" from="$2" to="$3" i="$4"
    local m="$out/mutant$i.v"
    python3 - "$v" "$m" "$from" "$to" <<'PY'
import sys
s = open(sys.argv[1]).read()
assert s.count(sys.argv[3]) == 1, sys.argv[3]
open(sys.argv[2], "w").write(s.replace(sys.argv[3], sys.argv[4]))
PY
    if check "$m" "$p" "mutant$i"; then
        printf 'mutant %s (%s -> %s) NOT caught by %s\n' "$i" "$from" "$to" "$p"; failed=1
    else
        printf 'mutant %s (%s -> %s) caught by %s\n' "$i" "$from" "$to" "$p"
    fi
}
mutant STREAM_HOLD "room = ~valid\$q | m_tready;" "room = 1'b1;" 1
mutant STREAM_BEATS "room = ~valid\$q | m_tready;" "room = 1'b1;" 2
mutant NO_GAP_GATING "started\$d = ~s_tlast;" "started\$d = 1'b0;" 3
mutant PAUSE_HEADS "flit_valid = s_tvalid & room & ~(pause & ~started\$q);" "flit_valid = s_tvalid & room;" 4
mutant AXIL_ONE_RESP "& ~b_valid\$q" "" 5
exit $failed
