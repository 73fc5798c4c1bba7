#pragma once
// A local plane about an origin on the WGS-84 ellipsoid, in which the tracker works (x east,
// y north, metres). The mapping is the azimuthal equidistant one about the origin, to well
// under a millimetre within 50 km: a point's distance and bearing from the origin in the plane
// are its distance along the ellipsoid's normal section and its true bearing from the origin.
// It is computed through the exact east-north-up frame at the origin, the chord bent onto the
// arc with the radius of curvature in its azimuth (Euler), so no series needs tuning.
//
// Away from the origin, grid north in the plane turns from true north (the meridians converge):
// true_to_grid_deg() gives the angle to add to a true bearing measured at a point (a radar
// bearing, a heading) to get its bearing in the plane; 0.47 deg at 30 km east of the origin at
// 60 deg latitude, so a tracker whose own ship sails far from the origin must apply it.
namespace sweepline::nav {

inline constexpr double kWgs84A = 6378137.0;                 // semi-major axis, m
inline constexpr double kWgs84F = 1.0 / 298.257223563;       // flattening
inline constexpr double kWgs84E2 = kWgs84F * (2 - kWgs84F);  // first eccentricity squared

// Radii of curvature at a geodetic latitude: in the meridian (M) and in the prime vertical (N).
double meridional_radius_m(double lat_deg);
double prime_vertical_radius_m(double lat_deg);

struct LocalXY {
  double x_m = 0.0;  // east
  double y_m = 0.0;  // north
};

struct LatLon {
  double lat_deg = 0.0;
  double lon_deg = 0.0;  // (-180, 180]
};

class LocalTangentPlane {
 public:
  // The origin's latitude must lie within +-89.9 deg (the east axis is undefined at a pole);
  // throws sweepline::Error otherwise.
  LocalTangentPlane(double origin_lat_deg, double origin_lon_deg);

  LocalXY to_local(double lat_deg, double lon_deg) const;
  LatLon to_geodetic(double x_m, double y_m) const;
  // Grid bearing of true north at (lat, lon), clockwise from the plane's +y axis: a true bearing
  // measured there plus this is the bearing in the plane. 0 at the origin.
  double true_to_grid_deg(double lat_deg, double lon_deg) const;

  double origin_lat_deg() const { return lat0_deg_; }
  double origin_lon_deg() const { return lon0_deg_; }

 private:
  double radius_in_azimuth(double sin_az, double cos_az) const;

  double lat0_deg_, lon0_deg_;
  double sin_lat0_, cos_lat0_, sin_lon0_, cos_lon0_;
  double m0_, n0_;       // radii of curvature at the origin
  double ox_, oy_, oz_;  // the origin in earth-centred earth-fixed coordinates
};

}  // namespace sweepline::nav
