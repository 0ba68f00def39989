// SPDX-License-Identifier: Apache-2.0
// torx_output_unit_props: the properties of one output port (docs/verification.md, "Properties"),
// included at the end of torx_output_unit. Per output VC v:
//   ou_credit_bound  the credit counter never exceeds D (the downstream buffer);
//   ou_no_credit     no flit is sent on a VC without a credit (the counter, or one arriving in t);
//   ou_credit_ok     the switch allocator is told a VC has a credit for level q exactly when the
//                    counter plus a credit arriving in t is above the throttle's reserve for q
//                    ((K-1-q) r; 0 with one level);
//   ou_reset         after reset: D credits, no owner, no flit on the link (and an empty stack);
//   ou_grant_free    a claim takes a free VC, or preempts (priority levels);
//   ou_owner_held    an owner keeps the VC until its tail leaves (or it is preempted);
//   ou_flit_owner    a flit on the VC comes from its owner (or from the lane claiming it in t);
//   ou_claim         a claim in t makes the claimant the owner from t+1 (unless its own tail left in
//                    t: a one-flit worm); with one level a tail and no other claim free the VC;
//   ou_worm_order    the flits leaving on the VC are whole worms in order: a body flit continues the
//                    worm in progress (its message, the next index), a head starts one only after
//                    the tail of the previous one; with priority levels per owner, interleaving
//                    only at preemption;
//   ou_link_vc       the flit on the link carries the VC it was sent on;
//   ou_stack_owner   (K > 1) a VC with owners waiting on its stack is never free;
//   ou_stack_ok      (K > 1) the allocator is told a VC's stack has room exactly when depth + 1 < K;
//   ou_preempt_push  (K > 1) a preemption pushes the owner on top of the stack, one deeper;
//   ou_resume        (K > 1) the tail of the owner on top of a stack gives the VC back to the owner
//                    it preempted (the preempted worm resumes where it stopped).
// and, in torx_output_unit_st_props.svh, ou_st_off and ou_st_reg (the traversal register).
// The credit conservation across the link (credits + flits in flight + downstream occupancy = D)
// needs the downstream buffer: hw/formal/torx_output_unit_fv.sv proves it with a modelled one.
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

  localparam int unsigned PropsTagMsg = FlitW - torx_pkg::TagW;   // the tag {seq, msg}: the flit's top bits (SimTag = 1)
  localparam int unsigned PropsTagSeq = FlitW - torx_pkg::TagW + 32;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_props_vc
    logic [CreditW-1:0] credits;
    logic [IvcW-1:0] owner;
    logic spend, credit_in;
    assign credits = ovc_credits_q[v*CreditW +: CreditW];
    assign owner = ovc_owner_q[v*IvcW +: IvcW];
    assign spend = xb_valid_i && (VcW'(xb_vc_i) == VcW'(v));
    assign credit_in = credit_valid_i && (VcW'(credit_vc_i) == VcW'(v));

    // The previous cycle's values, in registers of their own (torx_props_defs.svh, "Sampling").
    logic [IvcW-1:0] owner_p_q, claim_p_q;
    logic tail_out_p_q, va_grant_p_q, own_tail_p_q;
    always_ff @(posedge clk_i) begin
      owner_p_q <= owner;
      claim_p_q <= va_grant_ivc_i[v*IvcW +: IvcW];
      tail_out_p_q <= tail_out[v];
      va_grant_p_q <= va_grant_i[v];
      own_tail_p_q <= tail_out[v] && xb_ivc_i == va_grant_ivc_i[v*IvcW +: IvcW];   // the claimant's own tail
    end

    always_ff @(posedge clk_i) begin
      if (rst_ni && !props_up_q) begin
        `TORX_ASSERT(32'(credits) == BufferDepth && owner == Free,
                     ("ou_reset: VC %0d leaves reset with %0d credits, owner %0d", v, credits, owner))
      end
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(32'(credits) <= BufferDepth, ("ou_credit_bound: VC %0d has %0d credits, D = %0d", v, credits, BufferDepth))
        if (spend) begin
          `TORX_ASSERT(credits != '0 || credit_in, ("ou_no_credit: a flit sent on VC %0d without a credit", v))
          `TORX_ASSERT(xb_ivc_i == owner || (va_grant_i[v] && va_grant_ivc_i[v*IvcW +: IvcW] == xb_ivc_i),
                       ("ou_flit_owner: a flit of lane %0d on VC %0d, owned by lane %0d", xb_ivc_i, v, owner))
        end
        if (va_grant_i[v]) begin
          `TORX_ASSERT(owner == Free || (Levels > 1 && va_preempt_i[v]),
                       ("ou_grant_free: VC %0d claimed by lane %0d while lane %0d owns it", v,
                        va_grant_ivc_i[v*IvcW +: IvcW], owner))
        end
        if (owner_p_q != Free && !tail_out_p_q && !va_grant_p_q) begin
          `TORX_ASSERT(owner == owner_p_q,
                       ("ou_owner_held: VC %0d passed from lane %0d to %0d before its tail", v, owner_p_q, owner))
        end
        // ou_claim: a claim takes effect (the claimant owns the VC from t+1), unless the claimant's tail
        // left in the same cycle (a one-flit worm: the VC stays free, or its stacked owner resumes);
        // with one level, a tail and no claim free the VC.
        if (va_grant_p_q && !own_tail_p_q) begin
          `TORX_ASSERT(owner == claim_p_q, ("ou_claim: VC %0d claimed by lane %0d in t-1, owned by lane %0d", v,
                                            claim_p_q, owner))
        end
        if (Levels == 1 && tail_out_p_q && (!va_grant_p_q || own_tail_p_q)) begin
          `TORX_ASSERT(owner == Free, ("ou_claim: VC %0d still owned by lane %0d after its tail left", v, owner))
        end
      end
    end

    for (genvar q = 0; q < Levels; q++) begin : gen_props_level
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q) begin
          `TORX_ASSERT(credit_ok_o[v*Levels + q] == (32'(credits) + 32'(credit_in) > (Levels - 1 - q) * PriorityReserve),
                       ("ou_credit_ok: VC %0d level %0d with %0d credits (+%0d arriving) told %0d", v, q, credits,
                        credit_in, credit_ok_o[v*Levels + q]))
        end
      end
    end

    // Worm order per VC (one level: a VC carries one worm at a time; with levels a preemption may
    // interleave worms, which ou_resume covers).
    if (Levels == 1) begin : gen_props_order
      logic in_worm_q;            // a worm is in progress on the VC ...
      logic [31:0] msg_q, seq_q;  // ... this message, its last flit index
      logic [31:0] msg, seq;
      assign msg = xb_flit_i[PropsTagMsg +: 32];
      assign seq = xb_flit_i[PropsTagSeq +: 32];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          in_worm_q <= 1'b0;
          msg_q <= '0;
          seq_q <= '0;
        end else if (spend) begin
          in_worm_q <= !xb_tail;
          msg_q <= msg;
          seq_q <= seq;
        end
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && props_up_q && spend) begin
          if (xb_flit_i[VcFieldW]) begin
            `TORX_ASSERT(!in_worm_q, ("ou_worm_order: a head on VC %0d before the tail of message %0d", v,
                                              msg_q))
          end else begin
            `TORX_ASSERT(in_worm_q && msg == msg_q && seq == seq_q + 1,
                         ("ou_worm_order: on VC %0d flit %0d of message %0d follows flit %0d of message %0d", v,
                          seq, msg, seq_q, msg_q))
          end
        end
      end
    end
  end

  // The link register carries the flit sent in the previous cycle, on its VC (pipelined
  // organizations: the cycle before, through the switch-traversal register).
  logic xb_valid_p_q;
  logic [VcIdxW-1:0] xb_vc_p_q;
  if (Pipeline == torx_pkg::PipeSingle) begin : gen_props_link_single
    always_ff @(posedge clk_i) begin
      xb_valid_p_q <= xb_valid_i;
      xb_vc_p_q <= xb_vc_i;
    end
  end else begin : gen_props_link_st
    logic xb_valid_pp_q;
    logic [VcIdxW-1:0] xb_vc_pp_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        xb_valid_pp_q <= 1'b0;
        xb_valid_p_q <= 1'b0;
      end else begin
        xb_valid_pp_q <= xb_valid_i;
        xb_valid_p_q <= xb_valid_pp_q;
      end
    end
    always_ff @(posedge clk_i) begin
      xb_vc_pp_q <= xb_vc_i;
      xb_vc_p_q <= xb_vc_pp_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(!flit_valid_o, ("ou_reset: a flit on the link after reset"))
    end
    if (rst_ni && props_up_q) begin
      `TORX_ASSERT(flit_valid_o == xb_valid_p_q, ("ou_link_vc: the link's valid is not the last cycle's traversal"))
      if (flit_valid_o) begin
        `TORX_ASSERT(flit_o[VcFieldW-1:0] == VcFieldW'(xb_vc_p_q),
                     ("ou_link_vc: a flit sent on VC %0d carries VC %0d", xb_vc_p_q, flit_o[VcFieldW-1:0]))
      end
    end
  end

`ifdef TORX_FV_LINK
  // The downstream end of the link, for the unit proof only (testbenches/formal/torx_output_unit_fv.sv):
  // per VC the flits that crossed the link and were not credited yet; a credit comes only for one.
  for (genvar v = 0; v < NumVcs; v++) begin : gen_props_link
    logic [CreditW-1:0] owed_q;
    logic arrive, credit_in;
    assign arrive = flit_valid_o && flit_o[VcW-1:0] == VcW'(v);
    assign credit_in = credit_valid_i && VcW'(credit_vc_i) == VcW'(v);
    logic held;   // Pipeline 1, 2: the flit in the traversal register, sent, not yet on the link
    if (Pipeline == torx_pkg::PipeSingle) begin : gen_held_single
      assign held = 1'b0;
    end else begin : gen_held_st
      assign held = gen_out_st.st_valid_q && VcW'(gen_out_st.st_vc_q) == VcW'(v);
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) owed_q <= '0;
      else owed_q <= owed_q + CreditW'(arrive) - CreditW'(credit_in);
    end
    always_comb begin
      if (rst_ni) begin
        if (credit_in) assume (owed_q != '0);
        // ou_conservation: credits + the flit in the traversal register + the flit on the link + flits
        // downstream or credits in flight = D
        assert (32'(ovc_credits_q[v*CreditW +: CreditW]) + 32'(held) + 32'(arrive) + 32'(owed_q) == BufferDepth);
      end
    end
  end
`endif

  if (Levels > 1) begin : gen_props_stack
    localparam int unsigned PDepthW = torx_pkg::clog2w(Levels);
    for (genvar v = 0; v < NumVcs; v++) begin : gen_props_stack_vc
      logic [PDepthW-1:0] depth, top_k;
      logic [IvcW-1:0] owner, top;
      assign depth = gen_owner_stack.ovc_depth_q[v*PDepthW +: PDepthW];
      assign owner = ovc_owner_q[v*IvcW +: IvcW];
      assign top_k = depth - PDepthW'(1);
      always_comb begin
        top = Free;
        for (int unsigned k = 0; k < Levels - 1; k++) begin
          if (top_k == PDepthW'(k)) top = gen_owner_stack.ovc_stack_q[(v*(Levels-1)+k)*IvcW +: IvcW];
        end
      end
      // The previous cycle's values, in registers of their own (torx_props_defs.svh, "Sampling").
      logic push_p_q, resume_p_q;
      logic [PDepthW-1:0] depth_p_q;
      logic [IvcW-1:0] owner_p_q, top_p_q, claim_p_q;
      always_ff @(posedge clk_i) begin
        push_p_q <= va_grant_i[v] && va_preempt_i[v] && !tail_out[v];
        resume_p_q <= tail_out[v] && xb_ivc_i == owner && !va_grant_i[v] && depth != '0;
        depth_p_q <= depth;
        owner_p_q <= owner;
        top_p_q <= top;
        claim_p_q <= va_grant_ivc_i[v*IvcW +: IvcW];
      end
      always_ff @(posedge clk_i) begin
        if (rst_ni && !props_up_q) begin
          `TORX_ASSERT(depth == '0, ("ou_reset: VC %0d leaves reset with %0d stacked owners", v, depth))
        end
        if (rst_ni && props_up_q) begin
          `TORX_ASSERT(depth == '0 || owner != Free,
                       ("ou_stack_owner: VC %0d is free while %0d preempted owners wait on its stack", v, depth))
          `TORX_ASSERT(ovc_stack_ok_o[v] == (32'(depth) + 1 < Levels),
                       ("ou_stack_ok: VC %0d with %0d stacked owners told the allocator %0d", v, depth, ovc_stack_ok_o[v]))
          // A preemption (no tail on the VC in that cycle) pushes the owner on the stack.
          if (push_p_q) begin
            `TORX_ASSERT(32'(depth) == 32'(depth_p_q) + 1 && top == owner_p_q && owner == claim_p_q,
                         ("ou_preempt_push: VC %0d preempted at depth %0d, now depth %0d, top %0d (owner was %0d)",
                          v, depth_p_q, depth, top, owner_p_q))
          end
          // The owner's tail leaves, no claim in that cycle, owners stacked: the top one resumes.
          if (resume_p_q) begin
            `TORX_ASSERT(owner == top_p_q && depth == depth_p_q - PDepthW'(1),
                         ("ou_resume: VC %0d went to lane %0d (depth %0d), not back to the preempted lane %0d",
                          v, owner, depth, top_p_q))
          end
        end
      end
    end
  end

  `include "props/torx_output_unit_st_props.svh"
/* verilator tracing_on */
`endif  // TORX_PROPS
