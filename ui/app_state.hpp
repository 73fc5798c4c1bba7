#pragma once
// The application's state without any UI: the source, the sweep assembler, the pipeline, the
// last frame's results and the statistics. The ImGui panels read it and call its commands; the
// headless runner drives it the same way. Errors from the source or the pipeline are kept as
// messages for the UI (and logged); they never end the program.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/capture/capture_writer.hpp"
#include "app/common/polar_frame.hpp"
#include "app/source/source.hpp"
#include "app/sweep/sweep_assembler.hpp"
#include "gpu/pipeline.hpp"
#include "render/display_textures.hpp"
#include "ui/pipeline_worker.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

class DisplaySink;

// A bounded history of one value per processed frame (for the timing plots).
struct History {
  static constexpr size_t kMax = 240;
  std::deque<float> values;
  void push(float v) {
    values.push_back(v);
    if (values.size() > kMax) values.pop_front();
  }
  float last() const { return values.empty() ? 0.0f : values.back(); }
};

struct SourceView {  // what the sources panel shows
  bool open = false;
  std::string error;  // why the last open failed or the source stopped
  SourceStatus status;
  double rotation_period_s = 0;
  double azimuth_coverage = 0;  // rows written / azimuths in the last finished rotation
  uint64_t rotations = 0;
  uint64_t rejected = 0;
  bool replayable = false;
  bool paused = false;
  double speed = 1;
  bool loop = true;
  uint64_t rotation_count = 0;  // known rotations of a file (0: unknown)
  uint64_t shown_rotation = 0;  // file rotation being drawn (replays; wraps when looping)
};

class AppState {
 public:
  explicit AppState(Settings settings);
  ~AppState();
  AppState(const AppState&) = delete;
  AppState& operator=(const AppState&) = delete;

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }

  // --- commands (from panels, keys, scripts) ---
  // Opens a source; on failure the message is kept in source_view().error and logged.
  bool open_source(const std::string& uri);
  void close_source();
  void set_paused(bool paused);
  bool paused() const;
  void step_rotation(int direction);  // +1 next rotation, -1 previous (file sources)
  void seek_rotation(uint64_t n);
  void set_speed(double factor);  // 0 = unpaced
  void set_loop(bool loop);
  // Records the feed to a pcap file: a live UDP source's datagrams exactly as they arrive (the
  // source's raw tap: bytes, arrival times, addresses, also datagrams that fail to decode);
  // other sources' records re-encoded, one datagram each, to the UDP settings' group:port (raw
  // video octets kept). False with the reason in recording_error() when the file cannot be
  // created.
  bool start_recording(const std::string& path);
  void stop_recording();
  bool recording() const;
  // True while the current recording is the source's raw datagram tap.
  bool recording_raw() const { return raw_recording_; }
  uint64_t recorded_datagrams() const;
  const std::string& recording_error() const { return recording_error_; }
  // Switches the backend now ("cpu" or "cuda"); falls back to the CPU with a message.
  void set_backend(const std::string& name);

  // --- the frame loop ---
  // Polls the source for up to `budget_ms` and feeds the assembler. Returns records taken.
  // With `stop_at_rotation_end`, stops feeding at the first radial of a new rotation (the rest
  // is kept for the next call), so the frame holds exactly one whole rotation.
  // stop_at_radials > 0: also stop once the assembler has taken that many radials in total.
  size_t pump(double budget_ms, bool stop_at_rotation_end = false, uint64_t stop_at_radials = 0);
  // Pumps until `n` more radials have been assembled (a window's cadence: a frame holds what
  // arrived since the last one); false on timeout or when the source ends first.
  bool pump_radials(uint64_t n, double timeout_s);
  // Pumps until one more rotation has completed (or the source ends or `timeout_s` passes);
  // true if it completed. For headless runs, which take one frame per rotation.
  bool pump_rotation(double timeout_s);
  // Whether there is new polar data since the last process().
  bool frame_dirty() const { return dirty_pending_; }
  // Runs the pipeline into `sink` (textures) with the current parameters; errors are kept as
  // messages. The CPU backend runs on a worker thread: a frame submitted now shows on a later
  // call, unless `wait` (headless), which blocks until it is done. Returns true when a newly
  // processed frame reached the textures.
  bool process(DisplaySink& sink, bool wait = false);

  // --- what the UI reads ---
  const gpu::FrameResult* result() const { return have_result_ ? &result_ : nullptr; }
  const gpu::PipelineParams& applied_params() const { return applied_; }
  render::TextureGeometry texture_geometry() const;
  const PolarFrame& polar() const { return polar_; }
  double sweep_azimuth_deg() const { return polar_.sweep_azimuth_deg; }
  const SourceView& source_view() const { return source_view_; }
  const std::string& backend_name() const { return backend_name_; }
  const std::string& backend_note() const { return backend_note_; }  // why not CUDA, etc.
  const std::string& processing_error() const { return processing_error_; }
  bool in_place() const { return in_place_; }
  const std::map<std::string, History>& stage_history() const { return stage_history_; }
  const std::vector<std::string>& stage_order() const { return stage_order_; }
  const History& frame_ms_history() const { return frame_ms_; }
  uint64_t frames_processed() const { return frames_processed_; }
  int display_size() const;
  void refresh_status();

 private:
  void make_pipeline(const std::string& name);
  bool collect(DisplaySink& sink);  // a finished worker job -> textures and results
  // pump() until `reached` holds; false on timeout or when the source ends first.
  bool pump_until(bool stop_at_rotation_end, uint64_t stop_at_radials,
                  const std::function<bool()>& reached, double timeout_s);
  void record(const StageTimes& extra, double ms);
  void reset_assembler();

  Settings settings_;
  std::unique_ptr<RecordSource> source_;
  std::unique_ptr<sweep::SweepAssembler> assembler_;
  std::unique_ptr<gpu::Pipeline> pipeline_;  // CUDA: run on this thread (interop)
  std::unique_ptr<PipelineWorker> worker_;   // CPU: run on a worker thread
  bool pipeline_fresh_ = true;               // has not seen a frame: send all rows
  std::vector<cat240::Record> records_;
  std::deque<cat240::Record> held_;
  std::unique_ptr<capture::CaptureWriter> recorder_;
  bool raw_recording_ = false;
  // Which file rotation is being drawn: set by seeks, advanced by each completed rotation.
  uint64_t shown_rotation_ = 0;
  uint64_t seen_completions_ = 0;
  void track_rotations();
  std::string recording_error_;
  void record_datagrams(
      const std::vector<cat240::Record>&
          records);  // polled but not yet fed (rotation boundary in headless runs)
  PolarFrame polar_;
  bool dirty_pending_ = false;
  bool source_ended_ = false;
  bool frozen_ = false;  // pause for sources without replay control (live UDP): stop displaying
  gpu::FrameResult result_;
  gpu::PipelineParams applied_;
  bool have_result_ = false;
  bool in_place_ = false;
  std::string backend_name_ = "cpu";
  std::string backend_note_;
  std::string processing_error_;
  SourceView source_view_;
  std::map<std::string, History> stage_history_;
  std::vector<std::string> stage_order_;
  History frame_ms_;
  uint64_t frames_processed_ = 0;
};

}  // namespace sweepline::ui
