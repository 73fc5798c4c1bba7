#pragma once
// Per-target motion filter: an interacting multiple model (IMM) of two extended Kalman filters on
// the state [x, y, vx, vy, omega] (metres, m/s, rad/s; x east, y north):
//   model 0, constant velocity (omega held at 0), low process noise: steady ships;
//   model 1, coordinated turn with unknown turn rate, higher noise: manoeuvres.
// Internal to the tracker; tests use it directly.
#include <array>

namespace sweepline::track {

// A Cartesian position measurement with its 2x2 covariance (xx, xy, yy).
struct Measurement {
  double z[2] = {0, 0};
  double r[3] = {0, 0, 0};
};

// Radar accuracy in polar coordinates turned into the ground plane: diag(sr^2, (r sb)^2) rotated
// by the bearing. Extents beyond a point target's (beamwidth, range resolution) add the spread of
// the reflecting centre over the excess.
Measurement polar_measurement(double x_m, double y_m, double range_m, double bearing_deg,
                              double range_sigma_m, double bearing_sigma_deg, double range_extent_m,
                              double azimuth_extent_deg, double beamwidth_deg,
                              double range_resolution_m);

struct ImmNoise {
  // Defaults: TrackerParams' (see there).
  double cv_accel_psd = 0.00005;
  double ct_accel_psd = 0.05;
  double ct_turn_psd = 1e-5;
  double cv_sojourn_s = 7200.0;
  double ct_sojourn_s = 30.0;
};

constexpr int kImmModels = 2;
constexpr int kImmDim = 5;
constexpr int kImmCovSize = kImmDim * (kImmDim + 1) / 2;
using ImmVec = std::array<double, kImmDim>;
// A symmetric covariance, upper triangle packed row by row: (0,0) (0,1) .. (0,4) (1,1) .. (4,4).
// Packed, and without a stored combined covariance, a track's filter state is 384 bytes instead
// of 744: with 10,000 or more tracks the states no longer fit in the caches, and the bytes read
// per track and scan set the cost (docs/tracking-internals.md, Benchmark).
using ImmCov = std::array<double, kImmCovSize>;

constexpr int cov_index(int r, int c) {
  if (r > c) {
    const int t = r;
    r = c;
    c = t;
  }
  return r * kImmDim - r * (r - 1) / 2 + (c - r);
}

struct Imm {
  double time_s = 0.0;  // time of the posterior
  double mu[kImmModels] = {0.8, 0.2};
  // Moment-matched combined mean (kept current by init/update); its covariance is computed when
  // asked (imm_combined_cov, imm_predict_position), which is rarer than an update.
  ImmVec xc{};
  ImmVec x[kImmModels]{};
  ImmCov p[kImmModels]{};
};

// Moment-matched combined covariance sum_j mu_j (P_j + (x_j - xc)(x_j - xc)^T).
void imm_combined_cov(const Imm& f, ImmCov& pc);

// Two-point initialisation: position from the second plot, velocity from the difference.
void imm_init(Imm& f, const Measurement& m1, double t1, const Measurement& m2, double t2);

// One IMM cycle to time t (mixing, prediction of each model, update with m, mode probabilities).
// nis, when given, receives the combined model's normalised innovation squared (diagnostics; it
// costs one more prediction, so the tracker does not ask for it).
void imm_update(Imm& f, double t, const Measurement& m, const ImmNoise& q, double* nis = nullptr);

// Cheap linearised prediction of the combined position at time t (for gating): mean and
// covariance (xx, xy, yy), without the measurement noise.
void imm_predict_position(const Imm& f, double t, const ImmNoise& q, double pos[2], double cov[3]);

}  // namespace sweepline::track
