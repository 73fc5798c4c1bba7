// The CPU labeller against the BFS oracle on random and adversarial images.
#include <gtest/gtest.h>

#include "app/common/check.hpp"
#include "tests/support/ccl_cases.hpp"

using namespace sweepline;
using sweepline::test::expect_equal_to_oracle;
using sweepline::test::oracle_label;

namespace {

void check_all(const ccl::LabelParams& base, bool with_intensity) {
  test::for_each_standard_case(
      true, base, with_intensity, 99,
      [](const test::Case& c, const ccl::LabelParams& p, const Image8* ip) {
        expect_equal_to_oracle(ccl::label_cpu(c.image, p, ip), oracle_label(c.image, p, ip),
                               c.name + " conn " + std::to_string(p.connectivity));
      });
}

}  // namespace

TEST(CclCpu, EqualsOracleOnEveryCase) {
  check_all({}, false);
}

TEST(CclCpu, WeightedCentroidsPeaksRangeAndBearing) {
  ccl::LabelParams p;
  p.geometry = {100.5, 60.25, 7.5};
  check_all(p, true);
}

TEST(CclCpu, AreaFilterRenumbers) {
  ccl::LabelParams p;
  p.min_area = 3;
  p.max_area = 40;
  check_all(p, false);
}

TEST(CclCpu, HoleFillingEqualsOracle) {
  ccl::LabelParams p;
  p.fill_holes = true;
  p.hole_max_area = 6;
  check_all(p, false);
  p.hole_max_area = 0;  // every hole
  check_all(p, false);
}

TEST(CclCpu, ThresholdAppliesToIntensityImages) {
  Image8 img = test::random_intensity(90, 70, 5);
  ccl::LabelParams p;
  p.threshold = 128;
  for (int conn : {4, 8}) {
    p.connectivity = conn;
    expect_equal_to_oracle(ccl::label_cpu(img, p, &img), oracle_label(img, p, &img), "thr");
  }
}

TEST(CclCpu, CheckerboardDiffersBetween4And8) {
  Image8 img = test::checkerboard(10, 10, 1);
  ccl::LabelParams p;
  p.connectivity = 4;
  EXPECT_EQ(ccl::label_cpu(img, p).count, 50);
  p.connectivity = 8;
  EXPECT_EQ(ccl::label_cpu(img, p).count, 1);
}

TEST(CclCpu, KnownSmallImage) {
  // Two components in raster order; hand-checked statistics.
  Image8 img(5, 3, 0);
  img.at(3, 0) = img.at(4, 0) = img.at(4, 1) = 1;  // label 1: area 3
  img.at(0, 1) = img.at(1, 2) = 1;                 // label 2 under 8-connectivity
  ccl::LabelParams p;
  p.geometry = {0.5, 3.5, 2.0};  // radar at pixel (0, 3): below-left of everything
  auto r = ccl::label_cpu(img, p);
  ASSERT_EQ(r.count, 2);
  EXPECT_EQ(r.labels.at(3, 0), 1);
  EXPECT_EQ(r.labels.at(0, 1), 2);
  EXPECT_EQ(r.labels.at(1, 2), 2);
  EXPECT_EQ(r.components[0].area, 3);
  EXPECT_EQ(r.components[0].xmin, 3);
  EXPECT_EQ(r.components[0].ymax, 1);
  EXPECT_DOUBLE_EQ(r.components[0].cx, 11.0 / 3);
  EXPECT_DOUBLE_EQ(r.components[0].cy, 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.components[1].cx, 0.5);
  EXPECT_DOUBLE_EQ(r.components[1].cy, 1.5);
  // Component 2's centroid (0.5, 1.5) is 0.5 px east and 1.5 px north of the radar.
  EXPECT_NEAR(r.components[1].range_m, 2.0 * std::hypot(0.5, 1.5), 1e-12);
  EXPECT_NEAR(r.components[1].bearing_deg, std::atan2(0.5, 1.5) * 180 / M_PI, 1e-12);
  p.connectivity = 4;
  EXPECT_EQ(ccl::label_cpu(img, p).count, 3);
}

TEST(CclCpu, BearingIsClockwiseFromNorth) {
  Image8 img(9, 9, 0);
  ccl::LabelParams p;
  p.geometry = {4.5, 4.5, 1.0};
  struct {
    int x, y;
    double deg;
  } cases[] = {{4, 0, 0}, {8, 4, 90}, {4, 8, 180}, {0, 4, 270}, {8, 0, 45}};
  for (auto c : cases) {
    Image8 one = img;
    one.at(c.x, c.y) = 1;
    auto r = ccl::label_cpu(one, p);
    ASSERT_EQ(r.count, 1);
    EXPECT_NEAR(r.components[0].bearing_deg, c.deg, 1e-9) << c.x << "," << c.y;
  }
}

TEST(CclCpu, HoleFillingMergesNeighbours) {
  // A ring with a one-pixel hole holding nothing, and a ring whose hole holds an island:
  // filling merges the island into the ring.
  Image8 img(12, 7, 0);
  for (int y = 1; y <= 5; ++y)
    for (int x = 1; x <= 5; ++x) img.at(x, y) = (x == 1 || x == 5 || y == 1 || y == 5) ? 1 : 0;
  img.at(3, 3) = 1;  // island
  ccl::LabelParams p;
  p.connectivity = 8;
  EXPECT_EQ(ccl::label_cpu(img, p).count, 2);
  p.fill_holes = true;
  p.hole_max_area = 9;  // the hole is 8 pixels
  auto r = ccl::label_cpu(img, p);
  EXPECT_EQ(r.count, 1);
  EXPECT_EQ(r.components[0].area, 25);
  p.hole_max_area = 8;  // too large now: not filled
  EXPECT_EQ(ccl::label_cpu(img, p).count, 2);
}

TEST(CclCpu, RejectsBadParameters) {
  Image8 img(4, 4, 1);
  ccl::LabelParams p;
  p.connectivity = 6;
  EXPECT_THROW(ccl::label_cpu(img, p), Error);
  p.connectivity = 8;
  Image8 other(3, 4, 1);
  EXPECT_THROW(ccl::label_cpu(img, p, &other), Error);
  Image8 bad(4, 4, 1);
  bad.pixels.pop_back();
  EXPECT_THROW(ccl::label_cpu(bad, p), Error);
}

TEST(CclCpu, EmptyImageHasNoComponents) {
  auto r = ccl::label_cpu(Image8{}, {});
  EXPECT_EQ(r.count, 0);
  EXPECT_TRUE(r.components.empty());
}

TEST(CclNames, RoundTrip) {
  for (auto a : {ccl::Algorithm::Fast, ccl::Algorithm::Kang, ccl::Algorithm::Propagate})
    EXPECT_EQ(ccl::algorithm_from_string(ccl::to_string(a)), a);
  for (auto m :
       {ccl::BoxMethod::Atomic, ccl::BoxMethod::LockPerBox, ccl::BoxMethod::LockPerCoordinate})
    EXPECT_EQ(ccl::box_method_from_string(ccl::to_string(m)), m);
  EXPECT_THROW(ccl::algorithm_from_string("bfs"), Error);
}

TEST(CclCpu, ComponentLimitCollectsNothingAndSaysSo) {
  // A 4-connected checkerboard: one component every other pixel, the labeller's worst case.
  const Image8 img = test::checkerboard(200, 100, 1);
  ccl::LabelParams p;
  p.connectivity = 4;
  p.max_components = 9999;
  const ccl::LabelResult over = ccl::label_cpu(img, p);
  EXPECT_TRUE(over.limit_exceeded);
  EXPECT_EQ(over.found, 10000);
  EXPECT_EQ(over.count, 0);
  EXPECT_TRUE(over.components.empty());
  ASSERT_EQ(over.labels.width, 200);
  ASSERT_EQ(over.labels.height, 100);
  for (int32_t l : over.labels.pixels) ASSERT_EQ(l, 0);
  EXPECT_NE(ccl::limit_message(over, p).find("10000 components, more than the limit of 9999"),
            std::string::npos)
      << ccl::limit_message(over, p);
  // At the limit, and with no limit: everything, as before.
  for (int64_t limit : {int64_t(10000), int64_t(0)}) {
    p.max_components = limit;
    const ccl::LabelResult r = ccl::label_cpu(img, p);
    EXPECT_FALSE(r.limit_exceeded) << limit;
    EXPECT_EQ(r.found, 10000);
    EXPECT_EQ(r.count, 10000);
    EXPECT_EQ(r.components.size(), 10000u);
  }
  // The limit counts components before the area filter: the filter cannot hide an overload.
  p.max_components = 9999;
  p.min_area = 2;
  EXPECT_TRUE(ccl::label_cpu(img, p).limit_exceeded);
  p.max_components = -1;
  EXPECT_THROW(ccl::label_cpu(img, p), Error);
  EXPECT_EQ(ccl::LabelParams{}.max_components, ccl::kDefaultMaxComponents);
}
