// SPDX-License-Identifier: Apache-2.0
// torx_barrier_props: the barrier unit's properties (docs/verification.md, "Properties"), included at
// the end of torx_barrier. The arrivals of the current episode are kept here as a set (one bit per
// child port and one for the node's own entry), independent of the unit's counter:
//   bar_reset    after reset no pulse on gather_o or release_o and nothing gathered;
//   bar_after_all  an episode completes (gather_o, or release_o at the root without a release_i)
//                only after the node's entry and every child of the mask arrived;
//   bar_complete a configured unit whose node and children all arrived completes in that cycle (a
//                complete set is never left waiting);
//   bar_release  release_o pulses exactly in the cycle after a release_i from the parent or a completion
//                at the root (and gather_o exactly after a completion elsewhere);
//   bar_cfg      the configuration port's verdict on an image, from the words kept here: accepted
//                exactly when it has three words, the magic, a mask within the unit's ports and a
//                parent that is a port or the root, and then the mask, parent and pad are the words';
//                refused with the first reason (length, magic, mask, port) otherwise.
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

  logic [NumNetPorts:0] props_arrived_q, props_now;   // bit NumNetPorts: the node's own entry
  logic props_all;
  assign props_now = props_arrived_q | {entry_i, gather_i & child_mask_q};
  assign props_all = (props_now | ~{1'b1, child_mask_q}) == '1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) props_arrived_q <= '0;
    else if (!done_q || complete) props_arrived_q <= '0;
    else props_arrived_q <= props_now;
  end

  // The current image's words as they arrive (bar_cfg).
  logic [1:0] cfg_n_q;          // words of the current image seen, 3: three or more
  logic [31:0] cfg_w0_q, cfg_w1_q;
  logic [31:0] cfg_w0, cfg_w1, cfg_w2;
  logic cfg_ok, cfg_mask_ok, cfg_port_ok;
  logic [3:0] cfg_code;
  logic cfg_last_p_q, cfg_ok_p_q;
  logic [3:0] cfg_code_p_q;
  logic [31:0] cfg_w1_p_q, cfg_w2_p_q;
  assign cfg_w0 = (cfg_n_q == 2'd0) ? cfg_data_i : cfg_w0_q;
  assign cfg_w1 = (cfg_n_q == 2'd1) ? cfg_data_i : cfg_w1_q;
  assign cfg_w2 = cfg_data_i;   // with cfg_last_i at three words, the last one
  assign cfg_mask_ok = NumNetPorts >= 32 || (cfg_w1 >> NumNetPorts) == 32'd0;
  assign cfg_port_ok = cfg_w2[7:0] == torx_pkg::BarrierRoot || 32'(cfg_w2[7:0]) < NumNetPorts;
  always_comb begin
    cfg_code = torx_pkg::CfgOk;
    if (cfg_n_q != 2'd2) cfg_code = torx_pkg::CfgErrLength;
    else if (cfg_w0 != torx_pkg::BarrierMagic) cfg_code = torx_pkg::CfgErrMagic;
    else if (!cfg_mask_ok) cfg_code = torx_pkg::CfgErrMask;
    else if (!cfg_port_ok) cfg_code = torx_pkg::CfgErrPort;
  end
  assign cfg_ok = cfg_code == torx_pkg::CfgOk;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cfg_n_q <= '0;
    else if (cfg_valid_i) cfg_n_q <= cfg_last_i ? 2'd0 : (cfg_n_q == 2'd3) ? 2'd3 : cfg_n_q + 2'd1;
  end
  always_ff @(posedge clk_i) begin
    if (cfg_valid_i && cfg_n_q == 2'd0) cfg_w0_q <= cfg_data_i;
    if (cfg_valid_i && cfg_n_q == 2'd1) cfg_w1_q <= cfg_data_i;
    cfg_last_p_q <= cfg_valid_i && cfg_last_i;
    cfg_ok_p_q <= cfg_ok;
    cfg_code_p_q <= cfg_code;
    cfg_w1_p_q <= cfg_w1;
    cfg_w2_p_q <= cfg_w2;
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
  // The root as the configuration says (parent_port_o), not the unit's own `root`.
  logic props_root;
  assign props_root = parent_port_o == torx_pkg::BarrierRoot;
  logic gather_p_q, release_p_q;
  always_ff @(posedge clk_i) begin
    gather_p_q <= done_q && complete && !props_root;
    release_p_q <= done_q && (release_i || (complete && props_root));
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
      `TORX_ASSERT(gather_o == gather_p_q, ("bar_after_all: gather_o %0d after a completion below the root %0d", gather_o,
                                           gather_p_q))
      if (cfg_last_p_q) begin
        `TORX_ASSERT(cfg_done_o == cfg_ok_p_q && cfg_error_o == !cfg_ok_p_q &&
                     (cfg_ok_p_q || cfg_error_code_o == cfg_code_p_q),
                     ("bar_cfg: an image %0s accepted (done %0d, error %0d, code %0d; expected code %0d)",
                      cfg_ok_p_q ? "to be" : "not to be", cfg_done_o, cfg_error_o, cfg_error_code_o, cfg_code_p_q))
        if (cfg_ok_p_q) begin
          `TORX_ASSERT(child_mask_o == cfg_w1_p_q[NumNetPorts-1:0] && parent_port_o == cfg_w2_p_q[7:0] &&
                       pad_o == cfg_w2_p_q[31:8],
                       ("bar_cfg: mask %b, parent %0d, pad %0d after an image of %b, %0d, %0d", child_mask_o,
                        parent_port_o, pad_o, cfg_w1_p_q[NumNetPorts-1:0], cfg_w2_p_q[7:0], cfg_w2_p_q[31:8]))
        end
      end
      `TORX_ASSERT(release_o == release_p_q, ("bar_release: release_o %0d after a release or a completion at the root %0d",
                                             release_o, release_p_q))
    end
  end
/* verilator tracing_on */
`endif  // TORX_PROPS
