// Option values of the non-view commands: each bad one is refused before any work starts, with a
// message that names the option (exit status 2 when the command line itself is wrong).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"

using sweepline::test::CommandResult;
using sweepline::test::run_sweepline;
namespace fs = std::filesystem;

namespace {

void expect_refused(const std::string& args, int status, const std::string& part) {
  const CommandResult r = run_sweepline(args);
  EXPECT_EQ(r.status, status) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(part), std::string::npos) << args << ": wanted '" << part << "' in\n"
                                                    << r.output;
}

fs::path temp_dir() {
  const auto dir = fs::temp_directory_path() / "sweepline_test_options";
  fs::create_directories(dir);
  return dir;
}

// A folder that does not exist, inside the test's own folder: an executable that failed to refuse
// it (and created it, as spdlog and the writers would) leaves nothing outside that folder.
std::string missing(const std::string& leaf) {
  const fs::path dir = temp_dir() / "missing";
  fs::remove_all(dir);
  return (dir / leaf).string();
}

}  // namespace

TEST(OptionChecks, LogLevelAndLogFile) {
  expect_refused("--log-level bogus dump x.pcap", 2, "--log-level");
  const std::string log_missing = missing("x.log");
  expect_refused("--log-file " + log_missing + " dump x.pcap", 2,
                 "--log-file: cannot write '" + log_missing + "': folder '" +
                     fs::path(log_missing).parent_path().string() + "' does not exist");
  EXPECT_FALSE(fs::exists(log_missing));
  expect_refused("--log-file " + temp_dir().string() + " dump x.pcap", 2, "is a folder");
  expect_refused("--log-file /dev/null/x dump x.pcap", 2, "'/dev/null' is not a folder");
  // A good log file is written (the dump itself fails on the missing capture).
  const fs::path log = temp_dir() / "run.log";
  fs::remove(log);
  const CommandResult r =
      run_sweepline("--log-level debug --log-file " + log.string() + " dump " + missing("c.pcap"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(fs::exists(log));
}

TEST(OptionChecks, SimImageSizeNeverWraps) {
  const std::string out = (temp_dir() / "t.pgm").string();
  for (const char* size : {"4294967297x1", "1x4294967297", "0x5", "5x0", "-5x5", "16385x1", "5",
                           "5x", "x5", "5x5x5", "+5x5", " 5x5"}) {
    expect_refused(std::string("sim --image random:0.5 --size '") + size + "' --out " + out, 2,
                   "--size");
  }
  // 8193 x 8193 is inside the side limit but over the pixel limit.
  expect_refused("sim --image random:0.5 --size 8193x8193 --out " + out, 2,
                 "more than the limit of 67108864 pixels");
  const CommandResult ok = run_sweepline("sim --image random:0.5 --size 64x32 --out " + out);
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find("64x32"), std::string::npos) << ok.output;
  fs::remove(out);
}

TEST(OptionChecks, SimPathsEndpointsAndNumbers) {
  // /dev/full as the output: were a check to regress, the simulation would stop at its first
  // write instead of running (with --rotations -1, without end).
  const std::string out = "/dev/full";
  const std::string cap_missing = missing("x.pcap");
  expect_refused("sim --out " + cap_missing, 2, "--out: cannot write '" + cap_missing + "'");
  expect_refused("sim --truth " + missing("t.jsonl") + " --out " + out, 2, "--truth");
  EXPECT_FALSE(fs::exists(fs::path(cap_missing).parent_path()));
  expect_refused("sim --udp abc", 2, "--udp: 'abc' is not GROUP:PORT");
  expect_refused("sim --udp 239.1.2.3:70000", 2, "--udp");
  struct Refusal {
    const char* option;  // with its bad value
    int status;
    const char* message;  // a part of it
  };
  // Malformed values (status 2), then values checked against the scenario's ranges, reported as
  // the option (status 1).
  const Refusal refusals[] = {
      {"--dest 1.2.3.4:0", 2, "--dest"},
      {"--speed -1", 2, "--speed: must be a number >= 0"},
      {"--rotations -1", 2, "--rotations"},
      {"--seed -1", 2, "--seed"},
      {"--radials 5", 1, "--radials: sim: radials must be 16..65536"},
      {"--cells 70000", 1, "--cells"},
      {"--rpm 0", 1, "--rpm"},
      {"--range-nm 1000", 1, "--range-nm"},
      {"--res 3", 1, "--res"},
      {"--scenario bogus", 1, "--scenario"},
      {"--style bogus", 1, "--style"},
      {"--set bogus=1", 1, "--set"},
      {"--set vessels", 1, "--set"},
  };
  for (const Refusal& c : refusals)
    expect_refused(std::string("sim ") + c.option + " --out " + out, c.status, c.message);
  expect_refused("sim --image bogus --out " + (temp_dir() / "x.pgm").string(), 1, "--image");
}

TEST(OptionChecks, BenchRefusesABadOutputFolderAtOnce) {
  const std::string out = missing("dir");
  const CommandResult r = run_sweepline("bench --out " + out);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out: cannot create '" + out + "'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("== bench_"), std::string::npos) << "benchmarking started:\n" << r.output;
  EXPECT_FALSE(fs::exists(out));
  expect_refused("bench --report " + missing("RESULTS.md"), 2, "--report");
  // A file where the folder should be.
  const fs::path file = temp_dir() / "a_file";
  std::ofstream(file) << "x";
  expect_refused("bench --out " + file.string(), 2, "is not a folder");
  expect_refused("bench --out " + (file / "sub").string(), 2, "is not a folder");
  fs::remove(file);
  fs::remove_all(fs::path(out).parent_path());
}

TEST(OptionChecks, DumpGroupPortAndLimit) {
  expect_refused("dump --group 1.2.3 x.pcap", 2, "--group");
  expect_refused("dump --port 70000 x.pcap", 2, "--port");
  expect_refused("dump --limit -1 x.pcap", 2, "--limit");
  fs::remove_all(temp_dir());
}
