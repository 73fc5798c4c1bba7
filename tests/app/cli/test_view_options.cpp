// `sweepline view`'s option values are checked while the command line is parsed (exit status 2, a
// message naming the option), and a capture can come through standard input. Needs the viewer
// (SWEEPLINE_GUI=ON); skipped without it.
#include <gtest/gtest.h>

#include <chrono>
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
      {"--size 100000", "--size"},
      {"--size -5", "--size"},
      {"--size big", "--size"},
      {"--backend opencl", "--backend"},
      {"--width -1", "--width"},
      {"--height 12.5", "--height"},
      {"--frames many", "--frames"},
      {"--timeout -1", "--timeout"},
      {"--timeout nan", "--timeout"},
      {"--egl", "--egl"},
      {"--config /nonexistent/dir/settings.json", "--config"},
      {"--config /tmp", "--config"},
      {"--screenshot /nonexistent/dir/shot.png", "--screenshot"},
      {"--source bogus://x", "--source"},
      {"--source sim://harbour?seed=x", "--source"},
      {"--frame-radials 99999999", "--frame-radials"},
      {"--test-frame-delay-ms -1", "--test-frame-delay-ms"},
      {"--hide-panels=maybe", "--hide-panels"},
  };
  // With and without naming `view` (the default subcommand): refused at once, exit status 2,
  // the option named, nothing started (no window, no EGL, no source opened).
  for (const std::string prefix : {"view ", ""}) {
    for (const auto& [args, option] : cases) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = sweepline::test::run_sweepline(prefix + "--headless --no-save " + args);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_EQ(r.status, 2) << prefix << args << ": " << r.output;
      EXPECT_NE(r.output.find(option), std::string::npos) << prefix << args << ": " << r.output;
      EXPECT_LT(s, 10.0) << prefix << args << ": not refused at once";
    }
  }
}

TEST(ViewOptions, TopLevelOptionsRunTheViewWithoutNamingIt) {
  if (!have_viewer()) GTEST_SKIP() << "this build has no viewer (SWEEPLINE_GUI=OFF)";
  // The program's own options may come first; help and version stay the program's.
  auto r = sweepline::test::run_sweepline("--log-level warn --size 7");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--size"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("not expected"), std::string::npos) << r.output;
  r = sweepline::test::run_sweepline("--log-level=warn --config /nonexistent/dir/s.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--config"), std::string::npos) << r.output;
  r = sweepline::test::run_sweepline("--help");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("dump"), std::string::npos) << "not the program's help: " << r.output;
  r = sweepline::test::run_sweepline("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("sweepline "), std::string::npos) << r.output;
  r = sweepline::test::run_sweepline("--source sim://harbour --help");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--headless"), std::string::npos) << "not view's help: " << r.output;
  // Another subcommand is still itself.
  r = sweepline::test::run_sweepline("dump --help");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("--headless"), std::string::npos) << r.output;
  r = sweepline::test::run_sweepline("--no-such-option");
  EXPECT_EQ(r.status, 2) << r.output;
}

TEST(ViewOptions, HeadlessRunsWithoutNamingViewAndPrintsOneLinePerFrame) {
  if (!have_viewer()) GTEST_SKIP() << "this build has no viewer (SWEEPLINE_GUI=OFF)";
  const std::string capture = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";
  const std::string config =
      (std::filesystem::temp_directory_path() / "sweepline_view_toplevel_none.json").string();
  const auto r =
      sweepline::test::run_sweepline("--headless --no-save --config " + config +
                                     " --backend cpu --size 512 --frames 3 --source " + capture);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("headless: 3 frame(s)"), std::string::npos) << r.output;
  // Not on a terminal: plain lines, not one line rewritten with carriage returns.
  EXPECT_EQ(r.output.find('\r'), std::string::npos) << r.output;
  // Each progress report is a line of its own.
  for (int i = 1; i <= 3; ++i) {
    const size_t at = r.output.find("frame " + std::to_string(i) + "/3: ");
    ASSERT_NE(at, std::string::npos) << r.output;
    EXPECT_TRUE(at == 0 || r.output[at - 1] == '\n') << r.output;
    const size_t end = r.output.find('\n', at);
    ASSERT_NE(end, std::string::npos) << r.output;
    EXPECT_EQ(r.output.substr(end - 10, 10), "components") << r.output;
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
