"""The Python port of PFT's spec used by the cocotb testbenches (../shared/spec/PFT-SPEC.md,
docs/behaviour.md; the Rust reference is hdl/src/pft/model.rs and hdl/src/axis/model.rs):
the credit counter, FT detection and the FI throttle with packet gating (`SpecFtFi`), and
the stream side and register writes of `pft_axis` around it (`AxisSpec`). Both step one
clock cycle at a time: the outputs of cycle t from the registered values of cycle t, then
the rising edge. AT detection and the RI generator are not ported (the testbenches check
RI statistically)."""

import sys
from pathlib import Path

# The register map, generated from hdl/src/regs.rs (`make docs`; docs/registers.md).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hdl" / "generated"))
import pft_regs as regs  # noqa: E402

RESET_GAP = 0xFFFF  # regs::RESET_GAP: FI's gap counter after reset (saturated)


class SpecFtFi:
    """The spec's credit counter, FT detection and FI throttle (flit gating by default,
    packet gating with `gating`: only a packet's first flit is throttled), cycle by cycle.
    `enabled` False: the detector is held Normal and nothing is throttled."""

    def __init__(self, limit, th_enter, th_escape, m, n, k, enabled=True, gating=False):
        self.limit, self.th_enter, self.th_escape = limit, th_enter, th_escape
        self.m, self.n, self.k = m, n, k
        self.enabled, self.gating = enabled, gating
        self.c, self.state, self.gap = 0, False, RESET_GAP

    def level(self):
        return ((self.c << self.m) >> self.n) + self.k

    def congested(self):
        return self.state and self.enabled

    def outputs(self, flit_valid, flit_head=True):
        """(send, throttled, congested, used credits) of this cycle."""
        credit_ok = self.c < self.limit
        throttle_ok = (not self.congested() or self.gap >= self.level()
                       or (self.gating and not flit_head))
        send = flit_valid and credit_ok and throttle_ok
        throttled = flit_valid and credit_ok and not throttle_ok
        return send, throttled, self.congested(), self.c

    def edge(self, send, credit_return):
        c = self.c
        if not self.enabled:
            self.state = False
        elif self.state and c < self.th_escape:
            self.state = False
        elif not self.state and c > self.th_enter:
            self.state = True
        self.c = max(0, c + send - credit_return)
        self.gap = 0 if send else min(self.gap + 1, RESET_GAP)


# Reset values and write masks of PFT's registers, by word address.
WORD = {a: (reset, mask) for a, _access, mask, reset in regs.REGS.values()}


class AxisSpec:
    """`pft_axis` around `SpecFtFi`: the output register's valid bit, the packet tracker,
    the pause mask, PFT's reset, and the register writes the AXI4-Lite slave commits (byte
    map: PFT's word w at 0x40 + 4w, SLVERR at 0x80 and above; byte strobes merged with the
    old value; every CTRL write also sets CTRL.gating). The testbench tells it which
    writes commit (the cycles `s_axil_awready` is high) and, in RI, the send decision of a
    head flit that the throttle may hold (RI's generator is not ported)."""

    def __init__(self):
        self.valid = False
        self.in_packet = False
        self.words = {}
        self.pft = None
        self.reset()

    def reset(self):
        self.valid = False
        self.in_packet = False
        self.words = {a: reset for a, (reset, _mask) in WORD.items() if a <= regs.SEED}
        self.pft = SpecFtFi(0, 0, 0, 0, 0, 0)
        self._apply()
        self.pft.c, self.pft.state, self.pft.gap = 0, False, RESET_GAP

    def ctrl(self):
        return self.words[regs.CTRL]

    def thr_ri(self):
        return bool(self.ctrl() & regs.CTRL_THR_MODE_FIELD_MASK)

    def _apply(self):
        """The PFT model's configuration from the register words."""
        w, p = self.words, self.pft
        ctrl = w[regs.CTRL]
        assert not ctrl & regs.CTRL_DET_MODE_FIELD_MASK or not ctrl & regs.CTRL_ENABLE_FIELD_MASK, \
            "AT detection is not ported: the testbench must not enable it"
        p.enabled = bool(ctrl & regs.CTRL_ENABLE_FIELD_MASK)
        p.gating = bool(ctrl & regs.CTRL_GATING_FIELD_MASK)
        p.limit, p.th_enter, p.th_escape = w[regs.CREDIT_LIMIT], w[regs.TH_ENTER], w[regs.TH_ESCAPE]
        shape = w[regs.SHAPE]
        p.m = (shape & regs.SHAPE_M_FIELD_MASK) >> regs.SHAPE_M_SHIFT
        p.n = (shape & regs.SHAPE_N_FIELD_MASK) >> regs.SHAPE_N_SHIFT
        p.k = w[regs.K]

    def write(self, awaddr, wdata, wstrb):
        """A write the AXI4-Lite slave commits at this cycle's edge."""
        a = awaddr & ~3
        if a < regs.AXIL_PFT_BASE or a >= regs.AXIL_SPAN or wstrb & 0xF == 0:
            return  # header, reserved, outside (SLVERR) or no strobe: no register changes
        word = (a - regs.AXIL_PFT_BASE) // 4
        if word not in self.words:
            return  # STATUS, the counters, AT_STATUS: nothing the throttle reads
        mask = sum(0xFF << (8 * b) for b in range(4) if wstrb >> b & 1)
        v = (wdata & mask) | (self.words[word] & ~mask)
        if word == regs.CTRL:
            v |= regs.CTRL_GATING_FIELD_MASK
        self.words[word] = v & WORD[word][1]
        self._apply()

    def step(self, rst, s_tvalid, s_tlast, m_tready, pause, credit_return, write=None,
             ri_send=None):
        """One cycle. Returns the expected (s_axis_tready, m_axis_tvalid, throttled,
        congested, used_credits) and the cycle's facts (flit_valid, head, room). `write`:
        (awaddr, wdata, wstrb) if the slave commits a write this cycle. `ri_send`: the
        DUT's send, used only for a head flit the RI throttle decides."""
        room = not self.valid or m_tready
        head = not self.in_packet
        flit_valid = s_tvalid and room and not (pause and head) and not rst
        send, throttled, congested, c = self.pft.outputs(flit_valid, head)
        if (self.thr_ri() and self.pft.congested() and flit_valid and head
                and self.pft.c < self.pft.limit and ri_send is not None):
            send, throttled = bool(ri_send), not ri_send
        # (AXI-Stream: TVALID low in a reset cycle, a held beat included)
        out = (send, self.valid and not rst, throttled, congested, c)
        facts = (flit_valid, head, room)
        if rst:
            self.reset()
            return out, facts
        self.pft.edge(int(send), credit_return)
        if m_tready:
            self.valid = False
        if send:
            self.valid = True
            self.in_packet = not s_tlast
        if write is not None:
            self.write(*write)
        return out, facts
