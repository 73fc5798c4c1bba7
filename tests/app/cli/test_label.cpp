// `sweepline label` as a user runs it: JSON output, error handling, backends.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"

using sweepline::test::CommandResult;
using sweepline::test::run_sweepline;

namespace {

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "sweepline_test_label";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// 6x4 image: an L-shaped component (values 200) and a diagonal pair (values 90).
std::string write_sample() {
  const unsigned char px[4][6] = {
      {200, 200, 0, 0, 0, 90}, {200, 0, 0, 0, 90, 0}, {200, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 30}};
  std::string path = temp_path("sample.pgm");
  std::ofstream f(path, std::ios::binary);
  f << "P5\n6 4\n255\n";
  f.write(reinterpret_cast<const char*>(px), sizeof(px));
  return path;
}

nlohmann::json parse(const CommandResult& r) {
  try {
    return nlohmann::json::parse(r.output);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what() << "\n" << r.output;
    return {};
  }
}

}  // namespace

TEST(CliLabel, JsonListsComponentsInLabelOrder) {
  std::string img = write_sample();
  CommandResult r = run_sweepline("label " + img + " --json", true);
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = parse(r);
  EXPECT_EQ(j["width"], 6);
  EXPECT_EQ(j["height"], 4);
  EXPECT_EQ(j["connectivity"], 8);
  EXPECT_EQ(j["backend"], "cpu");
  ASSERT_EQ(j["count"], 3);
  const auto& c = j["components"];
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0]["label"], 1);
  EXPECT_EQ(c[0]["area"], 4);
  EXPECT_EQ(c[0]["xmax"], 1);
  EXPECT_EQ(c[0]["ymax"], 2);
  EXPECT_DOUBLE_EQ(c[0]["cx"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(c[0]["cy"].get<double>(), 0.75);
  EXPECT_EQ(c[1]["area"], 2);  // the diagonal pair joins under 8-connectivity
  EXPECT_EQ(c[1]["xmin"], 4);
  EXPECT_EQ(c[2]["xmin"], 5);
  EXPECT_EQ(c[2]["ymin"], 3);
  EXPECT_TRUE(j["timing_ms"].is_object());
  EXPECT_FALSE(j["timing_ms"].empty());
}

TEST(CliLabel, ConnectivityThresholdAndMinArea) {
  std::string img = write_sample();
  auto j4 = parse(run_sweepline("label " + img + " --json --connectivity 4", true));
  EXPECT_EQ(j4["count"], 4);
  auto jt = parse(run_sweepline("label " + img + " --json --threshold 100", true));
  EXPECT_EQ(jt["count"], 1);
  auto ja = parse(run_sweepline("label " + img + " --json --min-area 2", true));
  ASSERT_EQ(ja["count"], 2);
  EXPECT_EQ(ja["components"][1]["label"], 2);
  EXPECT_EQ(ja["components"][1]["area"], 2);
}

TEST(CliLabel, TableOutputWithoutJson) {
  CommandResult r = run_sweepline("label " + write_sample());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 components"), std::string::npos) << r.output;
}

TEST(CliLabel, BadImagesFailWithAMessage) {
  CommandResult missing = run_sweepline("label /nonexistent/none.pgm --json");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.output.find("none.pgm"), std::string::npos) << missing.output;
  std::string bad = temp_path("bad.pgm");
  {
    std::ofstream f(bad, std::ios::binary);
    f << "P5\n100 100\n255\nshort";
  }
  CommandResult truncated = run_sweepline("label " + bad);
  EXPECT_NE(truncated.status, 0);
  EXPECT_NE(truncated.output.find("bad.pgm"), std::string::npos) << truncated.output;
  CommandResult opt = run_sweepline("label " + write_sample() + " --connectivity 6");
  EXPECT_EQ(opt.status, 2) << opt.output;
}

TEST(CliLabel, CudaBackendLabelsOrExplains) {
  std::string img = write_sample();
  auto cpu = parse(run_sweepline("label " + img + " --json", true));
  for (const char* alg : {"fast", "kang", "propagate"}) {
    CommandResult r =
        run_sweepline("label " + img + " --json --backend cuda --algorithm " + alg, true);
    if (r.status != 0) {  // no usable device here: a clear error, nothing printed as JSON
      CommandResult e = run_sweepline("label " + img + " --backend cuda --algorithm " + alg);
      EXPECT_NE(e.output.find("cuda"), std::string::npos) << e.output;
      continue;
    }
    auto j = parse(r);
    EXPECT_EQ(j["algorithm"], alg);
    EXPECT_EQ(j["components"], cpu["components"]) << alg;
  }
}
