// SPDX-License-Identifier: Apache-2.0
// torx_routing_unit: the routing table of one router (C++ twin: RoutingUnit, models/routing_table.hpp):
// the image loader behind the configuration port, the table RAM, and one lookup per input port.
//
// Configuration port. Before the first flit the host streams the routing image of
// docs/routing-tables.md, word 0 first, one word per cycle with cfg_i.valid (gaps allowed), and
// raises cfg_i.last with the last word (the checksum). The loader (the word counter, checksum and
// verdict of torx_cfg_loader, the decoding here) checks the header (magic, version,
// shape word against NumDims / NumClasses / NumLocal, node word against node_id_i, radices between
// 1 and MaxRadix), every entry (bits 31:16 zero, port below 2*NumDims or skip/invalid, class below
// the dateline classes), the length and the checksum, and writes the entries into the table. In the
// cycle after the last word, either cfg_done_o or cfg_error_o is 1 (and stays so until the next
// load); cfg_error_code_o / cfg_error_word_o say why and where, with the C++ loader's precedence:
// length, then magic and version, then the checksum, then the first other error in word order.
// The C++ loader also checks the radices against the topology, which the RTL does not know (it gets
// coordinates, not node ids); a wrong radix shows up as a length or checksum error instead.
// rst_ni clears the loader's status, not the table RAM: a reset router needs its image again (the
// harness reloads it, so that RouterCore::reset() keeps the table as its contract says).
//
// Lookup (docs/routing-tables.md, "How the router reads it"), combinational, one per input port l:
// walk k = 0 .. NumDims-1 over d = (start_dim + k) mod NumDims, read entry (d, dest_d, neg_mask_d),
// take the first entry that is not a skip: its port and class = entry class + C_d * min(k, C_o - 1).
// If every dimension skips the worm ejects: on channel 0, or with NumLocal > 1 on the channel of
// the input direction (2N + l for network input l, channel 0 for an injection input). An invalid
// entry sets the route's invalid bit (and routes to ejection channel 0, so the hardware never
// holds an undefined port); the router reports it on route_error_o.
// The router looks up every flit as it enters its VC buffer (the table does not change during a
// run, so this is the route stage P would compute; docs/rtl.md, "Where the registers sit").
//
// Parameters:
//   NumDims     N, network dimensions (2N network ports)
//   NumLocal    K, local ports (1 one-port, 2N all-port)
//   NumClasses  C = dateline classes x order classes; must equal the image's C_d x C_o
//   MaxRadix    largest radix per dimension the table holds
//   NumLookups  lookup ports: NumPorts (one per input port, the default), or 1 for a lookahead
//               table (torx_router, Pipeline = 1: the neighbour's table behind an output port)
`include "torx_pkg.sv"
`include "torx_cfg_loader.sv"

module torx_routing_unit #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned NumLookups = 2 * NumDims + NumLocal,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = torx_pkg::num_ports(NumDims, NumLocal),
  localparam int unsigned CoordW = torx_pkg::clog2w(MaxRadix),
  localparam int unsigned PortW = torx_pkg::clog2w(NumPorts),
  localparam int unsigned ClassW = torx_pkg::clog2w(NumClasses),
  localparam int unsigned RouteW = PortW + ClassW + 1,
  localparam int unsigned StartDimW = torx_pkg::sd_w(NumDims),
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [31:0]                      node_id_i,         // static: this router's node id
  // Configuration port (any cycle before the first flit).
  input  torx_pkg::cfg_req_t               cfg_i,             // the host's image words (torx_cfg_loader)
  output torx_pkg::cfg_rsp_t               cfg_o,             // registered: the loader's verdict
  // Lookups, combinational: header fields of the flit entering input port l's buffer in cycle t.
  input  logic [NumLookups*NumDims*CoordW-1:0] lk_dest_i,     // cycle t: destination coordinates
  input  logic [NumLookups*NumDims-1:0]    lk_neg_i,          // cycle t: neg_mask
  input  logic [NumLookups*StartDimW-1:0]  lk_start_i,        // cycle t: start_dim
  output logic [NumLookups*RouteW-1:0]     lk_route_o         // cycle t: {invalid, class, port} per lookup
);

  localparam int unsigned NetPortW = torx_pkg::clog2w(NumNetPorts);
  localparam int unsigned DimW = torx_pkg::clog2w(NumDims);
  localparam int unsigned DimEntries = 2 * (1 << CoordW);  // (coordinate, sign); any coordinate fits
  localparam int unsigned TableEntries = NumDims * DimEntries;
  localparam int unsigned IdxW = torx_pkg::clog2w(DimEntries);
  localparam int unsigned RadixW = $clog2(MaxRadix + 1);
  // A table entry: {invalid, skip, dateline class, network port}.
  localparam int unsigned EntryW = NetPortW + 3;
  localparam int unsigned EPort = 0;
  localparam int unsigned EClass = NetPortW;
  localparam int unsigned ESkip = NetPortW + 1;
  localparam int unsigned EInvalid = NetPortW + 2;

  // ---------------------------------------------------------------------------------------------
  // Loader: the word counter, checksum and verdict are torx_cfg_loader's; the decoding is here
  // ---------------------------------------------------------------------------------------------
  logic [CfgWordW-1:0] word_q;                     // index of the word on cfg_i.data (torx_cfg_loader)
  logic radix_err_q, radix_err_d;                  // a radix word was refused: the length is unknown
  logic [NumDims*RadixW-1:0] radix_q, radix_d;
  logic [CfgWordW-1:0] end_word_q, end_word_d;     // index of the checksum word
  logic [DimW-1:0] dim_q, dim_d;                   // entry being read: dimension ...
  logic [IdxW-1:0] idx_q, idx_d;                   // ... and 2 * coordinate + sign
  logic entries_done_q, entries_done_d;
  logic two_dl_q, two_dl_d;                        // C_d = 2
  logic [DimW-1:0] order_max_q, order_max_d;       // C_o - 1

  logic [EntryW-1:0] table_q [TableEntries];      // the routing table RAM (not reset)
  logic table_we;
  logic [EntryW-1:0] table_wdata;
  logic [$clog2(TableEntries)-1:0] table_waddr;

  // What the current word is.
  logic in_radix, in_entries;
  logic [DimW-1:0] radix_dim;
  logic [RadixW-1:0] cur_radix;                    // radix of the dimension whose entries are read
  logic [torx_pkg::CfgErrW-1:0] cur_err;          // error found in the current word
  logic len_ok;                                    // with the last word: the length is right
  logic [7:0] e_port, e_class, dims, dl, oc;

  torx_cfg_loader #(
    .Checksum   (1'b1),
    .HeaderWords(2),      // magic and version outrank the checksum
    .HeaderFirst(1'b0)
  ) u_cfg_loader (
    .clk_i,
    .rst_ni,
    .cfg_i,
    .word_o    (word_q),
    .word_err_i(cur_err),
    .len_ok_i  (len_ok),
    .cfg_o
  );

  always_comb begin
    radix_err_d = radix_err_q;
    radix_d = radix_q;
    end_word_d = end_word_q;
    dim_d = dim_q;
    idx_d = idx_q;
    entries_done_d = entries_done_q;
    two_dl_d = two_dl_q;
    order_max_d = order_max_q;
    table_we = 1'b0;
    table_waddr = '0;
    table_wdata = '0;
    cur_err = torx_pkg::CfgOk;

    in_radix = (word_q >= CfgWordW'(torx_pkg::RouteHeaderWords)) &&
               (word_q < CfgWordW'(torx_pkg::RouteHeaderWords + NumDims));
    radix_dim = DimW'(word_q - CfgWordW'(torx_pkg::RouteHeaderWords));
    in_entries = (word_q >= CfgWordW'(torx_pkg::RouteHeaderWords + NumDims)) && !entries_done_q &&
                 !radix_err_q;
    cur_radix = radix_q[dim_q*RadixW +: RadixW];
    e_port = cfg_i.data[7:0];
    e_class = cfg_i.data[15:8];
    dims = cfg_i.data[7:0];
    dl = cfg_i.data[15:8];
    oc = cfg_i.data[23:16];

    if (cfg_i.valid) begin
      if (word_q == '0) begin
        // A new image: forget the previous one's decoding state.
        radix_err_d = 1'b0;
        entries_done_d = 1'b0;
        dim_d = '0;
        idx_d = '0;
        end_word_d = CfgWordW'(torx_pkg::RouteHeaderWords + NumDims);
      end
      // --- checks and decoding of the current word ---
      if (word_q == CfgWordW'(0)) begin
        if (cfg_i.data != torx_pkg::RouteMagic) cur_err = torx_pkg::CfgErrMagic;
      end else if (word_q == CfgWordW'(1)) begin
        if (cfg_i.data != torx_pkg::RouteVersion) cur_err = torx_pkg::CfgErrVersion;
      end else if (word_q == CfgWordW'(2)) begin
        if (32'(dims) != NumDims) cur_err = torx_pkg::CfgErrDims;
        else if (dl != 8'd1 && dl != 8'd2) cur_err = torx_pkg::CfgErrDateline;
        else if (oc == 8'd0 || 32'(oc) > NumDims) cur_err = torx_pkg::CfgErrOrder;
        else if (32'(dl) * 32'(oc) != NumClasses || cfg_i.data[24] != (NumLocal > 1))
          cur_err = torx_pkg::CfgErrShape;
        two_dl_d = (dl == 8'd2);
        order_max_d = DimW'(oc - 8'd1);
      end else if (word_q == CfgWordW'(3)) begin
        if (cfg_i.data != node_id_i) cur_err = torx_pkg::CfgErrNode;
      end else if (in_radix) begin
        if (cfg_i.data == 32'd0 || cfg_i.data > 32'(MaxRadix)) begin
          cur_err = torx_pkg::CfgErrRadix;
          radix_err_d = 1'b1;
        end
        radix_d[radix_dim*RadixW +: RadixW] = RadixW'(cfg_i.data);
        end_word_d = end_word_q + CfgWordW'({cfg_i.data[CfgWordW-2:0], 1'b0});
      end else if (in_entries) begin
        if (cfg_i.data[31:16] != 16'd0) cur_err = torx_pkg::CfgErrReserved;
        else if (e_port != torx_pkg::RouteSkip && e_port != torx_pkg::RouteInvalid &&
                 32'(e_port) >= NumNetPorts) cur_err = torx_pkg::CfgErrPort;
        else if (e_class >= (two_dl_q ? 8'd2 : 8'd1)) cur_err = torx_pkg::CfgErrClass;
        table_we = 1'b1;
        table_waddr = $clog2(TableEntries)'(32'(dim_q) * DimEntries + 32'(idx_q));
        table_wdata[EPort +: NetPortW] = e_port[NetPortW-1:0];
        table_wdata[EClass] = e_class[0];
        table_wdata[ESkip] = (e_port == torx_pkg::RouteSkip);
        table_wdata[EInvalid] = (e_port == torx_pkg::RouteInvalid);
        // Next entry: (dimension, 2 * coordinate + sign) in image order.
        if ({1'b0, idx_q} == IdxW'(2) * (IdxW+1)'(cur_radix) - (IdxW+1)'(1)) begin
          idx_d = '0;
          dim_d = dim_q + DimW'(1);
          if (32'(dim_q) == NumDims - 1) entries_done_d = 1'b1;
        end else begin
          idx_d = idx_q + IdxW'(1);
        end
      end
    end
    // The length: the header and the radices, then 2 x radix entries per dimension (unknown after a
    // refused radix, which then decides alone).
    len_ok = word_q >= CfgWordW'(torx_pkg::RouteHeaderWords + NumDims) &&
             (radix_err_d || word_q == end_word_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      radix_err_q <= 1'b0;
      radix_q <= '0;
      end_word_q <= '0;
      dim_q <= '0;
      idx_q <= '0;
      entries_done_q <= 1'b0;
      two_dl_q <= 1'b0;
      order_max_q <= '0;
    end else begin
      radix_err_q <= radix_err_d;
      radix_q <= radix_d;
      end_word_q <= end_word_d;
      dim_q <= dim_d;
      idx_q <= idx_d;
      entries_done_q <= entries_done_d;
      two_dl_q <= two_dl_d;
      order_max_q <= order_max_d;
    end
  end

  // The table is a RAM: written by the loader only, never reset.
  always_ff @(posedge clk_i) begin
    if (table_we) table_q[table_waddr] <= table_wdata;
  end

  // ---------------------------------------------------------------------------------------------
  // Lookups
  // ---------------------------------------------------------------------------------------------
  for (genvar l = 0; l < NumLookups; l++) begin : gen_lookup
    // Ejection channel of a worm that arrived through input l.
    localparam int unsigned EjectPort = NumNetPorts + ((NumLocal > 1 && l < NumNetPorts) ? l : 0);

    logic [NumDims*EntryW-1:0] entry;   // entry (d, dest_d, neg_d) of every dimension d
    logic [StartDimW-1:0] start;
    logic [EntryW-1:0] sel;
    logic [DimW-1:0] sel_k;             // position k of the chosen dimension in the worm's order
    logic found;
    logic [ClassW-1:0] order_pos;
    logic [RouteW-1:0] route;

    assign start = lk_start_i[l*StartDimW +: StartDimW];

    always_comb begin
      for (int unsigned d = 0; d < NumDims; d++) begin
        entry[d*EntryW +: EntryW] =
            table_q[d * DimEntries +
                    2 * 32'(lk_dest_i[(l*NumDims + d)*CoordW +: CoordW]) + 32'(lk_neg_i[l*NumDims + d])];
      end
      sel = '0;
      sel_k = '0;
      found = 1'b0;
      // Dimension order from start_dim, wrapping; the first non-skip entry wins (the loop runs from
      // the last position down, so the lowest k assigns last).
      for (int k = NumDims - 1; k >= 0; k--) begin
        for (int unsigned s = 0; s < NumDims; s++) begin
          if (32'(start) == s && !entry[((s + k) % NumDims)*EntryW + ESkip]) begin
            sel = entry[((s + k) % NumDims)*EntryW +: EntryW];
            sel_k = DimW'(k);
            found = 1'b1;
          end
        end
      end
      order_pos = (sel_k < order_max_q) ? ClassW'(sel_k) : ClassW'(order_max_q);
      route = '0;
      if (!found || sel[EInvalid]) begin
        route[PortW-1:0] = PortW'(EjectPort);
        route[RouteW-1] = found;  // invalid entry
      end else begin
        route[PortW-1:0] = PortW'(sel[EPort +: NetPortW]);
        route[PortW +: ClassW] = two_dl_q ? ClassW'({order_pos, sel[EClass]}) :
                                            ClassW'(order_pos);
      end
    end

    assign lk_route_o[l*RouteW +: RouteW] = route;
  end

`ifndef SYNTHESIS
  // Parameter checks (elaboration).
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_routing_unit: NumDims %0d not in 1..15", NumDims);
    if (NumLocal != 1 && NumLocal != 2 * NumDims)
      $fatal(1, "torx_routing_unit: NumLocal %0d is neither 1 nor 2*NumDims", NumLocal);
    if (MaxRadix < 2 || MaxRadix > 256) $fatal(1, "torx_routing_unit: MaxRadix %0d not in 2..256", MaxRadix);
  end
`endif

endmodule
