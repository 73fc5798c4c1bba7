#pragma once
// Closest point of approach between own ship and a target, both moving in straight lines.
namespace sweepline::track {

struct Cpa {
  double cpa_m = 0.0;   // distance at the closest point
  double tcpa_s = 0.0;  // time to it from now; negative when it is in the past
  bool moving = true;   // false: relative speed below min_rel_speed, cpa = range, tcpa = 0
};

// Positions in metres and velocities in m/s in one plane (x east, y north).
Cpa compute_cpa(double own_x, double own_y, double own_vx, double own_vy, double tgt_x,
                double tgt_y, double tgt_vx, double tgt_vy, double min_rel_speed_mps = 0.01);

}  // namespace sweepline::track
