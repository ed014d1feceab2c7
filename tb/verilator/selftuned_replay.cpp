// Replay vectors of the self-tuned throttle's node (top selftuned_node) on its exported
// Verilog and compare every output every cycle. Usage: selftuned_replay VECTORS [MAX_REPORTS]
// Vector line (hex): reset snap_valid snap_full snap_flits   inhibit threshold margin
// (margin: 27-bit two's complement). Prints "cycles N mismatches M"; exits 1 if M > 0 or
// the file is malformed.
#include "Vselftuned_node.h"
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
    Vselftuned_node dut(&ctx);
    dut.clock = 1;  // power-up with the clock high, like the rust-hdl stepper
    dut.eval();
    char line[256];
    long cycles = 0, bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        unsigned rst, sv, full, flits, inh, thr, margin;
        if (sscanf(line, "%x %x %x %x %x %x %x", &rst, &sv, &full, &flits, &inh, &thr,
                   &margin) != 7) {
            fprintf(stderr, "%s:%ld: malformed vector line\n", argv[1], lineno);
            return 2;
        }
        // Inputs change with the falling edge; outputs are sampled before the rising edge.
        dut.clock = 0;
        dut.reset = rst;
        dut.snap_valid = sv;
        dut.snap_full = full;
        dut.snap_flits = flits;
        dut.eval();
        if (dut.inhibit != inh || dut.threshold != thr || dut.margin != margin) {
            if (bad < max_reports)
                printf("cycle %ld: verilog inhibit=%x threshold=%x margin=%x | model "
                       "inhibit=%x threshold=%x margin=%x (reset %x snap %x %x %x)\n",
                       cycles, dut.inhibit, dut.threshold, dut.margin, inh, thr, margin, rst,
                       sv, full, flits);
            bad++;
        }
        dut.clock = 1;
        dut.eval();
        cycles++;
    }
    printf("cycles %ld mismatches %ld\n", cycles, bad);
    return bad ? 1 : 0;
}
