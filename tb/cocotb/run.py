#!/usr/bin/env python3
"""Build the exported Verilog under Icarus and run the cocotb testbenches (cocotb's Python
runner): test_pft_injector.py on synth/out/pft_injector.v, and test_pft_axis.py
(cocotbext-axi) on synth/out/pft_axis.v. `make cocotb` runs it from .venv/.

  run.py [--design all|pft_injector|pft_axis|pft_axis_512] [--verilog FILE]
         [--axis-verilog FILE] [--axis512-verilog FILE] [--build-dir DIR] [--testcase NAME]
pft_axis_512 runs test_pft_axis.py on the 512-bit export (synth/out/pft_axis_512.v, top
pft_axis, 64 bytes a beat): the same checks at the widest width the generator writes.
Prints cocotb's summary (tests, simulated time, wall time) and exits non-zero when a test
fails (the results XML is read back).
"""
import argparse
import sys
import time
from pathlib import Path

from cocotb_tools.check_results import get_results
from cocotb_tools.runner import get_runner

here = Path(__file__).resolve().parent
root = here.parent.parent
p = argparse.ArgumentParser()
p.add_argument("--design", choices=("all", "pft_injector", "pft_axis", "pft_axis_512"),
               default="all")
p.add_argument("--verilog", default=str(root / "synth/out/pft_injector.v"))
p.add_argument("--axis-verilog", default=str(root / "synth/out/pft_axis.v"))
p.add_argument("--axis512-verilog", default=str(root / "synth/out/pft_axis_512.v"))
p.add_argument("--build-dir", default=str(root / "out/cocotb"))
p.add_argument("--testcase", default=None, help="run only this test (one design)")
a = p.parse_args()
# absolute: cocotb runs the tests from test_dir, where a relative results path would land
build_dir = Path(a.build_dir).resolve()
benches = {"pft_injector": (a.verilog, "pft_injector", "test_pft_injector"),
           "pft_axis": (a.axis_verilog, "pft_axis", "test_pft_axis"),
           "pft_axis_512": (a.axis512_verilog, "pft_axis", "test_pft_axis")}
failed = 0
for name, (verilog, top, module) in benches.items():
    if a.design not in ("all", name):
        continue
    if not Path(verilog).is_file():
        sys.exit(f"error: {verilog} not found: run `make verilog`")
    bdir = build_dir / name
    runner = get_runner("icarus")
    runner.build(
        sources=[verilog],
        hdl_toplevel=top,
        build_dir=str(bdir),
        timescale=("1ns", "1ps"),
        always=True,
    )
    t0 = time.monotonic()
    results = runner.test(
        hdl_toplevel=top,
        test_module=module,
        test_dir=str(here),
        build_dir=str(bdir),
        results_xml=str(bdir / "results.xml"),
        testcase=a.testcase,
    )
    n, nfail = get_results(Path(results))
    failed += nfail
    print(f"cocotb {name}: {n - nfail} of {n} tests passed, results in {results} "
          f"({time.monotonic() - t0:.1f} s wall)")
if failed:
    sys.exit(f"cocotb: FAILED: {failed} test(s)")
