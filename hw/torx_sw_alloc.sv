// SPDX-License-Identifier: Apache-2.0
// torx_sw_alloc: the switch allocator (C++ twin: SwitchAllocator, models/allocators.hpp), separable
// input-first with round-robin arbiters, one iteration: at most one flit per input port and per
// output port per cycle; priority first with priority levels (docs/priority.md, "Switch
// allocation"). Snapshot registers, flat vectors:
//   sa_in_rr_q   per input port p at [p*PtrW +: PtrW]: input-stage pointer, a lane of the port
//   sa_out_rr_q  per output port o at [o*PortW +: PortW]: output-stage pointer, an input port
//
// Cycle contract (docs/timing-contract.md, "Router pipeline", steps 4 and 5, stage P of cycle t):
//   input stage   each input port offers at most one lane among those ready (req_i: ACTIVE or granted
//                 in t, front flit due, owning its output VC, a credit for its output VC above the
//                 throttle's reserve for its level), of the highest level among them: the first at
//                 or after sa_in_rr_q[p] in lane order, wrapping (lane l of a port has level l mod K);
//   output stage  each output port grants one of the input ports offering a lane of the highest
//                 level among the offers for it: the first at or after sa_out_rr_q[o], wrapping.
// At the end of t the winner's pointers move: sa_in_rr_q[p] to the lane after the winning lane l,
// sa_out_rr_q[o] to the input port after p. Losers' pointers stay. As in the C++ model
// (SwitchAllocator::grant), sa_in_rr_q wraps to 0 after the port's last lane (l + 1 == the port's
// lanes, VCs x K). (Until issue 25 it wrapped at the VC count, so with K > 1 VC 0's top-level lane
// could win again and again while VC 1's waited: sa_in_fair, docs/verification.md.)
//
// Lookahead (Pipeline = 1; docs/timing-contract.md, "Lookahead", steps 4 to 6): speculative switch
// allocation beside the VC allocation. An input port with no ready lane offers instead the first lane
// at or after sa_in_rr_q[p] among those asking for an output VC in t (spec_i), for the output port
// of its route; an output port with at least one non-speculative offer grants among those only, else
// among the speculative ones (the same pointer). A speculative grant stands only if spec_ok_i says
// the lane got its output VC in t and that VC has a credit; otherwise it is cancelled: nothing
// crosses, no pointer moves. (One priority level only.)
//
// Parameters:
//   NumDims, NumLocal        ports: 2N network (C x V VCs each), K local (one VC each)
//   NumClasses, VcsPerClass  C and V
//   PriorityLevels           lanes per VC (1: no priorities)
//   Pipeline                 0 single, 1 lookahead (speculative requests), 2 classic
`include "torx_pkg.sv"

module torx_sw_alloc #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned PriorityLevels = 1,
  parameter int unsigned Pipeline = 0,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = torx_pkg::num_ports(NumDims, NumLocal),
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalLanes = torx_pkg::total_lanes(NumDims, NumLocal, NetVcs, PriorityLevels),
  localparam int unsigned PortW = torx_pkg::clog2w(NumPorts),
  localparam int unsigned LaneIdxW = torx_pkg::clog2w(NetVcs * PriorityLevels),
  localparam int unsigned PtrW = LaneIdxW
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [TotalLanes-1:0]        req_i,        // cycle t: input lane i can send its front flit ...
  input  logic [TotalLanes*PortW-1:0]  req_port_i,   // cycle t: ... to this output port
  input  logic [TotalLanes-1:0]        spec_i,       // cycle t: lookahead: lane i asks for an output VC (speculative request)
  input  logic [TotalLanes-1:0]        spec_ok_i,    // cycle t: lookahead: ... and would get one with a credit
  output logic [NumPorts*LaneIdxW-1:0] in_lane_o,    // cycle t: lane input port p offers (0 if none)
  output logic [NumPorts-1:0]          in_win_o,     // cycle t: input port p's offer won
  output logic [NumPorts-1:0]          out_valid_o,  // cycle t: output port o sends a flit ...
  output logic [NumPorts*PortW-1:0]    out_port_o    // cycle t: ... from this input port
);

  localparam int unsigned Levels = PriorityLevels;
  localparam int unsigned LevelW = torx_pkg::clog2w(Levels);

  logic [NumPorts*PtrW-1:0] sa_in_rr_q /*verilator public_flat_rd*/, sa_in_rr_d;
  logic [NumPorts*PortW-1:0] sa_out_rr_q /*verilator public_flat_rd*/, sa_out_rr_d;

  logic [NumPorts-1:0] in_valid;               // input port p offers a lane ...
  logic [NumPorts*PortW-1:0] in_port;          // ... for this output port ...
  logic [NumPorts*LevelW-1:0] in_level;        // ... of this level
  logic [NumPorts-1:0] in_spec;                // lookahead: the offer is speculative ...
  logic [NumPorts-1:0] in_spec_ok;             // ... and stands if granted

  // Input stage.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    localparam bit Net = (p < NumNetPorts);
    localparam int unsigned Vcs = Net ? NetVcs : 1;
    localparam int unsigned Lanes = Vcs * Levels;
    localparam int unsigned FirstLane = (Net ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels;
    logic [Lanes-1:0] req;
    logic [LaneIdxW-1:0] lane;

    if (Levels == 1) begin : gen_one_level
      assign req = req_i[FirstLane +: Lanes];
      assign in_level[p*LevelW +: LevelW] = '0;
    end else begin : gen_levels
      // Only the highest level among the port's ready lanes is offered.
      logic [Levels-1:0] level_any;
      logic [LevelW-1:0] top;
      always_comb begin
        level_any = '0;
        for (int unsigned l = 0; l < Lanes; l++) begin
          if (req_i[FirstLane + l]) level_any[l % Levels] = 1'b1;
        end
        top = '0;
        for (int unsigned q = 0; q < Levels; q++) begin
          if (level_any[q]) top = LevelW'(q);
        end
        for (int unsigned l = 0; l < Lanes; l++) begin
          req[l] = req_i[FirstLane + l] && (top == LevelW'(l % Levels));
        end
      end
      assign in_level[p*LevelW +: LevelW] = top;
    end

    // With lookahead, the speculative requests compete when no lane is ready.
    logic [Lanes-1:0] req_any;
    logic ns_valid;
    if (Pipeline == torx_pkg::PipeLookahead) begin : gen_spec_in
      assign ns_valid = |req;
      assign req_any = ns_valid ? req : spec_i[FirstLane +: Lanes];
      assign in_spec[p] = !ns_valid && |spec_i[FirstLane +: Lanes];
      assign in_spec_ok[p] = spec_ok_i[FirstLane + 32'(lane)];
    end else begin : gen_no_spec_in
      assign ns_valid = 1'b0;
      assign req_any = req;
      assign in_spec[p] = 1'b0;
      assign in_spec_ok[p] = 1'b0;
      logic unused_spec;
      assign unused_spec = ^{spec_i[FirstLane +: Lanes], spec_ok_i[FirstLane +: Lanes], ns_valid};
    end

    if (Lanes == 1) begin : gen_one_vc
      assign in_valid[p] = req_any[0];
      assign lane = '0;
      logic [PtrW-1:0] unused_ptr;  // a one-lane port's pointer stays 0
      assign unused_ptr = sa_in_rr_q[p*PtrW +: PtrW];
    end else begin : gen_vcs
      logic [PtrW-1:0] idx;
      torx_rr_arbiter #(.NumReq(Lanes), .IdxW(PtrW)) u_arb (
        .req_i  (req_any),
        .ptr_i  (sa_in_rr_q[p*PtrW +: PtrW]),
        .valid_o(in_valid[p]),
        .idx_o  (idx)
      );
      assign lane = idx;
    end
    assign in_lane_o[p*LaneIdxW +: LaneIdxW] = lane;
    assign in_port[p*PortW +: PortW] = req_port_i[(FirstLane + 32'(lane))*PortW +: PortW];

    always_comb begin
      sa_in_rr_d[p*PtrW +: PtrW] = sa_in_rr_q[p*PtrW +: PtrW];
      if (in_win_o[p]) sa_in_rr_d[p*PtrW +: PtrW] = (32'(lane) + 1 == Lanes) ? '0 : PtrW'(lane) + PtrW'(1);
    end
  end

  if (Pipeline != torx_pkg::PipeLookahead) begin : gen_no_spec
    logic unused_spec_ok;   // only lookahead has speculative offers
    assign unused_spec_ok = ^in_spec_ok;
  end

  if (Levels == 1) begin : gen_no_levels
    logic unused_level;   // one level: every offer is of level 0
    assign unused_level = ^in_level;
  end

  // Output stage.
  logic [NumPorts*NumPorts-1:0] out_grant;   // [o*NumPorts + p]: output o grants input p
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [NumPorts-1:0] req, req_top, req_ns, req_sp;
    logic [PortW-1:0] winner;
    logic arb_valid, stands;

    always_comb begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        req[p] = in_valid[p] && (in_port[p*PortW +: PortW] == PortW'(o));
        req_ns[p] = req[p] && !in_spec[p];
        req_sp[p] = req[p] && in_spec[p];
      end
    end

    if (Pipeline == torx_pkg::PipeLookahead) begin : gen_spec_out
      // Non-speculative offers first; a speculative grant stands only if its head got a VC with a credit.
      assign req_top = (|req_ns) ? req_ns : req_sp;
      always_comb begin
        stands = |req_ns;
        for (int unsigned p = 0; p < NumPorts; p++) begin
          if (!(|req_ns) && winner == PortW'(p)) stands = in_spec_ok[p];
        end
      end
    end else if (Levels == 1) begin : gen_one_level
      assign req_top = req;
      assign stands = 1'b1;
      logic unused_req;
      assign unused_req = ^{req_ns, req_sp};
    end else begin : gen_levels
      assign stands = 1'b1;
      logic unused_req;
      assign unused_req = ^{req_ns, req_sp};
      // Only the offers of the highest level among those for this output compete.
      logic [LevelW-1:0] top;
      always_comb begin
        top = '0;
        for (int unsigned p = 0; p < NumPorts; p++) begin
          if (req[p] && in_level[p*LevelW +: LevelW] > top) top = in_level[p*LevelW +: LevelW];
        end
        for (int unsigned p = 0; p < NumPorts; p++) begin
          req_top[p] = req[p] && (in_level[p*LevelW +: LevelW] == top);
        end
      end
    end

    torx_rr_arbiter #(.NumReq(NumPorts), .IdxW(PortW)) u_arb (
      .req_i  (req_top),
      .ptr_i  (sa_out_rr_q[o*PortW +: PortW]),
      .valid_o(arb_valid),
      .idx_o  (winner)
    );
    assign out_valid_o[o] = arb_valid && stands;
    assign out_port_o[o*PortW +: PortW] = winner;
    for (genvar p = 0; p < NumPorts; p++) begin : gen_grant
      assign out_grant[o*NumPorts + p] = out_valid_o[o] && (winner == PortW'(p));
    end

    always_comb begin
      sa_out_rr_d[o*PortW +: PortW] = sa_out_rr_q[o*PortW +: PortW];
      if (out_valid_o[o]) begin
        sa_out_rr_d[o*PortW +: PortW] = (32'(winner) == NumPorts - 1) ? '0 : winner + PortW'(1);
      end
    end
  end

  always_comb begin
    in_win_o = '0;
    for (int unsigned o = 0; o < NumPorts; o++) in_win_o = in_win_o | out_grant[o*NumPorts +: NumPorts];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sa_in_rr_q <= '0;
      sa_out_rr_q <= '0;
    end else begin
      sa_in_rr_q <= sa_in_rr_d;
      sa_out_rr_q <= sa_out_rr_d;
    end
  end

  `include "props/torx_sw_alloc_props.svh"  // docs/verification.md, "Properties"

endmodule
