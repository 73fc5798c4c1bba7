// EBL, VRM and ERBL (ui/ebl_vrm.hpp) against a simple oracle: a target put at a known true range
// and bearing from own ship, clicked on the screen (a whole pixel) in every orientation and on
// every standard range scale, must read within 1 deg and 1 % of the range scale (IMO
// MSC.192(79) 5.12.3/5.12.4), and the lines drawn must point at it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "render/orientation.hpp"
#include "render/ppi_view.hpp"
#include "ui/ebl_vrm.hpp"
#include "ui/overlays.hpp"
#include "ui/range_scale.hpp"

using namespace sweepline;
using namespace sweepline::ui;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;
constexpr double kNm = 1852.0;

double angle_diff(double a, double b) {
  return std::abs(std::remainder(a - b, 360.0));
}

// The oracle: where a target at a true range and bearing from own ship lies in the video frame.
render::WorldPoint oracle_video(double range_m, double true_deg, double heading_deg) {
  const double b = (true_deg - heading_deg) * kDeg;
  return {range_m * std::sin(b), range_m * std::cos(b)};
}

double readout_number(const std::string& text, const char* fmt) {
  double v = -1;
  EXPECT_EQ(std::sscanf(text.c_str(), fmt, &v), 1) << text;
  return v;
}

const render::Orientation kAll[] = {render::Orientation::NorthUp, render::Orientation::HeadUp,
                                    render::Orientation::CourseUp};

}  // namespace

TEST(EblVrm, ClickedTargetReadsWithinOneDegreeAndOnePercentOfTheScale) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0, 1);
  int checked = 0;
  for (const RangeScale& s : kRangeScales)
    for (render::Orientation o : kAll)
      for (int k = 0; k < 12; ++k) {
        const double heading = 360 * u(rng), course = 360 * u(rng);
        const double scale_m = s.range_nm * kNm;
        render::PpiView view;
        view.set_rotation_deg(render::picture_rotation_deg(o, heading, course));
        view.reset({0, 0, 1000, 800}, scale_m, k % 2 == 1, 360 * u(rng));
        const double range_m = scale_m * (0.25 + 0.7 * u(rng)), brg = 360 * u(rng);
        float tx = 0, ty = 0;
        view.world_to_screen(oracle_video(range_m, brg, heading), tx, ty);
        const float px = std::round(tx), py = std::round(ty);  // a click lands on a pixel

        Marker m;
        m.ebl_true = k % 3 != 0;
        aim_at(m, view.screen_to_world(px, py), heading);
        const double shown = readout_number(ebl_readout(0, m), "EBL1 %lf");
        EXPECT_LT(angle_diff(shown, m.ebl_true ? brg : brg - heading), 1.0)
            << ebl_readout(0, m) << " for " << brg << " T, heading " << heading;
        const double vrm_nm = readout_number(vrm_readout(0, m), "VRM1 %lf");
        EXPECT_LT(std::abs(vrm_nm * kNm - range_m), 0.01 * scale_m) << vrm_readout(0, m);

        // The EBL drawn points at the target on the screen; the VRM's circle passes through it.
        render::WorldPoint a, b;
        ebl_segment(m, heading, scale_m, a, b);
        float ax = 0, ay = 0, bx = 0, by = 0;
        view.world_to_screen(a, ax, ay);
        view.world_to_screen(b, bx, by);
        const double line = std::atan2(double(bx - ax), double(ay - by)) / kDeg;
        const double target = std::atan2(double(tx - ax), double(ay - ty)) / kDeg;
        EXPECT_LT(angle_diff(line, target), 1.0);
        const double r_px = m.vrm_m * view.px_per_m();
        EXPECT_LT(std::abs(r_px - std::hypot(tx - ax, ty - ay)), 0.01 * view.radius_px());
        ++checked;
      }
  EXPECT_EQ(checked, int(kRangeScales.size()) * 3 * 12);
}

TEST(EblVrm, TrueAndRelativeReadoutsKeepTheLineWhereItIs) {
  Marker m;
  m.ebl_true = true;
  m.ebl_deg = 100;
  const double heading = 250;
  const double video = ebl_video_deg(m, heading);
  set_ebl_true(m, false, heading);
  EXPECT_FALSE(m.ebl_true);
  EXPECT_NEAR(m.ebl_deg, render::wrap360(100 - heading), 1e-9);
  EXPECT_NEAR(ebl_video_deg(m, heading), video, 1e-9);
  EXPECT_NE(ebl_readout(0, m).find(" R"), std::string::npos);
  // A true EBL stays on its true bearing while the ship turns; a relative one turns with it.
  set_ebl_true(m, true, heading);
  EXPECT_NEAR(ebl_true_deg(m, heading + 30), 100, 1e-9);
  set_ebl_true(m, false, heading);
  EXPECT_NEAR(ebl_true_deg(m, heading + 30), render::wrap360(130), 1e-9);
}

TEST(EblVrm, FloatingOriginMeasuresFromTheDroppedPoint) {
  const double heading = 40;
  Marker m;
  m.floating = true;
  m.origin = {1000, -500};  // metres east/north (true) of own ship
  // A target 2 NM true north-east of the origin.
  const double b = 45 * kDeg;
  const render::WorldPoint target_true{1000 + 2 * kNm * std::sin(b), -500 + 2 * kNm * std::cos(b)};
  aim_at(m, true_to_video(target_true, heading), heading);
  EXPECT_NEAR(ebl_true_deg(m, heading), 45, 1e-6);
  EXPECT_NEAR(m.vrm_m, 2 * kNm, 1e-6);
  EXPECT_NE(ebl_readout(1, m).find("FLOAT"), std::string::npos);
  const render::WorldPoint o = origin_video(m, heading);
  const render::WorldPoint back = video_to_true(o, heading);
  EXPECT_NEAR(back.east, 1000, 1e-9);
  EXPECT_NEAR(back.north, -500, 1e-9);
}

TEST(EblVrm, ErblReadsRangeAndTrueBearingBetweenItsEnds) {
  Erbl e{true, {0, 0}, {1852, 1852}};
  EXPECT_NEAR(erbl_range_m(e), std::sqrt(2.0) * 1852, 1e-9);
  EXPECT_NEAR(erbl_true_deg(e), 45, 1e-9);
  EXPECT_EQ(erbl_readout(e), "ERBL  1.414 NM  045.0 T");
}

TEST(RangeReadout, IsTheDisplayedRadius) {
  render::PpiView view;
  view.reset({0, 0, 1200, 900}, 12 * kNm);
  EXPECT_EQ(range_readout(view, ring_spacing_m(view.range_scale_m(), 0)),
            "RANGE 12 NM   RINGS 2 NM");
  // What was a x3 zoom is now a shorter scale, and the readout says so.
  view.set_range_scale(step_range_scale_m(view.range_scale_m(), -1));
  EXPECT_EQ(range_readout(view, ring_spacing_m(view.range_scale_m(), 0)),
            "RANGE 6 NM   RINGS 1 NM");
  // The readout's radius is where the range scale ends on the screen.
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  view.world_to_screen({0, 0}, x0, y0);
  view.world_to_screen({0, 6 * kNm}, x1, y1);
  EXPECT_NEAR(y0 - y1, view.radius_px(), 1e-3);
}
