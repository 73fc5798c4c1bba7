// Label colours that stay with a component across frames (app/engine/label_identities.hpp): the
// labeller renumbers, the colours must not follow the numbers.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "app/engine/label_identities.hpp"

using namespace sweepline;
using namespace sweepline::engine;

namespace {

// A square blob of `side` pixels at (x, y) as the labeller reports it.
ccl::Component blob(int32_t label, double x, double y, int side) {
  ccl::Component c;
  c.label = label;
  c.cx = x;
  c.cy = y;
  c.area = int64_t(side) * side;
  return c;
}

}  // namespace

TEST(LabelIdentities, RenumberedBlobsKeepTheirIdentityAndNewOnesGetANewOne) {
  LabelIdentities st;
  const auto a = st.update({blob(1, 8, 8, 6), blob(2, 42, 42, 4)});
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], 0);
  const int32_t big = a[1], small = a[2];
  EXPECT_NE(big, small);
  // Next frame: numbered the other way round, the small one moved 2 px, and a third appears.
  const auto b = st.update({blob(1, 44, 42, 4), blob(2, 8, 8, 6), blob(3, 21, 51, 3)});
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[2], big);
  EXPECT_EQ(b[1], small);
  EXPECT_NE(b[3], big);
  EXPECT_NE(b[3], small);
}

TEST(LabelIdentities, AFarJumpIsANewComponent) {
  LabelIdentities st;
  const int32_t first = st.update({blob(1, 7, 7, 4)})[1];
  EXPECT_EQ(first, 1);  // a new component's identity is its label while that is free
  // The blob stays (now label 2); one far away takes label 1 and so a new identity.
  const auto ids = st.update({blob(1, 52, 52, 4), blob(2, 8, 7, 4)});
  EXPECT_EQ(ids[2], first);
  EXPECT_NE(ids[1], first);
  EXPECT_NE(ids[1], 0);
}

TEST(LabelIdentities, ASplitBlobKeepsItsIdentityOnTheLargerPart) {
  LabelIdentities st;
  const int32_t id = st.update({blob(1, 100, 100, 10)})[1];
  const auto ids = st.update({blob(1, 97, 100, 3), blob(2, 102, 100, 8)});
  EXPECT_EQ(ids[2], id);
  EXPECT_NE(ids[1], id);
}

TEST(LabelIdentities, ResetForgetsThePreviousFrame) {
  LabelIdentities st;
  st.update({blob(1, 10, 10, 4), blob(2, 50, 50, 4)});
  st.reset();
  const auto ids = st.update({blob(1, 50, 50, 4), blob(2, 10, 10, 4)});
  EXPECT_EQ(ids[1], 1);  // as on a first frame: every identity is its label
  EXPECT_EQ(ids[2], 2);
}

// Against a plain oracle on drifting random scenes: every identity distinct within a frame, and
// a component that moved less than the match distance while no other came near keeps its one.
TEST(LabelIdentities, IsolatedDriftingBlobsKeepTheirIdentitiesAndNoneIsShared) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(0, 4000), step(-3, 3);
  struct Truth {
    double x, y;
  };
  std::vector<Truth> truth(400);
  for (Truth& t : truth) t = {pos(rng), pos(rng)};
  LabelIdentities st;
  std::vector<int32_t> last_id(truth.size(), 0);
  for (int frame = 0; frame < 30; ++frame) {
    // A fresh numbering each frame, as the labeller's.
    std::vector<size_t> order(truth.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<ccl::Component> comps;
    for (size_t k = 0; k < order.size(); ++k)
      comps.push_back(blob(int32_t(k + 1), truth[order[k]].x, truth[order[k]].y, 3));
    const auto ids = st.update(comps);
    ASSERT_EQ(ids.size(), comps.size() + 1);
    std::set<int32_t> seen;
    for (size_t k = 0; k < order.size(); ++k) {
      const int32_t id = ids[k + 1];
      ASSERT_GT(id, 0);
      ASSERT_TRUE(seen.insert(id).second) << "identity " << id << " given twice";
      const size_t t = order[k];
      // Isolated: no other blob within twice the match distance (6 px) of this one.
      bool isolated = true;
      for (size_t o = 0; o < truth.size() && isolated; ++o)
        if (o != t && std::hypot(truth[o].x - truth[t].x, truth[o].y - truth[t].y) < 12)
          isolated = false;
      if (frame > 0 && isolated) {
        EXPECT_EQ(id, last_id[t]) << "frame " << frame << " blob " << t;
      }
      last_id[t] = id;
    }
    for (Truth& t : truth) t = {t.x + step(rng), t.y + step(rng)};
  }
}

TEST(LabelIdentities, AFrameWithoutComponentsGivesOnlyTheBackground) {
  LabelIdentities st;
  st.update({blob(1, 10, 10, 4)});
  const auto ids = st.update({});
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0], 0);
}
