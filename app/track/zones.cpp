#include "app/track/zones.hpp"

#include <cmath>
#include <string>

#include "app/common/check.hpp"
#include "app/track/geometry.hpp"

namespace sweepline::track {

namespace {

bool in_polygon(const std::vector<ZonePoint>& poly, double x, double y) {
  // Even-odd ray casting: any winding, holes by self-overlap are not supported (validate).
  bool inside = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const ZonePoint& a = poly[i];
    const ZonePoint& b = poly[j];
    if ((a.y_m > y) != (b.y_m > y)) {
      const double xc = a.x_m + (y - a.y_m) * (b.x_m - a.x_m) / (b.y_m - a.y_m);
      if (x < xc) inside = !inside;
    }
  }
  return inside;
}

}  // namespace

bool zone_contains(const AcquisitionZone& z, const ZoneOrigin& own, double x_m, double y_m) {
  if (z.kind == AcquisitionZone::Kind::Polygon) return in_polygon(z.polygon, x_m, y_m);
  const double dx = x_m - own.x_m, dy = y_m - own.y_m;
  const double r = std::hypot(dx, dy);
  if (r < z.range_min_m || r > z.range_max_m) return false;
  double b = bearing_deg(dx, dy);
  if (z.relative_to_heading) b = wrap360(b - own.heading_deg);
  return in_sector(b, z.bearing_from_deg, z.bearing_to_deg);
}

void validate(const AcquisitionZone& z) {
  if (z.kind == AcquisitionZone::Kind::Polygon) {
    SWL_CHECK(z.polygon.size() >= 3, "acquisition zone: polygon needs at least 3 vertices, got " +
                                         std::to_string(z.polygon.size()));
    for (const ZonePoint& p : z.polygon)
      SWL_CHECK(std::isfinite(p.x_m) && std::isfinite(p.y_m),
                "acquisition zone: polygon vertex not finite");
    return;
  }
  SWL_CHECK(std::isfinite(z.range_min_m) && z.range_min_m >= 0.0,
            "acquisition zone: range_min_m must be >= 0");
  SWL_CHECK(std::isfinite(z.range_max_m) && z.range_max_m > z.range_min_m,
            "acquisition zone: range_max_m must be > range_min_m");
  SWL_CHECK(std::isfinite(z.bearing_from_deg) && std::isfinite(z.bearing_to_deg),
            "acquisition zone: bearings must be finite");
}

}  // namespace sweepline::track
