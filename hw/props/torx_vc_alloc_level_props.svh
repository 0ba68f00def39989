// SPDX-License-Identifier: Apache-2.0
// torx_vc_alloc_level_props: the VC allocator's progress and priority properties (docs/verification.md,
// "Properties"), included by torx_vc_alloc_props.svh. The properties there say what a grant may be
// (requested, exclusive, fair among the competing lanes); these say when a grant must happen and which
// level wins it, per (output port o, class c), from the unit's ports only:
//   va_progress       a requester and a free VC of the class: some requester is granted a VC of it;
//   va_top_level      a grant goes to a lane of the highest level among the requesters (K > 1);
//   va_preempt        (K > 1) a requester, no free VC of the class, and a VC owned by a lower level
//                     than the highest requesting one with room on its stack: the VC is taken from its
//                     owner (a grant with ovc_preempt_o), and from an owner of the lowest level among
//                     such VCs (docs/priority.md, "Output channels");
//   va_preempt_legal  (K > 1) a preemption takes only an owned VC, with room on its stack, from an
//                     owner of a lower level than the lane taking it;
//   va_vc_next        after a grant of VC k of (o, c) the VC pointer is k + 1, wrapping at the class's
//                     VC count (the next claim starts its search past the VC just granted);
//   va_ptr            every lane pointer names a lane, every VC pointer a VC of the class (an
//                     out-of-range pointer arbitrates as 0 would, but the contract's register, which
//                     the co-simulation compares, wraps to 0).
// Mutation testing found these missing (docs/verification.md, "Mutation testing"): a VC allocator that
// never preempted, or let every level compete, broke no property before.
`ifdef TORX_PROPS
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned oc = 0; oc < NumOutClasses; oc++) begin
        `TORX_ASSERT(32'(va_rr_q[oc*IvcW +: IvcW]) < TotalLanes && 32'(va_vc_rr_q[oc*VprW +: VprW]) < VcsPerClass,
                     ("va_ptr: (port, class) %0d's pointers are %0d and %0d", oc, va_rr_q[oc*IvcW +: IvcW],
                      va_vc_rr_q[oc*VprW +: VprW]))
      end
    end
  end

  for (genvar o = 0; o < NumNetPorts + NumLocal; o++) begin : gen_props_lvl_port
    localparam bit PNet = (o < NumNetPorts);
    localparam int unsigned PClasses = PNet ? NumClasses : 1;
    localparam int unsigned PVcs = PNet ? VcsPerClass : 1;
    for (genvar c = 0; c < PClasses; c++) begin : gen_props_lvl_class
      localparam int unsigned PFirst = (PNet ? o * NetVcs : NumNetPorts * NetVcs + (o - NumNetPorts)) + c * PVcs;
      // The requesters of (o, c) (props_any, props_granted, props_top: torx_vc_alloc_props.svh, one loop
      // over the lanes for every (o, c), not one per (o, c)).
      localparam int unsigned POc = (PNet ? o * NumClasses : NumNetPorts * NumClasses + (o - NumNetPorts)) + c;
      logic [31:0] top, low;   // the highest requesting level; the lowest level owning a victim VC
      logic any, granted, free_any, victim_any, preempted, low_taken, legal, lanes_own;
      assign any = props_any[POc];
      assign granted = props_granted[POc];
      assign top = 32'(props_top[POc*LevelW +: LevelW]);
      always_comb begin
        free_any = 1'b0;
        victim_any = 1'b0;
        // The output units store a lane index or Free: an owner that is neither (possible on the
        // unit's free inputs when the lane count is not a power of two) has no level.
        lanes_own = 1'b1;
        for (int unsigned k = 0; k < PVcs; k++) begin
          if (!ovc_free_i[PFirst + k] && 32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) >= TotalLanes) lanes_own = 1'b0;
        end
        low = Levels;
        for (int unsigned k = 0; k < PVcs; k++) begin
          if (ovc_free_i[PFirst + k]) free_any = 1'b1;
          else if (ovc_stack_ok_i[PFirst + k] && 32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) % Levels < top) begin
            victim_any = 1'b1;
            if (32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) % Levels < low) low = 32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) % Levels;
          end
        end
        // The VC claimed for (o, c) and its owner's level (a class claims at most one VC: va_exclusive).
        preempted = 1'b0;
        low_taken = 1'b0;
        for (int unsigned k = 0; k < PVcs; k++) begin
          if (ovc_grant_o[PFirst + k] && ovc_preempt_o[PFirst + k]) begin
            preempted = 1'b1;
            if (32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) % Levels == low) low_taken = 1'b1;
          end
        end
        // Every preemption of a VC of (o, c) is legal.
        legal = 1'b1;
        for (int unsigned k = 0; k < PVcs; k++) begin
          if (ovc_grant_o[PFirst + k] && ovc_preempt_o[PFirst + k]) begin
            if (ovc_free_i[PFirst + k] || !ovc_stack_ok_i[PFirst + k] ||
                32'(ovc_owner_i[(PFirst + k)*IvcW +: IvcW]) % Levels >= 32'(ovc_grant_ivc_o[(PFirst + k)*IvcW +: IvcW]) % Levels) begin
              legal = 1'b0;
            end
          end
        end
      end
      // va_vc_next: the VC claimed for (o, c) in the previous cycle, and the pointer now.
      logic claimed, claimed_p_q;
      logic [31:0] claimed_k, claimed_k_p_q;
      always_comb begin
        claimed = 1'b0;
        claimed_k = '0;
        for (int unsigned k = 0; k < PVcs; k++) begin
          if (ovc_grant_o[PFirst + k]) begin
            claimed = 1'b1;
            claimed_k = k;
          end
        end
      end
      always_ff @(posedge clk_i) begin
        claimed_p_q <= claimed;
        claimed_k_p_q <= claimed_k;
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q && claimed_p_q) begin
          `TORX_ASSERT(32'(va_vc_rr_q[POc*VprW +: VprW]) == ((claimed_k_p_q + 1 == PVcs) ? 0 : claimed_k_p_q + 1),
                       ("va_vc_next: port %0d class %0d granted VC %0d, its VC pointer is %0d", o, c, claimed_k_p_q,
                        va_vc_rr_q[POc*VprW +: VprW]))
        end
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q) begin
          if (any && free_any) begin
            `TORX_ASSERT(granted, ("va_progress: port %0d class %0d has a free VC and a requester, and no grant", o, c))
          end
          if (Levels > 1 && lanes_own) begin
            if (any && !free_any && victim_any) begin
              `TORX_ASSERT(granted && preempted && low_taken,
                           ("va_preempt: port %0d class %0d: a level %0d requester, a VC owned by level %0d with stack room, no preemption of it",
                            o, c, top, low))
            end
            `TORX_ASSERT(legal, ("va_preempt_legal: port %0d class %0d: a VC taken from an owner of no lower level, or without stack room", o, c))
          end
        end
      end
    end
  end
  // va_top_level, per lane: a granted requester of (o, c) is of the highest level among its requesters.
  always_ff @(posedge clk_i) begin
    if (rst_ni && props_up_q) begin
      for (int unsigned i = 0; i < TotalLanes; i++) begin
        if (props_ok[i] && grant_o[i]) begin
          `TORX_ASSERT(i % Levels == 32'(props_top[32'(props_oc[i*PropsOcW +: PropsOcW])*LevelW +: LevelW]),
                       ("va_top_level: lane %0d of level %0d granted port %0d class %0d, a level %0d lane requests",
                        i, i % Levels, req_port_i[i*PortW +: PortW],
                        (32'(req_port_i[i*PortW +: PortW]) < NumNetPorts) ? req_class_i[i*ClassW +: ClassW] : '0,
                        props_top[32'(props_oc[i*PropsOcW +: PropsOcW])*LevelW +: LevelW]))
        end
      end
    end
  end
`endif  // TORX_PROPS
