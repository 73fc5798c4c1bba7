// The sim:// record source: unpaced and paced delivery, pause / step / seek / loop, and that its
// records assemble into frames that show the scene's vessels.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/common/check.hpp"
#include "app/sim/scene.hpp"
#include "app/sim/sim_source.hpp"
#include "sim_test_util.hpp"

namespace sweepline::simtest {
namespace {

const char* kUri = "sim://vessels50?seed=3&radials=1024&cells=1024&rotations=2";

struct Counted {
  int video = 0, summaries = 0;
};

Counted count(const std::vector<cat240::Record>& recs) {
  Counted c;
  for (const auto& r : recs) (r.type == cat240::MessageType::Video ? c.video : c.summaries)++;
  return c;
}

TEST(SimSource, UnpacedRunEndsAndShowsEveryVessel) {
  SourceOptions o;
  o.speed = 0;
  o.loop = false;
  auto src = open_sim_source(kUri, o);
  ASSERT_NE(src->replay(), nullptr);
  EXPECT_EQ(src->replay()->rotation_count(), 2u);
  const sim::Scenario s = sim::parse_sim_uri(kUri);
  sweep::SweepConfig cfg;
  cfg.azimuths = s.radar.radials;
  cfg.range_bins = s.radar.cells;
  cfg.range_m = s.radar.range_m();
  sweep::SweepAssembler asm_(cfg);
  std::vector<cat240::Record> recs, all;
  int polls = 0;
  while (src->poll(recs)) {
    ASSERT_LT(++polls, 10000) << "source never ended";
    for (auto& r : recs) {
      if (r.type == cat240::MessageType::Video) asm_.add(r);
      r.cells.clear();
      all.push_back(std::move(r));
    }
    recs.clear();
  }
  const Counted c = count(all);
  EXPECT_EQ(c.video, 2 * 1024);
  EXPECT_EQ(c.summaries, 2);
  EXPECT_EQ(src->status().state, "ended");
  // The last frame is rotation 1 of the scene.
  sim::Scene scene(s);
  scene.seek(1);
  std::vector<Truth> truth;
  for (const auto& t : scene.truth())
    truth.push_back(
        {t.rotation, t.id, t.range_m, t.bearing_deg, t.x_m, t.y_m, t.length_m, t.heading_deg});
  asm_.flush();
  const auto blobs = find_blobs(asm_.frame(), 90);
  EXPECT_EQ(int(blobs.size()), 50);
  EXPECT_EQ(match_truth(asm_.frame(), blobs, truth, 1, s), 50);
}

TEST(SimSource, PausedDeliversNothingAndStepDeliversOneRotation) {
  SourceOptions o;
  o.speed = 1;
  auto src = open_sim_source("sim://harbour?seed=1&radials=512&cells=256&rpm=60", o);
  ReplayControl* rc = src->replay();
  rc->set_paused(true);
  EXPECT_TRUE(rc->paused());
  std::vector<cat240::Record> recs;
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(src->poll(recs));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(recs.empty());
  rc->step_rotation();
  for (int i = 0; i < 10; ++i) src->poll(recs);
  Counted c = count(recs);
  EXPECT_EQ(c.video, 512);
  EXPECT_EQ(c.summaries, 1);
  recs.clear();
  for (int i = 0; i < 5; ++i) src->poll(recs);
  EXPECT_TRUE(recs.empty());
  // Seek: the next records belong to rotation 5.
  rc->seek_rotation(5);
  rc->step_rotation();
  src->poll(recs);
  ASSERT_FALSE(recs.empty());
  EXPECT_EQ(recs.front().type, cat240::MessageType::Summary);
  EXPECT_NE(recs.front().summary.find("rotation=5"), std::string::npos);
}

TEST(SimSource, PacedAtTheRadarRate) {
  SourceOptions o;
  o.speed = 1;
  // 10 s per rotation: in ~0.3 s at most a few percent of the rotation may come out.
  auto src = open_sim_source("sim://harbour?seed=1&radials=1024&cells=256&rpm=6", o);
  std::vector<cat240::Record> recs;
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300)) {
    src->poll(recs);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Counted c = count(recs);
  EXPECT_GT(c.video, 0);
  EXPECT_LE(c.video, int(1024 * (elapsed + 0.05) / 10.0) + 2);
  // Ten times faster gives about ten times the radials.
  src->replay()->set_speed(10);
  EXPECT_EQ(src->replay()->speed(), 10);
}

TEST(SimSource, LoopsAfterItsRotations) {
  SourceOptions o;
  o.speed = 0;
  o.loop = true;
  auto src = open_sim_source("sim://vessels50?radials=256&cells=128&rotations=1", o);
  std::vector<cat240::Record> recs;
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(src->poll(recs));
  int rot0 = 0;
  for (const auto& r : recs)
    rot0 +=
        r.type == cat240::MessageType::Summary && r.summary.find("rotation=0") != std::string::npos;
  EXPECT_GE(rot0, 2) << "rotation 0 should come round again";
}

}  // namespace
}  // namespace sweepline::simtest

namespace sweepline::simtest {
namespace {

// The project's open_source hands sim:// URIs (the viewer's default) to the simulator.
TEST(SimSource, DefaultUriOpensThroughOpenSource) {
  SourceOptions o;
  o.speed = 0;
  auto src = open_source(kDefaultSourceUri, o);
  ASSERT_NE(src, nullptr);
  ASSERT_NE(src->replay(), nullptr);
  std::vector<cat240::Record> recs;
  ASSERT_TRUE(src->poll(recs));
  ASSERT_GT(recs.size(), 1u);
  EXPECT_NE(recs.front().summary.find("harbour seed=1 rotation=0"), std::string::npos);
  EXPECT_EQ(recs.back().nb_cells, 4096u);
  EXPECT_THROW(open_source("sim://harbour?seed=x", o), Error);
}

}  // namespace
}  // namespace sweepline::simtest
