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
// The flit on a wire is a flat vector of torx_pkg::flit_w(NumDims, CoordW, FlitBytes) bits, least
// significant field first:
//   [SideW-1:0]                    sideband: VC, head, tail, start_dim, priority, tag (below)
//   [SideW +: NumDims]             neg_mask: route class, bit d set = travel dimension d negative
//   [SideW+NumDims +: NumDims*CW]  destination, coordinate of dimension d at bits d*CW +: CW
//   [.. +: 8*FlitBytes]            payload, C++ payload word i at bits 64*i +: 64
// Later issues widen the sideband (throttle-and-preempt, hardwired gossip): they add fields above
// the tag and raise SideW; every module takes the flit width from flit_w() and the field positions
// from the Side* constants, so nothing else changes.
//
// Every file that uses the package includes it (`include "torx_pkg.sv", guarded), so that the files
// can be given to a tool in any order: the lint hook passes them sorted by name, and a package must
// be declared before its first use.
`ifndef TORX_PKG_SV_
`define TORX_PKG_SV_

package torx_pkg;

  // --- flit sideband (least significant bits of every flit) ---------------------------------------
  //   [7:0]    vc         VC on this link (the output VC on the way out)
  //   [8]      head       first flit of its worm: carries the header (destination, route class)
  //   [9]      tail       last flit of its worm
  //   [13:10]  start_dim  route class: first dimension of the cyclic dimension order
  //   [21:14]  prio       priority, carried untouched
  //   [85:22]  tag        {seq, msg} of the C++ flit ([85:54] flit index in the worm, [53:22] message),
  //                       carried untouched
  localparam int unsigned VcFieldW = 8;
  localparam int unsigned StartDimW = 4;
  localparam int unsigned PrioW = 8;
  localparam int unsigned TagW = 64;
  localparam int unsigned SideVc = 0;
  localparam int unsigned SideHead = SideVc + VcFieldW;
  localparam int unsigned SideTail = SideHead + 1;
  localparam int unsigned SideStartDim = SideTail + 1;
  localparam int unsigned SidePrio = SideStartDim + StartDimW;
  localparam int unsigned SideTag = SidePrio + PrioW;
  localparam int unsigned SideW = SideTag + TagW;   // 86; later fields go above the tag

  // Bits of a flit for a router of `num_dims` dimensions, `coord_w` bits per coordinate and
  // `flit_bytes` bytes of payload.
  function automatic int unsigned flit_w(input int unsigned num_dims, input int unsigned coord_w,
                                         input int unsigned flit_bytes);
    flit_w = SideW + num_dims + num_dims * coord_w + 8 * flit_bytes;
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

  // Bits to index `n` things, at least 1 (a one-entry index is a constant-zero bit).
  function automatic int unsigned clog2w(input int unsigned n);
    clog2w = (n <= 1) ? 1 : $clog2(n);
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
