#pragma once
// The engine: source -> sweep assembly -> pipeline -> results, with recording, the backend
// choice and its fallback to the CPU, and the frame history. It has no window and links neither
// GL, GLFW nor ImGui: the console (ui/) reads its state and sends it commands, the headless
// runner and the tests drive it the same way. Errors from the source or the pipeline are kept
// as messages for the UI (and logged); they never end the program.
//
// Ingest: a live source (udp://) is read, decoded and assembled by an ingest thread of the
// engine's, which never waits for processing: when the pipeline is slower than the feed, the
// assembler keeps every row up to date and the pipeline takes the newest state when it is free,
// so whole frames are dropped (counted: frames_dropped()), never datagrams. Replays and the
// simulator deliver when asked, so pump() reads them on the caller's thread (the same code).
//
// The frame path, one for both backends: pump() feeds the assembler; update() (each UI frame)
// collects the frame in flight if it has finished, then hands the assembler's new rows to the
// pipeline through one FrameRunner, with the display's surfaces when the display takes them in
// place (CUDA-GL interop) or asking for host images otherwise (CPU). A frame is collected at the
// earliest on the next update(), through a non-blocking query: the caller never waits on the GPU
// or on the CPU worker. process_and_wait() is the explicit blocking variant (headless runs).
//
// Commands and reads are for one thread (the UI's); the pipeline may run on another (the CPU
// runner's thread), which the engine hides.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/capture/capture_writer.hpp"
#include "app/common/display_geometry.hpp"
#include "app/common/polar_frame.hpp"
#include "app/engine/display_port.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/engine/frame_runner.hpp"
#include "app/engine/label_identities.hpp"
#include "app/engine/track_feed.hpp"
#include "app/engine/tracking.hpp"
#include "app/source/source.hpp"
#include "app/sweep/sweep_assembler.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::engine {

// A bounded history of one value per collected frame (the timing plots).
struct History {
  static constexpr size_t kMax = 240;  // about four seconds of frames at 60 Hz
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
  bool live = false;            // read by the ingest thread (udp://)
  // Rotations that completed between two frames handed to the pipeline, beyond the first: the
  // pipeline was busy for longer than a rotation and never saw that frame on its own.
  uint64_t frames_dropped = 0;
};

// Makes the pipeline for a backend (tests inject fakes); gpu::make_pipeline by default.
using PipelineFactory = std::function<std::unique_ptr<gpu::Pipeline>(gpu::Backend)>;

class Engine {
 public:
  explicit Engine(EngineSettings settings, PipelineFactory factory = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const EngineSettings& settings() const { return settings_; }

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
  // The source panel's form (scenario, seed, rpm, file path, UDP group, port, interface). The
  // uri, speed and loop are kept: open_source(), set_speed() and set_loop() change those.
  void set_source_form(const SourceSettings& form);
  // Records the feed to a pcap file: a live UDP source's datagrams exactly as they arrive (the
  // source's raw tap: bytes, arrival times, addresses, also datagrams that fail to decode);
  // other sources' records re-encoded, one datagram each, to the source form's group:port (raw
  // video octets kept). False with the reason in recording_error() when the file cannot be
  // created.
  bool start_recording(const std::string& path);
  void stop_recording();
  bool recording() const;
  // True while the current recording is the source's raw datagram tap.
  bool recording_raw() const { return raw_recording_; }
  uint64_t recorded_datagrams() const;
  const std::string& recording_error() const { return recording_error_; }
  // Switches the backend now ("cpu" or "cuda"); falls back to the CPU with a message. A frame
  // in flight on the old backend is dropped (the CPU runner's thread is joined).
  void set_backend(const std::string& name);
  // Pipeline parameters for the next frame (width and height are the display size's).
  void set_params(const gpu::PipelineParams& params);
  void set_display_size(int side);  // 0: automatic (4096 with CUDA, 1536 on the CPU)
  // Where frames go; null: results only (no pixels). The port must outlive its use here: the
  // console sets itself on construction and clears itself on destruction.
  void set_display(DisplayPort* port);

  // --- target tracking (docs/tracking.md) ---
  // The tracker is fed at each collected frame, on the thread that collects it, with the
  // frame's finished plots, in the plane of own ship's navigation: NMEA over UDP when
  // navigation.udp names a feed, else the simulator's own ship (sim://), else none (tracks
  // relative, a warning in tracking().warning). It is reset when a source is opened or closed,
  // on a seek or a step back, and when the video's clock falls back (a replay loops); not on a
  // backend switch (the tracks coast over the dropped frame).
  const TrackingView& tracking() const { return tracking_; }
  // A display client's CAT048 track feeds (udp://...?tracks=GROUP:PORT, docs/deployment.md):
  // the tracks are the servers', no local tracker runs. Null when the source has none.
  const net::RemoteTracks* remote_tracks() const { return remote_.get(); }
  // Manual acquisition at a point of the tracker's plane (the UI converts from the PPI: own
  // ship's position plus the offset on the display, rotated by the heading when head-up). The
  // new or marked track's id; nullopt when nothing is near, capacity is reached or tracking is
  // off.
  std::optional<int> acquire(double x_m, double y_m);
  bool cancel_track(int track_id);  // false when no such track
  void cancel_all_tracks();
  // An automatic acquisition zone; its id, or nullopt with the reason in
  // tracking().command_error when the zone is malformed. Zones persist in the settings.
  std::optional<int> add_zone(const track::AcquisitionZone& zone);
  bool remove_zone(int zone_id);
  // A zone edited on the PPI in place of zone_id: validated first, so that a malformed edit
  // (nullopt, the reason in command_error) leaves the old zone as it was. Returns its id, which
  // an edit keeps.
  std::optional<int> replace_zone(int zone_id, const track::AcquisitionZone& zone);
  bool acknowledge_alarm(int alarm_id);  // false when no such alarm
  void acknowledge_all_alarms();
  // Applies new tracking settings (limits, life rules, zones, on/off) from the next update;
  // tracks are kept unless tracking is switched off. False, with the reason in
  // tracking().command_error, when a value is out of range (nothing changes then).
  bool set_tracking_settings(const TrackingSettings& s);
  // (Re)starts or stops the NMEA receiver. False, with the reason in tracking().nmea_error,
  // when the feed cannot be opened (the settings are kept: the console shows why).
  bool set_navigation_settings(const NavigationSettings& s);
  // Drops every track and alarm (zones are kept).
  void reset_tracking();

  // --- the frame loop ---
  // Polls the source for up to `budget_ms` and feeds the assembler. Returns records taken.
  // With `stop_at_rotation_end`, stops feeding at the first radial of a new rotation (the rest
  // is kept for the next call), so the frame holds exactly one whole rotation.
  // stop_at_radials > 0: also stop once the assembler has taken that many radials in total.
  // A live source is fed by the ingest thread instead: pump() then returns the records it
  // assembled since the last call, at once.
  size_t pump(double budget_ms, bool stop_at_rotation_end = false, uint64_t stop_at_radials = 0);
  // Pumps until `n` more radials have been assembled (a window's cadence: a frame holds what
  // arrived since the last one); false on timeout, on a stop request or when the source ends
  // first.
  bool pump_radials(uint64_t n, double timeout_s);
  // Pumps until one more rotation has completed (or the source ends, a stop is requested or
  // `timeout_s` passes); true if it completed. For headless runs, which take one frame per
  // rotation. A live source's rotation is one newer than the last frame handed to the pipeline
  // (so a frame that took longer than a rotation to process is followed at once).
  bool pump_rotation(double timeout_s);
  // A flag (SIGINT/SIGTERM, cli::StopSignals) that ends the pump_*() waits early; null: none.
  // It must outlive its use here.
  void set_stop_flag(const std::atomic<bool>* flag) { stop_flag_ = flag; }
  bool stop_requested() const { return stop_flag_ && stop_flag_->load(); }
  // Sees every batch of records the source delivers, as it is polled (on the ingest thread for
  // a live source, else on the caller's), before the assembler takes them: the headless server
  // (app/serve) re-sends the video from it. It must not throw and must be safe on the ingest
  // thread. Set it before open_source(); empty: none.
  using RecordTap = std::function<void(const std::vector<cat240::Record>&)>;
  void set_record_tap(RecordTap tap) { record_tap_ = std::move(tap); }
  // Whether there is new polar data not yet handed to the pipeline.
  bool frame_dirty() const { return dirty_pending_; }
  // Never waits: collects the frame in flight if it has finished (its results, and its host
  // images to the display), then hands new data to the pipeline if the runner is free. True
  // when a frame was collected.
  bool update();
  // Waits, explicitly (headless runs, tests): finishes the frame in flight, then processes the
  // new data and waits for that frame too. True when a frame was collected.
  bool process_and_wait();
  // A frame has been handed to the pipeline and not collected yet.
  bool frame_in_flight() const { return runner_ && runner_->busy(); }

  // --- what the UI reads ---
  const gpu::FrameResult* result() const { return have_result_ ? &result_ : nullptr; }
  const gpu::PipelineParams& applied_params() const { return applied_; }
  const DisplayGeometry& geometry() const { return geometry_; }
  const PolarFrame& polar() const { return polar_; }  // the last frame handed to the pipeline
  double sweep_azimuth_deg() const { return polar_.sweep_azimuth_deg; }
  const SourceView& source_view() const { return source_view_; }
  const std::string& backend_name() const { return backend_name_; }
  const std::string& backend_note() const { return backend_note_; }  // why not CUDA, etc.
  const std::string& processing_error() const { return processing_error_; }
  // The collected frame was written into the display's surfaces in place (CUDA-GL interop).
  bool in_place() const { return in_place_; }
  const std::map<std::string, History>& stage_history() const { return stage_history_; }
  const std::vector<std::string>& stage_order() const { return stage_order_; }
  // Per frame: the pipeline's time (CPU: wall time on the worker thread; CUDA: the device's
  // span over the stages) plus the display's own stage (upload or interop map).
  const History& frame_ms_history() const { return frame_ms_; }
  uint64_t frames_processed() const { return frames_processed_; }
  int display_size() const;
  void refresh_status();

 private:
  // What the engine remembers about the frame in flight until it is collected.
  struct InFlight {
    uint64_t generation = 0;  // stale when it differs from generation_ (source reopened)
    bool in_place = false;
    StageTimes display_times;  // the display's host time at submission ("interop map")
    DisplayGeometry geometry;
    // What the tracker needs of the frame handed over: its changed rows (relative to the bow)
    // and their sweep times.
    SweepSector sector;
    std::optional<double> earliest_s, latest_s;
    int azimuths = 0, range_bins = 0;
    double range_m = 0;
    bool feed_tracker = true;  // false: the held frame again (new parameters while paused)
  };

  void make_pipeline(const std::string& name);
  void reprocess_held_frame();  // paused: hand the held frame to the pipeline again
  bool submit();
  bool collect(FrameRunner::Output& out);
  // The collected frame's label identities, to the display: with its host images, or coloured
  // in place on the device (app/engine/label_identities.hpp).
  void colour_labels(FrameRunner::Output& out, StageTimes& times);
  // pump() until `reached` holds; false on timeout or when the source ends first.
  bool pump_until(bool stop_at_rotation_end, uint64_t stop_at_radials,
                  const std::function<bool()>& reached, double timeout_s);
  void record(const StageTimes& extra, double ms);
  void reset_assembler();
  void track_rotations();
  void record_datagrams(const std::vector<cat240::Record>& records);
  // Feeds held and new records to the assembler (ingest_mu_ held); see pump().
  size_t feed_source(double budget_ms, bool stop_at_rotation_end, uint64_t stop_at_radials);
  void start_ingest();  // a live source: its ingest thread
  void stop_ingest();
  void ingest_loop();
  uint64_t assembled_rotations() const;  // takes ingest_mu_
  // Target tracking (engine_tracking.cpp).
  void make_tracker();
  void feed_tracker(const InFlight& frame);
  nav::OwnShipState own_ship_at(double frame_t_s, OwnShipSource& from);
  void refresh_tracking_view();
  // The tracker's zones, in its order, into the settings (saved) and the tracking view's copy.
  void store_zones();
  void start_nmea();
  // A display client's track feeds (engine_remote.cpp): opened with the source, polled at each
  // update, shown instead of the tracker's.
  static std::unique_ptr<net::RemoteTracks> open_remote_tracks(const std::string& uri);
  void poll_remote_tracks();
  void refresh_remote_view();

  EngineSettings settings_;
  PipelineFactory factory_;
  // The ingest thread (live sources) and the caller's thread share, under ingest_mu_: the
  // source's poll() and status(), the assembler, held_, records_, dirty_pending_,
  // source_ended_, source_failed_, ingest_error_, frozen_ and ingested_records_. source_ and
  // assembler_ are replaced only while no ingest thread runs. The caller waits on ingest_cv_ for
  // news.
  mutable std::mutex ingest_mu_;
  std::condition_variable ingest_cv_;
  std::thread ingest_;
  std::atomic<bool> ingest_stop_{false};
  uint64_t ingested_records_ = 0;  // since the last pump() (live sources)
  const std::atomic<bool>* stop_flag_ = nullptr;
  RecordTap record_tap_;
  DisplayPort* display_ = nullptr;
  std::unique_ptr<RecordSource> source_;
  std::unique_ptr<sweep::SweepAssembler> assembler_;
  std::unique_ptr<FrameRunner> runner_;
  InFlight in_flight_;
  LabelIdentities label_ids_;
  int label_ids_width_ = 0, label_ids_height_ = 0;  // the frames label_ids_ has seen
  uint64_t generation_ = 0;
  bool pipeline_fresh_ = true;  // has not seen a frame: send all rows
  bool reprocess_ = false;      // the next hand-off is the held frame again (not new video)
  bool opened_once_ = false;    // open_source() was called (speed and loop: see there)
  std::vector<cat240::Record> records_;
  std::deque<cat240::Record> held_;  // polled but not yet fed (rotation boundary in headless runs)
  std::unique_ptr<capture::CaptureWriter> recorder_;
  bool raw_recording_ = false;
  std::string recording_error_;
  // Which file rotation is being drawn: set by seeks, advanced by each completed rotation.
  uint64_t shown_rotation_ = 0;
  uint64_t seen_completions_ = 0;
  PolarFrame polar_;
  std::atomic<bool> dirty_pending_{false};  // frame_dirty() reads it without the lock
  bool source_ended_ = false;
  bool source_failed_ = false;  // poll() threw: the reason in ingest_error_
  std::string ingest_error_;
  bool frozen_ = false;  // pause for sources without replay control (live UDP): stop displaying
  // Assembled rotations when the last frame was handed to the pipeline (frames_dropped_).
  uint64_t handed_rotations_ = 0;
  bool handed_any_ = false;
  uint64_t frames_dropped_ = 0;
  gpu::FrameResult result_;
  gpu::PipelineParams applied_;
  DisplayGeometry geometry_;
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
  // Target tracking: used on the caller's thread only (the frame is collected there).
  std::unique_ptr<track::Tracker> tracker_;
  std::unique_ptr<nav::NmeaUdpReceiver> nmea_;
  std::unique_ptr<net::RemoteTracks> remote_;  // the servers' tracks (display clients)
  // What the remote view was last built from (poll_remote_tracks); none: build at the next poll.
  struct RemoteViewStamp {
    uint64_t datagrams = 0;
    size_t stale = 0;
    std::chrono::steady_clock::time_point at;
  };
  std::optional<RemoteViewStamp> remote_view_;
  TrackingView tracking_;
  ClockUnwrapper clock_;
  double tracker_now_s_ = 0;  // the last update's now (tracker clock)
  bool tracker_fed_ = false;  // an update happened since the last reset
  double nmea_offset_s_ = 0;  // the receiver's clock minus the video's (live: at hand-off)
  bool nmea_offset_known_ = false;
  std::vector<track::TrackPlot> track_plots_;  // reused per update
  std::string feed_error_;  // why the latest frame fed nothing (shown in the warning)
};

}  // namespace sweepline::engine
