// assets/harbour.pcap: readable by the project's reader, what scripts/make-assets says it is, and
// still what the simulator makes today (regenerate with scripts/make-assets when this fails after
// a deliberate change to the scene or the encoder).
#include <gtest/gtest.h>

#include <filesystem>

#include "sim_test_util.hpp"

namespace sweepline::simtest {
namespace {

sim::Scenario asset_scenario() {
  sim::Scenario s = sim::make_scenario("harbour");
  s.seed = 1;
  s.radar.radials = 2048;
  s.radar.cells = 2048;
  s.radar.res_bits = 4;
  s.radar.compress = true;
  s.vessels.range_min_m = 3000;
  return s;
}

const std::string kAsset = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";
const std::string kTruth = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.truth.jsonl";

TEST(SimAssets, HarbourCaptureDecodesAndIsSmall) {
  ASSERT_TRUE(std::filesystem::exists(kAsset)) << "run scripts/make-assets";
  EXPECT_LE(std::filesystem::file_size(kAsset), 5000000u);
  const sim::Scenario s = asset_scenario();
  const Replayed rp = replay(kAsset, s);
  EXPECT_EQ(rp.decode_errors, 0u);
  EXPECT_EQ(rp.frames.size(), 4u);
  int video = 0;
  for (const auto& r : rp.records) {
    if (r.type != cat240::MessageType::Video) continue;
    ++video;
    EXPECT_TRUE(r.compressed);
    EXPECT_EQ(r.res_bits, 4);
  }
  EXPECT_EQ(video, 4 * 2048);
  EXPECT_EQ(read_truth(kTruth).size(), 4u * 50u);
}

TEST(SimAssets, HarbourCaptureIsWhatTheSimulatorMakesToday) {
  sim::SimRunOptions o;
  o.scenario = asset_scenario();
  o.rotations = 4;
  o.out_path = temp_path("asset.pcap");
  o.truth_path = temp_path("asset.truth.jsonl");
  sim::run_simulation(o);
  EXPECT_TRUE(read_bytes(o.out_path) == read_bytes(kAsset))
      << "assets/harbour.pcap is stale: run scripts/make-assets";
  EXPECT_TRUE(read_bytes(o.truth_path) == read_bytes(kTruth))
      << "assets/harbour.truth.jsonl is stale: run scripts/make-assets";
}

}  // namespace
}  // namespace sweepline::simtest
