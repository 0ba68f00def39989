// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the forwarding-table reader (sw/core/forwarding_table, `torx tables --check`,
// `--gossip-tables FILE`) on arbitrary bytes. The reader must accept the input or throw
// sw::InputError, within bounded memory (it sizes nothing from a header before the records confirm
// it). What it accepts is written and read back: the reader must accept what the writer wrote, and
// writing again gives the same text (the writer writes only what the reader reads; the
// construction comment is not read and so is dropped once). Tables of at most 4096 nodes are then
// verified as `torx tables --check` does (the schedule derived from them through the step model):
// a verdict or an InputError, nothing else.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "app/tables.hpp"
#include "core/errors.hpp"
#include "core/forwarding_table.hpp"

namespace {

using namespace torx::sw;

std::string text_of(const ForwardingTable& t) {
  std::ostringstream out;
  write_forwarding_table(out, t);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ForwardingTable tab;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    tab = read_forwarding_table(in, "fuzz.tab");
  } catch (const InputError&) {
    return 0;
  }
  const std::string first = text_of(tab);
  ForwardingTable again;
  try {
    std::istringstream in(first);
    again = read_forwarding_table(in, "written.tab");
  } catch (const InputError& e) {
    std::fprintf(stderr, "the reader refused what the writer wrote: %s\n%s", e.what(), first.substr(0, 2000).c_str());
    std::abort();
  }
  if (text_of(again) != first) {
    std::fprintf(stderr, "written, read and written again, the tables differ:\n%s", first.substr(0, 2000).c_str());
    std::abort();
  }
  if (tab.nodes() <= 4096) {
    try {
      torx::app::verify_forwarding_table(tab, "fuzz.tab");
    } catch (const InputError&) {
    } catch (const WatchdogError&) {
    }
  }
  return 0;
}
