// `sweepline dump` as a user runs it, on the shared samples and on files written here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
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
  EXPECT_EQ(g.status, 2) << g.output;  // refused while parsing, naming the option
  EXPECT_NE(g.output.find("--group: '300.1.2.3' is not a dotted IPv4 address"), std::string::npos)
      << g.output;
  fs::remove(junk);
}

namespace {

// Runs a shell command line (for pipes into the executable); stdout only.
sweepline::test::CommandResult run_shell(const std::string& cmd) {
  sweepline::test::CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

const std::string kExe = SWEEPLINE_EXE;

std::string write_temp(const std::string& name, const std::string& bytes) {
  const auto path = fs::temp_directory_path() / ("sweepline_dump_" + name);
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  return path.string();
}

}  // namespace

TEST(CliDump, PipesAndDashDecodeLikeTheFile) {
  std::vector<std::string> files = {sample("basic_8bit_nano.pcap"),
                                    sample("compressed_4bit_femto.ast"),
                                    std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap"};
  int tried = 0;
  for (const auto& f : files) {
    if (!fs::exists(f)) continue;
    ++tried;
    SCOPED_TRACE(f);
    const auto direct = run_shell(kExe + " dump --json " + f);
    ASSERT_EQ(direct.status, 0);
    ASSERT_GT(json_lines(direct.output).size(), 1u);
    for (const std::string& cmd : {kExe + " dump --json - < " + f,  // standard input, a file
                                   "cat " + f + " | " + kExe + " dump --json -",  // a pipe
                                   "cat " + f + " | " + kExe + " dump --json /dev/stdin"}) {
      const auto piped = run_shell(cmd);
      EXPECT_EQ(piped.status, 0) << cmd;
      EXPECT_TRUE(piped.output == direct.output)
          << cmd << ": " << piped.output.size() << " bytes of output instead of "
          << direct.output.size() << ", ending\n"
          << piped.output.substr(piped.output.size() - std::min<size_t>(300, piped.output.size()));
    }
  }
  if (tried == 0) GTEST_SKIP() << "no sample captures";
}

TEST(CliDump, TextAndEmptyInputsAreErrors) {
  const std::string text = write_temp("notes.txt", "these are notes, not a capture\n");
  auto t = run_sweepline("dump " + text);
  EXPECT_EQ(t.status, 1) << t.output;
  EXPECT_NE(t.output.find("is a text file"), std::string::npos) << t.output;
  auto tp = run_shell(kExe + " dump - < " + text + " 2>&1");
  EXPECT_EQ(tp.status, 1) << tp.output;
  EXPECT_NE(tp.output.find("is a text file"), std::string::npos) << tp.output;
  const std::string empty = write_temp("empty.bin", "");
  for (const std::string& cmd :
       {"dump " + empty, "dump - < " + empty, std::string("dump - < /dev/null")}) {
    auto e = run_sweepline(cmd);
    EXPECT_EQ(e.status, 1) << cmd << "\n" << e.output;
    EXPECT_NE(e.output.find("is empty"), std::string::npos) << cmd << "\n" << e.output;
  }
  auto ep = run_shell("true | " + kExe + " dump - 2>&1");
  EXPECT_EQ(ep.status, 1) << ep.output;
  EXPECT_NE(ep.output.find("is empty"), std::string::npos) << ep.output;
  // Raw ASTERIX whose first block claims more bytes than the file holds.
  const std::string cut = write_temp("cut.ast", std::string("\xf0\x01\x00\x02\x03", 5));
  auto c = run_sweepline("dump " + cut);
  EXPECT_EQ(c.status, 1) << c.output;
  EXPECT_NE(c.output.find("runs past the end"), std::string::npos) << c.output;
  for (const auto& p : {text, empty, cut}) fs::remove(p);
}

TEST(CliDump, FragmentsPendingAtTheEndAreCounted) {
  // A classic pcap (little-endian, Ethernet) whose only frame is the first fragment (MF set) of
  // a UDP datagram to 239.1.2.3:8600: the rest never comes.
  std::string f;
  auto le32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) f.push_back(char(v >> (8 * i)));
  };
  le32(0xA1B2C3D4);
  f += std::string("\x02\x00\x04\x00", 4);
  le32(0);
  le32(0);
  le32(65535);
  le32(1);
  std::string frame = std::string("\x01\x00\x5e\x01\x02\x03\x02\x00\x00\x00\x00\x01\x08\x00", 14);
  const std::string udp =
      std::string("\x13\x88\x21\x98\x00\x30\x00\x00", 8) + std::string(24, '\0');
  const uint16_t ip_len = uint16_t(20 + udp.size());
  frame += std::string("\x45\x00", 2) + char(ip_len >> 8) + char(ip_len & 255) +
           std::string("\x00\x07\x20\x00\x40\x11\x00\x00\x0a\x00\x00\x01\xef\x01\x02\x03", 16) +
           udp;
  le32(10);
  le32(0);
  le32(uint32_t(frame.size()));
  le32(uint32_t(frame.size()));
  f += frame;
  const std::string path = write_temp("pending_fragment.pcap", f);
  const auto j = json_lines(run_sweepline("dump --json " + path, true).output);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["totals"]["datagrams_skipped"], 1);
  EXPECT_EQ(j[0]["totals"]["skipped"]["fragment_incomplete"], 1) << j[0].dump();
  auto text = run_sweepline("dump " + path);
  EXPECT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("1 datagrams skipped fragment_incomplete=1"), std::string::npos)
      << text.output;
  fs::remove(path);
}
