#include "app/track/imm.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "app/track/geometry.hpp"
#include "app/track/tuning.hpp"

namespace sweepline::track {

namespace {

constexpr int N = kImmDim;
using Full = std::array<double, N * N>;  // row-major working copy of a covariance

inline void unpack(const ImmCov& p, Full& f) {
  for (int r = 0; r < N; ++r)
    for (int c = r; c < N; ++c) f[r * N + c] = f[c * N + r] = p[cov_index(r, c)];
}

// White-acceleration noise on (position, velocity) of each axis over dt.
void add_accel_noise(ImmCov& p, double q, double dt) {
  const double d2 = dt * dt, d3 = d2 * dt;
  for (int a = 0; a < 2; ++a) {
    p[cov_index(a, a)] += q * d3 / 3.0;
    p[cov_index(a, a + 2)] += q * d2 / 2.0;
    p[cov_index(a + 2, a + 2)] += q * dt;
  }
}

// Constant velocity: F = [[I, dt I, 0], [0, I, 0], [0, 0, 0]] multiplied out (the model has no
// turn: omega and its row and column of P become zero). F P F^T in full costs ~20 times more.
void predict_cv(ImmVec& x, ImmCov& p, double dt, double q) {
  x[0] += x[2] * dt;
  x[1] += x[3] * dt;
  x[4] = 0.0;
  constexpr int i02 = cov_index(0, 2), i03 = cov_index(0, 3), i12 = cov_index(1, 2),
                i13 = cov_index(1, 3), i22 = cov_index(2, 2), i23 = cov_index(2, 3),
                i33 = cov_index(3, 3);
  const double p02 = p[i02], p03 = p[i03], p12 = p[i12], p13 = p[i13];
  const double p22 = p[i22], p23 = p[i23], p33 = p[i33];
  p[cov_index(0, 0)] += dt * (2.0 * p02 + dt * p22);
  p[cov_index(0, 1)] += dt * (p03 + p12 + dt * p23);
  p[cov_index(1, 1)] += dt * (2.0 * p13 + dt * p33);
  p[i02] = p02 + dt * p22;
  p[i03] = p03 + dt * p23;
  p[i12] = p12 + dt * p23;
  p[i13] = p13 + dt * p33;
  for (int r = 0; r < N; ++r) p[cov_index(r, 4)] = 0.0;
  add_accel_noise(p, q, dt);
}

// The coordinated turn's Jacobian is zero outside this pattern: rows 0-3 depend on the
// velocity and omega columns (rows 0 and 1 also on their own position), omega only on itself.
constexpr bool ct_nonzero(int r, int c) {
  return r == c || (r < 4 && c >= 2);
}

// p = F p F^T for the coordinated turn's Jacobian, skipping its structural zeros.
void propagate_ct(const Full& f, ImmCov& p) {
  Full a, fp;
  unpack(p, a);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < N; ++k)
        if (ct_nonzero(i, k)) s += f[i * N + k] * a[k * N + j];
      fp[i * N + j] = s;
    }
  for (int i = 0; i < N; ++i)
    for (int j = i; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < N; ++k)
        if (ct_nonzero(j, k)) s += fp[i * N + k] * f[j * N + k];
      p[cov_index(i, j)] = s;
    }
}

void predict_ct(ImmVec& x, ImmCov& p, double dt, double q_acc, double q_turn) {
  const double vx = x[2], vy = x[3], w = x[4];
  Full f{};
  for (int i = 0; i < N; ++i) f[i * N + i] = 1.0;
  const double wt = w * dt;
  if (std::abs(w) < tuning::kMinTurnRateRad) {
    f[0 * N + 2] = dt;
    f[1 * N + 3] = dt;
    f[0 * N + 4] = -vy * dt * dt / 2.0;
    f[1 * N + 4] = vx * dt * dt / 2.0;
    f[2 * N + 4] = -vy * dt;
    f[3 * N + 4] = vx * dt;
    x[0] += vx * dt;
    x[1] += vy * dt;
  } else {
    const double s = std::sin(wt), c = std::cos(wt);
    const double a = s / w, b = (1.0 - c) / w;
    x[0] += vx * a - vy * b;
    x[1] += vx * b + vy * a;
    x[2] = vx * c - vy * s;
    x[3] = vx * s + vy * c;
    // d(sin(wT)/w)/dw and d((1 - cos(wT))/w)/dw
    const double da = (dt * c * w - s) / (w * w);
    const double db = (dt * s * w - (1.0 - c)) / (w * w);
    f[0 * N + 2] = a;
    f[0 * N + 3] = -b;
    f[1 * N + 2] = b;
    f[1 * N + 3] = a;
    f[2 * N + 2] = c;
    f[2 * N + 3] = -s;
    f[3 * N + 2] = s;
    f[3 * N + 3] = c;
    f[0 * N + 4] = vx * da - vy * db;
    f[1 * N + 4] = vx * db + vy * da;
    f[2 * N + 4] = -dt * (vx * s + vy * c);
    f[3 * N + 4] = dt * (vx * c - vy * s);
  }
  propagate_ct(f, p);
  add_accel_noise(p, q_acc, dt);
  p[cov_index(4, 4)] += q_turn * dt;
}

// Kalman update with a position measurement; returns the log-likelihood.
double kalman_update(ImmVec& x, ImmCov& p, const Measurement& m) {
  const double s00 = p[cov_index(0, 0)] + m.r[0];
  const double s01 = p[cov_index(0, 1)] + m.r[1];
  const double s11 = p[cov_index(1, 1)] + m.r[2];
  double det = s00 * s11 - s01 * s01;
  det = std::max(det, 1e-12);
  const double i00 = s11 / det, i01 = -s01 / det, i11 = s00 / det;
  const double n0 = m.z[0] - x[0], n1 = m.z[1] - x[1];
  const double d2 = n0 * (i00 * n0 + i01 * n1) + n1 * (i01 * n0 + i11 * n1);
  // H P: the first two rows of P; K = P H^T S^-1 (5x2).
  double hp[2][N], k[N][2];
  for (int j = 0; j < N; ++j) {
    hp[0][j] = p[cov_index(0, j)];
    hp[1][j] = p[cov_index(1, j)];
  }
  for (int i = 0; i < N; ++i) {
    k[i][0] = hp[0][i] * i00 + hp[1][i] * i01;
    k[i][1] = hp[0][i] * i01 + hp[1][i] * i11;
  }
  for (int i = 0; i < N; ++i) x[i] += k[i][0] * n0 + k[i][1] * n1;
  // P -= K (H P)
  for (int i = 0; i < N; ++i)
    for (int j = i; j < N; ++j) p[cov_index(i, j)] -= k[i][0] * hp[0][j] + k[i][1] * hp[1][j];
  return -0.5 * d2 - 0.5 * std::log(det) - std::log(2.0 * 3.14159265358979323846);
}

// Moment-matched blend of the two models with weights w0, w1:
// mean xm, covariance w0 (P0 + d0 d0^T) + w1 (P1 + d1 d1^T) with d_j = x_j - xm.
void blend(const Imm& f, double w0, double w1, ImmVec& xm, ImmCov& pm) {
  for (int i = 0; i < N; ++i) xm[i] = w0 * f.x[0][i] + w1 * f.x[1][i];
  ImmVec d0, d1;
  for (int i = 0; i < N; ++i) {
    d0[i] = f.x[0][i] - xm[i];
    d1[i] = f.x[1][i] - xm[i];
  }
  for (int r = 0; r < N; ++r)
    for (int c = r; c < N; ++c) {
      const int k = cov_index(r, c);
      pm[k] = w0 * (f.p[0][k] + d0[r] * d0[c]) + w1 * (f.p[1][k] + d1[r] * d1[c]);
    }
}

void combine(Imm& f) {
  for (int i = 0; i < N; ++i) f.xc[i] = f.mu[0] * f.x[0][i] + f.mu[1] * f.x[1][i];
}

}  // namespace

Measurement polar_measurement(double x_m, double y_m, double range_m, double bearing_deg,
                              double range_sigma_m, double bearing_sigma_deg, double range_extent_m,
                              double azimuth_extent_deg, double beamwidth_deg,
                              double range_resolution_m) {
  const double excess_r = std::max(0.0, range_extent_m - range_resolution_m);
  const double excess_a = std::max(0.0, azimuth_extent_deg - beamwidth_deg) * kDeg * range_m;
  const double var_r =
      range_sigma_m * range_sigma_m + std::pow(tuning::kExtentSpread * excess_r, 2);
  const double sb = range_m * bearing_sigma_deg * kDeg;
  const double var_t = sb * sb + std::pow(tuning::kExtentSpread * excess_a, 2);
  // Radial unit vector (sin b, cos b), tangential (cos b, -sin b).
  const double s = std::sin(bearing_deg * kDeg), c = std::cos(bearing_deg * kDeg);
  Measurement m;
  m.z[0] = x_m;
  m.z[1] = y_m;
  m.r[0] = var_r * s * s + var_t * c * c;
  m.r[1] = (var_r - var_t) * s * c;
  m.r[2] = var_r * c * c + var_t * s * s;
  return m;
}

void imm_init(Imm& f, const Measurement& m1, double t1, const Measurement& m2, double t2) {
  const double dt = std::max(t2 - t1, 1e-3);
  ImmVec x{m2.z[0], m2.z[1], (m2.z[0] - m1.z[0]) / dt, (m2.z[1] - m1.z[1]) / dt, 0.0};
  ImmCov p{};
  const int idx[3][2] = {{0, 0}, {0, 1}, {1, 1}};
  for (int k = 0; k < 3; ++k) {
    const int r = idx[k][0], c = idx[k][1];
    const double v = m2.r[k];
    const double w = (m1.r[k] + m2.r[k]) / (dt * dt);
    p[cov_index(r, c)] = v;
    p[cov_index(r + 2, c + 2)] = w;
    p[cov_index(r, c + 2)] = v / dt;
    p[cov_index(c, r + 2)] = v / dt;
  }
  f.time_s = t2;
  f.x[0] = x;
  f.p[0] = p;
  f.x[1] = x;
  f.p[1] = p;
  f.p[1][cov_index(4, 4)] = tuning::kInitialTurnSigmaRad * tuning::kInitialTurnSigmaRad;
  f.mu[0] = tuning::kInitialCvProb;
  f.mu[1] = 1.0 - tuning::kInitialCvProb;
  combine(f);
}

void imm_update(Imm& f, double t, const Measurement& m, const ImmNoise& q, double* nis) {
  if (nis) {  // NIS of the combined prediction
    double pos[2], cov[3];
    imm_predict_position(f, t, q, pos, cov);
    const double s00 = cov[0] + m.r[0], s01 = cov[1] + m.r[1], s11 = cov[2] + m.r[2];
    const double det = std::max(s00 * s11 - s01 * s01, 1e-12);
    const double n0 = m.z[0] - pos[0], n1 = m.z[1] - pos[1];
    *nis = (s11 * n0 * n0 - 2.0 * s01 * n0 * n1 + s00 * n1 * n1) / det;
  }
  const double dt = std::max(t - f.time_s, 0.0);
  // Markov switching over dt: leave CV at rate 1/cv_sojourn, CT at 1/ct_sojourn.
  const double p01 = 1.0 - std::exp(-dt / q.cv_sojourn_s);
  const double p10 = 1.0 - std::exp(-dt / q.ct_sojourn_s);
  const double pij[2][2] = {{1.0 - p01, p01}, {p10, 1.0 - p10}};
  double cbar[2];
  for (int j = 0; j < 2; ++j) cbar[j] = pij[0][j] * f.mu[0] + pij[1][j] * f.mu[1];
  // Mixing: each model starts from the blend of both posteriors.
  ImmVec x0[2];
  ImmCov p0[2];
  for (int j = 0; j < 2; ++j) {
    const double w0 = pij[0][j] * f.mu[0] / cbar[j];
    blend(f, w0, 1.0 - w0, x0[j], p0[j]);
  }
  predict_cv(x0[0], p0[0], dt, q.cv_accel_psd);
  predict_ct(x0[1], p0[1], dt, q.ct_accel_psd, q.ct_turn_psd);
  double ll[2];
  for (int j = 0; j < 2; ++j) ll[j] = kalman_update(x0[j], p0[j], m);
  const double lmax = std::max(ll[0], ll[1]);
  double mu[2], sum = 0.0;
  for (int j = 0; j < 2; ++j) {
    mu[j] = cbar[j] * std::exp(ll[j] - lmax);
    sum += mu[j];
  }
  for (int j = 0; j < 2; ++j) {
    f.mu[j] = std::clamp(mu[j] / sum, tuning::kMinModeProb, 1.0 - tuning::kMinModeProb);
    f.x[j] = x0[j];
    f.p[j] = p0[j];
  }
  f.time_s = t;
  combine(f);
}

void imm_combined_cov(const Imm& f, ImmCov& pc) {
  ImmVec xc;
  blend(f, f.mu[0], f.mu[1], xc, pc);
}

void imm_predict_position(const Imm& f, double t, const ImmNoise& q, double pos[2], double cov[3]) {
  const double dt = std::max(t - f.time_s, 0.0);
  const ImmVec& x = f.xc;
  // First-order turn term: the velocity rotates by omega dt, moving the position sideways.
  // G = [[1, 0, dt, 0, -vy h], [0, 1, 0, dt, vx h]]; cov = G Pc G^T with the combined
  // covariance Pc = sum_j mu_j (P_j + d_j d_j^T), d_j = x_j - xc, taken model by model over G's
  // non-zero entries.
  const double h = dt * dt / 2.0;
  pos[0] = x[0] + x[2] * dt - x[3] * x[4] * h;
  pos[1] = x[1] + x[3] * dt + x[2] * x[4] * h;
  constexpr int ia[3] = {0, 2, 4}, ib[3] = {1, 3, 4};
  const double ga[3] = {1.0, dt, -x[3] * h}, gb[3] = {1.0, dt, x[2] * h};
  double c00 = 0.0, c01 = 0.0, c11 = 0.0;
  for (int j = 0; j < kImmModels; ++j) {
    const ImmCov& p = f.p[j];
    const ImmVec& xj = f.x[j];
    double m00 = 0.0, m01 = 0.0, m11 = 0.0, da = 0.0, db = 0.0;
    for (int a = 0; a < 3; ++a) {
      da += ga[a] * (xj[ia[a]] - x[ia[a]]);
      db += gb[a] * (xj[ib[a]] - x[ib[a]]);
      for (int b = 0; b < 3; ++b) {
        m00 += ga[a] * ga[b] * p[cov_index(ia[a], ia[b])];
        m01 += ga[a] * gb[b] * p[cov_index(ia[a], ib[b])];
        m11 += gb[a] * gb[b] * p[cov_index(ib[a], ib[b])];
      }
    }
    c00 += f.mu[j] * (m00 + da * da);
    c01 += f.mu[j] * (m01 + da * db);
    c11 += f.mu[j] * (m11 + db * db);
  }
  const double qa = f.mu[0] * q.cv_accel_psd + f.mu[1] * q.ct_accel_psd;
  const double qp = qa * dt * dt * dt / 3.0;
  cov[0] = c00 + qp;
  cov[1] = c01;
  cov[2] = c11 + qp;
}

}  // namespace sweepline::track
