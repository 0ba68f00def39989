// SPDX-License-Identifier: Apache-2.0
// torx_input_unit_props: the properties of one input port (docs/verification.md, "Properties"),
// included at the end of torx_input_unit. Per lane (a VC, or a VC and a priority level):
//   iu_reset        after reset: every lane IDLE and empty, no credit on the link;
//   iu_state        the lane state is IDLE, WAIT_VC or ACTIVE;
//   iu_no_overflow  the flits of a VC's lanes never exceed D (with the credit assumption upstream,
//                   which the existing overflow assertions check at the write);
//   iu_no_underflow a flit leaves only a lane that holds one;
//   iu_active_held  an ACTIVE lane keeps its output port and VC until its tail leaves (a preempted
//                   worm resumes on the VC it held);
//   iu_worm_order   the flits leaving a lane are whole worms in arrival order: a body flit continues
//                   the worm in progress (its message, the next index), a head follows a tail;
//   iu_credit       one credit per flit that left, from the end of its cycle, for the VC it left.
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

  for (genvar v = 0; v < NumLanes; v++) begin : gen_props_lane
    logic [StateW-1:0] state;
    logic [CountW-1:0] count;
    logic in_worm_q;            // a worm is in progress on the lane ...
    logic [31:0] msg_q, seq_q;  // ... this message, its last flit index
    logic [31:0] msg, seq;
    assign state = ivc_state_q[v*StateW +: StateW];
    assign count = ivc_count_q[v*CountW +: CountW];
    assign msg = xb_flit_o[FlitW - torx_pkg::TagW +: 32];   // the tag {seq, msg}: the flit's top bits (SimTag = 1)
    assign seq = xb_flit_o[FlitW - torx_pkg::TagW + 32 +: 32];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_worm_q <= 1'b0;
        msg_q <= '0;
        seq_q <= '0;
      end else if (pop[v]) begin
        in_worm_q <= !front_tail[v];
        msg_q <= msg;
        seq_q <= seq;
      end
    end

    // The previous cycle's values, in registers of their own (torx_props_defs.svh, "Sampling").
    logic active_p_q, tail_left_p_q;
    logic [VcIdxW-1:0] out_vc_p_q;
    logic [PortW-1:0] out_port_p_q;
    always_ff @(posedge clk_i) begin
      active_p_q <= state == torx_pkg::IvcActive;
      tail_left_p_q <= pop[v] && front_tail[v];
      out_vc_p_q <= ivc_out_vc_q[v*VcIdxW +: VcIdxW];
      out_port_p_q <= ivc_out_port_q[v*PortW +: PortW];
    end

    always_ff @(posedge clk_i) begin
      if (rst_ni && !props_up_q) begin
        `TORX_ASSERT(state == torx_pkg::IvcIdle && count == '0,
                     ("iu_reset: lane %0d leaves reset in state %0d with %0d flits", v, state, count))
      end
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(state == torx_pkg::IvcIdle || state == torx_pkg::IvcWaitVc || state == torx_pkg::IvcActive,
                     ("iu_state: lane %0d in state %0d", v, state))
        if (pop[v]) begin
          `TORX_ASSERT(count != '0, ("iu_no_underflow: a flit leaves the empty lane %0d", v))
          if (front_head[v]) begin
            `TORX_ASSERT(!in_worm_q, ("iu_worm_order: lane %0d: a head before the tail of message %0d", v, msg_q))
          end else begin
            `TORX_ASSERT(in_worm_q && msg == msg_q && seq == seq_q + 1,
                         ("iu_worm_order: lane %0d: flit %0d of message %0d follows flit %0d of message %0d",
                          v, seq, msg, seq_q, msg_q))
          end
        end
        if (active_p_q && !tail_left_p_q) begin
          `TORX_ASSERT(state == torx_pkg::IvcActive &&
                       ivc_out_vc_q[v*VcIdxW +: VcIdxW] == out_vc_p_q &&
                       ivc_out_port_q[v*PortW +: PortW] == out_port_p_q,
                       ("iu_active_held: lane %0d left its output VC %0d of port %0d before its tail", v,
                        out_vc_p_q, out_port_p_q))
        end
      end
    end
  end

  // The D slots of a VC hold the flits of all its lanes.
  for (genvar c = 0; c < NumVcs; c++) begin : gen_props_vc
    logic [31:0] held;
    always_comb begin
      held = '0;
      for (int unsigned l = 0; l < PriorityLevels; l++) held = held + 32'(ivc_count_q[(c*PriorityLevels+l)*CountW +: CountW]);
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(held <= BufferDepth, ("iu_no_overflow: VC %0d holds %0d flits, D = %0d", c, held, BufferDepth))
      end
    end
  end

  // The previous cycle's switch grant, in registers of their own (torx_props_defs.svh, "Sampling").
  logic sa_win_p_q;
  logic [VcIdxW-1:0] sel_vc_p_q;
  always_ff @(posedge clk_i) begin
    sa_win_p_q <= sa_win_i;
    sel_vc_p_q <= sel_vc;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(!credit_valid_o, ("iu_reset: a credit on the link after reset"))
    end
    if (rst_ni && props_up_q) begin
      `TORX_ASSERT(credit_valid_o == sa_win_p_q, ("iu_credit: a credit %0s", credit_valid_o ? "without a flit" : "missing"))
      if (credit_valid_o) begin
        `TORX_ASSERT(credit_vc_o == sel_vc_p_q, ("iu_credit: a credit for VC %0d, the flit left VC %0d",
                                                credit_vc_o, sel_vc_p_q))
      end
    end
  end
/* verilator tracing_on */
`endif  // TORX_PROPS
