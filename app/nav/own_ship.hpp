#pragma once
// Own ship from navigation sentences: position in the local plane (geodesy.hpp), course and
// speed over ground, heading. state(t) extrapolates the last fix along its course and speed for
// at most a few seconds; when the feed is missing, stale or flags no fix, the state is not valid
// and says why, and the tracker keeps its tracks relative to the radar.
//
// Time: every update carries the time it arrived on the consumer's clock (the clock that stamps
// the radar video, so that own ship and video line up). A position repeated by several
// sentences of one epoch (RMC and GGA with the same UTC time) keeps the first arrival time.
#include <optional>
#include <string>

#include "app/nav/geodesy.hpp"
#include "app/nav/nmea_parser.hpp"

namespace sweepline::nav {

struct OwnShipConfig {
  // A position, course/speed or heading older than this is stale; a GNSS receiver sends at
  // 1 Hz or faster, so 5 s is several missed fixes in a row.
  double stale_after_s = 5.0;
  // The furthest the position is carried forward from the last fix (a few updates' worth).
  double max_extrapolation_s = 5.0;
  // The local plane's origin; unset: the first valid fix.
  std::optional<LatLon> origin;
};

struct OwnShipState {
  bool valid = false;                   // position, course and speed usable
  bool heading_valid = false;           // heading from a heading sensor (HDT/THS), not stale
  bool heading_from_cog = false;        // no heading sensor: heading_deg is the course over ground
  double time_s = 0.0;                  // the time asked for
  double x_m = 0.0, y_m = 0.0;          // local plane (east, north), extrapolated to time_s
  double course_deg = 0.0;              // true course over ground
  double speed_mps = 0.0;               // speed over ground
  double heading_deg = 0.0;             // true heading
  double lat_deg = 0.0, lon_deg = 0.0;  // of x_m, y_m
  // A true bearing measured at own ship plus this is its bearing in the local plane (the
  // meridians converge away from the origin; see geodesy.hpp).
  double true_to_grid_deg = 0.0;
  double vx_mps = 0.0, vy_mps = 0.0;  // velocity over ground in the local plane
  double fix_age_s = 0.0;             // time_s minus the last fix's time (-1: none yet)
  std::string warning;                // empty when all is well; reasons joined by "; "
};

class OwnShipEstimator {
 public:
  explicit OwnShipEstimator(const OwnShipConfig& config = {});

  // A sentence accepted by the parser, arriving at arrival_s.
  void update(const NmeaSentence& s, double arrival_s);
  OwnShipState state(double t_s) const;

  // Sets (or moves) the local plane's origin. Positions already held are kept in lat/lon.
  void set_origin(double lat_deg, double lon_deg);
  const LocalTangentPlane* plane() const { return plane_ ? &*plane_ : nullptr; }
  const OwnShipConfig& config() const { return config_; }

 private:
  OwnShipConfig config_;
  std::optional<LocalTangentPlane> plane_;
  // The latest position report: a fix, or a report of no fix.
  bool have_fix_ = false;
  double fix_time_s_ = 0.0;
  double lat_deg_ = 0.0, lon_deg_ = 0.0;
  std::optional<double> fix_utc_s_;  // the UTC time of day of the fix, for repeats
  bool no_fix_reported_ = false;     // the latest position sentence flagged no fix
  double no_fix_time_s_ = 0.0;
  // Course and speed over ground.
  bool have_motion_ = false;
  double motion_time_s_ = 0.0;
  double sog_kn_ = 0.0, cog_deg_ = 0.0;
  // Heading sensor.
  bool have_heading_ = false;
  double heading_time_s_ = 0.0;
  double heading_deg_ = 0.0;
  bool heading_invalid_reported_ = false;
};

}  // namespace sweepline::nav
