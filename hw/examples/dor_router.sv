// SPDX-License-Identifier: Apache-2.0
// dor_router: a dimension-order wormhole router written from docs/router-interface.md only (no
// torx source read), to show that a router of someone else's design runs on torx's testbench:
// `torx run dimak-a2 --topo 4x4 --mesh --model rtl --rtl-router hw/examples/dor_router.sv`.
//
// Design: input-queued, one FIFO of BufferDepth flits per input VC, credit flow control. Routing
// is hardwired (no table, no configuration port): the head's cyclic dimension order from
// start_dim, the direction from neg_mask, the router's coordinates from coord_i; the VC class as
// the document defines it (dateline class on a torus, order class), and of the class's VCs always
// the first (one VC per class). A worm holds its output VC from its head to its tail. Each cycle
// every input port offers one of its VCs (round robin) and every output port grants one of the
// offering inputs (round robin): separable allocation, head routing, VC allocation and switch
// traversal in one cycle; flit_o and credit_o are registers, so a flit written in cycle t leaves at
// the earliest in cycle t+1 (one pipeline stage).
//
// Broken = 1 (dor_router_broken.sv) is the deliberately broken variant: it ignores the credits of
// the network outputs, so under contention it sends into a full downstream buffer. Broken = 2 lets a
// head take an output VC another worm holds (two worms interleave on it; the checker's tests).
module dor_router #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 1,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned FlitBytes = 32,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned DatelineClasses = 1,
  parameter int unsigned OrderClasses = 1,
  parameter int unsigned Broken = 0,
  // Derived (docs/router-interface.md, "Parameters" and "The flit").
  localparam int unsigned NumPorts = 2 * NumDims + NumLocal,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned VcW = (NetVcs <= 1) ? 1 : $clog2(NetVcs),
  localparam int unsigned SdW = (NumDims <= 1) ? 1 : $clog2(NumDims),
  localparam int unsigned CW = (MaxRadix <= 1) ? 1 : $clog2(MaxRadix),
  localparam int unsigned HdrW = VcW + 2 + SdW + NumDims + NumDims * CW,
  localparam int unsigned DataW = 8 * FlitBytes + 64,
  localparam int unsigned FlitW = HdrW + DataW
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [NumDims*CW-1:0]      coord_i,
  input  logic [NumPorts-1:0]        flit_valid_i,
  input  logic [NumPorts*FlitW-1:0]  flit_i,
  input  logic [NumPorts-1:0]        credit_valid_i,
  input  logic [NumPorts*VcW-1:0]    credit_vc_i,
  output logic [NumPorts-1:0]        flit_valid_o,
  output logic [NumPorts*FlitW-1:0]  flit_o,
  output logic [NumPorts-1:0]        credit_valid_o,
  output logic [NumPorts*VcW-1:0]    credit_vc_o
);

  // Field offsets in a flit.
  localparam int unsigned OffHead = VcW;
  localparam int unsigned OffTail = VcW + 1;
  localparam int unsigned OffStart = VcW + 2;
  localparam int unsigned OffNeg = VcW + 2 + SdW;
  localparam int unsigned OffDest = OffNeg + NumDims;
  localparam int unsigned NumNet = 2 * NumDims;
  localparam int unsigned PortW = (NumPorts <= 1) ? 1 : $clog2(NumPorts);
  localparam int unsigned PtrW = (BufferDepth <= 1) ? 1 : $clog2(BufferDepth);
  localparam int unsigned CntW = $clog2(BufferDepth + 1);
  localparam int unsigned NumIvc = NumPorts * NetVcs;  // every port's VC slots (a local port uses VC 0)

  // --- input VC buffers (index i = port * NetVcs + vc) ----------------------------------------------
  logic [FlitW-1:0] mem_q [NumIvc][BufferDepth];
  logic [PtrW-1:0] rd_q [NumIvc];
  logic [PtrW-1:0] wr_q [NumIvc];
  logic [CntW-1:0] cnt_q [NumIvc];
  // Worm state per input VC: holds an output VC (from its head until its tail has left).
  logic active_q [NumIvc];
  logic [PortW-1:0] act_port_q [NumIvc];
  logic [VcW-1:0] act_vc_q [NumIvc];
  // Output VCs: owned by a worm, downstream credits.
  logic owned_q [NumPorts][NetVcs];
  logic [CntW-1:0] credits_q [NumPorts][NetVcs];
  // Round-robin pointers: per input port over its VCs, per output port over the input ports.
  logic [VcW-1:0] in_rr_q [NumPorts];
  logic [PortW-1:0] out_rr_q [NumPorts];

  localparam int unsigned IvcW = (NumIvc <= 1) ? 1 : $clog2(NumIvc);
  function automatic logic [FlitW-1:0] front(input logic [IvcW-1:0] i, input logic [PtrW-1:0] rd);
    front = mem_q[i][rd];
  endfunction

  // --- routing of the front flit of every input VC (only a head's matters) ------------------------
  logic [PortW-1:0] rt_port [NumIvc];
  logic [VcW-1:0] rt_vc [NumIvc];
  always_comb begin
    for (int unsigned i = 0; i < NumIvc; i++) begin
      logic [FlitW-1:0] f;
      logic found;
      int unsigned cls;
      f = front(IvcW'(i), rd_q[i]);
      found = 1'b0;
      cls = 0;
      rt_port[i] = '0;
      // Arrived: the ejection port (all-port: the one matching the input port of a network input).
      if (NumLocal > 1 && (i / NetVcs) < NumNet) rt_port[i] = PortW'(NumNet + i / NetVcs);
      else rt_port[i] = PortW'(NumNet);
      for (int unsigned k = 0; k < NumDims; k++) begin
        int unsigned d;
        logic [CW-1:0] own, dst;
        logic neg;
        d = (32'(f[OffStart +: SdW]) + k) % NumDims;
        own = coord_i[d*CW +: CW];
        dst = f[OffDest + d*CW +: CW];
        neg = f[OffNeg + d];
        if (!found && own != dst) begin
          found = 1'b1;
          rt_port[i] = PortW'(2 * d + (neg ? 1 : 0));
          // Dateline class: 0 while the rest of the path in the ring crosses the wrap-around link.
          cls = (DatelineClasses == 2) ? ((neg ? (own < dst) : (own > dst)) ? 0 : 1) : 0;
          cls = cls + DatelineClasses * ((k + 1 < OrderClasses) ? k : OrderClasses - 1);
        end
      end
      rt_vc[i] = found ? VcW'(cls * VcsPerClass) : '0;
    end
  end

  // --- requests: the front flit of an input VC may leave if its output VC is its own (or free for a
  // head) and has a credit ------------------------------------------------------------------------
  logic req [NumIvc];
  logic [PortW-1:0] req_port [NumIvc];
  logic [VcW-1:0] req_vc [NumIvc];
  always_comb begin
    for (int unsigned i = 0; i < NumIvc; i++) begin
      logic [FlitW-1:0] f;
      logic credit_ok;
      f = front(IvcW'(i), rd_q[i]);
      req_port[i] = active_q[i] ? act_port_q[i] : rt_port[i];
      req_vc[i] = active_q[i] ? act_vc_q[i] : rt_vc[i];
      credit_ok = credits_q[req_port[i]][req_vc[i]] != '0 || (Broken != 0 && 32'(req_port[i]) < NumNet);
      req[i] = cnt_q[i] != '0 && credit_ok &&
               (active_q[i] || (f[OffHead] && (!owned_q[req_port[i]][req_vc[i]] || Broken == 2)));
    end
  end

  // Stage 1: each input port offers one VC (round robin from in_rr_q).
  logic in_offer [NumPorts];
  logic [VcW-1:0] in_vc [NumPorts];
  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      in_offer[p] = 1'b0;
      in_vc[p] = '0;
      for (int unsigned n = 0; n < NetVcs; n++) begin
        int unsigned v;
        v = (32'(in_rr_q[p]) + n) % NetVcs;
        if (!in_offer[p] && req[p*NetVcs + v]) begin
          in_offer[p] = 1'b1;
          in_vc[p] = VcW'(v);
        end
      end
    end
  end

  // Stage 2: each output port grants one offering input port (round robin from out_rr_q).
  logic out_grant [NumPorts];
  logic [PortW-1:0] out_src [NumPorts];
  logic in_won [NumPorts];
  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) in_won[p] = 1'b0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      out_grant[o] = 1'b0;
      out_src[o] = '0;
      for (int unsigned n = 0; n < NumPorts; n++) begin
        int unsigned p;
        p = (32'(out_rr_q[o]) + n) % NumPorts;
        if (!out_grant[o] && in_offer[p] && 32'(req_port[p*NetVcs + 32'(in_vc[p])]) == o) begin
          out_grant[o] = 1'b1;
          out_src[o] = PortW'(p);
          in_won[p] = 1'b1;
        end
      end
    end
  end

  // --- next state ---------------------------------------------------------------------------------
  logic [PtrW-1:0] rd_d [NumIvc];
  logic [PtrW-1:0] wr_d [NumIvc];
  logic [CntW-1:0] cnt_d [NumIvc];
  logic active_d [NumIvc];
  logic [PortW-1:0] act_port_d [NumIvc];
  logic [VcW-1:0] act_vc_d [NumIvc];
  logic owned_d [NumPorts][NetVcs];
  logic [CntW-1:0] credits_d [NumPorts][NetVcs];
  logic [VcW-1:0] in_rr_d [NumPorts];
  logic [PortW-1:0] out_rr_d [NumPorts];
  logic [NumPorts-1:0] flit_valid_d, credit_valid_d;
  logic [NumPorts*FlitW-1:0] flit_d;
  logic [NumPorts*VcW-1:0] credit_vc_d;
  logic [NumIvc-1:0] wr_en;
  logic [FlitW-1:0] wr_flit [NumIvc];

  always_comb begin
    logic [IvcW-1:0] wi, oi;
    logic [VcW-1:0] cv, ov;
    logic [PortW-1:0] op;
    logic [FlitW-1:0] of;
    wi = '0;
    oi = '0;
    cv = '0;
    ov = '0;
    op = '0;
    of = '0;
    for (int unsigned i = 0; i < NumIvc; i++) begin
      rd_d[i] = rd_q[i];
      wr_d[i] = wr_q[i];
      cnt_d[i] = cnt_q[i];
      active_d[i] = active_q[i];
      act_port_d[i] = act_port_q[i];
      act_vc_d[i] = act_vc_q[i];
      wr_flit[i] = '0;
    end
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NetVcs; v++) begin
        owned_d[o][v] = owned_q[o][v];
        credits_d[o][v] = credits_q[o][v];
      end
      in_rr_d[o] = in_rr_q[o];
      out_rr_d[o] = out_rr_q[o];
    end
    wr_en = '0;
    flit_valid_d = '0;
    flit_d = flit_o;
    credit_valid_d = '0;
    credit_vc_d = credit_vc_o;
    // Flits in: written into the input VC their vc field names; credits in.
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (flit_valid_i[p]) begin
        wi = IvcW'(p * NetVcs) + ((p < NumNet) ? IvcW'(flit_i[p*FlitW +: VcW]) : '0);
        wr_en[wi] = 1'b1;
        wr_flit[wi] = flit_i[p*FlitW +: FlitW];
        wr_d[wi] = (32'(wr_q[wi]) == BufferDepth - 1) ? '0 : wr_q[wi] + 1'b1;
        cnt_d[wi] = cnt_d[wi] + 1'b1;
      end
      if (credit_valid_i[p]) begin
        cv = (p < NumNet) ? credit_vc_i[p*VcW +: VcW] : '0;
        credits_d[p][cv] = credits_d[p][cv] + 1'b1;
      end
    end
    // Flits out: the winner of every output port; its slot's credit upstream.
    for (int unsigned o = 0; o < NumPorts; o++) begin
      if (out_grant[o]) begin
        op = out_src[o];
        oi = IvcW'(32'(op) * NetVcs) + IvcW'(in_vc[op]);
        of = front(oi, rd_q[oi]);
        ov = req_vc[oi];
        of[0 +: VcW] = ov;
        flit_valid_d[o] = 1'b1;
        flit_d[o*FlitW +: FlitW] = of;
        credit_valid_d[op] = 1'b1;
        credit_vc_d[32'(op)*VcW +: VcW] = in_vc[op];
        rd_d[oi] = (32'(rd_q[oi]) == BufferDepth - 1) ? '0 : rd_q[oi] + 1'b1;
        cnt_d[oi] = cnt_d[oi] - 1'b1;
        credits_d[o][ov] = credits_d[o][ov] - 1'b1;
        if (of[OffTail]) begin
          active_d[oi] = 1'b0;
          owned_d[o][ov] = 1'b0;
        end else if (of[OffHead]) begin
          active_d[oi] = 1'b1;
          act_port_d[oi] = PortW'(o);
          act_vc_d[oi] = ov;
          owned_d[o][ov] = 1'b1;
        end
        out_rr_d[o] = (32'(out_src[o]) == NumPorts - 1) ? '0 : out_src[o] + 1'b1;
      end
    end
    for (int unsigned p = 0; p < NumPorts; p++)
      if (in_won[p]) in_rr_d[p] = (32'(in_vc[p]) == NetVcs - 1) ? '0 : in_vc[p] + 1'b1;
  end

  // --- registers -----------------------------------------------------------------------------------
  for (genvar i = 0; i < NumIvc; i++) begin : gen_ivc
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q[i] <= '0;
        wr_q[i] <= '0;
        cnt_q[i] <= '0;
        active_q[i] <= 1'b0;
        act_port_q[i] <= '0;
        act_vc_q[i] <= '0;
      end else begin
        rd_q[i] <= rd_d[i];
        wr_q[i] <= wr_d[i];
        cnt_q[i] <= cnt_d[i];
        active_q[i] <= active_d[i];
        act_port_q[i] <= act_port_d[i];
        act_vc_q[i] <= act_vc_d[i];
      end
    end
    // The buffer RAM: written, never reset (its contents matter only below the count).
    always_ff @(posedge clk_i) begin
      if (wr_en[i]) mem_q[i][wr_q[i]] <= wr_flit[i];
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    for (genvar v = 0; v < NetVcs; v++) begin : gen_vc
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          owned_q[o][v] <= 1'b0;
          credits_q[o][v] <= CntW'(BufferDepth);
        end else begin
          owned_q[o][v] <= owned_d[o][v];
          credits_q[o][v] <= credits_d[o][v];
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_rr_q[o] <= '0;
        out_rr_q[o] <= '0;
      end else begin
        in_rr_q[o] <= in_rr_d[o];
        out_rr_q[o] <= out_rr_d[o];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flit_valid_o <= '0;
      flit_o <= '0;
      credit_valid_o <= '0;
      credit_vc_o <= '0;
    end else begin
      flit_valid_o <= flit_valid_d;
      flit_o <= flit_d;
      credit_valid_o <= credit_valid_d;
      credit_vc_o <= credit_vc_d;
    end
  end

endmodule
