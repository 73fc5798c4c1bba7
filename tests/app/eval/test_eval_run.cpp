// The scorecard end to end on the CPU backend: the simulator's quiet scene through the console's
// pipeline finds its vessels, a recording with its truth scores the same way, and the PPI picture
// carries the marks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/common/check.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/eval/eval_report.hpp"
#include "app/eval/eval_run.hpp"
#include "app/sim/sim_run.hpp"
#include "gpu/backend/make_pipeline.hpp"

namespace sweepline::eval {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path path = fs::temp_directory_path() / ("swl_eval_test_" + std::to_string(getpid()));
  Scratch() { fs::create_directories(path); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

RunConfig small_config(int size, int rotations, int warmup) {
  RunConfig c;
  c.params = engine::ProcessingSettings::default_params();
  c.params.width = c.params.height = size;
  c.rotations = rotations;
  c.warmup = warmup;
  return c;
}

// The papers' scene on receiver noise: every vessel found, nothing else.
TEST(EvalRun, Vessels50OnTheCpuFindsItsVessels) {
  sim::Scenario s = sim::make_scenario("vessels50");
  s.seed = 11;
  auto feed = scene_feed(s);
  auto pipeline = gpu::make_pipeline(gpu::Backend::Cpu);
  int calls = 0, scored_calls = 0;
  RunConfig cfg = small_config(1024, 2, 1);
  cfg.progress = [&](int i, int total, bool scored, const RotationScore&) {
    EXPECT_EQ(i, calls);
    EXPECT_EQ(total, 3);
    ++calls;
    scored_calls += scored;
  };
  const SceneRun r = evaluate("vessels50", s.radar, *feed, *pipeline, cfg);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(scored_calls, 2);
  EXPECT_EQ(r.warmup_done, 1);
  ASSERT_EQ(r.rotations.size(), 2u);
  EXPECT_EQ(r.rotations[0].rotation, 1u);  // rotation 0 was the warm-up
  EXPECT_EQ(r.rotations[1].rotation, 2u);
  for (const RotationScore& rs : r.rotations) {
    EXPECT_EQ(rs.vessels, 50);
    EXPECT_EQ(rs.detectable, 50);  // 200+ levels on noise of mean 10: >= 22 dB
    EXPECT_GE(rs.found, 49) << "rotation " << rs.rotation;
    EXPECT_LE(rs.unmatched, 1) << "rotation " << rs.rotation;
  }
  EXPECT_EQ(r.vessels_off_display, 0);
  EXPECT_GE(r.score.found_pct, 98);
  // Centroids within a fraction of the gates (a 1024 display is ~43 m a pixel here).
  EXPECT_LT(r.score.range_error_median_m, 30);
  EXPECT_LT(r.score.bearing_error_median_deg, 0.6);
  EXPECT_EQ(r.scan.width, 1024);

  // The picture: grey PPI, a green circle per matched plot, no red or yellow when all match.
  const auto rgba = ppi_picture(r);
  ASSERT_EQ(rgba.size(), size_t(1024) * 1024 * 4);
  int green = 0, red = 0;
  for (size_t i = 0; i < rgba.size(); i += 4) {
    green += rgba[i] == 40 && rgba[i + 1] == 230 && rgba[i + 2] == 60;
    red += rgba[i] == 255 && rgba[i + 1] == 40 && rgba[i + 2] == 40;
  }
  EXPECT_GT(green, 20 * r.rotations.back().found);
  EXPECT_EQ(red == 0, r.rotations.back().unmatched == 0);

  // The report carries the numbers.
  const auto j = scene_json(r);
  EXPECT_EQ(j["rotations"], 2);
  EXPECT_EQ(j["vessels"], 100);
  EXPECT_EQ(j["per_rotation"].size(), 2u);
  EXPECT_NE(scorecard_table({r}).find("vessels50"), std::string::npos);
}

// More clutter, fewer vessels found: the scorecard measures what the scene makes hard.
TEST(EvalRun, ClutterCostsDetectionsOrFalsePlots) {
  sim::Scenario quiet = sim::make_scenario("vessels50");
  quiet.seed = 4;
  quiet.radar.radials = quiet.radar.cells = 2048;
  sim::Scenario rough = quiet;
  rough.clutter.enabled = true;
  rough.clutter.level = 120;
  rough.clutter.shape = 0.5;
  rough.clutter.ref_range_m = 6000;  // flat out to 6 km: the inner vessels sink in it
  RunConfig cfg = small_config(768, 1, 0);
  auto p1 = gpu::make_pipeline(gpu::Backend::Cpu);
  auto f1 = scene_feed(quiet);
  const SceneRun a = evaluate("quiet", quiet.radar, *f1, *p1, cfg);
  auto p2 = gpu::make_pipeline(gpu::Backend::Cpu);
  auto f2 = scene_feed(rough);
  const SceneRun b = evaluate("rough", rough.radar, *f2, *p2, cfg);
  ASSERT_EQ(a.rotations.size(), 1u);
  ASSERT_EQ(b.rotations.size(), 1u);
  EXPECT_LT(b.rotations[0].detectable, a.rotations[0].detectable);
  EXPECT_GT(b.rotations[0].unmatched + (50 - b.rotations[0].found),
            a.rotations[0].unmatched + (50 - a.rotations[0].found));
}

// A recording and its truth: the rotations are numbered by the simulator's summaries, meet their
// truth lines and score as the frames rendered directly do.
TEST(EvalRun, CaptureWithTruthScoresAsTheScene) {
  Scratch dir;
  sim::Scenario s = sim::make_scenario("vessels50");
  s.seed = 9;
  s.radar.radials = 2048;
  s.radar.cells = 2048;
  sim::SimRunOptions o;
  o.scenario = s;
  o.rotations = 3;
  o.out_path = (dir.path / "v50.pcap").string();
  o.truth_path = (dir.path / "v50.truth.jsonl").string();
  sim::run_simulation(o);

  auto truth = read_truth_file(o.truth_path);
  ASSERT_EQ(truth.size(), 3u);
  ASSERT_EQ(truth[2].size(), 50u);
  EXPECT_GT(truth[2][0].scr_db, 20);
  sweep::SweepConfig sc;
  sc.azimuths = 2048;
  sc.range_bins = 2048;
  auto feed = capture_feed(o.out_path, truth, sc);
  auto pipeline = gpu::make_pipeline(gpu::Backend::Cpu);
  const SceneRun r = evaluate("v50", s.radar, *feed, *pipeline, small_config(1024, 8, 1));
  // Three rotations in the file: one warm-up, two scored (the feed ends before 8).
  ASSERT_EQ(r.rotations.size(), 2u);
  EXPECT_EQ(r.rotations[0].rotation, 1u);
  EXPECT_EQ(r.rotations[1].rotation, 2u);
  EXPECT_FALSE(r.scan.empty());

  // The same rotations rendered directly: the same vessels, found alike. The recording's frame
  // also holds the next rotation's first radial (the engine's rotation boundary), so one vessel
  // may differ.
  auto direct_feed = scene_feed(s);
  auto direct_pipeline = gpu::make_pipeline(gpu::Backend::Cpu);
  const SceneRun d =
      evaluate("v50", s.radar, *direct_feed, *direct_pipeline, small_config(1024, 2, 1));
  ASSERT_EQ(d.rotations.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.rotations[i].vessels, 50);
    EXPECT_EQ(r.rotations[i].rotation, d.rotations[i].rotation);
    EXPECT_NEAR(r.rotations[i].found, d.rotations[i].found, 1) << "rotation " << i + 1;
    EXPECT_NEAR(r.rotations[i].unmatched, d.rotations[i].unmatched, 1) << "rotation " << i + 1;
    EXPECT_GT(r.rotations[i].found, 25) << "rotation " << i + 1;
  }
}

TEST(EvalRun, TruthFileErrorsNameTheLine) {
  Scratch dir;
  const std::string path = (dir.path / "bad.jsonl").string();
  {
    std::ofstream f(path);
    f << R"({"rotation":0,"id":0,"range_m":100,"bearing_deg":5,"length_m":20})"
      << "\n";
    f << R"({"rotation":0,"id":1,"range_m":"far","bearing_deg":5})"
      << "\n";
  }
  try {
    read_truth_file(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  {
    std::ofstream f(path, std::ios::trunc);
    f << R"({"rotation":3,"id":0,"range_m":100,"bearing_deg":5})"
      << "\n\n";
  }
  const auto t = read_truth_file(path);  // older lines without scr_db read as 0 dB
  ASSERT_EQ(t.at(3).size(), 1u);
  EXPECT_EQ(t.at(3)[0].scr_db, 0);
  { std::ofstream f(path, std::ios::trunc); }
  EXPECT_THROW(read_truth_file(path), Error);  // empty
  EXPECT_THROW(read_truth_file((dir.path / "missing.jsonl").string()), Error);
}

}  // namespace
}  // namespace sweepline::eval
