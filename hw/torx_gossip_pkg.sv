// SPDX-License-Identifier: Apache-2.0
// torx_gossip_pkg: constants of the gossip-mode router (torx_gossip_router, torx_gossip_unit;
// docs/gossip.md, "Hardwired forwarding"; docs/rtl.md, "The gossip router").
//
// The gossip image (format version 1, 32-bit words; models/gossip_table.hpp):
//   word 0      magic 0x54585247 ("TRXG")
//   word 1      version = 1
//   word 2      bits 7:0 D (dimensions), bits 31:8 R (number of rules)
//   word 3      node id
//   word 4      deliver mask: bit i = packets arriving through input port i are handed to the node
//   words 5 ..  R rules, two words each: [in_port 7:0 | out_port 15:8 | 0], [hmin 15:0 | hmax 31:16]
//   last word   checksum: the sum of all words, this one included, is 0 mod 2^32
//
// The gossip flit on the wires is torx_router's flit (torx_pkg: header, then data) with this
// extension in the data, between the payload and the simulation tag (torx_pkg::flit_w with
// ext_w = ext_w(N); the extension starts at data bit 8*FlitBytes):
//   [GossipExtBit]                   gossip: the flit belongs to a gossip packet (C++ kFlitGossip)
//   [GossipExtAge +: GossipAgeW]     age: links the packet has crossed (C++ Flit::dest in a gossip head)
//   [GossipExtMask +: 2N]            output mask of an injected packet (C++ Flit::neg_mask)
// (offsets relative to the extension's first bit). The plain header fields dest and neg_mask are
// not used by gossip packets and travel as zeros; there is one priority level (no prio field).
`ifndef TORX_GOSSIP_PKG_SV_
`define TORX_GOSSIP_PKG_SV_

package torx_gossip_pkg;

  localparam logic [31:0] GossipMagic = 32'h5458_5247;  // "TRXG"
  localparam logic [31:0] GossipVersion = 32'd1;
  localparam int unsigned GossipHeaderWords = 5;        // magic, version, shape, node, deliver mask
  localparam int unsigned GossipAgeW = 16;               // ages and windows (the image's 16-bit fields)
  localparam int unsigned GossipPrologue = 1;            // start_dim of a prologue packet

  // The flit extension.
  localparam int unsigned GossipExtBit = 0;
  localparam int unsigned GossipExtAge = 1;
  localparam int unsigned GossipExtMask = GossipExtAge + GossipAgeW;
  // Bits of the extension for a router of `num_dims` dimensions.
  function automatic int unsigned ext_w(input int unsigned num_dims);
    ext_w = GossipExtMask + 2 * num_dims;
  endfunction

  // Why the loader refused an image (cfg_error_code_o): torx_pkg::cfg_err_e where the meaning is
  // the same, and two of the gossip image's own (torx_cfg_loader gives CfgErrChecksum, 4, itself).
  localparam logic [3:0] GossipErrLength = 4'd1;    // cfg_last_i not on word 5 + 2R (word = words seen)
  localparam logic [3:0] GossipErrMagic = 4'd2;     // word 0
  localparam logic [3:0] GossipErrVersion = 4'd3;   // word 1
  localparam logic [3:0] GossipErrDims = 4'd5;      // word 2: dimensions differ from NumDims
  localparam logic [3:0] GossipErrRules = 4'd8;     // word 2: more rules than MaxRules
  localparam logic [3:0] GossipErrNode = 4'd9;      // word 3 is not node_id_i
  localparam logic [3:0] GossipErrReserved = 4'd11; // a rule's first word has bits 31:16 set
  localparam logic [3:0] GossipErrPort = 4'd12;     // a rule names a port that is not a network port
  localparam logic [3:0] GossipErrMask = 4'd14;     // word 4 names ports the router does not have
  localparam logic [3:0] GossipErrWindow = 4'd15;   // a rule's age window is empty or starts at 0

endpackage

`endif  // TORX_GOSSIP_PKG_SV_
