// SPDX-License-Identifier: Apache-2.0
// torx_vc_fifo: the VC buffers of one router input port, a FIFO of BufferDepth entries per VC in one
// RAM (C++ twin: the input VC ring buffers, models/input_unit.hpp). Used by torx_input_unit (one
// priority level) and by torx_gossip_router's input ports (VC 0).
//
// Storage (docs/area.md, "Buffers"): the low PeekW bits of every entry, which the owner reads at
// every VC's front in every cycle (route, head, tail), in flip-flops; the rest (bits Width-1 ..
// PeekW: the flit's data and the header fields no allocator reads) in a one-read, one-write
// register file (torx_rf_1r1w), read once per cycle at the selected VC's front.
//
// Cycle contract: push_i in cycle t writes push_data_i at the back of VC push_vc_i at the end of t;
// pop_i[v] in t drops VC v's front entry at the end of t (the owner's counters guarantee room and a
// front entry: the buffer keeps no count). Reads are combinational from the registers at the start
// of t: front_o gives the low PeekW bits of every VC's front entry (the fields its owner decides on
// per VC), sel_front_o bits Width-1 .. SelLo of VC sel_vc_i's front entry (what leaves). The
// storage is not reset; the pointers are.
//
// Parameters:
//   NumVcs       VCs (FIFOs)
//   BufferDepth  D, entries per VC
//   Width        bits of an entry
//   PeekW        low bits of each VC's front entry on front_o, kept in flops (1 .. Width-1)
//   SelLo        lowest bit of the selected front entry on sel_front_o (0 .. PeekW)
`ifndef TORX_VC_FIFO_SV_
`define TORX_VC_FIFO_SV_
`include "torx_pkg.sv"
`include "torx_rf_1r1w.sv"

module torx_vc_fifo #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned Width = 128,
  parameter int unsigned PeekW = 1,
  parameter int unsigned SelLo = 0,
  localparam int unsigned VcW = torx_pkg::clog2w(NumVcs)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    push_i,        // cycle t: an entry is written at the end of t ...
  input  logic [VcW-1:0]          push_vc_i,     // ... at the back of this VC
  input  logic [Width-1:0]        push_data_i,
  input  logic [NumVcs-1:0]       pop_i,         // cycle t: VC v's front entry leaves at the end of t
  output logic [NumVcs*PeekW-1:0] front_o,       // cycle t: low PeekW bits of VC v's front entry
  input  logic [VcW-1:0]          sel_vc_i,      // cycle t: a VC ...
  output logic [Width-SelLo-1:0]  sel_front_o    // cycle t: ... and its front entry's bits Width-1 .. SelLo
);

  localparam int unsigned PtrW = torx_pkg::clog2w(BufferDepth);
  localparam int unsigned Slots = NumVcs * BufferDepth;
  localparam int unsigned SlotW = torx_pkg::clog2w(Slots);
  localparam int unsigned DataW = Width - PeekW;   // bits in the register file

  logic [NumVcs*PtrW-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d;
  logic [PeekW-1:0] peek_q [Slots];   // the low PeekW bits of every slot (flops, not reset)
  logic [SlotW-1:0] wr_slot, rd_slot;
  logic [DataW-1:0] rd_data;

  assign wr_slot = SlotW'(32'(push_vc_i) * BufferDepth + 32'(wr_ptr_q[push_vc_i*PtrW +: PtrW]));
  assign rd_slot = SlotW'(32'(sel_vc_i) * BufferDepth + 32'(rd_ptr_q[sel_vc_i*PtrW +: PtrW]));

  always_ff @(posedge clk_i) begin
    if (push_i) peek_q[wr_slot] <= push_data_i[PeekW-1:0];
  end

  torx_rf_1r1w #(
    .Words(Slots),
    .Width(DataW)
  ) u_rf (
    .clk_i,
    .we_i   (push_i),
    .waddr_i(wr_slot),
    .wdata_i(push_data_i[Width-1:PeekW]),
    .raddr_i(rd_slot),
    .rdata_o(rd_data)
  );

  if (SelLo == PeekW) begin : gen_sel_data
    assign sel_front_o = rd_data;
  end else begin : gen_sel_peek
    logic [PeekW-1:0] sel_peek;
    assign sel_peek = peek_q[rd_slot];
    assign sel_front_o = {rd_data, sel_peek[PeekW-1:SelLo]};
    if (SelLo > 0) begin : gen_unused
      logic unused_sel_peek;   // the owner reads those bits on front_o
      assign unused_sel_peek = ^sel_peek[SelLo-1:0];
    end
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic [PtrW-1:0] rd_ptr, wr_ptr;
    logic push;
    assign rd_ptr = rd_ptr_q[v*PtrW +: PtrW];
    assign wr_ptr = wr_ptr_q[v*PtrW +: PtrW];
    assign push = push_i && (push_vc_i == VcW'(v));
    assign front_o[v*PeekW +: PeekW] = peek_q[v * BufferDepth + 32'(rd_ptr)];
    always_comb begin
      rd_ptr_d[v*PtrW +: PtrW] = !pop_i[v] ? rd_ptr :
                                 (32'(rd_ptr) == BufferDepth - 1) ? '0 : rd_ptr + PtrW'(1);
      wr_ptr_d[v*PtrW +: PtrW] = !push ? wr_ptr :
                                 (32'(wr_ptr) == BufferDepth - 1) ? '0 : wr_ptr + PtrW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    if (BufferDepth < 1) $fatal(1, "torx_vc_fifo: BufferDepth must be at least 1");
    if (PeekW < 1 || PeekW >= Width || SelLo > PeekW) $fatal(1, "torx_vc_fifo: PeekW/SelLo out of range");
  end
`endif

  `include "props/torx_vc_fifo_props.svh"  // docs/verification.md, "Properties"

endmodule

`endif  // TORX_VC_FIFO_SV_
