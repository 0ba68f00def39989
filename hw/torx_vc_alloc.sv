// SPDX-License-Identifier: Apache-2.0
// torx_vc_alloc: the VC allocator (C++ twin: VcAllocator, models/allocators.hpp), fair per output
// port and class (docs/timing-contract.md, "Router pipeline", step 3), priority first with priority
// levels (docs/priority.md, "Output channels"). Snapshot registers, flat vectors with one element
// per (output port o, class c), ports in order and classes within a port (network port o at
// o*C + c, ejection port 2N + k at 2N*C + k):
//   va_rr_q     round-robin pointer over input-lane indices
//   va_vc_rr_q  round-robin pointer over the VCs of the class (0 .. V-1)
//
// Cycle contract, stage P of cycle t: requesters are the input lanes whose front flit is a routed
// head (req_i: IDLE routed in t, or WAIT_VC), each asking for one (output port, class). For every
// (o, c) with at least one requester, only the requesters of the highest priority level among them
// compete (lane i has level i mod K); the first of them in input-lane index order at or after
// va_rr_q, wrapping, is the winner. If a VC of class c at o is free (ovc_free_i, owners at the start
// of t), the winner gets the first free VC of the class at or after va_vc_rr_q, wrapping. Otherwise,
// with priority levels, if some VC of the class is owned by a lower level than the winner's (and its
// stack has room), the winner takes the one whose owner has the lowest level, the first at or after
// va_vc_rr_q among equals (ovc_preempt_o). The pointers move past the winner and past the granted VC
// at the end of t; with no grant they stay. An ejection port has one class and one VC. Output VCs are
// numbered port by port as input VCs are (the ports are symmetric), class c of a network port owning
// VCs c*V .. c*V + V - 1; input lanes are numbered input VC x K + level.
//
// Parameters:
//   NumDims, NumLocal       ports: 2N network, K local
//   NumClasses, VcsPerClass C and V
//   PriorityLevels          K (1: no priorities)
// Widths (as in torx_router): a port PortW, a class ClassW, a VC within a port VcIdxW, an input-lane
// index IvcW (all ones is never an index: the output units' "free").
`include "torx_pkg.sv"

module torx_vc_alloc #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned PriorityLevels = 1,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = torx_pkg::total_vcs(NumDims, NumLocal, NetVcs),
  localparam int unsigned TotalLanes = TotalVcs * PriorityLevels,
  localparam int unsigned PortW = torx_pkg::clog2w(NumNetPorts + NumLocal),
  localparam int unsigned ClassW = torx_pkg::clog2w(NumClasses),
  localparam int unsigned VcIdxW = torx_pkg::clog2w(NetVcs),
  localparam int unsigned IvcW = $clog2(TotalLanes + 1),
  localparam int unsigned NumOutClasses = NumNetPorts * NumClasses + NumLocal,
  localparam int unsigned VprW = torx_pkg::clog2w(VcsPerClass)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [TotalLanes-1:0]        req_i,          // cycle t: input lane i asks for an output VC ...
  input  logic [TotalLanes*PortW-1:0]  req_port_i,     // cycle t: ... on this output port ...
  input  logic [TotalLanes*ClassW-1:0] req_class_i,    // cycle t: ... of this class (0 for ejection)
  input  logic [TotalVcs-1:0]          ovc_free_i,     // cycle t: output VC j has no owner
  input  logic [TotalVcs*IvcW-1:0]     ovc_owner_i,    // cycle t: output VC j's owner (K > 1)
  input  logic [TotalVcs-1:0]          ovc_stack_ok_i, // cycle t: output VC j's stack has room (K > 1)
  output logic [TotalLanes-1:0]        grant_o,        // cycle t: input lane i is granted ...
  output logic [TotalLanes*VcIdxW-1:0] grant_vc_o,     // cycle t: ... this VC of its output port
  output logic [TotalVcs-1:0]          ovc_grant_o,    // cycle t: output VC j is claimed ...
  output logic [TotalVcs*IvcW-1:0]     ovc_grant_ivc_o,// cycle t: ... by this input lane ...
  output logic [TotalVcs-1:0]          ovc_preempt_o   // cycle t: ... taking it from its owner
);

  localparam int unsigned Levels = PriorityLevels;
  localparam int unsigned LevelW = torx_pkg::clog2w(Levels);
  // Lane i has level i mod K; with K a power of two that is the index's low bits.
  localparam bit LevelsPow2 = (Levels & (Levels - 1)) == 0;

  logic [NumOutClasses*IvcW-1:0] va_rr_q /*verilator public_flat_rd*/, va_rr_d;
  logic [NumOutClasses*VprW-1:0] va_vc_rr_q /*verilator public_flat_rd*/, va_vc_rr_d;

  // Per (o, c): the grant.
  logic [NumOutClasses-1:0] oc_grant;
  logic [NumOutClasses*IvcW-1:0] oc_winner;   // input lane
  logic [NumOutClasses*IvcW-1:0] oc_ovc;      // output VC, router-wide index (as input VCs)
  logic [NumOutClasses*VcIdxW-1:0] oc_vc;     // output VC within its port
  logic [NumOutClasses-1:0] oc_preempt;       // the grant takes the VC from a lower level
  // The owners are looked at only with priority levels, and only for their level.
  logic unused_owner;
  assign unused_owner = ^{ovc_owner_i, ovc_stack_ok_i};

  for (genvar o = 0; o < NumNetPorts + NumLocal; o++) begin : gen_port
    localparam bit Net = (o < NumNetPorts);
    localparam int unsigned Classes = Net ? NumClasses : 1;
    localparam int unsigned Vcs = Net ? VcsPerClass : 1;                 // VCs per class
    localparam int unsigned FirstVc = Net ? o * NetVcs : NumNetPorts * NetVcs + (o - NumNetPorts);
    localparam int unsigned FirstOc = Net ? o * NumClasses : NumNetPorts * NumClasses + (o - NumNetPorts);

    for (genvar c = 0; c < Classes; c++) begin : gen_class
      localparam int unsigned Oc = FirstOc + c;
      logic [TotalLanes-1:0] req, req_top;
      logic [Vcs-1:0] free, avail;
      logic req_any, free_any, avail_any;
      logic [IvcW-1:0] winner;
      logic [VprW-1:0] vc;

      always_comb begin
        for (int unsigned i = 0; i < TotalLanes; i++) begin
          req[i] = req_i[i] && (req_port_i[i*PortW +: PortW] == PortW'(o)) &&
                   (!Net || req_class_i[i*ClassW +: ClassW] == ClassW'(c));
        end
        for (int unsigned k = 0; k < Vcs; k++) free[k] = ovc_free_i[FirstVc + c * Vcs + k];
      end

      if (Levels == 1) begin : gen_one_level
        assign req_top = req;
        assign avail = free;
        assign avail_any = free_any;
        assign oc_preempt[Oc] = 1'b0;
      end else begin : gen_levels
        // Only the highest level among the requesters competes.
        logic [Levels-1:0] level_any;
        logic [LevelW-1:0] top;
        // Without a free VC: the VCs owned by a lower level than the winner's (stack with room),
        // and of those the ones whose owner has the lowest level.
        logic [Vcs*LevelW-1:0] owner_level;
        logic [Vcs-1:0] victim, lowest;
        always_comb begin
          level_any = '0;
          for (int unsigned i = 0; i < TotalLanes; i++) begin
            if (req[i]) level_any[i % Levels] = 1'b1;
          end
          top = '0;
          for (int unsigned q = 0; q < Levels; q++) begin
            if (level_any[q]) top = LevelW'(q);
          end
          for (int unsigned i = 0; i < TotalLanes; i++) begin
            req_top[i] = req[i] && (top == LevelW'(i % Levels));
          end
          for (int unsigned k = 0; k < Vcs; k++) begin
            owner_level[k*LevelW +: LevelW] = '0;
            if (LevelsPow2) begin
              owner_level[k*LevelW +: LevelW] = ovc_owner_i[(FirstVc + c * Vcs + k)*IvcW +: LevelW];
            end else begin
              for (int unsigned i = 0; i < TotalLanes; i++) begin
                if (ovc_owner_i[(FirstVc + c * Vcs + k)*IvcW +: IvcW] == IvcW'(i)) begin
                  owner_level[k*LevelW +: LevelW] = LevelW'(i % Levels);
                end
              end
            end
            victim[k] = !free[k] && ovc_stack_ok_i[FirstVc + c * Vcs + k] && owner_level[k*LevelW +: LevelW] < top;
          end
          for (int unsigned k = 0; k < Vcs; k++) begin
            lowest[k] = victim[k];
            for (int unsigned j = 0; j < Vcs; j++) begin
              if (victim[j] && owner_level[j*LevelW +: LevelW] < owner_level[k*LevelW +: LevelW]) lowest[k] = 1'b0;
            end
          end
        end
        assign avail = free_any ? free : lowest;
        assign avail_any = free_any || (|victim);
        assign oc_preempt[Oc] = !free_any;
      end

      torx_rr_arbiter #(.NumReq(TotalLanes), .IdxW(IvcW)) u_req_arb (
        .req_i  (req_top),
        .ptr_i  (va_rr_q[Oc*IvcW +: IvcW]),
        .valid_o(req_any),
        .idx_o  (winner)
      );

      assign free_any = |free;
      if (Vcs == 1) begin : gen_one_vc
        assign vc = '0;
        logic unused_avail;
        assign unused_avail = ^avail;
      end else begin : gen_vcs
        logic unused_valid;
        torx_rr_arbiter #(.NumReq(Vcs), .IdxW(VprW)) u_vc_arb (
          .req_i  (avail),
          .ptr_i  (va_vc_rr_q[Oc*VprW +: VprW]),
          .valid_o(unused_valid),
          .idx_o  (vc)
        );
      end

      assign oc_grant[Oc] = req_any && avail_any;
      assign oc_winner[Oc*IvcW +: IvcW] = winner;
      assign oc_vc[Oc*VcIdxW +: VcIdxW] = VcIdxW'(c * Vcs) + VcIdxW'(vc);
      assign oc_ovc[Oc*IvcW +: IvcW] = IvcW'(FirstVc + c * Vcs) + IvcW'(vc);

      // Pointers: past the winner and past the granted VC.
      always_comb begin
        va_rr_d[Oc*IvcW +: IvcW] = va_rr_q[Oc*IvcW +: IvcW];
        va_vc_rr_d[Oc*VprW +: VprW] = va_vc_rr_q[Oc*VprW +: VprW];
        if (oc_grant[Oc]) begin
          va_rr_d[Oc*IvcW +: IvcW] = (32'(winner) == TotalLanes - 1) ? '0 : winner + IvcW'(1);
          va_vc_rr_d[Oc*VprW +: VprW] = (32'(vc) == Vcs - 1) ? '0 : vc + VprW'(1);
        end
      end
    end
  end

  // Grants to the input lanes and to the output VCs. Every input lane asks for one (o, c), so it
  // gets at most one grant; every (o, c) grants at most one VC.
  always_comb begin
    grant_o = '0;
    grant_vc_o = '0;
    ovc_grant_o = '0;
    ovc_grant_ivc_o = '0;
    ovc_preempt_o = '0;
    for (int unsigned oc = 0; oc < NumOutClasses; oc++) begin
      if (oc_grant[oc]) begin
        grant_o[32'(oc_winner[oc*IvcW +: IvcW])] = 1'b1;
        grant_vc_o[32'(oc_winner[oc*IvcW +: IvcW])*VcIdxW +: VcIdxW] = oc_vc[oc*VcIdxW +: VcIdxW];
        ovc_grant_o[32'(oc_ovc[oc*IvcW +: IvcW])] = 1'b1;
        ovc_grant_ivc_o[32'(oc_ovc[oc*IvcW +: IvcW])*IvcW +: IvcW] = oc_winner[oc*IvcW +: IvcW];
        ovc_preempt_o[32'(oc_ovc[oc*IvcW +: IvcW])] = oc_preempt[oc];
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

  `include "props/torx_vc_alloc_props.svh"  // docs/verification.md, "Properties"

endmodule
