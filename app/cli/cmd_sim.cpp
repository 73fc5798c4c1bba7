// `sweepline sim`: the radar scene simulator to a capture file, a truth file and/or live UDP, and
// the labelling test images (--image).
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/cli/stop_signals.hpp"
#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/sim_run.hpp"
#include "app/sim/test_images.hpp"
#include "app/sim/udp_sender.hpp"

namespace sweepline::cli {

namespace {

struct SimArgs {
  std::string scenario = "harbour";
  uint64_t seed = 1;
  uint64_t rotations = 4;
  double rpm = 0;
  int radials = 0, cells = 0, res = 0;
  double range_nm = 0;
  bool compress = false;
  std::string style;
  std::string out, truth, udp;
  std::string nmea_udp, nmea_out;
  double speed = 1;
  std::string dest = "239.0.1.2:8600";
  std::vector<std::string> set;
  std::string image, size = "1024x1024";
  bool quiet = false;
};

// Runs `fn`; an Error it throws is reported as one about `option` (the value the user gave).
template <class Fn>
auto as_option(const char* option, Fn&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    throw Error(std::string(option) + ": " + e.what());
  }
}

int run_image(const SimArgs& a) {
  SWL_CHECK(!a.out.empty(), "sim --image needs --out FILE (.pgm or .png)");
  const auto [w, h] = as_option("--size", [&] { return parse_image_size(a.size); });
  Image8 img = as_option("--image", [&] { return sim::make_test_image(a.image, w, h, a.seed); });
  write_image(a.out, img);
  uint64_t on = 0;
  for (uint8_t p : img.pixels) on += p != 0;
  std::printf("wrote %s: %dx%d test image '%s' (seed %llu), %.1f %% of pixels on\n", a.out.c_str(),
              w, h, a.image.c_str(), static_cast<unsigned long long>(a.seed),
              100.0 * double(on) / double(img.pixels.size()));
  return 0;
}

int run_sim(const SimArgs& a, const CLI::App& app) {
  sim::Scenario s = as_option("--scenario", [&] { return sim::make_scenario(a.scenario); });
  s.seed = a.seed;
  // Each radar option is checked as it is applied, so a value out of range is reported as the
  // option's (the ranges live in sim::validate).
  auto apply = [&](const char* option, auto set) {
    if (!app.count(option)) return;
    as_option(option, [&] {
      set();
      sim::validate(s);
      return 0;
    });
  };
  apply("--rpm", [&] { s.radar.rpm = a.rpm; });
  apply("--radials", [&] { s.radar.radials = a.radials; });
  apply("--cells", [&] { s.radar.cells = a.cells; });
  apply("--range-nm", [&] { s.radar.range_nm = a.range_nm; });
  apply("--res", [&] { s.radar.res_bits = a.res; });
  if (a.compress) s.radar.compress = true;
  if (!a.style.empty()) s.style = as_option("--style", [&] { return sim::parse_style(a.style); });
  for (const std::string& kv : a.set) {
    as_option("--set", [&] {
      const auto eq = kv.find('=');
      SWL_CHECK(eq != std::string::npos && eq > 0, "wants KEY=VALUE, got '" + kv + "'");
      sim::apply_param(s, kv.substr(0, eq), kv.substr(eq + 1));
      sim::validate(s);
      return 0;
    });
  }
  sim::validate(s);
  SWL_CHECK(!a.out.empty() || !a.udp.empty() || !a.truth.empty() || !a.nmea_out.empty(),
            "sim: nothing to do: give --out FILE, --udp GROUP:PORT, --truth FILE and/or "
            "--nmea-out FILE");
  SWL_CHECK(a.rotations > 0 || !a.udp.empty(),
            "sim: --rotations must be at least 1 (0, endless, only with --udp)");

  // SIGINT/SIGTERM stop the run between datagrams: files are closed whole, the summary printed.
  StopSignals signals;
  sim::SimRunOptions o;
  o.stop = &signals.flag();
  o.scenario = s;
  o.rotations = a.rotations;
  o.out_path = a.out;
  o.truth_path = a.truth;
  o.udp = a.udp;
  // NMEA beside live video: by default, when the own ship moves, to the video's group on the
  // next port; "off" or an endpoint of the user's choosing otherwise.
  if (a.nmea_udp == "off") {
    o.nmea_udp.clear();
  } else if (!a.nmea_udp.empty()) {
    o.nmea_udp = a.nmea_udp;
  } else if (!a.udp.empty() && s.own.enabled) {
    uint32_t ip = 0;
    uint16_t port = 0;
    sim::parse_endpoint(a.udp, ip, port);
    SWL_CHECK(port < 65535, "sim: --udp port 65535 leaves no port for NMEA: give --nmea-udp");
    o.nmea_udp = a.udp.substr(0, a.udp.rfind(':')) + ":" + std::to_string(port + 1);
  }
  o.nmea_path = a.nmea_out;
  o.speed = a.speed;
  o.dest = a.dest;
  const bool tty = isatty(fileno(stderr)) != 0;
  if (!a.quiet) {
    std::fprintf(stderr,
                 "sim: %s seed %llu, %s rotation(s) of %d radials x %d cells, %.1f NM, %.1f rpm, "
                 "%d-bit%s, style %s\n",
                 s.name.c_str(), static_cast<unsigned long long>(s.seed),
                 a.rotations ? std::to_string(a.rotations).c_str() : "endless", s.radar.radials,
                 s.radar.cells, s.radar.range_nm, s.radar.rpm, s.radar.res_bits,
                 s.radar.compress ? " zlib" : "", sim::to_string(s.style));
    o.progress = [tty](const sim::SimProgress& p) {
      const std::string total = p.rotations ? "/" + std::to_string(p.rotations) : "";
      std::fprintf(stderr, "%srotation %llu%s  %llu datagrams  %.1f MB  %.1f s%s", tty ? "\r" : "",
                   static_cast<unsigned long long>(p.rotation), total.c_str(),
                   static_cast<unsigned long long>(p.datagrams), double(p.bytes) / 1e6, p.elapsed_s,
                   tty ? "   " : "\n");
      std::fflush(stderr);
    };
  }
  const sim::SimProgress p = sim::run_simulation(o);
  if (!a.quiet && tty) std::fprintf(stderr, "\n");
  std::printf(
      "simulated %llu rotation(s) (%.1f s of radar time) in %.2f s: %llu records, %llu "
      "datagrams, %.2f MB",
      static_cast<unsigned long long>(p.rotation), p.sim_s, p.elapsed_s,
      static_cast<unsigned long long>(p.records), static_cast<unsigned long long>(p.datagrams),
      double(p.bytes) / 1e6);
  if (!a.out.empty()) std::printf(", written to %s", a.out.c_str());
  if (!a.udp.empty())
    std::printf(", streamed to %s (%llu dropped)", a.udp.c_str(),
                static_cast<unsigned long long>(p.udp_dropped));
  if (!o.nmea_udp.empty() || !o.nmea_path.empty())
    std::printf(", %llu NMEA updates%s%s%s%s", static_cast<unsigned long long>(p.nmea_updates),
                o.nmea_udp.empty() ? "" : " to ", o.nmea_udp.c_str(),
                o.nmea_path.empty() ? "" : " in ", o.nmea_path.c_str());
  if (!a.truth.empty())
    std::printf(", %llu truth lines in %s", static_cast<unsigned long long>(p.truth_lines),
                a.truth.c_str());
  if (p.stopped) std::printf("; stopped by %s", signals.signal_name());
  std::printf("\n");
  std::fflush(stdout);
  return 0;
}

}  // namespace

Command add_sim_command(CLI::App& parent) {
  auto args = std::make_shared<SimArgs>();
  Command c;
  CLI::App* app = parent.add_subcommand(
      "sim",
      "Radar scene simulator: CAT240 video to a capture file or live UDP, ground truth, "
      "and labelling test images");
  c.app = app;
  app->add_option("--scenario", args->scenario,
                  "harbour, vessels50, vessels1869, open-sea, stress, imo1, imo2, imo3, imo4")
      ->capture_default_str();
  app->add_option("--seed", args->seed, "Random seed (same seed, same bytes)")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--rotations", args->rotations,
                  "Antenna rotations to simulate (0: endless, with --udp only)")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--rpm", args->rpm, "Rotation rate (default 24)");
  app->add_option("--radials", args->radials, "Radials per rotation (default 4096)");
  app->add_option("--cells", args->cells, "Range cells per radial (default 4096)");
  app->add_option("--range-nm", args->range_nm, "Instrumented range in NM (default 12)");
  app->add_option("--res", args->res, "Bits per cell: 1, 2, 4, 8, 16, 32 (default 8)");
  app->add_flag("--compress", args->compress, "zlib-compress the video blocks");
  app->add_option("--style", args->style,
                  "Producer style: next-az (default), zero-width, multi-record, split-1400");
  app->add_option("--out", args->out,
                  "Capture file: *.pcap, *.pcapng, else raw ASTERIX; with --image: the image")
      ->check(output_file_check());
  app->add_option("--truth", args->truth, "Ground truth: one JSON line per vessel per rotation")
      ->check(output_file_check());
  app->add_option("--udp", args->udp, "Stream live to GROUP:PORT (e.g. 239.0.1.2:8600)")
      ->check(endpoint_check());
  app->add_option("--nmea-udp", args->nmea_udp,
                  "Own ship's NMEA (RMC, VTG, GGA, HDT, 1 Hz) to HOST:PORT, or off (default: "
                  "with --udp and a moving own ship, the video's group on port + 1)")
      ->check(CLI::Validator(
          [](std::string& v) { return v == "off" ? std::string() : endpoint_check()(v); },
          "HOST:PORT or off"));
  app->add_option("--nmea-out", args->nmea_out,
                  "Own ship's NMEA sentences to FILE (one per line, 1 Hz of simulated time)")
      ->check(output_file_check());
  app->add_option("--speed", args->speed, "Live pacing: 1 real time, N times faster, 0 unpaced")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--dest", args->dest, "Destination GROUP:PORT written into pcap files")
      ->check(endpoint_check())
      ->capture_default_str();
  app->add_option("--set", args->set,
                  "Scenario parameter KEY=VALUE (repeatable; see docs/simulator.md), e.g. "
                  "vessels=200, clutter=off, rain=5, beamwidth=2");
  app->add_option("--image", args->image,
                  "Write a labelling test image instead: random:DENSITY, spirals, stars");
  app->add_option("--size", args->size, "Test image size WxH (at most 16384 a side, 64 Mi pixels)")
      ->check(image_size_check())
      ->capture_default_str();
  app->add_flag("--quiet", args->quiet, "No progress on stderr");
  c.run = [args, app] {
    if (!args->image.empty()) return run_image(*args);
    return run_sim(*args, *app);
  };
  return c;
}

}  // namespace sweepline::cli
