// `sweepline view`'s option values are checked while the command line is parsed (exit status 2, a
// message naming the option), and a capture can come through standard input. Needs the viewer
// (SWEEPLINE_GUI=ON); skipped without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_command.hpp"

namespace {

bool have_viewer() {
  return sweepline::test::run_sweepline("view --help").output.find("--headless") !=
         std::string::npos;
}

TEST(ViewOptions, BadValuesAreRefusedWhileParsing) {
  if (!have_viewer()) GTEST_SKIP() << "this build has no viewer (SWEEPLINE_GUI=OFF)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--size 10", "--size"},
      {"--size 20000", "--size"},
      {"--size -3", "--size"},
      {"--width 0", "--width"},
      {"--height 99999", "--height"},
      {"--frames -1", "--frames"},
      {"--palette pink", "--palette"},
      {"--egl x11", "--egl"},
      {"--backend gpu", "--backend"},
      {"--timeout 0", "--timeout"},
      {"--report /nonexistent/dir/r.json", "--report"},
      {"--snapshot /nonexistent/dir/s.png", "--snapshot"},
      {"--script /nonexistent/script.txt", "--script"},
      {"--source udp://127.0.0.1:99999", "--source"},
      {"--frame-radials -5", "--frame-radials"},
  };
  for (const auto& [args, option] : cases) {
    const auto r = sweepline::test::run_sweepline("view --headless --no-save " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << args << ": " << r.output;
  }
}

TEST(ViewOptions, HeadlessReadsACaptureFromStandardInput) {
  if (!have_viewer()) GTEST_SKIP() << "this build has no viewer (SWEEPLINE_GUI=OFF)";
  const std::string capture = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";
  const std::string config =
      (std::filesystem::temp_directory_path() / "sweepline_view_stdin_none.json").string();
  const std::string view = " view --headless --no-save --config " + config +
                           " --backend cpu --size 512 --frames 2 --source -";
  // Standard input redirected from the file, then a pipe (read once, copied whole first).
  const auto r = sweepline::test::run_sweepline(view + " < " + capture);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("headless: 2 frame(s)"), std::string::npos) << r.output;
  const auto q = sweepline::test::run_sweepline("--version >/dev/null; cat " + capture + " | " +
                                                SWEEPLINE_EXE + view);
  EXPECT_EQ(q.status, 0) << q.output;
  EXPECT_NE(q.output.find("headless: 2 frame(s)"), std::string::npos) << q.output;
}

}  // namespace
