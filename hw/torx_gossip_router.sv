// SPDX-License-Identifier: Apache-2.0
// torx_gossip_router: the torx router in hardwired gossip mode (docs/gossip.md, "Hardwired
// forwarding"; C++ twin: Router::gossip_cycle, models/router.cpp, behind the RouterCore boundary of
// models/router_core.hpp). Store-and-forward, full-port, replicating: every packet is one block of
// PacketFlits flits on VC 0 of every link; the router forwards it by itself from the node's gossip
// image (torx_gossip_unit) and copies it to all its targets at once.
//
//   input pipeline   x ports   stages 1 .. P-1, as torx_input_unit's
//   input buffer     x ports   VC 0 only: a FIFO of BufferDepth flits (two packets), ivc_state_q,
//                              ivc_count_q, gossip_targets_q
//   torx_gossip_unit           the image: loader (configuration port), rules, deliver mask
//   claims                     oldest first, rotating among equal ages (gossip_rr_q)
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
// extension of torx_gossip_pkg above torx_router's fields. The gossip image must be loaded through
// cfg_* (cfg_done_o) before the first flit; rst_ni clears the loader, so a reset router needs it again.
// route_error_o (sticky) reports a packet the hardware cannot forward: a front flit of an idle input
// that is not a gossip head, or a packet without targets (the C++ router throws there).
//
// Parameters:
//   NumDims, NumLocal, NumClasses, VcsPerClass, BufferDepth, PipelineStages, FlitBytes, MaxRadix:
//                   as torx_router's (the classes size the VC fields only: gossip uses VC 0)
//   PacketFlits     flits of a gossip packet (one block); BufferDepth >= 2 PacketFlits
//   MaxRules        rule registers of the gossip image
//   Mutant          0: none; 1: a network copy keeps the age it arrived with; 2: gossip_rr_q never
//                   moves (equal ages always claim in lane order) (docs/rtl.md, "Mutants")
`include "torx_pkg.sv"
`include "torx_gossip_pkg.sv"

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
  parameter int unsigned Mutant = 0,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = NumNetPorts * NetVcs + NumLocal,
  localparam int unsigned CoordW = torx_pkg::clog2w(MaxRadix),
  localparam int unsigned BaseW = torx_pkg::flit_w(NumDims, CoordW, FlitBytes),
  localparam int unsigned FlitW /*verilator public*/ = BaseW + torx_gossip_pkg::ext_w(NumDims),
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
  localparam int unsigned VcFieldW = torx_pkg::VcFieldW;
  localparam int unsigned BodyW = FlitW - VcFieldW;         // a buffered flit: without its link VC
  localparam int unsigned StateW = torx_pkg::IvcStateW;
  localparam int unsigned CountW = $clog2(BufferDepth + 1);
  localparam int unsigned PtrW = torx_pkg::clog2w(BufferDepth);
  localparam int unsigned IvcW = $clog2(TotalVcs + 1);
  localparam int unsigned LaneW = torx_pkg::clog2w(TotalVcs);
  localparam int unsigned KeyW = AgeW + LaneW + 1;          // claim order: {age, ~distance from gossip_rr_q}
  localparam int unsigned RankW = $clog2(NumPorts + 1);
  localparam int unsigned CreditW = $clog2(BufferDepth + 1);
  // Field positions in a flit (a buffered flit: minus VcFieldW).
  localparam int unsigned FHead = torx_pkg::SideHead;
  localparam int unsigned FTail = torx_pkg::SideTail;
  localparam int unsigned FStart = torx_pkg::SideStartDim;
  localparam int unsigned FGossip = BaseW + torx_gossip_pkg::GossipExtBit;
  localparam int unsigned FAge = BaseW + torx_gossip_pkg::GossipExtAge;
  localparam int unsigned FMask = BaseW + torx_gossip_pkg::GossipExtMask;
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
    .cfg_valid_i,
    .cfg_data_i,
    .cfg_last_i,
    .cfg_done_o,
    .cfg_error_o,
    .cfg_error_word_o,
    .cfg_error_code_o,
    .lk_age_i (lk_age),
    .lk_fwd_o (lk_fwd),
    .deliver_o(deliver)
  );

  // ---------------------------------------------------------------------------------------------
  // Input ports: pipeline, buffer (VC 0), targets
  // ---------------------------------------------------------------------------------------------
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    localparam int unsigned Ej = NumNetPorts + ((NumLocal > 1 && p < NumNetPorts) ? p : 0);

    // Stages 1 .. P-1 (never stall).
    logic wr_valid, pipe_empty;
    logic [FlitW-1:0] wr_flit;
    if (PipelineStages == 1) begin : gen_no_pipe
      assign wr_valid = flit_valid_i[p];
      assign wr_flit = flit_i[p*FlitW +: FlitW];
      assign pipe_empty = 1'b1;
    end else begin : gen_pipe
      localparam int unsigned Regs = PipelineStages - 1;
      logic [Regs-1:0] pipe_valid_q, pipe_valid_d;
      logic [Regs*FlitW-1:0] pipe_flit_q, pipe_flit_d;  // data: not reset, qualified by pipe_valid_q
      always_comb begin
        pipe_valid_d[0] = flit_valid_i[p];
        pipe_flit_d[0 +: FlitW] = flit_i[p*FlitW +: FlitW];
        for (int unsigned s = 1; s < Regs; s++) begin
          pipe_valid_d[s] = pipe_valid_q[s-1];
          pipe_flit_d[s*FlitW +: FlitW] = pipe_flit_q[(s-1)*FlitW +: FlitW];
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) pipe_valid_q <= '0;
        else pipe_valid_q <= pipe_valid_d;
      end
      always_ff @(posedge clk_i) begin
        pipe_flit_q <= pipe_flit_d;
      end
      assign wr_valid = pipe_valid_q[Regs-1];
      assign wr_flit = pipe_flit_q[(Regs-1)*FlitW +: FlitW];
      assign pipe_empty = ~|pipe_valid_q;
    end

    // The buffer of VC 0 and the registers of the packet at its front.
    // Plain registers, not state machines to re-encode (fsm_encoding: yosys's FSM pass would spend
    // minutes on the claim logic that feeds them).
    (* fsm_encoding = "none" *) logic [StateW-1:0] ivc_state_q /*verilator public_flat_rd*/;
    logic [StateW-1:0] ivc_state_d;
    logic [CountW-1:0] ivc_count_q /*verilator public_flat_rd*/, ivc_count_d;
    logic [NumPorts-1:0] gossip_targets_q /*verilator public_flat_rd*/, gossip_targets_d;
    logic [PtrW-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d;
    logic [BodyW-1:0] fifo_q [BufferDepth];  // the buffer RAM (not reset)
    logic [BodyW-1:0] front;
    logic front_head, front_tail, front_gossip, front_prologue;
    logic [AgeW-1:0] front_age;
    logic [NumPorts-1:0] tgt_new;

    always_ff @(posedge clk_i) begin
      if (wr_valid) fifo_q[wr_ptr_q] <= wr_flit[FlitW-1:VcFieldW];
    end

    assign front = fifo_q[rd_ptr_q];
    assign front_head = front[FHead - VcFieldW];
    assign front_tail = front[FTail - VcFieldW];
    assign front_gossip = front[FGossip - VcFieldW];
    assign front_prologue = front[FStart - VcFieldW +: torx_pkg::StartDimW] == torx_gossip_pkg::GossipPrologue;
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
      rd_ptr_d = !in_send[p] ? rd_ptr_q : (32'(rd_ptr_q) == BufferDepth - 1) ? '0 : rd_ptr_q + PtrW'(1);
      wr_ptr_d = !wr_valid ? wr_ptr_q : (32'(wr_ptr_q) == BufferDepth - 1) ? '0 : wr_ptr_q + PtrW'(1);
    end

    // The slot's credit upstream (always VC 0), registered.
    logic credit_valid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ivc_state_q <= torx_pkg::IvcIdle;
        ivc_count_q <= '0;
        gossip_targets_q <= '0;
        rd_ptr_q <= '0;
        wr_ptr_q <= '0;
        credit_valid_q <= 1'b0;
      end else begin
        ivc_state_q <= ivc_state_d;
        ivc_count_q <= ivc_count_d;
        gossip_targets_q <= gossip_targets_d;
        rd_ptr_q <= rd_ptr_d;
        wr_ptr_q <= wr_ptr_d;
        credit_valid_q <= in_send[p];
      end
    end
    assign credit_valid_o[p] = credit_valid_q;
    assign credit_vc_o[p*VcIdxW +: VcIdxW] = '0;

`ifndef SYNTHESIS
    // Gossip packets travel on VC 0 only, and credits guarantee room.
    always_ff @(posedge clk_i) begin
      if (rst_ni && wr_valid) begin
        assert (wr_flit[torx_pkg::SideVc +: VcFieldW] == '0)
          else $error("torx_gossip_router: a flit on VC %0d of input %0d", wr_flit[torx_pkg::SideVc +: VcFieldW], p);
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
    assign unused_vc = ^{wr_flit[VcFieldW-1:0], credit_vc_i[p*VcIdxW +: VcIdxW]};
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
      if (p < NumNetPorts && Mutant != 1 && out_body[FHead - VcFieldW]) begin
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
  (* fsm_encoding = "none" *) logic [LaneW-1:0] gossip_rr_q /*verilator public_flat_rd*/;
  logic [LaneW-1:0] gossip_rr_d;
  logic [NumPorts*KeyW-1:0] key;
  logic [NumPorts*RankW-1:0] rank;  // candidates before each one in claim order
  logic [NumPorts-1:0] busy;        // outputs claimed so far in the cycle

  for (genvar p = 0; p < NumPorts; p++) begin : gen_key
    // Distance of the port's lane from gossip_rr_q; the smaller claims first among equal ages.
    localparam logic [LaneW:0] Lane = (LaneW + 1)'(first_vc(p));
    logic [LaneW:0] rr, rr_dist;
    assign rr = {1'b0, gossip_rr_q};
    assign rr_dist = (Lane >= rr) ? Lane - rr : Lane + (LaneW + 1)'(TotalVcs) - rr;
    assign key[p*KeyW +: KeyW] = {in_age[p*AgeW +: AgeW], ~rr_dist};
  end

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      rank[p*RankW +: RankW] = '0;
      for (int unsigned q = 0; q < NumPorts; q++) begin
        if (q != p && in_cand[q] && key[q*KeyW +: KeyW] > key[p*KeyW +: KeyW]) begin
          rank[p*RankW +: RankW] = rank[p*RankW +: RankW] + RankW'(1);
        end
      end
    end
  end

  always_comb begin
    busy = '0;
    in_grant = '0;
    out_claim = '0;
    out_claim_lane = '0;
    gossip_rr_d = gossip_rr_q;
    for (int unsigned k = 0; k < NumPorts; k++) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (in_cand[p] && 32'(rank[p*RankW +: RankW]) == k &&
            (in_tgt_new[p*NumPorts +: NumPorts] & ~(out_ok & ~busy)) == '0) begin
          in_grant[p] = 1'b1;
          busy = busy | in_tgt_new[p*NumPorts +: NumPorts];
          for (int unsigned o = 0; o < NumPorts; o++) begin
            if (in_tgt_new[p*NumPorts + o]) out_claim_lane[o*IvcW +: IvcW] = IvcW'(first_vc(p));
          end
          if (Mutant != 2) gossip_rr_d = (first_vc(p) + 1 == TotalVcs) ? '0 : LaneW'(first_vc(p) + 1);
        end
      end
    end
    out_claim = busy;
  end

  // --- status ---
  logic [BlockedW-1:0] stat_blocked_q;
  logic route_error_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gossip_rr_q <= '0;
      stat_blocked_q <= '0;
      route_error_q <= 1'b0;
    end else begin
      gossip_rr_q <= gossip_rr_d;
      // Every input with a flit at the front either sends it or waits.
      stat_blocked_q <= BlockedW'($countones(in_nonempty)) - BlockedW'($countones(in_send));
      route_error_q <= route_error_q || (|in_bad);
    end
  end
  assign stat_blocked_o = stat_blocked_q;
  assign route_error_o = route_error_q;
  assign quiescent_o = &in_empty;

`ifndef SYNTHESIS
  initial begin
    if (NumDims < 1 || NumDims > 15) $fatal(1, "torx_gossip_router: NumDims %0d not in 1..15", NumDims);
    if (NumLocal != 1 && NumLocal != 2 * NumDims)
      $fatal(1, "torx_gossip_router: NumLocal %0d is neither 1 nor 2*NumDims", NumLocal);
    if (FlitBytes % 8 != 0 || FlitBytes == 0) $fatal(1, "torx_gossip_router: FlitBytes %0d is not a multiple of 8", FlitBytes);
    if (PacketFlits < 1 || BufferDepth < 2 * PacketFlits)
      $fatal(1, "torx_gossip_router: BufferDepth %0d holds fewer than two packets of %0d flits", BufferDepth, PacketFlits);
    if (NumPorts > 255) $fatal(1, "torx_gossip_router: more than 255 ports");
    if (Mutant > 2) $fatal(1, "torx_gossip_router: Mutant %0d does not exist", Mutant);
  end
`endif

endmodule
