// Speed of the exported Verilog under Verilator: replay recorded inputs (in memory, looped)
// for N cycles without comparing. Usage: bench VECTORS CYCLES. Prints "cycles N seconds S".
#include "Vpft_injector.h"
#include "verilated.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct In { unsigned rst, fv, fh, cr, we, addr, wdata; };

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s VECTORS CYCLES\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    long n = atol(argv[2]);
    std::vector<In> v;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        In i;
        if (sscanf(line, "%x %x %x %x %x %x %x", &i.rst, &i.fv, &i.fh, &i.cr, &i.we, &i.addr,
                   &i.wdata) == 7)
            v.push_back(i);
    }
    if (v.empty()) {
        fprintf(stderr, "no vectors\n");
        return 2;
    }
    VerilatedContext ctx;
    Vpft_injector dut(&ctx);
    dut.clock = 1;
    dut.eval();
    unsigned long sink = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (long t = 0; t < n; t++) {
        const In &i = v[t % v.size()];
        dut.clock = 0;
        dut.reset = i.rst;
        dut.flit_valid = i.fv;
        dut.flit_head = i.fh;
        dut.credit_return = i.cr;
        dut.csr_we = i.we;
        dut.csr_addr = i.addr;
        dut.csr_wdata = i.wdata;
        dut.eval();
        sink += dut.send;
        dut.clock = 1;
        dut.eval();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("cycles %ld seconds %.6f sent %lu\n", n, s, sink);
    return 0;
}
