// SPDX-License-Identifier: Apache-2.0
// torx_vc_fifo_fv: formal harness of torx_vc_fifo (scripts/formal.py, docs/verification.md). The
// environment keeps the owner's side of the contract (a push only with room, a pop only of a held
// entry) and writes each VC's entries numbered 0, 1, 2 ... (mod 2^Width); the harness asserts that
// every VC's front entry is the next number it expects, so entries leave in order, none dropped and
// none duplicated, together with the unit's own properties (hw/props/torx_vc_fifo_props.svh).
module torx_vc_fifo_fv #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned BufferDepth = 3,
  parameter int unsigned Width = 4
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              push_i,
  input logic              push_vc_i,
  input logic [NumVcs-1:0] pop_i,
  input logic              sel_vc_i
);
  logic [Width-1:0] front;
  logic [NumVcs*Width-1:0] peek;
  logic [NumVcs*Width-1:0] wr_seq_q, rd_seq_q;   // per VC: the next number written, the next expected
  logic [NumVcs*3-1:0] occ_q;                    // per VC: entries held

  initial assume (!rst_ni);

  torx_vc_fifo #(.NumVcs(NumVcs), .BufferDepth(BufferDepth), .Width(Width), .PeekW(Width), .SelLo(0)) dut (
    .clk_i, .rst_ni, .push_i, .push_vc_i, .push_data_i(wr_seq_q[push_vc_i*Width +: Width]), .pop_i,
    .front_o(peek), .sel_vc_i, .sel_front_o(front));

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic push;
    assign push = push_i && push_vc_i == 1'(v);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wr_seq_q[v*Width +: Width] <= '0;
        rd_seq_q[v*Width +: Width] <= '0;
        occ_q[v*3 +: 3] <= '0;
      end else begin
        wr_seq_q[v*Width +: Width] <= wr_seq_q[v*Width +: Width] + Width'(push);
        rd_seq_q[v*Width +: Width] <= rd_seq_q[v*Width +: Width] + Width'(pop_i[v]);
        occ_q[v*3 +: 3] <= occ_q[v*3 +: 3] + 3'(push) - 3'(pop_i[v]);
      end
    end
    always_comb begin
      if (rst_ni) begin
        assume (!pop_i[v] || occ_q[v*3 +: 3] != '0);
        assume (!push || 32'(occ_q[v*3 +: 3]) < BufferDepth || pop_i[v]);
      end
      if (rst_ni && occ_q[v*3 +: 3] != '0) begin
        assert (peek[v*Width +: Width] == rd_seq_q[v*Width +: Width]);
        if (sel_vc_i == 1'(v)) assert (front == rd_seq_q[v*Width +: Width]);
      end
    end
  end
endmodule
