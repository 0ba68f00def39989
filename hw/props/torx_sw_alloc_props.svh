// SPDX-License-Identifier: Apache-2.0
// torx_sw_alloc_props: the properties of the switch allocator (docs/verification.md, "Properties"),
// included at the end of torx_sw_alloc:
//   sa_reset      after reset every pointer is 0;
//   sa_ptr        every output pointer names a port, every input pointer a lane of its port;
//   sa_requested  an input port offers, and wins with, only a lane that is ready, for the output port
//                 that lane asked for;
//   sa_exclusive  at most one flit per output port (a grant names one input port) and per input port
//                 (no input port wins at two outputs) in a cycle;
//   sa_offer      work conservation and levels at the input stage: an input port offers a lane exactly
//                 when one of its lanes is ready, and (K > 1) a lane of the highest ready level;
//   sa_grant      work conservation and levels at the output stage: an output port with an offer sends
//                 a flit, and (K > 1) the winner's offer is of the highest level offered to it;
//   sa_in_fair    round robin at the input stage: while a lane of input port p is ready (at the port's
//                 highest ready level), at most Lanes - 1 wins of p go to its other lanes before it.
//                 At every K (it found the pointer wrapping at the VC count, not the lane count, in
//                 the RTL and the C++ model alike: docs/verification.md, "A fairness gap at K > 1");
//   (lookahead, Pipeline = 1: an input port with no ready lane offers a speculative one, spec_i; a
//   speculative offer is a ready one for sa_offer and sa_requested when spec_ok_i says its grant
//   stands, an output with a speculative offer only may send nothing (the grant is cancelled), and
//   a speculative offer does not compete with a non-speculative one for the same output in sa_fair)
//   sa_spec       (torx_sw_alloc_spec_props.svh) an offer's kind from the ports;
//   sa_fair       round robin at the output stage: while input port p keeps offering a lane for output
//                 o at the highest level offered to o, at most NumPorts - 1 grants of o go to other
//                 input ports before p's.
`include "props/torx_props_defs.svh"
`ifdef TORX_PROPS
/* verilator tracing_off */  // the properties' own signals stay out of waveforms (torx_props_defs.svh)
`ifdef FORMAL
  initial assume (!rst_ni);   // a proof starts in reset
`endif
  logic props_up_q = 1'b0;   // the unit was out of reset at the previous clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_up_q <= 1'b0;
    else props_up_q <= 1'b1;
  end

  localparam int unsigned PropsFairW = $clog2(NumPorts + 1);

  // The router-wide index of lane l of input port p (the request wires' order).
  function automatic int unsigned props_lane_of(int unsigned p, int unsigned l);
    props_lane_of = ((p < NumNetPorts) ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels + l;
  endfunction

  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(sa_in_rr_q == '0 && sa_out_rr_q == '0, ("sa_reset: pointers not 0 after reset"))
    end
    if (rst_ni && props_up_q) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        `TORX_ASSERT(32'(sa_out_rr_q[o*PortW +: PortW]) < NumPorts,
                     ("sa_ptr: output %0d's pointer is %0d, of %0d ports", o, sa_out_rr_q[o*PortW +: PortW], NumPorts))
      end
      for (int unsigned p = 0; p < NumPorts; p++) begin
        `TORX_ASSERT(32'(sa_in_rr_q[p*PtrW +: PtrW]) < ((p < NumNetPorts) ? NetVcs : 1) * Levels,
                     ("sa_ptr: input %0d's pointer is %0d", p, sa_in_rr_q[p*PtrW +: PtrW]))
      end
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_props_in
    localparam int unsigned PLanes = ((p < NumNetPorts) ? NetVcs : 1) * Levels;
    localparam int unsigned PFirst = ((p < NumNetPorts) ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels;
    logic [torx_pkg::clog2w(TotalLanes)-1:0] lane;
    logic [31:0] wins;
    assign lane = torx_pkg::clog2w(TotalLanes)'(PFirst + 32'(in_lane_o[p*LaneIdxW +: LaneIdxW]));
    always_comb begin
      wins = '0;
      for (int unsigned o = 0; o < NumPorts; o++) wins = wins + 32'(out_grant[o*NumPorts + p]);
    end
    logic any_ready;
    logic [LevelW-1:0] top_ready;
    always_comb begin
      any_ready = 1'b0;
      top_ready = '0;
      for (int unsigned l = 0; l < PLanes; l++) begin
        if (req_i[PFirst + l] || (Pipeline == torx_pkg::PipeLookahead && spec_i[PFirst + l])) begin
          any_ready = 1'b1;
          if (LevelW'(l % Levels) > top_ready) top_ready = LevelW'(l % Levels);
        end
      end
    end
    for (genvar l = 0; l < PLanes; l++) begin : gen_props_in_fair
      logic competing_l;
      logic [15:0] passed_q;   // wins of p by its other lanes while lane l is ready
      assign competing_l = req_i[PFirst + l] && LevelW'(l % Levels) == top_ready;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) passed_q <= '0;
        else if (!competing_l || (in_win_o[p] && 32'(in_lane_o[p*LaneIdxW +: LaneIdxW]) == l)) passed_q <= '0;
        else if (in_win_o[p] && 32'(passed_q) < PLanes) passed_q <= passed_q + 16'd1;
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q) begin
          `TORX_ASSERT(32'(passed_q) < PLanes,
                       ("sa_in_fair: lane %0d of input port %0d waited through %0d wins of its port's other lanes", l, p,
                        passed_q))
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(in_valid[p] == any_ready, ("sa_offer: input port %0d offers %0d with ready lanes %0d", p,
                                                 in_valid[p], any_ready))
        if (Levels > 1 && in_valid[p]) begin
          `TORX_ASSERT(in_level[p*LevelW +: LevelW] == top_ready &&
                       LevelW'(32'(in_lane_o[p*LaneIdxW +: LaneIdxW]) % Levels) == top_ready,
                       ("sa_offer: input port %0d offers lane %0d (level %0d), its highest ready level is %0d", p,
                        in_lane_o[p*LaneIdxW +: LaneIdxW], in_level[p*LevelW +: LevelW], top_ready))
        end
        `TORX_ASSERT(wins <= 1, ("sa_exclusive: input port %0d wins at %0d outputs", p, wins))
        if (in_win_o[p]) begin
          `TORX_ASSERT(32'(in_lane_o[p*LaneIdxW +: LaneIdxW]) < PLanes &&
                       (req_i[lane] || (Pipeline == torx_pkg::PipeLookahead && spec_i[lane] && spec_ok_i[lane])),
                       ("sa_requested: input port %0d wins with lane %0d, which is not ready", p, in_lane_o[p*LaneIdxW +: LaneIdxW]))
        end
      end
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_props_out
    logic offered, offered_ns;
    logic [LevelW-1:0] top_offer;
    always_comb begin
      offered = 1'b0;
      offered_ns = 1'b0;
      top_offer = '0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (in_valid[p] && in_port[p*PortW +: PortW] == PortW'(o)) begin
          offered = 1'b1;
          if (!in_spec[p]) offered_ns = 1'b1;
          if (in_level[p*LevelW +: LevelW] > top_offer) top_offer = in_level[p*LevelW +: LevelW];
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(out_valid_o[o] ? offered : !offered_ns,
                     ("sa_grant: output %0d sends %0d with offers %0d (non-speculative %0d)", o, out_valid_o[o],
                      offered, offered_ns))
        if (Levels > 1 && out_valid_o[o]) begin
          `TORX_ASSERT(in_level[out_port_o[o*PortW +: PortW]*LevelW +: LevelW] == top_offer,
                       ("sa_grant: output %0d grants an offer of level %0d, the highest offered is %0d", o,
                        in_level[out_port_o[o*PortW +: PortW]*LevelW +: LevelW], top_offer))
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q && out_valid_o[o]) begin
        // From the ports' outputs and the request wires, not the allocator's internal offer: the lane
        // the granted input port names is ready and asked for this output.
        `TORX_ASSERT((req_i[props_lane_of(32'(out_port_o[o*PortW +: PortW]), 32'(in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))] ||
                      (Pipeline == torx_pkg::PipeLookahead &&
                       spec_i[props_lane_of(32'(out_port_o[o*PortW +: PortW]), 32'(in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))] &&
                       spec_ok_i[props_lane_of(32'(out_port_o[o*PortW +: PortW]), 32'(in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))])) &&
                     req_port_i[props_lane_of(32'(out_port_o[o*PortW +: PortW]), 32'(in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))*PortW +: PortW] == PortW'(o),
                     ("sa_requested: output %0d grants input port %0d, whose lane %0d is not ready for it", o,
                      out_port_o[o*PortW +: PortW], in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))
      end
    end
    // The input ports competing for o: offers of the highest level among the offers for o.
    logic [NumPorts-1:0] competing;
    always_comb begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        competing[p] = in_valid[p] && in_port[p*PortW +: PortW] == PortW'(o) && !(in_spec[p] && offered_ns);
      end
      for (int unsigned p = 0; p < NumPorts; p++) begin
        for (int unsigned k = 0; k < NumPorts; k++) begin
          if (in_valid[k] && in_port[k*PortW +: PortW] == PortW'(o) && in_level[k*LevelW +: LevelW] > in_level[p*LevelW +: LevelW]) competing[p] = 1'b0;
        end
      end
    end
    for (genvar p = 0; p < NumPorts; p++) begin : gen_props_fair
      logic [PropsFairW-1:0] passed_q;   // grants of o to other input ports while p competes
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) passed_q <= '0;
        else if (!competing[p] || out_grant[o*NumPorts + p]) passed_q <= '0;
        else if (out_valid_o[o] && 32'(passed_q) < NumPorts) passed_q <= passed_q + PropsFairW'(1);
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q) begin
          `TORX_ASSERT(32'(passed_q) < NumPorts,
                       ("sa_fair: input port %0d waited for output %0d through %0d grants to others", p, o, passed_q))
        end
      end
    end
  end

  `include "props/torx_sw_alloc_spec_props.svh"
/* verilator tracing_on */
`endif  // TORX_PROPS
