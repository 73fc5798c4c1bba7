#pragma once
// Everything that defines a simulated radar scene: the radar, each part of the scene (each
// switchable), the producer style and the seed. Named scenarios fill it; `key=value` overrides
// (from sim:// URIs and `sweepline sim` options) adjust it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/sim/sensor_errors.hpp"

namespace sweepline::sim {

struct RadarConfig {
  double rpm = 24;
  int radials = 4096;    // per rotation
  int cells = 4096;      // range cells per radial
  double range_nm = 12;  // instrumented range
  int res_bits = 8;      // 1, 2, 4, 8, 16, 32
  bool compress = false;
  double beamwidth_deg = 1.2;  // two-way -3 dB azimuth beamwidth
  double pulse_m = 30;         // pulse length as range extent (c * tau / 2)
  uint8_t sac = 0;
  uint8_t sic = 1;

  double range_m() const { return range_nm * 1852.0; }
  double cell_m() const { return range_m() / cells; }
  double period_s() const { return 60.0 / rpm; }
  double radial_deg() const { return 360.0 / radials; }
};

struct NoiseConfig {  // receiver noise: Rayleigh amplitude
  bool enabled = true;
  double mean = 12;  // mean amplitude (8-bit levels)
};

struct ClutterConfig {  // sea clutter: K-distributed (gamma texture x Rayleigh speckle)
  bool enabled = true;
  double level = 80;           // mean amplitude at ref_range_m
  double ref_range_m = 1200;   // inside this range the level is flat (sensitivity time control)
  double falloff = 1.5;        // amplitude ~ (ref / r)^falloff beyond ref_range_m
  double shape = 0.8;          // K-distribution shape nu: smaller is spikier
  double wind_from_deg = 220;  // clutter is strongest looking into the wind
  double upwind_gain = 0.4;    // +/- fraction of the level between up- and downwind
};

struct RainConfig {  // extended weak echoes that drift with the wind
  bool enabled = true;
  int count = 3;
  double radius_min_m = 1500, radius_max_m = 4000;
  double level = 38;         // mean amplitude at a cell's centre
  double drift_mps = 8;      // drift speed
  double drift_to_deg = 60;  // drift direction
};

struct CoastConfig {  // static, strong, textured land returns
  bool enabled = true;
  double distance_m = 5000;  // from the radar to the mean coastline
  double bearing_deg = 40;   // direction of the land from the radar
  double level = 170;        // mean land return
  int islands = 3;
};

struct VesselConfig {
  int count = 50;
  double length_min_m = 12, length_max_m = 220;
  double speed_min_kn = 0, speed_max_kn = 22;
  double strength_min = 170, strength_max = 255;  // peak amplitude (8-bit levels)
  double turn_rate_max_dps = 3;                   // a vessel turns at up to this rate for a while
  bool separated = false;                         // place on a polar grid so no two echoes touch
  // Vessels keep this far off the land (plus half their length), as ships under way keep off a
  // lee shore: no hull overlaps a land echo.
  double land_clearance_m = 300;
  // Closest approach to the radar; < 0: min(800 m, 0.2 x the instrumented range).
  double range_min_m = -1;
};

// One change of the own ship's course and/or speed, from `at_s` seconds after the run's start.
struct Manoeuvre {
  double at_s = 0;
  std::optional<double> course_deg;  // turn to this course ...
  double turn_dpm = 0;               // ... at this rate (deg/min, > 0), the shorter way round
  std::optional<double> speed_kn;    // change to this speed ...
  double accel_kn_per_min = 0;       // ... at this rate (kn/min, > 0)
};

// The ship that carries the radar. Disabled (every scene before own-ship motion existed): the
// radar stays at the origin heading north, and no own-ship truth lines are written. Enabled: it
// starts at (x_m, y_m) and sails its course and speed, manoeuvres included; the video is then
// relative to its position and heading (azimuth 0 = the bow).
struct OwnShipConfig {
  bool enabled = false;
  double x_m = 0, y_m = 0;                // start, metres east and north of the scene origin
  double lat_deg = 50.0, lon_deg = -1.0;  // the scene origin on the earth (the English Channel)
  double course_deg = 0;                  // over ground, true
  double speed_kn = 0;                    // over ground
  std::optional<double> heading_deg;      // unset: the heading is the course (no drift)
  std::vector<Manoeuvre> manoeuvres;
};

// A target defined as an ARPA test scenario defines it: its range and true bearing from the own
// ship at time `at_s`, and its relative course and speed then. Its true velocity (own velocity at
// `at_s` plus the relative one) stays constant: it sails straight over ground whatever own ship
// does afterwards. Drawn at its position at the moment the beam passes it, with the sensor
// errors when they are on.
struct RelativeTarget {
  double range_m = 0, bearing_deg = 0;
  double rel_course_deg = 0, rel_speed_kn = 0;
  double at_s = 0;
  double length_m = 200;  // the standard's glint figures are for a 200 m target
  double strength = 230;  // peak amplitude (8-bit levels)
};

// How records are cut and packed on the wire, after real producers (data/README.md).
enum class Style {
  NextAz,       // END_AZ = next radial's START_AZ, one record per block (research testbed)
  ZeroWidth,    // START_AZ == END_AZ, femto header, no Time of Day (naval test pattern)
  MultiRecord,  // several records per data block, one block per datagram
  Split1400,    // radials split over messages with different START_RG in <= 1400-byte packets
};
const char* to_string(Style s);
Style parse_style(const std::string& name);  // throws sweepline::Error
std::vector<std::string> style_names();

// The IMO scenarios define the target where it is when the tracker's prediction is made "after
// previously tracking for the appropriate time of 1 or 3 min" (A.823(19) Annex 2): by default
// the 3-minute point, so a run tracks from its start and predicts at the defined geometry
// (`sweepline eval` runs each seed again defined at 60 s for the 1-minute figures).
inline constexpr double kImoPredictionS = 180;

struct Scenario {
  std::string name = "harbour";
  uint64_t seed = 1;
  RadarConfig radar;
  NoiseConfig noise;
  ClutterConfig clutter;
  RainConfig rain;
  CoastConfig coast;
  VesselConfig vessels;
  OwnShipConfig own;
  std::vector<RelativeTarget> targets;  // after the random vessels (ids count, count + 1, ...)
  SensorErrors errors;                  // applied to `targets` and to the own ship's NMEA
  Style style = Style::NextAz;
  uint64_t rotations = 0;  // sim:// sources: rotations before the end (or the loop); 0 = endless
};

// harbour (default), vessels50, vessels1869, open-sea, stress, imo1..imo4 (the IMO ARPA test
// scenarios, docs/simulator.md). Throws sweepline::Error on an unknown name.
Scenario make_scenario(const std::string& name);
std::vector<std::string> scenario_names();

// Applies one override: seed, rpm, radials, cells, range_nm, res, compress, beamwidth, pulse_m,
// style, vessels, separated, noise, clutter, clutter_shape, rain, coast, sac, sic, rotations,
// own_x, own_y, own_lat, own_lon, own_course, own_speed, own_heading, own_turn, own_accel,
// target, target_at, sensor_errors (see docs/simulator.md). Throws sweepline::Error on an unknown
// key or a value out of range.
void apply_param(Scenario& s, const std::string& key, const std::string& value);
// Checks the whole scenario; throws sweepline::Error naming the bad parameter.
void validate(const Scenario& s);

// Parses `sim://NAME?key=value&...` into a scenario (name, then overrides, then validate).
// Throws sweepline::Error with a user-fit message when malformed.
Scenario parse_sim_uri(const std::string& uri);

}  // namespace sweepline::sim
