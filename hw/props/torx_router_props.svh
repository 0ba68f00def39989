// SPDX-License-Identifier: Apache-2.0
// torx_router_props: the router-wide properties that relate the input units' worms to the output
// units' owners (docs/verification.md, "Properties"), included at the end of torx_router. They read
// the units' registers by hierarchical name, which Verilator accepts and yosys 0.23 does not, so they
// run in every Verilated simulation and not in the unit proofs (whose wrappers check each side):
//   rt_owner      one owner per output VC, held from head to tail: an ACTIVE input lane is the owner
//                 of the output VC it holds, or (priority levels) waits on that VC's stack, preempted;
//   rt_owned      an owned output VC's owner is an ACTIVE lane holding that VC;
//   rt_credit     an output VC's credits never exceed D (per output VC of the router; the conservation
//                 across a link, credits + flits in flight + downstream occupancy = D, is
//                 hw/formal/torx_output_unit_fv.sv's, and the co-simulation compares every counter
//                 with the C++ model's every cycle).
`include "props/torx_props_defs.svh"
`ifdef TORX_PROPS
`ifndef FORMAL
  logic props_up_q = 1'b0;   // the router was out of reset at the previous clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_up_q <= 1'b0;
    else props_up_q <= 1'b1;
  end

  localparam int unsigned PropsDepthW = torx_pkg::clog2w(Levels);
  localparam logic [IvcW-1:0] PropsFree = '1;
  // Per output VC (router-wide): the stacked owners and their number (priority levels).
  logic [TotalVcs*PropsDepthW-1:0] props_depth;
  logic [TotalVcs*(Levels > 1 ? Levels - 1 : 1)*IvcW-1:0] props_stack;
  // Per input lane (router-wide): state, output port and output VC.
  logic [TotalLanes*torx_pkg::IvcStateW-1:0] props_state;
  logic [TotalLanes*PortW-1:0] props_port;
  logic [TotalLanes*VcIdxW-1:0] props_vc;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_props_port
    localparam int unsigned PVcs = (p < NumNetPorts) ? NetVcs : 1;
    localparam int unsigned PFirst = first_vc(p);
    assign props_state[PFirst*Levels*torx_pkg::IvcStateW +: PVcs*Levels*torx_pkg::IvcStateW] = gen_port[p].u_input_unit.ivc_state_q;
    assign props_port[PFirst*Levels*PortW +: PVcs*Levels*PortW] = gen_port[p].u_input_unit.ivc_out_port_q;
    assign props_vc[PFirst*Levels*VcIdxW +: PVcs*Levels*VcIdxW] = gen_port[p].u_input_unit.ivc_out_vc_q;
    if (Levels > 1) begin : gen_props_stack
      assign props_depth[PFirst*PropsDepthW +: PVcs*PropsDepthW] = gen_port[p].u_output_unit.gen_owner_stack.ovc_depth_q;
      assign props_stack[PFirst*(Levels-1)*IvcW +: PVcs*(Levels-1)*IvcW] = gen_port[p].u_output_unit.gen_owner_stack.ovc_stack_q;
    end else begin : gen_props_no_stack
      assign props_depth[PFirst*PropsDepthW +: PVcs*PropsDepthW] = '0;
      assign props_stack[PFirst*IvcW +: PVcs*IvcW] = '0;
    end
    for (genvar v = 0; v < PVcs; v++) begin : gen_props_credit
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q) begin
          `TORX_ASSERT(32'(gen_port[p].u_output_unit.ovc_credits_q[v*$clog2(BufferDepth + 1) +: $clog2(BufferDepth + 1)]) <= BufferDepth,
                       ("rt_credit: output %0d VC %0d has more than D = %0d credits", p, v, BufferDepth))
        end
      end
    end
  end

  for (genvar l = 0; l < TotalLanes; l++) begin : gen_props_lane
    logic [31:0] j;          // the output VC the lane holds (router-wide)
    logic owner, stacked;
    assign j = first_vc(32'(props_port[l*PortW +: PortW])) + 32'(props_vc[l*VcIdxW +: VcIdxW]);
    always_comb begin
      owner = j < TotalVcs && ovc_owner[j*IvcW +: IvcW] == IvcW'(l);
      stacked = 1'b0;
      for (int unsigned k = 0; k + 1 < Levels; k++) begin
        if (j < TotalVcs && k < 32'(props_depth[j*PropsDepthW +: PropsDepthW]) &&
            props_stack[(j*(Levels > 1 ? Levels - 1 : 1) + k)*IvcW +: IvcW] == IvcW'(l)) stacked = 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q && props_state[l*torx_pkg::IvcStateW +: torx_pkg::IvcStateW] == torx_pkg::IvcActive) begin
        `TORX_ASSERT(owner || stacked, ("rt_owner: lane %0d is ACTIVE on output VC %0d, owned by lane %0d", l, j,
                                        ovc_owner[j*IvcW +: IvcW]))
      end
    end
  end

  for (genvar j = 0; j < TotalVcs; j++) begin : gen_props_ovc
    logic [IvcW-1:0] w;
    logic [31:0] held;
    assign w = ovc_owner[j*IvcW +: IvcW];
    assign held = first_vc(32'(props_port[32'(w)*PortW +: PortW])) + 32'(props_vc[32'(w)*VcIdxW +: VcIdxW]);
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q && w != PropsFree) begin
        `TORX_ASSERT(32'(w) < TotalLanes && props_state[32'(w)*torx_pkg::IvcStateW +: torx_pkg::IvcStateW] == torx_pkg::IvcActive &&
                     held == j, ("rt_owned: output VC %0d is owned by lane %0d, which does not hold it", j, w))
      end
    end
  end
`endif  // FORMAL
`endif  // TORX_PROPS
