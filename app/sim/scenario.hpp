#pragma once
// Everything that defines a simulated radar scene: the radar, each part of the scene (each
// switchable), the producer style and the seed. Named scenarios fill it; `key=value` overrides
// (from sim:// URIs and `sweepline sim` options) adjust it.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

struct Scenario {
  std::string name = "harbour";
  uint64_t seed = 1;
  RadarConfig radar;
  NoiseConfig noise;
  ClutterConfig clutter;
  RainConfig rain;
  CoastConfig coast;
  VesselConfig vessels;
  Style style = Style::NextAz;
  uint64_t rotations = 0;  // sim:// sources: rotations before the end (or the loop); 0 = endless
};

// harbour (default), vessels50, vessels1869, open-sea, stress. Throws sweepline::Error on an
// unknown name.
Scenario make_scenario(const std::string& name);
std::vector<std::string> scenario_names();

// Applies one override: seed, rpm, radials, cells, range_nm, res, compress, beamwidth, pulse_m,
// style, vessels, separated, noise, clutter, clutter_shape, rain, coast, sac, sic, rotations (see
// docs/simulator.md). Throws sweepline::Error on an unknown key or a value out of range.
void apply_param(Scenario& s, const std::string& key, const std::string& value);
// Checks the whole scenario; throws sweepline::Error naming the bad parameter.
void validate(const Scenario& s);

// Parses `sim://NAME?key=value&...` into a scenario (name, then overrides, then validate).
// Throws sweepline::Error with a user-fit message when malformed.
Scenario parse_sim_uri(const std::string& uri);

}  // namespace sweepline::sim
