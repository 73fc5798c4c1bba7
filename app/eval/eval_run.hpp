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
#include "app/sim/scenario.hpp"
#include "app/sim/scene.hpp"
#include "app/sweep/sweep_assembler.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::eval {

// One rotation: the polar frame (every row changed) and the vessels as they were during it.
struct FrameWithTruth {
  PolarFrame frame;
  uint64_t rotation = 0;
  std::vector<sim::VesselTruth> truth;
};

class FrameFeed {
 public:
  virtual ~FrameFeed() = default;
  // The next rotation into `out`; false when there is none.
  virtual bool next(FrameWithTruth& out) = 0;
};

// The simulator: Scene::render_rotation, then next_rotation(), from rotation 0.
std::unique_ptr<FrameFeed> scene_feed(const sim::Scenario& scenario);

// Truth JSON lines (as `sweepline sim --truth` writes them) by rotation. Lines without scr_db
// (older files) read as SCR 0. Throws sweepline::Error naming the file and line when malformed.
std::map<uint64_t, std::vector<sim::VesselTruth>> read_truth_file(const std::string& path);

// A recording through open_source and the sweep assembler as the engine does it: a frame ends
// where the sweep crosses north (and at the end of the file). A rotation is numbered by the
// simulator's Video Summary ("rotation=N") that opened it, or else by its count from 0; its
// truth is `truth`'s entry of that number (none: no vessels).
std::unique_ptr<FrameFeed> capture_feed(const std::string& path,
                                        std::map<uint64_t, std::vector<sim::VesselTruth>> truth,
                                        const sweep::SweepConfig& sweep);

struct RunConfig {
  gpu::PipelineParams params;  // width and height are the display's; labelling is forced on
  int rotations = 8;           // scored
  int warmup = 4;              // run first, not scored
  MatchGates gates;
  Targets targets;
  // After every rotation: index from 0 (warm-up included), total, whether it was scored, and
  // its score (detections and unmatched only for warm-up rotations).
  std::function<void(int index, int total, bool scored, const RotationScore&)> progress;
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
  double seconds = 0;  // wall time
};

// Runs `feed` through `pipeline` (its state carries from frame to frame). Stops early when the
// feed ends (fewer scored rotations than asked). Throws sweepline::Error when the pipeline does.
SceneRun evaluate(const std::string& name, const sim::RadarConfig& radar, FrameFeed& feed,
                  gpu::Pipeline& pipeline, const RunConfig& config);

// The PPI picture: the scan image in grey, matched detections green circles, unmatched ones red
// circles, missed vessels yellow crosses. RGBA8, rows top to bottom.
std::vector<uint8_t> ppi_picture(const SceneRun& run);

}  // namespace sweepline::eval
