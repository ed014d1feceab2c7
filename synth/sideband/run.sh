#!/usr/bin/env bash
# The self-tuned throttle's side-band aggregation (a hand-written cost model,
# synth/sideband/sideband_node.v): its 16 x 16 torus test under iverilog
# (synth/reports/selftuned/sideband/torus_test.txt; two broken copies must fail it), Yosys
# generic and synth_ice40 cell counts (no place and route: 248 ports), asic.sh. The design
# registry names it as selftuned_node's `extra`, so `make synth-selftuned` (synth/flow.sh)
# runs it after the node.
#
#   usage: bash synth/sideband/run.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(dirname "$here")"
cd "$root"
for t in yosys iverilog vvp; do
    command -v "$t" >/dev/null || { echo "error: $t not found (make setup installs it)" >&2; exit 127; }
done
reports_rel=synth/reports/selftuned
reports="$root/$reports_rel"
mkdir -p "$reports/sideband"

sb="$root/synth/sideband"
sbw="$root/synth/out/work-sideband"
rm -rf "$sbw"
mkdir -p "$sbw"
iverilog -g2005 -Wall -o "$sbw/torus.vvp" "$sb/tb_sideband_torus.v" "$sb/sideband_node.v" \
    >"$sbw/iverilog.log" 2>&1 || { cat "$sbw/iverilog.log" >&2; exit 1; }
if [[ -s "$sbw/iverilog.log" ]]; then
    echo "FAILED: iverilog warnings on the side-band node:" >&2
    cat "$sbw/iverilog.log" >&2
    exit 1
fi
vvp -n "$sbw/torus.vvp" >"$sbw/torus_test.txt"
grep -q '^PASS' "$sbw/torus_test.txt" || { cat "$sbw/torus_test.txt" >&2; exit 1; }
# Broken copies must fail the torus test, or it proves nothing: the + side's words never
# added, and the + side's word also added at a phase's first hop (counted twice).
for m in 's/+ from_p\[W-1:FW\];/;/' 's/= first ? {W{1.b0}} : in_p_q;/= in_p_q;/'; do
    sed "$m" "$sb/sideband_node.v" >"$sbw/mutant.v"
    if cmp -s "$sb/sideband_node.v" "$sbw/mutant.v"; then
        echo "FAILED: mutation $m does not apply to sideband_node.v" >&2
        exit 1
    fi
    iverilog -g2005 -o "$sbw/mutant.vvp" "$sb/tb_sideband_torus.v" "$sbw/mutant.v"
    if vvp -n "$sbw/mutant.vvp" | grep -q '^PASS'; then
        echo "FAILED: the torus test passes a broken side-band node ($m)" >&2
        exit 1
    fi
done
cp "$sbw/torus_test.txt" "$reports/sideband/"
echo "side-band torus test       $(grep '^PASS' "$sbw/torus_test.txt"); 2 mutants caught"
cp "$sb/sideband_node.v" "$sbw/"
(
    cd "$sbw"
    yosys -q -l yosys.log -p "read_verilog sideband_node.v; hierarchy -check -top sideband_node; \
        proc; check -assert; synth -flatten -top sideband_node; tee -q -o generic_stat.txt stat; \
        design -reset; read_verilog sideband_node.v; hierarchy -check -top sideband_node; proc; \
        synth_ice40 -top sideband_node; tee -q -o ice40_stat.txt stat" >/dev/null
)
cp "$sbw/generic_stat.txt" "$sbw/ice40_stat.txt" "$reports/sideband/"
echo "side-band yosys            ok  ($reports_rel/sideband/{generic,ice40}_stat.txt)"
PFT_TOP=sideband_node ASIC_REPORTS=$reports_rel/sideband bash "$here/asic.sh" "$sb/sideband_node.v"
echo "side-band reports in $reports_rel/sideband/"
