#!/usr/bin/env python3
"""Build synth/out/pft_injector.v under Icarus and run the cocotb tests of
test_pft_injector.py (cocotb's Python runner). `make cocotb` runs it from .venv/.

  run.py [--verilog FILE] [--build-dir DIR]
Prints cocotb's summary (tests, simulated time, wall time) and exits non-zero on a failure.
"""
import argparse
import sys
import time
from pathlib import Path

from cocotb_tools.runner import get_runner

here = Path(__file__).resolve().parent
root = here.parent.parent
p = argparse.ArgumentParser()
p.add_argument("--verilog", default=str(root / "synth/out/pft_injector.v"))
p.add_argument("--build-dir", default=str(root / "out/cocotb"))
a = p.parse_args()
# absolute: cocotb runs the tests from test_dir, where a relative results path would land
a.build_dir = str(Path(a.build_dir).resolve())
if not Path(a.verilog).is_file():
    sys.exit(f"error: {a.verilog} not found: run `make verilog`")
runner = get_runner("icarus")
runner.build(
    sources=[a.verilog],
    hdl_toplevel="pft_injector",
    build_dir=a.build_dir,
    timescale=("1ns", "1ps"),
    always=True,
)
t0 = time.monotonic()
results = runner.test(
    hdl_toplevel="pft_injector",
    test_module="test_pft_injector",
    test_dir=str(here),
    build_dir=a.build_dir,
    results_xml=str(Path(a.build_dir) / "results.xml"),
)
print(f"cocotb: results in {results} ({time.monotonic() - t0:.1f} s wall)")
