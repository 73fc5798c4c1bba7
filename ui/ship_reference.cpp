#include "ui/ship_reference.hpp"

#include <cmath>

namespace sweepline::ui {

ShipReference ship_reference(const engine::TrackingView& v, double manual_heading_deg) {
  ShipReference r;
  const nav::OwnShipState& o = v.own_ship;
  r.heading_deg = manual_heading_deg;
  if (o.heading_valid || (o.valid && o.heading_from_cog)) {
    r.heading_deg = o.heading_deg;
    r.heading_measured = true;
  }
  r.course_deg = r.heading_deg;
  if (o.valid) {
    r.course_deg = o.course_deg;
    r.course_valid = true;
    // The plane's grid north is true north turned by the convergence at own ship; over the
    // distances a picture spans the difference is that one rotation.
    const double g = -o.true_to_grid_deg * 3.14159265358979323846 / 180.0;
    const double c = std::cos(g), s = std::sin(g);
    r.east_m = o.x_m * c + o.y_m * s;
    r.north_m = o.y_m * c - o.x_m * s;
    r.position_valid = true;
  }
  return r;
}

}  // namespace sweepline::ui
