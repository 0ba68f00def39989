// SPDX-License-Identifier: Apache-2.0
// torx_input_unit: one router input port (C++ twin: InputUnit and the InputVc registers,
// models/input_unit.hpp): the input pipeline (stages 1 .. P-1), the VC buffers, and per lane the
// registers of the worm at the lane's front, named as docs/timing-contract.md's snapshot:
//   ivc_state_q      IDLE / WAIT_VC / ACTIVE (torx_pkg::ivc_state_e)
//   ivc_out_port_q   output port of the worm          (valid in WAIT_VC and ACTIVE)
//   ivc_out_class_q  VC class it asked for             (valid in WAIT_VC and ACTIVE)
//   ivc_out_vc_q     output VC it owns                 (valid in ACTIVE)
//   ivc_count_q      flits in the lane (not counting the pipeline)
// A lane is a VC and a priority level (docs/priority.md): lane l of the port is VC l / K, level
// l % K (K = PriorityLevels); with K = 1 a lane is a VC. Every register is a flat vector, lane l at
// [l*W +: W].
//
// Buffers. K = 1: one FIFO of D slots per VC (read and write pointers). K > 1: the D slots of a VC
// are shared by its K lanes (docs/priority.md, "Buffers"): each lane is a linked list through the
// VC's slots (per lane its first and last slot, per slot the next one, per VC a bitmap of the slots
// in use; a flit takes the lowest free slot). The sender's credits count the whole VC, so a free slot
// is always there when a flit arrives. Either way a slot is split (docs/area.md, "Buffers"): what
// the lanes read at every front in every cycle (the stored route, the head and tail bits) in flops,
// the rest of the flit (its data and the header fields no allocator reads) in one register file per
// port with one write and one read port (torx_rf_1r1w): a port sends at most one flit per cycle, so
// the front of the lane the switch allocator picked is the only read.
//
// Cycle contract (docs/timing-contract.md, "Router pipeline"):
//   - a flit on flit_i in cycle t passes P-1 non-stalling stage registers and is written into the
//     lane of its VC (its sideband VC field) and level (its priority field) at the end of cycle
//     t+P-1 (P = 1: the end of t); credits guarantee room. As it is written, the routing unit looks
//     it up (wr_* / wr_route_i) and the route is kept next to the flit;
//   - stage P, cycle t, from the registers at the start of t: an IDLE lane with a flit at the front
//     takes the route stored with it (ivc_out_port_q / ivc_out_class_q from the end of t) and asks
//     the VC allocator (va_req_o), as does a WAIT_VC lane; a lane granted in t (va_grant_i) is ACTIVE
//     from the end of t and may already offer its flit to the switch in t (sa_ready_o);
//   - the switch allocator's input stage picks sa_sel_lane_i, whose front flit is on xb_flit_o; if it
//     wins (sa_win_i) the flit leaves the lane in t, and the freed slot's credit (the lane's VC) is on
//     credit_*_o from the end of t. A leaving tail returns the lane to IDLE.
//
// Parameters:
//   NumVcs          VCs of this port (C x V on a network port, 1 on an injection port)
//   PriorityLevels  K, lanes per VC (1: no priorities)
//   BufferDepth     D, flits per VC buffer (shared by the VC's lanes)
//   PipelineStages  P >= 1
//   Pipeline        the organization (docs/timing-contract.md, "Router organizations"): 0 single,
//                   1 lookahead, 2 classic. In both pipelined ones a lane granted its output VC in
//                   t offers to the switch from t+1 only (sa_ready_o: ACTIVE at the start of t); in
//                   classic a head routed in t asks for a VC from t+1 only (va_req_o: WAIT_VC), and
//                   progress_o names the lanes that completed their RC or VA stage in t
//   FlitW           flit width (torx_pkg::flit_w): the header's VC field (VcIdxW bits) lowest, then
//                   head and tail
//   PrioLsb         the priority field's first bit (torx_pkg::hdr_prio; read only when K > 1)
//   PortW, ClassW   widths of an output port number and of a VC class
//   VcIdxW          width of a VC number within a port (the router's widest port)
//   LaneIdxW        width of a lane number within a port (the router's widest port)
`include "torx_pkg.sv"
`include "torx_input_pipe.sv"
`include "torx_vc_fifo.sv"
`include "torx_rf_1r1w.sv"

module torx_input_unit #(
  parameter int unsigned NumVcs = 2,
  parameter int unsigned PriorityLevels = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned PipelineStages = 2,
  parameter int unsigned Pipeline = 0,
  parameter int unsigned FlitW = 128,
  parameter int unsigned PrioLsb = 3,
  parameter int unsigned PortW = 3,
  parameter int unsigned ClassW = 1,
  parameter int unsigned VcIdxW = 1,
  parameter int unsigned LaneIdxW = 1,
  localparam int unsigned NumLanes = NumVcs * PriorityLevels,
  localparam int unsigned RouteW = PortW + ClassW + 1,
  localparam int unsigned StateW = torx_pkg::IvcStateW,
  localparam int unsigned CountW = $clog2(BufferDepth + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Link.
  input  logic                       flit_valid_i,     // cycle t: a flit arrives
  input  logic [FlitW-1:0]           flit_i,           // cycle t: the flit (its VC in the header)
  output logic                       credit_valid_o,   // registered: a slot was freed in cycle t
  output logic [VcIdxW-1:0]          credit_vc_o,      // registered: its VC
  // Routing lookup of the flit written into the buffer in this cycle.
  output logic                       wr_valid_o,       // cycle t: a flit is written at the end of t
  output logic [FlitW-1:0]           wr_flit_o,        // cycle t: that flit
  input  logic [RouteW-1:0]          wr_route_i,       // cycle t: its route {invalid, class, port}
  // Stage P, per lane.
  output logic [NumLanes-1:0]        nonempty_o,       // cycle t: a flit at the front (due)
  output logic [NumLanes-1:0]        va_req_o,         // cycle t: a routed head asks for an output VC
  output logic [NumLanes*PortW-1:0]  va_port_o,        // cycle t: ... on this output port
  output logic [NumLanes*ClassW-1:0] va_class_o,       // cycle t: ... of this class
  input  logic [NumLanes-1:0]        va_grant_i,       // cycle t: the request is granted
  input  logic [NumLanes*VcIdxW-1:0] va_grant_vc_i,    // cycle t: ... this output VC
  output logic [NumLanes-1:0]        sa_ready_o,       // cycle t: holds an output VC (credits, owner not checked)
  output logic [NumLanes*PortW-1:0]  sa_port_o,        // cycle t: its output port
  output logic [NumLanes*VcIdxW-1:0] sa_vc_o,          // cycle t: its output VC
  output logic [NumLanes-1:0]        progress_o,       // cycle t: classic: a head routed or granted in t (else 0)
  input  logic [LaneIdxW-1:0]        sa_sel_lane_i,    // cycle t: the lane the port offers
  input  logic                       sa_win_i,         // cycle t: it won; its front flit leaves
  output logic [FlitW-1:0]           xb_flit_o,        // cycle t: front flit of sa_sel_lane_i (VC field 0)
  output logic                       route_error_o,    // cycle t: a head was routed to an invalid entry
  output logic                       empty_o           // cycle t: no flit in the pipeline or the buffers
);

  localparam int unsigned VcFieldW = VcIdxW;               // the header's VC field (torx_pkg::vc_w)
  localparam int unsigned BodyW = FlitW - VcFieldW;        // a flit without its link VC
  // A body's bits 0 and 1: head and tail, right above the VC field (torx_pkg::hdr_head, hdr_tail).
  localparam int unsigned BodyHead = 0;
  localparam int unsigned BodyTail = 1;
  localparam int unsigned EntryW = BodyW + RouteW;          // a buffer slot: {route, body}
  localparam int unsigned PtrW = torx_pkg::clog2w(BufferDepth);
  localparam int unsigned VcW = torx_pkg::clog2w(NumVcs);   // VCs of this port
  localparam int unsigned LaneW = torx_pkg::clog2w(NumLanes);

  // ---------------------------------------------------------------------------------------------
  // Stages 1 .. P-1: the input pipeline (never stalls)
  // ---------------------------------------------------------------------------------------------
  logic pipe_empty;
  torx_input_pipe #(
    .PipelineStages(PipelineStages),
    .FlitW         (FlitW)
  ) u_pipe (
    .clk_i,
    .rst_ni,
    .flit_valid_i,
    .flit_i,
    .wr_valid_o,
    .wr_flit_o,
    .empty_o     (pipe_empty)
  );

  // ---------------------------------------------------------------------------------------------
  // Lane registers
  // ---------------------------------------------------------------------------------------------
  logic [NumLanes*StateW-1:0] ivc_state_q /*verilator public_flat_rd*/, ivc_state_d;
  logic [NumLanes*PortW-1:0] ivc_out_port_q /*verilator public_flat_rd*/, ivc_out_port_d;
  logic [NumLanes*ClassW-1:0] ivc_out_class_q /*verilator public_flat_rd*/, ivc_out_class_d;
  logic [NumLanes*VcIdxW-1:0] ivc_out_vc_q /*verilator public_flat_rd*/, ivc_out_vc_d;
  logic [NumLanes*CountW-1:0] ivc_count_q /*verilator public_flat_rd*/, ivc_count_d;

  logic [VcW-1:0] wr_vc;
  logic [VcFieldW-1:0] wr_link_vc;
  logic [LaneW-1:0] sel;
  logic [BodyW-1:0] sel_body;
  logic [NumLanes-1:0] routed_invalid, push, pop;
  // Per lane, from the buffer: the front slot's head and tail bits and stored route.
  logic [NumLanes-1:0] front_head, front_tail;
  logic [NumLanes*RouteW-1:0] front_route;

  assign wr_link_vc = wr_flit_o[torx_pkg::HdrVc +: VcFieldW];
  assign wr_vc = VcW'(wr_link_vc);
  assign sel = LaneW'(sa_sel_lane_i);
  assign xb_flit_o = {sel_body, {VcFieldW{1'b0}}};

  // ---------------------------------------------------------------------------------------------
  // Buffers
  // ---------------------------------------------------------------------------------------------
  if (PriorityLevels == 1) begin : gen_fifo
    // One FIFO per VC (a lane is a VC). A slot holds {body, route}: the low RouteW + 2 bits are the
    // route, the head and the tail bit (the body's header bits 0 and 1), what the lane decides on.
    localparam int unsigned PeekW = RouteW + 2;
    logic [NumVcs*PeekW-1:0] front;

    torx_vc_fifo #(
      .NumVcs     (NumVcs),
      .BufferDepth(BufferDepth),
      .Width      (EntryW),
      .PeekW      (PeekW),
      .SelLo      (RouteW)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .push_i     (wr_valid_o),
      .push_vc_i  (wr_vc),
      .push_data_i({wr_flit_o[FlitW-1:VcFieldW], wr_route_i}),
      .pop_i      (pop),
      .front_o    (front),
      .sel_vc_i   (VcW'(sel)),
      .sel_front_o(sel_body)
    );

    for (genvar v = 0; v < NumVcs; v++) begin : gen_front
      assign front_route[v*RouteW +: RouteW] = front[v*PeekW +: RouteW];
      assign front_head[v] = front[v*PeekW + RouteW + BodyHead];
      assign front_tail[v] = front[v*PeekW + RouteW + BodyTail];
      assign push[v] = wr_valid_o && (wr_vc == VcW'(v));
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni && wr_valid_o) begin
        assert (32'(ivc_count_q[wr_vc*CountW +: CountW]) < BufferDepth || (sa_win_i && sel == wr_vc))
          else $error("torx_input_unit: FIFO overflow on VC %0d (upstream credit counter out of step)", wr_vc);
      end
    end
`endif
  end else begin : gen_shared
    // K lanes per VC share its D slots: a linked list per lane (docs/priority.md, "Buffers").
    localparam int unsigned Slots = NumVcs * BufferDepth;
    localparam int unsigned SlotW = torx_pkg::clog2w(Slots);
    localparam int unsigned LevelW = torx_pkg::clog2w(PriorityLevels);
    localparam int unsigned PeekW = RouteW + 2;  // per slot in flops: {route, tail, head}
    logic [PeekW-1:0] peek_q [Slots];    // per slot: its route, tail and head bits (not reset)
    logic [BodyW-3:0] sel_data;          // the offered lane's front flit above head and tail (register file)
    logic [PtrW-1:0] next_q [Slots];     // per slot: the next slot of its lane (not reset; read behind a head only)
    logic [Slots-1:0] used_q, used_d;    // slots holding a flit
    logic [NumLanes*PtrW-1:0] head_q, head_d, tail_q, tail_d;  // per lane: first and last slot (VC-relative)
    logic [LevelW-1:0] wr_level;
    logic [BufferDepth-1:0] wr_free;
    logic [PtrW-1:0] alloc;               // the lowest free slot of the arriving flit's VC
    logic [PtrW-1:0] wr_tail;             // the arriving flit's lane: its last slot ...
    logic wr_link;                        // ... which gets the new slot as its next
    logic [SlotW-1:0] sel_slot;           // the offered lane's front slot (absolute)

    assign wr_level = wr_flit_o[PrioLsb +: LevelW];
    assign wr_free = ~used_q[32'(wr_vc) * BufferDepth +: BufferDepth];

    always_comb begin
      alloc = '0;
      for (int i = BufferDepth - 1; i >= 0; i--) begin
        if (wr_free[i]) alloc = PtrW'(i);
      end
      wr_tail = '0;
      wr_link = 1'b0;
      sel_slot = '0;
      for (int unsigned l = 0; l < NumLanes; l++) begin
        if (push[l]) begin
          wr_tail = tail_q[l*PtrW +: PtrW];
          // Behind a flit that stays: a lane with two or more, or one that does not leave now.
          wr_link = ivc_count_q[l*CountW +: CountW] > CountW'(1) ||
                    (ivc_count_q[l*CountW +: CountW] == CountW'(1) && !pop[l]);
        end
        if (sel == LaneW'(l)) sel_slot = SlotW'((l / PriorityLevels) * BufferDepth) + SlotW'(head_q[l*PtrW +: PtrW]);
      end
    end

    always_ff @(posedge clk_i) begin
      if (wr_valid_o) begin
        peek_q[32'(wr_vc) * BufferDepth + 32'(alloc)] <=
            {wr_route_i, wr_flit_o[VcFieldW + BodyTail], wr_flit_o[VcFieldW + BodyHead]};
      end
      if (wr_valid_o && wr_link) begin
        next_q[32'(wr_vc) * BufferDepth + 32'(wr_tail)] <= alloc;
      end
    end

    torx_rf_1r1w #(
      .Words(Slots),
      .Width(BodyW - 2)
    ) u_rf (
      .clk_i,
      .we_i   (wr_valid_o),
      .waddr_i(SlotW'(32'(wr_vc) * BufferDepth + 32'(alloc))),
      .wdata_i(wr_flit_o[FlitW-1:VcFieldW + 2]),
      .raddr_i(sel_slot),
      .rdata_o(sel_data)
    );

    logic [PeekW-1:0] sel_peek;
    assign sel_peek = peek_q[sel_slot];
    assign sel_body = {sel_data, sel_peek[1], sel_peek[0]};
    logic unused_sel_route;   // the lanes read the route at their fronts (front_route)
    assign unused_sel_route = ^sel_peek[PeekW-1:2];

    always_comb begin
      used_d = used_q;
      if (wr_valid_o) used_d[32'(wr_vc) * BufferDepth + 32'(alloc)] = 1'b1;
      if (sa_win_i) used_d[sel_slot] = 1'b0;
    end

    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      localparam int unsigned Vc = l / PriorityLevels;
      localparam int unsigned Level = l % PriorityLevels;
      logic [PtrW-1:0] head;
      logic [CountW-1:0] count;
      assign head = head_q[l*PtrW +: PtrW];
      assign count = ivc_count_q[l*CountW +: CountW];
      logic [PeekW-1:0] peek;
      assign peek = peek_q[Vc * BufferDepth + 32'(head)];
      assign front_head[l] = peek[0];
      assign front_tail[l] = peek[1];
      assign front_route[l*RouteW +: RouteW] = peek[2 +: RouteW];
      assign push[l] = wr_valid_o && (wr_vc == VcW'(Vc)) && (wr_level == LevelW'(Level));
      always_comb begin
        head_d[l*PtrW +: PtrW] = head;
        if (pop[l] && count > CountW'(1)) head_d[l*PtrW +: PtrW] = next_q[sel_slot];
        // A flit into an empty lane, or into one whose only flit leaves now, is the new front.
        if (push[l] && (count == '0 || (count == CountW'(1) && pop[l]))) head_d[l*PtrW +: PtrW] = alloc;
        tail_d[l*PtrW +: PtrW] = push[l] ? alloc : tail_q[l*PtrW +: PtrW];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        used_q <= '0;
        head_q <= '0;
        tail_q <= '0;
      end else begin
        used_q <= used_d;
        head_q <= head_d;
        tail_q <= tail_d;
      end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      if (rst_ni && wr_valid_o) begin
        assert (32'(wr_level) < PriorityLevels)
          else $error("torx_input_unit: flit of priority %0d, the router has %0d levels", wr_level, PriorityLevels);
        assert (|wr_free) else $error("torx_input_unit: VC %0d has no free slot (upstream credit counter out of step)", wr_vc);
      end
    end
`endif
  end

  // ---------------------------------------------------------------------------------------------
  // Lanes: requests and worm state
  // ---------------------------------------------------------------------------------------------
  for (genvar v = 0; v < NumLanes; v++) begin : gen_vc
    logic [StateW-1:0] state;
    logic nonempty;
    logic [CountW-1:0] count;
    logic [RouteW-1:0] route;

    assign state = ivc_state_q[v*StateW +: StateW];
    assign count = ivc_count_q[v*CountW +: CountW];
    assign route = front_route[v*RouteW +: RouteW];
    assign nonempty = (count != '0);
    assign pop[v] = sa_win_i && (sel == LaneW'(v));

    // Requests of stage P.
    assign nonempty_o[v] = nonempty;
    if (Pipeline == torx_pkg::PipeClassic) begin : gen_req_classic
      // RC in one cycle, VA from the next: only a WAIT_VC head asks.
      assign va_req_o[v] = nonempty && (state == torx_pkg::IvcWaitVc);
      assign progress_o[v] = (nonempty && state == torx_pkg::IvcIdle) || va_grant_i[v];
    end else begin : gen_req
      assign va_req_o[v] = nonempty && (state != torx_pkg::IvcActive);
      assign progress_o[v] = 1'b0;
    end
    assign va_port_o[v*PortW +: PortW] =
        (state == torx_pkg::IvcIdle) ? route[PortW-1:0] : ivc_out_port_q[v*PortW +: PortW];
    assign va_class_o[v*ClassW +: ClassW] =
        (state == torx_pkg::IvcIdle) ? route[PortW +: ClassW] : ivc_out_class_q[v*ClassW +: ClassW];
    if (Pipeline == torx_pkg::PipeSingle) begin : gen_sa_single
      assign sa_ready_o[v] = nonempty && (state == torx_pkg::IvcActive || va_grant_i[v]);
    end else begin : gen_sa_pipelined
      // A VC granted in t is used from t+1 (lookahead: unless the head's speculative request stands,
      // torx_sw_alloc; it then leaves on the VC granted in t).
      assign sa_ready_o[v] = nonempty && (state == torx_pkg::IvcActive);
    end
    assign sa_vc_o[v*VcIdxW +: VcIdxW] =
        (state == torx_pkg::IvcActive) ? ivc_out_vc_q[v*VcIdxW +: VcIdxW] : va_grant_vc_i[v*VcIdxW +: VcIdxW];
    assign sa_port_o[v*PortW +: PortW] = va_port_o[v*PortW +: PortW];
    assign routed_invalid[v] = nonempty && (state == torx_pkg::IvcIdle) && route[RouteW-1];

    // Next state: route (IDLE), grant (-> ACTIVE), tail leaves (-> IDLE), in this order.
    always_comb begin
      ivc_state_d[v*StateW +: StateW] = state;
      ivc_out_port_d[v*PortW +: PortW] = ivc_out_port_q[v*PortW +: PortW];
      ivc_out_class_d[v*ClassW +: ClassW] = ivc_out_class_q[v*ClassW +: ClassW];
      ivc_out_vc_d[v*VcIdxW +: VcIdxW] = ivc_out_vc_q[v*VcIdxW +: VcIdxW];
      if (nonempty && state == torx_pkg::IvcIdle) begin
        ivc_state_d[v*StateW +: StateW] = torx_pkg::IvcWaitVc;
        ivc_out_port_d[v*PortW +: PortW] = route[PortW-1:0];
        ivc_out_class_d[v*ClassW +: ClassW] = route[PortW +: ClassW];
      end
      if (va_grant_i[v]) begin
        ivc_state_d[v*StateW +: StateW] = torx_pkg::IvcActive;
        ivc_out_vc_d[v*VcIdxW +: VcIdxW] = va_grant_vc_i[v*VcIdxW +: VcIdxW];
      end
      if (pop[v] && front_tail[v]) ivc_state_d[v*StateW +: StateW] = torx_pkg::IvcIdle;
      ivc_count_d[v*CountW +: CountW] = count + CountW'(push[v]) - CountW'(pop[v]);
    end
  end

`ifdef SYNTHESIS
  logic unused_front_head;   // read only by the assertions
  assign unused_front_head = ^front_head;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < NumLanes; v++) ivc_state_q[v*StateW +: StateW] <= torx_pkg::IvcIdle;
      ivc_out_port_q <= '0;
      ivc_out_class_q <= '0;
      ivc_out_vc_q <= '0;
      ivc_count_q <= '0;
    end else begin
      ivc_state_q <= ivc_state_d;
      ivc_out_port_q <= ivc_out_port_d;
      ivc_out_class_q <= ivc_out_class_d;
      ivc_out_vc_q <= ivc_out_vc_d;
      ivc_count_q <= ivc_count_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Credit for the freed slot (registered output): the VC of the lane that sent
  // ---------------------------------------------------------------------------------------------
  logic [VcIdxW-1:0] sel_vc;
  if (PriorityLevels == 1) begin : gen_sel_vc
    assign sel_vc = VcIdxW'(sa_sel_lane_i);
  end else begin : gen_sel_lane_vc
    logic unused_sel;   // a port with fewer lanes than the widest reads the low bits (sel)
    assign unused_sel = ^sa_sel_lane_i;
    always_comb begin
      sel_vc = '0;
      for (int unsigned l = 0; l < NumLanes; l++) begin
        if (sel == LaneW'(l)) sel_vc = VcIdxW'(l / PriorityLevels);
      end
    end
  end

  logic credit_valid_q;
  logic [VcIdxW-1:0] credit_vc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_valid_q <= 1'b0;
      credit_vc_q <= '0;
    end else begin
      credit_valid_q <= sa_win_i;
      credit_vc_q <= sa_win_i ? sel_vc : '0;
    end
  end

  assign credit_valid_o = credit_valid_q;
  assign credit_vc_o = credit_vc_q;

  assign route_error_o = |routed_invalid;
  assign empty_o = pipe_empty && (ivc_count_q == '0);

`ifndef SYNTHESIS
  initial begin
    if (PipelineStages < 1) $fatal(1, "torx_input_unit: PipelineStages must be at least 1");
    if (Pipeline > 2) $fatal(1, "torx_input_unit: Pipeline %0d is not 0 (single), 1 (lookahead) or 2 (classic)", Pipeline);
    if (BufferDepth < 1) $fatal(1, "torx_input_unit: BufferDepth must be at least 1");
    if (PriorityLevels < 1) $fatal(1, "torx_input_unit: PriorityLevels must be at least 1");
    if (NumVcs > (1 << VcIdxW)) $fatal(1, "torx_input_unit: VcIdxW too narrow for NumVcs");
    if (NumLanes > (1 << LaneIdxW)) $fatal(1, "torx_input_unit: LaneIdxW too narrow for the lanes");
  end
  // A flit arrives only on a VC of the port with room in its buffer (the upstream credit counter).
  always_ff @(posedge clk_i) begin
    if (rst_ni && wr_valid_o) begin
      assert (32'(wr_link_vc) < NumVcs) else $error("torx_input_unit: flit on VC %0d of %0d", wr_link_vc, NumVcs);
    end
  end
  // Wormhole order: an idle lane's front flit is a head.
  for (genvar v = 0; v < NumLanes; v++) begin : gen_assert_vc
    always_ff @(posedge clk_i) begin
      if (rst_ni && gen_vc[v].nonempty && gen_vc[v].state == torx_pkg::IvcIdle) begin
        assert (front_head[v]) else $error("torx_input_unit: lane %0d: a body flit at the front of an idle lane", v);
      end
    end
  end
`endif

  `include "props/torx_input_unit_props.svh"  // docs/verification.md, "Properties"

endmodule
