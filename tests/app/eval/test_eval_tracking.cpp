// The tracking scorecard: the IMO statistics (limits, percentiles with missing seeds), the truth
// reader's own-ship lines, GOSPA against hand-computed cases, the track-to-truth matcher and
// scorer, and short end-to-end IMO runs (plot level and through the video pipeline).
#include <gtest/gtest.h>

#include <unistd.h>
#include <map>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "app/engine/engine_settings.hpp"
#include "app/eval/eval_run.hpp"
#include "app/eval/imo_eval.hpp"
#include "app/eval/track_score.hpp"
#include "gpu/backend/make_pipeline.hpp"

namespace sweepline::eval {
namespace {

namespace fs = std::filesystem;
constexpr double kInf = std::numeric_limits<double>::infinity();

ImoSeedRun seed_with(double rel_speed_err_3min, bool tracked = true) {
  ImoSeedRun r;
  r.acquired = true;
  for (auto& a : r.at) {
    a.tracked = tracked;
    a.truth.fill(10);
    a.error.fill(0);
  }
  r.at[1].error[size_t(ImoQuantity::RelSpeed)] = rel_speed_err_3min;
  r.at[1].truth[size_t(ImoQuantity::RelSpeed)] = 20;  // kn: 1 % is 0.2, below the 0.8 kn floor
  r.at[0].truth[size_t(ImoQuantity::RelSpeed)] = 20;  // 10 % is 2.0, above the 1.5 kn floor
  return r;
}

const ImoRow& row(const ImoScenarioResult& r, ImoQuantity q, int minutes) {
  for (const ImoRow& x : r.rows)
    if (x.spec.quantity == q && x.spec.minutes == minutes) return x;
  throw std::runtime_error("no row");
}

TEST(ImoStats, LimitIsTheGreaterOfTheAbsoluteAndTheRelative) {
  const ImoLimit one_min{ImoQuantity::RelSpeed, 1, 1.5, 10};
  EXPECT_DOUBLE_EQ(imo_limit_value(one_min, 20), 2.0);
  EXPECT_DOUBLE_EQ(imo_limit_value(one_min, 10), 1.5);
  EXPECT_DOUBLE_EQ(imo_limit_value(one_min, -30), 3.0);
  const ImoLimit cpa{ImoQuantity::Cpa, 3, 0.3, 0};
  EXPECT_DOUBLE_EQ(imo_limit_value(cpa, 100), 0.3);
  EXPECT_EQ(imo_limits().size(), 9u);  // 3 rows after 1 min, 6 after 3
}

TEST(ImoStats, CourseErrorsWrapAroundNorth) {
  ImoValues est{}, truth{};
  est.fill(0);
  truth.fill(0);
  est[size_t(ImoQuantity::RelCourse)] = 359;
  truth[size_t(ImoQuantity::RelCourse)] = 1;
  est[size_t(ImoQuantity::Tcpa)] = -2;
  truth[size_t(ImoQuantity::Tcpa)] = 1;
  const ImoValues e = imo_errors(est, truth);
  EXPECT_NEAR(e[size_t(ImoQuantity::RelCourse)], 2, 1e-12);
  EXPECT_NEAR(e[size_t(ImoQuantity::Tcpa)], 3, 1e-12);
}

TEST(ImoStats, NinetyFifthPercentileAndPassFail) {
  // Errors 0.01 .. 1.00 kn over 100 seeds: p95 at rank 94.05 -> 0.9505.
  std::vector<ImoSeedRun> runs;
  for (int i = 1; i <= 100; ++i) runs.push_back(seed_with(i / 100.0));
  const ImoScenarioResult r = score_imo("synthetic", runs);
  const ImoRow& rs3 = row(r, ImoQuantity::RelSpeed, 3);
  EXPECT_NEAR(rs3.p95, 0.9505, 1e-9);
  EXPECT_NEAR(rs3.median, 0.505, 1e-9);
  EXPECT_DOUBLE_EQ(rs3.limit, 0.8);  // max(0.8, 1 % of 20)
  EXPECT_NEAR(rs3.margin, 0.9505 / 0.8, 1e-9);
  EXPECT_FALSE(rs3.pass);
  EXPECT_FALSE(r.pass);
  const ImoRow& rs1 = row(r, ImoQuantity::RelSpeed, 1);
  EXPECT_DOUBLE_EQ(rs1.limit, 2.0);  // max(1.5, 10 % of 20)
  EXPECT_TRUE(rs1.pass);
  EXPECT_EQ(rs3.samples, 100);
  EXPECT_EQ(rs3.missing, 0);
}

TEST(ImoStats, MissingSeedsCountAsInfiniteErrors) {
  std::vector<ImoSeedRun> runs;
  for (int i = 0; i < 96; ++i) runs.push_back(seed_with(0.1));
  for (int i = 0; i < 4; ++i) runs.push_back(seed_with(0.1, false));
  ImoScenarioResult r = score_imo("synthetic", runs);
  EXPECT_EQ(row(r, ImoQuantity::RelSpeed, 3).missing, 4);
  EXPECT_DOUBLE_EQ(row(r, ImoQuantity::RelSpeed, 3).p95, 0.1);  // rank 94.05 < 96 finite values
  runs.push_back(seed_with(0.1, false));                        // 5 of 101: rank 95 is missing
  runs.push_back(seed_with(0.1, false));
  r = score_imo("synthetic", runs);
  EXPECT_EQ(row(r, ImoQuantity::RelSpeed, 3).p95, kInf);
  EXPECT_FALSE(row(r, ImoQuantity::RelSpeed, 3).pass);
}

TEST(TruthReader, ReadsOwnShipLinesBesideTheVessels) {
  const fs::path p = fs::temp_directory_path() / ("swl_truth_own_" + std::to_string(getpid()));
  {
    std::ofstream f(p);
    f << R"({"own":true,"rotation":0,"time_s":0.000,"x_m":0.00,"y_m":0.00,"heading_deg":0.000,)"
         R"("course_deg":0.000,"speed_mps":5.144,"lat_deg":50.0,"lon_deg":-1.0})"
      << "\n";
    f << R"({"rotation":0,"id":7,"range_m":1000,"bearing_deg":10,"x_m":1,"y_m":2,"scr_db":12})"
      << "\n";
    f << R"({"own":true,"rotation":1,"time_s":2.500,"x_m":0.00,"y_m":12.86,"heading_deg":1.0,)"
         R"("course_deg":0.000,"speed_mps":5.144,"lat_deg":50.0001,"lon_deg":-1.0})"
      << "\n";
    f << R"({"rotation":1,"id":7,"range_m":990,"bearing_deg":10,"scr_db":12})"
      << "\n";
  }
  const TruthFile t = read_truth(p.string());
  ASSERT_EQ(t.vessels.size(), 2u);
  ASSERT_EQ(t.own.size(), 2u);
  EXPECT_DOUBLE_EQ(t.own.at(1).state.y_m, 12.86);
  EXPECT_DOUBLE_EQ(t.own.at(1).state.heading_deg, 1.0);
  EXPECT_DOUBLE_EQ(t.own.at(1).state.t_s, 2.5);
  EXPECT_DOUBLE_EQ(t.own.at(0).state.speed_mps, 5.144);
  EXPECT_EQ(t.vessels.at(1).front().id, 7);
  const auto vessels = read_truth_file(p.string());  // the old reader skips own lines
  EXPECT_EQ(vessels.size(), 2u);
  EXPECT_EQ(vessels.at(0).size(), 1u);
  std::error_code ec;
  fs::remove(p, ec);
}

TEST(Gospa, HandComputedCases) {
  const double c = 200, p = 2;
  EXPECT_DOUBLE_EQ(gospa({}, {}, c, p).distance, 0);
  // One miss: (c^p / 2)^(1/p).
  Gospa g = gospa({{0, 0}}, {}, c, p);
  EXPECT_NEAR(g.distance, 200 / std::sqrt(2.0), 1e-9);
  EXPECT_EQ(g.missed, 1);
  g = gospa({}, {{5, 5}, {1000, 0}}, c, p);
  EXPECT_NEAR(g.distance, 200, 1e-9);  // two false: sqrt(2 x c^2 / 2)
  EXPECT_EQ(g.false_tracks, 2);
  g = gospa({{0, 0}}, {{30, 40}}, c, p);
  EXPECT_NEAR(g.distance, 50, 1e-9);
  EXPECT_EQ(g.pairs, 1);
  // Beyond c: a miss and a false, sqrt(c^2 / 2 + c^2 / 2) = c.
  g = gospa({{0, 0}}, {{300, 0}}, c, p);
  EXPECT_NEAR(g.distance, 200, 1e-9);
  EXPECT_EQ(g.pairs, 0);
  // Greedy (closest pair first: 40 m, then 160 m) gives sqrt(40^2 + 160^2) = 164.9; the optimal
  // assignment is 60 m + 60 m.
  g = gospa({{0, 0}, {100, 0}}, {{60, 0}, {160, 0}}, c, p);
  EXPECT_NEAR(g.distance, std::sqrt(7200.0), 1e-9);
  EXPECT_EQ(g.pairs, 2);
}

sim::VesselTruth vessel(int id, double x, double y, double length = 50, double scr = 20) {
  sim::VesselTruth v;
  v.id = id;
  v.x_m = x;
  v.y_m = y;
  v.length_m = length;
  v.scr_db = scr;
  return v;
}

TEST(TrackMatch, NearestWithinTheGateOneToOne) {
  const std::vector<sim::VesselTruth> truth = {vessel(1, 0, 0), vessel(2, 1000, 0, 300)};
  const std::vector<ScoredTrack> tracks = {
      {10, 100, 0, true},   // 100 m from vessel 1: inside the 150 m gate
      {11, 20, 0, true},    // closer to vessel 1: takes it
      {12, 1250, 0, true},  // 250 m from vessel 2: inside its 300 m hull gate
      {13, 5000, 0, true}};
  const auto pairs = match_tracks(tracks, truth);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].track, 1);
  EXPECT_EQ(pairs[0].vessel, 0);
  EXPECT_NEAR(pairs[0].distance_m, 20, 1e-9);
  EXPECT_EQ(pairs[1].track, 2);
  EXPECT_EQ(pairs[1].vessel, 1);
}

TEST(TrackScorer, ConfirmationFalseTracksAndIdChanges) {
  TrackTargets tg;
  TrackScorer s(tg, TrackGates{}, 2.5);
  const std::vector<sim::VesselTruth> truth = {vessel(1, 0, 0), vessel(2, 2000, 0)};
  for (int r = 0; r < 30; ++r) {
    std::vector<ScoredTrack> tracks;
    // Vessel 1: confirmed from scan 3 as id 5, id 6 from scan 20 (a change).
    if (r >= 3) tracks.push_back({r < 20 ? 5 : 6, 10, 0, true});
    // Vessel 2: never confirmed (tentative only).
    tracks.push_back({7, 2000, 10, false});
    // A confirmed track on nothing for scans 10..11 (too short) and 15..19 (false).
    if (r == 10 || r == 11 || (r >= 15 && r < 20)) tracks.push_back({9, 8000, 8000, true});
    s.add_rotation(uint64_t(r), true, tracks, truth);
  }
  const TrackScorer::Result r = s.result();
  EXPECT_EQ(r.rotations, 30);
  EXPECT_EQ(r.judged, 2);
  EXPECT_EQ(r.confirmed_in_time, 1);
  EXPECT_DOUBLE_EQ(r.confirmed_pct, 50);
  EXPECT_DOUBLE_EQ(r.scans_median, 3);
  ASSERT_EQ(r.late.size(), 1u);
  EXPECT_EQ(r.late[0], 2);
  EXPECT_EQ(r.false_tracks, 1);
  EXPECT_NEAR(r.false_per_10min, 1 / 75.0 * 600, 1e-9);
  EXPECT_EQ(r.id_changes, 1);
  EXPECT_EQ(r.id_losses, 0);
  EXPECT_FALSE(r.pass);
  // GOSPA of scan 0: two misses (no confirmed track): sqrt(2 x 200^2 / 2) = 200.
  EXPECT_NEAR(r.gospa_per_scan[0], 200, 1e-9);
}

TEST(TrackScorer, LateVesselsAreDiagnosedFromThePlotsNearThem) {
  TrackScorer s(TrackTargets{}, TrackGates{}, 2.5);
  // 1: no plot ever (missed); 2 and 3, 100 m apart: one plot between them (merged); 4: a clean
  // plot every scan but no confirmed track (tracking); 5: confirmed at once (not late).
  const std::vector<sim::VesselTruth> truth = {vessel(1, 0, 0), vessel(2, 3000, 0),
                                               vessel(3, 3100, 0), vessel(4, 6000, 0),
                                               vessel(5, 9000, 0)};
  const std::vector<Point2> plots = {{3050, 0}, {6010, 0}, {9000, 0}};
  for (int r = 0; r < 12; ++r)
    s.add_rotation(uint64_t(r), true, {{1, 9000, 0, true}, {2, 6000, 5, false}}, truth, plots);
  const TrackScorer::Result r = s.result();
  ASSERT_EQ(r.late_detail.size(), 4u);
  std::map<int, TrackScorer::Result::LateVessel> by_id;
  for (const auto& l : r.late_detail) by_id[l.id] = l;
  EXPECT_EQ(by_id[1].cause, "missed");
  EXPECT_EQ(by_id[1].none, 11);
  EXPECT_EQ(by_id[2].cause, "merged");
  EXPECT_EQ(by_id[3].cause, "merged");
  EXPECT_EQ(by_id[3].shared, 11);
  EXPECT_NEAR(by_id[3].neighbour_m, 100, 1e-9);
  EXPECT_EQ(by_id[4].cause, "tracking");
  EXPECT_EQ(by_id[4].clean, 11);
  EXPECT_EQ(by_id[4].tentative, 11);
  EXPECT_EQ(r.late_missed, 1);
  EXPECT_EQ(r.late_merged, 2);
  EXPECT_EQ(r.late_split, 0);
  EXPECT_EQ(r.late_tracking, 1);
  const auto j = track_result_json(r, TrackTargets{}, TrackGates{});
  EXPECT_EQ(j["confirm"]["late_causes"]["merged"], 2);
  EXPECT_EQ(j["confirm"]["late_detail"].size(), 4u);
}

TEST(ImoRun, PlotLevelEndToEndProducesTheReport) {
  const sim::Scenario s = sim::make_scenario("imo4");
  const ImoScenarioResult r = evaluate_imo(s, 1, 4, ImoConfig{});
  EXPECT_EQ(r.seeds, 4);
  EXPECT_EQ(r.acquired, 4);
  ASSERT_EQ(r.rows.size(), 9u);
  for (const ImoRow& row : r.rows) {
    EXPECT_EQ(row.samples + row.missing, 4);
    EXPECT_TRUE(std::isfinite(row.p95));
    EXPECT_GT(row.limit, 0);
  }
  // The truth the limits are taken from: imo4 closes at 20 kn from 8 NM at the 3-min point.
  EXPECT_NEAR(row(r, ImoQuantity::RelSpeed, 3).truth, 20, 0.01);
  EXPECT_NEAR(row(r, ImoQuantity::Tcpa, 3).truth, 8.0 / 20 * 60, 0.5);  // 8 NM at 20 kn
  EXPECT_FALSE(r.series_s.empty());
  EXPECT_NEAR(r.series_s.back(), 180, 6);
  const auto j = imo_json(r);
  EXPECT_EQ(j["rows"].size(), 9u);
  EXPECT_TRUE(j["rows"][0].contains("p95"));
  EXPECT_TRUE(j["series"].contains("cpa_nm_p95"));
  int w = 0, h = 0;
  const auto rgba = imo_chart(r, w, h);
  EXPECT_GT(w, 0);
  EXPECT_EQ(rgba.size(), size_t(w) * size_t(h) * 4);
  EXPECT_NE(imo_table({r}).find("relative course"), std::string::npos);
}

// A.823(19) Annex 2 makes its predictions "at the target position defined after previously
// tracking for the appropriate time of 1 or 3 min": each row is sampled where the target is at
// the scenario's geometry (8 NM closing at 20 kn: a TCPA of 24 minutes).
TEST(ImoRun, EachRowIsSampledAtTheStandardsGeometry) {
  const sim::Scenario s = sim::make_scenario("imo4");
  std::vector<double> defined_at;
  const ImoSeedRun r = imo_seed_as_scored(s, [&](const sim::Scenario& d) {
    defined_at.push_back(d.targets.at(0).at_s);
    return run_imo_seed(d, 3, ImoConfig{});
  });
  ASSERT_EQ(defined_at.size(), 2u);
  EXPECT_DOUBLE_EQ(defined_at[0], 60);
  EXPECT_DOUBLE_EQ(defined_at[1], sim::kImoPredictionS);
  ASSERT_TRUE(r.acquired);
  const size_t tcpa = size_t(ImoQuantity::Tcpa);
  EXPECT_NEAR(r.at[0].truth[tcpa], 24.0, 0.05);
  EXPECT_NEAR(r.at[1].truth[tcpa], 24.0, 0.05);
  // One run alone samples its first minute 20 kn x 2 min further out.
  const ImoSeedRun three = run_imo_seed(s, 3, ImoConfig{});
  EXPECT_NEAR(three.at[0].truth[tcpa], 26.0, 0.05);
}

TEST(ImoRun, SameSeedGivesTheSameResult) {
  const sim::Scenario s = sim::make_scenario("imo3");
  const ImoSeedRun a = run_imo_seed(s, 9, ImoConfig{}), b = run_imo_seed(s, 9, ImoConfig{});
  ASSERT_TRUE(a.at[1].tracked);
  EXPECT_EQ(a.at[1].error, b.at[1].error);
  EXPECT_GE(a.at[1].since_s, 180 - 1e-9);
  EXPECT_LT(a.at[1].since_s, 180 + 2.5 / 16 + 1e-9);  // the first update at or after 3 min
}

TEST(ImoRun, TargetDeadAheadKeepsOneTrack) {
  // imo1: the target dead ahead, its measured bearing jittering across the bow (where the
  // simulator's rotations start). One plot per pass, fed when the sweep passes it: one track,
  // live at 1 and 3 minutes (these seeds lost it when a pass gave two plots and the next none).
  const sim::Scenario s = sim::make_scenario("imo1");
  for (uint64_t seed : {11u, 18u, 45u}) {
    const ImoSeedRun r = run_imo_seed(s, seed, ImoConfig{});
    EXPECT_EQ(r.tracks_started, 1) << seed;
    EXPECT_TRUE(r.at[0].tracked) << seed;
    EXPECT_TRUE(r.at[1].tracked) << seed;
  }
}

TEST(ImoRun, OwnShipVelocityIsTheGnssNotTheLog) {
  // The log's 0.5 kn calibration error stays in the log's speed through water; the tracker's
  // own ship moves at the GNSS speed and course over ground (exact in the standard).
  const sim::Scenario s = sim::make_scenario("imo2");
  for (const sim::ImoMeasurement& m : sim::imo_measurements(s, 3, 30)) {
    const track::OwnShip o = imo_own_ship(m);
    EXPECT_NEAR(o.speed_mps, m.own.speed_mps, 1e-9);
    EXPECT_NEAR(o.course_deg, m.own.course_deg, 1e-9);
    EXPECT_GT(m.nav_log_speed_mps - m.own.speed_mps, 0.3 * 1852 / 3600);
  }
}

TEST(ImoRun, TheTrackerIsToldTheEnginesAccuracy) {
  // One accuracy model for the engine and the scorecard: the scenario's errors (the standard's
  // defaults) give the engine's default accuracy for the same beam, pulse and grid.
  const sim::Scenario s = sim::make_scenario("imo3");
  gpu::PlotParams pp;
  pp.beamwidth_deg = s.radar.beamwidth_deg;
  pp.pulse_m = s.radar.pulse_m;
  const engine::RadarAccuracy e =
      engine::radar_accuracy(pp, s.radar.radials, s.radar.cells, s.radar.range_m());
  const engine::RadarAccuracy i = imo_plot_accuracy(s.errors, s.radar);
  EXPECT_NEAR(i.range_sigma_m, e.range_sigma_m, 1e-6);
  EXPECT_NEAR(i.bearing_sigma_deg, e.bearing_sigma_deg, 1e-6);
  EXPECT_NEAR(i.cross_sigma_m, e.cross_sigma_m, 1e-9);
  const PlotSigmas at8 = imo_plot_sigmas(s.errors, s.radar, 8 * 1852);
  EXPECT_NEAR(at8.bearing_deg, engine::plot_bearing_sigma_deg(e, 8 * 1852), 1e-6);
}

// A rotation is fed to the tracker in sectors, as the console's frames feed it: a target in the
// last degrees before the rotation's edge gets its plot every scan. (In one call a rotation, a
// track there is associated a call late and then scheduled a rotation on: every other scan.)
TEST(TrackRotation, ATargetJustBeforeTheRotationsEdgeGetsEveryScan) {
  const double period = 2.5, range = 10000.0, bearing = 356.0;
  sim::RadarConfig radar;
  track::Tracker tracker;
  std::vector<track::Track> tracks;
  std::vector<track::TrackPlot> plots;
  FrameWithTruth in;
  in.frame = PolarFrame(360, 8, 20000.0);
  in.frame.row_time_s.resize(360);
  in.own.heading_valid = true;
  gpu::FrameResult res;
  res.plots.resize(1);
  gpu::Plot& p = res.plots[0];
  p.range_m = range;
  p.bearing_deg = bearing;
  p.range_extent_m = 40;
  p.azimuth_extent_deg = 1.5;
  const int rotations = 24;
  for (int k = 0; k < rotations; ++k) {
    const double t0 = 100.0 + period * k;
    for (int a = 0; a < 360; ++a) in.frame.row_time_s[size_t(a)] = t0 + period * (a + 0.5) / 360;
    in.truth_time_s = t0;
    // The gyro's noise: the heading of every other rotation a tenth of a degree on.
    in.own.heading_deg = k % 2 == 0 ? 0.0 : 0.1;
    p.time_s = t0 + period * bearing / 360;
    track_rotation(tracker, in, res, radar, tracks, plots);
  }
  EXPECT_EQ(tracker.stats().tracks_started, 1u);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].status, track::Track::Status::Tracked);
  // Every plot but the first (which started the track) and the last (due once the sweep is the
  // association lag past it, after the run's end) went to it, one a scan.
  EXPECT_EQ(tracker.stats().plots_associated, uint64_t(rotations - 2));
  EXPECT_EQ(tracks[0].scans_seen & 0xFFFFFu, 0xFFFFFu);
}

// The video chain links the target's track: rendered rotations, CPU pipeline, track_feed,
// tracker (a short run on a small display).
TEST(ImoRun, VideoPipelineTracksTheTarget) {
  const sim::Scenario s = sim::make_scenario("imo3");
  auto pipeline = gpu::make_pipeline(gpu::Backend::Cpu);
  gpu::PipelineParams p = engine::ProcessingSettings::default_params();
  p.width = p.height = 768;
  ImoConfig cfg;
  cfg.track_s = 20;
  const ImoSeedRun r = run_imo_video_seed(s, 1, *pipeline, p, cfg);
  EXPECT_TRUE(r.acquired);
  EXPECT_GE(r.confirmed_s, 0);
  ASSERT_FALSE(r.series.empty());
  EXPECT_TRUE(r.series.back().tracked);
  // 20 s in, the course is rough but the speed is the target's order (16.8 kn).
  EXPECT_LT(r.series.back().error[size_t(ImoQuantity::TrueSpeed)], 10);
}

}  // namespace
}  // namespace sweepline::eval
