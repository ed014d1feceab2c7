// Replay recorded vectors on the exported Verilog and compare every output every cycle.
// Usage: replay VECTORS [MAX_REPORTS]
// Vector line (hex): reset flit_valid flit_head credit_return csr_we csr_addr csr_wdata
//                    send congested throttled used_credits csr_rdata
// Prints "cycles N mismatches M"; exits 1 if M > 0 or the file is malformed.
#include "Vpft_injector.h"
#include "verilated.h"
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTORS [MAX_REPORTS]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    long max_reports = argc > 2 ? atol(argv[2]) : 10;
    VerilatedContext ctx;
    Vpft_injector dut(&ctx);
    dut.clock = 1;  // power-up with the clock high, like the rust-hdl stepper
    dut.eval();
    char line[512];
    long cycles = 0, bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        unsigned rst, fv, fh, cr, we, addr, wdata, send, cong, thr, c, rdata;
        if (sscanf(line, "%x %x %x %x %x %x %x %x %x %x %x %x", &rst, &fv, &fh, &cr, &we, &addr,
                   &wdata, &send, &cong, &thr, &c, &rdata) != 12) {
            fprintf(stderr, "%s:%ld: malformed vector line\n", argv[1], lineno);
            return 2;
        }
        // Inputs change with the falling edge; outputs are sampled before the rising edge.
        dut.clock = 0;
        dut.reset = rst;
        dut.flit_valid = fv;
        dut.flit_head = fh;
        dut.credit_return = cr;
        dut.csr_we = we;
        dut.csr_addr = addr;
        dut.csr_wdata = wdata;
        dut.eval();
        if (dut.send != send || dut.congested != cong || dut.throttled != thr ||
            dut.used_credits != c || dut.csr_rdata != rdata) {
            if (bad < max_reports)
                printf("cycle %ld: verilog send=%x congested=%x throttled=%x c=%x rdata=%x | "
                       "rust-hdl send=%x congested=%x throttled=%x c=%x rdata=%x (addr %x)\n",
                       cycles, dut.send, dut.congested, dut.throttled, dut.used_credits,
                       dut.csr_rdata, send, cong, thr, c, rdata, addr);
            bad++;
        }
        dut.clock = 1;
        dut.eval();
        cycles++;
    }
    printf("cycles %ld mismatches %ld\n", cycles, bad);
    return bad ? 1 : 0;
}
