#include "app/eval/imo_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>

#include "app/common/check.hpp"
#include "app/engine/track_feed.hpp"
#include "app/eval/chart.hpp"
#include "app/eval/eval_run.hpp"
#include "app/eval/report_format.hpp"
#include "app/eval/scorecard.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/sim/sensor_errors.hpp"

namespace sweepline::eval {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr double kKnot = 1852.0 / 3600.0;
constexpr double kNm = 1852.0;
constexpr double kInf = std::numeric_limits<double>::infinity();
// The 1-minute rows' definition point (sim::kImoPredictionS is the 3-minute rows').
constexpr double kImoOneMinuteS = 60;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  return d < 0 ? d + 360.0 : d;
}

double course_of(double vx, double vy) {
  return wrap360(std::atan2(vx, vy) / kDeg);
}

// The truth's six quantities at t_s: own ship and target on their tracks.
ImoValues truth_at(sim::OwnShipTrack& own_track, const sim::GroundTarget& g, double t_s) {
  const sim::OwnState own = own_track.at(t_s);
  const double rx = g.x_at(t_s) - own.x_m, ry = g.y_at(t_s) - own.y_m;
  const double rvx = g.vx_mps - own.vx_mps(), rvy = g.vy_mps - own.vy_mps();
  const sim::Cpa c = sim::closest_approach(rx, ry, rvx, rvy);
  const double rel_speed = std::hypot(rvx, rvy);
  ImoValues v;
  v[size_t(ImoQuantity::RelCourse)] = rel_speed > 0 ? course_of(rvx, rvy) : kNaN;
  v[size_t(ImoQuantity::RelSpeed)] = rel_speed / kKnot;
  v[size_t(ImoQuantity::Cpa)] = c.cpa_m / kNm;
  v[size_t(ImoQuantity::Tcpa)] = c.tcpa_s / 60;
  v[size_t(ImoQuantity::TrueCourse)] = g.speed_mps() > 0 ? g.course_deg() : kNaN;
  v[size_t(ImoQuantity::TrueSpeed)] = g.speed_mps() / kKnot;
  return v;
}

// Linear-interpolation percentile (scorecard.hpp's) where values may be +inf (a seed without a
// track): a rank that touches one is infinite.
double percentile_inf(std::vector<double> v, double p) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * double(v.size() - 1);
  const size_t i = size_t(pos);
  const double f = pos - double(i);
  if (std::isinf(v[i])) return kInf;
  if (i + 1 >= v.size() || f == 0) return v[i];
  if (std::isinf(v[i + 1])) return kInf;
  return v[i] + f * (v[i + 1] - v[i]);
}

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  return percentile(std::move(v), 50);
}

}  // namespace

namespace {

// Per quantity, in enum order: its name, unit and JSON key.
struct QuantityInfo {
  const char* name;
  const char* unit;
  const char* key;
};
constexpr QuantityInfo kQuantityInfo[kImoQuantities] = {
    {"relative course", "deg", "rel_course_deg"},
    {"relative speed", "kn", "rel_speed_kn"},
    {"CPA", "NM", "cpa_nm"},
    {"TCPA", "min", "tcpa_min"},
    {"true course", "deg", "course_deg"},
    {"true speed", "kn", "speed_kn"},
};

const QuantityInfo& info(ImoQuantity q) {
  return kQuantityInfo[static_cast<int>(q)];
}

}  // namespace

const char* to_string(ImoQuantity q) {
  return info(q).name;
}

const char* unit_of(ImoQuantity q) {
  return info(q).unit;
}

const char* key_of(ImoQuantity q) {
  return info(q).key;
}

const std::vector<ImoLimit>& imo_limits() {
  static const std::vector<ImoLimit> table = {
      {ImoQuantity::RelCourse, 1, 11, 0},  {ImoQuantity::RelSpeed, 1, 1.5, 10},
      {ImoQuantity::Cpa, 1, 1.0, 0},       {ImoQuantity::RelCourse, 3, 3, 0},
      {ImoQuantity::RelSpeed, 3, 0.8, 1},  {ImoQuantity::Cpa, 3, 0.3, 0},
      {ImoQuantity::Tcpa, 3, 0.5, 0},      {ImoQuantity::TrueCourse, 3, 5, 0},
      {ImoQuantity::TrueSpeed, 3, 0.5, 1},
  };
  return table;
}

double imo_limit_value(const ImoLimit& l, double truth) {
  const double rel = std::isfinite(truth) ? l.percent / 100 * std::abs(truth) : 0.0;
  return std::max(l.limit, rel);
}

ImoValues imo_errors(const ImoValues& est, const ImoValues& truth) {
  ImoValues e;
  for (int q = 0; q < kImoQuantities; ++q) {
    const double d = est[size_t(q)] - truth[size_t(q)];
    const bool course = q == int(ImoQuantity::RelCourse) || q == int(ImoQuantity::TrueCourse);
    e[size_t(q)] = course ? std::abs(bearing_diff(est[size_t(q)], truth[size_t(q)])) : std::abs(d);
    if (course && std::isnan(truth[size_t(q)])) e[size_t(q)] = kNaN;
  }
  return e;
}

engine::RadarAccuracy imo_plot_accuracy(const sim::SensorErrors& e, const sim::RadarConfig& radar) {
  engine::PlotErrors pe;
  pe.azimuth_step_deg = radar.radial_deg();
  pe.range_step_m = radar.cell_m();
  if (e.enabled) {
    pe.beam_sigma_deg = e.beam_sigma_deg;
    pe.encoder_sigma_deg = e.encoder_sigma_deg;
    pe.backlash_deg = e.backlash_deg;
    pe.gyro_sigma_deg = e.gyro_sigma_deg;
    pe.roll_deg = e.roll_deg;
    pe.range_sigma_m = e.range_sigma_m;
    pe.glint_along_m = e.glint_along_m;
    pe.glint_across_m = e.glint_across_m;
  } else {
    pe.beam_sigma_deg = pe.encoder_sigma_deg = pe.backlash_deg = pe.gyro_sigma_deg = 0;
    pe.roll_deg = pe.range_sigma_m = pe.glint_along_m = pe.glint_across_m = 0;
  }
  return engine::plot_accuracy(pe);
}

PlotSigmas imo_plot_sigmas(const sim::SensorErrors& e, const sim::RadarConfig& radar,
                           double range_m) {
  const engine::RadarAccuracy a = imo_plot_accuracy(e, radar);
  return {a.range_sigma_m, engine::plot_bearing_sigma_deg(a, range_m)};
}

track::TrackPlot imo_track_plot(const sim::ImoMeasurement& m, const PlotSigmas& s) {
  track::TrackPlot p;
  p.time_s = m.t_s;
  p.range_m = m.range_m;
  p.bearing_deg = wrap360(m.rel_bearing_deg + m.nav_heading_deg);
  p.x_m = m.nav_x_m + m.range_m * std::sin(p.bearing_deg * kDeg);
  p.y_m = m.nav_y_m + m.range_m * std::cos(p.bearing_deg * kDeg);
  p.range_sigma_m = s.range_m;
  p.bearing_sigma_deg = s.bearing_deg;
  return p;
}

track::TrackPlot imo_track_plot(const sim::ImoMeasurement& m, const sim::Scenario& s) {
  return imo_track_plot(m, imo_plot_sigmas(s.errors, s.radar, m.range_m));
}

track::OwnShip imo_own_ship(const sim::ImoMeasurement& m) {
  track::OwnShip o;
  o.valid = true;
  o.time_s = m.t_s;
  o.x_m = m.nav_x_m;
  o.y_m = m.nav_y_m;
  o.course_deg = m.nav_cog_deg;
  o.speed_mps = m.nav_sog_mps;
  o.heading_deg = m.nav_heading_deg;
  return o;
}

ImoValues imo_track_values(const track::Track& t) {
  ImoValues v;
  v[size_t(ImoQuantity::RelCourse)] = t.rel_course_deg;
  v[size_t(ImoQuantity::RelSpeed)] = t.rel_speed_mps / kKnot;
  v[size_t(ImoQuantity::Cpa)] = t.cpa_m / kNm;
  v[size_t(ImoQuantity::Tcpa)] = t.tcpa_s / 60;
  v[size_t(ImoQuantity::TrueCourse)] = t.course_deg;
  v[size_t(ImoQuantity::TrueSpeed)] = t.speed_mps / kKnot;
  return v;
}

namespace {

// A track is the target's when it first appears this close to the target's true position.
constexpr double kLinkGateM = 500;

// Samples one seed's track after every tracker update: links the target's track, records the
// 1- and 3-minute samples and, at scan ends, the series.
class ImoSampler {
 public:
  ImoSampler(ImoSeedRun& run, sim::OwnShipTrack& own, const sim::GroundTarget& target)
      : run_(run), own_(own), target_(target) {}

  // now_s: seconds from the run's start; run_.first_plot_s must be set once a target plot was
  // fed.
  void after_update(double now_s, const std::vector<track::Track>& tracks, bool scan_end) {
    if (!run_.acquired) {
      for (const track::Track& t : tracks)
        if (std::hypot(t.x_m - target_.x_at(now_s), t.y_m - target_.y_at(now_s)) <= kLinkGateM) {
          run_.acquired = true;
          run_.track_id = t.id;
          break;
        }
    }
    if (!run_.acquired) return;
    ImoSample smp;
    smp.time_s = now_s;
    smp.since_s = now_s - run_.first_plot_s;
    smp.truth = truth_at(own_, target_, now_s);
    smp.estimate.fill(kNaN);
    smp.error.fill(kNaN);
    for (const track::Track& t : tracks) {
      if (t.id != run_.track_id) continue;
      smp.status = t.status;
      if (t.status == track::Track::Status::Tracked && run_.confirmed_s < 0)
        run_.confirmed_s = now_s;
      if (t.status != track::Track::Status::Acquiring) {
        smp.tracked = true;
        smp.estimate = imo_track_values(t);
        smp.error = imo_errors(smp.estimate, smp.truth);
      }
    }
    constexpr double kAt[2] = {60, 180};
    for (int a = 0; a < 2; ++a)
      if (!have_at_[a] && smp.since_s >= kAt[a] - 1e-9) {
        run_.at[size_t(a)] = smp;
        have_at_[a] = true;
      }
    if (scan_end) run_.series.push_back(smp);
  }
  bool done() const { return have_at_[1]; }

 private:
  ImoSeedRun& run_;
  sim::OwnShipTrack& own_;
  const sim::GroundTarget& target_;
  bool have_at_[2] = {false, false};
};

}  // namespace

ImoSeedRun run_imo_seed(const sim::Scenario& scenario, uint64_t seed, const ImoConfig& cfg) {
  SWL_CHECK(cfg.sectors >= 1 && cfg.sectors <= 360, "imo: sectors must be 1..360");
  SWL_CHECK(cfg.track_s > 0, "imo: tracking time must be positive");
  sim::Scenario s = scenario;
  s.seed = seed;
  const double period = s.radar.period_s();
  // Scan 0 holds the first plot; two more scans cover the 3-minute point's call and the series.
  const std::vector<sim::ImoMeasurement> ms =
      sim::imo_measurements(s, seed, cfg.track_s + 2 * period);
  sim::OwnShipTrack own_track(s.own);
  const std::vector<sim::GroundTarget> targets = sim::resolve_targets(s, own_track);
  SWL_CHECK(!targets.empty(), "imo: scenario '" + s.name + "' has no relative target");
  const sim::GroundTarget& target = targets.front();
  ImoSeedRun run;
  run.seed = seed;
  ImoSampler sampler(run, own_track, target);
  track::Tracker tracker(cfg.params);
  std::vector<track::Track> tracks;
  std::vector<track::TrackPlot> plots;
  bool any_plot = false;
  double prev_to = 0;
  bool first_call = true;
  // The target's plots in time order: each is fed in the call whose sweep interval holds its
  // time. A plot measured just west of a target dead ahead is swept a moment before its scan's
  // start, so it belongs to the end of the scan before (sim::observe_target).
  std::vector<const sim::ImoMeasurement*> own_plots;
  for (const sim::ImoMeasurement& m : ms)
    if (m.target_id == target.id) own_plots.push_back(&m);
  std::stable_sort(
      own_plots.begin(), own_plots.end(),
      [](const sim::ImoMeasurement* a, const sim::ImoMeasurement* b) { return a->t_s < b->t_s; });
  size_t next_plot = 0;
  size_t i = 0;
  track::OwnShip own;
  double heading = 0;
  const uint64_t scans = ms.empty() ? 0 : ms.back().scan + 1;
  for (uint64_t scan = 0; scan < scans; ++scan) {
    size_t j = i;
    while (j < ms.size() && ms[j].scan == scan) ++j;
    // One navigation reading per scan (at the target's plot); the tracker carries it over the
    // scan along its course and speed. A scan without a plot (sim::imo_measurements keeps one
    // plot per meeting of beam and target) keeps the last reading.
    if (j > i) {
      own = imo_own_ship(ms[i]);
      heading = ms[i].nav_heading_deg;
    }
    const double scan_start = double(scan) * period;
    for (int k = 1; k <= cfg.sectors; ++k) {
      const double lo = 360.0 * (k - 1) / cfg.sectors, hi = 360.0 * k / cfg.sectors;
      const double now = scan_start + period * k / cfg.sectors;
      plots.clear();
      for (; next_plot < own_plots.size() && own_plots[next_plot]->t_s < now; ++next_plot) {
        plots.push_back(imo_track_plot(*own_plots[next_plot], s));
        if (!any_plot) {
          run.first_plot_s = own_plots[next_plot]->t_s;
          any_plot = true;
        }
      }
      // The sweep in true bearings; each call starts where the previous one ended, so that a
      // new heading reading opens no gap (an unobserved sector) and no overlap.
      const double to = wrap360(heading + hi);
      const double from = first_call ? wrap360(heading + lo) : prev_to;
      tracker.update(plots, from, to, now, own);
      first_call = false;
      prev_to = to;
      tracker.tracks(tracks);
      if (any_plot) sampler.after_update(now, tracks, k == cfg.sectors);
    }
    i = j;
    if (sampler.done() && scan_start > run.first_plot_s + cfg.track_s) break;
  }
  run.tracks_started = int(tracker.stats().tracks_started);
  return run;
}

ImoSeedRun run_imo_video_seed(const sim::Scenario& scenario, uint64_t seed, gpu::Pipeline& pipeline,
                              const gpu::PipelineParams& params, const ImoConfig& cfg) {
  sim::Scenario s = scenario;
  s.seed = seed;
  const double period = s.radar.period_s();
  sim::OwnShipTrack own_track(s.own);
  const std::vector<sim::GroundTarget> targets = sim::resolve_targets(s, own_track);
  SWL_CHECK(!targets.empty(), "imo: scenario '" + s.name + "' has no relative target");
  const sim::GroundTarget& target = targets.front();
  ImoSeedRun run;
  run.seed = seed;
  ImoSampler sampler(run, own_track, target);
  track::Tracker tracker(cfg.params);
  std::vector<track::Track> tracks;
  std::vector<track::TrackPlot> plots;
  auto feed = scene_feed(s);
  gpu::PipelineParams p = params;
  p.label_enabled = true;
  FrameWithTruth in;
  bool any_plot = false;
  const int rotations = int(std::ceil((cfg.track_s + 2 * period) / period)) + 1;
  for (int r = 0; r < rotations && feed->next(in); ++r) {
    pipeline.process(in.frame, p);
    const gpu::FrameResult& res = pipeline.result();
    track_rotation(tracker, in, res, s.radar, tracks, plots);
    if (!any_plot)
      for (const track::TrackPlot& tp : plots) {
        const double t = tp.time_s - sim::kSimEpoch;
        if (std::hypot(tp.x_m - target.x_at(t), tp.y_m - target.y_at(t)) <= kLinkGateM) {
          run.first_plot_s = any_plot ? std::min(run.first_plot_s, t) : t;
          any_plot = true;
        }
      }
    const double now =
        engine::frame_latest_time(in.frame).value_or(in.truth_time_s) - sim::kSimEpoch;
    if (any_plot) sampler.after_update(now, tracks, true);
    if (sampler.done() && now > run.first_plot_s + cfg.track_s + period) break;
  }
  run.tracks_started = int(tracker.stats().tracks_started);
  return run;
}

ImoScenarioResult score_imo(const std::string& name, const std::vector<ImoSeedRun>& runs) {
  ImoScenarioResult r;
  r.name = name;
  r.label = "plot level";
  r.seeds = int(runs.size());
  if (!runs.empty()) {
    r.seed_first = runs.front().seed;
    r.seed_last = runs.back().seed;
  }
  double started = 0;
  std::vector<double> confirm;
  for (const ImoSeedRun& s : runs) {
    r.acquired += s.acquired;
    started += s.tracks_started;
    if (s.confirmed_s >= 0) confirm.push_back(s.confirmed_s - s.first_plot_s);
  }
  r.tracks_started_mean = runs.empty() ? 0 : started / double(runs.size());
  r.confirm_s_median = percentile(confirm, 50);
  r.pass = !runs.empty();
  for (const ImoLimit& l : imo_limits()) {
    ImoRow row;
    row.spec = l;
    const size_t a = l.minutes == 1 ? 0 : 1, q = size_t(l.quantity);
    std::vector<double> err, abs_err, truth;
    for (const ImoSeedRun& s : runs) {
      const ImoSample& smp = s.at[a];
      if (s.acquired) truth.push_back(smp.truth[q]);
      if (!s.acquired || !smp.tracked || std::isnan(smp.error[q])) {
        ++row.missing;
        err.push_back(kInf);
        continue;
      }
      ++row.samples;
      err.push_back(smp.error[q]);
      abs_err.push_back(smp.error[q]);
    }
    row.truth = median(truth);
    row.limit = imo_limit_value(l, row.truth);
    row.p95 = percentile_inf(err, 95);
    row.median = percentile_inf(err, 50);
    row.margin = row.p95 / row.limit;
    row.pass = std::isfinite(row.p95) && row.p95 <= row.limit;
    r.pass = r.pass && row.pass;
    r.rows.push_back(row);
  }
  // The series: scan j after the first plot's scan, over the seeds that reach it.
  size_t n = 0;
  for (const ImoSeedRun& s : runs) n = std::max(n, s.series.size());
  for (size_t j = 0; j < n; ++j) {
    std::vector<double> since;
    std::array<std::vector<double>, kImoQuantities> err;
    for (const ImoSeedRun& s : runs) {
      if (j >= s.series.size()) continue;
      const ImoSample& smp = s.series[j];
      since.push_back(smp.since_s);
      for (size_t q = 0; q < size_t(kImoQuantities); ++q)
        err[q].push_back(smp.tracked && !std::isnan(smp.error[q]) ? smp.error[q] : kInf);
    }
    r.series_s.push_back(percentile(since, 50));
    for (size_t q = 0; q < size_t(kImoQuantities); ++q)
      r.series_p95[q].push_back(percentile_inf(err[q], 95));
  }
  return r;
}

ImoSeedRun imo_seed_as_scored(const sim::Scenario& scenario,
                              const std::function<ImoSeedRun(const sim::Scenario&)>& run) {
  auto defined_at = [&](double at_s) {
    sim::Scenario s = scenario;
    for (sim::RelativeTarget& t : s.targets) t.at_s = at_s;
    return s;
  };
  const ImoSeedRun one = run(defined_at(kImoOneMinuteS));
  ImoSeedRun out = run(defined_at(sim::kImoPredictionS));
  out.at[0] = one.at[0];
  out.tracks_started = std::max(out.tracks_started, one.tracks_started);
  return out;
}

ImoScenarioResult evaluate_imo(const sim::Scenario& scenario, uint64_t first, uint64_t last,
                               const ImoConfig& cfg,
                               const std::function<void(uint64_t, const ImoSeedRun&)>& progress) {
  SWL_CHECK(first <= last, "imo: empty seed range");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ImoSeedRun> runs;
  for (uint64_t seed = first;; ++seed) {
    runs.push_back(imo_seed_as_scored(
        scenario, [&](const sim::Scenario& s) { return run_imo_seed(s, seed, cfg); }));
    if (progress) progress(seed, runs.back());
    if (seed == last) break;
  }
  ImoScenarioResult r = score_imo(scenario.name, runs);
  const auto& t = scenario.targets;
  r.sigmas = imo_plot_sigmas(scenario.errors, scenario.radar, t.empty() ? 0.0 : t.front().range_m);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string imo_table(const std::vector<ImoScenarioResult>& results) {
  std::string out;
  appendf(out, "%-10s %-15s %5s %-16s %-4s %9s %9s %8s %8s %7s  %s\n", "scenario", "level", "after",
          "quantity", "unit", "p95", "median", "limit", "margin", "missing", "result");
  for (const ImoScenarioResult& r : results) {
    for (const ImoRow& row : r.rows) {
      char after[16];
      std::snprintf(after, sizeof after, "%d min", row.spec.minutes);
      appendf(out, "%-10s %-15s %5s %-16s %-4s %9s %9s %8s %8s %7d  %s\n", r.name.c_str(),
              r.label.c_str(), after, to_string(row.spec.quantity), unit_of(row.spec.quantity),
              num(row.p95, 3).c_str(), num(row.median, 3).c_str(), num(row.limit, 2).c_str(),
              num(row.margin, 2).c_str(), row.missing, row.pass ? "PASS" : "FAIL");
    }
    appendf(out,
            "%-10s %-15s seeds %llu..%llu: %d/%d acquired, %.2f tracks started per seed, "
            "confirmed %s s after the first plot (median); plot sigmas %.1f m, %.3f deg (at the "
            "target's defined range): %s\n\n",
            r.name.c_str(), r.label.c_str(), (unsigned long long)r.seed_first,
            (unsigned long long)r.seed_last, r.acquired, r.seeds, r.tracks_started_mean,
            num(r.confirm_s_median, 1).c_str(), r.sigmas.range_m, r.sigmas.bearing_deg,
            r.pass ? "PASS" : "FAIL");
  }
  return out;
}

nlohmann::ordered_json imo_json(const ImoScenarioResult& r) {
  nlohmann::ordered_json j;
  j["scenario"] = r.name;
  j["level"] = r.label;
  j["seeds"] = {{"first", r.seed_first}, {"last", r.seed_last}, {"count", r.seeds}};
  j["acquired"] = r.acquired;
  j["tracks_started_mean"] = r.tracks_started_mean;
  j["confirm_s_median"] = number(r.confirm_s_median);
  j["plot_sigmas"] = {{"range_m", r.sigmas.range_m}, {"bearing_deg", r.sigmas.bearing_deg}};
  j["seconds"] = r.seconds;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const ImoRow& row : r.rows)
    rows.push_back({{"quantity", key_of(row.spec.quantity)},
                    {"after_min", row.spec.minutes},
                    {"unit", unit_of(row.spec.quantity)},
                    {"p95", number(row.p95)},
                    {"median", number(row.median)},
                    {"limit", row.limit},
                    {"limit_abs", row.spec.limit},
                    {"limit_pct", row.spec.percent},
                    {"truth", number(row.truth)},
                    {"margin", number(row.margin)},
                    {"samples", row.samples},
                    {"missing", row.missing},
                    {"pass", row.pass}});
  j["rows"] = rows;
  j["pass"] = r.pass;
  nlohmann::ordered_json series;
  series["since_first_plot_s"] = r.series_s;
  for (int q = 0; q < kImoQuantities; ++q) {
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    for (double x : r.series_p95[size_t(q)]) v.push_back(number(x));
    series[std::string(key_of(ImoQuantity(q))) + "_p95"] = v;
  }
  j["series"] = series;
  return j;
}

std::vector<uint8_t> imo_chart(const ImoScenarioResult& r, int& width, int& height) {
  constexpr int kPanelW = 440, kPanelH = 280, kCols = 3, kRows = 2, kTop = 40;
  constexpr int kLeft = 60, kRight = 16, kPanelTop = 28, kBottom = 36;
  width = kPanelW * kCols;
  height = kTop + kPanelH * kRows + 20;  // the legend below
  const Rgb bg{255, 255, 255}, ink{20, 20, 20}, grid{225, 225, 225}, curve{30, 90, 200},
      limit{210, 30, 30}, pass{20, 150, 40}, mark{140, 140, 140};
  Canvas c(width, height, bg);
  char title[200];
  std::snprintf(title, sizeof title,
                "%s %s: error (95th percentile over %d seeds) against time since the first plot",
                r.name.c_str(), r.label.c_str(), r.seeds);
  c.text(12, 12, title, ink, 2);
  const double t_max = r.series_s.empty() ? 210 : std::max(210.0, r.series_s.back());
  for (int q = 0; q < kImoQuantities; ++q) {
    const int px = (q % kCols) * kPanelW, py = kTop + (q / kCols) * kPanelH;
    const int x0 = px + kLeft, x1 = px + kPanelW - kRight;
    const int y0 = py + kPanelTop, y1 = py + kPanelH - kBottom;
    // The limits of this quantity (1 and 3 min), from the result's rows.
    double lim[2] = {kNaN, kNaN}, val[2] = {kNaN, kNaN};
    bool ok[2] = {false, false};
    for (const ImoRow& row : r.rows)
      if (int(row.spec.quantity) == q) {
        const int a = row.spec.minutes == 1 ? 0 : 1;
        lim[a] = row.limit;
        val[a] = row.p95;
        ok[a] = row.pass;
      }
    const double y_max = std::isfinite(lim[0]) ? 1.3 * lim[0] : 2 * lim[1];
    auto X = [&](double t) { return x0 + (x1 - x0) * t / t_max; };
    auto Y = [&](double v) { return y1 - (y1 - y0) * std::min(v, y_max) / y_max; };
    const double ystep = nice_step(y_max, 5);
    for (double v = 0; v <= y_max + 1e-9; v += ystep) {
      c.line(x0, Y(v), x1, Y(v), grid);
      char lab[32];
      std::snprintf(lab, sizeof lab, ystep < 0.1 ? "%.2f" : ystep < 1 ? "%.1f" : "%.0f", v);
      c.text(x0 - 6 - Canvas::text_width(lab), int(Y(v)) - 3, lab, ink);
    }
    for (int m = 0; m * 60 <= t_max; ++m) {
      c.line(X(m * 60), y0, X(m * 60), y1, grid);
      c.text(int(X(m * 60)) - 2, y1 + 6, std::to_string(m), ink);
    }
    c.text((x0 + x1) / 2 - 40, y1 + 20, "minutes", ink);
    c.line(x0, y0, x0, y1, ink);
    c.line(x0, y1, x1, y1, ink);
    char head[96];
    std::snprintf(head, sizeof head, "%s (%s)", to_string(ImoQuantity(q)), unit_of(ImoQuantity(q)));
    c.text(x0, py + 8, head, ink, 2);
    // 1 and 3 minutes, dashed; the limits from there on.
    c.line(X(60), y0, X(60), y1, mark, 1, 4);
    c.line(X(180), y0, X(180), y1, mark, 1, 4);
    if (std::isfinite(lim[0])) c.line(X(60), Y(lim[0]), X(180), Y(lim[0]), limit, 2);
    if (std::isfinite(lim[1])) c.line(X(180), Y(lim[1]), x1, Y(lim[1]), limit, 2);
    // The curve; values off the top (or with a seed untracked) run along the top edge.
    for (size_t j = 1; j < r.series_s.size(); ++j) {
      const double a = r.series_p95[size_t(q)][j - 1], b = r.series_p95[size_t(q)][j];
      if (std::isnan(a) || std::isnan(b)) continue;
      c.line(X(r.series_s[j - 1]), Y(a), X(r.series_s[j]), Y(b), curve, 2);
    }
    for (int a = 0; a < 2; ++a)
      if (std::isfinite(lim[a])) {
        const double t = a == 0 ? 60 : 180;
        const double v = std::isfinite(val[a]) ? val[a] : y_max;
        c.fill_rect(int(X(t)) - 4, int(Y(v)) - 4, int(X(t)) + 4, int(Y(v)) + 4,
                    ok[a] ? pass : limit);
      }
  }
  c.text(12, height - 14,
         "blue: 95th percentile error; red: IMO MSC.192(79) limit after 1 and 3 min; squares: the "
         "values in the table (green pass, red fail)",
         ink);
  return c.rgba();
}

}  // namespace sweepline::eval
