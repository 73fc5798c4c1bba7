#pragma once
// The own ship's motion (course, speed, manoeuvres) as a function of time, and the scenario's
// relative targets resolved into straight tracks over ground. Times are seconds from the run's
// start (rotation n starts at n antenna periods); positions metres east and north of the scene
// origin.
#include <vector>

#include "app/sim/scenario.hpp"

namespace sweepline::sim {

struct OwnState {
  double t_s = 0;
  double x_m = 0, y_m = 0;
  double course_deg = 0;   // over ground, true, [0, 360)
  double speed_mps = 0;    // over ground
  double heading_deg = 0;  // true, [0, 360)
  double vx_mps() const;   // velocity over ground, east
  double vy_mps() const;   // and north
};

// Integrates the own ship's course and speed in steps of kStepS (split at every manoeuvre's
// start, so a manoeuvre begins exactly on time); a turn at a constant rate moves along its arc
// to within a micrometre per step. Keeps one state per kStepS it has passed, so a query costs
// at most one step whatever the time. Not thread-safe (the cache).
class OwnShipTrack {
 public:
  static constexpr double kStepS = 0.1;  // well under a radar scan; 45 deg/min turns 0.075 deg

  explicit OwnShipTrack(const OwnShipConfig& c);
  // The state at t_s >= 0; the origin, still, heading north when the own ship is disabled.
  OwnState at(double t_s);

 private:
  OwnState advance(OwnState s, double t_end) const;
  void step(OwnState& s, double h) const;

  OwnShipConfig c_;
  double heading_offset_deg_ = 0;  // heading - course, kept through turns
  std::vector<OwnState> samples_;  // at k * kStepS
};

// A relative target resolved: a straight track over ground at constant velocity.
struct GroundTarget {
  int id = 0;                 // truth id: after the random vessels
  double x0_m = 0, y0_m = 0;  // position at t = 0
  double vx_mps = 0, vy_mps = 0;
  double length_m = 0, strength = 0;
  double x_at(double t_s) const { return x0_m + vx_mps * t_s; }
  double y_at(double t_s) const { return y0_m + vy_mps * t_s; }
  double course_deg() const;  // [0, 360); 0 when still
  double speed_mps() const;
};
std::vector<GroundTarget> resolve_targets(const Scenario& s, OwnShipTrack& own);

// Closest point of approach of a target (position and velocity relative to own ship): the
// distance (m) and the time from now (s; negative once passed, 0 when there is no relative
// motion).
struct Cpa {
  double cpa_m = 0;
  double tcpa_s = 0;
};
Cpa closest_approach(double rel_x_m, double rel_y_m, double rel_vx_mps, double rel_vy_mps);

}  // namespace sweepline::sim
