#pragma once
// Runs the built `sweepline` executable as a user would and captures what it prints.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace sweepline::test {

struct CommandResult {
  int status = -1;     // exit code, -1 if it did not exit normally
  std::string output;  // stdout, and stderr too unless separate_stderr
};

inline CommandResult run_sweepline(const std::string& args, bool separate_stderr = false) {
  CommandResult r;
  std::string cmd = std::string(SWEEPLINE_EXE) + " " + args + (separate_stderr ? "" : " 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace sweepline::test
