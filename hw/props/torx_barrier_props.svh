// SPDX-License-Identifier: Apache-2.0
// torx_barrier_props: the barrier unit's properties (docs/verification.md, "Properties"), included at
// the end of torx_barrier. The arrivals of the current episode are kept here as a set (one bit per
// child port and one for the node's own entry), independent of the unit's counter:
//   bar_reset    after reset no pulse on gather_o or release_o and nothing gathered;
//   bar_after_all  an episode completes (gather_o, or release_o at the root without a release_i)
//                only after the node's entry and every child of the mask arrived;
//   bar_complete a configured unit whose node and children all arrived completes in that cycle (a
//                complete set is never left waiting);
//   bar_release  release_o pulses only after a release_i from the parent or a completion at the root.
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

  logic [NumNetPorts:0] props_arrived_q, props_now;   // bit NumNetPorts: the node's own entry
  logic props_all;
  assign props_now = props_arrived_q | {entry_i, gather_i & child_mask_q};
  assign props_all = (props_now | ~{1'b1, child_mask_q}) == '1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_arrived_q <= '0;
    else if (!done_q || complete) props_arrived_q <= '0;
    else props_arrived_q <= props_now;
  end

`ifdef FORMAL
  // The environment's side (checked in simulation by the unit's own assertion, gathered <= expected):
  // the node and each child pulse once per episode.
  always_comb begin
    if (rst_ni && done_q) assume ((props_arrived_q & {entry_i, gather_i & child_mask_q}) == '0);
  end
`endif
  // The previous cycle's completion and release, in registers of their own (torx_props_defs.svh,
  // "Sampling").
  logic gather_p_q, release_p_q;
  always_ff @(posedge clk_i) begin
    gather_p_q <= done_q && complete && !root;
    release_p_q <= done_q && (release_i || (complete && root));
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && !props_up_q) begin
      `TORX_ASSERT(!gather_o && !release_o && gathered_q == '0, ("bar_reset: a pulse or a count after reset"))
    end
    if (rst_ni && props_up_q) begin
      if (done_q) begin
        `TORX_ASSERT(!complete || props_all, ("bar_after_all: completed with arrivals %b of children %b", props_now, child_mask_q))
        `TORX_ASSERT(complete || !props_all, ("bar_complete: every child and the node arrived (%b), no completion", props_now))
      end
      if (gather_o) begin
        `TORX_ASSERT(gather_p_q, ("bar_after_all: gather_o without a completion"))
      end
      if (release_o) begin
        `TORX_ASSERT(release_p_q, ("bar_release: release_o without a release or a completion at the root"))
      end
    end
  end
`endif  // TORX_PROPS
