#include "app/track/association.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sweepline::track {

namespace {

constexpr double kInf = 1e18;
// A track's gate box may cover at most this many cells per axis; larger gates (coasting tracks
// near the cap) use coarser coverage by clamping to the cap and are found through every cell.
constexpr int kMaxCellsPerAxis = 64;
// Range bands for the gate boxes' plot-noise bound: at most this many (the last one takes every
// plot beyond), so that far outliers cannot make the table large.
constexpr std::size_t kMaxRangeBands = 1024;

inline int64_t cell_key(int64_t ix, int64_t iy) {
  return (ix << 32) ^ (iy & 0xffffffffLL);
}

inline uint32_t bucket_of(int64_t key, uint32_t mask) {
  uint64_t h = uint64_t(key) * 0x9E3779B97F4A7C15ULL;
  return uint32_t(h >> 40) & mask;
}

int find(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

std::vector<int> hungarian(const std::vector<double>& cost, int rows, int cols) {
  // Shortest augmenting paths with potentials (Kuhn-Munkres, O(rows^2 cols)); 1-based inside.
  std::vector<double> u(rows + 1, 0.0), v(cols + 1, 0.0), minv(cols + 1);
  std::vector<int> p(cols + 1, 0), way(cols + 1, 0);
  std::vector<char> used(cols + 1);
  for (int i = 1; i <= rows; ++i) {
    p[0] = i;
    int j0 = 0;
    std::fill(minv.begin(), minv.end(), kInf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      const int i0 = p[j0];
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= cols; ++j) {
        if (used[j]) continue;
        const double cur = cost[std::size_t(i0 - 1) * cols + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= cols; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<int> row_col(rows, -1);
  for (int j = 1; j <= cols; ++j)
    if (p[j] != 0) row_col[p[j] - 1] = j - 1;
  return row_col;
}

void Associator::gate_pair(const GateTrack& g, int t, const GatePlot& z, int p, double gate_chi2,
                           double exclusion_chi2, AssociationResult& out) {
  const double n0 = z.z[0] - g.pos[0], n1 = z.z[1] - g.pos[1];
  const double dist2 = n0 * n0 + n1 * n1;
  double d2, logdet;
  if (g.circle_radius_m > 0.0) {
    if (dist2 > g.circle_radius_m * g.circle_radius_m) return;
    // As an isotropic Gaussian whose gate is the circle.
    const double var = g.circle_radius_m * g.circle_radius_m / gate_chi2;
    d2 = dist2 / var;
    logdet = 2.0 * std::log(var);
    out.plot_near[p] = 1;
    near_.push_back({t, p});
  } else {
    // Outside the ellipse's bounding box, or beyond the cap: no test.
    if (n0 * n0 > exclusion_chi2 * (g.cov[0] + z.r[0]) ||
        n1 * n1 > exclusion_chi2 * (g.cov[2] + z.r[2]) || dist2 > g.max_radius_m * g.max_radius_m)
      return;
    const double s00 = g.cov[0] + z.r[0], s01 = g.cov[1] + z.r[1], s11 = g.cov[2] + z.r[2];
    const double det = std::max(s00 * s11 - s01 * s01, 1e-12);
    d2 = (s11 * n0 * n0 - 2.0 * s01 * n0 * n1 + s00 * n1 * n1) / det;
    if (d2 > exclusion_chi2) return;
    out.plot_near[p] = 1;
    near_.push_back({t, p});
    if (d2 > gate_chi2) return;
    logdet = std::log(det);
  }
  // A track gains (gate - d2) by taking a plot rather than missing; a young track's gain counts
  // young_gain_weight of that. Alone it still takes any plot in its gate, but against a confirmed
  // track its loose velocity (a small d2 anywhere in a wide gate) no longer wins a neighbour's
  // plot. (A constant added to a track's take and miss costs alike would change nothing: each
  // track takes exactly one of them.)
  const double w = g.young ? young_gain_weight_ : 1.0;
  edges_.push_back({t, p, w * d2 + (1.0 - w) * gate_chi2 + logdet, gate_chi2 + logdet});
}

void Associator::run(std::span<const GateTrack> tracks, std::span<const GatePlot> plots,
                     double gate_chi2, double exclusion_chi2, int exact_max, AssociationResult& out,
                     double ref_x, double ref_y, double young_gain_weight) {
  young_gain_weight_ = young_gain_weight;
  tentative_.resize(tracks.size());
  for (std::size_t t = 0; t < tracks.size(); ++t)
    tentative_[t] = tracks[t].circle_radius_m > 0.0 ? 1 : 0;
  const int nt = int(tracks.size()), np = int(plots.size());
  out.track_plot.assign(tracks.size(), -1);
  out.plot_near.assign(plots.size(), 0);
  out.plot_excluded.assign(plots.size(), 0);
  near_.clear();
  out.greedy_clusters = 0;
  out.clusters = 0;
  if (nt == 0 || np == 0) return;

  // --- Gate boxes. The ellipse d2 <= chi2 of S = P + R spans +-sqrt(chi2 S_xx) in x and
  // +-sqrt(chi2 S_yy) in y; a pair is tested only within the cap, |nu| <= max_radius_m. Bearing
  // noise makes R grow with range, so a track's box bounds R by the largest R_xx, R_yy among
  // the plots that can lie within its cap: those in the range bands (distance from ref) within
  // the cap of its own. A box sized with the largest R of the whole call gives the near tracks
  // the far plots' noise: ~10x the area and a super-linear cost in the disc's size.
  const double chi2 = exclusion_chi2;
  // Bands as wide as the largest cap (the cap bounds the pairs tested), at most kMaxRangeBands.
  scratch_.resize(plots.size());
  double band = 1.0;
  for (int p = 0; p < np; ++p) {
    const double dx = plots[p].z[0] - ref_x, dy = plots[p].z[1] - ref_y;
    scratch_[p] = std::sqrt(dx * dx + dy * dy);
    band = std::max(band, scratch_[p] / double(kMaxRangeBands));
  }
  for (const GateTrack& g : tracks) band = std::max(band, g.max_radius_m);
  band_max_.assign(kMaxRangeBands + 1, {0.0, 0.0});
  for (int p = 0; p < np; ++p) {
    const std::size_t k = std::min(std::size_t(scratch_[p] / band), kMaxRangeBands);
    band_max_[k][0] = std::max(band_max_[k][0], plots[p].r[0]);
    band_max_[k][1] = std::max(band_max_[k][1], plots[p].r[2]);
  }
  half_.resize(tracks.size());
  for (int t = 0; t < nt; ++t) {
    const GateTrack& g = tracks[t];
    if (g.circle_radius_m > 0.0) {
      const double r = std::min(g.circle_radius_m, g.max_radius_m);
      half_[t] = {r, r};
      continue;
    }
    // Bands within the cap of the track's: the triangle inequality bounds a plot's distance
    // from ref to the track's +- the cap (at most one band each side, as bands are cap-wide).
    const double dx = g.pos[0] - ref_x, dy = g.pos[1] - ref_y;
    const double kd = std::sqrt(dx * dx + dy * dy) / band;
    const std::size_t k = kd < double(kMaxRangeBands) ? std::size_t(kd) : kMaxRangeBands;
    double vx = 0.0, vy = 0.0;
    for (std::size_t j = k > 0 ? k - 1 : 0; j <= k + 1 && j < band_max_.size(); ++j) {
      vx = std::max(vx, band_max_[j][0]);
      vy = std::max(vy, band_max_[j][1]);
    }
    half_[t] = {std::min(std::sqrt(chi2 * (g.cov[0] + vx)), g.max_radius_m),
                std::min(std::sqrt(chi2 * (g.cov[2] + vy)), g.max_radius_m)};
  }
  scratch_.resize(tracks.size());
  for (int t = 0; t < nt; ++t) scratch_[t] = std::max(half_[t][0], half_[t][1]);
  auto mid = scratch_.begin() + std::ptrdiff_t(scratch_.size() / 2);
  std::nth_element(scratch_.begin(), mid, scratch_.end());
  const double cell = std::max(2.0 * *mid, 1.0);
  const double inv_cell = 1.0 / cell;

  // --- Spatial hash (CSR over hashed buckets): each track in every cell its box touches.
  entries_.clear();
  for (int t = 0; t < nt; ++t) {
    const GateTrack& g = tracks[t];
    const int64_t x0 = int64_t(std::floor((g.pos[0] - half_[t][0]) * inv_cell));
    const int64_t x1 =
        std::min(int64_t(std::floor((g.pos[0] + half_[t][0]) * inv_cell)), x0 + kMaxCellsPerAxis);
    const int64_t y0 = int64_t(std::floor((g.pos[1] - half_[t][1]) * inv_cell));
    const int64_t y1 =
        std::min(int64_t(std::floor((g.pos[1] + half_[t][1]) * inv_cell)), y0 + kMaxCellsPerAxis);
    for (int64_t iy = y0; iy <= y1; ++iy)
      for (int64_t ix = x0; ix <= x1; ++ix) entries_.push_back({cell_key(ix, iy), t});
  }
  uint32_t nb = 1;
  while (nb < 2 * entries_.size()) nb <<= 1;
  const uint32_t mask = nb - 1;
  bucket_start_.assign(nb + 1, 0);
  for (const Entry& e : entries_) ++bucket_start_[bucket_of(e.cell, mask) + 1];
  for (uint32_t b = 0; b < nb; ++b) bucket_start_[b + 1] += bucket_start_[b];
  sorted_.resize(entries_.size());
  fill_.assign(bucket_start_.begin(), bucket_start_.end() - 1);
  for (const Entry& e : entries_) sorted_[fill_[bucket_of(e.cell, mask)]++] = e;

  // --- Gate every plot against the tracks of its cell.
  edges_.clear();
  for (int p = 0; p < np; ++p) {
    const GatePlot& z = plots[p];
    const int64_t key =
        cell_key(int64_t(std::floor(z.z[0] * inv_cell)), int64_t(std::floor(z.z[1] * inv_cell)));
    const uint32_t b = bucket_of(key, mask);
    for (uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k)
      if (sorted_[k].cell == key)
        gate_pair(tracks[sorted_[k].track], sorted_[k].track, z, p, gate_chi2, exclusion_chi2, out);
  }
  if (!edges_.empty()) assign(nt, np, exact_max, out);
  exclude(plots, gate_chi2, out);
}

void Associator::exclude(std::span<const GatePlot> plots, double gate_chi2,
                         AssociationResult& out) {
  if (near_.empty()) return;
  assigned_.assign(plots.size(), 0);
  for (int j : out.track_plot)
    if (j >= 0) assigned_[std::size_t(j)] = 1;
  for (const auto& [t, p] : near_) {
    if (assigned_[std::size_t(p)] || out.plot_excluded[std::size_t(p)]) continue;
    const int j = out.track_plot[std::size_t(t)];
    if (j < 0 || tentative_[std::size_t(t)]) {
      out.plot_excluded[std::size_t(p)] = 1;
      continue;
    }
    const GatePlot &a = plots[std::size_t(p)], &b = plots[std::size_t(j)];
    const double n0 = a.z[0] - b.z[0], n1 = a.z[1] - b.z[1];
    const double s00 = a.r[0] + b.r[0], s01 = a.r[1] + b.r[1], s11 = a.r[2] + b.r[2];
    const double det = std::max(s00 * s11 - s01 * s01, 1e-12);
    if ((s11 * n0 * n0 - 2.0 * s01 * n0 * n1 + s00 * n1 * n1) / det <= gate_chi2)
      out.plot_excluded[std::size_t(p)] = 1;
  }
}

void Associator::assign(int nt, int np, int exact_max, AssociationResult& out) {
  // --- Clusters: connected components over tracks [0, nt) and plots [nt, nt + np).
  parent_.resize(std::size_t(nt + np));
  for (int i = 0; i < nt + np; ++i) parent_[i] = i;
  for (const Edge& e : edges_) {
    const int a = find(parent_, e.track), b = find(parent_, nt + e.plot);
    if (a != b) parent_[a] = b;
  }
  cluster_of_root_.assign(std::size_t(nt + np), -1);
  int nc = 0;
  order_.resize(edges_.size());
  std::vector<int> edge_cluster(edges_.size());
  for (std::size_t k = 0; k < edges_.size(); ++k) {
    const int r = find(parent_, edges_[k].track);
    if (cluster_of_root_[r] < 0) cluster_of_root_[r] = nc++;
    edge_cluster[k] = cluster_of_root_[r];
  }
  out.clusters = nc;
  cluster_start_.assign(std::size_t(nc + 1), 0);
  for (int c : edge_cluster) ++cluster_start_[c + 1];
  for (int c = 0; c < nc; ++c) cluster_start_[c + 1] += cluster_start_[c];
  {
    std::vector<int> pos(cluster_start_.begin(), cluster_start_.end() - 1);
    for (std::size_t k = 0; k < edges_.size(); ++k) order_[pos[edge_cluster[k]]++] = int(k);
  }

  // --- Assignment per cluster.
  local_track_.assign(std::size_t(nt), -1);
  local_plot_.assign(std::size_t(np), -1);
  std::vector<int> ctracks, cplots;
  for (int c = 0; c < nc; ++c) {
    const int b = cluster_start_[c], e = cluster_start_[c + 1];
    if (e - b == 1) {
      const Edge& ed = edges_[order_[b]];
      out.track_plot[ed.track] = ed.plot;
      continue;
    }
    ctracks.clear();
    cplots.clear();
    for (int k = b; k < e; ++k) {
      const Edge& ed = edges_[order_[k]];
      if (local_track_[ed.track] < 0) {
        local_track_[ed.track] = int(ctracks.size());
        ctracks.push_back(ed.track);
      }
      if (local_plot_[ed.plot] < 0) {
        local_plot_[ed.plot] = int(cplots.size());
        cplots.push_back(ed.plot);
      }
    }
    const int n = int(ctracks.size()), m = int(cplots.size());
    if (n <= exact_max && m <= exact_max) {
      // Rows: tracks; columns: plots, then one "missed" column per track.
      const int cols = m + n;
      cost_.assign(std::size_t(n) * cols, kInf);
      for (int k = b; k < e; ++k) {
        const Edge& ed = edges_[order_[k]];
        const int i = local_track_[ed.track];
        cost_[std::size_t(i) * cols + local_plot_[ed.plot]] = ed.cost;
        double& miss = cost_[std::size_t(i) * cols + m + i];
        miss = miss >= kInf ? ed.miss_cost : std::min(miss, ed.miss_cost);
      }
      const std::vector<int> col = hungarian(cost_, n, cols);
      for (int i = 0; i < n; ++i)
        if (col[i] >= 0 && col[i] < m) out.track_plot[ctracks[i]] = cplots[col[i]];
    } else {
      ++out.greedy_clusters;
      std::vector<int> ks(order_.begin() + b, order_.begin() + e);
      std::sort(ks.begin(), ks.end(),
                [&](int x, int y) { return edges_[x].cost < edges_[y].cost; });
      std::vector<char> plot_used(std::size_t(m), 0);
      for (int k : ks) {
        const Edge& ed = edges_[k];
        if (out.track_plot[ed.track] >= 0 || plot_used[local_plot_[ed.plot]]) continue;
        out.track_plot[ed.track] = ed.plot;
        plot_used[local_plot_[ed.plot]] = 1;
      }
    }
    for (int t : ctracks) local_track_[t] = -1;
    for (int p : cplots) local_plot_[p] = -1;
  }
}

}  // namespace sweepline::track
