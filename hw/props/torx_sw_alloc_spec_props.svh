// SPDX-License-Identifier: Apache-2.0
// torx_sw_alloc_spec_props: the switch allocator's speculative offers (docs/verification.md,
// "Properties"; docs/timing-contract.md, "Lookahead"), included by torx_sw_alloc_props.svh. The
// properties there take an offer's kind (speculative or not) from the unit's own in_spec; this one
// ties it to the ports, per input port p:
//   sa_spec   with lookahead (Pipeline 1) p's offer is speculative exactly when none of p's lanes is
//             ready (req_i) and one asks speculatively (spec_i), and a speculative offer stands
//             exactly when spec_ok_i says so for the offered lane; in the other organizations no
//             offer is speculative.
// Mutation testing found in_spec unchecked (docs/verification.md, "Mutation testing").
`ifdef TORX_PROPS
  for (genvar p = 0; p < NumPorts; p++) begin : gen_props_spec
    localparam int unsigned PLanes = ((p < NumNetPorts) ? NetVcs : 1) * Levels;
    localparam int unsigned PFirst = ((p < NumNetPorts) ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts)) * Levels;
    logic ready, asks, spec, spec_ok;
    assign ready = |req_i[PFirst +: PLanes];
    assign asks = |spec_i[PFirst +: PLanes];
    assign spec = Pipeline == torx_pkg::PipeLookahead && !ready && asks;
    assign spec_ok = spec_ok_i[PFirst + 32'(in_lane_o[p*LaneIdxW +: LaneIdxW])];
    always_ff @(posedge clk_i) begin
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(in_spec[p] == spec, ("sa_spec: input %0d's offer is speculative: %0d (ready %0d, asks %0d)", p,
                                          in_spec[p], ready, asks))
        if (spec && in_valid[p]) begin
          `TORX_ASSERT(in_spec_ok[p] == spec_ok, ("sa_spec: input %0d's speculative offer stands: %0d, spec_ok_i %0d",
                                                  p, in_spec_ok[p], spec_ok))
        end
      end
    end
  end
`endif  // TORX_PROPS
