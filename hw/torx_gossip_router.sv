// SPDX-License-Identifier: Apache-2.0
// torx_gossip_router: the torx router in hardwired gossip mode (docs/gossip.md, "Hardwired
// forwarding"; C++ twin: Router::gossip_cycle, models/router.cpp, behind the RouterCore boundary of
// models/router_core.hpp). Store-and-forward, full-port, replicating: every packet is one block of
// PacketFlits flits on VC 0 of every link; the router forwards it by itself from the node's gossip
// image (torx_gossip_unit) and copies it to all its targets at once.
//
//   input pipeline   x ports   stages 1 .. P-1: torx_input_pipe, as in torx_input_unit
//   input buffer     x ports   VC 0 only: torx_vc_fifo (torx_input_unit's FIFO) of BufferDepth flits
//                              (two packets); ivc_state_q, ivc_count_q, gossip_targets_q
//   torx_gossip_unit           the image: loader (configuration port), rules, deliver mask
//   claims                     oldest first, rotating among equal ages (gossip_rr_q): one
//                              torx_rr_arbiter per claim round
//   output register  x ports   ovc_credits_q, ovc_owner_q (VC 0), flit_o
//
// Behaviour, cycle t, from the registers at its start (Router::gossip_cycle, step for step):
//   1. credits arriving in t count at once;
//   2. an IDLE input whose buffer holds the whole packet at its front (ivc_count_q >= PacketFlits)
//      computes the packet's targets: an injected packet (local input) its own output mask; a
//      prologue packet (start_dim 1) the ejection channel only; any other the network outputs of the
//      rules for its input port and age, plus the ejection channel if the port delivers (channel 0,
//      or with NumLocal > 1 the channel of the input direction);
//   3. such packets claim their targets oldest first (largest age; an injected packet has age 0)
//      and, among equal ages, in input-lane order from gossip_rr_q; a packet takes all its targets or
//      none, and only outputs that are free (ovc_owner_q) and have credits for the whole packet
//      (ovc_credits_q plus the credit arriving in t >= PacketFlits); gossip_rr_q moves past the
//      lane of the last claim of the cycle; a claiming input is ACTIVE from the end of t;
//   4. every ACTIVE input (claimed in t included) sends its front flit to all its targets in t
//      (in flit_o from the end of t, VC 0); a head copied onto a network link carries age + 1; the
//      slot's credit goes upstream (credit_*_o from the end of t); after the tail the input is IDLE
//      and its outputs free from t + 1.
// Ports, flit layout and every other cycle rule are torx_router's (docs/timing-contract.md): a
// flit on flit_i in cycle t is in the buffer from the end of t+P-1. The flit carries the gossip
// extension of torx_gossip_pkg in its data, between the payload and the tag. The gossip image must
// be loaded through cfg_* (cfg_done_o) before the first flit; rst_ni clears the loader, so a reset
// router needs it again.
// route_error_o (sticky) reports a packet the hardware cannot forward: a front flit of an idle input
// that is not a gossip head, or a packet without targets (the C++ router throws there).
//
// Parameters:
//   NumDims, NumLocal, NumClasses, VcsPerClass, BufferDepth, PipelineStages, FlitBytes, MaxRadix:
//                   as torx_router's (the classes size the VC fields only: gossip uses VC 0)
//   PacketFlits     flits of a gossip packet (one block); BufferDepth >= 2 PacketFlits
//   MaxRules        rule registers of the gossip image
//   SimTag          as torx_router's: 1 keeps the 64-bit simulation tag above the extension, 0 drops it
`include "torx_pkg.sv"
`include "torx_gossip_pkg.sv"
`include "torx_input_pipe.sv"
`include "torx_vc_fifo.sv"
`include "torx_router_status.sv"

module torx_gossip_router #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 4,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned PipelineStages = 2,
  parameter int unsigned FlitBytes = 16,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned PacketFlits = 4,
  parameter int unsigned MaxRules = 32,
  parameter int unsigned SimTag = 1,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = torx_pkg::num_ports(NumDims, NumLocal),
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = torx_pkg::total_vcs(NumDims, NumLocal, NetVcs),
  localparam int unsigned CoordW = torx_pkg::clog2w(MaxRadix),
  localparam int unsigned HdrW /*verilator public*/ = torx_pkg::hdr_w(NumDims, CoordW, NetVcs, 1),
  localparam int unsigned DataW /*verilator public*/ = torx_pkg::data_w(FlitBytes, torx_gossip_pkg::ext_w(NumDims), SimTag),
  localparam int unsigned FlitW /*verilator public*/ = HdrW + DataW,
  localparam int unsigned VcIdxW = torx_pkg::clog2w(NetVcs),
  localparam int unsigned BlockedW = $clog2(TotalVcs + 1),
  localparam int unsigned CfgWordW = torx_pkg::CfgWordW
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [31:0]                   node_id_i,         // static: node id the image must name
  // Configuration port (torx_gossip_unit): the gossip image, word by word, before the first flit.
  input  logic                          cfg_valid_i,
  input  logic [31:0]                   cfg_data_i,
  input  logic                          cfg_last_i,
  output logic                          cfg_done_o,
  output logic                          cfg_error_o,
  output logic [CfgWordW-1:0]           cfg_error_word_o,
  output logic [torx_pkg::CfgErrW-1:0]  cfg_error_code_o,  // torx_gossip_pkg::GossipErr*
  // Links in (cycle t).
  input  logic [NumPorts-1:0]           flit_valid_i,
  input  logic [NumPorts*FlitW-1:0]     flit_i,
  input  logic [NumPorts-1:0]           credit_valid_i,
  input  logic [NumPorts*VcIdxW-1:0]    credit_vc_i,
  // Links out (registered: pushed in cycle t, valid from the end of t).
  output logic [NumPorts-1:0]           flit_valid_o,
  output logic [NumPorts*FlitW-1:0]     flit_o,
  output logic [NumPorts-1:0]           credit_valid_o,
  output logic [NumPorts*VcIdxW-1:0]    credit_vc_o,
  // Status.
  output logic [BlockedW-1:0]           stat_blocked_o,    // registered: inputs whose due front flit did not leave in t
  output logic                          route_error_o,     // registered, sticky: a packet the router cannot forward
  output logic                          quiescent_o        // no flit in a pipeline stage or a buffer
);

  localparam int unsigned AgeW = torx_gossip_pkg::GossipAgeW;
  localparam int unsigned VcFieldW = VcIdxW;                // the header's VC field (torx_pkg::vc_w)
  localparam int unsigned StartDimW = torx_pkg::sd_w(NumDims);
  localparam int unsigned ExtLsb = HdrW + 8 * FlitBytes;     // the extension's first bit
  localparam int unsigned BodyW = FlitW - VcFieldW;         // a buffered flit: without its link VC
  localparam int unsigned StateW = torx_pkg::IvcStateW;
  localparam int unsigned CountW = $clog2(BufferDepth + 1);
  localparam int unsigned IvcW = $clog2(TotalVcs + 1);
  localparam int unsigned LaneW = torx_pkg::clog2w(TotalVcs);
  localparam int unsigned PortIdxW = torx_pkg::clog2w(NumPorts);
  localparam int unsigned CreditW = $clog2(BufferDepth + 1);
  // Field positions in a flit (a buffered flit: minus VcFieldW).
  localparam int unsigned FHead = torx_pkg::hdr_head(NetVcs);
  localparam int unsigned FTail = torx_pkg::hdr_tail(NetVcs);
  localparam int unsigned FStart = torx_pkg::hdr_start(NetVcs);
  localparam int unsigned FGossip = ExtLsb + torx_gossip_pkg::GossipExtBit;
  localparam int unsigned FAge = ExtLsb + torx_gossip_pkg::GossipExtAge;
  localparam int unsigned FMask = ExtLsb + torx_gossip_pkg::GossipExtMask;
  localparam logic [IvcW-1:0] Free = '1;

  // Input lane of a port (its VC 0; docs/timing-contract.md's input-VC index).
  function automatic int unsigned first_vc(input int unsigned port);
    first_vc = (port < NumNetPorts) ? port * NetVcs : NumNetPorts * NetVcs + (port - NumNetPorts);
  endfunction

  // --- per input port ---
  logic [NumPorts-1:0] in_nonempty, in_cand, in_active, in_send, in_grant, in_empty, in_bad;
  logic [NumPorts*AgeW-1:0] in_age;                 // claim age (injected packets: 0)
  logic [NumPorts*NumPorts-1:0] in_tgt_new, in_tgt_use;
  logic [NumPorts*BodyW-1:0] in_front;
  logic [NumPorts-1:0] in_front_tail;
  // --- per output port ---
  logic [NumPorts-1:0] out_ok, out_claim;
  logic [NumPorts*IvcW-1:0] out_claim_lane;
  // --- the gossip unit ---
  logic [NumNetPorts*AgeW-1:0] lk_age;
  logic [NumNetPorts*NumNetPorts-1:0] lk_fwd;
  logic [NumNetPorts-1:0] deliver;

  torx_gossip_unit #(
    .NumDims (NumDims),
    .MaxRules(MaxRules)
  ) u_gossip_unit (
    .clk_i,
    .rst_ni,
    .node_id_i,
    .cfg_i     ({cfg_valid_i, cfg_data_i, cfg_last_i}),
    .cfg_o     ({cfg_done_o, cfg_error_o, cfg_error_word_o, cfg_error_code_o}),
    .lk_age_i (lk_age),
    .lk_fwd_o (lk_fwd),
    .deliver_o(deliver)
  );

  // ---------------------------------------------------------------------------------------------
  // Input ports: pipeline, buffer (VC 0), targets
  // ---------------------------------------------------------------------------------------------
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    localparam int unsigned Ej = NumNetPorts + ((NumLocal > 1 && p < NumNetPorts) ? p : 0);

    // Stages 1 .. P-1 (never stall). They carry the flit without its link VC, as the buffer holds it
    // (the VC is always 0 here: checked on arrival).
    logic wr_valid, pipe_empty;
    logic [BodyW-1:0] wr_body;
    torx_input_pipe #(
      .PipelineStages(PipelineStages),
      .FlitW         (BodyW)
    ) u_pipe (
      .clk_i,
      .rst_ni,
      .flit_valid_i(flit_valid_i[p]),
      .flit_i      (flit_i[p*FlitW + VcFieldW +: BodyW]),
      .wr_valid_o  (wr_valid),
      .wr_flit_o   (wr_body),
      .empty_o     (pipe_empty)
    );

    // The buffer of VC 0 and the registers of the packet at its front.
    // Plain registers, not state machines to re-encode (fsm_encoding: yosys's FSM pass would spend
    // minutes on the claim logic that feeds them).
    (* fsm_encoding = "none" *) logic [StateW-1:0] ivc_state_q /*verilator public_flat_rd*/;
    logic [StateW-1:0] ivc_state_d;
    logic [CountW-1:0] ivc_count_q /*verilator public_flat_rd*/, ivc_count_d;
    logic [NumPorts-1:0] gossip_targets_q /*verilator public_flat_rd*/, gossip_targets_d;
    logic [BodyW-1:0] front;
    logic front_head, front_tail, front_gossip, front_prologue;
    logic [AgeW-1:0] front_age;
    logic [NumPorts-1:0] tgt_new;

    // The buffer: torx_input_unit's FIFO with one VC; a slot holds the flit without its link VC, whose
    // lowest bit is the head bit.
    torx_vc_fifo #(
      .NumVcs     (1),
      .BufferDepth(BufferDepth),
      .Width      (BodyW),
      .PeekW      (1),
      .SelLo      (0)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .push_i     (wr_valid),
      .push_vc_i  (1'b0),
      .push_data_i(wr_body),
      .pop_i      (in_send[p]),
      .front_o    (front_head),
      .sel_vc_i   (1'b0),
      .sel_front_o(front)
    );

    assign front_tail = front[FTail - VcFieldW];
    assign front_gossip = front[FGossip - VcFieldW];
    assign front_prologue = front[FStart - VcFieldW +: StartDimW] == StartDimW'(torx_gossip_pkg::GossipPrologue);
    assign front_age = front[FAge - VcFieldW +: AgeW];

    // 2. Targets of the packet at the front.
    if (p < NumNetPorts) begin : gen_net_targets
      assign lk_age[p*AgeW +: AgeW] = front_age;
      always_comb begin
        tgt_new = '0;
        if (front_prologue) begin
          tgt_new[Ej] = 1'b1;
        end else begin
          tgt_new[NumNetPorts-1:0] = lk_fwd[p*NumNetPorts +: NumNetPorts];
          tgt_new[Ej] = deliver[p];
        end
      end
      assign in_age[p*AgeW +: AgeW] = front_age;
    end else begin : gen_inj_targets
      // An injected packet goes where its node says (its output mask names network ports).
      assign tgt_new = NumPorts'(front[FMask - VcFieldW +: NumNetPorts]);
      assign in_age[p*AgeW +: AgeW] = '0;
      logic unused_front;  // an injected packet has age 0 and is never a prologue packet here
      assign unused_front = ^{front_age, front_prologue};
    end

    assign in_nonempty[p] = ivc_count_q != '0;
    assign in_active[p] = ivc_state_q == torx_pkg::IvcActive;
    assign in_cand[p] = in_nonempty[p] && !in_active[p] && 32'(ivc_count_q) >= PacketFlits &&
                        front_head && front_gossip && tgt_new != '0;
    assign in_bad[p] = in_nonempty[p] && !in_active[p] &&
                       (!front_head || !front_gossip || (32'(ivc_count_q) >= PacketFlits && tgt_new == '0));
    assign in_tgt_new[p*NumPorts +: NumPorts] = tgt_new;
    assign in_tgt_use[p*NumPorts +: NumPorts] = in_active[p] ? gossip_targets_q : tgt_new;
    assign in_send[p] = in_nonempty[p] && (in_active[p] || in_grant[p]);
    assign in_front[p*BodyW +: BodyW] = front;
    assign in_front_tail[p] = front_tail;
    assign in_empty[p] = pipe_empty && !in_nonempty[p];

    always_comb begin
      ivc_state_d = ivc_state_q;
      gossip_targets_d = gossip_targets_q;
      if (in_grant[p]) begin
        ivc_state_d = torx_pkg::IvcActive;
        gossip_targets_d = tgt_new;
      end
      if (in_send[p] && front_tail) ivc_state_d = torx_pkg::IvcIdle;
      ivc_count_d = ivc_count_q + CountW'(wr_valid) - CountW'(in_send[p]);
    end

    // The slot's credit upstream (always VC 0), registered.
    logic credit_valid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ivc_state_q <= torx_pkg::IvcIdle;
        ivc_count_q <= '0;
        gossip_targets_q <= '0;
        credit_valid_q <= 1'b0;
      end else begin
        ivc_state_q <= ivc_state_d;
        ivc_count_q <= ivc_count_d;
        gossip_targets_q <= gossip_targets_d;
        credit_valid_q <= in_send[p];
      end
    end
    assign credit_valid_o[p] = credit_valid_q;
    assign credit_vc_o[p*VcIdxW +: VcIdxW] = '0;

`ifndef SYNTHESIS
    // Gossip packets travel on VC 0 only, and credits guarantee room.
    always_ff @(posedge clk_i) begin
      if (rst_ni && flit_valid_i[p]) begin
        assert (flit_i[p*FlitW + torx_pkg::HdrVc +: VcFieldW] == '0)
          else $error("torx_gossip_router: a flit on VC %0d of input %0d", flit_i[p*FlitW + torx_pkg::HdrVc +: VcFieldW], p);
      end
      if (rst_ni && wr_valid) begin
        assert (32'(ivc_count_q) < BufferDepth || in_send[p])
          else $error("torx_gossip_router: buffer overflow at input %0d (upstream credit counter out of step)", p);
      end
      if (rst_ni && credit_valid_i[p]) begin
        assert (credit_vc_i[p*VcIdxW +: VcIdxW] == '0)
          else $error("torx_gossip_router: a credit for VC %0d of output %0d", credit_vc_i[p*VcIdxW +: VcIdxW], p);
      end
    end
`else
    logic unused_vc;
    assign unused_vc = ^{flit_i[p*FlitW +: VcFieldW], credit_vc_i[p*VcIdxW +: VcIdxW]};
`endif

    // -------------------------------------------------------------------------------------------
    // Output port p: VC 0's credits and owner, the output register
    // -------------------------------------------------------------------------------------------
    logic [CreditW-1:0] ovc_credits_q /*verilator public_flat_rd*/, ovc_credits_d;
    (* fsm_encoding = "none" *) logic [IvcW-1:0] ovc_owner_q /*verilator public_flat_rd*/;
    logic [IvcW-1:0] ovc_owner_d;
    logic [CreditW-1:0] credits_now;     // credit intake included
    logic out_valid, out_tail;
    logic [BodyW-1:0] out_body;

    assign credits_now = ovc_credits_q + CreditW'(credit_valid_i[p]);
    assign out_ok[p] = ovc_owner_q == Free && 32'(credits_now) >= PacketFlits;

    // 4. The front flit of the input sending to this output (at most one: the owner).
    always_comb begin
      out_valid = 1'b0;
      out_tail = 1'b0;
      out_body = '0;
      for (int unsigned q = 0; q < NumPorts; q++) begin
        if (in_send[q] && in_tgt_use[q*NumPorts + p]) begin
          out_valid = 1'b1;
          out_tail = in_front_tail[q];
          out_body = in_front[q*BodyW +: BodyW];
        end
      end
      // A head copied onto a network link has crossed one more link.
      if (p < NumNetPorts && out_body[FHead - VcFieldW]) begin
        out_body[FAge - VcFieldW +: AgeW] = out_body[FAge - VcFieldW +: AgeW] + AgeW'(1);
      end
      ovc_credits_d = credits_now - CreditW'(out_valid);
      ovc_owner_d = ovc_owner_q;
      if (out_claim[p]) ovc_owner_d = out_claim_lane[p*IvcW +: IvcW];
      if (out_valid && out_tail) ovc_owner_d = Free;
    end

    logic flit_valid_q;
    logic [BodyW-1:0] flit_body_q;  // data: not reset, qualified by flit_valid_q
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ovc_credits_q <= CreditW'(BufferDepth);
        ovc_owner_q <= Free;
        flit_valid_q <= 1'b0;
      end else begin
        ovc_credits_q <= ovc_credits_d;
        ovc_owner_q <= ovc_owner_d;
        flit_valid_q <= out_valid;
      end
    end
    always_ff @(posedge clk_i) begin
      if (out_valid) flit_body_q <= out_body;
    end
    assign flit_valid_o[p] = flit_valid_q;
    assign flit_o[p*FlitW +: FlitW] = {flit_body_q, {VcFieldW{1'b0}}};
  end

  // ---------------------------------------------------------------------------------------------
  // 3. Claims: oldest first, rotating among equal ages
  // ---------------------------------------------------------------------------------------------
  // Round k of NumPorts considers one candidate: of those not considered yet, the oldest, and among
  // equal ages the first in lane order from gossip_rr_q (a torx_rr_arbiter over the ports: port
  // lanes rise with the port, so "first lane at or after gossip_rr_q" is "first port at or after
  // rr_port"). It claims its targets if all of them are free and not claimed in an earlier round.
  (* fsm_encoding = "none" *) logic [LaneW-1:0] gossip_rr_q /*verilator public_flat_rd*/;
  logic [LaneW-1:0] gossip_rr_d;
  logic [PortIdxW-1:0] rr_port;                  // first port whose lane is at or after gossip_rr_q
  logic [NumPorts*NumPorts-1:0] older;           // bit q*NumPorts + p: input q's packet is older than p's
  logic [(NumPorts+1)*NumPorts-1:0] left /*verilator split_var*/;  // per round: candidates not considered
  logic [NumPorts-1:0] pick_valid;               // per round: a candidate was considered ...
  logic [NumPorts*PortIdxW-1:0] pick;            // ... this one
  logic [NumPorts-1:0] busy;                     // outputs claimed so far in the cycle

  always_comb begin
    rr_port = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (LaneW'(first_vc(p)) < gossip_rr_q) rr_port = PortIdxW'(p + 1 == NumPorts ? 0 : p + 1);
    end
  end

  for (genvar q = 0; q < NumPorts; q++) begin : gen_older
    for (genvar p = 0; p < NumPorts; p++) begin : gen_pair
      assign older[q*NumPorts + p] = in_age[q*AgeW +: AgeW] > in_age[p*AgeW +: AgeW];
    end
  end

  assign left[0 +: NumPorts] = in_cand;
  for (genvar k = 0; k < NumPorts; k++) begin : gen_round
    logic [NumPorts-1:0] cur, req;
    logic [PortIdxW-1:0] idx;
    assign cur = left[k*NumPorts +: NumPorts];
    // The oldest of the candidates left: none left is older.
    for (genvar p = 0; p < NumPorts; p++) begin : gen_req
      logic [NumPorts-1:0] older_than_p;
      for (genvar q = 0; q < NumPorts; q++) begin : gen_q
        assign older_than_p[q] = older[q*NumPorts + p];
      end
      assign req[p] = cur[p] && (cur & older_than_p) == '0;
    end
    torx_rr_arbiter #(.NumReq(NumPorts), .IdxW(PortIdxW)) u_arb (
      .req_i  (req),
      .ptr_i  (rr_port),
      .valid_o(pick_valid[k]),
      .idx_o  (idx)
    );
    assign pick[k*PortIdxW +: PortIdxW] = idx;
    assign left[(k+1)*NumPorts +: NumPorts] = cur & ~(NumPorts'(pick_valid[k]) << idx);
  end

  always_comb begin
    busy = '0;
    in_grant = '0;
    out_claim = '0;
    out_claim_lane = '0;
    gossip_rr_d = gossip_rr_q;
    for (int unsigned k = 0; k < NumPorts; k++) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (pick_valid[k] && pick[k*PortIdxW +: PortIdxW] == PortIdxW'(p) &&
            (in_tgt_new[p*NumPorts +: NumPorts] & ~(out_ok & ~busy)) == '0) begin
          in_grant[p] = 1'b1;
          busy = busy | in_tgt_new[p*NumPorts +: NumPorts];
          for (int unsigned o = 0; o < NumPorts; o++) begin
            if (in_tgt_new[p*NumPorts + o]) out_claim_lane[o*IvcW +: IvcW] = IvcW'(first_vc(p));
          end
          gossip_rr_d = (first_vc(p) + 1 == TotalVcs) ? '0 : LaneW'(first_vc(p) + 1);
        end
      end
    end
    out_claim = busy;
  end

  logic unused_left;  // the candidates no round considered: none (NumPorts rounds, one each)
  assign unused_left = ^left[NumPorts*NumPorts +: NumPorts];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) gossip_rr_q <= '0;
    else gossip_rr_q <= gossip_rr_d;
  end

  // --- status: every input with a flit at the front either sends it or waits ---
  torx_router_status #(
    .NumFronts(NumPorts),
    .NumPorts (NumPorts),
    .BlockedW (BlockedW)
  ) u_status (
    .clk_i,
    .rst_ni,
    .front_i       (in_nonempty),
    .send_i        (in_send),
    .progress_i    ('0),
    .error_i       (in_bad),
    .empty_i       (in_empty),
    .stat_blocked_o,
    .route_error_o,
    .quiescent_o
  );

`ifndef SYNTHESIS
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_gossip_router: NumDims %0d not in 1..15", NumDims);
    if (NumLocal != 1 && NumLocal != 2 * NumDims)
      $fatal(1, "torx_gossip_router: NumLocal %0d is neither 1 nor 2*NumDims", NumLocal);
    if (FlitBytes % 8 != 0 || FlitBytes == 0) $fatal(1, "torx_gossip_router: FlitBytes %0d is not a multiple of 8", FlitBytes);
    if (PacketFlits < 1 || BufferDepth < 2 * PacketFlits)
      $fatal(1, "torx_gossip_router: BufferDepth %0d holds fewer than two packets of %0d flits", BufferDepth, PacketFlits);
    if (NumPorts > 255) $fatal(1, "torx_gossip_router: more than 255 ports");
    if (SimTag > 1) $fatal(1, "torx_gossip_router: SimTag %0d is neither 0 nor 1", SimTag);
  end
`endif

endmodule
