// SPDX-License-Identifier: Apache-2.0
// torx_router: the torx router, an input-queued virtual-channel wormhole router with credit flow
// control and table-driven routing (C++ twin: Router, models/router.hpp, behind the RouterCore
// boundary of models/router_core.hpp). Its cycle behaviour is docs/timing-contract.md, which this
// RTL implements register for register; docs/rtl.md maps the modules and the flit format.
//
//   torx_input_unit   x ports   pipeline stages 1 .. P-1, VC buffers, ivc_* registers (per lane)
//   torx_routing_unit           table RAM, image loader (configuration port), one lookup per input
//   torx_vc_alloc               fair VC allocation per (output port, class): va_rr_q, va_vc_rr_q
//   torx_sw_alloc               separable input-first round robin: sa_in_rr_q, sa_out_rr_q
//   torx_crossbar               winning flits to their outputs
//   torx_output_unit  x ports   ovc_credits_q, ovc_owner_q (ovc_depth_q, ovc_stack_q), the output registers
//
// Priority levels (docs/priority.md; PriorityLevels = K > 1): every VC buffer holds K lanes, one per
// level (the flit's priority field), sharing its D slots; input lanes are numbered input VC x K +
// level, and every per-VC input register above is per lane. A flit of level q leaves only while
// its output VC has more than (K-1-q) x PriorityReserve credits (the throttle); VC allocation is
// priority first and may take a VC from a lower level (the owner waits on the VC's stack and gets it
// back when the new owner's tail has left); switch allocation is priority first. With K = 1 none of
// this exists: the lanes are the VCs and the registers are those of the plain router.
//
// Ports (docs/timing-contract.md, "The router boundary"): network ports 0 .. 2N-1 (+x, -x, +y, ...),
// then local ports 2N .. 2N+K-1 (input: injection channel k, output: ejection channel k). Per-port
// signals are flat vectors, port p at [p*W +: W]. A network port carries C x V VCs (class c owns
// VCs c*V .. c*V+V-1), a local port one VC.
//
// Cycle contract: inputs are what the links deliver in cycle t; every output is a register that
// holds what the router pushed in cycle t from the edge that ends t. A flit on flit_i in cycle t can
// leave in cycle t+P (in flit_o from the end of t+P) if uncontended. The routing image must be
// loaded through cfg_* (cfg_done_o) before the first flit; rst_ni clears the loader's status, so a
// reset router needs its image again.
//
// Parameters:
//   NumDims         N, network dimensions (2N network ports), 1 .. 15
//   NumLocal        K, local ports: 1 (one-port) or 2N (all-port)
//   NumClasses      C = dateline classes x order classes; the image's shape word must agree
//   VcsPerClass     V
//   BufferDepth     D, flits per input VC FIFO (also the reset credit count of every output VC)
//   PipelineStages  P >= 1 (router_latency)
//   Pipeline        the organization after the input stages (docs/timing-contract.md, "Router
//                   organizations"): 0 single (allocation and traversal in one cycle), 1 lookahead
//                   (VC and speculative switch allocation | traversal, the route carried one hop
//                   ahead in the head's la_port / la_class), 2 classic (RC | VA | SA | ST). 1 and 2
//                   run with one priority level only
//   FlitBytes       payload bytes per flit (a multiple of 8)
//   MaxRadix        largest radix per dimension (coordinates are clog2(MaxRadix) bits)
//   PriorityLevels  K, priority levels: lanes per VC (1: none), 1 .. 16
//   PriorityReserve r, the throttle's slots per level above (D > (K-1) r)
// Lookahead tables (Pipeline = 1): besides its own table the router holds the table of the neighbour
// across each network port (the lookahead image, docs/timing-contract.md, "Lookahead"). The host
// loads each through the same configuration port, selected by cfg_sel_i (0: the router's own, 1 + p:
// the neighbour's across network port p, whose node id is la_node_id_i[p]); cfg_*_o report on the
// selected table. A mesh edge's port has no neighbour and no table. The neighbour's table p routes
// every head leaving on port p: its la_port / la_class are rewritten as the flit crosses the switch.
//
//   SimTag          1: the flit carries the 64-bit simulation tag {seq, msg} above the payload
//                   (every Verilated build: the lock-step comparison and the checker read it);
//                   0: it does not exist (synthesis, scripts/synth.py)
`include "torx_pkg.sv"
`include "torx_router_status.sv"

module torx_router #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned PipelineStages = 2,
  parameter int unsigned Pipeline = 0,
  parameter int unsigned FlitBytes = 32,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned PriorityLevels = 1,
  parameter int unsigned PriorityReserve = 1,
  parameter int unsigned SimTag = 1,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = torx_pkg::num_ports(NumDims, NumLocal),
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = torx_pkg::total_vcs(NumDims, NumLocal, NetVcs),
  localparam int unsigned TotalLanes = TotalVcs * PriorityLevels,
  localparam int unsigned CoordW = torx_pkg::clog2w(MaxRadix),
  localparam int unsigned HdrLa = torx_pkg::hdr_w(NumDims, CoordW, NetVcs, PriorityLevels),  // lookahead fields
  localparam int unsigned HdrW /*verilator public*/ = HdrLa + torx_pkg::la_w(NumDims, NumClasses, Pipeline),
  localparam int unsigned DataW /*verilator public*/ = torx_pkg::data_w(FlitBytes, 0, SimTag),
  localparam int unsigned FlitW /*verilator public*/ = HdrW + DataW,
  localparam int unsigned VcIdxW = torx_pkg::clog2w(NetVcs),
  localparam int unsigned BlockedW = $clog2(TotalLanes + 1),
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW,
  localparam int unsigned CfgSelW = torx_pkg::clog2w(NumNetPorts + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [31:0]                   node_id_i,         // static: node id the image must name
  // Configuration port (torx_routing_unit): the routing image, word by word, before the first flit.
  input  logic                          cfg_valid_i,       // cycle t: cfg_data_i is the next word
  input  logic [31:0]                   cfg_data_i,
  input  logic                          cfg_last_i,        // cycle t: it is the last word
  output logic                          cfg_done_o,        // after the last word: accepted
  output logic                          cfg_error_o,       // after the last word: refused ...
  output logic [CfgWordW-1:0]           cfg_error_word_o,  // ... at this word ...
  output logic [torx_pkg::CfgErrW-1:0]  cfg_error_code_o,  // ... for this reason (torx_pkg::cfg_err_e)
  input  logic [CfgSelW-1:0]            cfg_sel_i,         // static while loading: the table (0 own, 1+p lookahead)
  input  logic [NumNetPorts*32-1:0]     la_node_id_i,      // static: node ids of the neighbours (lookahead)
  // Links in (cycle t).
  input  logic [NumPorts-1:0]           flit_valid_i,      // a flit arrives at input p
  input  logic [NumPorts*FlitW-1:0]     flit_i,            // the flit, its VC in the sideband
  input  logic [NumPorts-1:0]           credit_valid_i,    // a credit arrives at output p
  input  logic [NumPorts*VcIdxW-1:0]    credit_vc_i,       // its VC
  // Links out (registered: pushed in cycle t, valid from the end of t).
  output logic [NumPorts-1:0]           flit_valid_o,      // a flit leaves on output p
  output logic [NumPorts*FlitW-1:0]     flit_o,            // the flit, VC field = output VC
  output logic [NumPorts-1:0]           credit_valid_o,    // a credit leaves input p upstream
  output logic [NumPorts*VcIdxW-1:0]    credit_vc_o,       // the VC whose slot was freed
  // Status.
  output logic [BlockedW-1:0]           stat_blocked_o,    // registered: input lanes whose due front flit did not leave in t
  output logic                          route_error_o,     // registered, sticky: a head met an invalid table entry
  output logic                          quiescent_o        // no flit in a pipeline stage or a FIFO
);

  localparam int unsigned PortW = torx_pkg::clog2w(NumPorts);
  localparam int unsigned ClassW = torx_pkg::clog2w(NumClasses);
  localparam int unsigned IvcW = $clog2(TotalLanes + 1);   // an input lane; all ones: none
  localparam int unsigned Levels = PriorityLevels;
  localparam int unsigned LaneIdxW = torx_pkg::clog2w(NetVcs * Levels);
  localparam int unsigned RouteW = PortW + ClassW + 1;
  localparam int unsigned StartDimW = torx_pkg::sd_w(NumDims);
  localparam int unsigned HdrStart = torx_pkg::hdr_start(NetVcs);
  localparam int unsigned HdrNeg = torx_pkg::hdr_neg(NumDims, NetVcs, Levels);
  localparam int unsigned HdrDest = torx_pkg::hdr_dest(NumDims, NetVcs, Levels);
  localparam int unsigned NumTables = (Pipeline == torx_pkg::PipeLookahead) ? 1 + NumNetPorts : 1;

  // The verdicts of the tables' loaders: the router's own, then (lookahead) the neighbours'.
  localparam int unsigned CfgRspW = 2 + CfgWordW + torx_pkg::CfgErrW;  // torx_pkg::cfg_rsp_t
  logic [NumTables*CfgRspW-1:0] cfg_rsp;
  logic [CfgSelW-1:0] cfg_sel;
  logic in_quiescent;

  // First input VC (equally: output VC) of a port, as a router-wide index.
  function automatic int unsigned first_vc(input int unsigned port);
    first_vc = (port < NumNetPorts) ? port * NetVcs : NumNetPorts * NetVcs + (port - NumNetPorts);
  endfunction

  // --- per port ---
  logic [NumPorts-1:0] wr_valid, in_empty, in_route_error;
  logic [NumPorts*FlitW-1:0] wr_flit, xb_in_flit, xb_out_flit, xb_st_flit;
  logic [NumPorts*RouteW-1:0] wr_route, lk_route;
  logic [NumPorts-1:0] out_st_valid;
  logic [NumPorts*NumDims*CoordW-1:0] lk_dest;
  logic [NumPorts*NumDims-1:0] lk_neg;
  logic [NumPorts*StartDimW-1:0] lk_start;
  logic [NumPorts*LaneIdxW-1:0] sa_in_lane;
  logic [NumPorts-1:0] sa_in_win, sa_out_valid;
  logic [NumPorts*PortW-1:0] sa_out_port;
  // --- per input lane (router-wide index: input VC x K + level) ---
  logic [TotalLanes-1:0] ivc_nonempty, va_req, va_grant, sa_ready, sa_req, ivc_progress, spec_ok;
  logic [TotalLanes*PortW-1:0] va_port, sa_port;
  logic [TotalLanes*ClassW-1:0] va_class;
  logic [TotalLanes*VcIdxW-1:0] va_grant_vc, sa_vc;
  // --- per output VC (router-wide index) ---
  logic [TotalVcs*Levels-1:0] ovc_credit_ok;   // [j*K + q]: a credit for level q
  logic [TotalVcs-1:0] ovc_free, ovc_grant, ovc_preempt, ovc_stack_ok;
  logic [TotalVcs*IvcW-1:0] ovc_grant_ivc, ovc_owner;

  // Header fields of the flits entering the FIFOs, for the routing lookups.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_lookup
    assign lk_start[p*StartDimW +: StartDimW] = wr_flit[p*FlitW + HdrStart +: StartDimW];
    assign lk_neg[p*NumDims +: NumDims] = wr_flit[p*FlitW + HdrNeg +: NumDims];
    assign lk_dest[p*NumDims*CoordW +: NumDims*CoordW] = wr_flit[p*FlitW + HdrDest +: NumDims*CoordW];
  end
  // Every flit is looked up as it is written; only the header fields matter (and only for heads).
  logic unused_lookup;
  assign unused_lookup = ^{wr_valid, wr_flit};

  torx_routing_unit #(
    .NumDims   (NumDims),
    .NumLocal  (NumLocal),
    .NumClasses(NumClasses),
    .MaxRadix  (MaxRadix)
  ) u_routing_unit (
    .clk_i,
    .rst_ni,
    .node_id_i,
    .cfg_i     ({cfg_valid_i && cfg_sel_i == '0, cfg_data_i, cfg_last_i}),
    .cfg_o     (cfg_rsp[0 +: CfgRspW]),
    .lk_dest_i (lk_dest),
    .lk_neg_i  (lk_neg),
    .lk_start_i(lk_start),
    .lk_route_o(lk_route)
  );
  assign {cfg_done_o, cfg_error_o, cfg_error_word_o, cfg_error_code_o} = cfg_rsp[32'(cfg_sel)*CfgRspW +: CfgRspW];

  // --- the organization's pieces around the allocators ---
  if (Pipeline == torx_pkg::PipeLookahead) begin : gen_lookahead
    localparam int unsigned NetPortW = torx_pkg::clog2w(NumNetPorts);
    localparam int unsigned LaPortW = torx_pkg::la_port_w(NumDims);
    localparam int unsigned HdrHead = torx_pkg::hdr_head(NetVcs);
    assign cfg_sel = (32'(cfg_sel_i) <= NumNetPorts) ? cfg_sel_i : '0;
    // A head from a network port carries its route here (la_port / la_class, written by the router it
    // left): it replaces the own table's lookup, which serves the injection ports only.
    for (genvar p = 0; p < NumPorts; p++) begin : gen_wr_route
      if (p < NumNetPorts) begin : gen_net
        localparam int unsigned EjectPort = NumNetPorts + ((NumLocal > 1) ? p : 0);
        logic [LaPortW-1:0] la_port;
        logic [ClassW-1:0] la_class;
        logic [RouteW-1:0] route;   // {invalid, class, port}
        assign la_port = wr_flit[p*FlitW + HdrLa +: LaPortW];
        assign la_class = wr_flit[p*FlitW + HdrLa + LaPortW +: ClassW];
        always_comb begin
          route = '0;
          if (la_port[NetPortW + 1]) begin            // no route: the route error, ejection channel
            route[RouteW-1] = 1'b1;
            route[PortW-1:0] = PortW'(EjectPort);
          end else if (la_port[NetPortW]) begin       // eject
            route[PortW-1:0] = PortW'(EjectPort);
          end else begin
            route[PortW-1:0] = PortW'(la_port[NetPortW-1:0]);
            route[PortW +: ClassW] = la_class;
          end
        end
        assign wr_route[p*RouteW +: RouteW] = route;
        logic unused_lk;   // the own table's lookup of a network input: not used
        assign unused_lk = ^lk_route[p*RouteW +: RouteW];
      end else begin : gen_local
        assign wr_route[p*RouteW +: RouteW] = lk_route[p*RouteW +: RouteW];
      end
    end
    // The neighbours' tables, one lookup each: the head crossing to output p gets its route there.
    for (genvar p = 0; p < NumPorts; p++) begin : gen_la
      logic [FlitW-1:0] f;
      logic [LaPortW + ClassW - 1:0] la;
      assign f = xb_out_flit[p*FlitW +: FlitW];
      if (p < NumNetPorts) begin : gen_net
        logic [RouteW-1:0] r;
        logic [NumDims-1:0] neg;
        assign neg = f[torx_pkg::hdr_neg(NumDims, NetVcs, Levels) +: NumDims];
        torx_routing_unit #(
          .NumDims   (NumDims),
          .NumLocal  (NumLocal),
          .NumClasses(NumClasses),
          .MaxRadix  (MaxRadix),
          .NumLookups(1)
        ) u_la_table (
          .clk_i,
          .rst_ni,
          .node_id_i (la_node_id_i[p*32 +: 32]),
          .cfg_i     ({cfg_valid_i && 32'(cfg_sel_i) == p + 1, cfg_data_i, cfg_last_i}),
          .cfg_o     (cfg_rsp[(p + 1)*CfgRspW +: CfgRspW]),
          .lk_dest_i (f[HdrDest +: NumDims*CoordW]),
          .lk_neg_i  (neg),
          .lk_start_i(f[HdrStart +: StartDimW]),
          .lk_route_o(r)
        );
        always_comb begin
          la = '0;
          if (r[RouteW-1]) la[NetPortW + 1] = 1'b1;                       // no route
          else if (32'(r[PortW-1:0]) >= NumNetPorts) la[NetPortW] = 1'b1;  // eject
          else begin
            la[NetPortW-1:0] = NetPortW'(r[PortW-1:0]);
            la[LaPortW +: ClassW] = r[PortW +: ClassW];
          end
        end
      end else begin : gen_eject
        assign la = '0;   // a head leaving on an ejection port carries no route
      end
      logic [FlitW-1:0] f_la;
      always_comb begin
        f_la = f;
        if (f[HdrHead]) f_la[HdrLa +: LaPortW + ClassW] = la;
      end
      assign xb_st_flit[p*FlitW +: FlitW] = f_la;
    end
  end else begin : gen_no_lookahead
    assign wr_route = lk_route;
    assign xb_st_flit = xb_out_flit;
    assign cfg_sel = '0;
    logic unused_la;   // only a lookahead router has neighbours' tables
    assign unused_la = ^{cfg_sel_i, la_node_id_i};
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    localparam int unsigned Vcs = (p < NumNetPorts) ? NetVcs : 1;
    localparam int unsigned FirstVc = first_vc(p);
    localparam int unsigned Lanes = Vcs * Levels;
    localparam int unsigned FirstLane = FirstVc * Levels;

    torx_input_unit #(
      .NumVcs        (Vcs),
      .PriorityLevels(Levels),
      .BufferDepth   (BufferDepth),
      .PipelineStages(PipelineStages),
      .Pipeline      (Pipeline),
      .FlitW         (FlitW),
      .PrioLsb       (torx_pkg::hdr_prio(NumDims, NetVcs)),
      .PortW         (PortW),
      .ClassW        (ClassW),
      .VcIdxW        (VcIdxW),
      .LaneIdxW      (LaneIdxW)
    ) u_input_unit (
      .clk_i,
      .rst_ni,
      .flit_valid_i (flit_valid_i[p]),
      .flit_i       (flit_i[p*FlitW +: FlitW]),
      .credit_valid_o(credit_valid_o[p]),
      .credit_vc_o  (credit_vc_o[p*VcIdxW +: VcIdxW]),
      .wr_valid_o   (wr_valid[p]),
      .wr_flit_o    (wr_flit[p*FlitW +: FlitW]),
      .wr_route_i   (wr_route[p*RouteW +: RouteW]),
      .nonempty_o   (ivc_nonempty[FirstLane +: Lanes]),
      .va_req_o     (va_req[FirstLane +: Lanes]),
      .va_port_o    (va_port[FirstLane*PortW +: Lanes*PortW]),
      .va_class_o   (va_class[FirstLane*ClassW +: Lanes*ClassW]),
      .va_grant_i   (va_grant[FirstLane +: Lanes]),
      .va_grant_vc_i(va_grant_vc[FirstLane*VcIdxW +: Lanes*VcIdxW]),
      .sa_ready_o   (sa_ready[FirstLane +: Lanes]),
      .sa_port_o    (sa_port[FirstLane*PortW +: Lanes*PortW]),
      .sa_vc_o      (sa_vc[FirstLane*VcIdxW +: Lanes*VcIdxW]),
      .progress_o   (ivc_progress[FirstLane +: Lanes]),
      .sa_sel_lane_i(sa_in_lane[p*LaneIdxW +: LaneIdxW]),
      .sa_win_i     (sa_in_win[p]),
      .xb_flit_o    (xb_in_flit[p*FlitW +: FlitW]),
      .route_error_o(in_route_error[p]),
      .empty_o      (in_empty[p])
    );

    // The flit granted to output p: its input port, input lane and output VC (a multiplexer over the
    // input ports, whose first lanes are constants).
    logic [IvcW-1:0] src_ivc;
    logic [VcIdxW-1:0] src_vc;
    always_comb begin
      src_ivc = '0;
      src_vc = '0;
      for (int unsigned q = 0; q < NumPorts; q++) begin
        if (sa_out_port[p*PortW +: PortW] == PortW'(q)) begin
          src_ivc = IvcW'(first_vc(q) * Levels) + IvcW'(sa_in_lane[q*LaneIdxW +: LaneIdxW]);
          src_vc = sa_vc[(first_vc(q) * Levels + 32'(sa_in_lane[q*LaneIdxW +: LaneIdxW]))*VcIdxW +: VcIdxW];
        end
      end
    end

    torx_output_unit #(
      .NumVcs         (Vcs),
      .PriorityLevels (Levels),
      .PriorityReserve(PriorityReserve),
      .BufferDepth    (BufferDepth),
      .FlitW          (FlitW),
      .VcIdxW         (VcIdxW),
      .IvcW           (IvcW),
      .Pipeline       (Pipeline)
    ) u_output_unit (
      .clk_i,
      .rst_ni,
      .credit_valid_i(credit_valid_i[p]),
      .credit_vc_i   (credit_vc_i[p*VcIdxW +: VcIdxW]),
      .flit_valid_o  (flit_valid_o[p]),
      .flit_o        (flit_o[p*FlitW +: FlitW]),
      .st_valid_o    (out_st_valid[p]),
      .credit_ok_o   (ovc_credit_ok[FirstVc*Levels +: Vcs*Levels]),
      .ovc_free_o    (ovc_free[FirstVc +: Vcs]),
      .ovc_owner_o   (ovc_owner[FirstVc*IvcW +: Vcs*IvcW]),
      .ovc_stack_ok_o(ovc_stack_ok[FirstVc +: Vcs]),
      .va_grant_i    (ovc_grant[FirstVc +: Vcs]),
      .va_grant_ivc_i(ovc_grant_ivc[FirstVc*IvcW +: Vcs*IvcW]),
      .va_preempt_i  (ovc_preempt[FirstVc +: Vcs]),
      .xb_valid_i    (sa_out_valid[p]),
      .xb_flit_i     (xb_st_flit[p*FlitW +: FlitW]),
      .xb_vc_i       (src_vc),
      .xb_ivc_i      (src_ivc)
    );
  end

  torx_vc_alloc #(
    .NumDims    (NumDims),
    .NumLocal   (NumLocal),
    .NumClasses    (NumClasses),
    .VcsPerClass   (VcsPerClass),
    .PriorityLevels(Levels)
  ) u_vc_alloc (
    .clk_i,
    .rst_ni,
    .req_i          (va_req),
    .req_port_i     (va_port),
    .req_class_i    (va_class),
    .ovc_free_i     (ovc_free),
    .ovc_owner_i    (ovc_owner),
    .ovc_stack_ok_i (ovc_stack_ok),
    .grant_o        (va_grant),
    .grant_vc_o     (va_grant_vc),
    .ovc_grant_o    (ovc_grant),
    .ovc_grant_ivc_o(ovc_grant_ivc),
    .ovc_preempt_o  (ovc_preempt)
  );

  // Switch requests: ready lanes whose output VC has a credit for their level (credit intake
  // included); the output VC is selected by comparing the lane's output port with each port
  // (constant first VCs). With priority levels an ACTIVE lane must also own its output VC at the
  // start of the cycle (it is not preempted; models/router.cpp, step 2); a lane granted in this cycle
  // owns it from now on. Lookahead: a head's speculative request stands if the VC allocation of this
  // cycle grants it an output VC (sa_vc: the granted VC) with a credit.
  always_comb begin
    for (int unsigned i = 0; i < TotalLanes; i++) begin
      sa_req[i] = 1'b0;
      spec_ok[i] = 1'b0;
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (sa_port[i*PortW +: PortW] == PortW'(o)) begin
          sa_req[i] = sa_ready[i] &&
                      ovc_credit_ok[(first_vc(o) + ((o < NumNetPorts) ? 32'(sa_vc[i*VcIdxW +: VcIdxW]) : 0)) * Levels +
                                    i % Levels] &&
                      (Levels == 1 || va_grant[i] ||
                       ovc_owner[(first_vc(o) + ((o < NumNetPorts) ? 32'(sa_vc[i*VcIdxW +: VcIdxW]) : 0)) * IvcW +: IvcW] ==
                       IvcW'(i));
          spec_ok[i] = va_grant[i] &&
                       ovc_credit_ok[(first_vc(o) + ((o < NumNetPorts) ? 32'(sa_vc[i*VcIdxW +: VcIdxW]) : 0)) * Levels +
                                     i % Levels];
        end
      end
    end
  end

  if (Levels == 1) begin : gen_one_level
    logic unused_owner;   // one level: an ACTIVE lane always owns its output VC
    assign unused_owner = ^{ovc_owner, ovc_stack_ok};
  end else begin : gen_priority_stat
    // Output VCs taken from a lower level in cycle t (registered): the harness adds them up into the
    // run's preemptions figure, as the C++ router counts them. Not a port (with one level it does not
    // exist) and read by nothing in the design.
    localparam int unsigned PreemptW = $clog2(TotalVcs + 1);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [PreemptW-1:0] stat_preempt_q /*verilator public_flat_rd*/;
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) stat_preempt_q <= '0;
      else stat_preempt_q <= PreemptW'($countones(ovc_grant & ovc_preempt));
    end
  end

  torx_sw_alloc #(
    .NumDims    (NumDims),
    .NumLocal   (NumLocal),
    .NumClasses (NumClasses),
    .VcsPerClass   (VcsPerClass),
    .PriorityLevels(Levels),
    .Pipeline      (Pipeline)
  ) u_sw_alloc (
    .clk_i,
    .rst_ni,
    .req_i      (sa_req),
    .req_port_i (sa_port),
    .spec_i     (va_req),
    .spec_ok_i  (spec_ok),
    .in_lane_o  (sa_in_lane),
    .in_win_o   (sa_in_win),
    .out_valid_o(sa_out_valid),
    .out_port_o (sa_out_port)
  );

  torx_crossbar #(
    .NumPorts(NumPorts),
    .FlitW   (FlitW)
  ) u_crossbar (
    .in_flit_i (xb_in_flit),
    .sel_i     (sa_out_port),
    .out_flit_o(xb_out_flit)
  );

  // --- status ---
  torx_router_status #(
    .NumFronts(TotalLanes),
    .NumPorts (NumPorts),
    .BlockedW (BlockedW)
  ) u_status (
    .clk_i,
    .rst_ni,
    .front_i       (ivc_nonempty),
    .send_i        (sa_in_win),
    .progress_i    (ivc_progress),
    .error_i       (in_route_error),
    .empty_i       (in_empty),
    .stat_blocked_o,
    .route_error_o,
    .quiescent_o   (in_quiescent)
  );
  // Quiescent: no flit in an input port, nor (pipelined) in a switch-traversal register.
  assign quiescent_o = in_quiescent && !(|out_st_valid);

`ifndef SYNTHESIS
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_router: NumDims %0d not in 1..15", NumDims);
    if (NumLocal != 1 && NumLocal != 2 * NumDims)
      $fatal(1, "torx_router: NumLocal %0d is neither 1 nor 2*NumDims", NumLocal);
    if (NumClasses < 1 || VcsPerClass < 1) $fatal(1, "torx_router: NumClasses and VcsPerClass must be >= 1");
    if (NetVcs > 64) $fatal(1, "torx_router: more than 64 VCs per port");
    if (FlitBytes % 8 != 0 || FlitBytes == 0) $fatal(1, "torx_router: FlitBytes %0d is not a multiple of 8", FlitBytes);
    if (PriorityLevels < 1 || PriorityLevels > 16) $fatal(1, "torx_router: PriorityLevels %0d not in 1..16", PriorityLevels);
    if (NetVcs * PriorityLevels > 64) $fatal(1, "torx_router: more than 64 lanes per port");
    if (PriorityLevels > 1 && (PriorityReserve < 1 || BufferDepth <= (PriorityLevels - 1) * PriorityReserve))
      $fatal(1, "torx_router: BufferDepth %0d leaves the lowest priority level no slot", BufferDepth);
    if (Pipeline > 2) $fatal(1, "torx_router: Pipeline %0d is not 0 (single), 1 (lookahead) or 2 (classic)", Pipeline);
    if (Pipeline != torx_pkg::PipeSingle && PriorityLevels != 1)
      $fatal(1, "torx_router: priority levels run with the single organization only (Pipeline = 0)");
    if (SimTag > 1) $fatal(1, "torx_router: SimTag %0d is neither 0 nor 1", SimTag);
  end
`endif

  `include "props/torx_router_props.svh"  // docs/verification.md, "Properties"

endmodule
