// `sweepline dump` as a user runs it, on the shared samples and on files written here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.hpp"

using sweepline::test::run_sweepline;
namespace fs = std::filesystem;

namespace {

std::string sample(const char* name) {
  return (fs::path(SWEEPLINE_SHARED_DIR) / "data" / name).string();
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '{') out.push_back(nlohmann::json::parse(line));
  return out;
}

}  // namespace

TEST(CliDump, JsonLinesAndTotalsForThePcapSample) {
  const std::string path = sample("basic_8bit_nano.pcap");
  if (!fs::exists(path)) GTEST_SKIP() << "shared sample missing: " << path;
  auto r = run_sweepline("dump --json " + path, true);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto lines = json_lines(r.output);
  ASSERT_EQ(lines.size(), 515u);  // 514 records + totals
  const auto& first_video = lines[1];
  for (const char* k : {"t", "sac", "sic", "typ", "msg_index", "start_az", "end_az", "start_az_deg",
                        "end_az_deg", "start_rg", "cell_dur", "cell_dur_unit", "compressed",
                        "res_bits", "nb_vb", "nb_cells", "tod"})
    EXPECT_TRUE(first_video.contains(k)) << k << " missing in " << first_video.dump();
  EXPECT_EQ(first_video["typ"], 2);
  EXPECT_EQ(first_video["msg_index"], 1000);
  EXPECT_EQ(first_video["cell_dur_unit"], "ns");
  EXPECT_EQ(first_video["end_az"], 256);
  EXPECT_DOUBLE_EQ(first_video["end_az_deg"].get<double>(), 1.40625);
  EXPECT_FALSE(first_video.contains("video"));
  EXPECT_EQ(lines[0]["typ"], 1);
  EXPECT_EQ(lines[0]["summary"], "shared sample 1");
  const auto& totals = lines.back()["totals"];
  EXPECT_EQ(totals["records"], 514);
  EXPECT_EQ(totals["video"], 512);
  EXPECT_EQ(totals["summaries"], 2);
  EXPECT_EQ(totals["datagrams_skipped"], 0);
  EXPECT_TRUE(totals["errors"].empty());
}

TEST(CliDump, VideoHexLimitAndPortFilter) {
  const std::string path = sample("compressed_4bit_femto.ast");
  if (!fs::exists(path)) GTEST_SKIP() << "shared sample missing: " << path;
  auto r = run_sweepline("dump --json --video --limit 3 " + path, true);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto lines = json_lines(r.output);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["video"].get<std::string>().size(), 600u);  // 300 cells as hex
  EXPECT_EQ(lines[0]["cell_dur_unit"], "fs");
  EXPECT_EQ(lines[0]["compressed"], true);
  EXPECT_EQ(lines.back()["totals"]["records"], 3);

  const std::string pcap = sample("basic_8bit_nano.pcap");
  auto other_port = run_sweepline("dump --json --port 9999 " + pcap, true);
  ASSERT_EQ(other_port.status, 0);
  const auto t = json_lines(other_port.output);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["totals"]["records"], 0);
  EXPECT_EQ(t[0]["totals"]["datagrams_skipped"], 514);
  auto group = run_sweepline("dump --json --group 239.1.2.3 --port 8600 " + pcap, true);
  EXPECT_EQ(json_lines(group.output).back()["totals"]["records"], 514);
}

TEST(CliDump, TextModeEndsWithASummary) {
  const std::string path = sample("basic_8bit_nano.pcap");
  if (!fs::exists(path)) GTEST_SKIP() << "shared sample missing: " << path;
  auto r = run_sweepline("dump --limit 2 " + path);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("summary #- \"shared sample 1\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("video #1000 az 0.000-1.406 deg"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 records (1 video, 1 summaries)"), std::string::npos) << r.output;
}

TEST(CliDump, MissingOrUnreadableFileFails) {
  auto r = run_sweepline("dump /nonexistent/capture.pcap");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("cannot open capture"), std::string::npos) << r.output;
  const auto junk = fs::temp_directory_path() / "sweepline_dump_junk.bin";
  std::ofstream(junk) << "";
  auto e = run_sweepline("dump " + junk.string());
  EXPECT_NE(e.status, 0);
  EXPECT_NE(e.output.find("empty"), std::string::npos) << e.output;
  auto g = run_sweepline("dump --group 300.1.2.3 " + sample("basic_8bit_nano.pcap"));
  EXPECT_NE(g.status, 0);
  EXPECT_NE(g.output.find("bad IPv4 address"), std::string::npos) << g.output;
  fs::remove(junk);
}
