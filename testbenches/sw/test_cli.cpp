// The CLI contract (docs/cli.md): exit codes, the result document's keys, and bad input. A table of
// malformed inputs must each give exit code 2 and a message naming the problem: never a crash
// (exit 4 or a signal) and never a hang (each run has a time limit).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "algorithms/meyer_sibeyn.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::run_torx;
using testing::write_temp;

const std::string kHead = "torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\n";
const std::string kGood = kHead + "step\n0 -> 1 x+ | 0>1\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n"
                                  "step\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\nend\n";

struct BadCase {
  const char* name;
  std::string file;   // schedule text written to a file (empty: none)
  std::string args;   // torx arguments; {F} is replaced by the file
  const char* needle; // must appear in standard error
};

// gtest prints parameters; print the case's name rather than its bytes.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ExitsTwoAndNamesTheProblem) {
  const BadCase& c = GetParam();
  std::string args = c.args;
  if (!c.file.empty()) {
    const std::string path = write_temp(std::string(c.name) + ".sched", c.file);
    for (size_t p; (p = args.find("{F}")) != std::string::npos;) args.replace(p, 3, path);
  }
  const auto r = run_torx(args, 60);
  EXPECT_EQ(r.code, 2) << c.name << "\nstderr: " << r.err << "\nstdout: " << r.out;
  EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.name << "\nstderr: " << r.err;
}

const std::string kNoEnd = kHead + "step\n0 -> 1 x+ | 0>1\n";
const std::string kHugeGossip =
    "torx-schedule 1\ncollective allgather\ntopology 4096x4096 torus\nports all\nswitching wormhole\npieces 65536\n"
    "step\nend\n";

// Result documents for torx plot (item 18): a step-model run, and cycle-model ones with link traffic.
const std::string kStepDoc = R"({"schema": "torx.result/1", "algorithm": "ring", "topology": {"dims": [8], "wrap": true},
  "model": "step", "sync": "barrier", "timing": {"step_cycles": [104, 108, 104, 104]}, "cycles": 420})";
const std::string kFourDims = R"({"schema": "torx.result/1", "topology": {"dims": [2, 2, 2, 2], "wrap": true},
  "cycle_model": {"link_flits": [0]}, "timing": {"step_cycles": [1]}})";
const std::string kShortLinks = R"({"schema": "torx.result/1", "topology": {"dims": [3, 3], "wrap": true},
  "cycle_model": {"link_flits": [1, 2, 3]}, "timing": {"step_cycles": [1]}})";

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The forwarding tables of ms-hc on `dims`, as text, with `line` replaced by `by`.
std::string tables_text(const std::vector<int>& dims, const std::string& line = "", const std::string& by = "") {
  std::stringstream out;
  write_forwarding_table(out, plan_ms_hc(PlainTopology{dims, true}).table);
  std::string text = out.str();
  if (!line.empty()) text.replace(text.find("\n" + line + "\n") + 1, line.size(), by);
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, BadInput,
    ::testing::Values(
        BadCase{"empty_file", "\n", "run --schedule {F} --topo 3", "empty file"},
        BadCase{"bad_header", "hello\n", "run --schedule {F} --topo 3", "not a torx schedule"},
        BadCase{"bad_version", "torx-schedule 7\n", "run --schedule {F} --topo 3", "version 7 is not supported"},
        BadCase{"unknown_field", "torx-schedule 1\nflavour mint\n", "run --schedule {F} --topo 3", "unknown header field 'flavour'"},
        BadCase{"missing_field", "torx-schedule 1\ncollective alltoall\nstep\nend\n", "run --schedule {F} --topo 3",
                "lacks the required field 'topology'"},
        BadCase{"topology_mismatch", kGood, "run --schedule {F} --topo 4", "but --topo gives the 4 torus"},
        BadCase{"unknown_node", kHead + "step\n0 -> 5 x+ | 0>1\nend\n", "run --schedule {F} --topo 3", "outside 0..2"},
        BadCase{"block_not_held", kHead + "step\n1 -> 2 x+ | 0>2\nend\n", "run --schedule {F} --topo 3", "which it does not hold"},
        BadCase{"block_to_itself", kHead + "step\n0 -> 1 x+ | 0>0\nend\n", "run --schedule {F} --topo 3", "does not exist"},
        BadCase{"carried_twice", kHead + "step\n0 -> 1 x+ | 0>1..2\n0 -> 2 x- | 0>2\nend\n",
                "run --schedule {F} --topo 3", "carried twice"},
        BadCase{"truncated_no_end", kNoEnd, "run --schedule {F} --topo 3", "truncated"},
        BadCase{"truncated_mid_line", kHead + "step\n0 -> 1 x+ | 0>", "run --schedule {F} --topo 3", "truncated"},
        BadCase{"message_to_itself", kHead + "step\n1 -> 1 x+ | 1>2\nend\n", "run --schedule {F} --topo 3", "to itself"},
        BadCase{"mesh_needs_wrap",
                "torx-schedule 1\ncollective alltoall\ntopology 3 mesh\nports one\nswitching wormhole\nstep\n2 -> 0 x+ | 2>0\nend\n",
                "run --schedule {F} --topo 3 --mesh", "needs a wraparound link"},
        BadCase{"block_out_of_range", kHead + "step\n0 -> 1 x+ | 0>9\nend\n", "run --schedule {F} --topo 3", "not a value in 0..2"},
        BadCase{"bad_route", kHead + "step\n0 -> 1 q+ | 0>1\nend\n", "run --schedule {F} --topo 3", "'q' is not a dimension"},
        BadCase{"step_count_mismatch", kHead + "steps 3\nstep\n0 -> 1 x+ | 0>1\nend\n", "run --schedule {F} --topo 3",
                "declares 3 steps"},
        BadCase{"text_after_end", kGood + "step\n", "run --schedule {F} --topo 3", "after 'end'"},
        BadCase{"binary_file", std::string("torx-schedule 1\n\0\0\0", 19), "run --schedule {F} --topo 3", "not a text file"},
        BadCase{"missing_file", "", "run --schedule /nonexistent/x.sched --topo 3", "cannot open"},
        BadCase{"zero_block_bytes", "", "run direct --topo 4 --block-bytes 0", "--block-bytes 0: out of range (expected 1 to"},
        BadCase{"zero_flit_bytes", "", "run direct --topo 4 --flit-bytes 0", "--flit-bytes 0: out of range (expected 1 to"},
        BadCase{"negative_block_bytes", "", "run direct --topo 4 --block-bytes -64", "block-bytes"},
        BadCase{"zero_radix", "", "run direct --topo 0x4", "radix 0 is out of range"},
        BadCase{"radix_one", "", "run direct --topo 1", "radix 1 is out of range"},
        BadCase{"bad_topology_text", "", "run direct --topo 4xx4", "is not a radix"},
        BadCase{"unknown_algorithm", "", "run bogus --topo 4", "unknown algorithm 'bogus'"},
        BadCase{"outside_preconditions", "", "run direct --topo 80x80", "limited to 4096 nodes"},
        BadCase{"bad_ports", "", "run direct --topo 4 --ports some", "port model 'some' is unknown"},
        BadCase{"bad_sync", "", "run direct --topo 4 --sync sometimes", "--sync sometimes"},
        BadCase{"bad_root", "", "run direct --topo 4x4 --root 99", "--root 99"},
        BadCase{"algo_and_schedule", kGood, "run direct --schedule {F} --topo 3", "not both"},
        BadCase{"no_subcommand", "", "", "subcommand"},
        BadCase{"tables_without_tables", "", "tables ring --topo 8", "has no forwarding tables"},
        BadCase{"tables_outside_preconditions", "", "tables ms-one --topo 7x9", "ms-one:"},
        BadCase{"tables_check_repeated_dims", tables_text({3, 3}, "I 0 1 6", "I 0 1 6\ndims 5 5\nD 1 7 0 1"),
                "tables --check {F}", "line 19: dims: repeated header field"},
        BadCase{"tables_check_huge_dims",
                "torx-forwarding-tables 1\nalgorithm x\ndims 46340 46340\npieces 1\nsteps 1\ninject_step 1\nend\n",
                "tables --check {F}", "not supported"},
        BadCase{"tables_check_inconsistent_mask", tables_text({3, 3}, "D 0 0 8 1", "D 0 0 9 1"), "tables --check {F}",
                "in_port 0 has out_mask 9 but its rules give 8"},
        // Consistent records, but a shortened window loses pieces and a widened one sends some twice.
        BadCase{"tables_check_missing_pieces", tables_text({3, 3}, "R 0 3 0 2 4", "R 0 3 0 2 3"), "tables --check {F}",
                "do not deliver every piece exactly once"},
        BadCase{"tables_check_duplicates", tables_text({8, 8}, "R 0 0 3 2 31", "R 0 0 3 2 32"), "tables --check {F}",
                "some piece arrives twice"},
        BadCase{"tables_check_with_algorithm", "", "tables ms-hc --check x.tab", "reads everything from the file"},
        BadCase{"tables_check_missing_file", "", "tables --check /nonexistent/x.tab", "cannot open"},
        BadCase{"tables_without_algorithm", "", "tables --topo 8x8", "give an algorithm and --topo, or --check FILE"},
        BadCase{"stats_bad_schedule", "torx-schedule 1\n", "stats --schedule {F} --topo 3", "lacks the required field"},
        BadCase{"reproduce_unknown_paper", "", "reproduce nobody", "unknown paper"},
        BadCase{"missing_topo", "", "run direct", "--topo"},
        // Issue 21: the step model has no synchronization; --sync other than the default is refused
        // (it was written into the document).
        BadCase{"step_model_sync", "", "run ring --topo 8 --sync local",
                "--sync local: the step model has no synchronization"},
        BadCase{"stats_sync", "", "stats ring --topo 8 --sync none", "--sync none: the step model has no synchronization"},
        BadCase{"check_sync", kGood, "check --schedule {F} --topo 3 --sync priority",
                "--sync priority: the step model has no synchronization"},
        // Issue 17, item 1: the tracking estimate of a 4096x4096 gossip of 65536 pieces wrapped to 0 (exit 139).
        BadCase{"gossip_estimate_overflows_run", kHugeGossip, "run --schedule {F} --topo 4096x4096",
                "cannot track this allgather on the 4096x4096 torus with pieces 65536"},
        BadCase{"gossip_estimate_overflows_check", kHugeGossip, "check --schedule {F} --topo 4096x4096",
                "cannot track this allgather"},
        // An absurd t_s is refused where it is read (the step model's own overflow checks are unit-tested).
        BadCase{"step_cycles_overflow", "", "run ring --topo 8 --ts 18446744073709551615", "--ts 18446744073709551615: out of range"},
        // Item 5: a line is at most 1 MiB; the reader stops there instead of growing its buffer.
        BadCase{"line_without_newline", kHead + "step\n" + std::string((1 << 20) + 1, 'x'), "run --schedule {F} --topo 3",
                ":7: line longer than 1048576 bytes"},
        BadCase{"node_id_message_in_header", "torx-schedule 1\n#0 -> 1 x+ | 0>1\n", "run --schedule {F} --topo 3",
                ":2: '#0 -> 1 x+ | 0>1' starts like a message"},
        // Item 10: block sets of one message overlap (broadcast and gossip exited 1 "duplicated"; a
        // complete exchange exited 2 only where blocks were tracked, and 0 in `stats`); a header
        // field given twice was accepted.
        BadCase{"overlap_alltoall", kHead + "step\n0 -> 1 x+ | 0>1..2 0>2\nend\n", "stats --schedule {F} --topo 3",
                ":7: message: block sets '0>1..2' and '0>2' overlap"},
        BadCase{"overlap_broadcast",
                "torx-schedule 1\ncollective broadcast\ntopology 3 torus\nports all\nswitching wormhole\npieces 2\n"
                "step\n0 -> 1 x+ | #0..1 #1\n0 -> 2 x- | #0..1\nend\n",
                "run --schedule {F} --topo 3", ":8: message: block sets '#0..1' and '#1' overlap"},
        BadCase{"overlap_allgather",
                "torx-schedule 1\ncollective allgather\ntopology 3 torus\nports all\nswitching wormhole\npieces 2\n"
                "step\n0 -> 1 x+ | 0#* 0#1\nend\n",
                "run --schedule {F} --topo 3", ":8: message: block sets '0#*' and '0#1' overlap"},
        BadCase{"header_field_twice", kHead + "ports all\nstep\nend\n", "check --schedule {F} --topo 3",
                ":6: header field 'ports' is given twice (first on line 4)"},
        // Found by fuzzing: a signed node id or coordinate passed the upper-bound checks.
        BadCase{"negative_node_id", kHead + "step\n0 -> #-1 x+ | 0>1\nend\n", "run --schedule {F} --topo 3",
                ":7: message destination node '#-1': not a node id of the 3 torus network (0..2)"},
        BadCase{"negative_coordinate",
                "torx-schedule 1\ncollective alltoall\ntopology 3x3 torus\nports one\nswitching wormhole\nstep\n"
                "0,0 -> 1,-1 x+y- | 0,0>1,2\nend\n",
                "run --schedule {F} --topo 3x3", ":7: message destination node '1,-1': '-1' is not a coordinate"},
        BadCase{"negative_root_coordinate", "", "run tsay-wang --topo 3x3 --root 0,-1", "'-1' is not a coordinate"},
        // Item 4: --max-memory takes a size.
        BadCase{"max_memory_not_a_size", "", "run ring --topo 8 --max-memory lots", "--max-memory 'lots': not a size"},
        BadCase{"max_memory_unit", "", "run ring --topo 8 --max-memory 4Q", "unknown unit 'Q'"},
        BadCase{"max_memory_zero", "", "tables ms-hc --topo 8x8 --max-memory 0", "must be more than 0"},
        // Item 9: every output is checked, a full device included.
        BadCase{"json_to_full_device", "", "run ring --topo 8 --json /dev/full",
                "--json /dev/full: write error: No space left on device"},
        BadCase{"tables_output_to_full_device", "", "tables ms-hc --topo 4x4 -o /dev/full",
                "-o /dev/full: write error: No space left on device"},
        BadCase{"tables_json_to_full_device", "", "tables ms-hc --topo 4x4 --json /dev/full",
                "--json /dev/full: write error: No space left on device"},
        BadCase{"schedule_to_full_device", "", "schedule ring --topo 8 -o /dev/full",
                "-o /dev/full: write error: No space left on device"},
        BadCase{"json_into_missing_directory", "", "run ring --topo 8 --json /nonexistent/r.json",
                "--json /nonexistent/r.json: cannot open for writing: No such file or directory"},
        // Item 12: messages that name the problem.
        BadCase{"radix_too_large", "", "run direct --topo 2147483648",
                "radix 2147483648 is out of range: too large (a network has at most 2^24 = 16777216 nodes)"},
        BadCase{"radix_beyond_64_bits", "", "run direct --topo 4x99999999999999999999", "out of range: too large"},
        BadCase{"no_algorithm_nor_schedule", "", "run --topo 64", "run: give an algorithm (torx run ring ...) or --schedule FILE"},
        BadCase{"unknown_command", "", "runn --topo 8", "unknown command 'runn': did you mean 'run'?"},
        BadCase{"unknown_command_far", "", "frobnicate", "unknown command 'frobnicate' (commands: list, schedule, run"},
        BadCase{"schedule_is_a_directory", "", "run --schedule / --topo 4", "/: is a directory, not a schedule file"},
        BadCase{"check_schedule_is_a_directory", "", "check --schedule /tmp --topo 4", "is a directory, not a schedule file"},
        BadCase{"tables_check_directory", "", "tables --check /tmp", "is a directory, not a forwarding-table file"},
        // Item 18: torx plot refuses what it cannot draw.
        BadCase{"plot_unknown_kind", "{}", "plot pie {F} -o /dev/null", "plot: 'pie' is not a picture"},
        BadCase{"plot_not_json", "hello", "plot steps {F} -o /dev/null", "not a JSON document"},
        BadCase{"plot_not_a_result", "{\"schema\": \"torx.cosim/1\"}", "plot steps {F} -o /dev/null",
                "not a result document (schema torx.result/1"},
        BadCase{"plot_links_of_the_step_model", kStepDoc, "plot links {F} -o /dev/null",
                "plot links needs the traffic of every link (cycle_model.link_flits): a run with --model cycle or rtl"},
        BadCase{"plot_links_of_4d", kFourDims, "plot links {F} -o /dev/null", "draws networks of 1 to 3 dimensions, not 4"},
        BadCase{"plot_wrong_link_count", kShortLinks, "plot links {F} -o /dev/null", "link_flits has 3 entries, the 3x3 torus has 36 links"},
        BadCase{"plot_missing_file", "", "plot steps /nonexistent.json -o /dev/null", "cannot open: No such file or directory"},
        BadCase{"line_too_long", kHead + "step\n0 -> 1 x+ |" + std::string(1 << 20, ' ') + "0>1\nend\n",
                "check --schedule {F} --topo 3", ":7: line longer than 1048576 bytes"}),
    [](const ::testing::TestParamInfo<BadCase>& i) { return std::string(i.param.name); });

TEST(Cli, EndlessLineOnAPipeIsRefusedWithinBoundedMemory) {
  // Issue 17, item 5: an endless line without a newline used to grow the reader's buffer until the
  // machine ran out of memory. Under a 1 GiB address-space limit torx must stop at the line cap.
  const std::string err = testing::temp_dir() + "/endless.err";
  const std::string cmd = "yes 0123456789 | tr -d '\\n' | (ulimit -v 1048576; timeout 60 " + std::string(TORX_BIN) +
                          " run --schedule - --topo 3) 2>" + err;
  const int st = std::system(("sh -c \"" + cmd + "\"").c_str());
  ASSERT_TRUE(WIFEXITED(st)) << cmd;
  EXPECT_EQ(WEXITSTATUS(st), 2) << testing::read_file(err);
  EXPECT_NE(testing::read_file(err).find("-:1: line longer than 1048576 bytes"), std::string::npos)
      << testing::read_file(err);
}

TEST(Cli, GoodScheduleChecksOkAndWritesTheResultDocument) {
  const std::string path = write_temp("good.sched", kGood);
  const auto r = run_torx("run --schedule " + path + " --topo 3 --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"schema", "algorithm", "collective", "topology", "ports", "model", "sync", "block_bytes", "steps",
                          "step_max_blocks", "transmission_blocks", "port_conflicts", "link_conflicts", "check", "formula",
                          "lower_bound", "timing", "cycles", "sim"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["schema"], "torx.result/1");
  EXPECT_EQ(j["steps"], 2);
  EXPECT_EQ(j["check"]["ok"], true);
  EXPECT_EQ(j["check"]["expected"], 6);
  EXPECT_EQ(j["timing"]["step_model_cycles"], 2 * (100 + 4));
}

TEST(Cli, MessagesWrittenWithNodeIdsAreRunNotDropped) {
  // Issue 17, item 6: '#0 -> 1 x+ | 0>1' (the documented node-id form) was taken for a comment, and
  // the run failed its check with "0 of 6 delivered".
  const std::string path = write_temp("ids.sched", kHead + "step\n#0 -> #1 x+ | 0>1\n#1 -> 2 x+ | 1>2\n#2 -> 0 x+ | 2>0\n"
                                                           "# a comment\nstep\n#0 -> #2 x- | 0>2\n#1 -> 0 x- | 1>0\n"
                                                           "#2 -> 1 x- | 2>1\nend\n");
  const auto r = run_torx("check --schedule " + path + " --topo 3 --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["check"]["delivered"], 6);
  EXPECT_EQ(j["step_messages"], nlohmann::json::array({3, 3}));
}

TEST(Cli, FailedCheckExitsOne) {
  const std::string path = write_temp("miss.sched", kHead + "step\n0 -> 1 x+ | 0>1\nend\n");
  const auto r = run_torx("run --schedule " + path + " --topo 3 --json -");
  EXPECT_EQ(r.code, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["check"]["ok"], false);
  EXPECT_EQ(j["check"]["missing"], 5);
}

TEST(Cli, CheckCommandIsStrictAboutConflicts) {
  const std::string path = testing::temp_dir() + "/direct44.sched";
  ASSERT_EQ(run_torx("schedule direct --topo 4x4 -o " + path).code, 0);
  const auto run = run_torx("run --schedule " + path + " --topo 4x4");
  EXPECT_EQ(run.code, 0) << run.err;  // delivered, though with link conflicts
  const auto check = run_torx("check --schedule " + path + " --topo 4x4");
  EXPECT_EQ(check.code, 1);
  EXPECT_NE(check.err.find("link conflicts"), std::string::npos) << check.err;
}

TEST(Cli, ListNamesEveryAlgorithmWithItsModel) {
  const auto r = run_torx("list --json");
  ASSERT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  // Exactly the registry, in its order, each with its models.
  ASSERT_EQ(j.size(), algorithms().size());
  for (size_t k = 0; k < j.size(); ++k) {
    const Algorithm& a = algorithms()[k];
    EXPECT_EQ(j[k]["id"], a.id);
    EXPECT_EQ(j[k]["collective"], std::string(collective_name(a.collective))) << a.id;
    EXPECT_EQ(j[k]["ports"], std::string(port_model_name(a.ports))) << a.id;
    EXPECT_EQ(j[k]["switching"], std::string(switching_name(a.switching))) << a.id;
    for (const char* key : {"preconditions", "source", "summary"}) EXPECT_FALSE(j[k][key].get<std::string>().empty()) << a.id;
  }
  for (const char* id : {"ring", "tsay-wang", "ms-hc", "ms-hc-steps", "ms-hc-hd", "ms-one"}) EXPECT_NE(find_algorithm(id), nullptr) << id;
}

TEST(Cli, TablesCheckAcceptsWhatTablesWrites) {
  for (const auto& [algo, topo] : std::vector<std::pair<std::string, std::string>>{
           {"ms-hc", "8x8"}, {"ms-hc", "5x6"}, {"ms-hc-steps", "5x6"}, {"ms-hc-hd", "6x6"}, {"ms-hc", "3x4x5"},
           {"ms-one", "6x9"}, {"ms-one", "3x3x3"}}) {
    const std::string path = testing::temp_dir() + "/" + algo + topo + ".tab";
    ASSERT_EQ(run_torx("tables " + algo + " --topo " + topo + " -o " + path).code, 0);
    const auto r = run_torx("tables --check " + path);
    EXPECT_EQ(r.code, 0) << algo << " " << topo << ": " << r.err;
    EXPECT_NE(r.out.find(": ok: " + algo + " on the " + topo + " torus"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

// A 100-byte file claiming 2^24 nodes is refused from its record counts: under a 1 GB address-space
// limit the check still exits 2 (the first reader sized per-node tables first: out of memory).
TEST(Cli, TablesCheckRefusesLargeClaimsWithoutAllocating) {
  const std::string path = write_temp(
      "big.tab", "torx-forwarding-tables 1\nalgorithm x\ndims 4096 4096\npieces 1\nsteps 1\ninject_step 1\nend\n");
  const std::string err = testing::temp_dir() + "/big.err";
  const std::string cmd = "ulimit -v 1000000; timeout 60 " + std::string(TORX_BIN) + " tables --check " + path + " 2>" + err;
  const int st = std::system(("bash -c '" + cmd + "'").c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2);
  EXPECT_NE(testing::read_file(err).find("0 of the 16777216 blocks are injected"), std::string::npos)
      << testing::read_file(err);
}

// Issue 17, item 4: the planner's tables are estimated before it plans. ms-hc on 4096x4096 (about
// 16 GiB; the planner really took 9 GB in 50 s) stops at once with exit 3 under the default limit,
// within a 1 GiB address space; --max-memory below a small plan's needs stops it too.
TEST(Cli, TablesStopBeforePlanningBeyondTheMemoryLimit) {
  const std::string err = testing::temp_dir() + "/tables_huge.err";
  const std::string cmd = "ulimit -v 1048576; timeout 30 " + std::string(TORX_BIN) + " tables ms-hc --topo 4096x4096 2>" + err;
  const int st = std::system(("bash -c '" + cmd + "'").c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 3) << testing::read_file(err);
  EXPECT_NE(testing::read_file(err).find("limit: planning the ms-hc forwarding tables of the 4096x4096 torus needs about"),
            std::string::npos)
      << testing::read_file(err);
  const auto def = run_torx("tables ms-hc --topo 4096x4096", 30);
  EXPECT_EQ(def.code, 3) << def.err;
  EXPECT_NE(def.err.find("more than the default limit of 8.0 GiB (--max-memory SIZE raises it)"), std::string::npos)
      << def.err;
  const auto small = run_torx("tables ms-hc --topo 64x64 --max-memory 1MiB");
  EXPECT_EQ(small.code, 3) << small.err;
  EXPECT_NE(small.err.find("more than the limit of 1.0 MiB (--max-memory)"), std::string::npos) << small.err;
  EXPECT_EQ(run_torx("tables ms-hc --topo 64x64 --max-memory 1GiB").code, 0);
  // The step model's tracking is held to the same limit, estimated before the generator starts
  // (issue 31).
  const auto step = run_torx("run direct --topo 32x32 --max-memory 1MiB");
  EXPECT_EQ(step.code, 3) << step.err;
  EXPECT_NE(step.err.find("limit: running direct on the 32x32 torus needs about"), std::string::npos) << step.err;
  EXPECT_NE(step.err.find("more than the limit of 1.0 MiB (--max-memory)"), std::string::npos) << step.err;
}

// Issue 17, item 9: standard output is checked at the end like every file: a summary, a document
// on `--json -` or a listing sent to /dev/full is exit 2 with the reason, not exit 0 with nothing.
TEST(Cli, StandardOutputOnAFullDeviceIsAnError) {
  for (const std::string args : {"run ring --topo 8", "run ring --topo 8 --json -", "list", "list --json",
                                 "tables ms-hc --topo 4x4", "schedule ring --topo 8 -o -"}) {
    const std::string err = testing::temp_dir() + "/full.err";
    const int st = std::system(("timeout 60 " + std::string(TORX_BIN) + " " + args + " >/dev/full 2>" + err).c_str());
    ASSERT_TRUE(WIFEXITED(st)) << args;
    EXPECT_EQ(WEXITSTATUS(st), 2) << args << ": " << testing::read_file(err);
    EXPECT_NE(testing::read_file(err).find("No space left on device"), std::string::npos) << args << ": "
                                                                                        << testing::read_file(err);
  }
}

// Issue 17, item 17: the summary says facts in words (the result document keeps its keys).
TEST(Cli, SummaryNamesFactsInWords) {
  const auto r = run_torx("run ms-hc --topo 8x8");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("largest_message_pieces"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("largest message (pieces)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("injection_step"), std::string::npos) << r.out;
  const auto suh = run_torx("run suh --topo 4x4");
  ASSERT_EQ(suh.code, 0) << suh.err;
  EXPECT_EQ(suh.out.find("rearranged_blocks"), std::string::npos) << suh.out;
  EXPECT_NE(suh.out.find("rearranged blocks (paper)"), std::string::npos) << suh.out;
  const auto j = run_torx("run ms-hc --topo 8x8 --json -");
  EXPECT_TRUE(nlohmann::json::parse(j.out)["facts"].contains("largest_message_pieces"));
}

// Issue 32, item 3: `torx stats --sync local` reports the derived signals and how many are needed;
// on the ring of 32 all 4n - 16 = 112 are (docs/sync-study.md); without --sync local nothing changes.
TEST(Cli, StatsWithLocalSyncReportsTheNeededSignals) {
  const auto r = run_torx("stats ring --topo 32 --sync local --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out)["local_sync"];
  EXPECT_EQ(j["boundaries"], 5);  // 2d - 5
  EXPECT_EQ(j["signals"], 112);
  EXPECT_EQ(j["needed"], 112);
  EXPECT_EQ(j["implied"], 0);
  EXPECT_EQ(j["local_waits"], 0);
  const auto t = run_torx("stats tsay-wang --topo 16x16 --sync local");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("19 signals needed, 1 implied by the others"), std::string::npos) << t.out;
  const auto plain = run_torx("stats ring --topo 32 --json -");
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("local_sync"));
  // The other modes are run modes: the step model refuses them, naming what stats takes.
  const auto prio = run_torx("stats ring --topo 32 --sync priority");
  EXPECT_EQ(prio.code, 2);
  EXPECT_NE(prio.err.find("torx stats takes --sync local"), std::string::npos) << prio.err;
}

// Issue 17, item 17: `torx list` wraps at the terminal's width (COLUMNS, else 100 columns).
TEST(Cli, ListFitsTheWidth) {
  for (const auto& [env, width] : std::vector<std::pair<std::string, size_t>>{{"env -u COLUMNS ", 100}, {"env COLUMNS=80 ", 80}}) {
    const std::string out = testing::temp_dir() + "/list.out";
    ASSERT_EQ(std::system((env + TORX_BIN + " list >" + out).c_str()), 0);
    const std::string text = testing::read_file(out);
    std::istringstream in(text);
    std::string line;
    size_t lines = 0;
    while (std::getline(in, line)) {
      ++lines;
      EXPECT_LE(line.size(), width) << env << line;
    }
    for (const Algorithm& a : algorithms())
      EXPECT_TRUE(text.rfind(a.id + " ", 0) == 0 || text.find("\n" + a.id + " ") != std::string::npos) << a.id;
    EXPECT_GT(lines, 3 * algorithms().size());
  }
}

// Issue 17, item 17: `torx reproduce tseng` takes minutes; it shows each size on standard error as
// it goes, and prints a table (the JSON document only with --json). Its first sizes are done
// within seconds: the progress is there before the run is stopped.
TEST(Cli, ReproduceShowsProgressOnStandardError) {
  const std::string out = testing::temp_dir() + "/repro.out", err = testing::temp_dir() + "/repro.err";
  const int st = std::system(("timeout 10 " + std::string(TORX_BIN) + " reproduce tseng >" + out + " 2>" + err).c_str());
  ASSERT_TRUE(WIFEXITED(st));
  const std::string e = testing::read_file(err), o = testing::read_file(out);
  EXPECT_NE(e.find("[torx] t1 d=3: generated, every block checked"), std::string::npos) << e;
  EXPECT_EQ(o.find('{'), std::string::npos) << o;
  if (WEXITSTATUS(st) == 0) {  // a fast machine
    EXPECT_NE(o.find("t4 on 2D tori"), std::string::npos) << o;
  }
}

// Issue 17, item 18: torx plot draws the steps of a step-model run back to back, and the traffic of
// every link of a document that has it (cycle_model.link_flits) on the torus layout.
TEST(Cli, PlotDrawsStepsAndLinks) {
  const std::string doc = testing::temp_dir() + "/t4.json", svg = testing::temp_dir() + "/t4.svg";
  ASSERT_EQ(run_torx("run t4 --topo 8x8 --json " + doc).code, 0);
  const auto steps = run_torx("plot steps " + doc + " -o " + svg);
  ASSERT_EQ(steps.code, 0) << steps.err;
  const std::string s = testing::read_file(svg);
  EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << s.substr(0, 200);
  EXPECT_EQ(s.substr(s.size() - 7), "</svg>\n");
  const auto j = nlohmann::json::parse(testing::read_file(doc));
  EXPECT_EQ(count(s, "class=\"step\""), j["steps"].get<size_t>());
  EXPECT_EQ(count(s, "class=\"late\""), 0u);  // the step model: nothing beyond its own cost
  // Steps numbered from 1 with their labels (t4's first step is prep-x1).
  EXPECT_NE(s.find("step 1 " + j["step_labels"][0].get<std::string>() + ": cycles 0 to " +
                   std::to_string(j["timing"]["step_cycles"][0].get<int64_t>())),
            std::string::npos);
  EXPECT_NE(s.find(">step 1 prep-x1</text>"), std::string::npos);
  // Links: 3x3 torus, link l carries l flits; 36 links, the busiest 35.
  nlohmann::json links = nlohmann::json::parse(kShortLinks);
  links["cycle_model"]["link_flits"].clear();
  for (int l = 0; l < 36; ++l) links["cycle_model"]["link_flits"].push_back(l);
  const std::string ldoc = write_temp("links.json", links.dump());
  const auto r = run_torx("plot links " + ldoc + " -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "class=\"link\""), 36u);
  EXPECT_NE(r.out.find("busiest 35"), std::string::npos);
  EXPECT_NE(r.out.find(": 35 flits</title>"), std::string::npos);
  EXPECT_NE(r.out.find(": 0 flits</title>"), std::string::npos);
  // A mesh has no wraparound links to draw: 2 x 2 x 3 x 2 = 24 of the 36.
  links["topology"]["wrap"] = false;
  const auto m = run_torx("plot links " + write_temp("mesh.json", links.dump()) + " -o -");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(count(m.out, "class=\"link\""), 24u);
}

// Issue 33 item 5: one step numbering, from 1 in the order of the schedule, in the conflict report,
// the error messages and the plot (with the steps' labels): the first step of this schedule has a
// one-port conflict, and moving a block its sender does not hold yet into it is an error naming it.
TEST(Cli, StepsAreNumberedFromOneEverywhere) {
  const std::string conflict = kHead + "step first\n0 -> 1 x+ | 0>1\n0 -> 2 x- | 0>2\n1 -> 2 x+ | 1>2\n"
                                       "step second\n1 -> 0 x- | 1>0\n2 -> 0 x+ | 2>0\n2 -> 1 x- | 2>1\nend\n";
  const std::string doc = testing::temp_dir() + "/numbering.json";
  const auto r = run_torx("run --schedule " + write_temp("numbering.sched", conflict) + " --topo 3 --json " + doc);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(testing::read_file(doc));
  ASSERT_FALSE(j["conflict_examples"].empty());
  EXPECT_EQ(j["conflict_examples"][0].get<std::string>().rfind("step 1: node 0 sends 2 messages", 0), 0u)
      << j["conflict_examples"];
  const auto plot = run_torx("plot steps " + doc + " -o -");
  ASSERT_EQ(plot.code, 0) << plot.err;
  EXPECT_NE(plot.out.find(">step 1 first</text>"), std::string::npos);
  EXPECT_NE(plot.out.find(">step 2 second</text>"), std::string::npos);
  EXPECT_EQ(plot.out.find(">step 0"), std::string::npos);
  // Node 1 forwards 0>2 in the first step, before it has it: the error names step 1, the first.
  const std::string early = kHead + "step first\n0 -> 1 x+ | 0>1\n1 -> 2 x+ | 1>2 0>2\n2 -> 0 x+ | 2>0\nend\n";
  const auto e = run_torx("run --schedule " + write_temp("early.sched", early) + " --topo 3", 60);
  EXPECT_EQ(e.code, 2);
  EXPECT_NE(e.err.find("at the start of step 1 "), std::string::npos) << e.err;
}

TEST(Cli, VersionAndHelpExitZero) {
  EXPECT_EQ(run_torx("--version").code, 0);
  EXPECT_EQ(run_torx("run --help").code, 0);
}

}  // namespace
}  // namespace torx::sw
