// SPDX-License-Identifier: Apache-2.0
// torx_vc_alloc_props: the properties of the VC allocator (docs/verification.md, "Properties"),
// included at the end of torx_vc_alloc:
//   va_reset      after reset both pointers of every (output port, class) are 0;
//   va_requested  a lane is granted only what it asked for: a VC of its output port and class;
//   va_exclusive  an output VC is claimed by one lane at most, each granted lane claims exactly the VC
//                 it is told (the claim and the grant agree), and only a free VC, or, with priority
//                 levels, one taken from a lower level (preemption);
//   va_fair       round robin: while lane i keeps competing for (o, c) at the highest requesting
//                 level, at most TotalLanes - 1 grants of (o, c) go to other lanes before i's (each
//                 other lane at most once).
// and, in torx_vc_alloc_level_props.svh, va_progress, va_top_level, va_preempt, va_preempt_legal.
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

  localparam int unsigned PropsFairW = $clog2(TotalLanes + 1);
  localparam int unsigned PropsOcW = torx_pkg::clog2w(NumOutClasses);

  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(va_rr_q == '0 && va_vc_rr_q == '0, ("va_reset: pointers not 0 after reset"))
    end
  end

  // The per-lane and per-(o, c) checks are loops over the lanes, not generate blocks: Verilator
  // writes a generate block's code once per copy (168 lanes on the all-port 3D router with K = 4),
  // and keeps a loop of more than 64 iterations a loop (one copy of its body, indices computed at run
  // time); yosys unrolls every loop, so a proof sees the same logic either way. The per-lane values
  // several checks need are computed once, in props_lane below (docs/rtl.md, "Build time").

  // Lane i asks for an (o, c) that exists (a port of the router, a class of a network port) ...
  function automatic logic props_req(int unsigned i);
    logic [31:0] o;
    o = 32'(req_port_i[i*PortW +: PortW]);
    props_req = req_i[i] && o < NumNetPorts + NumLocal && (o >= NumNetPorts || 32'(req_class_i[i*ClassW +: ClassW]) < NumClasses);
  endfunction
  // ... this one: a network port's class c, an ejection port's one class.
  function automatic logic [PropsOcW-1:0] props_oc_of(int unsigned i);
    logic [31:0] o;
    o = 32'(req_port_i[i*PortW +: PortW]);
    props_oc_of = PropsOcW'((o < NumNetPorts) ? o * NumClasses + 32'(req_class_i[i*ClassW +: ClassW])
                                             : NumNetPorts * NumClasses + (o - NumNetPorts));
  endfunction
  // The output VC lane i is granted (router-wide): its port's first VC and the granted VC's index.
  function automatic logic [31:0] props_vc_of(int unsigned i);
    logic [31:0] o;
    o = 32'(req_port_i[i*PortW +: PortW]);
    props_vc_of = ((o < NumNetPorts) ? o * NetVcs : NumNetPorts * NetVcs + (o - NumNetPorts)) +
                  32'(grant_vc_o[i*VcIdxW +: VcIdxW]);
  endfunction

  // Per lane: it requests an (o, c) that exists (props_ok), which one (props_oc); per (o, c): a
  // lane requests it (props_any), one of them is granted (props_granted), and the highest level among
  // its requesters (props_top, K > 1; 0 with one level).
  logic [TotalLanes-1:0] props_ok;
  logic [TotalLanes*PropsOcW-1:0] props_oc;
  logic [NumOutClasses-1:0] props_any, props_granted;
  logic [NumOutClasses*LevelW-1:0] props_top;
  always_comb begin : props_lane
    props_ok = '0;
    props_oc = '0;
    props_any = '0;
    props_granted = '0;
    props_top = '0;
    for (int unsigned i = 0; i < TotalLanes; i++) begin
      props_ok[i] = props_req(i);
      props_oc[i*PropsOcW +: PropsOcW] = props_oc_of(i);
      if (props_req(i)) begin
        props_any[32'(props_oc_of(i))] = 1'b1;
        if (grant_o[i]) props_granted[32'(props_oc_of(i))] = 1'b1;
        /* verilator lint_off UNSIGNED */   // constant with one level (the branch is dead then)
        if (Levels > 1 && LevelW'(i % Levels) > props_top[32'(props_oc_of(i))*LevelW +: LevelW]) begin
          props_top[32'(props_oc_of(i))*LevelW +: LevelW] = LevelW'(i % Levels);
        end
        /* verilator lint_on UNSIGNED */
      end
    end
  end

  // va_requested, va_exclusive (the lane's side), per lane.
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned i = 0; i < TotalLanes; i++) begin
        if (grant_o[i]) begin
          `TORX_ASSERT(req_i[i], ("va_requested: lane %0d granted without a request", i))
          if (32'(req_port_i[i*PortW +: PortW]) < NumNetPorts) begin
            `TORX_ASSERT(32'(grant_vc_o[i*VcIdxW +: VcIdxW]) / VcsPerClass == 32'(req_class_i[i*ClassW +: ClassW]),
                         ("va_requested: lane %0d asked for class %0d, granted VC %0d", i,
                          req_class_i[i*ClassW +: ClassW], grant_vc_o[i*VcIdxW +: VcIdxW]))
          end else begin
            `TORX_ASSERT(grant_vc_o[i*VcIdxW +: VcIdxW] == '0, ("va_requested: lane %0d granted VC %0d of an ejection port", i,
                                                                grant_vc_o[i*VcIdxW +: VcIdxW]))
          end
          `TORX_ASSERT(props_vc_of(i) < TotalVcs && ovc_grant_o[props_vc_of(i)] &&
                       ovc_grant_ivc_o[props_vc_of(i)*IvcW +: IvcW] == IvcW'(i),
                       ("va_exclusive: lane %0d granted output VC %0d, which is claimed by lane %0d", i, props_vc_of(i),
                        ovc_grant_ivc_o[props_vc_of(i)*IvcW +: IvcW]))
        end
      end
    end
  end

  // va_exclusive (the output VC's side), per output VC.
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned j = 0; j < TotalVcs; j++) begin
        if (ovc_grant_o[j]) begin
          `TORX_ASSERT(grant_o[ovc_grant_ivc_o[j*IvcW +: IvcW]],
                       ("va_exclusive: output VC %0d claimed for lane %0d, which is not granted", j, ovc_grant_ivc_o[j*IvcW +: IvcW]))
          `TORX_ASSERT(ovc_free_i[j] || (Levels > 1 && ovc_preempt_o[j]),
                       ("va_exclusive: output VC %0d claimed while owned", j))
        end
      end
    end
  end

  // va_fair, one counter per lane, not one per (o, c) and lane (NumOutClasses x TotalLanes counters,
  // 3,276 on the all-port 3D router with V = 2: most of its generated C++; docs/rtl.md, "Build time").
  // A lane asks for one (o, c) at a time, so its counters of the other (o, c) are 0: the lane's one
  // counter counts the grants of the (o, c) it competes for, and restarts when that (o, c) is not
  // last cycle's (props_oc_q), as that (o, c)'s own counter would have been 0. Lane i competes when
  // it requests at the highest level among the requesters of its (o, c); it is granted when its
  // (o, c) is; it wins when it is the winner.
  logic [TotalLanes*PropsFairW-1:0] props_passed_q, props_passed_d;   // per lane: grants to others
  logic [TotalLanes*PropsOcW-1:0] props_oc_q;                         // per lane: last cycle's (o, c)
  function automatic logic props_competing(int unsigned i);
    props_competing = props_ok[i] && (Levels == 1 ||
                      LevelW'(i % Levels) == props_top[32'(props_oc[i*PropsOcW +: PropsOcW])*LevelW +: LevelW]);
  endfunction
  function automatic logic [PropsFairW-1:0] props_passed(int unsigned i);
    props_passed = (props_oc_q[i*PropsOcW +: PropsOcW] == props_oc[i*PropsOcW +: PropsOcW]) ?
                   props_passed_q[i*PropsFairW +: PropsFairW] : '0;
  endfunction
  always_comb begin
    props_passed_d = '0;
    for (int unsigned i = 0; i < TotalLanes; i++) begin
      if (props_competing(i) && oc_grant[props_oc[i*PropsOcW +: PropsOcW]] &&
          oc_winner[32'(props_oc[i*PropsOcW +: PropsOcW])*IvcW +: IvcW] == IvcW'(i)) begin
        props_passed_d[i*PropsFairW +: PropsFairW] = '0;   // won
      end else if (!props_competing(i)) begin
        props_passed_d[i*PropsFairW +: PropsFairW] = '0;
      end else if (oc_grant[props_oc[i*PropsOcW +: PropsOcW]] && 32'(props_passed(i)) < TotalLanes) begin
        props_passed_d[i*PropsFairW +: PropsFairW] = props_passed(i) + PropsFairW'(1);
      end else begin
        props_passed_d[i*PropsFairW +: PropsFairW] = props_passed(i);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      props_passed_q <= '0;
      props_oc_q <= '0;
    end else begin
      props_passed_q <= props_passed_d;
      props_oc_q <= props_oc;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned i = 0; i < TotalLanes; i++) begin
        `TORX_ASSERT(32'(props_passed_q[i*PropsFairW +: PropsFairW]) < TotalLanes,
                     ("va_fair: lane %0d waited for (port, class) %0d through %0d grants to others", i,
                      props_oc_q[i*PropsOcW +: PropsOcW], props_passed_q[i*PropsFairW +: PropsFairW]))
      end
    end
  end

  `include "props/torx_vc_alloc_level_props.svh"
/* verilator tracing_on */
`endif  // TORX_PROPS
