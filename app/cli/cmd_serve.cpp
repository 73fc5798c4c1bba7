// `sweepline serve`: the headless processing server (app/serve/server.hpp, docs/deployment.md).
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/cli/stop_signals.hpp"
#include "app/common/check.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/serve/server.hpp"
#include "app/source/source_uri.hpp"

namespace sweepline::cli {

namespace {

// A plain line this often when stderr is not a terminal (a log): a rotation each 2.5 s would
// fill it.
constexpr double kPlainStatusEveryS = 10.0;

struct ServeArgs {
  std::string source, config, backend, nmea_in;
  int size = -1;
  std::string outputs[serve::kStreamCount];
  int ttl = -1, sac = -1, sic = -1;
  int range_decimation = 0, azimuth_decimation = 0, bits = -1;
  bool zlib = false;
  std::string record, report;
  uint64_t rotations = 0;
  double speed = 1;
  double wait_s = 10;
  bool quiet = false;
};

// GROUP:PORT, or "off".
CLI::Validator endpoint_or_off() {
  return CLI::Validator(
      [](std::string& v) { return v == "off" ? std::string() : endpoint_check()(v); },
      "GROUP:PORT or off");
}

// Own ship's NMEA feed: udp://GROUP:PORT, udp://:PORT or off (the engine's own check).
CLI::Validator nmea_in_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v == "off") return {};
        try {
          engine::NavigationSettings n;
          n.udp = v;
          engine::check_navigation(n);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      "udp://GROUP:PORT or off");
}

// A source URI whose form is wrong is refused before anything opens.
CLI::Validator source_uri_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        try {
          const source::ParsedUri u = source::parse_uri(v);
          if (u.scheme == "udp") source::live_options(u, SourceOptions{}, v);
          if (u.scheme == "file" && v.rfind("file://", 0) == 0)
            source::replay_options(u, SourceOptions{}, v);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      "URI");
}

std::string rate(uint64_t bytes, double seconds) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", seconds > 0 ? double(bytes) * 8e-3 / seconds : 0.0);
  return b;
}

int run_serve(const ServeArgs& a, const CLI::App& app) {
  serve::ServeOptions o;
  if (!a.config.empty()) serve::load_serve_config(a.config, o.settings, o.serve);
  if (!a.source.empty()) o.settings.source.uri = a.source;
  if (!a.backend.empty()) o.settings.processing.backend = a.backend;
  if (a.size >= 0) o.settings.processing.size = a.size;
  if (!a.nmea_in.empty()) o.settings.navigation.udp = a.nmea_in == "off" ? "" : a.nmea_in;
  o.settings.source.speed = a.speed;
  static const char* const kOptions[serve::kStreamCount] = {
      "--video-out", "--plots-out", "--tracks-out", "--service-out", "--nmea-out"};
  for (int i = 0; i < serve::kStreamCount; ++i)
    if (app.count(kOptions[i]))
      o.serve.outputs[size_t(i)] = a.outputs[i] == "off" ? "" : a.outputs[i];
  if (a.ttl >= 0) o.serve.ttl = a.ttl;
  if (a.sac >= 0) o.serve.radar.sac = uint8_t(a.sac);
  if (a.sic >= 0) o.serve.radar.sic = uint8_t(a.sic);
  if (a.range_decimation > 0) o.serve.video.range_decimation = a.range_decimation;
  if (a.azimuth_decimation > 0) o.serve.video.azimuth_decimation = a.azimuth_decimation;
  if (a.bits >= 0) o.serve.video.res_bits = a.bits;
  if (a.zlib) o.serve.video.compress = true;
  o.record_path = a.record;
  o.report_path = a.report;
  o.max_rotations = a.rotations;
  o.wait_s = a.wait_s;

  // SIGINT/SIGTERM end the run at the next rotation: the recording and the report are closed
  // whole and the summary printed (exit 0). Before the engine starts its threads.
  StopSignals signals;
  o.stop = &signals.flag();
  const bool tty = isatty(fileno(stderr)) != 0;
  if (!a.quiet) {
    o.started = [](const std::string& line) {
      std::fprintf(stderr, "serve: %s\n", line.c_str());
      std::fflush(stderr);
    };
    double last_plain = -kPlainStatusEveryS;
    o.progress = [tty, last_plain](const serve::ServeProgress& p) mutable {
      if (!tty) {
        if (p.elapsed_s - last_plain < kPlainStatusEveryS) return;
        last_plain = p.elapsed_s;
      }
      const auto& s = p.streams;
      const double t = p.elapsed_s;
      std::fprintf(
          stderr,
          "%s%s rotation %llu  %zu plots  %zu tracks  cpu %.0f ms  kbit/s: video %s plots %s "
          "tracks %s service %s nmea %s%s%s",
          tty ? "\r" : "", p.waiting ? "waiting for video," : "", (unsigned long long)p.rotations,
          p.plots, p.tracks, p.cpu_ms, rate(s[0].bytes, t).c_str(), rate(s[1].bytes, t).c_str(),
          rate(s[2].bytes, t).c_str(), rate(s[3].bytes, t).c_str(), rate(s[4].bytes, t).c_str(),
          p.frames_dropped ? ("  " + std::to_string(p.frames_dropped) + " dropped").c_str() : "",
          tty ? "   " : "\n");
      std::fflush(stderr);
    };
  }
  const serve::ServeResult r = serve::run_server(o);
  if (!a.quiet && tty) std::fprintf(stderr, "\n");
  if (!r.source_error.empty() && r.last.rotations == 0) {
    std::fprintf(stderr, "sweepline serve: %s\n", r.source_error.c_str());
    return 1;
  }
  const auto& s = r.last.streams;
  std::printf("served %llu rotation(s) in %.1f s, %.1f ms CPU per rotation; datagrams sent: ",
              (unsigned long long)r.last.rotations, r.last.elapsed_s, r.cpu_ms_per_rotation);
  for (int i = 0; i < serve::kStreamCount; ++i)
    std::printf("%s%s %llu (%.2f MB)", i ? ", " : "", serve::to_string(serve::Stream(i)),
                (unsigned long long)s[size_t(i)].datagrams, double(s[size_t(i)].bytes) / 1e6);
  if (!a.record.empty())
    std::printf("; %llu recorded in %s", (unsigned long long)r.last.recorded, a.record.c_str());
  if (r.stopped) std::printf("; stopped by %s", signals.signal_name());
  if (r.source_ended) std::printf("; the source ended");
  std::printf("\n");
  std::fflush(stdout);
  if (!r.source_error.empty()) {
    std::fprintf(stderr, "sweepline serve: %s\n", r.source_error.c_str());
    return 1;
  }
  if (!r.recording_error.empty()) {
    std::fprintf(stderr, "sweepline serve: --record: %s\n", r.recording_error.c_str());
    return 1;
  }
  if (!r.stopped && !r.source_ended && a.rotations == 0) return 1;
  return 0;
}

}  // namespace

Command add_serve_command(CLI::App& parent) {
  auto a = std::make_shared<ServeArgs>();
  Command c;
  CLI::App* app = parent.add_subcommand(
      "serve",
      "Headless processing server: a source through the pipeline and the tracker to CAT240 "
      "video, CAT048 plots and tracks, CAT034 and NMEA over UDP (docs/deployment.md)");
  c.app = app;
  app->add_option("--source", a->source,
                  "Source URI: sim://SCENARIO?...[&rotations=N], a capture file, "
                  "udp://GROUP:PORT (default: the settings' source, " +
                      std::string(kDefaultSourceUri) + ")")
      ->check(source_uri_check());
  app->add_option("--config", a->config,
                  "Settings file: the console's settings.json (source, processing, tracking, "
                  "navigation) with a \"serve\" object (outputs, video reduction)")
      ->check(CLI::ExistingFile);
  app->add_option("--backend", a->backend, "Pipeline backend: cuda (falls back to cpu) or cpu")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  app->add_option("--size", a->size, "Processing image side in pixels (0: 4096 CUDA, 1536 CPU)")
      ->check(CLI::Range(0, engine::kMaxDisplaySide));
  app->add_option("--nmea-in", a->nmea_in,
                  "Own ship's NMEA 0183 over UDP: udp://GROUP:PORT, udp://:PORT or off (default: "
                  "the settings'; a sim:// source carries its own ship)")
      ->check(nmea_in_check());
  app->add_option(
         "--video-out", a->outputs[0],
         "CAT240 video to GROUP:PORT or off (default " + std::string(serve::kDefaultVideoOut) + ")")
      ->check(endpoint_or_off());
  app->add_option(
         "--plots-out", a->outputs[1],
         "CAT048 plots to GROUP:PORT or off (default " + std::string(serve::kDefaultPlotsOut) + ")")
      ->check(endpoint_or_off());
  app->add_option("--tracks-out", a->outputs[2],
                  "CAT048 tracks to GROUP:PORT or off (default " +
                      std::string(serve::kDefaultTracksOut) + ")")
      ->check(endpoint_or_off());
  app->add_option("--service-out", a->outputs[3],
                  "CAT034 north marker and sector crossings to GROUP:PORT or off (default " +
                      std::string(serve::kDefaultServiceOut) + ")")
      ->check(endpoint_or_off());
  app->add_option("--nmea-out", a->outputs[4],
                  "NMEA OSD, TTM, TLL to GROUP:PORT or off (default " +
                      std::string(serve::kDefaultNmeaOut) + ")")
      ->check(endpoint_or_off());
  app->add_option("--ttl", a->ttl, "Multicast TTL (default 1: the local network)")
      ->check(CLI::Range(0, 255));
  app->add_option("--sac", a->sac, "System area code of the outputs (default 0)")
      ->check(CLI::Range(0, 255));
  app->add_option("--sic", a->sic, "System identification code of the outputs (default 1)")
      ->check(CLI::Range(0, 255));
  app->add_option("--video-range-decimation", a->range_decimation,
                  "Video out: 1 range cell in N (the strongest of N)")
      ->check(CLI::Range(1, serve::kMaxRangeDecimation));
  app->add_option("--video-azimuth-decimation", a->azimuth_decimation,
                  "Video out: 1 radial in N (the strongest of N in a row)")
      ->check(CLI::Range(1, serve::kMaxAzimuthDecimation));
  app->add_option("--video-bits", a->bits,
                  "Video out: bits per cell, 1, 2, 4 or 8 (default: as "
                  "received)")
      ->check(CLI::IsMember({1, 2, 4, 8}));
  app->add_flag("--video-zlib", a->zlib, "Video out: zlib-compressed (CAT240 C bit)");
  app->add_option("--record", a->record,
                  "Also write every datagram sent to this pcap file (flushed per datagram)")
      ->check(output_file_check());
  app->add_option("--report", a->report,
                  "JSON report at the end: per rotation the plots, the tracks sent (track "
                  "numbers), datagrams and bytes per stream, CPU time")
      ->check(output_file_check());
  app->add_option("--rotations", a->rotations, "Stop after N rotations (0: when the source ends)")
      ->check(non_negative_check());
  app->add_option("--speed", a->speed, "Files and sim://: 1 real time, N times faster, 0 unpaced")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--wait", a->wait_s,
                  "Seconds to wait for a rotation before saying so (live sources keep waiting)")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  app->add_flag("--quiet", a->quiet, "No status line on stderr");
  c.run = [a, app] { return run_serve(*a, *app); };
  return c;
}

}  // namespace sweepline::cli
