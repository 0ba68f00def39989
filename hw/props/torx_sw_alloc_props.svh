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

  // The lane input port p offers (router-wide, the request wires' order: port p's first lane is
  // (p < 2N ? p * C * V : 2N * C * V + p - 2N) * K; as wide as a lane index: p's offer is checked to
  // be one of p's lanes before it is read). (The formula is written out in each function: yosys 0.23
  // takes a function called from a function for a constant one.)
  function automatic logic [torx_pkg::clog2w(TotalLanes)-1:0] props_in_lane(int unsigned p);
    props_in_lane = torx_pkg::clog2w(TotalLanes)'(((p < NumNetPorts) ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels +
                                                 32'(in_lane_o[p*LaneIdxW +: LaneIdxW]));
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

  // The checks are loops, not generate blocks: per input port, per lane of the router (sa_in_fair),
  // per (output, input) pair (sa_fair). Verilator writes a generate block's code once per copy (168
  // lanes and 144 pairs on the all-port 3D router with K = 4) and keeps a loop of more than 64
  // iterations a loop; yosys unrolls every loop, so a proof sees the same logic either way
  // (docs/rtl.md, "Build time"). A lane is named by its router-wide index g (the request wires'
  // order): its input port, its index within the port and the port's lane count come from g.
  localparam int unsigned PropsNetLanes = NumNetPorts * NetVcs * Levels;   // the network ports' lanes
  function automatic int unsigned props_port_of(int unsigned g);
    props_port_of = (g < PropsNetLanes) ? g / (NetVcs * Levels) : NumNetPorts + (g - PropsNetLanes) / Levels;
  endfunction
  function automatic int unsigned props_idx_of(int unsigned g);
    props_idx_of = (g < PropsNetLanes) ? g % (NetVcs * Levels) : (g - PropsNetLanes) % Levels;
  endfunction
  // Input port p's lane count.
  function automatic int unsigned props_lanes(int unsigned p);
    props_lanes = ((p < NumNetPorts) ? NetVcs : 1) * Levels;
  endfunction

  // Per input port: a lane is ready (or, with lookahead, asks speculatively), and the highest level
  // among those lanes; the outputs it wins at (props_wins, counted over the (output, input) pairs).
  logic [NumPorts-1:0] props_any_ready;
  logic [NumPorts*LevelW-1:0] props_top_ready;
  always_comb begin
    props_any_ready = '0;
    props_top_ready = '0;
    for (int unsigned g = 0; g < TotalLanes; g++) begin
      if (req_i[g] || (Pipeline == torx_pkg::PipeLookahead && spec_i[g])) begin
        props_any_ready[props_port_of(g)] = 1'b1;
        if (LevelW'(props_idx_of(g) % Levels) > props_top_ready[props_port_of(g)*LevelW +: LevelW]) begin
          props_top_ready[props_port_of(g)*LevelW +: LevelW] = LevelW'(props_idx_of(g) % Levels);
        end
      end
    end
  end

  // sa_in_fair, per lane g of input port p: wins of p by its other lanes while g is ready at p's highest
  // ready level.
  logic [TotalLanes*16-1:0] props_in_passed_q, props_in_passed_d;
  function automatic logic props_in_competing(int unsigned g);
    props_in_competing = req_i[g] && LevelW'(props_idx_of(g) % Levels) == props_top_ready[props_port_of(g)*LevelW +: LevelW];
  endfunction
  always_comb begin
    props_in_passed_d = props_in_passed_q;
    for (int unsigned g = 0; g < TotalLanes; g++) begin
      if (!props_in_competing(g) ||
          (in_win_o[props_port_of(g)] && 32'(in_lane_o[props_port_of(g)*LaneIdxW +: LaneIdxW]) == props_idx_of(g))) begin
        props_in_passed_d[g*16 +: 16] = '0;
      end else if (in_win_o[props_port_of(g)] && 32'(props_in_passed_q[g*16 +: 16]) < props_lanes(props_port_of(g))) begin
        props_in_passed_d[g*16 +: 16] = props_in_passed_q[g*16 +: 16] + 16'd1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_in_passed_q <= '0;
    else props_in_passed_q <= props_in_passed_d;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned g = 0; g < TotalLanes; g++) begin
        `TORX_ASSERT(32'(props_in_passed_q[g*16 +: 16]) < props_lanes(props_port_of(g)),
                     ("sa_in_fair: lane %0d of input port %0d waited through %0d wins of its port's other lanes",
                      props_idx_of(g), props_port_of(g), props_in_passed_q[g*16 +: 16]))
      end
    end
  end

  // Per output o: an input port offers a lane for it (props_offered), a non-speculative one
  // (props_offered_ns), and the highest level offered to it (props_top_offer); per input port, the
  // outputs it wins at (props_wins). One loop over the (output o, input p) pairs, x = o*NumPorts + p.
  logic [NumPorts-1:0] props_offered, props_offered_ns;
  logic [NumPorts*LevelW-1:0] props_top_offer;
  logic [NumPorts*PropsFairW-1:0] props_wins;
  function automatic logic props_offers(int unsigned p, int unsigned o);   // input p offers for output o
    props_offers = in_valid[p] && 32'(in_port[p*PortW +: PortW]) == o;
  endfunction
  always_comb begin
    props_offered = '0;
    props_offered_ns = '0;
    props_top_offer = '0;
    props_wins = '0;
    for (int unsigned x = 0; x < NumPorts * NumPorts; x++) begin
      if (props_offers(x % NumPorts, x / NumPorts)) begin
        props_offered[x / NumPorts] = 1'b1;
        if (!in_spec[x % NumPorts]) props_offered_ns[x / NumPorts] = 1'b1;
        if (in_level[(x % NumPorts)*LevelW +: LevelW] > props_top_offer[(x / NumPorts)*LevelW +: LevelW]) begin
          props_top_offer[(x / NumPorts)*LevelW +: LevelW] = in_level[(x % NumPorts)*LevelW +: LevelW];
        end
      end
      props_wins[(x % NumPorts)*PropsFairW +: PropsFairW] = props_wins[(x % NumPorts)*PropsFairW +: PropsFairW] +
                                                            PropsFairW'(out_grant[x]);
    end
  end

  // Per input port: sa_offer, sa_exclusive (the input's side), sa_requested (the input's side).
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        `TORX_ASSERT(in_valid[p] == props_any_ready[p], ("sa_offer: input port %0d offers %0d with ready lanes %0d", p,
                                                         in_valid[p], props_any_ready[p]))
        if (Levels > 1 && in_valid[p]) begin
          `TORX_ASSERT(in_level[p*LevelW +: LevelW] == props_top_ready[p*LevelW +: LevelW] &&
                       LevelW'(32'(in_lane_o[p*LaneIdxW +: LaneIdxW]) % Levels) == props_top_ready[p*LevelW +: LevelW],
                       ("sa_offer: input port %0d offers lane %0d (level %0d), its highest ready level is %0d", p,
                        in_lane_o[p*LaneIdxW +: LaneIdxW], in_level[p*LevelW +: LevelW], props_top_ready[p*LevelW +: LevelW]))
        end
        `TORX_ASSERT(32'(props_wins[p*PropsFairW +: PropsFairW]) <= 1,
                     ("sa_exclusive: input port %0d wins at %0d outputs", p, props_wins[p*PropsFairW +: PropsFairW]))
        if (in_win_o[p]) begin
          `TORX_ASSERT(32'(in_lane_o[p*LaneIdxW +: LaneIdxW]) < props_lanes(p) &&
                       (req_i[props_in_lane(p)] ||
                        (Pipeline == torx_pkg::PipeLookahead && spec_i[props_in_lane(p)] && spec_ok_i[props_in_lane(p)])),
                       ("sa_requested: input port %0d wins with lane %0d, which is not ready", p, in_lane_o[p*LaneIdxW +: LaneIdxW]))
        end
      end
    end
  end

  // Per output o: sa_grant, sa_requested (the output's side).
  // The lane the input port granted at o names (router-wide).
  function automatic int unsigned props_granted_lane(int unsigned o);
    int unsigned p;
    p = 32'(out_port_o[o*PortW +: PortW]);
    props_granted_lane = ((p < NumNetPorts) ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels +
                         32'(in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]);
  endfunction
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        `TORX_ASSERT(out_valid_o[o] ? props_offered[o] : !props_offered_ns[o],
                     ("sa_grant: output %0d sends %0d with offers %0d (non-speculative %0d)", o, out_valid_o[o],
                      props_offered[o], props_offered_ns[o]))
        if (Levels > 1 && out_valid_o[o]) begin
          `TORX_ASSERT(in_level[out_port_o[o*PortW +: PortW]*LevelW +: LevelW] == props_top_offer[o*LevelW +: LevelW],
                       ("sa_grant: output %0d grants an offer of level %0d, the highest offered is %0d", o,
                        in_level[out_port_o[o*PortW +: PortW]*LevelW +: LevelW], props_top_offer[o*LevelW +: LevelW]))
        end
        if (out_valid_o[o]) begin
          // From the ports' outputs and the request wires, not the allocator's internal offer: the lane
          // the granted input port names is ready and asked for this output.
          `TORX_ASSERT((req_i[props_granted_lane(o)] ||
                        (Pipeline == torx_pkg::PipeLookahead && spec_i[props_granted_lane(o)] &&
                         spec_ok_i[props_granted_lane(o)])) &&
                       req_port_i[props_granted_lane(o)*PortW +: PortW] == PortW'(o),
                       ("sa_requested: output %0d grants input port %0d, whose lane %0d is not ready for it", o,
                        out_port_o[o*PortW +: PortW], in_lane_o[out_port_o[o*PortW +: PortW]*LaneIdxW +: LaneIdxW]))
        end
      end
    end
  end

  // sa_fair, per (output o, input p), x = o*NumPorts + p: grants of o to other input ports while p
  // competes for o: p offers for o, not a speculative offer beside a non-speculative one, at the
  // highest level offered to o (no offer for o of a higher level).
  logic [NumPorts*NumPorts*PropsFairW-1:0] props_passed_q, props_passed_d;
  function automatic logic props_competing(int unsigned x);
    props_competing = in_valid[x % NumPorts] && 32'(in_port[(x % NumPorts)*PortW +: PortW]) == x / NumPorts &&
                      !(in_spec[x % NumPorts] && props_offered_ns[x / NumPorts]) &&
                      in_level[(x % NumPorts)*LevelW +: LevelW] == props_top_offer[(x / NumPorts)*LevelW +: LevelW];
  endfunction
  always_comb begin
    props_passed_d = props_passed_q;
    for (int unsigned x = 0; x < NumPorts * NumPorts; x++) begin
      if (!props_competing(x) || out_grant[x]) begin
        props_passed_d[x*PropsFairW +: PropsFairW] = '0;
      end else if (out_valid_o[x / NumPorts] && 32'(props_passed_q[x*PropsFairW +: PropsFairW]) < NumPorts) begin
        props_passed_d[x*PropsFairW +: PropsFairW] = props_passed_q[x*PropsFairW +: PropsFairW] + PropsFairW'(1);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_passed_q <= '0;
    else props_passed_q <= props_passed_d;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned x = 0; x < NumPorts * NumPorts; x++) begin
        `TORX_ASSERT(32'(props_passed_q[x*PropsFairW +: PropsFairW]) < NumPorts,
                     ("sa_fair: input port %0d waited for output %0d through %0d grants to others", x % NumPorts,
                      x / NumPorts, props_passed_q[x*PropsFairW +: PropsFairW]))
      end
    end
  end

  `include "props/torx_sw_alloc_spec_props.svh"
/* verilator tracing_on */
`endif  // TORX_PROPS
