// Test main for SystemC suites: SystemC can elaborate only once per process, so this main runs
// exactly one test per process. Given a filter that selects one test (as ctest does), it runs it;
// given several, it re-executes itself once per test and reports each. SystemC warnings and errors
// become test failures (VCML's habit), and the copyright banner is switched off.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <systemc>
#include <vector>

namespace {

void fail_on_report(const sc_core::sc_report& rep, const sc_core::sc_actions&) {
  if (rep.get_severity() == sc_core::SC_INFO) return;
  ADD_FAILURE() << "SystemC " << (rep.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << ": "
                << rep.get_msg_type() << ": " << rep.get_msg();
  if (rep.get_severity() >= sc_core::SC_ERROR) throw std::runtime_error(rep.get_msg());
}

// gtest's filter syntax: positive patterns, then optionally '-' and negative patterns, each list
// separated by ':'; '*' and '?' are wildcards.
bool glob(const char* p, const char* s) {
  if (*p == '\0') return *s == '\0';
  if (*p == '*') return glob(p + 1, s) || (*s && glob(p, s + 1));
  return *s && (*p == '?' || *p == *s) && glob(p + 1, s + 1);
}
bool any_match(const std::string& patterns, const std::string& name) {
  size_t b = 0;
  while (b <= patterns.size()) {
    const size_t e = std::min(patterns.find(':', b), patterns.size());
    if (glob(patterns.substr(b, e - b).c_str(), name.c_str())) return true;
    b = e + 1;
  }
  return false;
}
bool selected(const std::string& filter, const std::string& name) {
  const size_t dash = filter.find('-');
  const std::string pos = dash == std::string::npos ? filter : filter.substr(0, dash);
  const std::string neg = dash == std::string::npos ? "" : filter.substr(dash + 1);
  return any_match(pos.empty() ? "*" : pos, name) && (neg.empty() || !any_match(neg, name));
}

std::vector<std::string> selected_tests() {
  const std::string filter = ::testing::GTEST_FLAG(filter);
  std::vector<std::string> names;
  const ::testing::UnitTest& ut = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut.total_test_suite_count(); ++i) {
    const ::testing::TestSuite* s = ut.GetTestSuite(i);
    for (int j = 0; j < s->total_test_count(); ++j) {
      const std::string name = std::string(s->name()) + "." + s->GetTestInfo(j)->name();
      if (selected(filter, name)) names.push_back(name);
    }
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  const std::vector<std::string> tests = selected_tests();
  if (tests.size() <= 1) {
    sc_core::sc_report_handler::set_handler(fail_on_report);
    return RUN_ALL_TESTS();
  }
  // Several tests: one child process each.
  int failed = 0;
  for (const std::string& t : tests) {
    const pid_t pid = fork();
    if (pid == 0) {
      const std::string filter = "--gtest_filter=" + t;
      execl("/proc/self/exe", argv[0], filter.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::printf("[%s] %s (own process)\n", ok ? "  PASSED  " : "  FAILED  ", t.c_str());
    failed += !ok;
  }
  std::printf("%d of %zu tests failed\n", failed, tests.size());
  return failed ? 1 : 0;
}
