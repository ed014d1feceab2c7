// The exported Verilog's `pft_injector`, Verilated, behind a C ABI: the network's
// `engine = "verilator"` (sim/src/net/verilator.rs) loads this as a shared library and
// steps one instance per NIC. A cycle is the replay harness's (tb/verilator/replay.cpp):
// inputs with the clock low, evaluate, read the outputs of the cycle, then the rising edge.
#include "Vpft_injector.h"
#include "verilated.h"
#include <cstdint>

namespace {
struct Block {
    VerilatedContext ctx;
    Vpft_injector dut;
    Block() : dut(&ctx) {
        dut.clock = 1;
        dut.eval();
    }
};
}  // namespace

extern "C" {

// ABI version of this file: the Rust side refuses a library of another version.
uint32_t pftv_abi() { return 2; }

void *pftv_new() { return new Block(); }

void pftv_free(void *p) { delete static_cast<Block *>(p); }

// One cycle. flags: reset[0], flit_valid[1], flit_head[2], csr_we[3]. out[0]: send[0],
// congested[1], throttled[2]; out[1]: used_credits; out[2]: csr_rdata (of the cycle);
// out[3], out[4]: used_credits and congested after the edge (the new registers).
void pftv_step(void *p, uint32_t flags, uint32_t credit_return, uint32_t csr_addr,
               uint32_t csr_wdata, uint32_t *out) {
    Vpft_injector &d = static_cast<Block *>(p)->dut;
    d.clock = 0;
    d.reset = flags & 1;
    d.flit_valid = (flags >> 1) & 1;
    d.flit_head = (flags >> 2) & 1;
    d.csr_we = (flags >> 3) & 1;
    d.credit_return = credit_return;
    d.csr_addr = csr_addr;
    d.csr_wdata = csr_wdata;
    d.eval();
    out[0] = d.send | (d.congested << 1) | (d.throttled << 2);
    out[1] = d.used_credits;
    out[2] = d.csr_rdata;
    d.clock = 1;
    d.eval();
    out[3] = d.used_credits;
    out[4] = d.congested;
}

// A read of CSR `addr` now, between cycles (the read port is combinational; no clock edge,
// no write, no reset: the state does not change).
uint32_t pftv_read(void *p, uint32_t addr) {
    Vpft_injector &d = static_cast<Block *>(p)->dut;
    d.reset = 0;
    d.csr_we = 0;
    d.csr_addr = addr;
    d.eval();
    return d.csr_rdata;
}
}
