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
/* verilator tracing_off */  // the properties' own signals stay out of waveforms (torx_props_defs.svh)
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

  // The lanes' and output VCs' registers as unpacked arrays (static slices of the packed vectors), and
  // the two checks as loops over them: a lane's output VC and a VC's owner are indices computed each
  // cycle, and a dynamic part-select of a packed vector of TotalVcs x IvcW bits is word-shift code in
  // the generated C++ per lane and per use (with 168 lanes on the all-port 3D router with K = 4, this
  // file was a third of the properties' generated C++; docs/rtl.md, "Build time"). Loops longer than
  // the unroll limit (64) stay loops in the C++.
  localparam int unsigned PropsStackN = Levels > 1 ? Levels - 1 : 1;
  logic [IvcW-1:0] props_owner_a [TotalVcs];
  logic [PropsDepthW-1:0] props_depth_a [TotalVcs];
  logic [IvcW-1:0] props_stack_a [TotalVcs*PropsStackN];
  logic [torx_pkg::IvcStateW-1:0] props_state_a [TotalLanes];
  logic [PortW-1:0] props_port_a [TotalLanes];
  logic [VcIdxW-1:0] props_vc_a [TotalLanes];
  for (genvar j = 0; j < TotalVcs; j++) begin : gen_props_ovc_a
    assign props_owner_a[j] = ovc_owner[j*IvcW +: IvcW];
    assign props_depth_a[j] = props_depth[j*PropsDepthW +: PropsDepthW];
    for (genvar k = 0; k < PropsStackN; k++) begin : gen_props_stack_a
      assign props_stack_a[j*PropsStackN + k] = props_stack[(j*PropsStackN + k)*IvcW +: IvcW];
    end
  end
  for (genvar l = 0; l < TotalLanes; l++) begin : gen_props_lane_a
    assign props_state_a[l] = props_state[l*torx_pkg::IvcStateW +: torx_pkg::IvcStateW];
    assign props_port_a[l] = props_port[l*PortW +: PortW];
    assign props_vc_a[l] = props_vc[l*VcIdxW +: VcIdxW];
  end

  // The output VC lane l holds (router-wide), from its output port and VC.
  function automatic logic [31:0] props_held(logic [IvcW-1:0] l);
    props_held = first_vc(32'(props_port_a[l])) + 32'(props_vc_a[l]);
  endfunction
  // Lane l owns output VC j, or waits on its stack (preempted).
  function automatic logic props_owns(logic [IvcW-1:0] l, logic [31:0] j);
    props_owns = 1'b0;
    if (j < TotalVcs) begin
      if (props_owner_a[j] == l) props_owns = 1'b1;
      for (int unsigned k = 0; k + 1 < Levels; k++) begin
        if (k < 32'(props_depth_a[j]) && props_stack_a[j*PropsStackN + k] == l) props_owns = 1'b1;
      end
    end
  endfunction
  function automatic logic [IvcW-1:0] props_owner_of(logic [31:0] j);
    props_owner_of = j < TotalVcs ? props_owner_a[j] : '0;
  endfunction

  // rt_owner, per lane.
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned l = 0; l < TotalLanes; l++) begin
        if (props_state_a[l] == torx_pkg::IvcActive) begin
          `TORX_ASSERT(props_owns(IvcW'(l), props_held(IvcW'(l))),
                       ("rt_owner: lane %0d is ACTIVE on output VC %0d, owned by lane %0d", l, props_held(IvcW'(l)),
                        props_owner_of(props_held(IvcW'(l)))))
        end
      end
    end
  end

  // rt_owned, per output VC.
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned j = 0; j < TotalVcs; j++) begin
        if (props_owner_a[j] != PropsFree) begin
          `TORX_ASSERT(32'(props_owner_a[j]) < TotalLanes && props_state_a[props_owner_a[j]] == torx_pkg::IvcActive &&
                       props_held(props_owner_a[j]) == j,
                       ("rt_owned: output VC %0d is owned by lane %0d, which does not hold it", j, props_owner_a[j]))
        end
      end
    end
  end
`endif  // FORMAL
/* verilator tracing_on */
`endif  // TORX_PROPS
