// SPDX-License-Identifier: Apache-2.0
// torx_rr_arbiter_props: the round-robin pick (docs/verification.md, "Properties"), included at the
// end of torx_rr_arbiter. The arbiter is combinational, so its properties are combinational
// assertions, checked by the formal proof only (hw/formal/torx_rr_arbiter_fv.sv); in simulation its
// owners' properties (va_fair, sa_fair, va_requested, sa_requested) check it at every clock edge.
//   rr_valid  valid_o is set exactly when some requester asks, and idx_o is 0 when none does;
//   rr_grant  the granted index is a requester;
//   rr_first  no requester lies between the pointer and the granted index (cyclically): the grant is
//             the first requester at or after the pointer, wrapping.
`include "props/torx_props_defs.svh"
`ifdef FORMAL
  always_comb begin
    if (32'(ptr_i) < NumReq) begin
      assert (valid_o == (|req_i));
      if (!(|req_i)) assert (idx_o == '0);
      if (|req_i) begin
        assert (32'(idx_o) < NumReq && req_i[idx_o]);
        for (int unsigned k = 0; k < NumReq; k++) begin
          // k strictly before idx_o, counting from ptr_i cyclically
          if (((IdxW'(k) >= ptr_i && (IdxW'(k) < idx_o || idx_o < ptr_i)) ||
               (IdxW'(k) < ptr_i && idx_o < ptr_i && IdxW'(k) < idx_o))) begin
            assert (!req_i[k]);
          end
        end
      end
    end
  end
`endif  // FORMAL
