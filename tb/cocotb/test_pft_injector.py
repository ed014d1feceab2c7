"""cocotb testbench of the exported `pft_injector` (synth/out/pft_injector.v), driven only
through its ports and its CSR bus, checked against the spec (../shared/spec/PFT-SPEC.md and
docs/behaviour.md): cycle-exact for the credit counter, FT detection and FI throttling, and
statistically for RI. `make cocotb` runs it under Icarus (tb/cocotb/run.py).

Each cycle: inputs are driven after the falling edge, the combinational outputs are read
1 ns later and compared with the Python model of the spec, then the rising edge advances
both.
"""

import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

# The register map, generated from hdl/src/regs.rs (`make docs`; docs/registers.md).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hdl" / "generated"))
import pft_regs as regs  # noqa: E402
from pft_spec import SpecFtFi  # noqa: E402  (the Python port of the spec, pft_spec.py)
from pft_regs import (  # noqa: E402
    AT_CNT_E, AT_CNT_S, AT_STATUS, AT_WIN_E, AT_WIN_S, CNT_CONGESTED, CNT_SENT,
    CNT_THROTTLED, CREDIT_LIMIT, CTRL, K, SEED, SHAPE, STATUS, TH_ENTER, TH_ESCAPE,
)

# Reset values and write masks of the RW registers.
RW = {a: (reset, mask) for a, access, mask, reset in regs.REGS.values() if access == "rw"}

ENABLE = regs.CTRL_ENABLE_FIELD_MASK
DET_AT = regs.CTRL_DET_MODE_FIELD_MASK
THR_RI = regs.CTRL_THR_MODE_FIELD_MASK
R_WIDTH_MASK, R_WIDTH_SHIFT = regs.SHAPE_R_WIDTH_FIELD_MASK, regs.SHAPE_R_WIDTH_SHIFT
N_SHIFT, M_SHIFT = regs.SHAPE_N_SHIFT, regs.SHAPE_M_SHIFT


def shape(m, n=0, r_width=32):
    """A SHAPE word."""
    return (r_width << R_WIDTH_SHIFT) | (n << N_SHIFT) | (m << M_SHIFT)


async def start(dut):
    """Clock, inputs low, and one reset cycle."""
    cocotb.start_soon(Clock(dut.clock, 10, unit="ns").start())
    for sig in (dut.flit_valid, dut.flit_head, dut.credit_return, dut.csr_we, dut.csr_addr,
                dut.csr_wdata):
        sig.value = 0
    dut.reset.value = 1
    await RisingEdge(dut.clock)
    await FallingEdge(dut.clock)
    dut.reset.value = 0


async def write(dut, addr, data):
    """One CSR write: lands at the next rising edge."""
    dut.csr_we.value = 1
    dut.csr_addr.value = addr
    dut.csr_wdata.value = data
    await RisingEdge(dut.clock)
    await FallingEdge(dut.clock)
    dut.csr_we.value = 0


async def read(dut, addr):
    """A CSR read: combinational, the same cycle (no clock edge)."""
    dut.csr_addr.value = addr
    await Timer(1, unit="ns")
    return int(dut.csr_rdata.value)


@cocotb.test()
async def csr_reset_values_read_back_and_latency(dut):
    """Reset values; every RW register written and read back through its mask; a write is
    visible from the next cycle, a read in the same cycle."""
    await start(dut)
    for addr, (reset, _) in RW.items():
        got = await read(dut, addr)
        assert got == reset, f"register {addr:#x}: reset value {got:#x}, spec {reset:#x}"
    rng = random.Random(7)
    for addr, (_, mask) in RW.items():
        for _ in range(4):
            v = rng.getrandbits(32)
            if addr == SEED and v & mask == 0:
                v = 1
            if addr == SHAPE:
                v &= ~R_WIDTH_MASK  # keep r_width in 1..=32 as the tools do
                v |= rng.randint(1, 32) << R_WIDTH_SHIFT
            old = await read(dut, addr)
            dut.csr_we.value = 1
            dut.csr_wdata.value = v
            await Timer(1, unit="ns")
            before = int(dut.csr_rdata.value)
            assert before == old, f"register {addr:#x}: a write showed before its edge"
            await RisingEdge(dut.clock)
            await FallingEdge(dut.clock)
            dut.csr_we.value = 0
            got = await read(dut, addr)
            assert got == v & mask, f"register {addr:#x}: wrote {v:#x}, read {got:#x}"
    status = await read(dut, STATUS)
    assert status == 0, f"STATUS after reset and idle: {status:#x}"


@cocotb.test()
async def ft_fi_cycle_exact(dut):
    """FT-FI against the spec model for 6000 cycles of random offered flits and a credit
    link with a random drain: send, throttled, congested and used_credits in every cycle,
    and the counters at the end."""
    await start(dut)
    limit, th_enter, th_escape, m, n, k = 64, 24, 12, 1, 3, 2
    for addr, v in ((CREDIT_LIMIT, limit), (TH_ENTER, th_enter), (TH_ESCAPE, th_escape),
                    (SHAPE, shape(m, n)), (K, k), (CTRL, ENABLE)):
        await write(dut, addr, v)
    model = SpecFtFi(limit, th_enter, th_escape, m, n, k)
    rng = random.Random(11)
    latency = 6
    in_flight = [0] * latency  # flits travelling to the switch buffer
    buffer = 0
    sent = throttled_cycles = congested_cycles = 0
    cycles = 6000
    for t in range(cycles):
        # the switch drains its buffer slowly in some phases: c climbs, FT enters and leaves
        drain_p = 0.9 if (t // 700) % 2 == 0 else 0.2
        credit_return = 1 if buffer > 0 and rng.random() < drain_p else 0
        flit_valid = rng.random() < 0.9
        dut.flit_valid.value = int(flit_valid)
        dut.flit_head.value = 1
        dut.credit_return.value = credit_return
        await Timer(1, unit="ns")
        got = (bool(dut.send.value), bool(dut.throttled.value), bool(dut.congested.value),
               int(dut.used_credits.value))
        want = model.outputs(flit_valid)
        assert got == want, f"cycle {t}: (send, throttled, congested, c) = {got}, spec {want}"
        send = int(want[0])
        sent += send
        throttled_cycles += int(want[1])
        congested_cycles += int(want[2])
        model.edge(send, credit_return)
        buffer += in_flight.pop(0) - credit_return
        in_flight.append(send)
        await RisingEdge(dut.clock)
        await FallingEdge(dut.clock)
    dut.flit_valid.value = 0
    dut.credit_return.value = 0
    assert throttled_cycles > 200 and congested_cycles > 500, (throttled_cycles, congested_cycles)
    assert await read(dut, CNT_SENT) == sent
    assert await read(dut, CNT_THROTTLED) == throttled_cycles
    assert await read(dut, CNT_CONGESTED) == congested_cycles
    dut._log.info("FT-FI: %d cycles, %d sent, %d throttled, %d congested", cycles, sent,
                  throttled_cycles, congested_cycles)


@cocotb.test()
async def ri_rate_follows_the_spec(dut):
    """RI: with c held at a point by a one-cycle credit loop, the share of cycles that send
    is P = 1 - f(c)/2^32 within four standard deviations (m = 22: 1 - c/1024)."""
    await start(dut)
    m, cycles = 22, 6000
    for addr, v in ((CREDIT_LIMIT, 4096), (TH_ENTER, 0), (TH_ESCAPE, 0),
                    (SHAPE, shape(m)), (K, 0), (SEED, 0x1234567)):
        await write(dut, addr, v)
    c = 0
    for point in (256, 512, 768):
        # fill to the point with the block disabled (credits only)
        dut.flit_valid.value = 1
        dut.flit_head.value = 1
        while c < point:
            await Timer(1, unit="ns")
            assert int(dut.send.value) == 1
            await RisingEdge(dut.clock)
            await FallingEdge(dut.clock)
            c += 1
        dut.flit_valid.value = 0
        await write(dut, CTRL, ENABLE | THR_RI)
        dut.flit_valid.value = 1
        pending, sent = 0, 0
        for _ in range(cycles):
            dut.credit_return.value = pending
            await Timer(1, unit="ns")
            s = int(dut.send.value)
            assert int(dut.used_credits.value) in (point, point + 1)
            sent += s
            pending = s
            await RisingEdge(dut.clock)
            await FallingEdge(dut.clock)
        dut.flit_valid.value = 0
        dut.credit_return.value = pending
        await write(dut, CTRL, 0)
        dut.credit_return.value = 0
        p = 1 - (point << m) / 2**32
        rate = sent / cycles
        sd = (p * (1 - p) / cycles) ** 0.5
        assert abs(rate - p) <= 4 * sd, f"c = {point}: rate {rate:.4f}, spec {p:.4f} (sd {sd:.4f})"
        dut._log.info("RI m=%d c=%d: rate %.4f, spec %.4f", m, point, rate, p)
