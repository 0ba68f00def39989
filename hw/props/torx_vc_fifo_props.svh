// SPDX-License-Identifier: Apache-2.0
// torx_vc_fifo_props: the VC buffers' properties (docs/verification.md, "Properties"), included at the
// end of torx_vc_fifo. Per VC, with its occupancy counted here from the pushes and pops:
//   fifo_reset      after reset both pointers are 0;
//   fifo_ptr        the pointers stay below D, and the write pointer leads the read pointer by the
//                   occupancy (mod D);
//   fifo_no_over    a push finds room (its owner's credits: nothing is overwritten);
//   fifo_no_under   a pop finds an entry (nothing is read twice).
// That entries leave in the order they came, none dropped or duplicated, is proven by
// hw/formal/torx_vc_fifo_fv.sv (sequence numbers as data).
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
  localparam int unsigned PropsOccW = $clog2(BufferDepth + 2);

  for (genvar v = 0; v < NumVcs; v++) begin : gen_props_vc
    logic [PropsOccW-1:0] occ_q;   // entries held
    logic push, pop;
    logic [PtrW-1:0] rd, wr;
    assign push = push_i && (push_vc_i == VcW'(v));
    assign pop = pop_i[v];
    assign rd = rd_ptr_q[v*PtrW +: PtrW];
    assign wr = wr_ptr_q[v*PtrW +: PtrW];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) occ_q <= '0;
      else occ_q <= occ_q + PropsOccW'(push) - PropsOccW'(pop);
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && !props_up_q) begin
        `TORX_ASSERT(rd == '0 && wr == '0, ("fifo_reset: VC %0d pointers %0d/%0d after reset", v, rd, wr))
      end
      if (rst_ni && props_up_q) begin
        `TORX_ASSERT(32'(rd) < BufferDepth && 32'(wr) < BufferDepth && 32'(occ_q) <= BufferDepth &&
                     32'(wr) == ((32'(rd) + 32'(occ_q) >= BufferDepth) ? 32'(rd) + 32'(occ_q) - BufferDepth
                                                                      : 32'(rd) + 32'(occ_q)),
                     ("fifo_ptr: VC %0d pointers %0d/%0d with %0d entries", v, rd, wr, occ_q))
        `TORX_ASSERT(!pop || occ_q != '0, ("fifo_no_under: VC %0d popped empty", v))
        `TORX_ASSERT(!push || 32'(occ_q) < BufferDepth || pop, ("fifo_no_over: VC %0d pushed full", v))
      end
    end
  end
/* verilator tracing_on */
`endif  // TORX_PROPS
