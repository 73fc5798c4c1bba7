#pragma once
// `sweepline serve`: the headless processing server. One source in (anything the console opens:
// sim://, capture files, udp://, and own ship's NMEA), the engine's pipeline (CUDA when present,
// else the CPU) and tracker on every rotation, and out, each stream to its own UDP destination:
// the video re-sent as CAT240 (optionally reduced), CAT048 plots, CAT048 tracks, CAT034 service
// messages and NMEA 0183 target sentences (docs/deployment.md). No window, no GL: the engine is
// driven as the headless view drives it, without a display.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "app/engine/engine_settings.hpp"
#include "app/serve/messages.hpp"
#include "app/serve/outputs.hpp"
#include "app/serve/video_reducer.hpp"

namespace sweepline::serve {

// Where each stream goes when neither the settings nor the command line say (administratively
// scoped multicast, one group per stream so a client joins only what it shows; ports apart from
// the radar input's 8600 and the simulator's NMEA on 8601).
inline constexpr const char* kDefaultVideoOut = "239.0.2.1:8610";
inline constexpr const char* kDefaultPlotsOut = "239.0.2.2:8611";
inline constexpr const char* kDefaultTracksOut = "239.0.2.3:8612";
inline constexpr const char* kDefaultServiceOut = "239.0.2.4:8613";
inline constexpr const char* kDefaultNmeaOut = "239.0.2.5:8614";

// The "serve" object of the settings file, and what the command line overrides.
struct ServeSettings {
  // Per stream (indexed by Stream): GROUP:PORT, or "" for off.
  std::array<std::string, kStreamCount> outputs = {
      kDefaultVideoOut, kDefaultPlotsOut, kDefaultTracksOut, kDefaultServiceOut, kDefaultNmeaOut};
  int ttl = 1;  // multicast TTL: 1 stays on the local network
  RadarIdentity radar;
  VideoReduction video;
};

// The server's settings file: the console's settings.json ("source", "processing", "tracking",
// "navigation"; the view's half is ignored) plus a "serve" object: {"video", "plots", "tracks",
// "service", "nmea": "GROUP:PORT" or "off", "ttl", "sac", "sic", "video_range_decimation",
// "video_azimuth_decimation", "video_bits", "video_zlib"}. Missing keys keep their defaults.
// Throws sweepline::Error naming the file and the bad key.
void load_serve_config(const std::string& path, engine::EngineSettings& engine,
                       ServeSettings& serve);
// Throws sweepline::Error naming the first bad value (serve.<key>).
void check_serve_settings(const ServeSettings& s);

struct ServeProgress {
  uint64_t rotations = 0;        // processed
  size_t plots = 0, tracks = 0;  // of the latest rotation
  double cpu_ms = 0;             // the server's CPU time over the latest rotation
  double elapsed_s = 0;
  double rotation_period_s = 0;  // the radar's, measured
  bool waiting = false;          // no rotation arrived within the wait (live source idle)
  std::array<StreamCounters, kStreamCount> streams;
  uint64_t recorded = 0;
  uint64_t frames_dropped = 0;  // rotations the processing did not keep up with
};

struct ServeOptions {
  engine::EngineSettings settings;  // the source's uri, speed; backend; tracking; navigation
  ServeSettings serve;
  std::string record_path;     // pcap of every datagram sent; empty: none
  std::string report_path;     // JSON report written at the end; empty: none
  uint64_t max_rotations = 0;  // stop after N processed rotations (0: when the source ends)
  double wait_s = 10;          // longest wait for a rotation before a "waiting" status
  const std::atomic<bool>* stop = nullptr;             // SIGINT/SIGTERM
  std::function<void(const std::string&)> started;     // the line saying what serves where
  std::function<void(const ServeProgress&)> progress;  // after each rotation (and each wait)
};

struct ServeResult {
  ServeProgress last;
  bool source_ended = false;  // a finite source ran out
  bool stopped = false;       // the stop flag was raised
  std::string source_error;   // the source could not be opened or failed
  std::string recording_error;
  double cpu_ms_per_rotation = 0;  // mean over rotations after the first
};

// Runs until the source ends, max_rotations are done or a stop is requested. Throws
// sweepline::Error when an output or the recording cannot be opened; a source that cannot be
// opened or fails is reported in the result.
ServeResult run_server(const ServeOptions& options);

}  // namespace sweepline::serve
