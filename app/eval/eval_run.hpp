#pragma once
// `sweepline eval` without the command line: frames with their truth (from the simulator, or
// from a recording and its truth file) through one pipeline instance, rotation after rotation,
// each scored against the truth.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/common/image.hpp"
#include "app/common/polar_frame.hpp"
#include "app/eval/match.hpp"
#include "app/eval/scorecard.hpp"
#include "app/eval/track_score.hpp"
#include "app/nav/own_ship.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/scene.hpp"
#include "app/sweep/sweep_assembler.hpp"
#include "app/track/tracker.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::eval {

// One rotation: the polar frame (every row changed) and the vessels as they were during it.
struct FrameWithTruth {
  PolarFrame frame;
  uint64_t rotation = 0;
  std::vector<sim::VesselTruth> truth;
  double truth_time_s = 0;  // when the truth holds (the rotation's start), on the frame's clock
  // Own ship as its navigation sensors say it during the rotation (frame clock; the plane of
  // the truth's x and y): the radar at the origin heading north for scenes without an own ship.
  nav::OwnShipState own;
};

class FrameFeed {
 public:
  virtual ~FrameFeed() = default;
  // The next rotation into `out`; false when there is none.
  virtual bool next(FrameWithTruth& out) = 0;
};

// The simulator: Scene::render_rotation, then next_rotation(), from rotation 0.
std::unique_ptr<FrameFeed> scene_feed(const sim::Scenario& scenario);

// A truth file (as `sweepline sim --truth` writes it): the vessels by rotation, and the own
// ship's lines ({"own": true, ...}, scenes with a moving own ship) by rotation.
struct TruthFile {
  std::map<uint64_t, std::vector<sim::VesselTruth>> vessels;
  std::map<uint64_t, sim::OwnTruth> own;
};
// Vessel lines without scr_db (older files) read as SCR 0. Throws sweepline::Error naming the
// file and line when a line is malformed, and when the file holds no vessel.
TruthFile read_truth(const std::string& path);
// The vessels of read_truth (own-ship lines skipped).
std::map<uint64_t, std::vector<sim::VesselTruth>> read_truth_file(const std::string& path);

// A recording through open_source and the sweep assembler as the engine does it: a frame ends
// where the sweep crosses north (and at the end of the file). A rotation is numbered by the
// simulator's Video Summary ("rotation=N") that opened it, or else by its count from 0; its
// truth is `truth`'s entry of that number (none: no vessels).
// Own ship: the truth's own lines where there are any (without the navigation's errors), else
// the radar still at the origin heading north.
std::unique_ptr<FrameFeed> capture_feed(const std::string& path,
                                        std::map<uint64_t, std::vector<sim::VesselTruth>> truth,
                                        const sweep::SweepConfig& sweep,
                                        std::map<uint64_t, sim::OwnTruth> own = {});

// The navigation a scene's own ship reports at time t_s (seconds from the run's start): position
// speed and course over ground from the GNSS (exact), heading from the gyro with the scenario's
// sensor errors (sim::measure_nav), on the frame clock (sim::kSimEpoch + t_s).
nav::OwnShipState scene_navigation(const sim::Scenario& s, uint64_t seed, const sim::OwnState& own,
                                   double t_s);

struct RunConfig {
  gpu::PipelineParams params;  // width and height are the display's; labelling is forced on
  int rotations = 8;           // scored
  int warmup = 4;              // run first, not scored
  MatchGates gates;
  Targets targets;
  // After every rotation: index from 0 (warm-up included), total, whether it was scored, and
  // its score (detections and unmatched only for warm-up rotations).
  std::function<void(int index, int total, bool scored, const RotationScore&)> progress;
  // Tracking (`--track`): every rotation's plots (warm-up included) through a track::Tracker,
  // one full rotation per update, scored on the scored rotations (track_score.hpp).
  bool track = false;
  track::TrackerParams tracker;
  TrackTargets track_targets;
  TrackGates track_gates;
  // After every tracker update: the rotation's index, its frame and the tracker's tracks.
  std::function<void(int index, const FrameWithTruth&, const std::vector<track::Track>&)> on_tracks;
};

struct SceneRun {
  std::string name;
  sim::RadarConfig radar;  // for the targets' beamwidth and pulse length
  DetectionKind detections_from = DetectionKind::Components;
  std::vector<RotationScore> rotations;  // scored ones
  int warmup_done = 0;
  int vessels_off_display = 0;  // truth vessels outside the display (not scored)
  SceneScore score;
  // The last scored rotation, for the picture: the scan image, its detections and their match.
  Image8 scan;
  gpu::DisplayGeometry geometry;
  std::vector<Detection> last_detections;
  std::vector<sim::VesselTruth> last_truth;  // vessels on the display
  RotationMatch last_match;
  double seconds = 0;    // wall time
  bool tracked = false;  // RunConfig::track
  TrackScorer::Result tracking;
  int tracks_live_end = 0, tracks_confirmed_end = 0;  // after the last rotation
};

// Tracker calls per rotation in track_rotation: the plot-level IMO runs' sectors.
inline constexpr int kTrackCallsPerRotation = 16;

// One rotation's plots (FrameResult::plots) to `tracker` through the engine's conversion
// (app/engine/track_feed.hpp: the radar's accuracy from its beam, pulse and grid; own ship from
// in.own), in kTrackCallsPerRotation updates of equal sectors from where the rotation starts,
// each with the plots timed before its end; `plots` gets the rotation's plots in time order and
// `tracks` the tracker's tracks after the last update.
void track_rotation(track::Tracker& tracker, const FrameWithTruth& in,
                    const gpu::FrameResult& result, const sim::RadarConfig& radar,
                    std::vector<track::Track>& tracks, std::vector<track::TrackPlot>& plots);
// Tracks carried (constant velocity) to t_s, confirmed = Tracked.
std::vector<ScoredTrack> scored_tracks(const std::vector<track::Track>& tracks, double t_s);

// Runs `feed` through `pipeline` (its state carries from frame to frame). Stops early when the
// feed ends (fewer scored rotations than asked). Throws sweepline::Error when the pipeline does.
SceneRun evaluate(const std::string& name, const sim::RadarConfig& radar, FrameFeed& feed,
                  gpu::Pipeline& pipeline, const RunConfig& config);

// The PPI picture: the scan image in grey, matched detections green circles, unmatched ones red
// circles, missed vessels yellow crosses. RGBA8, rows top to bottom.
std::vector<uint8_t> ppi_picture(const SceneRun& run);

}  // namespace sweepline::eval
