// SPDX-License-Identifier: Apache-2.0
// torx_barrier: the barrier unit of one node (C++ twin: BarrierUnit, models/barrier.hpp, behind the
// BarrierCore boundary of models/barrier_core.hpp): gather up a spanning tree, release down it.
// The wires between units, their hop latencies and the equalisation pads belong to the network,
// not to the unit (docs/timing-contract.md, "Barrier network"); the unit reports its pad on pad_o
// for whoever builds those wires.
//
// Configuration port: the barrier image of docs/routing-tables.md (3 words: magic, child mask,
// parent port | pad << 8), one word per cycle with cfg_valid_i, cfg_last_i with the last; the word
// counter and the verdict are torx_cfg_loader's (no checksum), the decoding is here. Refused
// (cfg_error_o, with cfg_error_code_o / cfg_error_word_o as torx_routing_unit) like the C++ loader:
// a length other than 3, a wrong magic, a child mask naming a port beyond 2*NumDims, a parent port
// that is neither below 2*NumDims nor 0xFF (root). Whether a named port has a neighbour (a mesh
// edge) needs the topology and is left to the host, as is the pad's value. rst_ni clears the
// configuration: a reset unit needs its image again.
//
// Cycle contract, cycle t (a configured unit):
//   gathered = gathered_q + entry_i + (number of children in gather_i that are in the child mask);
//   if gathered reaches children + 1 (the node's own entry and every child), the episode is
//   complete: gathered_q returns to 0, and from the end of t gather_o pulses (not the root) or
//   release_o pulses (the root); otherwise gathered_q = gathered from the end of t. A release_i in
//   t pulses release_o from the end of t (to every child and the node's interface).
// Register: gathered_q, the pulses counted in the current episode (snapshot name).
//
// Parameters:
//   NumDims  N: 2N network ports (bit p of masks = port p, in Topology::port order)
`include "torx_pkg.sv"
`include "torx_cfg_loader.sv"

module torx_barrier #(
  parameter int unsigned NumDims = 2,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned CountW = $clog2(NumNetPorts + 2),
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Configuration port.
  input  logic                          cfg_valid_i,       // cycle t: cfg_data_i is the next word
  input  logic [31:0]                   cfg_data_i,
  input  logic                          cfg_last_i,        // cycle t: it is the last word
  output logic                          cfg_done_o,        // after the last word: accepted
  output logic                          cfg_error_o,       // after the last word: refused ...
  output logic [CfgWordW-1:0]           cfg_error_word_o,  // ... at this word ...
  output logic [torx_pkg::CfgErrW-1:0]  cfg_error_code_o,  // ... for this reason
  output logic [NumNetPorts-1:0]        child_mask_o,      // static after configuration
  output logic [7:0]                    parent_port_o,     // static: parent port or 0xFF (root)
  output logic [23:0]                   pad_o,             // static: equalisation pad in tree hops
  // Barrier wires (cycle t in; registered out).
  input  logic                          entry_i,           // the node's interface entered the barrier
  input  logic [NumNetPorts-1:0]        gather_i,          // bit p: the child behind port p completed
  input  logic                          release_i,         // the parent's release arrives
  output logic                          gather_o,          // registered: this subtree completed in t
  output logic                          release_o          // registered: released in t
);

  // --- loader: the word counter and verdict are torx_cfg_loader's (no checksum); the decoding here ---
  logic [CfgWordW-1:0] word_q;              // index of the word on cfg_data_i (torx_cfg_loader)
  logic [torx_pkg::CfgErrW-1:0] cur_err;    // error found in the current word
  logic done_q;                             // the image was accepted
  logic [NumNetPorts-1:0] child_mask_q, child_mask_d;
  logic [7:0] parent_q, parent_d;
  logic [23:0] pad_q, pad_d;
  logic [31:0] mask_word;

  torx_cfg_loader #(
    .Checksum   (1'b0),
    .HeaderWords(1),      // the magic
    .HeaderFirst(1'b0)
  ) u_cfg_loader (
    .clk_i,
    .rst_ni,
    .cfg_i     ({cfg_valid_i, cfg_data_i, cfg_last_i}),
    .word_o    (word_q),
    .word_err_i(cur_err),
    .len_ok_i  (word_q == CfgWordW'(2)),  // three words
    .cfg_o     ({done_q, cfg_error_o, cfg_error_word_o, cfg_error_code_o})
  );

  always_comb begin
    child_mask_d = child_mask_q;
    parent_d = parent_q;
    pad_d = pad_q;
    cur_err = torx_pkg::CfgOk;
    mask_word = cfg_data_i;
    if (cfg_valid_i) begin
      if (word_q == '0) begin
        if (cfg_data_i != torx_pkg::BarrierMagic) cur_err = torx_pkg::CfgErrMagic;
      end else if (word_q == CfgWordW'(1)) begin
        if (NumNetPorts < 32 && (mask_word >> NumNetPorts) != 32'd0) cur_err = torx_pkg::CfgErrMask;
        child_mask_d = mask_word[NumNetPorts-1:0];
      end else if (word_q == CfgWordW'(2)) begin
        if (cfg_data_i[7:0] != torx_pkg::BarrierRoot && 32'(cfg_data_i[7:0]) >= NumNetPorts)
          cur_err = torx_pkg::CfgErrPort;
        parent_d = cfg_data_i[7:0];
        pad_d = cfg_data_i[31:8];
      end
    end
  end

  // --- gather and release ---
  logic [CountW-1:0] gathered_q /*verilator public_flat_rd*/, gathered_d;
  logic [CountW-1:0] gathered, expected;
  logic complete, root, gather_q, gather_d, release_q, release_d;

  assign root = (parent_q == torx_pkg::BarrierRoot);
  assign expected = CountW'($countones(child_mask_q)) + CountW'(1);
  assign gathered = gathered_q + CountW'($countones(gather_i & child_mask_q)) + CountW'(entry_i);
  assign complete = done_q && (gathered == expected);
  assign gathered_d = !done_q ? '0 : complete ? '0 : gathered;
  assign gather_d = complete && !root;
  assign release_d = done_q && ((complete && root) || release_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      child_mask_q <= '0;
      parent_q <= torx_pkg::BarrierRoot;
      pad_q <= '0;
      gathered_q <= '0;
      gather_q <= 1'b0;
      release_q <= 1'b0;
    end else begin
      child_mask_q <= child_mask_d;
      parent_q <= parent_d;
      pad_q <= pad_d;
      gathered_q <= gathered_d;
      gather_q <= gather_d;
      release_q <= release_d;
    end
  end

  assign cfg_done_o = done_q;
  assign child_mask_o = child_mask_q;
  assign parent_port_o = parent_q;
  assign pad_o = pad_q;
  assign gather_o = gather_q;
  assign release_o = release_q;

`ifndef SYNTHESIS
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_barrier: NumDims %0d not in 1..15", NumDims);
  end
  // More pulses than children + 1 in an episode: a child or the interface pulsed twice.
  always_ff @(posedge clk_i) begin
    if (rst_ni && done_q) begin
      assert (gathered <= expected) else $error("torx_barrier: gathered %0d pulses of %0d", gathered, expected);
    end
  end
`endif

  `include "props/torx_barrier_props.svh"  // docs/verification.md, "Properties"

endmodule
