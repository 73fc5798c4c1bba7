#pragma once
// The IMO tracking-accuracy scorecard: the IMO ARPA test scenarios (imo1..imo4) at plot level
// (sim::imo_measurements: the radar's plots and the own ship's navigation with the standard's
// sensor errors) through a track::Tracker, over many seeds; the errors of relative course and
// speed, CPA, TCPA, true course and speed after 1 and 3 minutes of tracking, their 95th
// percentile over the seeds against IMO MSC.192(79) 5.25 (docs/eval.md, "Tracking").
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/track_feed.hpp"
#include "app/sim/imo_plots.hpp"
#include "app/sim/scenario.hpp"
#include "app/track/tracker.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::eval {

// The quantities MSC.192(79) 5.25.4.7 states accuracies for, in the units of its table.
enum class ImoQuantity { RelCourse, RelSpeed, Cpa, Tcpa, TrueCourse, TrueSpeed };
inline constexpr int kImoQuantities = 6;
const char* to_string(ImoQuantity q);  // "relative course", ...
const char* unit_of(ImoQuantity q);    // "deg", "kn", "NM", "min"
const char* key_of(ImoQuantity q);     // JSON key: "rel_course_deg", ...

// One row of the standard's table: after `minutes` of tracking, `quantity` within `limit` or
// within `percent` of the true value, whichever is greater (percent 0: no relative part).
struct ImoLimit {
  ImoQuantity quantity = ImoQuantity::RelCourse;
  int minutes = 1;
  double limit = 0;    // in unit_of(quantity)
  double percent = 0;  // of the true value
};
// The table (issue 29, "Done when"): after 1 min relative course 11 deg, relative speed 1.5 kn
// or 10 %, CPA 1.0 NM; after 3 min relative course 3 deg, relative speed 0.8 kn or 1 %, CPA
// 0.3 NM, TCPA 0.5 min, true course 5 deg, true speed 0.5 kn or 1 %.
const std::vector<ImoLimit>& imo_limits();
// The limit for a true value: max(limit, percent / 100 x |truth|).
double imo_limit_value(const ImoLimit& l, double truth);

// The six quantities, in their units (deg, kn, NM, min).
using ImoValues = std::array<double, kImoQuantities>;

// Estimate minus truth, absolute; courses wrapped to [0, 180]. A course whose true speed is 0
// has no error (NaN).
ImoValues imo_errors(const ImoValues& estimate, const ImoValues& truth);

// The 1-sigma range and bearing accuracy the tracker is told for a plot of these scenarios at
// `range_m`: engine::plot_accuracy (the function the engine's track_feed uses too) of the
// scenario's errors (sim::SensorErrors): beam shape, encoder, backlash, the gyro's noise (each
// plot is turned to true bearing by its own heading reading), the roll's bearing error about its
// mean where it is largest (relative 045), the radar's grid, and the glint (30 m along the hull,
// half along and half across the line of sight: broadside at 1 NM it is 0.66 deg of bearing).
// The biases (gyro calibration, the roll's mean) are not noise and are left out.
struct PlotSigmas {
  double range_m = 0;
  double bearing_deg = 0;
};
// The same errors as the engine tells the tracker (engine::plot_accuracy, one model for both),
// filled from the scenario's error settings and radar grid.
engine::RadarAccuracy imo_plot_accuracy(const sim::SensorErrors& e, const sim::RadarConfig& radar);
PlotSigmas imo_plot_sigmas(const sim::SensorErrors& e, const sim::RadarConfig& radar,
                           double range_m);

// The plot-level measurement as the tracker takes it: true bearing = measured relative bearing
// + measured heading, position from the own ship's (measured) position, the sigmas above.
track::TrackPlot imo_track_plot(const sim::ImoMeasurement& m, const PlotSigmas& sigmas);
// The same with imo_plot_sigmas of the scenario at the plot's range.
track::TrackPlot imo_track_plot(const sim::ImoMeasurement& m, const sim::Scenario& scenario);
// The measured navigation as the tracker's own ship: position, speed and course over ground from
// the GNSS (exact in the standard; MSC.192(79) lets the ARPA ground-stabilise with the EPFS's
// SOG/COG) and heading from the gyro, at the plot's time. The log's speed is not used.
track::OwnShip imo_own_ship(const sim::ImoMeasurement& m);

// A track's six quantities (its true course and speed, relative course and speed, CPA, TCPA).
ImoValues imo_track_values(const track::Track& t);

struct ImoConfig {
  track::TrackerParams params;  // the tracker's (automatic acquisition everywhere)
  // Calls per antenna scan: the sweep is fed in this many equal sectors, the plots of each sector
  // as it is passed, as the engine feeds the console's tracker.
  int sectors = 16;
  double track_s = kImoTrackS;  // how long each seed tracks after its first plot
  static constexpr double kImoTrackS = 180;
};

// One sample of one seed: the estimate, the truth and the errors at `time_s`, `since_s` after the
// track's first plot.
struct ImoSample {
  double time_s = 0;
  double since_s = 0;
  bool tracked = false;  // the track was live with a velocity (else the values are NaN)
  track::Track::Status status = track::Track::Status::Acquiring;
  ImoValues estimate{}, truth{}, error{};
};

// One seed of one scenario (its first target: the IMO scenarios have one).
struct ImoSeedRun {
  uint64_t seed = 0;
  bool acquired = false;          // a track started on the target
  int track_id = 0;               // the first track on it; later tracks on it are not scored
  double first_plot_s = 0;        // the track's first plot: "tracking" starts here
  double confirmed_s = -1;        // when it became Tracked (-1: never)
  int tracks_started = 0;         // by the tracker, on anything
  std::vector<ImoSample> series;  // at the end of every scan from the first plot's scan
  std::array<ImoSample, 2> at{};  // after 1 and 3 minutes: at the first feed call at or after
                                  // first_plot_s + 60 / 180 s (within 1/sectors of a scan)
};

// Runs one seed: imo_measurements(scenario, seed) through a fresh Tracker. Truth at each sample
// is exact (own ship and target on their straight tracks at the sample's time).
ImoSeedRun run_imo_seed(const sim::Scenario& scenario, uint64_t seed, const ImoConfig& config);

// The same seed through the video pipeline: the scenario's rotations rendered (sim::Scene, the
// same radar errors on the same scans), processed by `pipeline`, the plots converted by the
// engine's track_feed (the radar's own accuracy, not imo_plot_sigmas) with the navigation of
// scene_navigation, each rotation in sector calls (track_rotation). Samples are at rotation
// ends, so "after 1 min" is up to one scan later than at plot level. The target's first plot is
// the first plot within 500 m of it; its track the first track that appears within 500 m of it.
ImoSeedRun run_imo_video_seed(const sim::Scenario& scenario, uint64_t seed, gpu::Pipeline& pipeline,
                              const gpu::PipelineParams& params, const ImoConfig& config);

// One row of the result: the 95th percentile over the seeds of one quantity's error.
struct ImoRow {
  ImoLimit spec;
  double p95 = 0;  // NaN when no seed has a value
  double median = 0;
  double limit = 0;   // the effective limit (the larger of the pair, for the true value)
  double truth = 0;   // the true value the percentage is of (median over the seeds)
  double margin = 0;  // p95 / limit: <= 1 passes, <= 0.5 is the aim
  int samples = 0;    // seeds with a value
  int missing = 0;    // seeds without a track then: counted as an infinite error
  bool pass = false;
};

struct ImoScenarioResult {
  std::string name;
  std::string label;  // "plot level" or "video pipeline"
  uint64_t seed_first = 1, seed_last = 0;
  int seeds = 0, acquired = 0;
  double tracks_started_mean = 0;
  double confirm_s_median = 0;  // first plot to Tracked, median over the seeds
  PlotSigmas sigmas;
  std::vector<ImoRow> rows;  // as imo_limits()
  bool pass = false;         // every row
  // The error's 95th percentile over the seeds against time since the first plot, per scan.
  std::vector<double> series_s;
  std::array<std::vector<double>, kImoQuantities> series_p95;
  double seconds = 0;
};

// The percentile (linear, as scorecard.hpp's) of the seeds' errors, missing seeds counted as
// infinite; the rows of the table against imo_limits().
ImoScenarioResult score_imo(const std::string& name, const std::vector<ImoSeedRun>& runs);

// One seed as the standard scores it. A.823(19) Annex 2 defines each scenario's target where it
// is "after previously tracking for the appropriate time of 1 or 3 min", so `run` is called
// twice: with the target defined at 60 s (its 1-minute sample is used) and at 180 s (its
// 3-minute sample and its series). The run's other fields are the 3-minute run's; tracks
// started is the larger of the two.
ImoSeedRun imo_seed_as_scored(const sim::Scenario& scenario,
                              const std::function<ImoSeedRun(const sim::Scenario&)>& run);

// Seeds first..last of `scenario` at plot level (imo_seed_as_scored); progress after each seed.
ImoScenarioResult evaluate_imo(
    const sim::Scenario& scenario, uint64_t first, uint64_t last, const ImoConfig& config,
    const std::function<void(uint64_t seed, const ImoSeedRun&)>& progress = {});

// Table, JSON and picture of the results.
std::string imo_table(const std::vector<ImoScenarioResult>& results);
nlohmann::ordered_json imo_json(const ImoScenarioResult& r);
// The error (95th percentile over the seeds) against time for each quantity, one panel each,
// with the limits drawn from 1 and from 3 minutes. RGBA8, rows top to bottom.
std::vector<uint8_t> imo_chart(const ImoScenarioResult& r, int& width, int& height);

}  // namespace sweepline::eval
