#include "app/eval/track_score.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

#include "app/eval/scorecard.hpp"

namespace sweepline::eval {

namespace {

constexpr double kKnotsPerMps = 3600.0 / 1852.0;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Minimum-cost assignment of every row to a distinct column (rows <= columns), the Hungarian
// algorithm with potentials, O(n^2 m). a is rows x cols, row-major. Returns each row's column.
std::vector<int> hungarian(const std::vector<double>& a, int rows, int cols) {
  std::vector<double> u(size_t(rows) + 1, 0), v(size_t(cols) + 1, 0);
  std::vector<int> p(size_t(cols) + 1, 0), way(size_t(cols) + 1, 0);
  for (int i = 1; i <= rows; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<double> minv(size_t(cols) + 1, kInf);
    std::vector<char> used(size_t(cols) + 1, 0);
    do {
      used[size_t(j0)] = 1;
      const int i0 = p[size_t(j0)];
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= cols; ++j) {
        if (used[size_t(j)]) continue;
        const double cur =
            a[size_t(i0 - 1) * size_t(cols) + size_t(j - 1)] - u[size_t(i0)] - v[size_t(j)];
        if (cur < minv[size_t(j)]) {
          minv[size_t(j)] = cur;
          way[size_t(j)] = j0;
        }
        if (minv[size_t(j)] < delta) {
          delta = minv[size_t(j)];
          j1 = j;
        }
      }
      for (int j = 0; j <= cols; ++j) {
        if (used[size_t(j)]) {
          u[size_t(p[size_t(j)])] += delta;
          v[size_t(j)] -= delta;
        } else {
          minv[size_t(j)] -= delta;
        }
      }
      j0 = j1;
    } while (p[size_t(j0)] != 0);
    do {
      const int j1 = way[size_t(j0)];
      p[size_t(j0)] = p[size_t(j1)];
      j0 = j1;
    } while (j0);
  }
  std::vector<int> row_col(size_t(rows), -1);
  for (int j = 1; j <= cols; ++j)
    if (p[size_t(j)] > 0) row_col[size_t(p[size_t(j)] - 1)] = j - 1;
  return row_col;
}

// Indices of points sorted by x, and a walk over those within [x - w, x + w].
template <class X>
std::vector<int> order_by_x(int n, X x) {
  std::vector<int> o(static_cast<size_t>(n));
  std::iota(o.begin(), o.end(), 0);
  std::sort(o.begin(), o.end(), [&](int a, int b) { return x(a) < x(b); });
  return o;
}
template <class X, class F>
void for_near_x(const std::vector<int>& o, X x, double x0, double w, F f) {
  auto it = std::lower_bound(o.begin(), o.end(), x0 - w, [&](int i, double v) { return x(i) < v; });
  for (; it != o.end() && x(*it) <= x0 + w; ++it) f(*it);
}

int find(std::vector<int>& parent, int i) {
  while (parent[size_t(i)] != i) {
    parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
    i = parent[size_t(i)];
  }
  return i;
}

}  // namespace

std::vector<TrackPair> match_tracks(const std::vector<ScoredTrack>& tracks,
                                    const std::vector<sim::VesselTruth>& truth,
                                    const TrackGates& gates) {
  struct Candidate {
    double cost;
    int t, v;
  };
  std::vector<Candidate> cand;
  double widest = gates.min_m;
  for (const auto& v : truth) widest = std::max(widest, v.length_m);
  // Vessels sorted by x so that each track looks only at those within the widest gate.
  std::vector<int> by_x(truth.size());
  std::iota(by_x.begin(), by_x.end(), 0);
  std::sort(by_x.begin(), by_x.end(),
            [&](int a, int b) { return truth[size_t(a)].x_m < truth[size_t(b)].x_m; });
  for (size_t t = 0; t < tracks.size(); ++t) {
    const ScoredTrack& tr = tracks[t];
    auto it = std::lower_bound(by_x.begin(), by_x.end(), tr.x_m - widest,
                               [&](int v, double x) { return truth[size_t(v)].x_m < x; });
    for (; it != by_x.end() && truth[size_t(*it)].x_m <= tr.x_m + widest; ++it) {
      const sim::VesselTruth& v = truth[size_t(*it)];
      const double d = std::hypot(tr.x_m - v.x_m, tr.y_m - v.y_m);
      if (d > std::max(gates.min_m, v.length_m)) continue;
      cand.push_back({d, int(t), *it});
    }
  }
  std::sort(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.cost, a.t, a.v) < std::tie(b.cost, b.t, b.v);
  });
  std::vector<char> t_used(tracks.size(), 0), v_used(truth.size(), 0);
  std::vector<TrackPair> out;
  for (const Candidate& c : cand) {
    if (t_used[size_t(c.t)] || v_used[size_t(c.v)]) continue;
    t_used[size_t(c.t)] = v_used[size_t(c.v)] = 1;
    out.push_back({c.t, c.v, c.cost});
  }
  return out;
}

Gospa gospa(const std::vector<Point2>& X, const std::vector<Point2>& Y, double c, double p) {
  const int nx = int(X.size()), ny = int(Y.size());
  const double cp = std::pow(c, p);
  // Pairs closer than c; only they can lower the cost (an assignment at >= c costs c^p, as much
  // as leaving both unassigned).
  struct Edge {
    int x, y;
    double dp;
  };
  std::vector<Edge> edges;
  std::vector<int> by_x(static_cast<size_t>(ny));
  std::iota(by_x.begin(), by_x.end(), 0);
  std::sort(by_x.begin(), by_x.end(),
            [&](int a, int b) { return Y[size_t(a)].x < Y[size_t(b)].x; });
  for (int i = 0; i < nx; ++i) {
    auto it = std::lower_bound(by_x.begin(), by_x.end(), X[size_t(i)].x - c,
                               [&](int j, double x) { return Y[size_t(j)].x < x; });
    for (; it != by_x.end() && Y[size_t(*it)].x < X[size_t(i)].x + c; ++it) {
      const double d =
          std::hypot(X[size_t(i)].x - Y[size_t(*it)].x, X[size_t(i)].y - Y[size_t(*it)].y);
      if (d < c) edges.push_back({i, *it, std::pow(d, p)});
    }
  }
  // Groups: connected components of the pair graph (x nodes 0..nx-1, y nodes nx..).
  std::vector<int> parent(size_t(nx + ny));
  std::iota(parent.begin(), parent.end(), 0);
  for (const Edge& e : edges) {
    const int a = find(parent, e.x), b = find(parent, nx + e.y);
    if (a != b) parent[size_t(a)] = b;
  }
  std::map<int, std::vector<int>> group_edges;
  for (size_t k = 0; k < edges.size(); ++k) group_edges[find(parent, edges[k].x)].push_back(int(k));
  Gospa g;
  double total = 0;
  for (const auto& [root, ks] : group_edges) {
    std::vector<int> xs, ys;
    for (int k : ks) {
      xs.push_back(edges[size_t(k)].x);
      ys.push_back(edges[size_t(k)].y);
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    const bool rows_are_x = xs.size() <= ys.size();
    const int rows = int(rows_are_x ? xs.size() : ys.size());
    const int cols = int(rows_are_x ? ys.size() : xs.size());
    // Cost of a pair: d^p - c^p (what it saves against two unassigned points); 0 for no pair.
    std::vector<double> a(size_t(rows) * size_t(cols), 0.0);
    for (int k : ks) {
      const Edge& e = edges[size_t(k)];
      const int xi = int(std::lower_bound(xs.begin(), xs.end(), e.x) - xs.begin());
      const int yi = int(std::lower_bound(ys.begin(), ys.end(), e.y) - ys.begin());
      const int r = rows_are_x ? xi : yi, col = rows_are_x ? yi : xi;
      a[size_t(r) * size_t(cols) + size_t(col)] = e.dp - cp;
    }
    const std::vector<int> rc = hungarian(a, rows, cols);
    for (int r = 0; r < rows; ++r) {
      const double cost = a[size_t(r) * size_t(cols) + size_t(rc[size_t(r)])];
      if (cost < 0) {
        total += cost;
        g.localisation += cost + cp;
        ++g.pairs;
      }
    }
  }
  total += cp / 2 * double(nx + ny);
  g.missed = nx - g.pairs;
  g.false_tracks = ny - g.pairs;
  g.distance = std::pow(std::max(0.0, total), 1 / p);
  return g;
}

TrackScorer::TrackScorer(const TrackTargets& targets, const TrackGates& gates, double period_s)
    : tg_(targets), gates_(gates), period_s_(period_s) {}

void TrackScorer::add_rotation(uint64_t rotation, bool scored,
                               const std::vector<ScoredTrack>& tracks,
                               const std::vector<sim::VesselTruth>& truth,
                               const std::vector<Point2>& plots) {
  if (!scored) return;
  last_rotation_ = rotation;
  const int64_t s = scored_++;
  diagnose(s, tracks, truth, plots);
  std::vector<ScoredTrack> confirmed;
  std::set<int> confirmed_ids;
  for (const ScoredTrack& t : tracks)
    if (t.confirmed) {
      confirmed.push_back(t);
      confirmed_ids.insert(t.id);
    }
  const std::vector<TrackPair> pairs = match_tracks(confirmed, truth, gates_);
  std::vector<int> vessel_track(truth.size(), -1);
  std::vector<char> track_matched(confirmed.size(), 0);
  for (const TrackPair& p : pairs) {
    vessel_track[size_t(p.vessel)] = p.track;
    track_matched[size_t(p.track)] = 1;
  }
  for (size_t i = 0; i < truth.size(); ++i) {
    const sim::VesselTruth& t = truth[i];
    Vessel& v = vessels_[t.id];
    const bool det = t.scr_db >= kDetectableScrDb;
    const int matched = vessel_track[i] >= 0 ? confirmed[size_t(vessel_track[i])].id : 0;
    if (det && v.appear < 0) v.appear = s;
    if (matched && v.confirmed < 0) v.confirmed = s;
    if (det) {
      if (matched) {
        if (v.current_id && matched != v.current_id && !v.lost) ++r_.id_changes;
        v.current_id = matched;
        v.lost = false;
      } else if (v.current_id && !v.lost && !confirmed_ids.count(v.current_id)) {
        ++r_.id_losses;
        v.lost = true;
      }
      if (v.current_id && !v.lost) ++v.detectable_with_id;
    } else if (matched) {
      v.current_id = matched;
      v.lost = false;
    }
  }
  for (size_t k = 0; k < confirmed.size(); ++k) {
    TrackState& ts = tracks_[confirmed[k].id];
    if (ts.last_scan != s - 1) ts.unmatched_run = 0;
    ts.last_scan = s;
    if (track_matched[k]) {
      ts.unmatched_run = 0;
      continue;
    }
    if (++ts.unmatched_run >= tg_.false_after_scans && !ts.flagged) {
      ts.flagged = true;
      ++r_.false_tracks;
      r_.false_ids.push_back(confirmed[k].id);
      const ScoredTrack& c = confirmed[k];
      Result::FalseTrack f{c.id, c.x_m, c.y_m, c.range_m, c.speed_mps * kKnotsPerMps, c.scans};
      f.nearest_m = std::numeric_limits<double>::infinity();
      for (const auto& t : truth) {
        const double d = std::hypot(t.x_m - c.x_m, t.y_m - c.y_m);
        if (d < f.nearest_m) {
          f.nearest_m = d;
          f.nearest_vessel = t.id;
          f.nearest_length_m = t.length_m;
        }
      }
      if (!f.nearest_vessel) f.nearest_m = 0;
      r_.false_detail.push_back(f);
    }
  }
  // GOSPA: detectable vessels against confirmed tracks, less those on a vessel below 10 dB
  // (a track the truth does not ask for, but a right one).
  std::vector<Point2> X, Y;
  for (const auto& t : truth)
    if (t.scr_db >= kDetectableScrDb) X.push_back({t.x_m, t.y_m});
  for (size_t k = 0; k < confirmed.size(); ++k) {
    bool on_weak = false;
    for (const TrackPair& p : pairs)
      if (p.track == int(k) && truth[size_t(p.vessel)].scr_db < kDetectableScrDb) on_weak = true;
    if (!on_weak) Y.push_back({confirmed[k].x_m, confirmed[k].y_m});
  }
  const Gospa g = gospa(X, Y, tg_.gospa_c_m, tg_.gospa_p);
  r_.gospa_per_scan.push_back(g.distance);
  gospa_missed_.push_back(g.missed);
  gospa_false_.push_back(g.false_tracks);
  gospa_loc_sum_ += g.localisation;
  gospa_pairs_ += g.pairs;
}

void TrackScorer::diagnose(int64_t s, const std::vector<ScoredTrack>& tracks,
                           const std::vector<sim::VesselTruth>& truth,
                           const std::vector<Point2>& plots) {
  auto gate = [&](const sim::VesselTruth& t) { return std::max(gates_.min_m, t.length_m); };
  double widest = gates_.min_m;
  for (const auto& t : truth) widest = std::max(widest, t.length_m);
  auto vx = [&](int i) { return truth[size_t(i)].x_m; };
  auto px = [&](int i) { return plots[size_t(i)].x; };
  auto tx = [&](int i) { return tracks[size_t(i)].x_m; };
  std::vector<int> vo, po, to;
  for (size_t i = 0; i < truth.size(); ++i) {
    const sim::VesselTruth& t = truth[i];
    auto it = vessels_.find(t.id);
    // Vessels seen detectable before and not confirmed yet, within their window (this scan's
    // own detectability is set by the caller after this).
    const bool starts = it == vessels_.end() || it->second.appear < 0;
    if (starts && t.scr_db < kDetectableScrDb) continue;
    Vessel& v = vessels_[t.id];
    if (v.confirmed >= 0 || int(v.window.size()) > tg_.confirm_scans) continue;
    if (v.window.empty()) {
      v.range_m = t.range_m;
      v.scr_db = t.scr_db;
      v.neighbour_m = std::numeric_limits<double>::infinity();
    }
    if (vo.empty()) {
      vo = order_by_x(int(truth.size()), vx);
      po = order_by_x(int(plots.size()), px);
      to = order_by_x(int(tracks.size()), tx);
    }
    const double g = gate(t);
    int near = 0;
    bool shared = false;
    for_near_x(vo, vx, t.x_m, 4 * widest, [&](int k) {
      if (size_t(k) == i) return;
      v.neighbour_m = std::min(
          v.neighbour_m, std::hypot(truth[size_t(k)].x_m - t.x_m, truth[size_t(k)].y_m - t.y_m));
    });
    for_near_x(po, px, t.x_m, g, [&](int k) {
      const Point2& p = plots[size_t(k)];
      if (std::hypot(p.x - t.x_m, p.y - t.y_m) > g) return;
      ++near;
      for_near_x(vo, vx, p.x, widest, [&](int o) {
        const sim::VesselTruth& w = truth[size_t(o)];
        if (size_t(o) != i && std::hypot(p.x - w.x_m, p.y - w.y_m) <= gate(w)) shared = true;
      });
    });
    bool tentative = false;
    for_near_x(to, tx, t.x_m, g, [&](int k) {
      const ScoredTrack& tr = tracks[size_t(k)];
      if (!tr.confirmed && std::hypot(tr.x_m - t.x_m, tr.y_m - t.y_m) <= g) tentative = true;
    });
    v.tentative += tentative ? 1 : 0;
    v.window.push_back(uint8_t(near == 0 ? 0 : shared ? 1 : near > 1 ? 2 : 3));
  }
  (void)s;
}

TrackScorer::Result::LateVessel TrackScorer::late_vessel(int id, const Vessel& v) const {
  Result::LateVessel l;
  l.id = id;
  l.range_m = v.range_m;
  l.scr_db = v.scr_db;
  l.scans = int(v.window.size());
  l.tentative = v.tentative;
  l.neighbour_m = std::isfinite(v.neighbour_m) ? v.neighbour_m : 0.0;
  for (uint8_t c : v.window) ++(c == 0 ? l.none : c == 1 ? l.shared : c == 2 ? l.split : l.clean);
  // Whether some confirm_window scans held confirm_hits of the categories from `min_cat` up.
  constexpr int kWindow = 5, kHits = 3;
  auto supported = [&](uint8_t min_cat) {
    for (size_t a = 0; a < v.window.size(); ++a) {
      int hits = 0;
      for (size_t k = a; k < std::min(v.window.size(), a + kWindow); ++k)
        hits += v.window[k] >= min_cat ? 1 : 0;
      if (hits >= kHits) return true;
    }
    return false;
  };
  l.cause = supported(3) ? "tracking" : supported(2) ? "split" : supported(1) ? "merged" : "missed";
  return l;
}

TrackScorer::Result TrackScorer::result() const {
  Result r = r_;
  r.rotations = scored_;
  r.seconds = scored_ * period_s_;
  std::vector<double> scans;
  int64_t with_id = 0;
  for (const auto& [id, v] : vessels_) {
    with_id += v.detectable_with_id;
    if (v.appear < 0) continue;
    const int64_t waited = v.confirmed >= 0 ? std::max<int64_t>(0, v.confirmed - v.appear) : -1;
    const bool in_time = waited >= 0 && waited <= tg_.confirm_scans;
    // A vessel that appeared too late to have had confirm_scans scans is judged only when it
    // was confirmed in time.
    if (!in_time && v.appear + tg_.confirm_scans > int64_t(scored_) - 1) continue;
    ++r.judged;
    if (in_time) {
      ++r.confirmed_in_time;
      scans.push_back(double(waited));
    } else {
      r.late.push_back(id);
      r.late_detail.push_back(late_vessel(id, v));
      const std::string& c = r.late_detail.back().cause;
      ++(c == "tracking" ? r.late_tracking
         : c == "split"  ? r.late_split
         : c == "merged" ? r.late_merged
                         : r.late_missed);
    }
  }
  r.confirmed_pct = r.judged > 0 ? 100.0 * r.confirmed_in_time / r.judged : 100.0;
  r.scans_median = percentile(scans, 50);
  r.scans_p95 = percentile(scans, 95);
  r.scans_max = scans.empty() ? std::numeric_limits<double>::quiet_NaN()
                              : *std::max_element(scans.begin(), scans.end());
  r.false_per_10min = r.seconds > 0 ? r.false_tracks / r.seconds * 600 : 0;
  r.track_hours = double(with_id) * period_s_ / 3600;
  r.events_per_track_hour =
      r.track_hours > 0 ? double(r.id_changes + r.id_losses) / r.track_hours : 0;
  if (!r.gospa_per_scan.empty()) {
    const double n = double(r.gospa_per_scan.size());
    r.gospa_mean_m = std::accumulate(r.gospa_per_scan.begin(), r.gospa_per_scan.end(), 0.0) / n;
    r.gospa_max_m = *std::max_element(r.gospa_per_scan.begin(), r.gospa_per_scan.end());
    r.gospa_missed_mean = std::accumulate(gospa_missed_.begin(), gospa_missed_.end(), 0.0) / n;
    r.gospa_false_mean = std::accumulate(gospa_false_.begin(), gospa_false_.end(), 0.0) / n;
    r.gospa_loc_rms_m =
        gospa_pairs_ > 0 ? std::pow(gospa_loc_sum_ / gospa_pairs_, 1 / tg_.gospa_p) : 0.0;
  }
  auto check = [](const char* name, double value, double limit, bool at_least) {
    Result::Check c{name, value, limit, at_least, false};
    c.pass = !std::isnan(value) && (at_least ? value >= limit : value <= limit);
    return c;
  };
  r.targets = {
      check("confirmed within 10 scans (%)", r.confirmed_pct, tg_.confirmed_within_pct, true),
      check("false confirmed tracks per 10 min", r.false_per_10min, tg_.false_per_10min, false),
      check("id changes + losses per track-hour", r.events_per_track_hour,
            tg_.id_events_per_track_hour, false),
  };
  r.pass = scored_ > 0 && std::all_of(r.targets.begin(), r.targets.end(),
                                      [](const Result::Check& c) { return c.pass; });
  return r;
}

namespace {

nlohmann::ordered_json false_detail_json(const std::vector<TrackScorer::Result::FalseTrack>& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& f : v)
    a.push_back({{"id", f.id},
                 {"x_m", std::round(f.x_m)},
                 {"y_m", std::round(f.y_m)},
                 {"range_m", std::round(f.range_m)},
                 {"speed_kn", std::round(f.speed_kn * 10) / 10},
                 {"scans", f.scans},
                 {"nearest_vessel", f.nearest_vessel},
                 {"nearest_m", std::round(f.nearest_m)},
                 {"nearest_length_m", std::round(f.nearest_length_m)}});
  return a;
}

}  // namespace

nlohmann::ordered_json track_result_json(const TrackScorer::Result& r, const TrackTargets& tg,
                                         const TrackGates& gates) {
  auto number = [](double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  j["rotations"] = r.rotations;
  j["seconds"] = r.seconds;
  j["gate"] = {{"min_m", gates.min_m}, {"rule", "max(min_m, hull length), nearest first"}};
  j["confirm"] = {{"within_scans", tg.confirm_scans},         {"judged", r.judged},
                  {"confirmed_in_time", r.confirmed_in_time}, {"pct", r.confirmed_pct},
                  {"scans_median", number(r.scans_median)},   {"scans_p95", number(r.scans_p95)},
                  {"scans_max", number(r.scans_max)},         {"late_ids", r.late}};
  nlohmann::ordered_json late = nlohmann::ordered_json::array();
  for (const auto& l : r.late_detail)
    late.push_back({{"id", l.id},
                    {"range_m", std::round(l.range_m)},
                    {"scr_db", std::round(l.scr_db * 10) / 10},
                    {"scans", l.scans},
                    {"no_plot", l.none},
                    {"shared_plot", l.shared},
                    {"split_plots", l.split},
                    {"clean_plot", l.clean},
                    {"tentative", l.tentative},
                    {"neighbour_m", std::round(l.neighbour_m)},
                    {"cause", l.cause}});
  j["confirm"]["late_causes"] = {{"missed", r.late_missed},
                                 {"merged", r.late_merged},
                                 {"split", r.late_split},
                                 {"tracking", r.late_tracking}};
  j["confirm"]["late_detail"] = late;
  j["false_tracks"] = {{"after_scans", tg.false_after_scans},
                       {"count", r.false_tracks},
                       {"per_10min", r.false_per_10min},
                       {"per_hour", r.false_per_10min * 6},
                       {"ids", r.false_ids},
                       {"detail", false_detail_json(r.false_detail)}};
  j["continuity"] = {{"id_changes", r.id_changes},
                     {"id_losses", r.id_losses},
                     {"track_hours", r.track_hours},
                     {"events_per_track_hour", r.events_per_track_hour}};
  j["gospa"] = {{"c_m", tg.gospa_c_m},
                {"p", tg.gospa_p},
                {"alpha", 2},
                {"mean_m", r.gospa_mean_m},
                {"max_m", r.gospa_max_m},
                {"missed_mean", r.gospa_missed_mean},
                {"false_mean", r.gospa_false_mean},
                {"localisation_rms_m", r.gospa_loc_rms_m},
                {"per_scan_m", r.gospa_per_scan}};
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const auto& c : r.targets)
    targets.push_back({{"target", c.name},
                       {"value", number(c.value)},
                       {"limit", c.limit},
                       {"at_least", c.at_least},
                       {"pass", c.pass}});
  j["targets"] = targets;
  j["pass"] = r.pass;
  return j;
}

}  // namespace sweepline::eval
