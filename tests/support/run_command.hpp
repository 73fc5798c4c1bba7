#pragma once
// Runs the built `sweepline` executable as a user would, or another program, and captures what it
// prints.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace sweepline::test {

struct CommandResult {
  int status = -1;     // exit code, -1 if it did not exit normally
  std::string output;  // stdout, and stderr too unless separate_stderr
};

// Runs `command` through the shell (sh -c), capturing its stdout: for independent tools
// (tshark, python3) that check what the project writes.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// True when `program` is on PATH.
inline bool have_program(const std::string& program) {
  return run_command("command -v " + program + " >/dev/null 2>&1").status == 0;
}

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
