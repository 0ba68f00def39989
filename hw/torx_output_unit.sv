// SPDX-License-Identifier: Apache-2.0
// torx_output_unit: one router output port (C++ twin: OutputUnit and the OutputVc registers,
// models/output_unit.hpp): per output VC the credit counter and the owner, and the port's output
// register. Snapshot registers (docs/timing-contract.md), flat vectors, VC v at [v*W +: W]:
//   ovc_credits_q  free slots of the downstream VC buffer as this router knows them (reset D)
//   ovc_owner_q    input-VC index of the worm holding the VC, all ones when free (reset free)
//
// Cycle contract (docs/timing-contract.md, "Router pipeline", stage P of cycle t):
//   1. credit intake: a credit on credit_*_i in t counts at once: credit_ok_o says, per VC, whether
//      credits_q plus that credit is above zero (the switch allocator may spend it in t);
//   3. VC allocation reads ovc_free_o (no owner at the start of t) and claims VCs with va_grant_i;
//   6. traversal: the flit granted to this output (xb_*_i) is in flit_o from the end of t, its VC
//      field set to the output VC; that VC's counter loses the credit; a tail frees the VC from
//      t+1. A claim and a release of the same VC in one cycle (a one-flit worm) leave it free.
//
// Parameters:
//   NumVcs       VCs of this port (C x V on a network port, 1 on an ejection port)
//   BufferDepth  D, the downstream buffer's depth (the reset credit count)
//   FlitW        flit width
//   VcIdxW       width of a VC number within a port
//   IvcW         width of an input-VC index (all ones: free)
//   TotalVcs     input VCs of the router (Mutant 2 looks at all of them)
//   Mutant       2: a VC whose worm has its tail at the front of its input VC counts as free in
//                that cycle, one cycle before the tail has left; 0: none
`include "torx_pkg.sv"

module torx_output_unit #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned FlitW = 128,
  parameter int unsigned VcIdxW = 1,
  parameter int unsigned IvcW = 4,
  parameter int unsigned TotalVcs = 9,
  parameter int unsigned Mutant = 0,
  localparam int unsigned CreditW = $clog2(BufferDepth + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Link.
  input  logic                       credit_valid_i,  // cycle t: a credit arrives
  input  logic [VcIdxW-1:0]          credit_vc_i,     // cycle t: for this VC
  output logic                       flit_valid_o,    // registered: a flit was pushed in cycle t
  output logic [FlitW-1:0]           flit_o,          // registered: the flit, VC field = output VC
  // Stage P.
  output logic [NumVcs-1:0]          credit_ok_o,     // cycle t: the VC has a credit (intake included)
  output logic [NumVcs-1:0]          ovc_free_o,      // cycle t: the VC may be granted
  input  logic [NumVcs-1:0]          va_grant_i,      // cycle t: the VC is claimed ...
  input  logic [NumVcs*IvcW-1:0]     va_grant_ivc_i,  // cycle t: ... by this input VC
  input  logic [TotalVcs-1:0]        tail_ready_i,    // cycle t: input VCs with an ACTIVE tail at the front (Mutant 2)
  input  logic                       xb_valid_i,      // cycle t: a flit traverses to this output
  input  logic [FlitW-1:0]           xb_flit_i,       // cycle t: the flit (VC field ignored)
  input  logic [VcIdxW-1:0]          xb_vc_i,         // cycle t: its output VC
  input  logic [IvcW-1:0]            xb_ivc_i         // cycle t: its input VC
);

  localparam logic [IvcW-1:0] Free = '1;
  localparam int unsigned VcFieldW = torx_pkg::VcFieldW;
  localparam int unsigned VcW = torx_pkg::clog2w(NumVcs);

  logic [NumVcs*CreditW-1:0] ovc_credits_q /*verilator public_flat_rd*/, ovc_credits_d;
  logic [NumVcs*IvcW-1:0] ovc_owner_q /*verilator public_flat_rd*/, ovc_owner_d;
  logic flit_valid_q;
  logic [FlitW-1:0] flit_q;   // data: not reset, qualified by flit_valid_q
  logic xb_tail;

  assign xb_tail = xb_flit_i[torx_pkg::SideTail];

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [CreditW-1:0] credits;
    logic [IvcW-1:0] owner, grant_ivc;
    logic credit_in, spend, release_vc;

    assign credits = ovc_credits_q[v*CreditW +: CreditW];
    assign owner = ovc_owner_q[v*IvcW +: IvcW];
    assign grant_ivc = va_grant_ivc_i[v*IvcW +: IvcW];
    assign credit_in = credit_valid_i && (VcW'(credit_vc_i) == VcW'(v));
    assign spend = xb_valid_i && (VcW'(xb_vc_i) == VcW'(v));
    assign release_vc = spend && xb_tail;
    assign credit_ok_o[v] = (credits != '0) || credit_in;

    if (Mutant == 2) begin : gen_mutant_early_release
      // Mutant 2: the VC is free as soon as its worm's tail is at the front of the input VC.
      logic owner_tail_ready;
      always_comb begin
        owner_tail_ready = 1'b0;
        for (int unsigned i = 0; i < TotalVcs; i++) begin
          if (owner == IvcW'(i)) owner_tail_ready = tail_ready_i[i];
        end
      end
      assign ovc_free_o[v] = (owner == Free) || owner_tail_ready;
    end else begin : gen_free
      assign ovc_free_o[v] = (owner == Free);
    end

    always_comb begin
      ovc_credits_d[v*CreditW +: CreditW] = credits + CreditW'(credit_in) - CreditW'(spend);
      ovc_owner_d[v*IvcW +: IvcW] = owner;
      if (release_vc) ovc_owner_d[v*IvcW +: IvcW] = Free;
      // A claim wins over a release, unless the claiming worm is the one leaving (a one-flit worm).
      if (va_grant_i[v] && !(release_vc && xb_ivc_i == grant_ivc)) ovc_owner_d[v*IvcW +: IvcW] = grant_ivc;
    end
  end

  if (Mutant != 2) begin : gen_no_tail_ready
    logic unused_tail_ready;   // only Mutant 2 looks at the input VCs
    assign unused_tail_ready = ^tail_ready_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        ovc_credits_q[v*CreditW +: CreditW] <= CreditW'(BufferDepth);
        ovc_owner_q[v*IvcW +: IvcW] <= Free;
      end
      flit_valid_q <= 1'b0;
    end else begin
      ovc_credits_q <= ovc_credits_d;
      ovc_owner_q <= ovc_owner_d;
      flit_valid_q <= xb_valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (xb_valid_i) flit_q <= {xb_flit_i[FlitW-1:VcFieldW], VcFieldW'(xb_vc_i)};
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

endmodule
