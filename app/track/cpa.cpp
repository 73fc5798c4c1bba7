#include "app/track/cpa.hpp"

#include <cmath>

namespace sweepline::track {

Cpa compute_cpa(double own_x, double own_y, double own_vx, double own_vy, double tgt_x,
                double tgt_y, double tgt_vx, double tgt_vy, double min_rel_speed_mps) {
  const double dx = tgt_x - own_x, dy = tgt_y - own_y;
  const double dvx = tgt_vx - own_vx, dvy = tgt_vy - own_vy;
  const double v2 = dvx * dvx + dvy * dvy;
  Cpa c;
  if (v2 < min_rel_speed_mps * min_rel_speed_mps) {
    c.cpa_m = std::hypot(dx, dy);
    c.tcpa_s = 0.0;
    c.moving = false;
    return c;
  }
  c.tcpa_s = -(dx * dvx + dy * dvy) / v2;
  c.cpa_m = std::hypot(dx + dvx * c.tcpa_s, dy + dvy * c.tcpa_s);
  return c;
}

}  // namespace sweepline::track
