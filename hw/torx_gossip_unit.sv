// SPDX-License-Identifier: Apache-2.0
// torx_gossip_unit: the forwarding image of a gossip-mode router (C++ twin: GossipUnit,
// models/gossip_table.hpp): the image loader behind the configuration port, the rule registers, and
// one rule lookup per network input port.
//
// Configuration port. Before the first flit the host streams the gossip image (torx_gossip_pkg),
// word 0 first, one word per cycle with cfg_valid_i (gaps allowed), and raises cfg_last_i with the
// last word (the checksum). The loader (the word counter, checksum and verdict of torx_cfg_loader,
// the decoding here) checks the header (magic, version, dimensions against
// NumDims, the rule count against MaxRules, the node word against node_id_i, the deliver mask
// against the 2N network ports), every rule (bits 31:16 of its first word zero, both ports network
// ports, a window hmin..hmax with 1 <= hmin <= hmax), the length and the checksum, and writes the
// rules into their registers. In the cycle after the last word, either cfg_done_o or cfg_error_o is
// 1 (and stays so until the next image or reset); cfg_error_code_o / cfg_error_word_o say why and where, with
// the C++ loader's precedence: magic, version, dimensions (and the rule count), then the length,
// then the checksum, then the first other error in word order. The C++ loader also refuses a rule
// to a port without a link, which the RTL cannot know (it has no topology); gossip runs on tori,
// where every port has one. rst_ni clears the loader's status and the rules: a reset router needs
// its image again (the harness reloads it).
//
// Lookup, combinational, per network input port l: the output ports (bit per network port) of the
// rules for input l whose window holds the age on lk_age_i, and the deliver bit of l.
//
// Parameters:
//   NumDims   N, network dimensions (2N network ports)
//   MaxRules  rule registers: the largest rule count an image may have
`include "torx_pkg.sv"
`include "torx_gossip_pkg.sv"
`include "torx_cfg_loader.sv"

module torx_gossip_unit #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned MaxRules = 32,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned AgeW = torx_gossip_pkg::GossipAgeW,
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [31:0]                     node_id_i,         // static: this router's node id
  // Configuration port (any cycle before the first flit).
  input  logic                            cfg_valid_i,       // cycle t: cfg_data_i is the next image word
  input  logic [31:0]                     cfg_data_i,
  input  logic                            cfg_last_i,        // cycle t: it is the last word
  output logic                            cfg_done_o,        // from the cycle after the last word: accepted
  output logic                            cfg_error_o,       // from the cycle after the last word: refused
  output logic [CfgWordW-1:0]             cfg_error_word_o,  // with cfg_error_o: the word at fault
  output logic [torx_pkg::CfgErrW-1:0]    cfg_error_code_o,  // with cfg_error_o: torx_gossip_pkg::GossipErr*
  // Lookups, combinational.
  input  logic [NumNetPorts*AgeW-1:0]     lk_age_i,          // cycle t: age of the packet at network input l
  output logic [NumNetPorts*NumNetPorts-1:0] lk_fwd_o,       // cycle t: its network outputs (bit per port)
  output logic [NumNetPorts-1:0]          deliver_o          // static after the load: deliver mask
);

  localparam int unsigned NetPortW = torx_pkg::clog2w(NumNetPorts);
  localparam int unsigned RuleIdxW = torx_pkg::clog2w(MaxRules);
  localparam int unsigned ErrW = torx_pkg::CfgErrW;

  // --- rule registers (the fields are not reset: rule_valid_q qualifies them) ---
  logic [MaxRules-1:0] rule_valid_q;
  logic [MaxRules*NetPortW-1:0] rule_in_q, rule_out_q;
  logic [MaxRules*AgeW-1:0] rule_hmin_q, rule_hmax_q;
  logic [NumNetPorts-1:0] deliver_q;

  // --- loader: the word counter, checksum and verdict are torx_cfg_loader's; the decoding here ---
  logic [CfgWordW-1:0] word_q;          // index of the word on cfg_data_i (torx_cfg_loader)
  logic [23:0] rules_q;                 // R from word 2

  // The word arriving now, decoded.
  logic [31:0] last_idx;                // index of the checksum word: 5 + 2R
  logic in_rules, rule_first;
  logic [31:0] rule_off;
  logic [RuleIdxW-1:0] rule_idx;
  logic w_err;
  logic [ErrW-1:0] w_code;

  assign last_idx = 32'(torx_gossip_pkg::GossipHeaderWords) + 2 * 32'(rules_q);
  assign in_rules = 32'(word_q) >= torx_gossip_pkg::GossipHeaderWords && 32'(word_q) < last_idx;
  assign rule_off = 32'(word_q) - torx_gossip_pkg::GossipHeaderWords;
  assign rule_first = ~rule_off[0];
  assign rule_idx = RuleIdxW'(rule_off >> 1);

  torx_cfg_loader #(
    .Checksum   (1'b1),
    .HeaderWords(3),      // magic, version, dimensions and rule count: they outrank the length
    .HeaderFirst(1'b1)
  ) u_cfg_loader (
    .clk_i,
    .rst_ni,
    .cfg_valid_i,
    .cfg_data_i,
    .cfg_last_i,
    .word_o    (word_q),
    .word_err_i(w_err ? w_code : ErrW'(torx_pkg::CfgOk)),
    .len_ok_i  (32'(word_q) >= 3 && 32'(word_q) == last_idx),
    .cfg_done_o,
    .cfg_error_o,
    .cfg_error_word_o,
    .cfg_error_code_o
  );

  // The error of the word arriving now.
  always_comb begin
    w_err = 1'b0;
    w_code = torx_gossip_pkg::GossipErrLength;
    if (32'(word_q) == 0) begin
      w_err = cfg_data_i != torx_gossip_pkg::GossipMagic;
      w_code = torx_gossip_pkg::GossipErrMagic;
    end else if (32'(word_q) == 1) begin
      w_err = cfg_data_i != torx_gossip_pkg::GossipVersion;
      w_code = torx_gossip_pkg::GossipErrVersion;
    end else if (32'(word_q) == 2) begin
      w_err = 32'(cfg_data_i[7:0]) != NumDims || 32'(cfg_data_i[31:8]) > MaxRules;
      w_code = (32'(cfg_data_i[7:0]) != NumDims) ? torx_gossip_pkg::GossipErrDims
                                                   : torx_gossip_pkg::GossipErrRules;
    end else if (32'(word_q) == 3) begin
      w_err = cfg_data_i != node_id_i;
      w_code = torx_gossip_pkg::GossipErrNode;
    end else if (32'(word_q) == 4) begin
      w_err = (cfg_data_i >> NumNetPorts) != '0;
      w_code = torx_gossip_pkg::GossipErrMask;
    end else if (in_rules && rule_first) begin
      if (cfg_data_i[31:16] != '0) begin
        w_err = 1'b1;
        w_code = torx_gossip_pkg::GossipErrReserved;
      end else if (32'(cfg_data_i[7:0]) >= NumNetPorts || 32'(cfg_data_i[15:8]) >= NumNetPorts) begin
        w_err = 1'b1;
        w_code = torx_gossip_pkg::GossipErrPort;
      end
    end else if (in_rules) begin
      w_err = cfg_data_i[15:0] == '0 || cfg_data_i[15:0] > cfg_data_i[31:16];
      w_code = torx_gossip_pkg::GossipErrWindow;
    end
  end

  // The image's fields into their registers.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rules_q <= '0;
      rule_valid_q <= '0;
      deliver_q <= '0;
    end else if (cfg_valid_i) begin
      if (32'(word_q) == 2) rules_q <= cfg_data_i[31:8];
      if (32'(word_q) == 4) deliver_q <= NumNetPorts'(cfg_data_i);
      if (in_rules && 32'(rule_idx) < MaxRules) begin
        if (rule_first) begin
          rule_in_q[rule_idx*NetPortW +: NetPortW] <= NetPortW'(cfg_data_i[7:0]);
          rule_out_q[rule_idx*NetPortW +: NetPortW] <= NetPortW'(cfg_data_i[15:8]);
        end else begin
          rule_hmin_q[rule_idx*AgeW +: AgeW] <= cfg_data_i[15:0];
          rule_hmax_q[rule_idx*AgeW +: AgeW] <= cfg_data_i[31:16];
          rule_valid_q[rule_idx] <= 1'b1;
        end
      end
    end
  end

  assign deliver_o = deliver_q;

  // --- lookups ---
  for (genvar l = 0; l < NumNetPorts; l++) begin : gen_lookup
    logic [AgeW-1:0] age;
    logic [NumNetPorts-1:0] fwd;
    assign age = lk_age_i[l*AgeW +: AgeW];
    always_comb begin
      fwd = '0;
      for (int unsigned r = 0; r < MaxRules; r++) begin
        for (int unsigned o = 0; o < NumNetPorts; o++) begin
          if (rule_valid_q[r] && rule_in_q[r*NetPortW +: NetPortW] == NetPortW'(l) &&
              rule_out_q[r*NetPortW +: NetPortW] == NetPortW'(o) &&
              age >= rule_hmin_q[r*AgeW +: AgeW] && age <= rule_hmax_q[r*AgeW +: AgeW]) begin
            fwd[o] = 1'b1;
          end
        end
      end
    end
    assign lk_fwd_o[l*NumNetPorts +: NumNetPorts] = fwd;
  end

`ifndef SYNTHESIS
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_gossip_unit: NumDims %0d not in 1..15", NumDims);
    if (MaxRules < 1) $fatal(1, "torx_gossip_unit: MaxRules must be at least 1");
  end
`endif

endmodule
