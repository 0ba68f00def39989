// SPDX-License-Identifier: Apache-2.0
// fv_no_credit: dor_router ignoring its network outputs' credits: under contention a flit goes into a full buffer ("flit without a credit").
module fv_no_credit #(
  parameter int unsigned NumDims = 2,
  parameter int unsigned NumLocal = 1,
  parameter int unsigned NumClasses = 1,
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned BufferDepth = 8,
  parameter int unsigned FlitBytes = 32,
  parameter int unsigned MaxRadix = 64,
  parameter int unsigned DatelineClasses = 1,
  parameter int unsigned OrderClasses = 1,
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
    .Broken         (1)
  ) u_router (
    .clk_i,
    .rst_ni,
    .coord_i,
    .flit_valid_i,
    .flit_i,
    .credit_valid_i,
    .credit_vc_i,
    .flit_valid_o  (flit_valid_o),
    .flit_o        (flit_o),
    .credit_valid_o(credit_valid_o),
    .credit_vc_o   (credit_vc_o)
  );

endmodule
