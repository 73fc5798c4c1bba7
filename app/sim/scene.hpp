#pragma once
// The simulated radar scene: own radar at the centre, receiver noise, sea clutter, rain, land and
// vessels. The scene's state is frozen during a rotation and moves between rotations; any part of
// a rotation can be rendered on its own (the cells depend only on seed, rotation and radial), so
// a paced source renders a few radials at a time and gets the same bytes as a whole-rotation
// render.
//
// With a moving own ship (Scenario::own) the radar is where the own ship is at the rotation's
// start, and the video's azimuth is relative to its heading then (azimuth 0 = the bow), as a
// real radar's is; vessels, rain and land are ground-fixed and seen from there. The scenario's
// relative targets are the exception: each is drawn where the radar measures it at the moment
// the beam passes it (imo_plots.hpp, observe_target), sensor errors included.
#include <cstdint>
#include <string>
#include <vector>

#include "app/sim/land_map.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/rng.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::sim {

struct VesselTruth {
  uint64_t rotation = 0;
  int id = 0;
  double range_m = 0, bearing_deg = 0;  // from the radar; true bearing, clockwise from north
  double x_m = 0, y_m = 0;              // east, north of the scene origin
  double length_m = 0, heading_deg = 0;
  double speed_mps = 0;
  // Signal-to-clutter ratio: the echo's peak amplitude (as rendered at the beam and pulse peak)
  // over the mean amplitude of noise, sea clutter and rain where the vessel is, in dB. It says
  // how detectable the vessel is on this rotation ("detectable" = SCR >= 10 dB in the scorecard).
  double scr_db = 0;
};
// One JSON line (no newline) with rotation, id, range_m, bearing_deg, x_m, y_m, length_m,
// heading_deg, speed_mps, scr_db.
std::string truth_json(const VesselTruth& t);

// The own ship during a rotation (its state at the rotation's start), and where that is on the
// earth.
struct OwnTruth {
  uint64_t rotation = 0;
  OwnState state;
  double lat_deg = 0, lon_deg = 0;
};
// One JSON line (no newline): {"own":true,"rotation","time_s","x_m","y_m","heading_deg",
// "course_deg","speed_mps","lat_deg","lon_deg"}; time_s from the run's start.
std::string own_truth_json(const OwnTruth& t);

class Scene {
 public:
  explicit Scene(const Scenario& s);

  const Scenario& scenario() const { return s_; }
  uint64_t rotation() const { return rotation_; }
  // Moves the scene on by one antenna period.
  void next_rotation();
  // Back to rotation 0 (the same state as a freshly built scene), then forward to `n`.
  void seek(uint64_t n);

  // Vessels as they are during the current rotation, with their signal-to-clutter ratio: the
  // random vessels, then the relative targets (at the rotation's start, like the others).
  std::vector<VesselTruth> truth() const;
  // The own ship during the current rotation.
  OwnTruth own_truth() const;
  // Seconds from the run's start to the current rotation's start.
  double time_s() const;
  // Mean power (squared mean amplitude, 8-bit levels) of noise + sea clutter (texture at its
  // mean) + rain at (x, y) metres east and north of the radar during the current rotation, from
  // the render's own tables: the clutter of the range block and radial holding the point, the
  // rain lobes where they are now.
  double background_power(double x_m, double y_m) const;

  // Renders radials [first, first + count) of the current rotation into `out`, `count` rows of
  // radar.cells 8-bit cells each. first + count must not exceed radar.radials.
  void render(int first, int count, uint8_t* out) const;
  // The whole rotation, radials x cells.
  void render_rotation(std::vector<uint8_t>& out) const;

 private:
  struct Vessel {
    int id;
    double x, y, heading_deg, speed_mps, length_m, strength;
    double turn_rate_dps = 0;
    int turn_left = 0;  // rotations until the next manoeuvre decision
    // Region it stays in (separated vessels keep to their own polar slot).
    double r_min, r_max, b_min_deg, b_span_deg;
  };
  struct Blob {  // one lobe of a rain cell
    double x, y, radius, level;
  };
  struct Point {        // one scatterer of a vessel in polar coordinates for this rotation
    float az, rg, amp;  // fractional radial and cell (centre-aligned), peak amplitude
  };
  struct VesselSpan {  // a vessel's scatterers and the radials it touches
    int a_lo, a_hi;    // unwrapped radial window [a_lo, a_hi]
    int p_first, p_count;
  };

  void build_tables();
  void place_vessels();
  void place_rain();
  void prepare_rotation();  // polar scatterers, rain positions for the current state
  void move(double dt);
  bool in_region(const Vessel& v, double x, double y) const;
  // No land within the vessel's half length plus the configured clearance of (x, y).
  bool clear_of_land(const Vessel& v, double x, double y) const;

  void render_radial(int a, uint8_t* out, std::vector<float>& pow, std::vector<uint16_t>& tex,
                     int& tex_row) const;
  // Clutter's up/downwind gain per radial for the radar's heading.
  void set_clutter_gain(double heading_deg);
  // Appends a hull's scatterers: centre (cx, cy) metres east and north of the radar, true
  // heading, and the radials it touches.
  void add_hull(int id, double cx, double cy, double heading_deg, double length_m, double strength);

  Scenario s_;
  LandMap land_;
  uint64_t rotation_ = 0;
  OwnShipTrack own_track_;
  OwnState own_;  // at the current rotation's start
  double gain_heading_deg_ = 0;
  std::vector<GroundTarget> targets_;
  Rng motion_{0};
  std::vector<Vessel> vessels_;
  std::vector<Blob> rain_;

  // Tables.
  int blocks_ = 0;                  // cells / 8 rounded up: speckle and texture blocks
  std::vector<float> sin_, cos_;    // per radial centre
  std::vector<float> clutter_pow_;  // per block: clutter power at the block's range
  std::vector<float> az_gain_;      // per radial: up/downwind clutter gain
  uint16_t rayleigh_q8_[256];       // unit-mean Rayleigh amplitude quantiles, 8.8 fixed point
  std::vector<float> gamma_;        // 4096 unit-mean gamma(shape) quantiles (K texture)
  std::vector<float> beam_;         // beam pattern vs radial offset, kSub samples per radial
  int beam_half_ = 0;               // radials either side
  std::vector<float> pulse_;        // pulse response vs cell offset, kSub samples per cell
  int pulse_half_ = 0;              // cells either side

  // Per rotation.
  std::vector<Point> points_;
  std::vector<VesselSpan> spans_;
  std::vector<float> rain_r_, rain_cos_, rain_sin_;  // blob centre range and bearing
};

}  // namespace sweepline::sim
