// The simulator's output, read back through the project's own capture reader, decoder and sweep
// assembler, shows every vessel of the ground truth where the truth says it is (within one
// beamwidth in azimuth and one pulse length in range), and nothing else on a quiet background.
#include <gtest/gtest.h>

#include "app/sim/land_map.hpp"
#include "sim_test_util.hpp"

namespace sweepline::simtest {
namespace {

struct Case {
  const char* scenario;
  sim::Style style;
  int radials, cells, res;
  bool compress;
  const char* file;
};

class TruthThroughReader : public ::testing::TestWithParam<Case> {};

TEST_P(TruthThroughReader, EveryVesselAtItsPositionAndNothingElse) {
  const Case& c = GetParam();
  sim::Scenario s = sim::make_scenario(c.scenario);
  s.seed = 7;
  s.style = c.style;
  s.radar.radials = c.radials;
  s.radar.cells = c.cells;
  s.radar.res_bits = c.res;
  s.radar.compress = c.compress;
  sim::SimRunOptions o;
  o.scenario = s;
  o.rotations = 3;
  o.out_path = temp_path(c.file);
  o.truth_path = temp_path(std::string(c.file) + ".truth.jsonl");
  const auto p = sim::run_simulation(o);
  ASSERT_EQ(p.rotation, 3u);

  const auto truth = read_truth(o.truth_path);
  ASSERT_EQ(truth.size(), size_t(s.vessels.count) * 3);
  const Replayed rp = replay(o.out_path, s);
  EXPECT_EQ(rp.decode_errors, 0u);
  ASSERT_EQ(rp.frames.size(), 3u);
  for (const auto& [rot, frame] : rp.frames) {
    // Quiet background: receiver noise never reaches the threshold, vessels always do.
    const auto blobs = find_blobs(frame, 90);
    EXPECT_EQ(int(blobs.size()), s.vessels.count) << "rotation " << rot;
    EXPECT_EQ(match_truth(frame, blobs, truth, rot, s), s.vessels.count) << "rotation " << rot;
  }
  // The vessels move between rotations: the truth changes.
  int moved = 0;
  for (int i = 0; i < s.vessels.count; ++i)
    moved += truth[size_t(i)].x_m != truth[size_t(s.vessels.count + i)].x_m;
  EXPECT_GT(moved, s.vessels.count / 2);
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, TruthThroughReader,
    ::testing::Values(
        // The papers' experiment at full size, as the simulator's default pcap output.
        Case{"vessels50", sim::Style::NextAz, 4096, 4096, 8, false, "v50.pcap"},
        Case{"vessels1869", sim::Style::ZeroWidth, 4096, 4096, 8, false, "v1869.ast"},
        // Other producer styles, resolutions and compression on a smaller radar.
        Case{"vessels50", sim::Style::Split1400, 2048, 2048, 4, true, "v50_split.pcapng"},
        Case{"vessels50", sim::Style::MultiRecord, 2048, 1024, 16, true, "v50_multi.ast"}),
    [](const auto& info) {
      return std::string(info.param.file).substr(0, std::string(info.param.file).find('.'));
    });

// In the harbour (coast and islands), with clutter and rain switched off so that the test's
// simple threshold can tell vessels from the weather: every vessel at sea away from land is found.
TEST(TruthThroughReader, HarbourVesselsAwayFromLand) {
  sim::Scenario s = sim::make_scenario("harbour");
  s.seed = 3;
  s.clutter.enabled = false;
  s.rain.enabled = false;
  sim::SimRunOptions o;
  o.scenario = s;
  o.rotations = 2;
  o.out_path = temp_path("harbour.pcap");
  o.truth_path = temp_path("harbour.truth.jsonl");
  sim::run_simulation(o);
  const auto truth = read_truth(o.truth_path);
  const Replayed rp = replay(o.out_path, s);
  ASSERT_EQ(rp.frames.size(), 2u);
  sim::LandMap land(s);
  for (const auto& [rot, frame] : rp.frames) {
    const auto blobs = find_blobs(frame, 110);
    std::vector<Truth> at_sea;
    for (const Truth& t : truth) {
      bool near_land = false;
      for (double dx = -600; dx <= 600 && !near_land; dx += 100)
        for (double dy = -600; dy <= 600 && !near_land; dy += 100)
          near_land = land.is_land(t.x_m + dx, t.y_m + dy);
      // Vessels within two hull lengths of each other merge into one echo; skip those too.
      bool crowded = false;
      for (const Truth& u : truth)
        if (u.rotation == t.rotation && u.id != t.id &&
            std::hypot(u.x_m - t.x_m, u.y_m - t.y_m) < 2 * (u.length_m + t.length_m) + 200)
          crowded = true;
      if (!near_land && !crowded) at_sea.push_back(t);
    }
    int expected = 0;
    for (const Truth& t : at_sea) expected += t.rotation == rot;
    EXPECT_GT(expected, 25) << "too few vessels at sea for the test to mean much";
    EXPECT_EQ(match_truth(frame, blobs, at_sea, rot, s), expected);
  }
}

}  // namespace
}  // namespace sweepline::simtest
