// SPDX-License-Identifier: Apache-2.0
// Input repeated in a message (a token of a schedule, a line of a forwarding table, a key of a
// result document, an option's value): control bytes written as \xNN so that they cannot act on the
// user's terminal (escape sequences, carriage returns), and a long text cut to a short excerpt
// with its length, so that a 100 MB line is not copied into a message (issue 31). The CLI passes
// every message through escape_control() before printing it; the readers cut their excerpts with
// quote_input().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace torx::sw {

// `text` with every byte below 0x20 (but `keep_newlines` keeps '\n') and 0x7f written as \xNN.
inline std::string escape_control(std::string_view text, bool keep_newlines = false) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// At most `max_bytes` of `text`, control bytes escaped; a longer text ends in
// "... (N bytes)".
inline std::string quote_input(std::string_view text, size_t max_bytes = 64) {
  if (text.size() <= max_bytes) return escape_control(text);
  return escape_control(text.substr(0, max_bytes)) + "... (" + std::to_string(text.size()) + " bytes)";
}

// A message as the CLI prints it: control bytes escaped (newlines kept), and a line longer than
// `max_line` bytes cut in its middle ("... (N bytes omitted) ..."), keeping its start (the file and
// line) and its end (what is wrong): no message copies a long input whole, whoever wrote it.
inline std::string message_for_terminal(std::string_view msg, size_t max_line = 2048) {
  std::string out;
  size_t p = 0;
  while (p <= msg.size()) {
    const size_t nl = msg.find('\n', p);
    const size_t e = nl == std::string_view::npos ? msg.size() : nl;
    std::string_view line = msg.substr(p, e - p);
    if (line.size() > max_line) {
      const size_t head = max_line / 2, tail = max_line / 4;
      out += escape_control(line.substr(0, head));
      out += "... (" + std::to_string(line.size() - head - tail) + " bytes omitted) ...";
      out += escape_control(line.substr(line.size() - tail));
    } else {
      out += escape_control(line);
    }
    if (nl == std::string_view::npos) break;
    out += '\n';
    p = nl + 1;
  }
  return out;
}

}  // namespace torx::sw
