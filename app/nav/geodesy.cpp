#include "app/nav/geodesy.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "app/common/check.hpp"

namespace sweepline::nav {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
// Latitude iterations from earth-centred coordinates: each gains about 3 orders of magnitude
// near the surface, so 4 reach well below a micrometre.
constexpr int kGeodeticIterations = 4;

struct Ecef {
  double x, y, z;
};

Ecef to_ecef(double lat_deg, double lon_deg) {
  const double sl = std::sin(lat_deg * kDeg), cl = std::cos(lat_deg * kDeg);
  const double n = kWgs84A / std::sqrt(1 - kWgs84E2 * sl * sl);
  return {n * cl * std::cos(lon_deg * kDeg), n * cl * std::sin(lon_deg * kDeg),
          n * (1 - kWgs84E2) * sl};
}

LatLon from_ecef(const Ecef& p) {
  const double lon = std::atan2(p.y, p.x);
  const double r = std::hypot(p.x, p.y);
  double lat = std::atan2(p.z, r * (1 - kWgs84E2));
  for (int i = 0; i < kGeodeticIterations; ++i) {
    const double s = std::sin(lat), c = std::cos(lat);
    const double n = kWgs84A / std::sqrt(1 - kWgs84E2 * s * s);
    // The height from whichever of r and z is better conditioned at this latitude.
    const double h = std::fabs(c) > 0.5 ? r / c - n : p.z / s - n * (1 - kWgs84E2);
    lat = std::atan2(p.z, r * (1 - kWgs84E2 * n / (n + h)));
  }
  return {lat / kDeg, lon / kDeg};
}

}  // namespace

double meridional_radius_m(double lat_deg) {
  const double s = std::sin(lat_deg * kDeg);
  const double w = 1 - kWgs84E2 * s * s;
  return kWgs84A * (1 - kWgs84E2) / (w * std::sqrt(w));
}

double prime_vertical_radius_m(double lat_deg) {
  const double s = std::sin(lat_deg * kDeg);
  return kWgs84A / std::sqrt(1 - kWgs84E2 * s * s);
}

LocalTangentPlane::LocalTangentPlane(double origin_lat_deg, double origin_lon_deg)
    : lat0_deg_(origin_lat_deg), lon0_deg_(origin_lon_deg) {
  SWL_CHECK(
      std::isfinite(origin_lat_deg) && std::fabs(origin_lat_deg) <= 89.9,
      "geodesy: origin latitude " + std::to_string(origin_lat_deg) + " is outside -89.9..89.9");
  SWL_CHECK(std::isfinite(origin_lon_deg), "geodesy: origin longitude is not a number");
  sin_lat0_ = std::sin(lat0_deg_ * kDeg);
  cos_lat0_ = std::cos(lat0_deg_ * kDeg);
  sin_lon0_ = std::sin(lon0_deg_ * kDeg);
  cos_lon0_ = std::cos(lon0_deg_ * kDeg);
  m0_ = meridional_radius_m(lat0_deg_);
  n0_ = prime_vertical_radius_m(lat0_deg_);
  const Ecef o = to_ecef(lat0_deg_, lon0_deg_);
  ox_ = o.x;
  oy_ = o.y;
  oz_ = o.z;
}

double LocalTangentPlane::radius_in_azimuth(double sin_az, double cos_az) const {
  return 1.0 / (cos_az * cos_az / m0_ + sin_az * sin_az / n0_);
}

LocalXY LocalTangentPlane::to_local(double lat_deg, double lon_deg) const {
  const Ecef p = to_ecef(lat_deg, lon_deg);
  const double dx = p.x - ox_, dy = p.y - oy_, dz = p.z - oz_;
  const double e = -sin_lon0_ * dx + cos_lon0_ * dy;
  const double n = -sin_lat0_ * cos_lon0_ * dx - sin_lat0_ * sin_lon0_ * dy + cos_lat0_ * dz;
  const double u = cos_lat0_ * cos_lon0_ * dx + cos_lat0_ * sin_lon0_ * dy + sin_lat0_ * dz;
  const double horiz = std::hypot(e, n);
  if (horiz == 0.0) return {0.0, 0.0};
  const double sa = e / horiz, ca = n / horiz;
  const double r = radius_in_azimuth(sa, ca);
  const double chord = std::sqrt(horiz * horiz + u * u);
  const double d = 2 * r * std::asin(std::min(1.0, chord / (2 * r)));
  return {d * sa, d * ca};
}

LatLon LocalTangentPlane::to_geodetic(double x_m, double y_m) const {
  const double d = std::hypot(x_m, y_m);
  double e = 0, n = 0, u = 0;
  if (d > 0) {
    const double sa = x_m / d, ca = y_m / d;
    const double r = radius_in_azimuth(sa, ca);
    // The arc d on a circle of radius r: its chord dips below the horizontal by d / (2 r).
    const double half = d / (2 * r);
    const double chord = 2 * r * std::sin(half);
    const double horiz = chord * std::cos(half);
    e = horiz * sa;
    n = horiz * ca;
    u = -chord * std::sin(half);
  }
  const Ecef p{ox_ - sin_lon0_ * e - sin_lat0_ * cos_lon0_ * n + cos_lat0_ * cos_lon0_ * u,
               oy_ + cos_lon0_ * e - sin_lat0_ * sin_lon0_ * n + cos_lat0_ * sin_lon0_ * u,
               oz_ + cos_lat0_ * n + sin_lat0_ * u};
  LatLon g = from_ecef(p);
  if (g.lon_deg <= -180.0) g.lon_deg += 360.0;
  return g;
}

double LocalTangentPlane::true_to_grid_deg(double lat_deg, double lon_deg) const {
  // A step of 1e-4 deg (11 m) north: the finite difference is exact to far below 1e-6 deg.
  constexpr double kStepDeg = 1e-4;
  const double step = lat_deg + kStepDeg <= 90.0 ? kStepDeg : -kStepDeg;
  const LocalXY a = to_local(lat_deg, lon_deg);
  const LocalXY b = to_local(lat_deg + step, lon_deg);
  const double dx = (b.x_m - a.x_m) * (step > 0 ? 1 : -1);
  const double dy = (b.y_m - a.y_m) * (step > 0 ? 1 : -1);
  return std::atan2(dx, dy) / kDeg;
}

}  // namespace sweepline::nav
