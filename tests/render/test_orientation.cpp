// The picture's orientation and motion (render/orientation.hpp) and the view transform that
// carries them (render/ppi_view.hpp): screen <-> world round trips in every orientation, where
// north, the bow and the course show, off-centre and true motion. No GL.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "render/orientation.hpp"
#include "render/ppi_view.hpp"

using namespace sweepline::render;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

// The screen bearing (0 up, clockwise) of the screen vector from a to b.
double screen_bearing_between(float ax, float ay, float bx, float by) {
  return wrap360(std::atan2(double(bx - ax), double(ay - by)) / kDeg);
}

double angle_diff(double a, double b) {
  return std::abs(std::remainder(a - b, 360.0));
}

// A video (world) direction for a relative bearing.
WorldPoint dir(double relative_deg, double len = 1000) {
  return {len * std::sin(relative_deg * kDeg), len * std::cos(relative_deg * kDeg)};
}

const Orientation kAll[] = {Orientation::NorthUp, Orientation::HeadUp, Orientation::CourseUp};

}  // namespace

TEST(Orientation, NamesRoundTrip) {
  for (Orientation o : kAll) EXPECT_EQ(orientation_from_string(to_string(o)), o);
  EXPECT_EQ(motion_from_string("true"), Motion::True);
  EXPECT_EQ(motion_from_string("relative"), Motion::Relative);
  EXPECT_ANY_THROW(orientation_from_string("east-up"));
  EXPECT_ANY_THROW(motion_from_string("fast"));
}

TEST(Orientation, NorthHeadAndCourseGoUp) {
  // Screen points are floats: a bearing between two of them is good to about 1e-5 degrees.
  constexpr double kTolDeg = 1e-3;
  const double heading = 70, course = 55;  // own ship heading 070, course-up chosen at 055
  for (Orientation o : kAll) {
    PpiView v;
    v.set_rotation_deg(picture_rotation_deg(o, heading, course));
    v.reset({0, 0, 900, 700}, 5000);
    float ox = 0, oy = 0, x = 0, y = 0;
    v.world_to_screen({0, 0}, ox, oy);
    // True north is relative bearing -heading in the video.
    v.world_to_screen(dir(-heading), x, y);
    const double north_on_screen = screen_bearing_between(ox, oy, x, y);
    v.world_to_screen(dir(0), x, y);
    const double bow_on_screen = screen_bearing_between(ox, oy, x, y);
    v.world_to_screen(dir(course - heading), x, y);
    const double course_on_screen = screen_bearing_between(ox, oy, x, y);
    switch (o) {
      case Orientation::NorthUp:
        EXPECT_LT(angle_diff(north_on_screen, 0), kTolDeg);
        EXPECT_LT(angle_diff(bow_on_screen, heading), kTolDeg);
        break;
      case Orientation::HeadUp:
        EXPECT_LT(angle_diff(bow_on_screen, 0), kTolDeg);
        EXPECT_LT(angle_diff(north_on_screen, 360 - heading), kTolDeg);
        break;
      case Orientation::CourseUp:
        EXPECT_LT(angle_diff(course_on_screen, 0), kTolDeg);
        break;
    }
    // The bearing scale reads, where the bow shows, the heading (true) or 000 (relative).
    const double at_bow = scale_bearing_at(o, bow_on_screen, heading, course);
    EXPECT_LT(angle_diff(at_bow, scale_is_true(o) ? heading : 0), kTolDeg) << to_string(o);
    EXPECT_NEAR(v.screen_bearing(0), bow_on_screen, kTolDeg);
    EXPECT_NEAR(v.world_bearing(v.screen_bearing(123.4)), 123.4, 1e-9);
  }
}

TEST(Orientation, ScreenWorldRoundTripInEveryModeAndOffCentre) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (Orientation o : kAll)
    for (bool off : {false, true})
      for (int k = 0; k < 50; ++k) {
        PpiView v;
        v.set_rotation_deg(picture_rotation_deg(o, 360 * u(rng), 360 * u(rng)));
        v.reset({float(100 * u(rng)), float(50 * u(rng)), 1200, 900}, 200 + 40000 * u(rng), off,
                360 * u(rng));
        v.pan(float(100 * u(rng) - 50), float(100 * u(rng) - 50));
        const float sx = float(1200 * u(rng)), sy = float(900 * u(rng));
        const WorldPoint w = v.screen_to_world(sx, sy);
        float bx = 0, by = 0;
        v.world_to_screen(w, bx, by);
        EXPECT_NEAR(bx, sx, 1e-3);
        EXPECT_NEAR(by, sy, 1e-3);
        // The shader's affine map agrees with the view.
        WorldPoint a, dx, dy;
        v.screen_to_world_affine(a, dx, dy);
        EXPECT_NEAR(a.east + sx * dx.east + sy * dy.east, w.east, 1e-6 * v.range_scale_m());
        EXPECT_NEAR(a.north + sx * dx.north + sy * dy.north, w.north, 1e-6 * v.range_scale_m());
        // Distances are kept: the rotation turns, never stretches.
        float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
        v.world_to_screen({0, 0}, x1, y1);
        v.world_to_screen(dir(77, v.range_scale_m()), x2, y2);
        EXPECT_NEAR(std::hypot(x2 - x1, y2 - y1), v.radius_px(), 1e-2);
      }
}

TEST(Orientation, OffCentreKeepsTheRadarOnTheScreenAcrossRangeScales) {
  PpiView v;
  v.reset({0, 0, 1000, 800}, 12 * 1852.0, true, 90);  // looking right (east on the screen)
  float x0 = 0, y0 = 0;
  v.world_to_screen({0, 0}, x0, y0);
  // The radar is kOffCentreFraction of the radius left of the centre (IMO: 50 % to 75 %).
  EXPECT_NEAR(x0, 500 - kOffCentreFraction * v.radius_px(), 1e-3);
  EXPECT_NEAR(y0, 400, 1e-3);
  EXPECT_GE(kOffCentreFraction, 0.5);
  EXPECT_LE(kOffCentreFraction, 0.75);
  v.set_range_scale(3 * 1852.0);
  float x1 = 0, y1 = 0;
  v.world_to_screen({0, 0}, x1, y1);
  EXPECT_NEAR(x1, x0, 1e-3);
  EXPECT_NEAR(y1, y0, 1e-3);
  // Panning never loses the radar: it stays within kMaxRadarOffset radii of the centre.
  v.pan(1e6f, 0);
  EXPECT_NEAR(std::hypot(v.radar_offset_x(), v.radar_offset_y()), kMaxRadarOffset, 1e-9);
}

TEST(Orientation, TrueMotionMovesTheRadarAlongTheCourseOnTheScreen) {
  // Own ship heads 030, makes good 040 for 1 NM on a 6 NM scale.
  const double heading = 30, course = 40, range = 6 * 1852.0, d = 1852.0;
  for (Orientation o : kAll) {
    const double rot = picture_rotation_deg(o, heading, course);
    double x = 0, y = 0;
    true_motion_offset(0.1, -0.2, d * std::sin(course * kDeg), d * std::cos(course * kDeg), rot,
                       heading, range, x, y);
    // Moved 1/6 of the radius along the course's screen bearing (course - heading + rotation).
    const double sb = (course - heading + rot) * kDeg;
    EXPECT_NEAR(x, 0.1 + std::sin(sb) / 6, 1e-9) << to_string(o);
    EXPECT_NEAR(y, -0.2 + std::cos(sb) / 6, 1e-9) << to_string(o);
  }
}
