// SPDX-License-Identifier: Apache-2.0
// torx_rr_arbiter: round-robin pick, combinational. Of the requesters in req_i, grants the first at
// or after ptr_i, wrapping around (docs/timing-contract.md: every arbiter of the router picks this
// way). The pointer is a register of the arbiter's owner (torx_vc_alloc, torx_sw_alloc), named as
// the contract names it; the owner moves it after a grant.
//
// Cycle contract: purely combinational; req_i and ptr_i of cycle t give valid_o and idx_o in t.
//
// Parameters:
//   NumReq  requesters (>= 1)
//   IdxW    width of ptr_i and idx_o (>= clog2(NumReq), at least 1)
`include "torx_pkg.sv"

module torx_rr_arbiter #(
  parameter int unsigned NumReq = 4,
  parameter int unsigned IdxW = torx_pkg::clog2w(NumReq)
) (
  input  logic [NumReq-1:0] req_i,    // cycle t: requesters
  input  logic [IdxW-1:0]   ptr_i,    // cycle t: first requester to consider (< NumReq)
  output logic              valid_o,  // cycle t: some requester granted
  output logic [IdxW-1:0]   idx_o     // cycle t: the granted requester (0 when !valid_o)
);

  logic [NumReq-1:0] upper;  // requesters at or after the pointer

  always_comb begin
    for (int unsigned i = 0; i < NumReq; i++) begin
      upper[i] = req_i[i] && (IdxW'(i) >= ptr_i);
    end
    // Lowest requester overall, then overridden by the lowest at or after the pointer.
    idx_o = '0;
    for (int i = NumReq - 1; i >= 0; i--) begin
      if (req_i[i]) idx_o = IdxW'(i);
    end
    for (int i = NumReq - 1; i >= 0; i--) begin
      if (upper[i]) idx_o = IdxW'(i);
    end
    valid_o = |req_i;
  end

  `include "props/torx_rr_arbiter_props.svh"  // docs/verification.md, "Properties"

endmodule
