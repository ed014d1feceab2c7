# shellcheck shell=bash
# Settings shared by synth/check_verilog.sh and synth/run.sh. Source it; every value can be
# overridden from the environment, e.g. `ICE40_FREQ_MHZ=48 bash synth/run.sh`.

# The exported design (written by `cargo run --release --bin pft-verilog`). The top module
# name is fixed by hdl/src/verilog.rs and is also written into the Yosys scripts.
: "${PFT_TOP:=pft_injector}"
: "${PFT_VERILOG:=synth/out/pft_injector.v}"

# Scratch space (ignored by git) and committed reports, relative to the repository root.
: "${SYNTH_WORK:=synth/out/work}"
: "${SYNTH_REPORTS:=synth/reports}"

# iCE40 place and route. 32 MHz is the anchor clock of a hand-written Verilog of the spec
# (PFT-SPEC section 3); nextpnr runs with --timing-allow-fail, so missing it is reported,
# not fatal. A fixed seed makes the run reproducible.
: "${ICE40_DEVICE:=hx8k}"
: "${ICE40_PACKAGE:=ct256}"
: "${ICE40_FREQ_MHZ:=32}"
: "${NEXTPNR_SEED:=1}"
# 1: also map with `synth_ice40 -abc9` and place it (a second opinion, about 20 s more).
: "${ICE40_ABC9:=1}"

# ECP5 through YoWASP's Yosys and nextpnr-ecp5 from the virtual environment `make setup`
# writes (synth/setup-venv.sh); skipped with a note when it is missing. LFE5U-25F, CABGA256.
: "${VENV:=.venv}"
: "${ECP5_DEVICE:=25k}"
: "${ECP5_PACKAGE:=CABGA256}"
: "${ECP5_FREQ_MHZ:=50}"
# Gowin GW1NR-9 (QN88) through YoWASP's nextpnr-himbaechel-gowin: placed inside
# synth/wrap/pft_wrap.v (the block's ports on a shift register: the package has 88 pins).
# The wrapper has PftInjector's ports: SYNTH_GOWIN=0 skips the Gowin step for other tops
# (synth/flow.sh does for the self-tuned node).
: "${SYNTH_GOWIN:=1}"
: "${GOWIN_DEVICE:=GW1NR-LV9QN88PC6/I5}"
: "${GOWIN_FAMILY:=GW1N-9C}"
: "${GOWIN_FREQ_MHZ:=50}"

# Tools (Debian bookworm packages: yosys 0.23, nextpnr-ice40 0.4, fpga-icestorm,
# verilator 5.006, iverilog 11).
: "${YOSYS:=yosys}"
: "${NEXTPNR_ICE40:=nextpnr-ice40}"
: "${ICETIME:=icetime}"
: "${VERILATOR:=verilator}"
: "${IVERILOG:=iverilog}"
: "${PYTHON:=python3}"

# require_tool NAME...: exit 127 with a message if a tool is not on PATH.
require_tool() {
    local t
    for t in "$@"; do
        if ! command -v "$t" >/dev/null 2>&1; then
            echo "error: '$t' not found on PATH (see synth/README.md for the packages)" >&2
            exit 127
        fi
    done
}

# ys_scripts DIR: the Yosys scripts of synth/yosys/ written into DIR for the top module
# $PFT_TOP (they name the default top, pft_injector, which is replaced everywhere).
ys_scripts() {
    local src f
    src="$(dirname "${BASH_SOURCE[0]}")/yosys"
    mkdir -p "$1"
    for f in "$src"/*.ys; do
        sed "s/pft_injector/$PFT_TOP/g" "$f" >"$1/$(basename "$f")"
    done
}
