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

  for (genvar o = 0; o < NumNetPorts + NumLocal; o++) begin : gen_props_port
    localparam int unsigned PClasses = (o < NumNetPorts) ? NumClasses : 1;
    for (genvar c = 0; c < PClasses; c++) begin : gen_props_class
      localparam int unsigned Oc = ((o < NumNetPorts) ? o * NumClasses : NumNetPorts * NumClasses + (o - NumNetPorts)) + c;
      // The lanes competing for (o, c): requesters of the highest level among its requesters.
      logic [TotalLanes-1:0] req, competing;
      always_comb begin
        for (int unsigned i = 0; i < TotalLanes; i++) begin
          req[i] = req_i[i] && req_port_i[i*PortW +: PortW] == PortW'(o) &&
                   (o >= NumNetPorts || req_class_i[i*ClassW +: ClassW] == ClassW'(c));
        end
        competing = req;
        for (int unsigned i = 0; i < TotalLanes; i++) begin
          for (int unsigned k = 0; k < TotalLanes; k++) begin
            if (req[k] && (k % Levels) > (i % Levels)) competing[i] = 1'b0;
          end
        end
      end
      for (genvar i = 0; i < TotalLanes; i++) begin : gen_props_fair
        logic [PropsFairW-1:0] passed_q;   // grants of (o, c) to others while lane i competes
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) passed_q <= '0;
          else if (!competing[i] || (oc_grant[Oc] && oc_winner[Oc*IvcW +: IvcW] == IvcW'(i))) passed_q <= '0;
          else if (oc_grant[Oc] && 32'(passed_q) < TotalLanes) passed_q <= passed_q + PropsFairW'(1);
        end
        always_ff @(posedge clk_i) begin
          if (rst_ni && props_up_q) begin
            `TORX_ASSERT(32'(passed_q) < TotalLanes,
                         ("va_fair: lane %0d waited for port %0d class %0d through %0d grants to others", i, o, c, passed_q))
          end
        end
      end
    end
  end

  `include "props/torx_vc_alloc_level_props.svh"
`endif  // TORX_PROPS
