// Replay vectors of IB CC's one flow (top ibcc_flow, Verilator prefix Vibcc_flow) on its
// exported Verilog; the loop is mvcm_ibcc_replay.cpp. Usage: ibcc_replay VECTORS [MAX]
#define DUT_HEADER "Vibcc_flow.h"
#define DUT Vibcc_flow
#define INPUTS(X) X(reset) X(becn) X(start) X(flits)
#define OUTPUTS(X) X(ccti) X(eligible) X(wait_cycles) X(tick) X(err_early)
#include "mvcm_ibcc_replay.cpp"
