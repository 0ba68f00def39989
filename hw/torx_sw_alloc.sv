// SPDX-License-Identifier: Apache-2.0
// torx_sw_alloc: the switch allocator (C++ twin: SwitchAllocator, models/allocators.hpp), separable
// input-first with round-robin arbiters, one iteration: at most one flit per input port and per
// output port per cycle. Snapshot registers, flat vectors:
//   sa_in_rr_q   per input port p at [p*VcIdxW +: VcIdxW]: input-stage pointer, a VC of the port
//   sa_out_rr_q  per output port o at [o*PortW +: PortW]: output-stage pointer, an input port
//
// Cycle contract (docs/timing-contract.md, "Router pipeline", steps 4 and 5, stage P of cycle t):
//   input stage   each input port offers at most one VC among those ready (req_i: ACTIVE or granted
//                 in t, front flit due, a credit for its output VC): the first at or after
//                 sa_in_rr_q[p] in VC order, wrapping;
//   output stage  each output port grants one of the input ports offering a VC for it: the first
//                 at or after sa_out_rr_q[o], wrapping.
// At the end of t the winner's pointers move: sa_in_rr_q[p] to the VC after the winning VC,
// sa_out_rr_q[o] to the input port after p. Losers' pointers stay.
//
// Parameters:
//   NumDims, NumLocal        ports: 2N network (C x V VCs each), K local (one VC each)
//   NumClasses, VcsPerClass  C and V
//   Mutant                   3: sa_out_rr_q does not move on a grant; 0: none
`include "torx_pkg.sv"

module torx_sw_alloc #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned Mutant = 0,
  localparam int unsigned NumNetPorts = 2 * NumDims,
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned TotalVcs = NumNetPorts * NetVcs + NumLocal,
  localparam int unsigned PortW = torx_pkg::clog2w(NumPorts),
  localparam int unsigned VcIdxW = torx_pkg::clog2w(NetVcs)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [TotalVcs-1:0]        req_i,        // cycle t: input VC i can send its front flit ...
  input  logic [TotalVcs*PortW-1:0]  req_port_i,   // cycle t: ... to this output port
  output logic [NumPorts*VcIdxW-1:0] in_vc_o,      // cycle t: VC input port p offers (0 if none)
  output logic [NumPorts-1:0]        in_win_o,     // cycle t: input port p's offer won
  output logic [NumPorts-1:0]        out_valid_o,  // cycle t: output port o sends a flit ...
  output logic [NumPorts*PortW-1:0]  out_port_o    // cycle t: ... from this input port
);

  logic [NumPorts*VcIdxW-1:0] sa_in_rr_q /*verilator public_flat_rd*/, sa_in_rr_d;
  logic [NumPorts*PortW-1:0] sa_out_rr_q /*verilator public_flat_rd*/, sa_out_rr_d;

  logic [NumPorts-1:0] in_valid;               // input port p offers a VC ...
  logic [NumPorts*PortW-1:0] in_port;          // ... for this output port

  // Input stage.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    localparam bit Net = (p < NumNetPorts);
    localparam int unsigned Vcs = Net ? NetVcs : 1;
    localparam int unsigned FirstVc = Net ? p * NetVcs : NumNetPorts * NetVcs + (p - NumNetPorts);
    logic [VcIdxW-1:0] vc;

    if (Vcs == 1) begin : gen_one_vc
      assign in_valid[p] = req_i[FirstVc];
      assign vc = '0;
      logic [VcIdxW-1:0] unused_ptr;  // a one-VC port's pointer stays 0
      assign unused_ptr = sa_in_rr_q[p*VcIdxW +: VcIdxW];
    end else begin : gen_vcs
      torx_rr_arbiter #(.NumReq(Vcs), .IdxW(VcIdxW)) u_arb (
        .req_i  (req_i[FirstVc +: Vcs]),
        .ptr_i  (sa_in_rr_q[p*VcIdxW +: VcIdxW]),
        .valid_o(in_valid[p]),
        .idx_o  (vc)
      );
    end
    assign in_vc_o[p*VcIdxW +: VcIdxW] = vc;
    assign in_port[p*PortW +: PortW] = req_port_i[(FirstVc + 32'(vc))*PortW +: PortW];

    always_comb begin
      sa_in_rr_d[p*VcIdxW +: VcIdxW] = sa_in_rr_q[p*VcIdxW +: VcIdxW];
      if (in_win_o[p]) sa_in_rr_d[p*VcIdxW +: VcIdxW] = (32'(vc) == Vcs - 1) ? '0 : vc + VcIdxW'(1);
    end
  end

  // Output stage.
  logic [NumPorts*NumPorts-1:0] out_grant;   // [o*NumPorts + p]: output o grants input p
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [NumPorts-1:0] req;
    logic [PortW-1:0] winner;

    always_comb begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        req[p] = in_valid[p] && (in_port[p*PortW +: PortW] == PortW'(o));
      end
    end

    torx_rr_arbiter #(.NumReq(NumPorts), .IdxW(PortW)) u_arb (
      .req_i  (req),
      .ptr_i  (sa_out_rr_q[o*PortW +: PortW]),
      .valid_o(out_valid_o[o]),
      .idx_o  (winner)
    );
    assign out_port_o[o*PortW +: PortW] = winner;
    for (genvar p = 0; p < NumPorts; p++) begin : gen_grant
      assign out_grant[o*NumPorts + p] = out_valid_o[o] && (winner == PortW'(p));
    end

    always_comb begin
      sa_out_rr_d[o*PortW +: PortW] = sa_out_rr_q[o*PortW +: PortW];
      if (out_valid_o[o] && Mutant != 3) begin
        sa_out_rr_d[o*PortW +: PortW] = (32'(winner) == NumPorts - 1) ? '0 : winner + PortW'(1);
      end
    end
  end

  always_comb begin
    in_win_o = '0;
    for (int unsigned o = 0; o < NumPorts; o++) in_win_o = in_win_o | out_grant[o*NumPorts +: NumPorts];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sa_in_rr_q <= '0;
      sa_out_rr_q <= '0;
    end else begin
      sa_in_rr_q <= sa_in_rr_d;
      sa_out_rr_q <= sa_out_rr_d;
    end
  end

endmodule
