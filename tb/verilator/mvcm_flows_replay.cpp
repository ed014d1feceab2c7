// Replay vectors of MVCM's N flows (tops mvcm_flows<N>, Verilator prefix Vmvcm_flows) on
// the exported Verilog; the loop is mvcm_ibcc_replay.cpp. Usage: mvcm_flows_replay VECTORS
#define DUT_HEADER "Vmvcm_flows.h"
#define DUT Vmvcm_flows
#define INPUTS(X) \
    X(reset) X(ack_valid) X(ack_flow) X(ack_mb) X(ack_vb) X(fast_reset) X(reset_flow) \
    X(inject) X(inject_flow)
#define OUTPUTS(X) X(can_inject) X(err_stray) X(err_marks) X(err_not_eligible)
#include "mvcm_ibcc_replay.cpp"
