// SPDX-License-Identifier: Apache-2.0
// torx_cfg_loader: the configuration port's word counter, checksum and verdict, one module for the
// three image loaders (torx_routing_unit, torx_barrier, torx_gossip_unit; C++ twins: the loaders in
// models/routing_table.cpp, models/barrier.cpp, models/gossip_table.cpp). The unit that owns it knows
// its image's format: it decodes and checks each word itself and tells the loader the error it found
// in that word (word_err_i) and, with the last word, whether the image has the right length
// (len_ok_i). The loader keeps the first error in word order and gives the verdict.
//
// Configuration port: the host streams the image word 0 first, one word per cycle with cfg_valid_i
// (gaps allowed), and raises cfg_last_i with the last word. word_o is the index of the word on
// cfg_data_i (saturating at 2^CfgWordW - 1, far above any image); 0 starts a new image, which
// forgets the previous one's verdict. In the cycle after the last word either cfg_done_o or
// cfg_error_o is 1 (and stays so until the next image or reset); cfg_error_code_o /
// cfg_error_word_o say why and where, with the C++ loaders' precedence:
//   1. (HeaderFirst) the first error, if it lies in a header word (below HeaderWords) before the last;
//   2. the length (len_ok_i low): CfgErrLength, word = the words seen;
//   3. the first error, if it lies in a header word;
//   4. (Checksum) the words do not sum to 0 mod 2^32: CfgErrChecksum at the last word;
//   5. the first error.
// rst_ni clears the counter and the verdict.
//
// Cycle contract: word_o, cfg_* outputs are registers; word_err_i and len_ok_i are read in the cycle
// of the word they describe (combinational from cfg_data_i and the unit's registers is fine).
//
// Parameters:
//   Checksum     1: the image's words sum to 0 mod 2^32 (the last word is the checksum); 0: no checksum
//   HeaderWords  words 0 .. HeaderWords-1 are the header (magic, version, ...): their errors outrank
//                the checksum, and with HeaderFirst the length
//   HeaderFirst  1: a header error in a word before the last outranks a length error
`ifndef TORX_CFG_LOADER_SV_
`define TORX_CFG_LOADER_SV_
`include "torx_pkg.sv"

module torx_cfg_loader #(
  parameter bit Checksum = 1'b1,
  parameter int unsigned HeaderWords = 2,
  parameter bit HeaderFirst = 1'b0,
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW,
  localparam int unsigned ErrW = torx_pkg::CfgErrW
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                cfg_valid_i,       // cycle t: cfg_data_i is the next image word
  input  logic [31:0]         cfg_data_i,
  input  logic                cfg_last_i,        // cycle t: it is the last word
  output logic [CfgWordW-1:0] word_o,            // cycle t: index of the word on cfg_data_i
  input  logic [ErrW-1:0]     word_err_i,        // cycle t: the unit's verdict on this word (CfgOk: none)
  input  logic                len_ok_i,          // cycle t, with cfg_last_i: the image has the right length
  output logic                cfg_done_o,        // from the cycle after the last word: image accepted
  output logic                cfg_error_o,       // from the cycle after the last word: image refused
  output logic [CfgWordW-1:0] cfg_error_word_o,  // with cfg_error_o: the word at fault
  output logic [ErrW-1:0]     cfg_error_code_o   // with cfg_error_o: torx_pkg::cfg_err_e
);

  logic [CfgWordW-1:0] word_q, word_d;          // index of the next word of the current image
  logic [ErrW-1:0] err_q, err_d;                // first error in word order (CfgOk: none)
  logic [CfgWordW-1:0] err_word_q, err_word_d;
  logic done_q, done_d, error_q, error_d;
  logic [CfgWordW-1:0] out_word_q, out_word_d;
  logic [ErrW-1:0] out_code_q, out_code_d;
  logic [ErrW-1:0] err_prev;                    // first error of the earlier words of this image
  logic sum_bad;                                // with the last word: the checksum fails

  // The running sum of the words (a register only with Checksum).
  if (Checksum) begin : gen_sum
    logic [31:0] sum_q, sum_d, sum_all;
    assign sum_all = (word_q == '0) ? cfg_data_i : sum_q + cfg_data_i;
    assign sum_d = cfg_valid_i ? sum_all : sum_q;
    assign sum_bad = sum_all != 32'd0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sum_q <= '0;
      else sum_q <= sum_d;
    end
  end else begin : gen_no_sum
    assign sum_bad = 1'b0;
    logic unused_data;  // without a checksum the loader does not look at the words
    assign unused_data = ^cfg_data_i;
  end

  assign err_prev = (word_q == '0) ? ErrW'(torx_pkg::CfgOk) : err_q;

  always_comb begin
    word_d = word_q;
    err_d = err_q;
    err_word_d = err_word_q;
    done_d = done_q;
    error_d = error_q;
    out_word_d = out_word_q;
    out_code_d = out_code_q;
    if (cfg_valid_i) begin
      if (word_q == '0) begin
        // A new image: forget the previous one's verdict.
        done_d = 1'b0;
        error_d = 1'b0;
      end
      err_d = err_prev;
      if (word_err_i != torx_pkg::CfgOk && err_prev == torx_pkg::CfgOk) begin
        err_d = word_err_i;
        err_word_d = word_q;
      end
      if (word_q != '1) word_d = word_q + CfgWordW'(1);
      if (cfg_last_i) begin
        word_d = '0;
        done_d = 1'b0;
        error_d = 1'b1;
        if (HeaderFirst && err_prev != torx_pkg::CfgOk && err_word_q < CfgWordW'(HeaderWords)) begin
          out_code_d = err_prev;
          out_word_d = err_word_q;
        end else if (!len_ok_i) begin
          out_code_d = torx_pkg::CfgErrLength;
          out_word_d = word_q + CfgWordW'(1);
        end else if (err_d != torx_pkg::CfgOk && err_word_d < CfgWordW'(HeaderWords)) begin
          out_code_d = err_d;
          out_word_d = err_word_d;
        end else if (sum_bad) begin
          out_code_d = torx_pkg::CfgErrChecksum;
          out_word_d = word_q;
        end else if (err_d != torx_pkg::CfgOk) begin
          out_code_d = err_d;
          out_word_d = err_word_d;
        end else begin
          out_code_d = torx_pkg::CfgOk;
          out_word_d = '0;
          done_d = 1'b1;
          error_d = 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      word_q <= '0;
      err_q <= torx_pkg::CfgOk;
      err_word_q <= '0;
      done_q <= 1'b0;
      error_q <= 1'b0;
      out_word_q <= '0;
      out_code_q <= torx_pkg::CfgOk;
    end else begin
      word_q <= word_d;
      err_q <= err_d;
      err_word_q <= err_word_d;
      done_q <= done_d;
      error_q <= error_d;
      out_word_q <= out_word_d;
      out_code_q <= out_code_d;
    end
  end

  assign word_o = word_q;
  assign cfg_done_o = done_q;
  assign cfg_error_o = error_q;
  assign cfg_error_word_o = out_word_q;
  assign cfg_error_code_o = out_code_q;

endmodule

`endif  // TORX_CFG_LOADER_SV_
