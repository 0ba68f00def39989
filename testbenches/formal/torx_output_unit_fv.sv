// SPDX-License-Identifier: Apache-2.0
// torx_output_unit_fv: formal harness of torx_output_unit (scripts/formal.py, docs/verification.md).
// The environment is the rest of the router and the downstream router, each keeping its side of the
// contract (docs/timing-contract.md), as assumptions:
//   - the VC allocator claims only a free VC (one level; with levels it preempts only when the unit
//     offers the stack), for a lane that owns no VC and waits on no VC's stack (a preempted lane is
//     ACTIVE and waits for its VC back: it requests no other; `waiting_q` below, one bit per lane);
//   - the switch allocator sends a flit on a VC only with a credit for it (credit_ok_o), from the
//     VC's owner or the lane claiming it in that cycle, and the flits of a VC are whole worms in order;
//   - the downstream router returns a credit only for a flit it holds: per VC it holds `owed`, the
//     flits that crossed the link and were not yet credited (downstream occupancy plus credits in
//     flight), modelled in the unit's property file under TORX_FV_LINK (yosys 0.23 has no hierarchical
//     references, so the model sits where the credit counters are), which scripts/formal.py defines
//     for this proof only; it asserts credit conservation per output VC: credits + the flit on the
//     link + owed = D.
// With the unit's own properties (hw/props/torx_output_unit_props.svh).
`include "torx_pkg.sv"

module torx_output_unit_fv #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned PriorityLevels = 1,
  parameter int unsigned BufferDepth = 3,
  parameter int unsigned IvcW = 2,
  parameter int unsigned TotalVcs = 3,
  parameter int unsigned Pipeline = 0,   // 1, 2: the traversal register (output_unit_p1)
  localparam int unsigned FlitW = 1 + 2 + torx_pkg::TagW,   // VC field (VcIdxW), head, tail, the tag
  localparam int unsigned VcIdxW = 1,
  localparam int unsigned Unused = 0
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic                       credit_valid_i,
  input logic [VcIdxW-1:0]          credit_vc_i,
  input logic [NumVcs-1:0]          va_grant_i,
  input logic [NumVcs*IvcW-1:0]     va_grant_ivc_i,
  input logic [NumVcs-1:0]          va_preempt_i,
  input logic                       xb_valid_i,
  input logic [FlitW-1:0]           xb_flit_i,
  input logic [VcIdxW-1:0]          xb_vc_i,
  input logic [IvcW-1:0]            xb_ivc_i
);
  localparam logic [IvcW-1:0] Free = '1;
  logic flit_valid_o;
  logic [FlitW-1:0] flit_o;
  logic [NumVcs*PriorityLevels-1:0] credit_ok;
  logic [NumVcs-1:0] ovc_free, ovc_stack_ok;
  logic [NumVcs*IvcW-1:0] ovc_owner;

  torx_output_unit #(.NumVcs(NumVcs), .PriorityLevels(PriorityLevels), .PriorityReserve(1),
                     .BufferDepth(BufferDepth), .FlitW(FlitW), .VcIdxW(VcIdxW), .IvcW(IvcW),
                     .Pipeline(Pipeline)) dut (
    .clk_i, .rst_ni, .credit_valid_i, .credit_vc_i, .flit_valid_o, .flit_o, .credit_ok_o(credit_ok),
    .ovc_free_o(ovc_free), .ovc_owner_o(ovc_owner), .ovc_stack_ok_o(ovc_stack_ok), .va_grant_i,
    .va_grant_ivc_i, .va_preempt_i, .xb_valid_i, .xb_flit_i, .xb_vc_i, .xb_ivc_i, .st_valid_o());

  logic [TotalVcs-1:0] waiting_q, waiting_d;   // per lane: preempted, on some VC's stack
  always_comb begin
    waiting_d = waiting_q;
    for (int unsigned l = 0; l < TotalVcs; l++) begin
      for (int unsigned k = 0; k < NumVcs; k++) begin
        if (ovc_owner[k*IvcW +: IvcW] == IvcW'(l)) waiting_d[l] = 1'b0;   // it owns a VC again
      end
      for (int unsigned k = 0; k < NumVcs; k++) begin
        if (va_grant_i[k] && va_preempt_i[k] && ovc_owner[k*IvcW +: IvcW] == IvcW'(l)) waiting_d[l] = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) waiting_q <= '0;
    else waiting_q <= waiting_d;
  end

  logic [NumVcs-1:0] in_worm_q;        // per VC: a worm in progress on the VC (its next index)
  logic [NumVcs*32-1:0] msg_q, seq_q;

  always_comb begin
    if (rst_ni) begin
      assume (32'(xb_vc_i) < NumVcs && 32'(credit_vc_i) < NumVcs && 32'(xb_ivc_i) < TotalVcs);
    end
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [IvcW-1:0] owner;
    logic spend, owns_other;
    logic [31:0] msg, seq;
    assign owner = ovc_owner[v*IvcW +: IvcW];
    assign spend = xb_valid_i && xb_vc_i == VcIdxW'(v);
    assign msg = xb_flit_i[FlitW - torx_pkg::TagW +: 32];
    assign seq = xb_flit_i[FlitW - torx_pkg::TagW + 32 +: 32];
    always_comb begin
      owns_other = 1'b0;
      for (int unsigned k = 0; k < NumVcs; k++) begin
        if (k != v && ovc_owner[k*IvcW +: IvcW] == va_grant_ivc_i[v*IvcW +: IvcW]) owns_other = 1'b1;
      end
      if (rst_ni) begin
        if (va_grant_i[v]) begin
          assume (va_grant_ivc_i[v*IvcW +: IvcW] != Free && 32'(va_grant_ivc_i[v*IvcW +: IvcW]) < TotalVcs && !owns_other &&
                  !waiting_q[va_grant_ivc_i[v*IvcW +: IvcW]]);
          assume (ovc_free[v] || (PriorityLevels > 1 && va_preempt_i[v] && ovc_stack_ok[v] &&
                                  va_grant_ivc_i[v*IvcW +: IvcW] != owner));
        end
        if (!va_grant_i[v]) assume (!va_preempt_i[v]);
        if (spend) begin
          assume (credit_ok[v*PriorityLevels + PriorityLevels - 1]);
          assume (xb_ivc_i == owner || (va_grant_i[v] && va_grant_ivc_i[v*IvcW +: IvcW] == xb_ivc_i));
          if (PriorityLevels == 1) begin
            if (xb_flit_i[VcIdxW]) assume (!in_worm_q[v]);
            else assume (in_worm_q[v] && msg == msg_q[v*32 +: 32] && seq == seq_q[v*32 +: 32] + 1);
          end
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_worm_q[v] <= 1'b0;
        msg_q[v*32 +: 32] <= '0;
        seq_q[v*32 +: 32] <= '0;
      end else begin
        if (spend) begin
          in_worm_q[v] <= !xb_flit_i[VcIdxW + 1];
          msg_q[v*32 +: 32] <= msg;
          seq_q[v*32 +: 32] <= seq;
        end
      end
    end
  end
endmodule
