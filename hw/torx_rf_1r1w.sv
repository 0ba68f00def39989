// SPDX-License-Identifier: Apache-2.0
// torx_rf_1r1w: a register file of Words entries of Width bits with one write port and one read
// port, written as a memory (a behavioural array, no reset), so that a memory compiler's 1R1W
// register file can replace it: the flit data (payload, the header fields no allocator reads, the
// gossip extension, the simulation tag) of one router input port's buffers (torx_vc_fifo,
// torx_input_unit; docs/area.md, "Buffers").
//
// Cycle contract: we_i in cycle t writes wdata_i at waddr_i at the end of t. rdata_o is entry raddr_i
// as it is at the start of t (a flow-through read: the address settles within t, from the switch
// allocator's choice, and the data goes through the crossbar into the output register in the same
// cycle; docs/area.md says what a synchronous-read SRAM would change). A read and a write of the
// same entry in one cycle read the old value; the buffers never do both (a slot is written only when
// free). Entries are not reset: the owner's pointers and counts say which hold a flit.
//
// Parameters:
//   Words  entries (the port's VCs x BufferDepth)
//   Width  bits per entry
`ifndef TORX_RF_1R1W_SV_
`define TORX_RF_1R1W_SV_
`include "torx_pkg.sv"

module torx_rf_1r1w #(
  parameter int unsigned Words = 8,
  parameter int unsigned Width = 64,
  localparam int unsigned AddrW = torx_pkg::clog2w(Words)
) (
  input  logic             clk_i,
  input  logic             we_i,     // cycle t: write ...
  input  logic [AddrW-1:0] waddr_i,  // ... this entry ...
  input  logic [Width-1:0] wdata_i,  // ... with this, at the end of t
  input  logic [AddrW-1:0] raddr_i,  // cycle t: an entry ...
  output logic [Width-1:0] rdata_o   // cycle t: ... as it is at the start of t
);

  logic [Width-1:0] mem_q [Words];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  assign rdata_o = mem_q[raddr_i];

`ifndef SYNTHESIS
  initial begin
    if (Words < 1 || Width < 1) $fatal(1, "torx_rf_1r1w: Words and Width must be at least 1");
  end
  always_ff @(posedge clk_i) begin
    if (we_i) assert (32'(waddr_i) < Words) else $error("torx_rf_1r1w: write of entry %0d of %0d", waddr_i, Words);
  end
`endif

endmodule

`endif  // TORX_RF_1R1W_SV_
