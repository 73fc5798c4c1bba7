#pragma once
// Automatic acquisition zones: an arc around own ship or a polygon on the ground plane.
#include <vector>

namespace sweepline::track {

struct ZonePoint {
  double x_m = 0.0, y_m = 0.0;
};

struct AcquisitionZone {
  enum class Kind { Arc, Polygon };
  Kind kind = Kind::Arc;
  // Arc: range_min_m <= range <= range_max_m from own ship, bearing clockwise from
  // bearing_from_deg to bearing_to_deg (may wrap through north; equal = full circle). Bearings
  // are true, or relative to own ship's heading when relative_to_heading.
  double range_min_m = 0.0, range_max_m = 0.0;
  double bearing_from_deg = 0.0, bearing_to_deg = 0.0;
  bool relative_to_heading = false;
  // Polygon: vertices in ground coordinates, any winding, at least 3 (not self-intersecting).
  std::vector<ZonePoint> polygon;
};

// Own ship as the zones see it: position and heading at the time of the test.
struct ZoneOrigin {
  double x_m = 0.0, y_m = 0.0, heading_deg = 0.0;
};

bool zone_contains(const AcquisitionZone& z, const ZoneOrigin& own, double x_m, double y_m);
// Throws sweepline::Error when the zone is malformed (ranges, polygon size, non-finite values).
void validate(const AcquisitionZone& z);

}  // namespace sweepline::track
