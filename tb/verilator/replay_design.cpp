// The one replay harness of every design in the registry (hdl/src/lib.rs): read vectors,
// drive the inputs, compare every output every cycle. tb/src/verilator.rs
// (`build_replay`) writes a small file per design that defines, from the registry's ports,
//   DUT_HEADER  the Verilated model's header ("Vdut.h"),  DUT  its class (Vdut),
//   INPUTS(X)   X(port) for each input, in the vector's order (clock excluded),
//   OUTPUTS(X)  X(port) for each output, in the vector's order after the inputs,
// and then includes this file.
// Usage: <harness> VECTORS [MAX_REPORTS]
// Vector line (hex, space separated): the inputs, then the expected outputs; `#` lines are
// comments. Prints "cycles N mismatches M"; exits 1 if M > 0, 2 if the file is malformed.
#ifndef DUT_CLOCK
#define DUT_CLOCK clock  // the clock input's name (tb/src/verilator.rs defines it)
#endif
#include DUT_HEADER
#include "verilated.h"
#include <cstdio>
#include <cstdlib>

#define REPLAY_COUNT(port) +1
#define REPLAY_NAME(port) #port,
static const int n_in = 0 INPUTS(REPLAY_COUNT);
static const int n_out = 0 OUTPUTS(REPLAY_COUNT);
static const char *const in_names[] = {INPUTS(REPLAY_NAME)};
static const char *const out_names[] = {OUTPUTS(REPLAY_NAME)};

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
    DUT dut(&ctx);
    dut.DUT_CLOCK = 1;  // power-up with the clock high, like the rust-hdl steppers
    dut.eval();
    char line[1024];
    unsigned long long v[n_in + n_out], got[n_out];
    long cycles = 0, bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char *p = line, *end;
        for (int i = 0; i < n_in + n_out; i++) {
            v[i] = strtoull(p, &end, 16);
            if (end == p) {
                fprintf(stderr, "%s:%ld: malformed vector line (%d fields, want %d)\n",
                        argv[1], lineno, i, n_in + n_out);
                return 2;
            }
            p = end;
        }
        // Inputs change with the falling edge; outputs are sampled before the rising edge.
        dut.DUT_CLOCK = 0;
        int k = 0;
#define REPLAY_SET(port) dut.port = v[k++];
        INPUTS(REPLAY_SET)
        dut.eval();
        k = 0;
#define REPLAY_GET(port) got[k++] = (unsigned long long)dut.port;
        OUTPUTS(REPLAY_GET)
        bool same = true;
        for (int i = 0; i < n_out; i++) same = same && got[i] == v[n_in + i];
        if (!same) {
            if (bad < max_reports) {
                printf("cycle %ld:", cycles);
                for (int i = 0; i < n_in; i++) printf(" %s=%llx", in_names[i], v[i]);
                printf(" |");
                for (int i = 0; i < n_out; i++)
                    if (got[i] != v[n_in + i])
                        printf(" %s: verilog %llx model %llx", out_names[i], got[i],
                               v[n_in + i]);
                printf("\n");
            }
            bad++;
        }
        dut.DUT_CLOCK = 1;
        dut.eval();
        cycles++;
    }
    printf("cycles %ld mismatches %ld\n", cycles, bad);
    return bad ? 1 : 0;
}
