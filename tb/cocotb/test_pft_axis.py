"""cocotb testbench of the exported `pft_axis` (synth/out/pft_axis.v: PFT as AXI-Stream +
AXI4-Lite IP, docs/axis.md), driven only through its ports with cocotbext-axi: an
AXI4-Lite master on `s_axil`, an AXI-Stream source on `s_axis` and a sink on `m_axis` with
seeded random idle cycles and back-pressure, and a credit link that returns each beat's
credit L cycles after the beat is sent. `make cocotb` runs it under Icarus
(tb/cocotb/run.py).

Every cycle a monitor (`Tb._cycle`) drives `credit_return`, `pause` and `rst` after the
falling edge, reads the ports 1 ns later and steps the Python port of the spec
(pft_spec.AxisSpec: PFT's FT detection and FI throttle with packet gating, the output
register, the packet tracker, the pause mask), comparing `s_axis_tready` (PFT's send),
`m_axis_tvalid`, `throttled`, `congested` and `used_credits` with it: the throttling is
checked cycle-exact in FT-FI. In RI the spec's generator is not ported: the model takes
the DUT's decision for a head beat the throttle may hold, everything else stays exact, and
a separate test checks the RI rate statistically. Independently of the model, the monitor
checks that `m_axis` is held and stable while stalled, that the throttle never holds a
beat inside a packet and that no packet starts under `pause`. Frames are checked end to
end (data, keep, user, boundaries, order) by comparing the sink's frames with the frames
sent. All randomness is seeded (random.Random); nothing depends on wall time.
"""

import logging
import random
import sys
from collections import Counter
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotbext.axi import (AxiLiteBus, AxiLiteMaster, AxiResp, AxiStreamBus, AxiStreamFrame,
                           AxiStreamSink, AxiStreamSource)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pft_spec import AxisSpec, regs  # noqa: E402

CTRL_ENABLE = regs.CTRL_ENABLE_FIELD_MASK
CTRL_RI = regs.CTRL_THR_MODE_FIELD_MASK
CTRL_GATING = regs.CTRL_GATING_FIELD_MASK


def off(word):
    """Byte offset of PFT's register at word address `word` in the AXI4-Lite map."""
    return regs.AXIL_PFT_BASE + 4 * word


def shape(m, n=0, r_width=32):
    return (r_width << regs.SHAPE_R_WIDTH_SHIFT) | (n << regs.SHAPE_N_SHIFT) | (m << regs.SHAPE_M_SHIFT)


def bernoulli(rng, p):
    """A pause generator: True (idle / not ready) with probability p each cycle."""
    while True:
        yield rng.random() < p


def user_of(frame_user, n):
    """A frame's tuser as one value per byte."""
    if isinstance(frame_user, (int, bool)):
        return [int(frame_user)] * n
    return [int(u) for u in frame_user]


class Tb:
    def __init__(self, dut, seed, latency):
        self.dut = dut
        self.rng = random.Random(seed)
        self.bytes = len(dut.s_axis_tkeep)  # bytes a beat: 8 at 64 bits, 64 at 512
        for sig in (dut.rst, dut.credit_return, dut.pause, dut.s_axis_tdata, dut.s_axis_tkeep,
                    dut.s_axis_tvalid, dut.s_axis_tlast, dut.s_axis_tuser, dut.m_axis_tready,
                    dut.s_axil_awaddr, dut.s_axil_awprot, dut.s_axil_awvalid, dut.s_axil_wdata,
                    dut.s_axil_wstrb, dut.s_axil_wvalid, dut.s_axil_bready, dut.s_axil_araddr,
                    dut.s_axil_arprot, dut.s_axil_arvalid, dut.s_axil_rready):
            sig.value = 0
        dut.rst.value = 1
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        for bus in ("s_axis", "m_axis", "s_axil"):  # the drivers' per-transfer logs
            logging.getLogger(f"cocotb.{dut._name}.{bus}").setLevel(logging.WARNING)
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        self.spec = AxisSpec()
        self.latency = latency
        self.due = Counter()  # cycle -> credits the link returns in it
        self.absorb = False  # credits of beats sent now never return (a full switch buffer)
        self.pause_fn = lambda t: False
        self.reset_cycles = {0, 1}  # cycles with rst high
        self.t = 0
        self.stats = Counter()
        self.offered = 0  # RI: head beats the throttle decided, and how many it sent
        self.offered_sent = 0
        self.ingress = []  # beats accepted at s_axis: (tdata, tkeep, tlast, tuser) or "reset"
        self.egress = []  # beats taken at m_axis, the same way
        self.sent_frames = []  # (bytes, per-byte user) of the frames queued at the source
        cocotb.start_soon(self._cycle())

    async def _cycle(self):
        dut, spec = self.dut, self.spec
        prev = None  # last cycle's m_axis (valid, ready, payload) and rst
        known = False  # the DUT's state is the spec's: from the first reset on (the tests
        # share one simulation, so the block starts each test in the last one's state)
        while True:
            await FallingEdge(dut.clk)
            t = self.t
            rst = t in self.reset_cycles
            if rst:
                self.due.clear()
            cr = 0 if rst else self.due.pop(t, 0)
            pause = bool(self.pause_fn(t))
            dut.rst.value = int(rst)
            dut.credit_return.value = cr
            dut.pause.value = int(pause)
            await Timer(1, unit="ns")
            s_tvalid = bool(dut.s_axis_tvalid.value)
            s_tlast = bool(dut.s_axis_tlast.value)
            m_tready = bool(dut.m_axis_tready.value)
            write = None
            if bool(dut.s_axil_awready.value):
                write = (int(dut.s_axil_awaddr.value), int(dut.s_axil_wdata.value),
                         int(dut.s_axil_wstrb.value))
            got = (bool(dut.s_axis_tready.value), bool(dut.m_axis_tvalid.value),
                   bool(dut.throttled.value), bool(dut.congested.value),
                   int(dut.used_credits.value))
            # as text: the register may hold X before its first load
            m_payload = (str(dut.m_axis_tdata.value), str(dut.m_axis_tkeep.value),
                         str(dut.m_axis_tlast.value), str(dut.m_axis_tuser.value))
            congested_before = spec.pft.congested()
            want, (flit_valid, head, room) = spec.step(
                rst, s_tvalid, s_tlast, m_tready, pause, cr, write, ri_send=got[0])
            send, m_tvalid, throttled = got[0], got[1], got[2]
            # Protocol facts on the DUT's outputs, checked before the model's comparison
            # (head: the packet tracker's state, which the comparison keeps equal to the DUT's).
            if known and prev[0] and not prev[1] and not prev[3]:
                assert m_tvalid and m_payload == prev[2], \
                    f"cycle {t}: m_axis changed or dropped while stalled"
            if known:
                assert not (throttled and not head), f"cycle {t}: a beat inside a packet throttled"
                assert not (send and pause and head), f"cycle {t}: a packet started under pause"
            assert got == want or not known, (
                f"cycle {t}: (s_axis_tready, m_axis_tvalid, throttled, congested, used_credits)"
                f" = {got}, spec {want}")
            prev = (m_tvalid, m_tready, m_payload, rst)
            known = known or rst
            # Records.
            st = self.stats
            st["cycles"] += 1
            st["resets"] += rst
            st["sent"] += send
            st["throttled"] += throttled
            st["congested"] += got[3]
            st["paused_heads"] += s_tvalid and room and head and pause and not rst
            st["sent_in_packet_under_pause"] += send and pause and not head
            if spec.thr_ri() and congested_before and flit_valid and head:
                self.offered += 1
                self.offered_sent += send
            if send:
                self.ingress.append((int(dut.s_axis_tdata.value), int(dut.s_axis_tkeep.value),
                                     s_tlast, int(dut.s_axis_tuser.value)))
                if not self.absorb:
                    self.due[t + self.latency] += 1
            if m_tvalid and m_tready:
                self.egress.append((int(dut.m_axis_tdata.value), int(dut.m_axis_tkeep.value),
                                    bool(dut.m_axis_tlast.value), int(dut.m_axis_tuser.value)))
            if rst:
                self.ingress.append("reset")
                self.egress.append("reset")
            self.t += 1

    async def start(self):
        """Two reset cycles, then one idle cycle."""
        await ClockCycles(self.dut.clk, 3, rising=False)

    async def write(self, addr, value, length=4, want=AxiResp.OKAY):
        data = (value >> (8 * (addr & 3))).to_bytes(length, "little")
        r = await self.axil.write(addr, data)
        assert r.resp == want, f"write {addr:#x}: {r.resp!r}, want {want!r}"

    async def read(self, addr, want=AxiResp.OKAY):
        r = await self.axil.read(addr, 4)
        assert r.resp == want, f"read {addr:#x}: {r.resp!r}, want {want!r}"
        return int.from_bytes(r.data, "little")

    def frame(self, beats_max=16, beats=None, bytes_=None):
        """A random frame: 1..beats_max beats, the last one 1..(bytes a beat) bytes, a random
        tuser bit per beat; remembered for the end-to-end check."""
        b = self.bytes
        if bytes_ is None:
            n = beats if beats is not None else self.rng.randint(1, beats_max)
            bytes_ = (n - 1) * b + self.rng.randint(1, b)
        data = bytes(self.rng.getrandbits(8) for _ in range(bytes_))
        beat_user = [self.rng.getrandbits(1) for _ in range((bytes_ + b - 1) // b)]
        user = [beat_user[i // b] for i in range(bytes_)]
        self.sent_frames.append((data, user))
        return AxiStreamFrame(data, tuser=list(user))

    async def check_frames(self, expected, max_cycles):
        """The sink's frames are `expected` ((bytes, per-byte user) each), in order, and no
        other: data, keep (the compacted frame has exactly the bytes sent), user, boundaries."""
        for i, (data, user) in enumerate(expected):
            waited = 0
            while self.sink.empty():
                assert waited < max_cycles, f"frame {i} of {len(expected)} never arrived"
                await ClockCycles(self.dut.clk, 10)
                waited += 10
            rx = self.sink.recv_nowait(compact=True)
            got_user = user_of(rx.tuser, len(rx.tdata))
            assert bytes(rx.tdata) == data, \
                f"frame {i}: data/keep differ: {len(rx.tdata)} bytes received, {len(data)} sent"
            assert got_user == user, f"frame {i}: tuser differs"
        await ClockCycles(self.dut.clk, 20)
        assert self.sink.empty(), "the sink received a frame that was not sent"


async def configure_ft_fi(tb, limit, th_enter, th_escape, m, n, k, ri=False):
    for addr, v in ((off(regs.CREDIT_LIMIT), limit), (off(regs.TH_ENTER), th_enter),
                    (off(regs.TH_ESCAPE), th_escape), (off(regs.SHAPE), shape(m, n)),
                    (off(regs.K), k), (off(regs.CTRL), CTRL_ENABLE | (CTRL_RI if ri else 0))):
        await tb.write(addr, v)


@cocotb.test()
async def axil_register_block(dut):
    """The AXI4-Lite side through cocotbext-axi's master: the header words, reset values at
    their byte offsets, SLVERR outside the block (read and write), byte strobes, CTRL's
    gating bit, and a register write that lands in the model's mirror (the monitor checks
    every cycle)."""
    tb = Tb(dut, seed=1, latency=8)
    await tb.start()
    assert await tb.read(regs.AXIL_RB_TYPE_OFFSET) == regs.AXIL_RB_TYPE
    assert await tb.read(regs.AXIL_RB_VERSION_OFFSET) == regs.AXIL_RB_VERSION
    assert await tb.read(regs.AXIL_RB_NEXT_PTR_OFFSET) == regs.AXIL_RB_NEXT_PTR
    assert await tb.read(0x0C) == 0  # reserved inside the header: OKAY, 0
    for name, (word, access, _mask, reset) in regs.REGS.items():
        if access == "rw":
            got = await tb.read(off(word))
            assert got == reset, f"{name} at {off(word):#x}: {got:#x}, reset value {reset:#x}"
    await tb.read(regs.AXIL_SPAN, want=AxiResp.SLVERR)
    await tb.read(0xFC, want=AxiResp.SLVERR)
    await tb.write(0x90, 1, want=AxiResp.SLVERR)
    await tb.write(regs.AXIL_RB_TYPE_OFFSET, 0, want=AxiResp.OKAY)  # read-only: ignored
    assert await tb.read(regs.AXIL_RB_TYPE_OFFSET) == regs.AXIL_RB_TYPE
    cl = off(regs.CREDIT_LIMIT)
    await tb.write(cl, 0x34, length=1)  # byte 0 only (wstrb 0b0001)
    assert await tb.read(cl) == 0x0434
    await tb.write(cl + 1, 0x1200, length=1)  # byte 1 only (wstrb 0b0010)
    assert await tb.read(cl) == 0x1234
    await tb.write(off(regs.CTRL), CTRL_ENABLE)
    assert await tb.read(off(regs.CTRL)) == CTRL_ENABLE | CTRL_GATING
    await tb.write(off(regs.CTRL), 0)
    assert await tb.read(off(regs.CTRL)) == CTRL_GATING  # gating even when disabled


@cocotb.test()
async def ft_fi_cycle_exact_frames_end_to_end(dut):
    """FT-FI with packet gating, 400 random frames (1-16 beats, last beat 1-8 bytes, random
    tuser), the source idle 20 % and the sink not ready 25 % of cycles at random, a credit
    link of latency 40, pause episodes, and a byte-strobe write to K in the middle of the
    traffic: the monitor's checks every cycle, every frame end to end, and the block's
    counters (CNT_SENT, CNT_THROTTLED) equal to the spec's count."""
    tb = Tb(dut, seed=2, latency=40)
    await tb.start()
    await configure_ft_fi(tb, limit=64, th_enter=24, th_escape=12, m=1, n=3, k=2)
    await tb.write(off(regs.CNT_SENT), 0)
    await tb.write(off(regs.CNT_THROTTLED), 0)
    counted_from = Counter(tb.stats)
    rng = random.Random(3)
    tb.source.set_pause_generator(bernoulli(rng, 0.2))
    tb.sink.set_pause_generator(bernoulli(rng, 0.25))
    # pause episodes: 30..80 cycles of pause starting every ~600 cycles
    paused = set()
    t = tb.t + 300
    while t < 200_000:
        paused.update(range(t, t + rng.randint(30, 80)))
        t += rng.randint(400, 800)
    tb.pause_fn = paused.__contains__
    first = len(tb.sent_frames)
    for i in range(400):
        await tb.source.send(tb.frame())
        if i == 200:
            await tb.write(off(regs.K) + 0, 3, length=1)  # K = 3 through byte 0's strobe
    await tb.check_frames(tb.sent_frames[first:], max_cycles=20_000)
    tb.source.clear_pause_generator()
    tb.sink.clear_pause_generator()
    tb.pause_fn = lambda c: False
    st = tb.stats - counted_from
    sent = await tb.read(off(regs.CNT_SENT))
    throttled = await tb.read(off(regs.CNT_THROTTLED))
    assert sent == st["sent"] and throttled == st["throttled"], (sent, throttled, st)
    dut._log.info("FT-FI: %s", dict(st))
    # The run did what it claims to check.
    assert st["throttled"] > 200 and st["congested"] > 1000, st
    assert st["paused_heads"] > 50 and st["sent_in_packet_under_pause"] > 10, st


@cocotb.test()
async def ri_rate_follows_the_spec(dut):
    """RI with packet gating and single-beat frames (every beat a head): with c held at a
    point (the credits of the filling beats never return, the others after 1 cycle), the
    share of offered head beats the throttle sends is P = 1 - f(c)/2^32 within four
    standard deviations (m = 22: 1 - c/1024). The monitor stays cycle-exact for c,
    congested, m_axis and every beat it does not leave to the generator."""
    tb = Tb(dut, seed=4, latency=1)
    await tb.start()
    m, decisions = 22, 3000
    for addr, v in ((off(regs.CREDIT_LIMIT), 4096), (off(regs.TH_ENTER), 0),
                    (off(regs.TH_ESCAPE), 0), (off(regs.SHAPE), shape(m)), (off(regs.K), 0),
                    (off(regs.SEED), 0x1234567)):
        await tb.write(addr, v)
    c = 0
    for point in (256, 512, 768):
        # fill to the point, the block disabled: these credits stay in the switch
        tb.absorb = True
        for _ in range(point - c):
            await tb.source.send(tb.frame(bytes_=tb.bytes))
        await tb.source.wait()
        await ClockCycles(dut.clk, 2)
        tb.absorb = False
        c = point
        assert int(dut.used_credits.value) == point
        await tb.write(off(regs.CTRL), CTRL_ENABLE | CTRL_RI)
        tb.offered = tb.offered_sent = 0
        while tb.offered < decisions:
            for _ in range(50):
                await tb.source.send(tb.frame(bytes_=tb.bytes))
            await tb.source.wait()
            assert int(dut.used_credits.value) in (point, point + 1)
        offered, sent = tb.offered, tb.offered_sent
        await tb.write(off(regs.CTRL), 0)
        await ClockCycles(dut.clk, 3)
        p = 1 - (point << m) / 2**32
        rate = sent / offered
        sd = (p * (1 - p) / offered) ** 0.5
        assert abs(rate - p) <= 4 * sd, f"c = {point}: rate {rate:.4f}, spec {p:.4f} (sd {sd:.4f})"
        dut._log.info("RI m=%d c=%d: %d offered, rate %.4f, spec %.4f", m, point, offered, rate, p)
    await tb.check_frames(tb.sent_frames, max_cycles=1000)


@cocotb.test()
async def reset_in_the_middle_of_a_frame(dut):
    """What a reset does inside a frame (docs/axis.md): the beat in the output register is
    dropped, the started packet is forgotten, PFT and its registers are reset, and frames
    after the reset pass intact. Case 1: the MAC stalls with the frame's first beat in the
    register. Case 2: the MAC has taken part of the frame. The beats taken at m_axis are
    exactly the frame's beats before the reset, without a tlast; the next beat is the next
    frame's first, and it is a packet's first again (held by a pause after the reset)."""
    tb = Tb(dut, seed=5, latency=10)
    await tb.start()
    await tb.write(off(regs.CREDIT_LIMIT), 0x40)
    await configure_ft_fi(tb, limit=0x40, th_enter=24, th_escape=12, m=1, n=3, k=2)
    for case in (1, 2):
        a = tb.frame(beats=3)
        await tb.source.send(a)
        await tb.source.wait()
        await ClockCycles(dut.clk, 5)
        if case == 1:
            tb.sink.pause = True
        while tb.sink.empty():  # a has left
            await ClockCycles(dut.clk, 1)
        b_start = len(tb.egress)
        b = tb.frame(beats=8)
        await tb.source.send(b)
        # wait until b has started, a beat of it is in the output register and (case 2)
        # the MAC has taken 3 of its beats; 2 ns after the edge the monitor has stepped
        while True:
            await FallingEdge(dut.clk)
            await Timer(2, unit="ns")
            taken = len(tb.egress) - b_start
            if tb.spec.in_packet and tb.spec.valid and taken == (0 if case == 1 else 3):
                break
        egress_before = len(tb.egress)
        tb.reset_cycles.add(tb.t)  # the monitor raises rst in the next cycle
        await FallingEdge(dut.clk)
        await Timer(2, unit="ns")
        assert int(dut.rst.value) == 1 and int(dut.s_axis_tready.value) == 0
        await FallingEdge(dut.clk)
        await Timer(2, unit="ns")
        assert int(dut.m_axis_tvalid.value) == 0, "a beat survived the reset"
        assert int(dut.used_credits.value) == 0
        # the beats of b taken at m_axis before the reset: no tlast among them
        cut = tb.egress[b_start:egress_before]
        assert len(cut) == taken and all(not e[2] for e in cut), cut
        assert len([e for e in tb.egress[egress_before:] if e != "reset"]) == 0
        tb.sink.pause = False
        # PFT's registers are back at their reset values (CTRL 0: disabled)
        assert await tb.read(off(regs.CREDIT_LIMIT)) == regs.REGS["CREDIT_LIMIT"][3]
        assert await tb.read(off(regs.CTRL)) == 0
        await configure_ft_fi(tb, limit=0x40, th_enter=24, th_escape=12, m=1, n=3, k=2)
        # pause for 20 cycles: the next frame's first beat must wait (a head again)
        t0, held = tb.t, tb.stats["paused_heads"]
        tb.pause_fn = lambda t: t0 <= t < t0 + 20
        c_, d_ = tb.frame(beats=5), tb.frame(beats=1)
        await tb.source.send(c_)
        await ClockCycles(dut.clk, 25)
        assert tb.stats["paused_heads"] - held >= 15, "the first beat after reset not held"
        await tb.source.send(d_)
        tb.pause_fn = lambda t: False
        # b is nowhere: the sink (reset with the block) dropped its part; a, c, d intact
        await tb.check_frames([tb.sent_frames[-4], tb.sent_frames[-2], tb.sent_frames[-1]],
                              max_cycles=2000)
        after = tb.egress[tb.egress.index("reset", egress_before):]
        first_after = next(e for e in after if e != "reset")
        assert first_after[0] & 0xFF == tb.sent_frames[-2][0][0], \
            "the first beat after the reset is not the next frame's first"
    dut._log.info("reset: %d resets, %d beats out", tb.stats["resets"], len(tb.egress))
