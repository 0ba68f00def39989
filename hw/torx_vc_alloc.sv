// SPDX-License-Identifier: Apache-2.0
// torx_vc_alloc: the VC allocator (C++ twin: VcAllocator, models/allocators.hpp), fair per output
// port and class (docs/timing-contract.md, "Router pipeline", step 3). Snapshot registers, flat
// vectors with one element per (output port o, class c), ports in order and classes within a port
// (network port o at o*C + c, ejection port 2N + k at 2N*C + k):
//   va_rr_q     round-robin pointer over input-VC indices
//   va_vc_rr_q  round-robin pointer over the VCs of the class (0 .. V-1)
//
// Cycle contract, stage P of cycle t: requesters are the input VCs whose front flit is a routed
// head (req_i: IDLE routed in t, or WAIT_VC), each asking for one (output port, class). For every
// (o, c) with at least one free VC of class c at o (ovc_free_i, owners at the start of t) and at
// least one requester, one requester is granted: the first in input-VC index order at or after
// va_rr_q, wrapping; it gets the first free VC of the class at or after va_vc_rr_q, wrapping. The
// pointers move past the winner and past the granted VC at the end of t; with no grant they stay.
// An ejection port has one class and one VC. Output VCs are numbered port by port as input VCs are
// (the ports are symmetric), class c of a network port owning VCs c*V .. c*V + V - 1.
//
// Parameters:
//   NumDims, NumLocal       ports: 2N network, K local
//   NumClasses, VcsPerClass C and V
// Widths (as in torx_router): a port PortW, a class ClassW, a VC within a port VcIdxW, an input-VC
// index IvcW (all ones is never an index: the output units' "free").
`include "torx_pkg.sv"

module torx_vc_alloc #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = NumNetPorts * NetVcs + NumLocal,
  localparam int unsigned PortW = torx_pkg::clog2w(NumNetPorts + NumLocal),
  localparam int unsigned ClassW = torx_pkg::clog2w(NumClasses),
  localparam int unsigned VcIdxW = torx_pkg::clog2w(NetVcs),
  localparam int unsigned IvcW = $clog2(TotalVcs + 1),
  localparam int unsigned NumOutClasses = NumNetPorts * NumClasses + NumLocal,
  localparam int unsigned VprW = torx_pkg::clog2w(VcsPerClass)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [TotalVcs-1:0]        req_i,          // cycle t: input VC i asks for an output VC ...
  input  logic [TotalVcs*PortW-1:0]  req_port_i,     // cycle t: ... on this output port ...
  input  logic [TotalVcs*ClassW-1:0] req_class_i,    // cycle t: ... of this class (0 for ejection)
  input  logic [TotalVcs-1:0]        ovc_free_i,     // cycle t: output VC j has no owner
  output logic [TotalVcs-1:0]        grant_o,        // cycle t: input VC i is granted ...
  output logic [TotalVcs*VcIdxW-1:0] grant_vc_o,     // cycle t: ... this VC of its output port
  output logic [TotalVcs-1:0]        ovc_grant_o,    // cycle t: output VC j is claimed ...
  output logic [TotalVcs*IvcW-1:0]   ovc_grant_ivc_o // cycle t: ... by this input VC
);

  logic [NumOutClasses*IvcW-1:0] va_rr_q /*verilator public_flat_rd*/, va_rr_d;
  logic [NumOutClasses*VprW-1:0] va_vc_rr_q /*verilator public_flat_rd*/, va_vc_rr_d;

  // Per (o, c): the grant.
  logic [NumOutClasses-1:0] oc_grant;
  logic [NumOutClasses*IvcW-1:0] oc_winner;   // input VC
  logic [NumOutClasses*IvcW-1:0] oc_ovc;      // output VC, router-wide index (as input VCs)
  logic [NumOutClasses*VcIdxW-1:0] oc_vc;     // output VC within its port

  for (genvar o = 0; o < NumNetPorts + NumLocal; o++) begin : gen_port
    localparam bit Net = (o < NumNetPorts);
    localparam int unsigned Classes = Net ? NumClasses : 1;
    localparam int unsigned Vcs = Net ? VcsPerClass : 1;                 // VCs per class
    localparam int unsigned FirstVc = Net ? o * NetVcs : NumNetPorts * NetVcs + (o - NumNetPorts);
    localparam int unsigned FirstOc = Net ? o * NumClasses : NumNetPorts * NumClasses + (o - NumNetPorts);

    for (genvar c = 0; c < Classes; c++) begin : gen_class
      localparam int unsigned Oc = FirstOc + c;
      logic [TotalVcs-1:0] req;
      logic [Vcs-1:0] free;
      logic req_any, free_any;
      logic [IvcW-1:0] winner;
      logic [VprW-1:0] vc;

      always_comb begin
        for (int unsigned i = 0; i < TotalVcs; i++) begin
          req[i] = req_i[i] && (req_port_i[i*PortW +: PortW] == PortW'(o)) &&
                   (!Net || req_class_i[i*ClassW +: ClassW] == ClassW'(c));
        end
        for (int unsigned k = 0; k < Vcs; k++) free[k] = ovc_free_i[FirstVc + c * Vcs + k];
      end

      torx_rr_arbiter #(.NumReq(TotalVcs), .IdxW(IvcW)) u_req_arb (
        .req_i  (req),
        .ptr_i  (va_rr_q[Oc*IvcW +: IvcW]),
        .valid_o(req_any),
        .idx_o  (winner)
      );

      if (Vcs == 1) begin : gen_one_vc
        assign free_any = free[0];
        assign vc = '0;
      end else begin : gen_vcs
        torx_rr_arbiter #(.NumReq(Vcs), .IdxW(VprW)) u_vc_arb (
          .req_i  (free),
          .ptr_i  (va_vc_rr_q[Oc*VprW +: VprW]),
          .valid_o(free_any),
          .idx_o  (vc)
        );
      end

      assign oc_grant[Oc] = req_any && free_any;
      assign oc_winner[Oc*IvcW +: IvcW] = winner;
      assign oc_vc[Oc*VcIdxW +: VcIdxW] = VcIdxW'(c * Vcs) + VcIdxW'(vc);
      assign oc_ovc[Oc*IvcW +: IvcW] = IvcW'(FirstVc + c * Vcs) + IvcW'(vc);

      // Pointers: past the winner and past the granted VC.
      always_comb begin
        va_rr_d[Oc*IvcW +: IvcW] = va_rr_q[Oc*IvcW +: IvcW];
        va_vc_rr_d[Oc*VprW +: VprW] = va_vc_rr_q[Oc*VprW +: VprW];
        if (oc_grant[Oc]) begin
          va_rr_d[Oc*IvcW +: IvcW] = (32'(winner) == TotalVcs - 1) ? '0 : winner + IvcW'(1);
          va_vc_rr_d[Oc*VprW +: VprW] = (32'(vc) == Vcs - 1) ? '0 : vc + VprW'(1);
        end
      end
    end
  end

  // Grants to the input VCs and to the output VCs. Every input VC asks for one (o, c), so it gets
  // at most one grant; every (o, c) grants at most one VC.
  always_comb begin
    grant_o = '0;
    grant_vc_o = '0;
    ovc_grant_o = '0;
    ovc_grant_ivc_o = '0;
    for (int unsigned oc = 0; oc < NumOutClasses; oc++) begin
      if (oc_grant[oc]) begin
        grant_o[32'(oc_winner[oc*IvcW +: IvcW])] = 1'b1;
        grant_vc_o[32'(oc_winner[oc*IvcW +: IvcW])*VcIdxW +: VcIdxW] = oc_vc[oc*VcIdxW +: VcIdxW];
        ovc_grant_o[32'(oc_ovc[oc*IvcW +: IvcW])] = 1'b1;
        ovc_grant_ivc_o[32'(oc_ovc[oc*IvcW +: IvcW])*IvcW +: IvcW] = oc_winner[oc*IvcW +: IvcW];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      va_rr_q <= '0;
      va_vc_rr_q <= '0;
    end else begin
      va_rr_q <= va_rr_d;
      va_vc_rr_q <= va_vc_rr_d;
    end
  end

endmodule
