#include "app/eval/scorecard.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sweepline::eval {

namespace {

double pct(int part, int whole) {
  return whole > 0 ? 100.0 * part / whole : 100.0;
}

TargetCheck check(const char* name, double value, double limit, bool at_least) {
  TargetCheck t{name, value, limit, at_least, false};
  t.pass = !std::isnan(value) && (at_least ? value >= limit : value <= limit);
  return t;
}

}  // namespace

RotationScore score_rotation(uint64_t rotation, const RotationMatch& match,
                             const std::vector<sim::VesselTruth>& truth, int detections) {
  RotationScore s;
  s.rotation = rotation;
  s.vessels = int(truth.size());
  s.found = int(match.pairs.size());
  for (const auto& t : truth) s.detectable += t.scr_db >= kDetectableScrDb;
  for (const MatchPair& p : match.pairs) {
    s.detectable_found += truth[size_t(p.vessel)].scr_db >= kDetectableScrDb;
    s.range_error_m.push_back(p.range_error_m);
    s.bearing_error_deg.push_back(p.bearing_error_deg);
  }
  for (int i : match.missed_vessels) {
    const auto& t = truth[size_t(i)];
    s.missed.push_back({t.id, t.range_m, t.bearing_deg, t.scr_db});
  }
  s.detections = detections;
  s.unmatched = int(match.unmatched_detections.size());
  return s;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * double(v.size() - 1);
  const size_t i = size_t(pos);
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - double(i)) * (v[i + 1] - v[i]);
}

SceneScore score_scene(const std::vector<RotationScore>& rots, const sim::RadarConfig& radar,
                       const Targets& tg) {
  SceneScore s;
  s.rotations = int(rots.size());
  s.worst_found_pct = s.worst_detectable_pct = 100;
  std::vector<double> range_abs, bearing_abs;
  int unmatched_sum = 0;
  for (const RotationScore& r : rots) {
    s.vessels += r.vessels;
    s.found += r.found;
    s.detectable += r.detectable;
    s.detectable_found += r.detectable_found;
    s.worst_found_pct = std::min(s.worst_found_pct, pct(r.found, r.vessels));
    s.worst_detectable_pct =
        std::min(s.worst_detectable_pct, pct(r.detectable_found, r.detectable));
    unmatched_sum += r.unmatched;
    s.unmatched_max = std::max(s.unmatched_max, r.unmatched);
    for (double e : r.range_error_m) range_abs.push_back(std::abs(e));
    for (double e : r.bearing_error_deg) bearing_abs.push_back(std::abs(e));
  }
  s.found_pct = pct(s.found, s.vessels);
  s.detectable_pct = pct(s.detectable_found, s.detectable);
  s.unmatched_mean = rots.empty() ? 0 : double(unmatched_sum) / double(rots.size());
  s.pairs = int(range_abs.size());
  s.range_error_median_m = percentile(range_abs, 50);
  s.range_error_p95_m = percentile(range_abs, 95);
  s.bearing_error_median_deg = percentile(bearing_abs, 50);
  s.bearing_error_p95_deg = percentile(bearing_abs, 95);

  s.targets = {
      check("detectable found, worst rotation (%)", s.worst_detectable_pct, tg.detectable_found_pct,
            true),
      check("all found (%)", s.found_pct, tg.all_found_pct, true),
      check("unmatched plots, worst rotation", double(s.unmatched_max), tg.max_unmatched, false),
      check("range error median (m)", s.range_error_median_m, tg.range_pulses * radar.pulse_m,
            false),
      check("bearing error median (deg)", s.bearing_error_median_deg,
            tg.bearing_beamwidths * radar.beamwidth_deg, false),
  };
  s.pass = !rots.empty() && std::all_of(s.targets.begin(), s.targets.end(),
                                        [](const TargetCheck& t) { return t.pass; });
  return s;
}

}  // namespace sweepline::eval
