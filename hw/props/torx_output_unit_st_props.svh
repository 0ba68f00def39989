// SPDX-License-Identifier: Apache-2.0
// torx_output_unit_st_props: the properties of the output unit's switch-traversal register
// (docs/verification.md, "Properties"; docs/timing-contract.md, "Registers between the stages"),
// included by torx_output_unit_props.svh:
//   ou_st_off    in the single organization (Pipeline 0) there is no traversal register: st_valid_o
//                is 0;
//   ou_st_reg    (Pipeline 1, 2) after reset the register is empty (valid, VC and lane 0); then it
//                holds the flit granted in the previous cycle: valid, its output VC and its input
//                lane, both 0 when no flit was granted; st_valid_o shows its valid bit.
// The C++ model keeps the same register (compared every cycle by the co-simulation); mutation
// testing found it unchecked by any property (docs/verification.md, "Mutation testing").
`ifdef TORX_PROPS
  if (Pipeline == torx_pkg::PipeSingle) begin : gen_props_st_off
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        `TORX_ASSERT(!st_valid_o, ("ou_st_off: st_valid_o set without a traversal register"))
      end
    end
  end else begin : gen_props_st
    logic valid_p_q;
    logic [VcIdxW-1:0] vc_p_q;
    logic [IvcW-1:0] lane_p_q;
    always_ff @(posedge clk_i) begin
      valid_p_q <= xb_valid_i;
      vc_p_q <= xb_vc_i;
      lane_p_q <= xb_ivc_i;
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && !props_up_q) begin
        `TORX_ASSERT(!gen_out_st.st_valid_q && gen_out_st.st_vc_q == '0 && gen_out_st.st_lane_q == '0,
                     ("ou_st_reg: the traversal register is not empty after reset"))
      end
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(gen_out_st.st_valid_q == valid_p_q && gen_out_st.st_vc_q == (valid_p_q ? vc_p_q : '0) &&
                     gen_out_st.st_lane_q == (valid_p_q ? lane_p_q : '0),
                     ("ou_st_reg: the traversal register holds valid %0d VC %0d lane %0d, granted: %0d VC %0d lane %0d",
                      gen_out_st.st_valid_q, gen_out_st.st_vc_q, gen_out_st.st_lane_q, valid_p_q, vc_p_q, lane_p_q))
      end
      if (rst_ni) begin
        `TORX_ASSERT(st_valid_o == gen_out_st.st_valid_q, ("ou_st_reg: st_valid_o is not the register's valid bit"))
      end
    end
  end
`endif  // TORX_PROPS
