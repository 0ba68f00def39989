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

  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(va_rr_q == '0 && va_vc_rr_q == '0, ("va_reset: pointers not 0 after reset"))
    end
  end

  for (genvar i = 0; i < TotalLanes; i++) begin : gen_props_lane
    logic [PortW-1:0] port;
    logic [31:0] first;   // the port's first output VC (router-wide)
    logic [31:0] vc;      // the granted VC, router-wide
    assign port = req_port_i[i*PortW +: PortW];
    assign first = (32'(port) < NumNetPorts) ? 32'(port) * NetVcs : NumNetPorts * NetVcs + (32'(port) - NumNetPorts);
    assign vc = first + 32'(grant_vc_o[i*VcIdxW +: VcIdxW]);
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q && grant_o[i]) begin
        `TORX_ASSERT(req_i[i], ("va_requested: lane %0d granted without a request", i))
        if (32'(port) < NumNetPorts) begin
          `TORX_ASSERT(32'(grant_vc_o[i*VcIdxW +: VcIdxW]) / VcsPerClass == 32'(req_class_i[i*ClassW +: ClassW]),
                       ("va_requested: lane %0d asked for class %0d, granted VC %0d", i,
                        req_class_i[i*ClassW +: ClassW], grant_vc_o[i*VcIdxW +: VcIdxW]))
        end else begin
          `TORX_ASSERT(grant_vc_o[i*VcIdxW +: VcIdxW] == '0, ("va_requested: lane %0d granted VC %0d of an ejection port", i,
                                                              grant_vc_o[i*VcIdxW +: VcIdxW]))
        end
        `TORX_ASSERT(vc < TotalVcs && ovc_grant_o[vc] && ovc_grant_ivc_o[vc*IvcW +: IvcW] == IvcW'(i),
                     ("va_exclusive: lane %0d granted output VC %0d, which is claimed by lane %0d", i, vc,
                      ovc_grant_ivc_o[vc*IvcW +: IvcW]))
      end
    end
  end

  for (genvar j = 0; j < TotalVcs; j++) begin : gen_props_ovc
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q && ovc_grant_o[j]) begin
        `TORX_ASSERT(grant_o[ovc_grant_ivc_o[j*IvcW +: IvcW]],
                     ("va_exclusive: output VC %0d claimed for lane %0d, which is not granted", j, ovc_grant_ivc_o[j*IvcW +: IvcW]))
        `TORX_ASSERT(ovc_free_i[j] || (Levels > 1 && ovc_preempt_o[j]),
                     ("va_exclusive: output VC %0d claimed while owned", j))
      end
    end
  end

  // va_fair, one counter per lane, not one per (o, c) and lane (NumOutClasses x TotalLanes counters,
  // 3,276 on the all-port 3D router with V = 2: most of its generated C++; docs/rtl.md, "Build time").
  // A lane asks for one (o, c) at a time, so its counters of the other (o, c) are 0: the lane's one
  // counter counts the grants of the (o, c) it competes for, and restarts when that (o, c) is not
  // last cycle's (props_oc_q), as that (o, c)'s own counter would have been 0.
  localparam int unsigned PropsOcW = torx_pkg::clog2w(NumOutClasses);
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
  // The highest level among the requesters of each (o, c) (K > 1).
  logic [NumOutClasses*LevelW-1:0] props_top;
  always_comb begin
    props_top = '0;
    if (Levels > 1) begin
      for (int unsigned i = 0; i < TotalLanes; i++) begin
        /* verilator lint_off UNSIGNED */   // constant with one level (the branch is dead then)
        if (props_req(i) && LevelW'(i % Levels) > props_top[32'(props_oc_of(i))*LevelW +: LevelW]) begin
          props_top[32'(props_oc_of(i))*LevelW +: LevelW] = LevelW'(i % Levels);
        end
        /* verilator lint_on UNSIGNED */
      end
    end
  end

  for (genvar i = 0; i < TotalLanes; i++) begin : gen_props_fair
    logic [PropsOcW-1:0] oc, oc_q;
    logic competing, granted, won;
    logic [PropsFairW-1:0] passed, passed_q;   // grants of (o, c) to others while lane i competes for it
    assign oc = props_oc_of(i);
    // Competing: a request of the highest level among the requesters of its (o, c).
    assign competing = props_req(i) && (Levels == 1 || LevelW'(i % Levels) == props_top[32'(oc)*LevelW +: LevelW]);
    assign granted = competing && oc_grant[oc];
    assign won = granted && oc_winner[32'(oc)*IvcW +: IvcW] == IvcW'(i);
    assign passed = (oc_q == oc) ? passed_q : '0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        passed_q <= '0;
        oc_q <= '0;
      end else begin
        oc_q <= oc;
        if (!competing || won) passed_q <= '0;
        else if (granted && 32'(passed) < TotalLanes) passed_q <= passed + PropsFairW'(1);
        else passed_q <= passed;
      end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(32'(passed_q) < TotalLanes,
                     ("va_fair: lane %0d waited for (port, class) %0d through %0d grants to others", i, oc_q, passed_q))
      end
    end
  end

  `include "props/torx_vc_alloc_level_props.svh"
/* verilator tracing_on */
`endif  // TORX_PROPS
