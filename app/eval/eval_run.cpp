#include "app/eval/eval_run.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <fstream>
#include <optional>
#include <span>

#include "app/common/check.hpp"
#include "app/engine/track_feed.hpp"
#include "app/nav/geodesy.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/source/source.hpp"

namespace sweepline::eval {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180;

// The radar still at the origin heading north, with a valid fix (so that tracks are over ground).
nav::OwnShipState still_at_origin(double t_s) {
  nav::OwnShipState o;
  o.valid = o.heading_valid = true;
  o.time_s = t_s;
  return o;
}

class SceneFeed : public FrameFeed {
 public:
  explicit SceneFeed(const sim::Scenario& s) : scene_(s) {}
  bool next(FrameWithTruth& out) override {
    if (started_) scene_.next_rotation();
    started_ = true;
    const auto& r = scene_.scenario().radar;
    out.frame.azimuths = r.radials;
    out.frame.range_bins = r.cells;
    out.frame.range_m = r.range_m();
    scene_.render_rotation(out.frame.cells);
    out.frame.dirty = {0, r.radials};
    out.frame.rotation = scene_.rotation();
    out.frame.sweep_azimuth_deg = 0;
    // When each radial was swept, on the clock the simulator's recordings carry, so that plots
    // are time-stamped (and correlated from scan to scan) as they are from a recording.
    const double period = r.period_s(), t0 = sim::kSimEpoch + double(scene_.rotation()) * period;
    out.frame.row_time_s.resize(size_t(r.radials));
    for (int a = 0; a < r.radials; ++a)
      out.frame.row_time_s[size_t(a)] = t0 + double(a) / r.radials * period;
    out.rotation = scene_.rotation();
    out.truth = scene_.truth();
    out.truth_time_s = t0;
    const sim::Scenario& s = scene_.scenario();
    out.own = s.own.enabled ? scene_navigation(s, s.seed, scene_.own_truth().state,
                                               double(scene_.rotation()) * period)
                            : still_at_origin(t0);
    return true;
  }

 private:
  sim::Scene scene_;
  bool started_ = false;
};

class CaptureFeed : public FrameFeed {
 public:
  CaptureFeed(const std::string& path, std::map<uint64_t, std::vector<sim::VesselTruth>> truth,
              const sweep::SweepConfig& cfg, std::map<uint64_t, sim::OwnTruth> own)
      : truth_(std::move(truth)), own_(std::move(own)), assembler_(cfg) {
    SourceOptions o;
    o.speed = 0;  // as fast as the file reads
    o.loop = false;
    source_ = open_source(path, o);
  }

  bool next(FrameWithTruth& out) override {
    while (!ended_) {
      if (held_.empty()) {
        std::vector<cat240::Record> recs;
        const bool alive = source_->poll(recs);
        for (auto& r : recs) held_.push_back(std::move(r));
        if (!alive && held_.empty()) {
          ended_ = true;
          assembler_.flush();
          return take(out, assembler_.counters().radials > taken_radials_);
        }
        continue;
      }
      cat240::Record rec = std::move(held_.front());
      held_.pop_front();
      if (rec.type == cat240::MessageType::Summary) {
        if (const auto pos = rec.summary.find("rotation="); pos != std::string::npos) {
          try {
            next_label_ = std::stoull(rec.summary.substr(pos + 9));
            have_summary_ = true;
          } catch (const std::exception&) {
            // Not the simulator's summary: numbering stays as it was.
          }
        }
        continue;
      }
      const uint64_t before = assembler_.counters().rotations;
      assembler_.add(rec);
      if (!have_label_) {
        label_ = have_summary_ ? next_label_ : before;
        have_label_ = true;
      }
      // The engine's rotation boundary: the radial that crossed north is already in the frame
      // (its first row), as in Engine::pump_rotation.
      if (assembler_.counters().rotations > before) {
        const uint64_t next = have_summary_ ? next_label_ : assembler_.counters().rotations;
        take(out, true);
        label_ = next;
        return true;
      }
    }
    return false;
  }

 private:
  bool take(FrameWithTruth& out, bool any) {
    if (!any) return false;
    assembler_.hand_off(out.frame);
    out.frame.dirty = {0, out.frame.azimuths};
    out.rotation = label_;
    out.frame.rotation = label_;
    auto it = truth_.find(label_);
    out.truth = it != truth_.end() ? it->second : std::vector<sim::VesselTruth>{};
    // The truth is at the rotation's start: the simulator's clock, or else the frame's first row.
    out.truth_time_s = !out.frame.row_time_s.empty() ? out.frame.row_time_s.front() : 0.0;
    auto own = own_.find(label_);
    if (own != own_.end()) {
      out.truth_time_s = sim::kSimEpoch + own->second.state.t_s;
      nav::OwnShipState o = still_at_origin(out.truth_time_s);
      o.x_m = own->second.state.x_m;
      o.y_m = own->second.state.y_m;
      o.course_deg = own->second.state.course_deg;
      o.heading_deg = own->second.state.heading_deg;
      o.speed_mps = own->second.state.speed_mps;
      o.vx_mps = o.speed_mps * std::sin(o.course_deg * kDeg);
      o.vy_mps = o.speed_mps * std::cos(o.course_deg * kDeg);
      out.own = o;
    } else {
      out.own = still_at_origin(out.truth_time_s);
    }
    taken_radials_ = assembler_.counters().radials;
    return true;
  }

  std::map<uint64_t, std::vector<sim::VesselTruth>> truth_;
  std::map<uint64_t, sim::OwnTruth> own_;
  std::unique_ptr<RecordSource> source_;
  sweep::SweepAssembler assembler_;
  std::deque<cat240::Record> held_;
  bool ended_ = false;
  bool have_summary_ = false, have_label_ = false;
  uint64_t next_label_ = 0, label_ = 0;
  uint64_t taken_radials_ = 0;
};

// Whether a truth position lies on the display image.
bool on_display(const sim::VesselTruth& t, const gpu::DisplayGeometry& g, int w, int h) {
  const double x = g.radar_x + t.range_m * std::sin(t.bearing_deg * kDeg) / g.metres_per_pixel;
  const double y = g.radar_y - t.range_m * std::cos(t.bearing_deg * kDeg) / g.metres_per_pixel;
  return x >= 0 && y >= 0 && x < w && y < h;
}

}  // namespace

std::unique_ptr<FrameFeed> scene_feed(const sim::Scenario& scenario) {
  return std::make_unique<SceneFeed>(scenario);
}

std::unique_ptr<FrameFeed> capture_feed(const std::string& path,
                                        std::map<uint64_t, std::vector<sim::VesselTruth>> truth,
                                        const sweep::SweepConfig& sweep,
                                        std::map<uint64_t, sim::OwnTruth> own) {
  return std::make_unique<CaptureFeed>(path, std::move(truth), sweep, std::move(own));
}

nav::OwnShipState scene_navigation(const sim::Scenario& s, uint64_t seed, const sim::OwnState& own,
                                   double t_s) {
  const sim::NavMeasurement m =
      sim::measure_nav(s.errors, seed, t_s, own.heading_deg, own.course_deg, own.speed_mps);
  nav::OwnShipState o;
  o.valid = o.heading_valid = true;
  o.time_s = sim::kSimEpoch + t_s;
  o.x_m = own.x_m;
  o.y_m = own.y_m;
  o.course_deg = m.cog_deg;
  o.speed_mps = m.sog_mps;
  o.heading_deg = m.heading_deg;
  o.vx_mps = m.sog_mps * std::sin(m.cog_deg * kDeg);
  o.vy_mps = m.sog_mps * std::cos(m.cog_deg * kDeg);
  const nav::LatLon ll =
      nav::LocalTangentPlane(s.own.lat_deg, s.own.lon_deg).to_geodetic(own.x_m, own.y_m);
  o.lat_deg = ll.lat_deg;
  o.lon_deg = ll.lon_deg;
  return o;
}

TruthFile read_truth(const std::string& path) {
  std::ifstream f(path);
  SWL_CHECK(f.good(), "eval: cannot open truth file '" + path + "'");
  TruthFile out;
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const auto j = nlohmann::json::parse(line);
      if (j.value("own", false)) {
        sim::OwnTruth o;
        o.rotation = j.at("rotation").get<uint64_t>();
        o.state.t_s = j.value("time_s", 0.0);
        o.state.x_m = j.at("x_m").get<double>();
        o.state.y_m = j.at("y_m").get<double>();
        o.state.heading_deg = j.value("heading_deg", 0.0);
        o.state.course_deg = j.value("course_deg", o.state.heading_deg);
        o.state.speed_mps = j.value("speed_mps", 0.0);
        o.lat_deg = j.value("lat_deg", 0.0);
        o.lon_deg = j.value("lon_deg", 0.0);
        SWL_CHECK(std::isfinite(o.state.x_m) && std::isfinite(o.state.y_m) &&
                      std::isfinite(o.state.heading_deg) && std::isfinite(o.state.course_deg) &&
                      std::isfinite(o.state.speed_mps) && o.state.speed_mps >= 0,
                  "a value out of range");
        out.own[o.rotation] = o;
        continue;
      }
      sim::VesselTruth t;
      t.rotation = j.at("rotation").get<uint64_t>();
      t.id = j.at("id").get<int>();
      t.range_m = j.at("range_m").get<double>();
      t.bearing_deg = j.at("bearing_deg").get<double>();
      t.x_m = j.value("x_m", 0.0);
      t.y_m = j.value("y_m", 0.0);
      t.length_m = j.value("length_m", 0.0);
      t.heading_deg = j.value("heading_deg", 0.0);
      t.speed_mps = j.value("speed_mps", 0.0);
      t.scr_db = j.value("scr_db", 0.0);
      SWL_CHECK(std::isfinite(t.range_m) && t.range_m >= 0 && std::isfinite(t.bearing_deg) &&
                    std::isfinite(t.length_m) && t.length_m >= 0 && std::isfinite(t.scr_db),
                "a value out of range");
      out.vessels[t.rotation].push_back(t);
    } catch (const std::exception& e) {
      throw Error("eval: truth file '" + path + "' line " + std::to_string(n) + ": " + e.what());
    }
  }
  SWL_CHECK(!out.vessels.empty(), "eval: truth file '" + path + "' holds no vessel");
  return out;
}

std::map<uint64_t, std::vector<sim::VesselTruth>> read_truth_file(const std::string& path) {
  return read_truth(path).vessels;
}

void track_rotation(track::Tracker& tracker, const FrameWithTruth& in,
                    const gpu::FrameResult& result, const sim::RadarConfig& radar,
                    std::vector<track::Track>& tracks, std::vector<track::TrackPlot>& plots) {
  gpu::PlotParams pp;
  pp.beamwidth_deg = radar.beamwidth_deg;
  pp.pulse_m = radar.pulse_m;
  const engine::RadarAccuracy acc =
      engine::radar_accuracy(pp, in.frame.azimuths, in.frame.range_bins, in.frame.range_m);
  plots.clear();
  plots.reserve(result.plots.size());
  for (const gpu::Plot& p : result.plots) plots.push_back(engine::to_track_plot(p, in.own, acc));
  std::stable_sort(
      plots.begin(), plots.end(),
      [](const track::TrackPlot& a, const track::TrackPlot& b) { return a.time_s < b.time_s; });
  // The sweep in true bearings, with the rotation's one heading.
  const engine::SweepSector rel = engine::frame_sector(in.frame);
  const double heading = in.own.heading_valid ? in.own.heading_deg : 0.0;
  const double t1 = engine::frame_latest_time(in.frame).value_or(in.truth_time_s);
  const double t0 = std::min(engine::frame_earliest_time(in.frame).value_or(t1), t1);
  const track::OwnShip own = engine::to_track_own_ship(in.own);
  if (!rel.full) {
    const engine::SweepSector sec = engine::true_sector(rel, heading, heading);
    if (!sec.empty) tracker.update(plots, sec.from_deg, sec.to_deg, t1, own);
    tracker.tracks(tracks);
    return;
  }
  // A whole rotation is fed in sectors, each with the plots the sweep has left by its end, as
  // the console's frames feed it (a call of a whole rotation sweeps the bearing where calls meet
  // twice: docs/tracking-internals.md, "Feeding and scans").
  const std::span<const track::TrackPlot> all(plots);
  std::size_t next = 0;
  for (int k = 1; k <= kTrackCallsPerRotation; ++k) {
    const double lo = rel.to_deg + 360.0 * (k - 1) / kTrackCallsPerRotation;
    const double hi = rel.to_deg + 360.0 * k / kTrackCallsPerRotation;
    const double now = t0 + (t1 - t0) * k / kTrackCallsPerRotation;
    std::size_t end = next;
    while (end < all.size() && (k == kTrackCallsPerRotation || all[end].time_s < now)) ++end;
    tracker.update(all.subspan(next, end - next), std::fmod(lo + heading + 720.0, 360.0),
                   std::fmod(hi + heading + 720.0, 360.0), now, own);
    next = end;
  }
  tracker.tracks(tracks);
}

std::vector<ScoredTrack> scored_tracks(const std::vector<track::Track>& tracks, double t_s) {
  std::vector<ScoredTrack> out;
  out.reserve(tracks.size());
  for (const track::Track& t : tracks) {
    const double dt = t_s - t.time_s;
    out.push_back({t.id, t.x_m + t.vx_mps * dt, t.y_m + t.vy_mps * dt,
                   t.status == track::Track::Status::Tracked, t.speed_mps, t.range_m, t.scans});
  }
  return out;
}

SceneRun evaluate(const std::string& name, const sim::RadarConfig& radar, FrameFeed& feed,
                  gpu::Pipeline& pipeline, const RunConfig& cfg) {
  const auto t0 = std::chrono::steady_clock::now();
  SceneRun run;
  run.name = name;
  run.radar = radar;
  gpu::PipelineParams params = cfg.params;
  params.label_enabled = true;
  const int total = cfg.warmup + cfg.rotations;
  std::optional<track::Tracker> tracker;
  std::optional<TrackScorer> scorer;
  if (cfg.track) {
    tracker.emplace(cfg.tracker);
    scorer.emplace(cfg.track_targets, cfg.track_gates, radar.period_s());
    run.tracked = true;
  }
  std::vector<track::Track> tracks;
  std::vector<track::TrackPlot> plots;
  std::vector<Point2> plot_points;
  FrameWithTruth in;
  for (int i = 0; i < total; ++i) {
    if (!feed.next(in)) break;
    pipeline.process(in.frame, params);
    const gpu::FrameResult& res = pipeline.result();
    const bool scored = i >= cfg.warmup;
    DetectionKind kind = DetectionKind::Components;
    std::vector<Detection> dets = detections(res, &kind);
    const gpu::DisplayGeometry g = gpu::display_geometry(params, in.frame);
    std::vector<sim::VesselTruth> truth;
    truth.reserve(in.truth.size());
    int off = 0;
    for (const auto& t : in.truth) {
      if (on_display(t, g, params.width, params.height))
        truth.push_back(t);
      else
        ++off;
    }
    RotationMatch m = match_rotation(dets, truth, cfg.gates);
    RotationScore s = score_rotation(in.rotation, m, truth, int(dets.size()));
    if (tracker) {
      track_rotation(*tracker, in, res, radar, tracks, plots);
      if (cfg.on_tracks) cfg.on_tracks(i, in, tracks);
      plot_points.clear();
      for (const track::TrackPlot& p : plots) plot_points.push_back({p.x_m, p.y_m});
      scorer->add_rotation(in.rotation, scored, scored_tracks(tracks, in.truth_time_s), truth,
                           plot_points);
      run.tracks_live_end = int(tracks.size());
      run.tracks_confirmed_end = int(std::count_if(tracks.begin(), tracks.end(), [](const auto& t) {
        return t.status == track::Track::Status::Tracked;
      }));
    }
    if (scored) {
      run.detections_from = kind;
      run.vessels_off_display += off;
      run.rotations.push_back(s);
      run.geometry = g;
      run.last_detections = std::move(dets);
      run.last_truth = std::move(truth);
      run.last_match = std::move(m);
    } else {
      ++run.warmup_done;
    }
    if (cfg.progress) cfg.progress(i, total, scored, s);
  }
  // The pipeline's last frame is the last scored rotation (scored ones come last).
  if (!run.rotations.empty()) run.scan = pipeline.scan_image();
  run.score = score_scene(run.rotations, radar, cfg.targets);
  if (scorer) run.tracking = scorer->result();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

namespace {

struct Rgba {
  uint8_t r, g, b;
};

void put(std::vector<uint8_t>& img, int w, int h, int x, int y, Rgba c) {
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  uint8_t* p = img.data() + (size_t(y) * size_t(w) + size_t(x)) * 4;
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
  p[3] = 255;
}

void circle(std::vector<uint8_t>& img, int w, int h, double cx, double cy, double r, double thick,
            Rgba c) {
  const int x0 = int(std::floor(cx - r - thick)), x1 = int(std::ceil(cx + r + thick));
  const int y0 = int(std::floor(cy - r - thick)), y1 = int(std::ceil(cy + r + thick));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
      if (std::abs(d - r) <= thick / 2) put(img, w, h, x, y, c);
    }
}

void cross(std::vector<uint8_t>& img, int w, int h, double cx, double cy, double r, int thick,
           Rgba c) {
  const int x = int(std::floor(cx)), y = int(std::floor(cy)), n = int(std::lround(r));
  for (int k = -n; k <= n; ++k)
    for (int t = -(thick / 2); t <= (thick - 1) / 2; ++t) {
      put(img, w, h, x + k, y + k + t, c);
      put(img, w, h, x + k, y - k + t, c);
    }
}

}  // namespace

std::vector<uint8_t> ppi_picture(const SceneRun& run) {
  const int w = run.scan.width, h = run.scan.height;
  std::vector<uint8_t> img(size_t(w) * size_t(h) * 4);
  for (size_t i = 0; i < run.scan.pixels.size(); ++i) {
    const uint8_t v = run.scan.pixels[i];
    img[i * 4] = img[i * 4 + 1] = img[i * 4 + 2] = v;
    img[i * 4 + 3] = 255;
  }
  const gpu::DisplayGeometry& g = run.geometry;
  auto pixel = [&](double range_m, double bearing_deg, double& x, double& y) {
    x = g.radar_x + range_m * std::sin(bearing_deg * kDeg) / g.metres_per_pixel;
    y = g.radar_y - range_m * std::cos(bearing_deg * kDeg) / g.metres_per_pixel;
  };
  // Marks scale with the picture so that they stay visible at 4096 and small at 512.
  const double r = std::max(5.0, std::min(w, h) / 220.0);
  const double thick = std::max(1.0, std::min(w, h) / 1024.0);
  const Rgba green{40, 230, 60}, red{255, 40, 40}, yellow{255, 230, 0};
  double x = 0, y = 0;
  for (const MatchPair& p : run.last_match.pairs) {
    const Detection& d = run.last_detections[size_t(p.detection)];
    pixel(d.range_m, d.bearing_deg, x, y);
    circle(img, w, h, x, y, r, thick, green);
  }
  for (int i : run.last_match.unmatched_detections) {
    const Detection& d = run.last_detections[size_t(i)];
    pixel(d.range_m, d.bearing_deg, x, y);
    circle(img, w, h, x, y, r, thick, red);
  }
  for (int i : run.last_match.missed_vessels) {
    const sim::VesselTruth& t = run.last_truth[size_t(i)];
    pixel(t.range_m, t.bearing_deg, x, y);
    cross(img, w, h, x, y, r, int(std::lround(thick)), yellow);
  }
  return img;
}

}  // namespace sweepline::eval
