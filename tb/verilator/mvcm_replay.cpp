// Replay vectors of MVCM's one flow (top mvcm_flow, Verilator prefix Vmvcm_flow) on its
// exported Verilog; the loop is mvcm_ibcc_replay.cpp. Usage: mvcm_replay VECTORS [MAX]
#define DUT_HEADER "Vmvcm_flow.h"
#define DUT Vmvcm_flow
#define INPUTS(X) X(reset) X(ack_valid) X(ack_mb) X(ack_vb) X(fast_reset) X(inject)
#define OUTPUTS(X) \
    X(can_inject) X(dw) X(out) X(ws) X(e) X(wait_cycles) X(err_stray) X(err_marks) \
    X(err_not_eligible)
#include "mvcm_ibcc_replay.cpp"
