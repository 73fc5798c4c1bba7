#include "app/sim/land_map.hpp"

#include <algorithm>
#include <cmath>

#include "app/sim/rng.hpp"

namespace sweepline::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr uint64_t kLandSeed = 0x4C414E44;  // "LAND"

double smooth(double t) {
  return t * t * (3 - 2 * t);
}

double lattice(uint64_t seed, int64_t i, int64_t j) {
  return double(hash64(seed, uint64_t(i), uint64_t(j)) >> 11) * 0x1.0p-53;
}

// 2-D value noise in [0, 1), lattice spacing 1.
double value_noise(uint64_t seed, double x, double y) {
  const double fx = std::floor(x), fy = std::floor(y);
  const int64_t i = int64_t(fx), j = int64_t(fy);
  const double u = smooth(x - fx), v = smooth(y - fy);
  const double a = lattice(seed, i, j), b = lattice(seed, i + 1, j);
  const double c = lattice(seed, i, j + 1), d = lattice(seed, i + 1, j + 1);
  return (a + (b - a) * u) * (1 - v) + (c + (d - c) * u) * v;
}

struct Island {
  double x, y, radius, p1, p2;
};

}  // namespace

LandMap::LandMap(const Scenario& s) {
  if (!s.coast.enabled) return;
  radar_ = s.radar;
  build_mask(s);
  build_polar();
}

void LandMap::set_pose(double x_m, double y_m, double heading_deg) {
  if (mask_.empty() || (x_m == pose_x_ && y_m == pose_y_ && heading_deg == pose_heading_)) return;
  pose_x_ = x_m;
  pose_y_ = y_m;
  pose_heading_ = heading_deg;
  build_polar();
}

void LandMap::build_mask(const Scenario& s) {
  const double R = s.radar.range_m();
  grid_ = 1024;
  extent_m_ = R;
  mask_.assign(size_t(grid_) * grid_, 0);
  const double pix = 2 * R / grid_;
  Rng rng(hash64(s.seed, kLandSeed));

  // Mainland: beyond a wavy line at distance D in the direction of the coast bearing.
  const double b = s.coast.bearing_deg * kPi / 180;
  const double ux = std::sin(b), uy = std::cos(b);  // towards the land
  const double vx = uy, vy = -ux;                   // along the coast
  const double D = s.coast.distance_m;
  // A fractal-ish shoreline: sines at scattered wavelengths, amplitude falling with the scale.
  constexpr int kWaves = 10;
  double amp[kWaves], wave[kWaves], phase[kWaves];
  for (int k = 0; k < kWaves; ++k) {
    const double lambda = 12000.0 * std::pow(0.6, k) * rng.uniform(0.75, 1.3);
    wave[k] = 2 * kPi / lambda;
    amp[k] = 0.1 * D * std::pow(lambda / 12000.0, 1.1) * rng.uniform(0.5, 1.2);
    phase[k] = rng.uniform(0, 2 * kPi);
  }
  const double inlet_t = rng.uniform(-0.3, 0.3) * D, inlet_w = 120, inlet_depth = 1800;

  std::vector<Island> islands;
  for (int i = 0; i < s.coast.islands; ++i) {
    for (int tries = 0; tries < 50; ++tries) {
      const double r = rng.uniform(2500, 0.85 * R), th = rng.uniform(0, 2 * kPi);
      Island is{r * std::sin(th), r * std::cos(th), rng.uniform(150, 700), rng.uniform(0, 6.3),
                rng.uniform(0, 6.3)};
      if (is.x * ux + is.y * uy < D - 1500) {  // at sea, well off the mainland
        islands.push_back(is);
        break;
      }
    }
  }

  const double level = s.coast.level;
  const uint64_t tex_seed = hash64(s.seed, kLandSeed, 1);
  auto texture = [&](double x, double y) {
    const double n = 0.5 * value_noise(tex_seed, x / 600, y / 600) +
                     0.3 * value_noise(tex_seed + 1, x / 180, y / 180) +
                     0.2 * value_noise(tex_seed + 2, x / 50, y / 50);
    return uint8_t(std::clamp(level * (0.45 + 0.8 * n), 30.0, 255.0));
  };

  for (int gy = 0; gy < grid_; ++gy) {
    const double y = (gy + 0.5) * pix - R;
    for (int gx = 0; gx < grid_; ++gx) {
      const double x = (gx + 0.5) * pix - R;
      const double sd = x * ux + y * uy, t = x * vx + y * vy;
      double coast = D;
      for (int k = 0; k < kWaves; ++k) coast += amp[k] * std::sin(wave[k] * t + phase[k]);
      bool land = sd > coast;
      if (land && std::abs(t - inlet_t) < inlet_w && sd < coast + inlet_depth) land = false;
      if (land) mask_[size_t(gy) * grid_ + gx] = texture(x, y);
    }
  }
  for (const Island& is : islands) {
    const double reach = is.radius * 1.4;
    const int x0 = std::max(0, int((is.x - reach + R) / pix)),
              x1 = std::min(grid_ - 1, int((is.x + reach + R) / pix));
    const int y0 = std::max(0, int((is.y - reach + R) / pix)),
              y1 = std::min(grid_ - 1, int((is.y + reach + R) / pix));
    for (int gy = y0; gy <= y1; ++gy)
      for (int gx = x0; gx <= x1; ++gx) {
        const double x = (gx + 0.5) * pix - R, y = (gy + 0.5) * pix - R;
        const double dx = x - is.x, dy = y - is.y, phi = std::atan2(dx, dy);
        const double edge =
            is.radius * (1 + 0.25 * std::sin(3 * phi + is.p1) + 0.1 * std::sin(7 * phi + is.p2));
        if (dx * dx + dy * dy < edge * edge) mask_[size_t(gy) * grid_ + gx] = texture(x, y);
      }
  }
}

bool LandMap::is_land(double x, double y) const {
  if (mask_.empty()) return false;
  const double pix = 2 * extent_m_ / grid_;
  const double gx = (x + extent_m_) / pix, gy = (y + extent_m_) / pix;
  if (gx < 0 || gy < 0 || gx >= grid_ || gy >= grid_) return false;
  return mask_[size_t(gy) * grid_ + size_t(gx)] != 0;
}

void LandMap::build_polar() {
  const auto& r = radar_;
  radials_ = r.radials;
  cells_ = r.cells;
  const double cell_m = r.cell_m(), pix = 2 * extent_m_ / grid_;
  std::vector<uint8_t> raw(size_t(radials_) * cells_, 0);
  for (int a = 0; a < radials_; ++a) {
    // The radial's true bearing: its azimuth from the bow plus the heading.
    const double th = (a + 0.5) * 2 * kPi / radials_ + pose_heading_ * kPi / 180;
    const double sx = std::sin(th) * cell_m / pix, sy = std::cos(th) * cell_m / pix;
    const double ox = extent_m_ / pix + pose_x_ / pix, oy = extent_m_ / pix + pose_y_ / pix;
    uint8_t* out = raw.data() + size_t(a) * cells_;
    int depth = -1;  // cells since the beam entered land (-1 at sea)
    for (int c = 0; c < cells_; ++c) {
      const double gx = ox + (c + 0.5) * sx, gy = oy + (c + 0.5) * sy;
      uint8_t v = 0;
      if (gx >= 0 && gy >= 0 && gx < grid_ && gy < grid_)
        v = mask_[size_t(gy) * grid_ + size_t(gx)];
      if (v == 0) {
        depth = -1;
        continue;
      }
      ++depth;
      // Shores and slopes facing the radar return most; land further in less (shadowing).
      const double dm = depth * cell_m;
      const double f = dm < 60 ? 1.3 : std::max(0.5, 1.0 - dm / 5000.0);
      out[c] = uint8_t(std::min(255.0, v * f));
    }
  }
  // Pulse smear: box over the pulse length in range.
  const int wr = std::max(1, int(std::lround(r.pulse_m / cell_m)));
  if (wr > 1) {
    std::vector<uint32_t> pre(size_t(cells_) + 1);
    for (int a = 0; a < radials_; ++a) {
      uint8_t* row = raw.data() + size_t(a) * cells_;
      pre[0] = 0;
      for (int c = 0; c < cells_; ++c) pre[c + 1] = pre[c] + row[c];
      for (int c = 0; c < cells_; ++c) {
        const int lo = std::max(0, c - wr / 2), hi = std::min(cells_, c - wr / 2 + wr);
        row[c] = uint8_t((pre[hi] - pre[lo]) / uint32_t(hi - lo));
      }
    }
  }
  // Beam smear: box over the beamwidth in azimuth, wrapping through north.
  const int wa = std::max(1, int(std::lround(r.beamwidth_deg / r.radial_deg())));
  polar_.assign(raw.size(), 0);
  std::vector<uint32_t> acc(size_t(cells_), 0);
  auto row_of = [&](int a) {
    return raw.data() + size_t(((a % radials_) + radials_) % radials_) * cells_;
  };
  const int lo0 = -(wa / 2);
  for (int k = 0; k < wa; ++k) {
    const uint8_t* src = row_of(lo0 + k);
    for (int c = 0; c < cells_; ++c) acc[c] += src[c];
  }
  for (int a = 0; a < radials_; ++a) {
    uint8_t* out = polar_.data() + size_t(a) * cells_;
    for (int c = 0; c < cells_; ++c) out[c] = uint8_t(acc[c] / uint32_t(wa));
    const uint8_t* add = row_of(a + lo0 + wa);
    const uint8_t* sub = row_of(a + lo0);
    for (int c = 0; c < cells_; ++c) acc[c] += uint32_t(add[c]) - uint32_t(sub[c]);
  }
  extent_.assign(size_t(radials_) * 2, 0);
  for (int a = 0; a < radials_; ++a) {
    const uint8_t* row = polar_.data() + size_t(a) * cells_;
    int f = 0, l = cells_;
    while (f < cells_ && row[f] == 0) ++f;
    while (l > f && row[l - 1] == 0) --l;
    extent_[size_t(a) * 2] = f;
    extent_[size_t(a) * 2 + 1] = l;
  }
}

}  // namespace sweepline::sim
