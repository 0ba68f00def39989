// SPDX-License-Identifier: Apache-2.0
// fv_router: dor_router (hw/examples/dor_router.sv) with one link-protocol violation planted, chosen
// by Kind (`--rtl-param Kind=K`), for the checker's tests (testbenches/system/test_foreign_router.cpp;
// docs/router-interface.md, "What the checker enforces"):
//   1  ignores its network outputs' credits: under contention a flit goes into a full buffer
//      ("flit without a credit")
//   2  lets a head take an output VC another worm holds ("two worms interleaved")
//   3  returns the first credit of its injection port a second time ("beyond the buffer depth")
//   4  ejects on VC 1 of its local output, which has VC 0 only ("a VC the port does not have")
//   5  clears the head bit of every flit it sends ("without a head")
//   6  ORs its +x valid with a register that has no reset ("X on a valid wire")
module fv_router #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 1,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned FlitBytes = 32,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned DatelineClasses = 1,
  parameter int unsigned OrderClasses = 1,
  parameter int unsigned Kind = 1,
  localparam int unsigned NumPorts = 2 * NumDims + NumLocal,
  localparam int unsigned NetVcs = NumClasses * VcsPerClass,
  localparam int unsigned VcW = (NetVcs <= 1) ? 1 : $clog2(NetVcs),
  localparam int unsigned SdW = (NumDims <= 1) ? 1 : $clog2(NumDims),
  localparam int unsigned CW = (MaxRadix <= 1) ? 1 : $clog2(MaxRadix),
  localparam int unsigned FlitW = VcW + 2 + SdW + NumDims + NumDims * CW + 8 * FlitBytes + 64
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

  localparam int unsigned Local = 2 * NumDims;  // the injection / ejection port
  logic [NumPorts-1:0] flit_valid, credit_valid;
  logic [NumPorts*FlitW-1:0] flit;

  dor_router #(
    .NumDims        (NumDims),
    .NumLocal       (NumLocal),
    .NumClasses     (NumClasses),
    .VcsPerClass    (VcsPerClass),
    .BufferDepth    (BufferDepth),
    .FlitBytes      (FlitBytes),
    .MaxRadix       (MaxRadix),
    .DatelineClasses(DatelineClasses),
    .OrderClasses   (OrderClasses),
    .Broken         ((Kind == 1 || Kind == 2) ? Kind : 0)
  ) u_router (
    .clk_i,
    .rst_ni,
    .coord_i,
    .flit_valid_i,
    .flit_i,
    .credit_valid_i,
    .credit_vc_i,
    .flit_valid_o  (flit_valid),
    .flit_o        (flit),
    .credit_valid_o(credit_valid),
    .credit_vc_o
  );

  // Kind 3: the first injection credit once more, in the first later cycle without one of its own.
  logic seen_q, pending_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seen_q <= 1'b0;
      pending_q <= 1'b0;
    end else if (credit_valid[Local] && !seen_q) begin
      seen_q <= 1'b1;
      pending_q <= 1'b1;
    end else if (pending_q && !credit_valid[Local]) begin
      pending_q <= 1'b0;
    end
  end
  // Kind 6: no reset; the register keeps whatever the flop powered up with.
  logic stuck_q;
  always_ff @(posedge clk_i) stuck_q <= stuck_q;

  always_comb begin
    flit_valid_o = flit_valid;
    flit_o = flit;
    credit_valid_o = credit_valid;
    if (Kind == 3 && pending_q && !credit_valid[Local]) credit_valid_o[Local] = 1'b1;
    if (Kind == 4) flit_o[Local*FlitW] = 1'b1;  // bit 0 of the ejection port's vc field
    if (Kind == 5)
      for (int unsigned p = 0; p < NumPorts; p++) flit_o[p*FlitW + VcW] = 1'b0;
    if (Kind == 6) flit_valid_o[0] = flit_valid[0] | stuck_q;
  end

endmodule
