#include "render/orientation.hpp"

#include <cmath>

#include "app/common/check.hpp"

namespace sweepline::render {

const char* to_string(Orientation o) {
  switch (o) {
    case Orientation::NorthUp:
      return "north-up";
    case Orientation::HeadUp:
      return "head-up";
    case Orientation::CourseUp:
      return "course-up";
  }
  return "head-up";
}

const char* to_string(Motion m) {
  return m == Motion::True ? "true" : "relative";
}

Orientation orientation_from_string(const std::string& s) {
  for (Orientation o : {Orientation::NorthUp, Orientation::HeadUp, Orientation::CourseUp})
    if (s == to_string(o)) return o;
  SWL_CHECK(false, "unknown orientation '" + s + "' (north-up, head-up, course-up)");
  return Orientation::HeadUp;
}

Motion motion_from_string(const std::string& s) {
  if (s == "relative") return Motion::Relative;
  SWL_CHECK(s == "true", "unknown motion '" + s + "' (relative, true)");
  return Motion::True;
}

const char* short_name(Orientation o) {
  switch (o) {
    case Orientation::NorthUp:
      return "N UP";
    case Orientation::HeadUp:
      return "H UP";
    case Orientation::CourseUp:
      return "C UP";
  }
  return "H UP";
}

const char* short_name(Motion m) {
  return m == Motion::True ? "TM" : "RM";
}

double wrap360(double deg) {
  const double d = std::fmod(deg, 360.0);
  return d < 0 ? d + 360.0 : d;
}

double picture_rotation_deg(Orientation o, double heading_deg, double course_up_deg) {
  switch (o) {
    case Orientation::NorthUp:
      return wrap360(heading_deg);
    case Orientation::HeadUp:
      return 0.0;
    case Orientation::CourseUp:
      return wrap360(heading_deg - course_up_deg);
  }
  return 0.0;
}

bool scale_is_true(Orientation o) {
  return o != Orientation::HeadUp;
}

double scale_bearing_at(Orientation o, double screen_deg, double heading_deg,
                        double course_up_deg) {
  const double rotation = picture_rotation_deg(o, heading_deg, course_up_deg);
  const double relative = screen_deg - rotation;
  return wrap360(scale_is_true(o) ? relative + heading_deg : relative);
}

}  // namespace sweepline::render

namespace sweepline::render {

void true_motion_offset(double start_x, double start_y, double moved_east_m, double moved_north_m,
                        double rotation_deg, double heading_deg, double range_m, double& x,
                        double& y) {
  // A true bearing t shows at t - heading + rotation on the screen.
  const double a = (rotation_deg - heading_deg) * 3.14159265358979323846 / 180.0;
  const double c = std::cos(a), s = std::sin(a);
  const double u = moved_east_m * c + moved_north_m * s, v = moved_north_m * c - moved_east_m * s;
  const double r = range_m > 0 ? range_m : 1.0;
  x = start_x + u / r;
  y = start_y + v / r;
}

}  // namespace sweepline::render
