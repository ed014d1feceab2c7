// Replay vectors of IB CC's N flows (tops ibcc_flows<N>, Verilator prefix Vibcc_flows) on
// the exported Verilog; the loop is mvcm_ibcc_replay.cpp. Usage: ibcc_flows_replay VECTORS
#define DUT_HEADER "Vibcc_flows.h"
#define DUT Vibcc_flows
#define INPUTS(X) X(reset) X(becn) X(becn_flow) X(start) X(start_flow) X(flits)
#define OUTPUTS(X) X(eligible) X(tick) X(err_early)
#include "mvcm_ibcc_replay.cpp"
