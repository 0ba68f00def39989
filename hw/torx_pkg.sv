// SPDX-License-Identifier: Apache-2.0
// torx_pkg: types, constants and width helpers shared by the torx router RTL (hw/).
//
// Behaviour, cycle by cycle, is docs/timing-contract.md; the routing-table and barrier images the
// loaders parse are docs/routing-tables.md; docs/rtl.md maps every module to its C++ twin in models/.
//
// Constructs are limited to what both Verilator 5.006 and yosys 0.23 (`read_verilog -sv`) accept:
// no `import` (names are always package-scoped), no packed arrays of more than one dimension (flat
// vectors sliced with `+:`), no `return` in functions, no type casts (size casts only), no `$bits` of a type.
//
// The flit on a wire (docs/rtl.md, "The flit on the wires") is a flat vector of flit_w(...) bits:
// a header of hdr_w(...) bits, least significant field first, then opaque data a router carries
// from input to output untouched:
//   vc         VcW = clog2w(C*V)    the VC on this link (local ports: VC 0); credit_vc's width
//   head       1                    first flit of its worm
//   tail       1                    last flit of its worm (a one-flit worm has both)
//   start_dim  SdW = clog2w(N)      route class: first dimension of the cyclic dimension order
//   prio       PrioW = clog2(K)     priority level, the lane (absent when K = 1)
//   neg_mask   N                    route class: bit d set = travel dimension d negative
//   dest       N*CW                 destination, coordinate of dimension d at bits d*CW +: CW
//   la_port    LaPortW = clog2w(2N)+2  lookahead organization only (Pipeline = 1, else absent): the
//                                   route at the router the head enters: {none, eject, port}
//   la_class   clog2w(C)            lookahead only: its VC class
//   -- data (DataW bits, opaque) --
//   payload    8*FlitBytes          C++ payload word i at bits 64*i +: 64
//   extension  ExtW                 the gossip router's (torx_gossip_pkg), 0 bits elsewhere
//   tag        TagW = 64 * SimTag   {seq, msg} of the C++ flit: simulation only (absent when SimTag = 0)
// Every flit carries the header fields as its sender wrote them (the head's are the ones a router
// reads; body and tail flits carry them untouched, so the C++ <-> wire conversion stays lossless).
// A router reads the header and never looks into the data: the header's offsets below are all it
// needs (a foreign router needs only HdrW and DataW). Zero-width fields do not exist: modules read
// them under generate-if, never with a `+: 0` slice.
//
// Every file that uses the package includes it (`include "torx_pkg.sv", guarded), so that the files
// can be given to a tool in any order: the lint hook passes them sorted by name, and a package must
// be declared before its first use.
`ifndef TORX_PKG_SV_
`define TORX_PKG_SV_

package torx_pkg;

  // Bits to index `n` things, at least 1 (a one-entry index is a constant-zero bit).
  function automatic int unsigned clog2w(input int unsigned n);
    clog2w = (n <= 1) ? 1 : $clog2(n);
  endfunction

  // --- the flit (header fields, then data) --------------------------------------------------------
  // Widths, from the router's shape: `num_dims` N, `net_vcs` C*V, `levels` K, `coord_w` CW.
  localparam int unsigned HdrVc = 0;   // the VC field is the flit's lowest bits
  localparam int unsigned TagW = 64;   // the tag's width when SimTag = 1
  function automatic int unsigned vc_w(input int unsigned net_vcs);
    vc_w = clog2w(net_vcs);
  endfunction
  function automatic int unsigned sd_w(input int unsigned num_dims);
    sd_w = clog2w(num_dims);
  endfunction
  function automatic int unsigned prio_w(input int unsigned levels);
    prio_w = (levels > 1) ? $clog2(levels) : 0;
  endfunction
  // Offsets of the header fields.
  function automatic int unsigned hdr_head(input int unsigned net_vcs);
    hdr_head = vc_w(net_vcs);
  endfunction
  function automatic int unsigned hdr_tail(input int unsigned net_vcs);
    hdr_tail = vc_w(net_vcs) + 1;
  endfunction
  function automatic int unsigned hdr_start(input int unsigned net_vcs);
    hdr_start = vc_w(net_vcs) + 2;
  endfunction
  function automatic int unsigned hdr_prio(input int unsigned num_dims, input int unsigned net_vcs);
    hdr_prio = hdr_start(net_vcs) + sd_w(num_dims);
  endfunction
  function automatic int unsigned hdr_neg(input int unsigned num_dims, input int unsigned net_vcs,
                                          input int unsigned levels);
    hdr_neg = hdr_prio(num_dims, net_vcs) + prio_w(levels);
  endfunction
  function automatic int unsigned hdr_dest(input int unsigned num_dims, input int unsigned net_vcs,
                                           input int unsigned levels);
    hdr_dest = hdr_neg(num_dims, net_vcs, levels) + num_dims;
  endfunction
  // The lookahead route (docs/timing-contract.md, "Lookahead"), the header's last fields, present
  // only in the lookahead organization (`pipeline` = 1; 0 single, 2 classic): la_port is
  // {none, eject, network port} (bits clog2w(2N) + 1 and clog2w(2N): no route, eject; else the port),
  // la_class the VC class (C = `num_classes`).
  localparam int unsigned PipeSingle = 0;
  localparam int unsigned PipeLookahead = 1;
  localparam int unsigned PipeClassic = 2;
  function automatic int unsigned la_port_w(input int unsigned num_dims);
    la_port_w = clog2w(2 * num_dims) + 2;
  endfunction
  function automatic int unsigned la_w(input int unsigned num_dims, input int unsigned num_classes,
                                       input int unsigned pipeline);
    la_w = (pipeline == PipeLookahead) ? la_port_w(num_dims) + clog2w(num_classes) : 0;
  endfunction
  // Bits of the header up to dest; the lookahead fields, when present, follow at this offset (a
  // lookahead router's header is hdr_w(...) + la_w(...) bits).
  function automatic int unsigned hdr_w(input int unsigned num_dims, input int unsigned coord_w,
                                        input int unsigned net_vcs, input int unsigned levels);
    hdr_w = hdr_dest(num_dims, net_vcs, levels) + num_dims * coord_w;
  endfunction
  // Bits of the data: payload, `ext_w` bits of extension, the tag when `sim_tag` is 1. The payload
  // starts at the data's bit 0, the extension at 8*flit_bytes, the tag at 8*flit_bytes + ext_w.
  function automatic int unsigned data_w(input int unsigned flit_bytes, input int unsigned ext_w,
                                         input int unsigned sim_tag);
    data_w = 8 * flit_bytes + ext_w + ((sim_tag != 0) ? TagW : 0);
  endfunction
  // Bits of a flit.
  function automatic int unsigned flit_w(input int unsigned num_dims, input int unsigned coord_w,
                                         input int unsigned net_vcs, input int unsigned levels,
                                         input int unsigned flit_bytes, input int unsigned ext_w,
                                         input int unsigned sim_tag);
    flit_w = hdr_w(num_dims, coord_w, net_vcs, levels) + data_w(flit_bytes, ext_w, sim_tag);
  endfunction

  // --- router sizes (N dimensions, K local ports, C x V VCs per network port, L lanes per VC) -------
  // Ports: 2N network + K local.
  function automatic int unsigned num_ports(input int unsigned num_dims, input int unsigned num_local);
    num_ports = 2 * num_dims + num_local;
  endfunction

  // VCs of the whole router: C x V on each network port, one on each local port.
  function automatic int unsigned total_vcs(input int unsigned num_dims, input int unsigned num_local,
                                            input int unsigned net_vcs);
    total_vcs = 2 * num_dims * net_vcs + num_local;
  endfunction

  // Lanes (VC x priority level) of the whole router.
  function automatic int unsigned total_lanes(input int unsigned num_dims, input int unsigned num_local,
                                              input int unsigned net_vcs, input int unsigned levels);
    total_lanes = total_vcs(num_dims, num_local, net_vcs) * levels;
  endfunction

  // --- input VC state (ivc_state_q) ---------------------------------------------------------------
  localparam int unsigned IvcStateW = 2;
  typedef enum logic [IvcStateW-1:0] {
    IvcIdle   = 2'd0,   // no worm: a head at the front is routed in stage P
    IvcWaitVc = 2'd1,   // routed, waiting for an output VC
    IvcActive = 2'd2    // owns ivc_out_vc_q on ivc_out_port_q
  } ivc_state_e;

  // --- routing-table image (docs/routing-tables.md) -----------------------------------------------
  localparam logic [31:0] RouteMagic = 32'h5458_5254;  // "TRXT"
  localparam logic [31:0] RouteVersion = 32'd1;
  localparam logic [7:0] RouteSkip = 8'hFE;
  localparam logic [7:0] RouteInvalid = 8'hFF;
  localparam int unsigned RouteHeaderWords = 4;        // magic, version, shape, node; then radices

  // --- barrier image ------------------------------------------------------------------------------
  localparam logic [31:0] BarrierMagic = 32'h5458_5242;  // "TRXB"
  localparam logic [7:0] BarrierRoot = 8'hFF;

  // --- configuration port -------------------------------------------------------------------------
  // Words are counted from 0 on CfgWordW bits (saturating): 65535 words is far above any image.
  localparam int unsigned CfgWordW = 16;
  localparam int unsigned CfgErrW = 4;
  // The port between a unit and its loader (torx_cfg_loader): the host's word stream in, the verdict
  // out. The Verilated tops (torx_router, torx_gossip_router, torx_barrier) keep it as flat cfg_*
  // ports, the names the C++ harness drives (hw/verilated_harness.hpp), and pack it for their unit.
  typedef struct packed {
    logic        valid;  // cycle t: data is the next image word (gaps allowed)
    logic [31:0] data;
    logic        last;   // cycle t: it is the image's last word
  } cfg_req_t;
  typedef struct packed {
    logic                done;   // from the cycle after the last word: image accepted
    logic                error;  // from the cycle after the last word: image refused ...
    logic [CfgWordW-1:0] word;   // ... at this word ...
    logic [CfgErrW-1:0]  code;   // ... for this reason (cfg_err_e; gossip: torx_gossip_pkg::GossipErr*)
  } cfg_rsp_t;
  // Why an image was refused (cfg_rsp_t.code); the word is in cfg_rsp_t.word.
  typedef enum logic [CfgErrW-1:0] {
    CfgOk          = 4'd0,
    CfgErrLength   = 4'd1,   // cfg_last_i on a word that is not the image's last (word = words seen)
    CfgErrMagic    = 4'd2,   // word 0
    CfgErrVersion  = 4'd3,   // word 1
    CfgErrChecksum = 4'd4,   // the words do not sum to 0 mod 2^32 (word = the last)
    CfgErrDims     = 4'd5,   // shape word: dimensions differ from NumDims
    CfgErrDateline = 4'd6,   // shape word: dateline classes not 1 or 2
    CfgErrOrder    = 4'd7,   // shape word: order classes not 1 .. dimensions
    CfgErrShape    = 4'd8,   // shape word: classes or all-port bit differ from NumClasses/NumLocal
    CfgErrNode     = 4'd9,   // word 3 is not node_id_i
    CfgErrRadix    = 4'd10,  // a radix word is 0 or above MaxRadix
    CfgErrReserved = 4'd11,  // an entry has bits 31:16 set
    CfgErrPort     = 4'd12,  // an entry names a port that does not exist (barrier: parent port)
    CfgErrClass    = 4'd13,  // an entry's VC class is not below the dateline classes
    CfgErrMask     = 4'd14   // barrier: the child mask names ports the unit does not have
  } cfg_err_e;

endpackage

`endif  // TORX_PKG_SV_
