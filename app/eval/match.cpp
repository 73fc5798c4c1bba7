#include "app/eval/match.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace sweepline::eval {

const char* to_string(DetectionKind k) {
  return k == DetectionKind::Plots ? "plots" : "components";
}

std::vector<Detection> detections(const gpu::FrameResult& result, DetectionKind* kind) {
  std::vector<Detection> out;
  if (!result.plots.empty()) {
    out.reserve(result.plots.size());
    for (const gpu::Plot& p : result.plots)
      out.push_back({p.range_m, p.bearing_deg, p.area_px, p.peak});
    if (kind) *kind = DetectionKind::Plots;
    return out;
  }
  out.reserve(result.components.size());
  for (const ccl::Component& c : result.components)
    out.push_back({c.range_m, c.bearing_deg, c.area, c.peak});
  if (kind) *kind = DetectionKind::Components;
  return out;
}

double bearing_diff(double a, double b) {
  const double d = std::fmod(a - b, 360.0);  // (-360, 360)
  if (d >= 180) return d - 360;
  if (d < -180) return d + 360;
  return d;
}

RotationMatch match_rotation(const std::vector<Detection>& dets,
                             const std::vector<sim::VesselTruth>& truth, const MatchGates& gates) {
  struct Candidate {
    double cost;
    int d, v;
    double dr, db;
  };
  std::vector<Candidate> cand;
  // Vessels sorted by range so that each detection looks only at those within the widest gate.
  std::vector<int> by_range(truth.size());
  for (size_t i = 0; i < truth.size(); ++i) by_range[i] = int(i);
  std::sort(by_range.begin(), by_range.end(),
            [&](int a, int b) { return truth[size_t(a)].range_m < truth[size_t(b)].range_m; });
  double widest = gates.min_range_m;
  for (const auto& t : truth) widest = std::max(widest, t.length_m);
  for (size_t d = 0; d < dets.size(); ++d) {
    const Detection& det = dets[d];
    auto it = std::lower_bound(by_range.begin(), by_range.end(), det.range_m - widest,
                               [&](int v, double r) { return truth[size_t(v)].range_m < r; });
    for (; it != by_range.end() && truth[size_t(*it)].range_m <= det.range_m + widest; ++it) {
      const sim::VesselTruth& t = truth[size_t(*it)];
      const double gate_r = std::max(gates.min_range_m, t.length_m);
      const double dr = det.range_m - t.range_m, db = bearing_diff(det.bearing_deg, t.bearing_deg);
      if (std::abs(dr) > gate_r || std::abs(db) > gates.bearing_deg) continue;
      const double cost = std::hypot(dr / gate_r, db / gates.bearing_deg);
      cand.push_back({cost, int(d), *it, dr, db});
    }
  }
  std::sort(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.cost, a.d, a.v) < std::tie(b.cost, b.d, b.v);
  });
  std::vector<char> det_used(dets.size(), 0), ves_used(truth.size(), 0);
  RotationMatch m;
  for (const Candidate& c : cand) {
    if (det_used[size_t(c.d)] || ves_used[size_t(c.v)]) continue;
    det_used[size_t(c.d)] = ves_used[size_t(c.v)] = 1;
    m.pairs.push_back({c.d, c.v, c.dr, c.db});
  }
  for (size_t d = 0; d < dets.size(); ++d)
    if (!det_used[d]) m.unmatched_detections.push_back(int(d));
  for (size_t v = 0; v < truth.size(); ++v)
    if (!ves_used[v]) m.missed_vessels.push_back(int(v));
  return m;
}

}  // namespace sweepline::eval
