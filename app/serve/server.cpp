#include "app/serve/server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "app/asterix/cat034_encoder.hpp"
#include "app/asterix/cat048_encoder.hpp"
#include "app/common/check.hpp"
#include "app/engine/engine.hpp"
#include "app/engine/report.hpp"

namespace sweepline::serve {

using nlohmann::json;

namespace {

// The bandwidth figures are also given at the rate deployments are planned for.
constexpr double kPlanningRpm = 24.0;
// The report keeps the latest rotations only (about 14 minutes at 24 rpm; with 40 tracks about
// 30 MB of JSON), so a server that runs for days does not grow without bound.
constexpr size_t kMaxReportRotations = 2000;

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double steady_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The video's time of a record: its I240/140 time of day, else its capture time.
double record_tod(const cat240::Record& r) {
  if (r.tod) return double(*r.tod) / 128.0;
  return time_of_day(r.capture_time);
}

const char* const kOutputKeys[kStreamCount] = {"video", "plots", "tracks", "service", "nmea"};

std::array<StreamCounters, kStreamCount> all_counters(const Outputs& out) {
  std::array<StreamCounters, kStreamCount> c;
  for (int i = 0; i < kStreamCount; ++i) c[size_t(i)] = out.counters(Stream(i));
  return c;
}

}  // namespace

void check_serve_settings(const ServeSettings& s) {
  SWL_CHECK(s.ttl >= 0 && s.ttl <= 255, "serve.ttl must be 0..255, not " + std::to_string(s.ttl));
  try {
    check_reduction(s.video);
  } catch (const Error& e) {
    throw Error(std::string("serve: ") + e.what());
  }
}

void load_serve_config(const std::string& path, engine::EngineSettings& eng, ServeSettings& s) {
  std::ifstream in(path);
  SWL_CHECK(in, "cannot read settings file '" + path + "'");
  try {
    const json j = json::parse(in);
    SWL_CHECK(j.is_object(), "not a JSON object");
    if (j.contains("source")) engine::read_source(j["source"], eng.source);
    if (j.contains("processing")) engine::read_processing(j["processing"], eng.processing);
    if (j.contains("tracking")) engine::read_tracking(j["tracking"], eng.tracking);
    if (j.contains("navigation")) engine::read_navigation(j["navigation"], eng.navigation);
    if (j.contains("serve")) {
      const json& v = j["serve"];
      SWL_CHECK(v.is_object(), "\"serve\" must be an object");
      for (int i = 0; i < kStreamCount; ++i) {
        std::string ep = s.outputs[size_t(i)];
        engine::read_field(v, kOutputKeys[i], ep);
        if (ep == "off") ep.clear();
        if (!ep.empty()) {
          uint32_t ip = 0;
          uint16_t port = 0;
          try {
            sim::parse_endpoint(ep, ip, port);
          } catch (const Error&) {
            throw Error(std::string("serve.") + kOutputKeys[i] +
                        " must be GROUP:PORT or off, not '" + ep + "'");
          }
        }
        s.outputs[size_t(i)] = ep;
      }
      engine::read_field(v, "ttl", s.ttl);
      int sac = s.radar.sac, sic = s.radar.sic;
      engine::read_field(v, "sac", sac);
      engine::read_field(v, "sic", sic);
      SWL_CHECK(sac >= 0 && sac <= 255, "serve.sac must be 0..255");
      SWL_CHECK(sic >= 0 && sic <= 255, "serve.sic must be 0..255");
      s.radar.sac = uint8_t(sac);
      s.radar.sic = uint8_t(sic);
      engine::read_field(v, "video_range_decimation", s.video.range_decimation);
      engine::read_field(v, "video_azimuth_decimation", s.video.azimuth_decimation);
      engine::read_field(v, "video_bits", s.video.res_bits);
      engine::read_field(v, "video_zlib", s.video.compress);
    }
    check_serve_settings(s);
  } catch (const json::exception& e) {
    throw Error("settings file '" + path + "': " + e.what());
  } catch (const Error& e) {
    throw Error("settings file '" + path + "': " + e.what());
  }
}

ServeResult run_server(const ServeOptions& o) {
  check_serve_settings(o.serve);
  OutputConfig oc;
  oc.endpoints = o.serve.outputs;
  oc.ttl = o.serve.ttl;
  oc.record_path = o.record_path;
  Outputs out(oc);

  // The video path: on the thread that polls the source (the engine's ingest thread for a live
  // source), so the re-sent video follows the input without waiting for processing. Declared
  // before the engine, whose ingest thread uses them until it is destroyed.
  std::mutex tap_mu;
  VideoReducer reducer(o.serve.video);
  ServiceClock service(o.serve.radar);
  uint64_t video_errors = 0;
  const DatagramSink send_video = [&](std::vector<uint8_t>&& d) { out.send(Stream::Video, d); };

  engine::EngineSettings settings = o.settings;
  settings.source.loop = false;  // a finite source ends the run when it ends
  auto eng = std::make_unique<engine::Engine>(settings);
  eng->set_stop_flag(o.stop);
  eng->set_record_tap([&](const std::vector<cat240::Record>& records) {
    std::lock_guard lock(tap_mu);
    if (out.enabled(Stream::Video)) {
      try {
        reducer.push(records, send_video);
      } catch (const std::exception& e) {
        if (video_errors++ == 0) spdlog::warn("video output: {}", e.what());
      }
    }
    if (!out.enabled(Stream::Service)) return;
    for (const cat240::Record& r : records) {
      if (r.type != cat240::MessageType::Video || !r.header) continue;
      for (const cat034::ServiceMessage& m :
           service.on_radial(r.header->start_az * (360.0 / 65536.0), record_tod(r))) {
        try {
          out.send(Stream::Service, cat034::encode_block(m));
        } catch (const std::exception& e) {
          spdlog::warn("service message refused: {}", e.what());
        }
      }
    }
  });

  ServeResult res;
  const std::string& uri = settings.source.uri;
  if (!eng->open_source(uri)) {
    res.source_error = eng->source_view().error;
    return res;
  }
  if (o.started) {
    std::string line = "serving " + uri + " (backend " + eng->backend_name() + ")";
    for (int i = 0; i < kStreamCount; ++i) {
      const std::string& ep = out.endpoint(Stream(i));
      line += std::string(", ") + to_string(Stream(i)) + " " + (ep.empty() ? "off" : ep);
    }
    if (out.enabled(Stream::Video)) line += ", video " + describe(o.serve.video);
    if (!o.record_path.empty()) line += ", recording to " + o.record_path;
    o.started(line);
  }

  std::deque<json> rotations;
  uint64_t rotations_left_out = 0;
  std::vector<track::Track> previous;  // the tracks sent at the previous rotation
  const double t_start = steady_s();
  std::vector<double> cpu_ms;
  ServeProgress prog;
  uint64_t dropped_seen = 0;
  auto stopped = [&] { return o.stop && o.stop->load(); };
  while (!stopped() && (o.max_rotations == 0 || prog.rotations < o.max_rotations)) {
    const double cpu0 = process_cpu_s();
    const auto before = all_counters(out);
    const bool complete = eng->pump_rotation(o.wait_s);
    const bool processed = eng->process_and_wait();
    eng->refresh_status();
    const engine::SourceView& sv = eng->source_view();
    prog.elapsed_s = steady_s() - t_start;
    prog.rotation_period_s = sv.rotation_period_s;
    prog.frames_dropped = sv.frames_dropped;
    if (!processed) {
      if (!sv.open || !sv.error.empty()) {
        res.source_error = sv.error.empty() ? "the source closed" : sv.error;
        break;
      }
      if (!complete && sv.status.state == "ended") {
        res.source_ended = true;
        break;
      }
      // A live source with nothing to show yet (or the radar stopped): keep waiting.
      prog.waiting = true;
      prog.streams = all_counters(out);
      prog.recorded = out.recorded();
      if (o.progress && !stopped()) o.progress(prog);
      continue;
    }
    prog.waiting = false;

    // The rotation's messages.
    const double t_send = steady_s();
    const gpu::FrameResult* fr = eng->result();
    const engine::TrackingView& tv = eng->tracking();
    const std::vector<gpu::Plot> no_plots;
    const std::vector<gpu::Plot>& plots = fr ? fr->plots : no_plots;
    size_t refused = 0;
    if (out.enabled(Stream::Plots))
      for (const auto& d : cat048::encode_datagrams(plot_reports(plots, o.serve.radar),
                                                    kMessageDatagramMax, &refused))
        out.send(Stream::Plots, d);
    std::vector<track::Track> ended;
    std::set<int> live;
    for (const track::Track& t : tv.tracks) live.insert(t.id);
    for (const track::Track& t : previous)
      if (!live.count(t.id)) ended.push_back(t);
    if (tv.enabled && out.enabled(Stream::Tracks))
      for (const auto& d :
           cat048::encode_datagrams(track_reports(tv.tracks, ended, tv.time_s, o.serve.radar),
                                    kMessageDatagramMax, &refused))
        out.send(Stream::Tracks, d);
    if (tv.enabled && out.enabled(Stream::Nmea)) {
      try {
        for (const std::string& d :
             nmea_datagrams(tv.tracks, tv.own_ship, tv.relative_only, tv.time_s))
          out.send(Stream::Nmea, std::span(reinterpret_cast<const uint8_t*>(d.data()), d.size()));
      } catch (const std::exception& e) {
        spdlog::warn("NMEA output: {}", e.what());
      }
    }
    if (refused) spdlog::warn("{} report(s) could not be encoded this rotation", refused);
    previous = tv.tracks;
    {
      std::lock_guard lock(tap_mu);
      const nav::OwnShipState& own = tv.own_ship;
      service.set_position(own.valid ? std::optional(cat034::Position{own.lat_deg, own.lon_deg, 0})
                                     : std::nullopt);
      service.set_overloaded(sv.frames_dropped > dropped_seen);
    }
    dropped_seen = sv.frames_dropped;
    const double send_ms = (steady_s() - t_send) * 1e3;
    const double cpu = (process_cpu_s() - cpu0) * 1e3;
    cpu_ms.push_back(cpu);

    const auto after = all_counters(out);
    json dg = json::object(), bytes = json::object();
    for (int i = 0; i < kStreamCount; ++i) {
      dg[kOutputKeys[i]] = after[size_t(i)].datagrams - before[size_t(i)].datagrams;
      bytes[kOutputKeys[i]] = after[size_t(i)].bytes - before[size_t(i)].bytes;
    }
    json tracks = engine::tracks_report(tv);
    for (size_t i = 0; i < tracks.size(); ++i)
      tracks[i]["track_number"] = track_number(tv.tracks[i].id);
    json ended_numbers = json::array();
    for (const track::Track& t : ended) ended_numbers.push_back(track_number(t.id));
    if (rotations.size() == kMaxReportRotations) {
      rotations.pop_front();
      ++rotations_left_out;
    }
    rotations.push_back({{"rotation", prog.rotations},
                         {"plots", plots.size()},
                         {"track_tod_s", time_of_day(tv.time_s)},
                         {"tracks", tracks},
                         {"ended", ended_numbers},
                         {"cpu_ms", cpu},
                         {"pipeline_ms", eng->frame_ms_history().last()},
                         {"tracking_ms", tv.update_ms},
                         {"send_ms", send_ms},
                         {"datagrams", dg},
                         {"bytes", bytes}});
    ++prog.rotations;
    prog.plots = plots.size();
    prog.tracks = tv.tracks.size();
    prog.cpu_ms = cpu;
    prog.streams = after;
    prog.recorded = out.recorded();
    if (o.progress) o.progress(prog);
    if (sv.status.state == "ended") {
      // The frame just sent held the source's last rows (the engine flushes them when the
      // source ends): nothing more will come.
      res.source_ended = true;
      break;
    }
  }
  res.stopped = stopped();

  eng->refresh_status();
  json report = engine::run_report_header(*eng);
  eng->close_source();  // no more video from the ingest thread
  {
    std::lock_guard lock(tap_mu);
    if (out.enabled(Stream::Video)) {
      try {
        reducer.flush(send_video);
      } catch (const std::exception& e) {
        spdlog::warn("video output: {}", e.what());
      }
    }
  }
  out.close_recording();
  prog.streams = all_counters(out);
  prog.recorded = out.recorded();
  prog.elapsed_s = steady_s() - t_start;
  res.last = prog;
  res.recording_error = out.recording_error();
  if (cpu_ms.size() > 1) {
    double sum = 0;
    for (size_t i = 1; i < cpu_ms.size(); ++i) sum += cpu_ms[i];
    res.cpu_ms_per_rotation = sum / double(cpu_ms.size() - 1);
  } else if (!cpu_ms.empty()) {
    res.cpu_ms_per_rotation = cpu_ms[0];
  }

  if (!o.report_path.empty()) {
    const double n = double(std::max<uint64_t>(prog.rotations, 1));
    json outputs = json::object();
    for (int i = 0; i < kStreamCount; ++i) {
      const StreamCounters& c = prog.streams[size_t(i)];
      const double per_rot = double(c.bytes) / n;
      json s = {{"endpoint", out.endpoint(Stream(i))},
                {"datagrams", c.datagrams},
                {"bytes", c.bytes},
                {"bytes_per_rotation", per_rot},
                {"kbit_s_at_24rpm", per_rot * 8.0 * kPlanningRpm / 60.0 / 1e3},
                {"dropped", c.dropped},
                {"send_errors", c.send_errors}};
      if (prog.rotation_period_s > 0)
        s["kbit_s_at_measured_rate"] = per_rot * 8.0 / prog.rotation_period_s / 1e3;
      outputs[kOutputKeys[i]] = s;
    }
    report["command"] = "serve";
    report["outputs"] = outputs;
    report["video_reduction"] = describe(o.serve.video);
    report["sac"] = o.serve.radar.sac;
    report["sic"] = o.serve.radar.sic;
    report["record"] = o.record_path;
    report["recorded_datagrams"] = prog.recorded;
    report["recording_error"] = res.recording_error;
    report["rotations_processed"] = prog.rotations;
    report["elapsed_s"] = prog.elapsed_s;
    report["cpu_ms_per_rotation"] = res.cpu_ms_per_rotation;
    report["source_ended"] = res.source_ended;
    report["source_error"] = res.source_error;
    report["stopped"] = res.stopped;
    report["rotations_left_out"] = rotations_left_out;
    report["rotations"] = json(rotations);
    std::ofstream f(o.report_path, std::ios::trunc);
    SWL_CHECK(f, "cannot write report " + o.report_path);
    f << report.dump(1) << "\n";
    SWL_CHECK(f.good(), "cannot write report " + o.report_path);
  }
  return res;
}

}  // namespace sweepline::serve
