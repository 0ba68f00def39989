// SPDX-License-Identifier: Apache-2.0
// torx_router_status: the status outputs of a router (torx_router, torx_gossip_router), one module
// for both (C++ twin: the stat_blocked / route_error figures of models/router.cpp).
//
// Cycle contract: from the end of cycle t, stat_blocked_o = the front flits of t (front_i) minus the
// ones that left in t (send_i) and the ones that completed a pipeline stage in t (progress_i: a
// classic router's RC and VA; docs/timing-contract.md, "Classic"): every lane (torx_router) or input (torx_gossip_router) with a due
// flit at the front either sends it (at most one per input port) or waits. route_error_o is sticky
// from the end of the first cycle with an error_i bit set, until reset. quiescent_o is
// combinational: every input port is empty (no flit in a pipeline stage or a buffer).
//
// Parameters:
//   NumFronts  front-flit bits: lanes (torx_router) or input ports (torx_gossip_router)
//   NumPorts   input ports (send_i, error_i, empty_i)
//   BlockedW   bits of stat_blocked_o: at least clog2(NumFronts + 1)
`ifndef TORX_ROUTER_STATUS_SV_
`define TORX_ROUTER_STATUS_SV_

module torx_router_status #(
  parameter int unsigned NumFronts = 1,
  parameter int unsigned NumPorts = 1,
  parameter int unsigned BlockedW = 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [NumFronts-1:0] front_i,         // cycle t: a due flit at the front
  input  logic [NumPorts-1:0]  send_i,          // cycle t: input port p sends its front flit
  input  logic [NumFronts-1:0] progress_i,      // cycle t: a front advanced a pipeline stage without leaving (classic RC, VA)
  input  logic [NumPorts-1:0]  error_i,         // cycle t: input port p holds a flit it cannot forward
  input  logic [NumPorts-1:0]  empty_i,         // cycle t: input port p holds no flit
  output logic [BlockedW-1:0]  stat_blocked_o,  // registered: front flits of t that did not leave
  output logic                 route_error_o,   // registered, sticky
  output logic                 quiescent_o      // combinational: every input port empty
);

  logic [BlockedW-1:0] stat_blocked_q;
  logic route_error_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_blocked_q <= '0;
      route_error_q <= 1'b0;
    end else begin
      stat_blocked_q <= BlockedW'($countones(front_i)) - BlockedW'($countones(send_i)) -
                        BlockedW'($countones(progress_i));
      route_error_q <= route_error_q || (|error_i);
    end
  end
  assign stat_blocked_o = stat_blocked_q;
  assign route_error_o = route_error_q;
  assign quiescent_o = &empty_i;

endmodule

`endif  // TORX_ROUTER_STATUS_SV_
