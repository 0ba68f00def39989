// The forwarding-table text format (core/forwarding_table.hpp, docs/forwarding-tables.md): generated
// tables round-trip and validate; hostile or inconsistent input is refused with an InputError that
// names the line and the field, before anything is sized by what the file claims. Each refusal below
// is a case an audit of the first reader found accepted (or worse: a repeated 'dims' line wrote past
// a buffer, and 'dims 46340 46340' in a 50-byte file allocated 48 GB).
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "algorithms/meyer_sibeyn.hpp"
#include "core/errors.hpp"
#include "core/forwarding_table.hpp"

namespace torx::sw {
namespace {

std::string table_text(const std::vector<int>& dims, const MsHcOptions& options = {}) {
  std::stringstream out;
  write_forwarding_table(out, plan_ms_hc(PlainTopology{dims, true}, options).table);
  return out.str();
}

// The 3x3 ms-hc tables: 9 nodes, 2 pieces, 4 steps, injection at step 1, no prologue. Lines 1-7 are
// the header (version, comment, algorithm, dims, pieces, steps, inject_step); node 0's records follow:
//   D 0 0 8 1 / D 0 1 4 1 / D 0 2 2 1 / D 0 3 1 1 / D 0 4 15 0 / R 0 3 0 2 4 / ... / I 0 0 9 / I 0 1 6
const std::string& good() {
  static const std::string text = table_text({3, 3});
  return text;
}

// The 5x6 tables with Section 2.2's re-packing prologue (P records, inject_step 2).
const std::string& good_prologue() {
  static const std::string text = [] {
    MsHcOptions o;
    o.variant = MsHcVariant::kFewestSteps;
    return table_text({5, 6}, o);
  }();
  return text;
}

ForwardingTable parse(const std::string& text) {
  std::istringstream in(text);
  return read_forwarding_table(in, "t.tab");
}

// `text` with its first line equal to `line` replaced by `by` (which may hold several lines or none).
std::string replace_line(const std::string& text, const std::string& line, const std::string& by) {
  const size_t at = ("\n" + text).find("\n" + line + "\n");
  EXPECT_NE(at, std::string::npos) << "no line '" << line << "'";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + by + (by.empty() ? "" : "\n") + text.substr(at + line.size() + 1);
}

std::string insert_after(const std::string& text, const std::string& line, const std::string& extra) {
  return replace_line(text, line, line + "\n" + extra);
}

// The text must be refused with a message holding every needle.
void expect_refused(const std::string& text, std::initializer_list<const char*> needles) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted; expected a refusal naming: " << *needles.begin();
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const char* n : needles) EXPECT_NE(what.find(n), std::string::npos) << "message: " << what << "\nmissing: " << n;
  }
}

TEST(ForwardingTable, GeneratedTablesRoundTripAndValidate) {
  for (const std::string* text : {&good(), &good_prologue()}) {
    std::stringstream again;
    write_forwarding_table(again, parse(*text));
    // The construction comment (line 2) is not read back; everything else is written identically.
    const size_t comment = text->find('\n') + 1;
    EXPECT_EQ(text->substr(0, comment) + text->substr(text->find('\n', comment) + 1), again.str());
  }
  for (const std::vector<int>& dims : {std::vector<int>{8, 8}, {7, 7}, {3, 4, 5}}) {
    EXPECT_NO_THROW(validate_forwarding_table(plan_ms_hc(PlainTopology{dims, true}).table));
    EXPECT_NO_THROW(validate_forwarding_table(plan_ms_one(PlainTopology{{6, 9}, true}).table));
  }
}

TEST(ForwardingTable, ARepeatedDimsLineIsRefused) {
  // The audit's heap overflow: a second 'dims' after the tables were sized for the first made the
  // first reader take in_port 7 as valid and write past the 5-entry row of node 1; its variant with
  // a rule read past the row when checking the rule against the mask.
  expect_refused(insert_after(good(), "I 0 1 6", "dims 5 5\nD 1 7 0 1"), {"t.tab, line 19", "dims", "repeated header field"});
  expect_refused(insert_after(good(), "I 0 1 6", "dims 5 5\nR 1 6 7 2 4"), {"t.tab, line 19", "dims", "repeated header field"});
  // Its variant before any record (the first reader appended the radices: a 4D torus of 3x3x3x3).
  expect_refused(insert_after(good(), "dims 3 3", "dims 3 3"), {"line 5", "dims", "repeated header field"});
}

TEST(ForwardingTable, OtherRepeatedOrMisplacedHeaderFieldsAreRefused) {
  expect_refused(insert_after(good(), "pieces 2", "pieces 2"), {"line 6", "pieces", "repeated"});
  expect_refused(insert_after(good(), "steps 4", "steps 4"), {"line 7", "steps", "repeated"});
  expect_refused(insert_after(good(), "inject_step 1", "inject_step 1"), {"line 8", "inject_step", "repeated"});
  expect_refused(insert_after(good(), "algorithm ms-hc", "algorithm ms-one"), {"line 4", "algorithm", "repeated"});
  expect_refused(replace_line(good(), "steps 4", ""), {"line 7", "'steps' must come before the records"});
  expect_refused(insert_after(good(), "torx-forwarding-tables 1", "torx-forwarding-tables 1"), {"line 2", "unknown record kind"});
}

TEST(ForwardingTable, HugeDimsAreRefusedWithoutAllocating) {
  // 50 bytes claiming 46340^2 nodes: above the topology limit.
  expect_refused("torx-forwarding-tables 1\nalgorithm x\ndims 46340 46340\npieces 1\nsteps 1\ninject_step 1\nend\n",
                 {"line 7", "dims", "not supported"});
  // 2^24 nodes is within the limit, but the file injects none of their blocks: refused from the
  // record counts, before any per-node table exists (so at once, and without gigabytes).
  const auto t0 = std::chrono::steady_clock::now();
  expect_refused("torx-forwarding-tables 1\nalgorithm x\ndims 4096 4096\npieces 1\nsteps 1\ninject_step 1\nend\n",
                 {"line 7", "0 of the 16777216 blocks are injected; block 0 (node 0, piece 0) is not"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  expect_refused(replace_line(good(), "pieces 2", "pieces 100000000"), {"line 5", "pieces", "not in 1..65536"});
  expect_refused(replace_line(good(), "steps 4", "steps 1000000000000"), {"line 8", "steps", "needs at most 145"});
  expect_refused(replace_line(good(), "dims 3 3", "dims 3 1"), {"line 4", "dims", "radix 1 is out of range"});
  expect_refused(replace_line(good(), "dims 3 3", "dims 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3"), {"line 4", "17 dimensions"});
}

TEST(ForwardingTable, UnknownRecordsAndMalformedFieldsAreRefused) {
  expect_refused(insert_after(good(), "I 0 1 6", "X 0 1"), {"line 19", "X", "unknown record kind"});
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 0 8 1 7"), {"line 8", "expected 4 fields"});
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 x 8 1"), {"line 8", "D in_port", "'x' is not an integer"});
  expect_refused(replace_line(good(), "I 0 0 9", "I 0 -1 9"), {"line 17", "I block", "not a non-negative integer"});
  expect_refused(good() + "D 0 0 8 1\n", {"text after 'end'"});
  expect_refused(replace_line(good(), "end", ""), {"ends without 'end'"});
  expect_refused("torx-forwarding-tables 2\n", {"line 1", "version 2 is not supported"});
  expect_refused("", {"empty"});
}

TEST(ForwardingTable, OutOfRangeNodesPortsAndMasksAreRefused) {
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 9 0 8 1"), {"line 8", "D node", "node 9 is not in 0..8"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R -1 3 0 2 4"), {"line 13", "R node", "node -1"});
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 5 8 1"), {"line 8", "D in_port", "5 is not a port 0..4"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R 0 4 0 2 4"), {"line 13", "R in_port", "not a network port"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R 0 3 3 2 4"), {"line 13", "R out_port", "back to the neighbour"});
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 0 16 1"), {"line 8", "D out_mask", "bits beyond the 4 network ports"});
  expect_refused(replace_line(good(), "I 0 0 9", "I 0 0 4294967296"), {"line 17", "I out_mask", "does not fit in 32 bits"});
  expect_refused(replace_line(good(), "I 0 0 9", "I 0 0 0"), {"line 17", "I out_mask", "leaves on no port"});
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 0 8 2"), {"line 8", "D deliver", "2 is not 0 or 1"});
  expect_refused(replace_line(good(), "D 0 4 15 0", "D 0 4 15 1"), {"line 12", "D deliver", "local port"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R 0 3 0 1 4"), {"line 13", "R window", "not after the injection step 1"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R 0 3 0 2 5"), {"line 13", "R window", "after the last step 4"});
  expect_refused(replace_line(good(), "R 0 3 0 2 4", "R 0 3 0 3 2"), {"line 13", "R window", "is empty"});
  expect_refused(replace_line(good(), "I 0 0 9", "I 0 18 9"), {"line 17", "I block", "not in 0..17"});
}

TEST(ForwardingTable, InconsistentRecordsAreRefused) {
  // Rules against masks: node 0's rule from in_port 0 goes to port 3 (mask 8), not to ports 0 and 3.
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 0 9 1"), {"node 0", "D out_mask", "in_port 0 has out_mask 9 but its rules give 8"});
  // The local row is the union of the injection masks.
  expect_refused(replace_line(good(), "D 0 4 15 0", "D 0 4 7 0"), {"node 0", "injections give 15"});
  // A rule forwarding from an input port that receives nothing.
  expect_refused(replace_line(good(), "D 0 0 8 1", "D 0 0 8 0"), {"node 0", "R", "in_port 0, which delivers nothing"});
  // The same (node, in_port) twice; the same rule twice; a block injected twice, or never.
  expect_refused(insert_after(good(), "D 0 0 8 1", "D 0 0 8 1"), {"line 9", "already has a D record (line 8)"});
  expect_refused(insert_after(good(), "R 0 3 0 2 4", "R 0 3 0 4 4"), {"node 0", "two rules 3 -> 0 overlap in steps 4..4"});
  expect_refused(insert_after(good(), "I 0 0 9", "I 0 0 9"), {"line 18", "I block", "block 0 is already injected (line 17)"});
  expect_refused(replace_line(good(), "I 0 0 9", ""), {"17 of the 18 blocks are injected; block 0 (node 0, piece 0) is not"});
  // A node injecting a block it does not own and was not handed.
  expect_refused(replace_line(replace_line(good(), "I 0 0 9", "I 0 2 9"), "I 1 2 6", "I 1 0 6"),
                 {"node 0", "block 2 belongs to node 1 and no prologue message hands it to node 0"});
}

TEST(ForwardingTable, InconsistentProloguesAreRefused) {
  EXPECT_NO_THROW(parse(good_prologue()));
  // inject_step 2 needs the prologue and the prologue needs inject_step 2.
  std::string no_prologue = good_prologue();
  for (size_t p; (p = no_prologue.find("\nP ")) != std::string::npos;)
    no_prologue.erase(p + 1, no_prologue.find('\n', p + 1) - p);
  expect_refused(no_prologue, {"inject_step", "is 2 but there is no prologue"});
  // A prologue message to a node that is not the neighbour across the named port.
  expect_refused(replace_line(good_prologue(), "P 3 2 0 -1 22 23", "P 3 4 0 -1 22 23"),
                 {"P dst", "node 4 is not the neighbour of node 3 across port -x"});
  // ... of a block the sender does not own.
  expect_refused(replace_line(good_prologue(), "P 3 2 0 -1 22 23", "P 3 2 0 -1 22 24"),
                 {"prologue", "node 3 sends block 24, which node 4 owns"});
  expect_refused(replace_line(good_prologue(), "P 3 2 0 -1 22 23", "P 3 2 0 2 22 23"), {"P dir", "2 is not 1 or -1"});
}

}  // namespace
}  // namespace torx::sw
