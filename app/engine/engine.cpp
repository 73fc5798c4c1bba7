#include "app/engine/engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "app/asterix/cat240_encoder.hpp"
#include "app/common/check.hpp"
#include "gpu/backend/make_pipeline.hpp"

namespace sweepline::engine {

namespace {

// The NMEA receiver's clock minus the video's is re-measured at each hand-off and smoothed; a
// jump larger than this (a new feed, a seek, an unpaced replay) is taken at once.
constexpr double kNmeaOffsetJumpS = 1.0;
constexpr double kNmeaOffsetGain = 0.1;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

DisplayGeometry frame_geometry(const gpu::PipelineParams& p, const PolarFrame& frame) {
  DisplayGeometry g;
  g.width = p.width;
  g.height = p.height;
  g.metres_per_pixel = gpu::display_geometry(p, frame).metres_per_pixel;
  g.origin_east_m = p.origin_east_m;
  g.origin_north_m = p.origin_north_m;
  g.frame_range_m = frame.range_m;
  return g;
}

}  // namespace

Engine::Engine(EngineSettings settings, PipelineFactory factory)
    : settings_(std::move(settings)), factory_(std::move(factory)) {
  if (!factory_) factory_ = [](gpu::Backend b) { return gpu::make_pipeline(b); };
  make_pipeline(settings_.processing.backend);
  reset_assembler();
  // The NMEA receiver lives with the engine, not with the source: own ship's feed does not
  // change when the video does.
  start_nmea();
  make_tracker();
}

Engine::~Engine() {
  stop_ingest();
}

void Engine::reset_assembler() {
  sweep::SweepConfig c;
  c.azimuths = std::clamp(settings_.processing.azimuths, 16, 65536);
  c.range_bins = std::clamp(settings_.processing.range_bins, 16, 65536);
  assembler_ = std::make_unique<sweep::SweepAssembler>(c);
  // A frame of the previous source still in flight must not show over the new one: it is
  // dropped when collected (no wait here).
  ++generation_;
  pipeline_fresh_ = true;
  polar_ = PolarFrame();
  polar_.range_m = 0;
  dirty_pending_ = false;
  handed_rotations_ = 0;
  handed_any_ = false;
  have_result_ = false;
  geometry_ = DisplayGeometry{};
}

void Engine::make_pipeline(const std::string& name) {
  backend_note_.clear();
  gpu::Backend want = gpu::Backend::Cpu;
  try {
    want = gpu::backend_from_string(name);
  } catch (const Error& e) {
    backend_note_ = e.what();
  }
  runner_.reset();  // the old backend's frame in flight is dropped
  if (want == gpu::Backend::Cuda) {
    try {
      runner_ = make_frame_runner(factory_(gpu::Backend::Cuda));
      backend_name_ = "cuda";
      spdlog::info("pipeline: CUDA backend");
    } catch (const std::exception& e) {
      backend_note_ = std::string("CUDA backend unavailable, using the CPU: ") + e.what();
      spdlog::warn("{}", backend_note_);
      want = gpu::Backend::Cpu;
    }
  }
  if (want == gpu::Backend::Cpu) {
    runner_ = make_frame_runner(factory_(gpu::Backend::Cpu));
    backend_name_ = "cpu";
    spdlog::info("pipeline: CPU backend");
  }
  have_result_ = false;
  in_place_ = false;
  // A new pipeline has none of the earlier rows: give it the whole frame next time.
  pipeline_fresh_ = true;
  if (polar_.range_m > 0) dirty_pending_ = true;
}

void Engine::set_backend(const std::string& name) {
  settings_.processing.backend = name;
  make_pipeline(name);
}

void Engine::set_params(const gpu::PipelineParams& params) {
  settings_.processing.params = params;
  // The next frame handed to the pipeline uses them. While paused no new frame comes: the held
  // one is processed again (all its rows), without feeding the tracker a second time.
  if (paused() && polar_.range_m > 0) reprocess_held_frame();
}

void Engine::reprocess_held_frame() {
  dirty_pending_ = true;
  pipeline_fresh_ = true;
  reprocess_ = true;
}

void Engine::set_display_size(int side) {
  settings_.processing.size = std::max(side, 0);
  if (paused() && polar_.range_m > 0) reprocess_held_frame();
}

void Engine::set_display(DisplayPort* port) {
  display_ = port;
}

int Engine::display_size() const {
  if (settings_.processing.size > 0) return std::clamp(settings_.processing.size, 64, 16384);
  return backend_name_ == "cuda" ? 4096 : 1536;
}

bool Engine::open_source(const std::string& uri) {
  // Replay speed and loop belong to the source they were set for: the settings' apply to the
  // first source opened (the settings file's, the command line's) and to that source again;
  // another one opened later starts at the defaults (a new capture must not inherit x8).
  const bool same = uri == settings_.source.uri || !opened_once_;
  SourceOptions opt;
  opt.speed = same ? settings_.source.speed : SourceSettings{}.speed;
  opt.loop = same ? settings_.source.loop : SourceSettings{}.loop;
  std::unique_ptr<RecordSource> next;
  std::unique_ptr<net::RemoteTracks> next_remote;
  std::string failure;
  auto try_open = [&](const std::string& u, const SourceOptions& o) {
    try {
      next = sweepline::open_source(u, o);
      next_remote = open_remote_tracks(u);
      return true;
    } catch (const std::exception& e) {
      next.reset();
      next_remote.reset();
      failure = e.what();
      spdlog::error("cannot open source {}: {}", u, failure);
      return false;
    }
  };
  if (!try_open(uri, opt)) {
    // The working source's own sockets may hold the port the new one needs (the same feed bound
    // to another address): then try again without it, and if that fails too, it returns.
    const bool port_held =
        source_ && source_->live() && failure.find(std::strerror(EADDRINUSE)) != std::string::npos;
    if (source_ && !port_held) {
      // A mistyped path or address is refused; the working source keeps running.
      source_view_.error = failure;
      return false;
    }
    if (source_) {
      const std::string old_uri = settings_.source.uri;
      close_source();
      if (!try_open(uri, opt)) {
        const std::string why = failure;
        open_source(old_uri);
        source_view_.error = why;
        return false;
      }
    }
  }
  const std::string error = next ? std::string() : failure;
  close_source();
  source_ = std::move(next);
  remote_ = std::move(next_remote);
  remote_view_.reset();
  source_view_.error = error;
  settings_.source.uri = uri;
  settings_.source.speed = opt.speed;
  settings_.source.loop = opt.loop;
  opened_once_ = true;
  if (source_) spdlog::info("source opened: {}", uri);
  reset_assembler();
  make_tracker();
  nmea_offset_known_ = false;
  held_.clear();
  shown_rotation_ = seen_completions_ = 0;
  source_ended_ = false;
  source_failed_ = false;
  frozen_ = false;
  frames_dropped_ = 0;
  refresh_status();
  if (source_ && source_->live()) start_ingest();
  return source_ != nullptr;
}

void Engine::close_source() {
  stop_recording();
  stop_ingest();
  source_.reset();
  const bool was_remote = remote_ != nullptr;
  remote_.reset();
  source_view_ = SourceView{};
  if (tracker_fed_ || was_remote) make_tracker();  // a display client gets its tracker back
}

void Engine::start_ingest() {
  ingest_stop_.store(false);
  ingested_records_ = 0;
  ingest_ = std::thread([this] { ingest_loop(); });
}

void Engine::stop_ingest() {
  if (!ingest_.joinable()) return;
  ingest_stop_.store(true);
  ingest_.join();
}

void Engine::ingest_loop() {
  // Never waits for anything but the feed: frames are handed off by the caller's thread, which
  // takes ingest_mu_ only to copy the changed rows.
  while (!ingest_stop_.load(std::memory_order_relaxed)) {
    size_t n = 0;
    bool ended = false;
    {
      std::lock_guard lock(ingest_mu_);
      n = feed_source(0, false, 0);  // one poll: what the receiver has queued
      ingested_records_ += n;
      ended = source_ended_;
    }
    if (n > 0 || ended) ingest_cv_.notify_all();
    if (ended) return;
    if (n == 0) source_->wait_for_data(20);
  }
}

void Engine::set_source_form(const SourceSettings& form) {
  SourceSettings s = form;
  s.uri = settings_.source.uri;
  s.speed = settings_.source.speed;
  s.loop = settings_.source.loop;
  settings_.source = std::move(s);
}

bool Engine::paused() const {
  // A replay that has ended is as good as paused: Play starts it again.
  if (source_ && source_->replay()) return source_->replay()->paused() || source_ended_;
  std::lock_guard lock(ingest_mu_);
  return frozen_;
}

void Engine::set_paused(bool paused) {
  if (source_ && source_->replay()) {
    if (!paused && source_ended_) seek_rotation(0);  // Play after the end: from the start
    if (!paused) reprocess_ = false;                 // new video comes: track it
    source_->replay()->set_paused(paused);
  } else {
    std::lock_guard lock(ingest_mu_);
    frozen_ = paused;
  }
  spdlog::info("{}", paused ? "paused" : "playing");
}

void Engine::step_rotation(int direction) {
  if (!source_ || !source_->replay()) return;
  auto* r = source_->replay();
  if (!r->paused()) r->set_paused(true);
  if (direction >= 0) {
    r->step_rotation();
  } else {
    // Back one: start the previous rotation afresh and let the replay deliver it.
    seek_rotation(shown_rotation_ > 0 ? shown_rotation_ - 1 : 0);
    r->step_rotation();
  }
}

void Engine::track_rotations() {
  const uint64_t c = assembler_->counters().rotations;
  if (c > seen_completions_) shown_rotation_ += c - seen_completions_;
  seen_completions_ = c;
}

void Engine::seek_rotation(uint64_t n) {
  if (!source_ || !source_->replay()) return;
  source_->replay()->seek_rotation(n);
  assembler_->reset();
  make_tracker();  // the tracks belong to the time left behind
  held_.clear();
  source_ended_ = false;  // the replay delivers again from there
  const uint64_t count = source_->replay()->rotation_count();
  shown_rotation_ = count > 0 ? std::min(n, count - 1) : n;
  seen_completions_ = assembler_->counters().rotations;
}

void Engine::set_speed(double factor) {
  settings_.source.speed = factor;
  if (source_ && source_->replay()) source_->replay()->set_speed(factor);
}

void Engine::set_loop(bool loop) {
  settings_.source.loop = loop;
  if (source_ && source_->replay()) source_->replay()->set_loop(loop);
}

size_t Engine::pump(double budget_ms, bool stop_at_rotation_end, uint64_t stop_at_radials) {
  if (!source_) return 0;
  std::unique_lock lock(ingest_mu_);
  size_t n = 0;
  if (ingest_.joinable()) {
    n = std::exchange(ingested_records_, 0);  // the ingest thread fed them
  } else {
    n = feed_source(budget_ms, stop_at_rotation_end, stop_at_radials);
  }
  track_rotations();
  if (source_failed_) {  // the message is in ingest_error_; refresh_status() shows it
    lock.unlock();
    stop_ingest();
    source_view_.error = ingest_error_;
    source_.reset();
  }
  return n;
}

size_t Engine::feed_source(double budget_ms, bool stop_at_rotation_end, uint64_t stop_at_radials) {
  if (source_failed_) return 0;
  const double end = now_s() + budget_ms / 1000.0;
  const uint64_t start_rotations = assembler_->counters().rotations;
  size_t total = 0;
  // Feeds held records first; false when a rotation boundary stopped the feeding.
  auto feed = [&]() {
    while (!held_.empty()) {
      if (!frozen_) {
        assembler_->add(held_.front());
        dirty_pending_ = true;
      }
      held_.pop_front();
      ++total;
      if (stop_at_rotation_end && assembler_->counters().rotations > start_rotations) return false;
      if (stop_at_radials > 0 && assembler_->counters().radials >= stop_at_radials) return false;
    }
    return true;
  };
  try {
    if (!feed()) return total;
    do {
      records_.clear();
      const bool alive = source_->poll(records_);
      const bool got = !records_.empty();
      // Recorded before the move below, which leaves the records without their video.
      if (recorder_ && got) record_datagrams(records_);
      if (record_tap_ && got) record_tap_(records_);
      held_.insert(held_.end(), std::make_move_iterator(records_.begin()),
                   std::make_move_iterator(records_.end()));
      if (!feed()) return total;
      if (!alive) {
        if (!source_ended_) spdlog::info("source ended: {}", settings_.source.uri);
        source_ended_ = true;
        assembler_->flush();
        dirty_pending_ = true;
        break;
      }
      if (!got) break;
    } while (now_s() < end);
  } catch (const std::exception& e) {
    ingest_error_ = std::string("source failed: ") + e.what();
    spdlog::error("{}", ingest_error_);
    source_failed_ = true;
    source_ended_ = true;
  }
  return total;
}

bool Engine::recording() const {
  return raw_recording_ ? (source_ && source_->raw_recording()) : recorder_ != nullptr;
}

bool Engine::start_recording(const std::string& path) {
  stop_recording();
  try {
    if (source_ && source_->start_raw_recording(path, "pcap")) {
      raw_recording_ = true;
      recording_error_.clear();
      return true;
    }
    recorder_ = capture::open_pcap_writer(path);
    recording_error_.clear();
    spdlog::info("recording to {}", path);
    return true;
  } catch (const std::exception& e) {
    recording_error_ = e.what();
    spdlog::error("cannot record: {}", e.what());
    return false;
  }
}

void Engine::stop_recording() {
  if (raw_recording_) {
    raw_recording_ = false;
    if (source_) source_->stop_raw_recording();
    return;
  }
  if (!recorder_) return;
  try {
    recorder_->flush();
    spdlog::info("recording stopped after {} datagrams", recorder_->datagrams_written());
  } catch (const std::exception& e) {
    recording_error_ = e.what();
  }
  recorder_.reset();
}

uint64_t Engine::recorded_datagrams() const {
  if (raw_recording_) return source_ ? source_->raw_recorded() : 0;
  return recorder_ ? recorder_->datagrams_written() : 0;
}

void Engine::record_datagrams(const std::vector<cat240::Record>& records) {
  uint32_t group = 0;
  try {
    group = capture::parse_ipv4(settings_.source.udp_group);
  } catch (const std::exception&) {
    group = 0;  // not a dotted address: leave the destination unset
  }
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  try {
    for (const auto& r : records) {
      capture::Datagram d;
      d.time = r.capture_time > 0 ? r.capture_time : now;
      d.dst_ip = group;
      d.dst_port = uint16_t(settings_.source.udp_port);
      d.payload = cat240::encode_block(r);
      recorder_->write(d);
    }
  } catch (const std::exception& e) {
    recording_error_ = std::string("recording stopped: ") + e.what();
    spdlog::error("{}", recording_error_);
    recorder_.reset();
  }
}

uint64_t Engine::assembled_rotations() const {
  std::lock_guard lock(ingest_mu_);
  return assembler_->counters().rotations;
}

bool Engine::pump_until(bool stop_at_rotation_end, uint64_t stop_at_radials,
                        const std::function<bool()>& reached, double timeout_s) {
  const double end = now_s() + timeout_s;
  while (source_ && now_s() < end && !stop_requested()) {
    if (ingest_.joinable()) {
      // The ingest thread feeds the assembler: wait for its news (briefly, to notice a stop).
      std::unique_lock lock(ingest_mu_);
      ingest_cv_.wait_for(lock, std::chrono::milliseconds(20),
                          [&] { return reached() || source_ended_; });
    } else {
      pump(50, stop_at_rotation_end, stop_at_radials);
    }
    if (!source_) return false;
    std::lock_guard lock(ingest_mu_);
    if (reached()) {
      track_rotations();
      return true;
    }
    if (source_ended_) return false;
  }
  return false;
}

bool Engine::pump_radials(uint64_t n, double timeout_s) {
  if (!source_) return false;
  uint64_t target = 0;
  {
    std::lock_guard lock(ingest_mu_);
    target = assembler_->counters().radials + n;
  }
  return pump_until(
      false, target, [&] { return assembler_->counters().radials >= target; }, timeout_s);
}

bool Engine::pump_rotation(double timeout_s) {
  if (!source_) return false;
  uint64_t start = assembled_rotations();
  // Live: the rotation after the last frame handed off, which may already be complete.
  if (ingest_.joinable() && handed_any_) start = std::min(start, handed_rotations_);
  return pump_until(
      true, 0, [&] { return assembler_->counters().rotations > start; }, timeout_s);
}

void Engine::record(const StageTimes& extra, double ms) {
  frame_ms_.push(float(ms));
  for (const auto& st : extra) result_.times.push_back(st);
  for (const auto& st : result_.times) {
    if (!stage_history_.count(st.stage)) stage_order_.push_back(st.stage);
    stage_history_[st.stage].push(float(st.ms));
  }
  have_result_ = true;
  processing_error_.clear();
  ++frames_processed_;
}

bool Engine::submit() {
  {
    std::lock_guard lock(ingest_mu_);
    if (!dirty_pending_ || runner_->busy()) return false;
    assembler_->hand_off(polar_);
    dirty_pending_ = false;
    const uint64_t r = assembler_->counters().rotations;
    if (handed_any_ && r > handed_rotations_ + 1) frames_dropped_ += r - handed_rotations_ - 1;
    handed_rotations_ = r;
    handed_any_ = true;
  }
  if (pipeline_fresh_) polar_.dirty = {0, polar_.azimuths};
  if (polar_.range_m <= 0 || polar_.cells.empty()) return false;

  gpu::PipelineParams p = settings_.processing.params;
  p.width = p.height = display_size();
  InFlight f;
  f.generation = generation_;
  f.feed_tracker = !std::exchange(reprocess_, false);
  std::unique_ptr<SurfaceLease> lease;
  if (display_ && !runner_->threaded()) {
    try {
      lease = display_->map_surfaces(runner_->pipeline(), p.width, p.height, p.label_enabled,
                                     f.display_times);
    } catch (const DisplayUnavailable& e) {
      const std::string note = std::string(e.what()) + "; using the CPU backend";
      spdlog::warn("{}", note);
      make_pipeline("cpu");
      backend_note_ = note;
      p.width = p.height = display_size();
      polar_.dirty = {0, polar_.azimuths};
      f.display_times.clear();
    } catch (const std::exception& e) {
      processing_error_ = std::string("display: ") + e.what();
      spdlog::error("{}", processing_error_);
      pipeline_fresh_ = true;  // this frame's rows were not consumed: resend them all
      return false;
    }
  }
  f.in_place = lease != nullptr;
  f.geometry = frame_geometry(p, polar_);
  f.sector = frame_sector(polar_);
  f.earliest_s = frame_earliest_time(polar_);
  f.latest_s = frame_latest_time(polar_);
  f.azimuths = polar_.azimuths;
  f.range_bins = polar_.range_bins;
  f.range_m = polar_.range_m;
  if (nmea_ && f.latest_s) {
    // The video's rows have just been handed over: the receiver's clock now, minus their time,
    // maps the video's clock (a time of day, the simulator's) onto the NMEA arrival stamps.
    const double off = nmea_->now() - *f.latest_s;
    if (!nmea_offset_known_ || std::abs(off - nmea_offset_s_) > kNmeaOffsetJumpS)
      nmea_offset_s_ = off;
    else
      nmea_offset_s_ += kNmeaOffsetGain * (off - nmea_offset_s_);
    nmea_offset_known_ = true;
  }
  runner_->submit(polar_, p, lease ? &lease->targets() : nullptr, display_ && !lease);
  lease.reset();  // unmaps, ordered after the frame's device work
  pipeline_fresh_ = false;
  in_flight_ = std::move(f);
  return true;
}

bool Engine::collect(FrameRunner::Output& out) {
  if (in_flight_.generation != generation_) return false;  // the source changed meanwhile
  if (!out.error.empty()) {
    if (processing_error_ != out.error) spdlog::error("processing: {}", out.error);
    processing_error_ = out.error;
    pipeline_fresh_ = true;  // the failed frame's rows were not consumed: resend them all
    return false;
  }
  StageTimes extra = std::move(in_flight_.display_times);
  double ms = out.ms;
  for (const auto& st : extra) ms += st.ms;
  const size_t before = extra.size();
  try {
    colour_labels(out, extra);
  } catch (const std::exception& e) {
    processing_error_ = std::string("label colours: ") + e.what();
    spdlog::error("{}", processing_error_);
    return false;
  }
  if (display_ && !out.images.empty()) {
    try {
      display_->present(out.images, extra);
    } catch (const std::exception& e) {
      processing_error_ = std::string("display upload: ") + e.what();
      spdlog::error("{}", processing_error_);
      return false;
    }
  }
  for (size_t i = before; i < extra.size(); ++i) ms += extra[i].ms;
  result_ = std::move(out.result);
  applied_ = out.params;
  in_place_ = in_flight_.in_place;
  geometry_ = in_flight_.geometry;
  record(extra, ms);
  if (in_flight_.feed_tracker) feed_tracker(in_flight_);
  return true;
}

void Engine::colour_labels(FrameRunner::Output& out, StageTimes& times) {
  const gpu::FrameResult& r = out.result;
  if (!display_ || !r.labelled) return;
  if (!in_flight_.in_place && out.images.labels.empty()) return;
  ScopedStageTimer t(times, "label colour");
  // Another display size: the previous frame's centroids are in other pixels.
  if (r.width != label_ids_width_ || r.height != label_ids_height_) label_ids_.reset();
  label_ids_width_ = r.width;
  label_ids_height_ = r.height;
  const std::vector<int32_t>& ids = label_ids_.update(r.components);
  if (in_flight_.in_place) {
    // The label layer mapped alone, coloured on the frame's stream and unmapped behind it (no
    // host wait); the device labels are the collected frame's until the next submit().
    const std::unique_ptr<SurfaceLease> lease = display_->map_label_surface(runner_->pipeline());
    runner_->colour_labels(ids, lease->targets());
  } else {
    out.images.label_ids = ids;
  }
}

bool Engine::update() {
  poll_remote_tracks();
  bool shown = false;
  if (auto out = runner_->poll()) shown = collect(*out);
  submit();
  return shown;
}

bool Engine::process_and_wait() {
  poll_remote_tracks();
  bool shown = false;
  if (auto out = runner_->wait()) shown = collect(*out);
  if (submit())
    if (auto out = runner_->wait()) shown = collect(*out) || shown;
  return shown;
}

void Engine::refresh_status() {
  poll_remote_tracks();
  SourceView& v = source_view_;
  v.open = source_ != nullptr;
  v.frames_dropped = frames_dropped_;
  if (!source_) return;
  std::lock_guard lock(ingest_mu_);
  v.live = ingest_.joinable();
  v.status = source_->status();
  if (source_failed_) v.error = ingest_error_;
  // Rotations completed since the last hand-off beyond the newest one are dropped already (the
  // next hand-off counts them the same way): a run that ends while a frame is processed shows
  // them too.
  const uint64_t assembled = assembler_->counters().rotations;
  if (handed_any_ && assembled > handed_rotations_ + 1)
    v.frames_dropped += assembled - handed_rotations_ - 1;
  if (source_ended_ && v.status.state.empty()) v.status.state = "ended";
  const auto& stats = assembler_->rotation_stats();
  v.rotations = assembler_->counters().rotations;
  v.rejected = 0;
  for (const auto& [reason, n] : assembler_->counters().rejected) v.rejected += n;
  if (!stats.empty()) {
    const auto& last = stats.back();
    v.azimuth_coverage = assembler_->config().azimuths > 0
                             ? double(last.rows_written) / double(assembler_->config().azimuths)
                             : 0;
    for (auto it = stats.rbegin(); it != stats.rend(); ++it)
      if (it->period_s > 0 && it->period_s < 120) {  // a replay loop restarts the clock
        v.rotation_period_s = it->period_s;
        break;
      }
  }
  if (auto* r = source_->replay()) {
    v.replayable = true;
    v.paused = r->paused() || source_ended_;  // an ended replay offers Play
    v.speed = r->speed();
    v.loop = r->loop();
    v.rotation_count = r->rotation_count();
    v.shown_rotation = v.rotation_count > 0 ? shown_rotation_ % v.rotation_count : shown_rotation_;
  } else {
    v.replayable = false;
    v.paused = frozen_;
  }
}

}  // namespace sweepline::engine
