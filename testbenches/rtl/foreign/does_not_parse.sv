// SPDX-License-Identifier: Apache-2.0
// A file that does not parse (a missing semicolon): Verilator's error comes back with exit 2.
module does_not_parse #(parameter int unsigned NumDims = 2) (
  input logic clk_i
);
  logic x
  assign x = clk_i;
endmodule
