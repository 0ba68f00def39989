// SPDX-License-Identifier: Apache-2.0
// torx_output_unit: one router output port (C++ twin: OutputUnit and the OutputVc registers,
// models/output_unit.hpp): per output VC the credit counter and the owner, and the port's output
// register. Snapshot registers (docs/timing-contract.md), flat vectors, VC v at [v*W +: W]:
//   ovc_credits_q  free slots of the downstream VC buffer as this router knows them (reset D)
//   ovc_owner_q    input lane of the worm holding the VC, all ones when free (reset free)
// and with priority levels (K = PriorityLevels > 1, docs/priority.md, "Output channels"):
//   ovc_depth_q    owners the VC was taken from, waiting on its stack (0 .. K-1)
//   ovc_stack_q    K-1 entries per VC, VC v's entry k at [(v*(K-1)+k)*W +: W]: the preempted
//                  owners, the first preempted at entry 0 (entries at and above the depth are stale)
//
// Cycle contract (docs/timing-contract.md, "Router pipeline", stage P of cycle t):
//   1. credit intake: a credit on credit_*_i in t counts at once: credit_ok_o says, per VC and
//      priority level q, whether credits_q plus that credit is above the throttle's reserve for q,
//      (K-1-q) * PriorityReserve (0 with one level: above zero), so the switch allocator may spend
//      it in t;
//   3. VC allocation reads ovc_free_o (no owner at the start of t) and, with priority levels,
//      ovc_owner_o and ovc_stack_ok_o; it claims a VC with va_grant_i, or takes it from its owner
//      with va_preempt_i too (the owner is pushed on the stack);
//   6. traversal: the flit granted to this output (xb_*_i) is in flit_o from the end of t, its VC
//      field set to the output VC; that VC's counter loses the credit; a tail frees the VC from t+1,
//      or gives it back to the owner on top of its stack. A claim and a release of the same VC in
//      one cycle (a one-flit worm) leave it free (or its stacked owner in charge). If the owner
//      preempted in t sends its tail in t (it was offered from the registers at the start of t), it
//      leaves the stack and the new owner keeps the VC (OutputUnit::send).
//
// Pipelined organizations (Pipeline 1 lookahead, 2 classic; docs/timing-contract.md, "Registers
// between the stages"): the flit granted in t goes into the switch-traversal register (st_valid_q,
// st_vc_q, st_lane_q: its output VC and input lane, both 0 when not valid; the flit itself in
// st_flit_q) and is in flit_o from the end of t+1; credits and owners change in t as in single.
//
// Parameters:
//   NumVcs           VCs of this port (C x V on a network port, 1 on an ejection port)
//   PriorityLevels   K (1: no priorities, no stack)
//   PriorityReserve  r, the throttle's slots per level above
//   BufferDepth      D, the downstream buffer's depth (the reset credit count)
//   FlitW            flit width
//   VcIdxW           width of a VC number within a port
//   IvcW             width of an input-lane index (all ones: free)
//   Pipeline         0 single, 1 lookahead, 2 classic (1 and 2: the traversal register)
`include "torx_pkg.sv"

module torx_output_unit #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned PriorityLevels = 1,
  parameter int unsigned PriorityReserve = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned FlitW = 128,
  parameter int unsigned VcIdxW = 1,
  parameter int unsigned IvcW = 4,
  parameter int unsigned Pipeline = 0,
  localparam int unsigned CreditW = $clog2(BufferDepth + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Link.
  input  logic                       credit_valid_i,  // cycle t: a credit arrives
  input  logic [VcIdxW-1:0]          credit_vc_i,     // cycle t: for this VC
  output logic                       flit_valid_o,    // registered: a flit was pushed in cycle t
  output logic [FlitW-1:0]           flit_o,          // registered: the flit, VC field = output VC
  output logic                       st_valid_o,      // registered: the traversal register holds a flit (Pipeline > 0; else 0)
  // Stage P.
  output logic [NumVcs*PriorityLevels-1:0] credit_ok_o,  // cycle t: [v*K + q]: the VC has a credit for level q (intake included)
  output logic [NumVcs-1:0]          ovc_free_o,      // cycle t: the VC may be granted
  output logic [NumVcs*IvcW-1:0]     ovc_owner_o,     // cycle t: its owner (ovc_owner_q)
  output logic [NumVcs-1:0]          ovc_stack_ok_o,  // cycle t: its stack has room (K > 1)
  input  logic [NumVcs-1:0]          va_grant_i,      // cycle t: the VC is claimed ...
  input  logic [NumVcs*IvcW-1:0]     va_grant_ivc_i,  // cycle t: ... by this input lane ...
  input  logic [NumVcs-1:0]          va_preempt_i,    // cycle t: ... taking it from its owner
  input  logic                       xb_valid_i,      // cycle t: a flit traverses to this output
  input  logic [FlitW-1:0]           xb_flit_i,       // cycle t: the flit (VC field ignored)
  input  logic [VcIdxW-1:0]          xb_vc_i,         // cycle t: its output VC
  input  logic [IvcW-1:0]            xb_ivc_i         // cycle t: its input lane
);

  localparam logic [IvcW-1:0] Free = '1;
  localparam int unsigned VcFieldW = VcIdxW;   // the header's VC field (torx_pkg::vc_w)
  localparam int unsigned VcW = torx_pkg::clog2w(NumVcs);
  localparam int unsigned Levels = PriorityLevels;

  logic [NumVcs*CreditW-1:0] ovc_credits_q /*verilator public_flat_rd*/, ovc_credits_d;
  logic [NumVcs*IvcW-1:0] ovc_owner_q /*verilator public_flat_rd*/, ovc_owner_d;
  logic flit_valid_q;
  logic [FlitW-1:0] flit_q;   // data: not reset, qualified by flit_valid_q
  logic xb_tail;
  logic [NumVcs-1:0] tail_out;   // a tail leaves on the VC

  assign xb_tail = xb_flit_i[VcFieldW + 1];   // torx_pkg::hdr_tail: above the VC field and head
  assign ovc_owner_o = ovc_owner_q;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [CreditW-1:0] credits;
    logic [IvcW-1:0] owner;
    logic credit_in, spend;

    assign credits = ovc_credits_q[v*CreditW +: CreditW];
    assign owner = ovc_owner_q[v*IvcW +: IvcW];
    assign credit_in = credit_valid_i && (VcW'(credit_vc_i) == VcW'(v));
    assign spend = xb_valid_i && (VcW'(xb_vc_i) == VcW'(v));
    assign tail_out[v] = spend && xb_tail;

    if (Levels == 1) begin : gen_credit_ok
      assign credit_ok_o[v] = (credits != '0) || credit_in;
    end else begin : gen_credit_ok_levels
      // The throttle (docs/priority.md): level q needs more than (K-1-q) r credits.
      logic [CreditW:0] avail;
      assign avail = {1'b0, credits} + (CreditW+1)'(credit_in);
      for (genvar q = 0; q < Levels; q++) begin : gen_level
        assign credit_ok_o[v*Levels + q] = 32'(avail) > (Levels - 1 - q) * PriorityReserve;
      end
    end

    assign ovc_free_o[v] = (owner == Free);

    always_comb begin
      ovc_credits_d[v*CreditW +: CreditW] = credits + CreditW'(credit_in) - CreditW'(spend);
    end
  end

  if (Levels == 1) begin : gen_owner
    // One level: no preemption, no stack.
    assign ovc_stack_ok_o = '0;
    logic unused_preempt;
    assign unused_preempt = ^va_preempt_i;
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc_owner
      always_comb begin
        ovc_owner_d[v*IvcW +: IvcW] = ovc_owner_q[v*IvcW +: IvcW];
        if (tail_out[v]) ovc_owner_d[v*IvcW +: IvcW] = Free;
        // A claim wins over a release, unless the claiming worm is the one leaving (a one-flit worm).
        if (va_grant_i[v] && !(tail_out[v] && xb_ivc_i == va_grant_ivc_i[v*IvcW +: IvcW])) begin
          ovc_owner_d[v*IvcW +: IvcW] = va_grant_ivc_i[v*IvcW +: IvcW];
        end
      end
    end
  end else begin : gen_owner_stack
    // Owners and their stacks (docs/priority.md, "Output channels").
    localparam int unsigned DepthW = torx_pkg::clog2w(Levels);
    localparam int unsigned StackN = Levels - 1;
    logic [NumVcs*DepthW-1:0] ovc_depth_q /*verilator public_flat_rd*/, ovc_depth_d;
    logic [NumVcs*StackN*IvcW-1:0] ovc_stack_q /*verilator public_flat_rd*/, ovc_stack_d;

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc_stack
      logic [DepthW-1:0] depth, depth_a;
      logic [IvcW-1:0] owner_a, stacked;
      logic [StackN*IvcW-1:0] stack_a;
      assign depth = ovc_depth_q[v*DepthW +: DepthW];
      assign ovc_stack_ok_o[v] = 32'(depth) + 1 < Levels;

      always_comb begin
        // Step 3: a claim, or a preemption pushing the owner on the stack.
        owner_a = ovc_owner_q[v*IvcW +: IvcW];
        depth_a = depth;
        stack_a = ovc_stack_q[v*StackN*IvcW +: StackN*IvcW];
        if (va_grant_i[v]) begin
          owner_a = va_grant_ivc_i[v*IvcW +: IvcW];
          if (va_preempt_i[v]) begin
            for (int unsigned k = 0; k < StackN; k++) begin
              if (depth == DepthW'(k)) stack_a[k*IvcW +: IvcW] = ovc_owner_q[v*IvcW +: IvcW];
            end
            depth_a = depth + DepthW'(1);
          end
        end
        // Step 6: a tail leaves.
        stacked = Free;
        for (int unsigned k = 0; k < StackN; k++) begin
          if (depth_a == DepthW'(k + 1)) stacked = stack_a[k*IvcW +: IvcW];
        end
        ovc_owner_d[v*IvcW +: IvcW] = owner_a;
        ovc_depth_d[v*DepthW +: DepthW] = depth_a;
        if (tail_out[v]) begin
          if (xb_ivc_i != owner_a) begin
            // The owner preempted in t sent its tail in t (it was offered from the registers at the
            // start of t): it leaves the top of the stack and the new owner keeps the VC
            // (OutputUnit::send).
            ovc_depth_d[v*DepthW +: DepthW] = depth_a - DepthW'(1);
          end else if (depth_a == '0) begin
            ovc_owner_d[v*IvcW +: IvcW] = Free;
          end else begin
            ovc_owner_d[v*IvcW +: IvcW] = stacked;
            ovc_depth_d[v*DepthW +: DepthW] = depth_a - DepthW'(1);
          end
        end
        ovc_stack_d[v*StackN*IvcW +: StackN*IvcW] = stack_a;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ovc_depth_q <= '0;
        ovc_stack_q <= '0;
      end else begin
        ovc_depth_q <= ovc_depth_d;
        ovc_stack_q <= ovc_stack_d;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        ovc_credits_q[v*CreditW +: CreditW] <= CreditW'(BufferDepth);
        ovc_owner_q[v*IvcW +: IvcW] <= Free;
      end
    end else begin
      ovc_credits_q <= ovc_credits_d;
      ovc_owner_q <= ovc_owner_d;
    end
  end

  if (Pipeline == torx_pkg::PipeSingle) begin : gen_out_single
    // Traversal in the allocation cycle: the output register takes the winner.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) flit_valid_q <= 1'b0;
      else flit_valid_q <= xb_valid_i;
    end
    always_ff @(posedge clk_i) begin
      if (xb_valid_i) flit_q <= {xb_flit_i[FlitW-1:VcFieldW], VcFieldW'(xb_vc_i)};
    end
    assign st_valid_o = 1'b0;
  end else begin : gen_out_st
    // The switch-traversal register, then the output register one cycle later.
    logic st_valid_q /*verilator public_flat_rd*/;
    logic [VcIdxW-1:0] st_vc_q /*verilator public_flat_rd*/;
    logic [IvcW-1:0] st_lane_q /*verilator public_flat_rd*/;
    logic [FlitW-1:0] st_flit_q;   // data: not reset, qualified by st_valid_q
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        st_valid_q <= 1'b0;
        st_vc_q <= '0;
        st_lane_q <= '0;
        flit_valid_q <= 1'b0;
      end else begin
        st_valid_q <= xb_valid_i;
        st_vc_q <= xb_valid_i ? xb_vc_i : '0;
        st_lane_q <= xb_valid_i ? xb_ivc_i : '0;
        flit_valid_q <= st_valid_q;
      end
    end
    always_ff @(posedge clk_i) begin
      if (xb_valid_i) st_flit_q <= {xb_flit_i[FlitW-1:VcFieldW], VcFieldW'(xb_vc_i)};
      if (st_valid_q) flit_q <= st_flit_q;
    end
    assign st_valid_o = st_valid_q;
  end

  assign flit_valid_o = flit_valid_q;
  assign flit_o = flit_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (credit_valid_i) begin
        assert (32'(credit_vc_i) < NumVcs) else $error("torx_output_unit: credit for VC %0d of %0d", credit_vc_i, NumVcs);
        assert (32'(ovc_credits_q[VcW'(credit_vc_i)*CreditW +: CreditW]) < BufferDepth)
          else $error("torx_output_unit: credit beyond the downstream buffer (VC %0d)", credit_vc_i);
      end
      if (xb_valid_i) begin
        assert (32'(xb_vc_i) < NumVcs && ovc_credits_q[VcW'(xb_vc_i)*CreditW +: CreditW] != '0 ||
                (credit_valid_i && credit_vc_i == xb_vc_i))
          else $error("torx_output_unit: flit sent on VC %0d without a credit", xb_vc_i);
      end
    end
  end
`endif

  `include "props/torx_output_unit_props.svh"  // docs/verification.md, "Properties"

endmodule
