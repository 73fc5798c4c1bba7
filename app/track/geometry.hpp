#pragma once
// Angle helpers shared by the tracker's files (internal).
#include <cmath>
#include <numbers>

namespace sweepline::track {

constexpr double kDeg = std::numbers::pi / 180.0;

inline double wrap360(double deg) {
  // Most angles are within a turn of the range: avoid fmod for them (hot in the scan loop).
  if (deg >= 0.0 && deg < 360.0) return deg;
  if (deg >= 360.0 && deg < 720.0) return deg - 360.0;
  if (deg < 0.0 && deg >= -360.0) {
    const double d = deg + 360.0;
    return d >= 360.0 ? 0.0 : d;
  }
  double d = std::fmod(deg, 360.0);
  if (d < 0.0) d += 360.0;
  return d >= 360.0 ? 0.0 : d;
}

// Signed difference a - b in (-180, 180].
inline double wrap180(double deg) {
  double d = wrap360(deg);
  return d > 180.0 ? d - 360.0 : d;
}

// True bearing (clockwise from north) of the vector (dx east, dy north), in [0, 360).
inline double bearing_deg(double dx, double dy) {
  return wrap360(std::atan2(dx, dy) / kDeg);
}

// Clockwise distance from a to b, in [0, 360).
inline double cw_deg(double a, double b) {
  return wrap360(b - a);
}

// Whether bearing b lies in the clockwise sector [from, to); from == to is the full circle.
inline bool in_sector(double b, double from, double to) {
  const double width = cw_deg(from, to);
  if (width == 0.0) return true;
  return cw_deg(from, b) < width;
}

}  // namespace sweepline::track
