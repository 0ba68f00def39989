// SPDX-License-Identifier: Apache-2.0
// torx_crossbar: the router's switch (C++ twin: the copy of the winning flit from its input FIFO to
// the output link in Router::evaluate, models/router.cpp). Output port o carries the flit of the
// input port the switch allocator granted it.
//
// Cycle contract: combinational, stage P of cycle t (docs/timing-contract.md, step 6, traversal);
// the output unit registers the result, so the flit is on the output link from the end of t.
//
// Parameters:
//   NumPorts  input and output ports
//   FlitW     flit width
`include "torx_pkg.sv"

module torx_crossbar #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned FlitW = 128,
  localparam int unsigned PortW = torx_pkg::clog2w(NumPorts)
) (
  input  logic [NumPorts*FlitW-1:0] in_flit_i,  // cycle t: the flit each input port offers
  input  logic [NumPorts*PortW-1:0] sel_i,      // cycle t: the input port each output takes
  output logic [NumPorts*FlitW-1:0] out_flit_o  // cycle t: the flit at each output
);

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [PortW-1:0] sel;
    assign sel = sel_i[o*PortW +: PortW];
    always_comb begin
      out_flit_o[o*FlitW +: FlitW] = '0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (sel == PortW'(p)) out_flit_o[o*FlitW +: FlitW] = in_flit_i[p*FlitW +: FlitW];
      end
    end
  end

endmodule
