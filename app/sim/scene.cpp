#include "app/sim/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "app/common/check.hpp"
#include "app/nav/geodesy.hpp"
#include "app/sim/imo_plots.hpp"

namespace sweepline::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr int kSub = 16;   // beam and pulse tables: samples per radial / per cell
constexpr int kBlock = 8;  // cells per speckle block (one 64-bit random word)

// Stream keys for hash64: each random stream has its own.
constexpr uint64_t kMotionKey = 0x4D4F54;   // vessel placement and motion
constexpr uint64_t kRainKey = 0x5241494E;   // rain placement
constexpr uint64_t kSpeckleKey = 0x535045;  // per-cell speckle
constexpr uint64_t kTextureKey = 0x544558;  // clutter texture
constexpr uint64_t kGlintKey = 0x474C49;    // vessel scintillation

const Scenario& checked(const Scenario& s) {
  validate(s);
  return s;
}

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  return d < 0 ? d + 360.0 : d;
}

// Marsaglia-Tsang gamma(shape, 1) sampler (setup only).
double gamma_sample(Rng& rng, double shape) {
  if (shape < 1) {
    const double u = 1.0 - rng.uniform();
    return gamma_sample(rng, shape + 1) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - rng.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

}  // namespace

std::string truth_json(const VesselTruth& t) {
  char buf[352];
  std::snprintf(buf, sizeof buf,
                "{\"rotation\":%llu,\"id\":%d,\"range_m\":%.2f,\"bearing_deg\":%.4f,\"x_m\":%.2f,"
                "\"y_m\":%.2f,\"length_m\":%.1f,\"heading_deg\":%.2f,\"speed_mps\":%.2f,"
                "\"scr_db\":%.2f}",
                static_cast<unsigned long long>(t.rotation), t.id, t.range_m, t.bearing_deg, t.x_m,
                t.y_m, t.length_m, t.heading_deg, t.speed_mps, t.scr_db);
  return buf;
}

std::string own_truth_json(const OwnTruth& t) {
  char buf[352];
  std::snprintf(buf, sizeof buf,
                "{\"own\":true,\"rotation\":%llu,\"time_s\":%.3f,\"x_m\":%.2f,\"y_m\":%.2f,"
                "\"heading_deg\":%.3f,\"course_deg\":%.3f,\"speed_mps\":%.3f,\"lat_deg\":%.7f,"
                "\"lon_deg\":%.7f}",
                static_cast<unsigned long long>(t.rotation), t.state.t_s, t.state.x_m, t.state.y_m,
                t.state.heading_deg, t.state.course_deg, t.state.speed_mps, t.lat_deg, t.lon_deg);
  return buf;
}

Scene::Scene(const Scenario& s) : s_(checked(s)), land_(s_), own_track_(s_.own) {
  targets_ = resolve_targets(s_, own_track_);
  build_tables();
  seek(0);
}

double Scene::time_s() const {
  return double(rotation_) * s_.radar.period_s();
}

OwnTruth Scene::own_truth() const {
  OwnTruth t;
  t.rotation = rotation_;
  t.state = own_;
  const nav::LatLon ll =
      nav::LocalTangentPlane(s_.own.lat_deg, s_.own.lon_deg).to_geodetic(own_.x_m, own_.y_m);
  t.lat_deg = ll.lat_deg;
  t.lon_deg = ll.lon_deg;
  return t;
}

void Scene::set_clutter_gain(double heading_deg) {
  const int n = s_.radar.radials;
  az_gain_.resize(size_t(n));
  for (int a = 0; a < n; ++a) {
    // The radial's true bearing: its azimuth from the bow plus the heading.
    const double th = (a + 0.5) * 2 * kPi / n + heading_deg * kDeg;
    az_gain_[size_t(a)] =
        float(1 + s_.clutter.upwind_gain * std::cos(th - s_.clutter.wind_from_deg * kDeg));
  }
  gain_heading_deg_ = heading_deg;
}

void Scene::build_tables() {
  const auto& r = s_.radar;
  const int n = r.radials;
  const double cell_m = r.cell_m();
  blocks_ = (r.cells + kBlock - 1) / kBlock;

  sin_.resize(size_t(n));
  cos_.resize(size_t(n));
  for (int a = 0; a < n; ++a) {
    const double th = (a + 0.5) * 2 * kPi / n;
    sin_[size_t(a)] = float(std::sin(th));
    cos_[size_t(a)] = float(std::cos(th));
  }
  set_clutter_gain(0);

  clutter_pow_.assign(size_t(blocks_), 0.0f);
  if (s_.clutter.enabled) {
    for (int b = 0; b < blocks_; ++b) {
      const double rb = (b * kBlock + kBlock / 2) * cell_m;
      const double ref = s_.clutter.ref_range_m;
      const double amp =
          s_.clutter.level * (rb < ref ? 1.0 : std::pow(ref / rb, s_.clutter.falloff));
      clutter_pow_[size_t(b)] = float(amp * amp);
    }
  }

  // Unit-mean Rayleigh amplitude by its quantile function, so a random byte is a Rayleigh draw.
  double ray[256], mean = 0;
  for (int i = 0; i < 256; ++i) {
    const double u = (i + 0.5) / 256;
    ray[i] = std::sqrt(-2 * std::log(1 - u));
    mean += ray[i] / 256;
  }
  for (int i = 0; i < 256; ++i) rayleigh_q8_[i] = uint16_t(std::lround(ray[i] / mean * 256));

  // K-distribution texture: quantiles of gamma(shape) with unit mean, from a sorted sample.
  {
    Rng g(hash64(0x47414D, uint64_t(s_.clutter.shape * 1e6)));
    std::vector<double> sample(65536);
    for (auto& x : sample) x = gamma_sample(g, s_.clutter.shape) / s_.clutter.shape;
    std::sort(sample.begin(), sample.end());
    gamma_.resize(4096);
    double m = 0;
    for (int i = 0; i < 4096; ++i) {
      gamma_[size_t(i)] = float(sample[size_t(i) * 16 + 8]);
      m += gamma_[size_t(i)];
    }
    m /= 4096;
    for (auto& x : gamma_) x = float(x / m);
  }

  // Two-way Gaussian beam with the beamwidth as its -3 dB width, out to 1.5 beamwidths.
  const double bw_rad = r.beamwidth_deg / r.radial_deg();  // beamwidth in radials
  beam_half_ = std::max(1, int(std::ceil(1.5 * bw_rad)));
  beam_.resize(size_t(2 * beam_half_ * kSub + 1));
  for (size_t i = 0; i < beam_.size(); ++i) {
    const double d = double(i) / kSub - beam_half_;
    beam_[i] = float(std::exp(-4 * std::log(2.0) * (d / bw_rad) * (d / bw_rad)));
  }
  // Pulse response: a triangle whose half-width is the pulse length (at least one cell).
  const double hw = std::max(r.pulse_m, cell_m) / cell_m;  // in cells
  pulse_half_ = std::max(1, int(std::ceil(hw)));
  pulse_.resize(size_t(2 * pulse_half_ * kSub + 1));
  for (size_t i = 0; i < pulse_.size(); ++i) {
    const double d = double(i) / kSub - pulse_half_;
    pulse_[i] = float(std::max(0.0, 1 - std::abs(d) / hw));
  }
}

void Scene::seek(uint64_t n) {
  rotation_ = 0;
  motion_ = Rng(hash64(s_.seed, kMotionKey));
  place_vessels();
  place_rain();
  for (uint64_t i = 0; i < n; ++i) move(s_.radar.period_s());
  rotation_ = n;
  prepare_rotation();
}

void Scene::next_rotation() {
  move(s_.radar.period_s());
  ++rotation_;
  prepare_rotation();
}

bool Scene::in_region(const Vessel& v, double x, double y) const {
  const double r = std::hypot(x, y);
  if (r < v.r_min || r > v.r_max) return false;
  const double b = wrap360(std::atan2(x, y) / kDeg - v.b_min_deg);
  if (b > v.b_span_deg) return false;
  return clear_of_land(v, x, y);
}

bool Scene::clear_of_land(const Vessel& v, double x, double y) const {
  if (land_.is_land(x, y)) return false;
  const double reach = 0.5 * v.length_m + s_.vessels.land_clearance_m;
  // Two rings of probes, spaced well under the smallest island's size.
  constexpr int kProbes = 24;
  for (const double r : {0.5 * reach, reach})
    for (int i = 0; i < kProbes; ++i) {
      const double a = 2 * kPi * i / kProbes;
      if (land_.is_land(x + r * std::sin(a), y + r * std::cos(a))) return false;
    }
  return true;
}

void Scene::place_vessels() {
  vessels_.clear();
  const auto& vc = s_.vessels;
  const double R = s_.radar.range_m(), cell_m = s_.radar.cell_m();
  Rng& rng = motion_;
  auto make = [&](int id) {
    Vessel v{};
    v.id = id;
    const double u = rng.uniform();
    v.length_m = vc.length_min_m * std::pow(vc.length_max_m / vc.length_min_m, u * std::sqrt(u));
    v.heading_deg = rng.uniform(0, 360);
    v.speed_mps = rng.uniform(vc.speed_min_kn, vc.speed_max_kn) * 1852.0 / 3600.0;
    v.strength = rng.uniform(vc.strength_min, vc.strength_max);
    return v;
  };
  if (vc.count <= 0) return;
  if (!vc.separated) {
    for (int i = 0; i < vc.count; ++i) {
      Vessel v = make(i);
      v.r_min = vc.range_min_m >= 0 ? std::min(vc.range_min_m, 0.9 * R) : std::min(800.0, 0.2 * R);
      v.r_max = 0.92 * R;
      v.b_min_deg = 0;
      v.b_span_deg = 360;
      for (int tries = 0; tries < 1000; ++tries) {
        const double r = std::sqrt(rng.uniform(v.r_min * v.r_min, v.r_max * v.r_max));
        const double th = rng.uniform(0, 2 * kPi);
        v.x = r * std::sin(th);
        v.y = r * std::cos(th);
        if (clear_of_land(v, v.x, v.y)) break;
      }
      vessels_.push_back(v);
    }
    return;
  }
  // Separated: one vessel per polar slot, wide enough in azimuth for the beam and the hull seen
  // broadside at the slot's inner range, long enough in range for the hull and the pulse.
  const double r0 = std::max(0.12 * R, 2 * vc.length_max_m);
  const double pulse = std::max(s_.radar.pulse_m, cell_m);
  const double slot_r = 2 * (vc.length_max_m + 2 * pulse + 4 * cell_m);
  const double slot_deg =
      2 * (1.5 * s_.radar.beamwidth_deg + vc.length_max_m / r0 / kDeg + 2 * s_.radar.radial_deg());
  const int nr = int((0.92 * R - r0) / slot_r), na = int(360.0 / slot_deg);
  SWL_CHECK(int64_t(nr) * na >= vc.count,
            "sim: " + std::to_string(vc.count) + " separated vessels do not fit (" +
                std::to_string(int64_t(nr) * na) + " slots): lower vessels, length or beamwidth");
  const double deg = 360.0 / na;
  std::vector<int> slots(size_t(nr) * size_t(na));
  std::iota(slots.begin(), slots.end(), 0);
  size_t next = 0;
  for (int i = 0; i < vc.count && next < slots.size(); ++i) {
    Vessel v = make(i);
    for (; next < slots.size(); ++next) {
      const size_t j = next + size_t(rng.below(slots.size() - next));
      std::swap(slots[next], slots[j]);
      const int ir = slots[next] / na, ia = slots[next] % na;
      // The vessel keeps to the middle half of its slot, so neighbours never touch.
      v.r_min = r0 + (ir + 0.25) * slot_r;
      v.r_max = r0 + (ir + 0.75) * slot_r;
      v.b_min_deg = (ia + 0.25) * deg;
      v.b_span_deg = 0.5 * deg;
      const double r = rng.uniform(v.r_min, v.r_max);
      const double th = (v.b_min_deg + rng.uniform(0, v.b_span_deg)) * kDeg;
      v.x = r * std::sin(th);
      v.y = r * std::cos(th);
      if (clear_of_land(v, v.x, v.y)) {
        ++next;
        break;
      }
    }
    vessels_.push_back(v);
  }
}

void Scene::place_rain() {
  rain_.clear();
  if (!s_.rain.enabled) return;
  const double R = s_.radar.range_m();
  Rng rng(hash64(s_.seed, kRainKey));
  for (int i = 0; i < s_.rain.count; ++i) {
    const double r = rng.uniform(0.15, 0.9) * R, th = rng.uniform(0, 2 * kPi);
    const double radius = rng.uniform(s_.rain.radius_min_m, s_.rain.radius_max_m);
    // A rain cell is a few overlapping lobes, which gives it an irregular outline.
    for (int k = 0; k < 3; ++k) {
      const double off = k == 0 ? 0 : rng.uniform(0.2, 0.6) * radius, phi = rng.uniform(0, 2 * kPi);
      rain_.push_back({r * std::sin(th) + off * std::sin(phi),
                       r * std::cos(th) + off * std::cos(phi),
                       radius * (k == 0 ? 1.0 : rng.uniform(0.45, 0.8)),
                       s_.rain.level * rng.uniform(0.6, 1.0)});
    }
  }
}

void Scene::move(double dt) {
  Rng& rng = motion_;
  const double tmax = s_.vessels.turn_rate_max_dps;
  for (Vessel& v : vessels_) {
    if (v.turn_left <= 0) {
      if (rng.uniform() < 0.6) {
        v.turn_rate_dps = 0;
        v.turn_left = 5 + int(rng.below(36));
      } else {
        v.turn_rate_dps = rng.uniform(-tmax, tmax);
        v.turn_left = 3 + int(rng.below(13));
      }
    }
    --v.turn_left;
    v.heading_deg = wrap360(v.heading_deg + v.turn_rate_dps * dt);
    const double h = v.heading_deg * kDeg;
    const double nx = v.x + v.speed_mps * dt * std::sin(h),
                 ny = v.y + v.speed_mps * dt * std::cos(h);
    if (in_region(v, nx, ny)) {
      v.x = nx;
      v.y = ny;
    } else {
      v.heading_deg = wrap360(v.heading_deg + 180);  // turn back into open water
    }
  }
  // Rain drifts downwind; a lobe that leaves the picture comes back on the upwind side.
  const double R = s_.radar.range_m();
  const double dx = std::sin(s_.rain.drift_to_deg * kDeg),
               dy = std::cos(s_.rain.drift_to_deg * kDeg);
  for (Blob& b : rain_) {
    b.x += s_.rain.drift_mps * dt * dx;
    b.y += s_.rain.drift_mps * dt * dy;
    if (std::hypot(b.x, b.y) > R + b.radius) {
      const double along = b.x * dx + b.y * dy;
      b.x -= 2 * along * dx;
      b.y -= 2 * along * dy;
    }
  }
}

void Scene::add_hull(int id, double cx, double cy, double heading_deg, double length_m,
                     double strength) {
  const auto& r = s_.radar;
  const int n = r.radials;
  const double cell_m = r.cell_m();
  // Scatterers close enough that their pulse responses overlap well: a hull is one echo.
  const double spacing = std::min(1.5 * cell_m, 0.5 * std::max(r.pulse_m, cell_m));
  const int np = std::clamp(int(std::ceil(length_m / spacing)) + 1, 1, 64);
  const double h = heading_deg * kDeg, hx = std::sin(h), hy = std::cos(h);
  // Scintillation: the whole echo fluctuates a little from one rotation to the next.
  const double glint =
      0.85 + 0.15 * double(hash64(s_.seed, kGlintKey, rotation_, uint64_t(id)) >> 11) * 0x1.0p-53;
  VesselSpan sp{0, 0, int(points_.size()), 0};
  float az0 = 0, lo = 0, hi = 0;
  for (int k = 0; k < np; ++k) {
    const double t = np == 1 ? 0 : (double(k) / (np - 1) - 0.5) * length_m;
    const double x = cx + t * hx, y = cy + t * hy;
    const double rg = std::hypot(x, y) / cell_m - 0.5;
    // Azimuth from the bow.
    double az = wrap360(std::atan2(x, y) / kDeg - own_.heading_deg) / r.radial_deg() - 0.5;
    if (k == 0) {
      az0 = float(az);
      lo = hi = az0;
    } else {  // unwrap through north relative to the first scatterer
      if (az - az0 > n / 2.0) az -= n;
      if (az - az0 < -n / 2.0) az += n;
      lo = std::min(lo, float(az));
      hi = std::max(hi, float(az));
    }
    const double hull =
        0.8 + 0.2 * double(hash64(s_.seed, uint64_t(id), uint64_t(k)) >> 11) * 0x1.0p-53;
    points_.push_back({float(az), float(rg), float(strength * glint * hull)});
  }
  sp.p_count = np;
  sp.a_lo = int(std::floor(lo)) - beam_half_;
  sp.a_hi = int(std::ceil(hi)) + beam_half_;
  spans_.push_back(sp);
}

void Scene::prepare_rotation() {
  own_ = own_track_.at(time_s());
  if (own_.heading_deg != gain_heading_deg_) set_clutter_gain(own_.heading_deg);
  land_.set_pose(own_.x_m, own_.y_m, own_.heading_deg);
  points_.clear();
  spans_.clear();
  for (const Vessel& v : vessels_)
    add_hull(v.id, v.x - own_.x_m, v.y - own_.y_m, v.heading_deg, v.length_m, v.strength);
  // Relative targets: drawn where the radar measures them when the beam passes (from the bow,
  // so back to east/north with the heading at the rotation's start, which add_hull takes off).
  for (const GroundTarget& g : targets_) {
    const TargetScan o = observe_target(s_, s_.seed, own_track_, g, rotation_);
    const double b = (o.measured.rel_bearing_deg + own_.heading_deg) * kDeg;
    const double hull = g.course_deg() - o.own.heading_deg + own_.heading_deg;
    add_hull(g.id, o.measured.range_m * std::sin(b), o.measured.range_m * std::cos(b), hull,
             g.length_m, g.strength);
  }
  // Rain lobes from the radar: range and the direction from the bow.
  const double ch = std::cos(own_.heading_deg * kDeg), sh = std::sin(own_.heading_deg * kDeg);
  rain_r_.clear();
  rain_cos_.clear();
  rain_sin_.clear();
  for (const Blob& b : rain_) {
    const double dx = b.x - own_.x_m, dy = b.y - own_.y_m;
    const double rr = std::hypot(dx, dy);
    const double fx = dx * ch - dy * sh, fy = dy * ch + dx * sh;  // rotated by -heading
    rain_r_.push_back(float(rr));
    rain_cos_.push_back(rr > 0 ? float(fy / rr) : 1.0f);
    rain_sin_.push_back(rr > 0 ? float(fx / rr) : 0.0f);
  }
}

double Scene::background_power(double x, double y) const {
  const auto& r = s_.radar;
  double p = s_.noise.enabled ? s_.noise.mean * s_.noise.mean : 0.0;
  const double cell = std::hypot(x, y) / r.cell_m();
  if (cell < r.cells) {  // the clutter table is zero where clutter is off
    const int b = std::min(blocks_ - 1, int(cell) / kBlock);
    const int a = std::min(
        r.radials - 1, int(wrap360(std::atan2(x, y) / kDeg - own_.heading_deg) / r.radial_deg()));
    p += double(clutter_pow_[size_t(b)]) * double(az_gain_[size_t(a)]);
  }
  const double gx = x + own_.x_m, gy = y + own_.y_m;  // over ground, where the rain is
  for (const Blob& bl : rain_) {
    const double q =
        ((gx - bl.x) * (gx - bl.x) + (gy - bl.y) * (gy - bl.y)) / (bl.radius * bl.radius);
    if (q < 1) p += bl.level * bl.level * (1 - q) * (1 - q);
  }
  return p;
}

std::vector<VesselTruth> Scene::truth() const {
  std::vector<VesselTruth> out;
  out.reserve(vessels_.size() + targets_.size());
  auto add = [&](size_t i, int id, double x, double y, double length_m, double heading_deg,
                 double speed_mps) {
    VesselTruth t;
    t.rotation = rotation_;
    t.id = id;
    t.x_m = x;
    t.y_m = y;
    const double dx = x - own_.x_m, dy = y - own_.y_m;
    t.range_m = std::hypot(dx, dy);
    t.bearing_deg = wrap360(std::atan2(dx, dy) / kDeg);
    t.length_m = length_m;
    t.heading_deg = heading_deg;
    t.speed_mps = speed_mps;
    // The strongest scatterer at the beam and pulse peak, as the 8-bit video holds it. Both it
    // and the background are at least one video level (the quantisation step), so the ratio
    // stays finite on a silent background.
    const VesselSpan& sp = spans_[i];
    double peak = 0;
    for (int k = 0; k < sp.p_count; ++k)
      peak = std::max(peak, double(points_[size_t(sp.p_first + k)].amp));
    peak = std::clamp(peak, 1.0, 255.0);
    t.scr_db = 20 * std::log10(peak / std::sqrt(std::max(1.0, background_power(dx, dy))));
    out.push_back(t);
  };
  for (size_t i = 0; i < vessels_.size(); ++i) {
    const Vessel& v = vessels_[i];
    add(i, v.id, v.x, v.y, v.length_m, v.heading_deg, v.speed_mps);
  }
  const double t = time_s();
  for (size_t i = 0; i < targets_.size(); ++i) {
    const GroundTarget& g = targets_[i];
    add(vessels_.size() + i, g.id, g.x_at(t), g.y_at(t), g.length_m, g.course_deg(), g.speed_mps());
  }
  return out;
}

void Scene::render(int first, int count, uint8_t* out) const {
  SWL_CHECK(first >= 0 && count >= 0 && first + count <= s_.radar.radials,
            "sim: render range outside the rotation");
  std::vector<float> pow(static_cast<size_t>(blocks_));
  std::vector<uint16_t> tex(static_cast<size_t>(blocks_));
  int tex_row = -1;
  for (int i = 0; i < count; ++i)
    render_radial(first + i, out + size_t(i) * size_t(s_.radar.cells), pow, tex, tex_row);
}

void Scene::render_rotation(std::vector<uint8_t>& out) const {
  out.resize(size_t(s_.radar.radials) * size_t(s_.radar.cells));
  render(0, s_.radar.radials, out.data());
}

void Scene::render_radial(int a, uint8_t* out, std::vector<float>& pow, std::vector<uint16_t>& tex,
                          int& tex_row) const {
  const auto& r = s_.radar;
  const int cells = r.cells, n = r.radials;
  const double cell_m = r.cell_m();

  // 1. Mean power per block: noise + K-textured clutter + rain.
  const float pn = s_.noise.enabled ? float(s_.noise.mean * s_.noise.mean) : 0.0f;
  if (s_.clutter.enabled) {
    // The texture is correlated over ~0.7 degrees in azimuth and one block in range.
    const int tex_az = std::max(1, int(0.7 / r.radial_deg()));
    const int row = a / tex_az;
    if (row != tex_row) {
      tex_row = row;
      Rng trng(hash64(s_.seed, kTextureKey, rotation_, uint64_t(row)));
      for (int b = 0; b < blocks_; b += 5) {
        uint64_t bits = trng.next();
        for (int k = 0; k < 5 && b + k < blocks_; ++k, bits >>= 12)
          tex[size_t(b + k)] = uint16_t(bits & 4095);
      }
    }
    const float g = az_gain_[size_t(a)];
    for (int b = 0; b < blocks_; ++b)
      pow[size_t(b)] = pn + clutter_pow_[size_t(b)] * g * gamma_[tex[size_t(b)]];
  } else {
    std::fill(pow.begin(), pow.end(), pn);
  }
  const float ca = cos_[size_t(a)], sa = sin_[size_t(a)];
  const double block_m = kBlock * cell_m;
  for (size_t i = 0; i < rain_.size(); ++i) {
    const double rc = rain_r_[i], R = rain_[i].radius;
    const double cosd = ca * rain_cos_[i] + sa * rain_sin_[i];
    const double sind = sa * rain_cos_[i] - ca * rain_sin_[i];
    const double perp = rc * sind;
    if (std::abs(perp) >= R) continue;
    const double along = rc * cosd, half = std::sqrt(R * R - perp * perp);
    if (along + half <= 0) continue;
    const int b0 = std::max(0, int((along - half) / block_m));
    const int b1 = std::min(blocks_ - 1, int((along + half) / block_m));
    const double l2 = rain_[i].level * rain_[i].level, inv_r2 = 1 / (R * R);
    for (int b = b0; b <= b1; ++b) {
      const double rb = (b + 0.5) * block_m;
      const double q = (rb * rb + rc * rc - 2 * rb * rc * cosd) * inv_r2;
      if (q < 1) pow[size_t(b)] += float(l2 * (1 - q) * (1 - q));
    }
  }

  // 2. Speckle: one 64-bit draw gives the eight Rayleigh bytes of a block.
  Rng rng(hash64(s_.seed, kSpeckleKey, rotation_, uint64_t(a)));
  for (int b = 0; b < blocks_; ++b) {
    const uint32_t sc = uint32_t(std::min(65535.0f, std::sqrt(pow[size_t(b)]) * 256.0f));
    uint64_t bits = rng.next();
    const int c0 = b * kBlock;
    if (c0 + kBlock <= cells) {
      uint8_t* o = out + c0;
      for (int k = 0; k < kBlock; ++k, bits >>= 8) {
        const uint32_t v = (sc * rayleigh_q8_[bits & 255]) >> 16;
        o[k] = uint8_t(v > 255 ? 255 : v);
      }
    } else {
      for (int c = c0; c < cells; ++c, bits >>= 8) {
        const uint32_t v = (sc * rayleigh_q8_[bits & 255]) >> 16;
        out[c] = uint8_t(v > 255 ? 255 : v);
      }
    }
  }

  // 3. Land (already smeared).
  if (!land_.empty()) {
    const uint8_t* lr = land_.row(a);
    for (int c = land_.first(a), e = land_.last(a); c < e; ++c) out[c] = std::max(out[c], lr[c]);
  }

  // 4. Vessels: every scatterer spread by the beam in azimuth and the pulse in range.
  for (const VesselSpan& sp : spans_) {
    int au = a;
    if (au < sp.a_lo) au += n;
    if (au > sp.a_hi) au -= n;
    if (au < sp.a_lo || au > sp.a_hi) continue;
    for (int k = 0; k < sp.p_count; ++k) {
      const Point& p = points_[size_t(sp.p_first + k)];
      const float d = float(au) - p.az;
      if (d <= -beam_half_ || d >= beam_half_) continue;
      // Table indices are non-negative: rounding is + 0.5 and truncation (no libm call).
      const float amp = p.amp * beam_[size_t((d + float(beam_half_)) * kSub + 0.5f)];
      if (amp < 1) continue;
      const int c0 = std::max(0, int(std::ceil(p.rg - pulse_half_)));
      const int c1 = std::min(cells - 1, int(std::floor(p.rg + pulse_half_)));
      for (int c = c0; c <= c1; ++c) {
        const float v = amp * pulse_[size_t((float(c) - p.rg + float(pulse_half_)) * kSub + 0.5f)];
        const uint8_t q = uint8_t(std::min(255.0f, v));
        if (q > out[c]) out[c] = q;
      }
    }
  }
}

}  // namespace sweepline::sim
