// Standard range scales and ring intervals (ui/range_scale.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "ui/range_scale.hpp"

using namespace sweepline::ui;

namespace {

constexpr double kNm = 1852.0;

}  // namespace

TEST(RangeScale, HasEveryScaleImoRequiresAndTheLowAndHighOnes) {
  // MSC.192(79) 5.12.1: 0.25 .. 24 NM required; 0.125 and 48 NM offered beside them.
  const double want[] = {0.125, 0.25, 0.5, 0.75, 1.5, 3, 6, 12, 24, 48};
  ASSERT_EQ(kRangeScales.size(), std::size(want));
  for (size_t i = 0; i < kRangeScales.size(); ++i) EXPECT_EQ(kRangeScales[i].range_nm, want[i]);
}

TEST(RangeScale, RingIntervalsDivideEachScaleIntoAFewEqualRings) {
  const double rings[] = {0.025, 0.05, 0.1, 0.25, 0.25, 0.5, 1, 2, 4, 8};
  for (size_t i = 0; i < kRangeScales.size(); ++i) {
    const RangeScale& s = kRangeScales[i];
    EXPECT_EQ(s.ring_nm, rings[i]);
    const double n = s.range_nm / s.ring_nm;
    EXPECT_NEAR(n, std::round(n), 1e-9) << s.range_nm;  // a whole number of rings
    EXPECT_GE(n, 3);
    EXPECT_LE(n, 6);
    EXPECT_NEAR(ring_interval_m(s.range_nm * kNm), s.ring_nm * kNm, 1e-9);
  }
  // A radius between the scales (a script's zoom) still gets a few rings.
  const double r = 8 * kNm;
  EXPECT_GE(r / ring_interval_m(r), 3);
  EXPECT_LE(r / ring_interval_m(r), 10);
}

TEST(RangeScale, StepsGoThroughTheListAndStopAtItsEnds) {
  double r = 12 * kNm;
  r = step_range_scale_m(r, +1);
  EXPECT_NEAR(r, 24 * kNm, 1e-9);
  r = step_range_scale_m(r, +1);
  EXPECT_NEAR(r, 48 * kNm, 1e-9);
  EXPECT_NEAR(step_range_scale_m(r, +1), 48 * kNm, 1e-9);
  EXPECT_NEAR(step_range_scale_m(0.75 * kNm, -1), 0.5 * kNm, 1e-9);
  EXPECT_NEAR(step_range_scale_m(0.125 * kNm, -1), 0.125 * kNm, 1e-9);
  // From between two scales: the next one each way.
  EXPECT_NEAR(step_range_scale_m(8 * kNm, -1), 6 * kNm, 1e-9);
  EXPECT_NEAR(step_range_scale_m(8 * kNm, +1), 12 * kNm, 1e-9);
  EXPECT_EQ(range_scale_for(10 * kNm), 7);  // 12 NM shows 10 NM whole
  EXPECT_EQ(range_scale_for(12 * kNm), 7);
  EXPECT_EQ(range_scale_for(1000 * kNm), 9);
  EXPECT_EQ(standard_range_scale(1.5 * kNm), 4);
  EXPECT_EQ(standard_range_scale(2 * kNm), -1);
}

TEST(RangeScale, NamesHaveNoTrailingZeros) {
  EXPECT_EQ(format_nm(0.125), "0.125");
  EXPECT_EQ(format_nm(0.75), "0.75");
  EXPECT_EQ(format_nm(1.5), "1.5");
  EXPECT_EQ(format_nm(12), "12");
}
