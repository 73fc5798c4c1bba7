// The motion filter on its own: polar measurement noise, convergence on a straight target, and
// the manoeuvre model on a turning one.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "app/track/imm.hpp"
#include "tests/app/track/track_sim.hpp"

using namespace sweepline::track;
using sweepline::tracktest::kDeg;
using sweepline::tracktest::kKnot;
using sweepline::tracktest::SimTarget;
using sweepline::tracktest::truth_at;

namespace {

// A noisy plot of (x, y) seen from the origin, as a measurement.
Measurement measure(std::mt19937_64& rng, double x, double y, double sr, double sb) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double r = std::hypot(x, y) + sr * n(rng);
  const double b = std::atan2(x, y) / kDeg + sb * n(rng);
  return polar_measurement(r * std::sin(b * kDeg), r * std::cos(b * kDeg), r, b, sr, sb, 0, 0, 1.2,
                           30);
}

// A plain constant-velocity Kalman filter with fixed low noise: the baseline without a
// manoeuvre model.
struct PlainCv {
  double t = 0;
  std::array<double, 4> x{};
  std::array<double, 16> p{};
  void init(const Measurement& m1, double t1, const Measurement& m2, double t2) {
    Imm f;
    imm_init(f, m1, t1, m2, t2);
    t = t2;
    for (int i = 0; i < 4; ++i) {
      x[i] = f.x[0][i];
      for (int j = 0; j < 4; ++j) p[i * 4 + j] = f.p[0][cov_index(i, j)];
    }
  }
  void update(double tt, const Measurement& m, double q) {
    const double dt = tt - t;
    t = tt;
    std::array<double, 16> f{};
    for (int i = 0; i < 4; ++i) f[i * 4 + i] = 1;
    f[0 * 4 + 2] = dt;
    f[1 * 4 + 3] = dt;
    std::array<double, 16> fp{}, np{};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) fp[i * 4 + j] += f[i * 4 + k] * p[k * 4 + j];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) np[i * 4 + j] += fp[i * 4 + k] * f[j * 4 + k];
    const double d3 = dt * dt * dt / 3, d2 = dt * dt / 2;
    for (int a = 0; a < 2; ++a) {
      np[a * 4 + a] += q * d3;
      np[a * 4 + a + 2] += q * d2;
      np[(a + 2) * 4 + a] += q * d2;
      np[(a + 2) * 4 + a + 2] += q * dt;
    }
    p = np;
    x[0] += x[2] * dt;
    x[1] += x[3] * dt;
    const double s00 = p[0] + m.r[0], s01 = p[1] + m.r[1], s11 = p[5] + m.r[2];
    const double det = s00 * s11 - s01 * s01;
    const double i00 = s11 / det, i01 = -s01 / det, i11 = s00 / det;
    const double n0 = m.z[0] - x[0], n1 = m.z[1] - x[1];
    double k[4][2];
    for (int i = 0; i < 4; ++i) {
      k[i][0] = p[i * 4 + 0] * i00 + p[i * 4 + 1] * i01;
      k[i][1] = p[i * 4 + 0] * i01 + p[i * 4 + 1] * i11;
    }
    for (int i = 0; i < 4; ++i) x[i] += k[i][0] * n0 + k[i][1] * n1;
    std::array<double, 16> q2 = p;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) q2[i * 4 + j] -= k[i][0] * p[0 * 4 + j] + k[i][1] * p[1 * 4 + j];
    p = q2;
  }
};

}  // namespace

TEST(TrackImm, PolarNoiseIsRotatedByBearing) {
  // Due east: range along x, bearing error along y.
  Measurement m = polar_measurement(1000, 0, 1000, 90, 20, 1.0, 0, 0, 1.2, 30);
  const double tang = 1000 * 1.0 * kDeg;
  EXPECT_NEAR(m.r[0], 400.0, 1e-6);
  EXPECT_NEAR(m.r[2], tang * tang, 1e-6);
  EXPECT_NEAR(m.r[1], 0.0, 1e-6);
  // At 45 deg the two mix: xx = yy = (sr^2 + st^2) / 2, xy = (sr^2 - st^2) / 2.
  m = polar_measurement(707, 707, 1000, 45, 20, 1.0, 0, 0, 1.2, 30);
  EXPECT_NEAR(m.r[0], (400.0 + tang * tang) / 2, 1e-6);
  EXPECT_NEAR(m.r[1], (400.0 - tang * tang) / 2, 1e-6);
  // An extent beyond the beam widens the tangential noise only.
  const Measurement w = polar_measurement(1000, 0, 1000, 90, 20, 1.0, 30, 5.0, 1.2, 30);
  EXPECT_NEAR(w.r[0], 400.0, 1e-6);
  EXPECT_GT(w.r[2], tang * tang * 1.5);
}

TEST(TrackImm, ConvergesOnStraightTarget) {
  // 8 NM north-east, 20 kn on 200 deg, 24 rpm, range sigma 20 m, bearing sigma 0.1 deg.
  std::mt19937_64 rng(7);
  SimTarget s;
  s.x = 8 * 1852 * std::sin(45 * kDeg);
  s.y = 8 * 1852 * std::cos(45 * kDeg);
  s.vx = 20 * kKnot * std::sin(200 * kDeg);
  s.vy = 20 * kKnot * std::cos(200 * kDeg);
  double x, y, vx, vy;
  Imm f;
  truth_at(s, 0, x, y, vx, vy);
  const Measurement m1 = measure(rng, x, y, 20, 0.1);
  truth_at(s, 2.5, x, y, vx, vy);
  imm_init(f, m1, 0, measure(rng, x, y, 20, 0.1), 2.5);
  const ImmNoise q;
  for (int k = 2; k <= 72; ++k) {  // 3 minutes
    const double t = 2.5 * k;
    truth_at(s, t, x, y, vx, vy);
    imm_update(f, t, measure(rng, x, y, 20, 0.1), q);
  }
  EXPECT_NEAR(f.xc[0], x, 40.0);
  EXPECT_NEAR(f.xc[1], y, 40.0);
  const double speed = std::hypot(f.xc[2], f.xc[3]);
  const double course = std::atan2(f.xc[2], f.xc[3]) / kDeg;
  EXPECT_NEAR(speed, 20 * kKnot, 0.5 * kKnot);  // IMO 3-min true speed: 0.5 kn
  EXPECT_NEAR(std::remainder(course - 200.0, 360.0), 0.0, 3.0);
  EXPECT_GT(f.mu[0], 0.5);  // a straight target is mostly in the CV model
}

TEST(TrackImm, ManoeuvreModelFollowsTurn) {
  // 15 kn, straight for 2 minutes, then a 3 deg/s turn for 60 s: compare position errors over
  // the turn and the minute after with a plain CV filter whose noise suits straight ships.
  std::mt19937_64 rng(11);
  SimTarget s;
  s.x = 3000;
  s.y = 4000;
  s.vx = 15 * kKnot;
  s.vy = 0;
  s.turn_start_s = 120;
  s.turn_rad_s = 3.0 * kDeg;
  double x, y, vx, vy;
  truth_at(s, 0, x, y, vx, vy);
  const Measurement m1 = measure(rng, x, y, 20, 0.1);
  truth_at(s, 2.5, x, y, vx, vy);
  const Measurement m2 = measure(rng, x, y, 20, 0.1);
  Imm f;
  imm_init(f, m1, 0, m2, 2.5);
  PlainCv cv;
  cv.init(m1, 0, m2, 2.5);
  const ImmNoise q;
  double err_imm = 0, err_cv = 0;
  int n = 0;
  double max_turn_prob = 0;
  for (int k = 2; k <= 96; ++k) {  // 4 minutes
    const double t = 2.5 * k;
    truth_at(s, t, x, y, vx, vy);
    const Measurement m = measure(rng, x, y, 20, 0.1);
    imm_update(f, t, m, q);
    cv.update(t, m, q.cv_accel_psd);
    if (t >= 120) {
      err_imm += std::pow(f.xc[0] - x, 2) + std::pow(f.xc[1] - y, 2);
      err_cv += std::pow(cv.x[0] - x, 2) + std::pow(cv.x[1] - y, 2);
      max_turn_prob = std::max(max_turn_prob, f.mu[1]);
      ++n;
    }
  }
  const double rms_imm = std::sqrt(err_imm / n), rms_cv = std::sqrt(err_cv / n);
  EXPECT_LT(rms_imm, 0.6 * rms_cv) << "IMM " << rms_imm << " m, CV " << rms_cv << " m";
  EXPECT_GT(max_turn_prob, 0.5);  // the turn model took over during the turn
}
