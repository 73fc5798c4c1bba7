#pragma once
// The coastline and islands: a land mask on a Cartesian grid (for placing vessels at sea) and the
// land returns resampled into the radar's polar grid, already smeared by the beam and the pulse,
// because land is static: rendering a rotation then only copies it in. The polar grid is made
// again only when the radar's position or heading changes (a moving own ship: once a rotation).
#include <cstdint>
#include <vector>

#include "app/sim/scenario.hpp"

namespace sweepline::sim {

class LandMap {
 public:
  LandMap() = default;  // no land
  explicit LandMap(const Scenario& s);

  bool empty() const { return polar_.empty(); }
  // Puts the radar at (x, y) metres east and north of the scene origin, azimuth 0 at
  // `heading_deg`; remakes the polar grid when that differs from where it was made.
  void set_pose(double x_m, double y_m, double heading_deg);
  // True when (x, y) metres (x east, y north of the radar) is land; false outside the map.
  bool is_land(double x, double y) const;
  // Land returns of radial a: cells [first(a), last(a)) of row(a) are non-zero.
  const uint8_t* row(int a) const { return polar_.data() + size_t(a) * size_t(cells_); }
  int first(int a) const { return extent_[size_t(a) * 2]; }
  int last(int a) const { return extent_[size_t(a) * 2 + 1]; }

 private:
  void build_mask(const Scenario& s);
  void build_polar();

  int grid_ = 0;  // mask is grid_ x grid_ over [-extent_m_, extent_m_]^2
  double extent_m_ = 0;
  std::vector<uint8_t> mask_;  // land return level per grid pixel, 0 = sea
  RadarConfig radar_;
  double pose_x_ = 0, pose_y_ = 0, pose_heading_ = 0;
  int radials_ = 0, cells_ = 0;
  std::vector<uint8_t> polar_;  // radials x cells
  std::vector<int> extent_;     // per radial: first, last non-zero cell
};

}  // namespace sweepline::sim
