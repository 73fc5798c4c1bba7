// `sweepline eval`: the detection scorecard. Simulated scenarios (or a recording with its truth
// file) through the console's pipeline, one pipeline instance per scene over consecutive
// rotations, the detections matched to the truth per rotation; a table on stdout, progress on
// stderr, and with --out a JSON report and a marked PPI picture per scene (docs/eval.md).
// The tracking scorecard: the IMO scenarios (imo1..imo4) at plot level over many seeds against
// MSC.192(79), optionally a few seeds through the video pipeline; with --track, the busy scenes'
// tracks against their vessels.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/eval/eval_report.hpp"
#include "app/eval/eval_run.hpp"
#include "app/eval/imo_eval.hpp"
#include "app/sim/scenario.hpp"
#include "gpu/backend/cuda_availability.hpp"
#include "gpu/backend/make_pipeline.hpp"

namespace sweepline::cli {

namespace {

struct EvalArgs {
  std::vector<std::string> scenarios;
  uint64_t seed = 1;
  int64_t rotations = 8;
  int64_t warmup = 4;
  std::string backend;  // "": the settings' backend, falling back to the CPU as the console does
  int64_t size = -1;    // -1: the settings' size; 0: as the console picks it
  std::string settings, out, capture, truth;
  bool json = false;
  std::string seeds = "100";  // IMO scenarios: "N" (1..N) or "A-B"
  int64_t imo_video = 0;      // IMO scenarios: the first N seeds also through the video pipeline
  bool track = false;         // busy scenes: the tracking scorecard too
};

bool is_imo(const std::string& n) {
  return n.rfind("imo", 0) == 0;
}

// "N": seeds 1..N; "A-B" or "A..B": A..B.
std::pair<uint64_t, uint64_t> parse_seeds(const std::string& v) {
  auto number = [&](const std::string& x) {
    SWL_CHECK(!x.empty() && x.size() <= 12 &&
                  std::all_of(x.begin(), x.end(), [](char c) { return std::isdigit(uint8_t(c)); }),
              "--seeds: '" + v + "' is not N or A-B");
    return uint64_t(std::stoull(x));
  };
  std::pair<uint64_t, uint64_t> r;
  if (const auto dots = v.find(".."); dots != std::string::npos)
    r = {number(v.substr(0, dots)), number(v.substr(dots + 2))};
  else if (const auto dash = v.find('-'); dash != std::string::npos)
    r = {number(v.substr(0, dash)), number(v.substr(dash + 1))};
  else
    r = {1, number(v)};
  SWL_CHECK(r.first <= r.second && r.second >= 1 && r.second - r.first < 100000,
            "--seeds: '" + v + "' is an empty or too large range (at most 100000 seeds)");
  return r;
}

struct Setup {
  engine::ProcessingSettings processing;
  std::string backend;  // "cpu" or "cuda"
  std::string backend_note;
  int size = 0;
};

Setup make_setup(const EvalArgs& a) {
  Setup s;
  if (!a.settings.empty()) {
    std::ifstream f(a.settings);
    SWL_CHECK(f.good(), "--settings: cannot open '" + a.settings + "'");
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
      throw Error("--settings: '" + a.settings + "' is not JSON: " + e.what());
    }
    SWL_CHECK(j.is_object(), "--settings: '" + a.settings + "' is not a JSON object");
    if (j.contains("processing")) {
      try {
        engine::read_processing(j["processing"], s.processing);
      } catch (const std::exception& e) {
        throw Error("--settings: 'processing' in '" + a.settings + "': " + e.what());
      }
    }
  }
  const bool cuda_ok = gpu::cuda_unavailable_reason().empty();
  if (!a.backend.empty()) {
    s.backend = a.backend;
    SWL_CHECK(s.backend == "cpu" || cuda_ok, "--backend cuda: " + gpu::cuda_unavailable_reason());
  } else {
    s.backend = s.processing.backend == "cpu" ? "cpu" : "cuda";
    if (s.backend == "cuda" && !cuda_ok) {
      s.backend = "cpu";
      s.backend_note = "CUDA backend unavailable, using the CPU: " + gpu::cuda_unavailable_reason();
    }
  }
  int64_t size = a.size >= 0 ? a.size : s.processing.size;
  SWL_CHECK(size == 0 || (size >= 64 && size <= 16384),
            "--size must be 0 (as the console picks) or 64..16384, got " + std::to_string(size));
  if (size == 0) size = s.backend == "cuda" ? 4096 : 1536;  // the console's choice
  s.size = int(size);
  s.processing.params.width = s.processing.params.height = s.size;
  s.processing.params.label_enabled = true;
  return s;
}

std::vector<std::string> scene_names(const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const std::string& n : given) {
    // all: the detection scenes; imo: the four IMO scenarios.
    if (n == "all" || n == "imo") {
      for (const std::string& k : sim::scenario_names())
        if (is_imo(k) == (n == "imo") && std::find(out.begin(), out.end(), k) == out.end())
          out.push_back(k);
      continue;
    }
    const auto known = sim::scenario_names();
    SWL_CHECK(std::find(known.begin(), known.end(), n) != known.end(),
              "--scenario: unknown scenario '" + n +
                  "' (harbour, open-sea, stress, vessels50, vessels1869, all, imo1..imo4 or "
                  "imo)");
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::string safe_file_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return s;
}

int run_eval(const EvalArgs& a, bool seed_given) {
  const bool capture = !a.capture.empty();
  SWL_CHECK(capture || !a.scenarios.empty(),
            "eval needs --scenario NAME (or all), or --capture FILE with --truth FILE");
  SWL_CHECK(!capture || a.scenarios.empty(), "--capture and --scenario do not go together");
  SWL_CHECK(capture == !a.truth.empty(), "--capture and --truth go together");
  SWL_CHECK(a.rotations >= 1 && a.rotations <= 100000,
            "--rotations must be 1..100000, got " + std::to_string(a.rotations));
  SWL_CHECK(a.warmup >= 0 && a.warmup <= 100000,
            "--warmup must be 0..100000, got " + std::to_string(a.warmup));
  const std::vector<std::string> all_names =
      capture ? std::vector<std::string>{} : scene_names(a.scenarios);
  std::vector<std::string> names, imo_names;
  for (const std::string& n : all_names) (is_imo(n) ? imo_names : names).push_back(n);
  const auto [seed_first, seed_last] = parse_seeds(a.seeds);
  SWL_CHECK(a.imo_video >= 0 && a.imo_video <= 1000,
            "--imo-video must be 0..1000, got " + std::to_string(a.imo_video));
  const Setup setup = make_setup(a);
  if (!setup.backend_note.empty()) std::fprintf(stderr, "eval: %s\n", setup.backend_note.c_str());
  if (!a.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out, ec);
    SWL_CHECK(!ec && std::filesystem::is_directory(a.out),
              "--out: cannot create folder '" + a.out + "'");
  }

  eval::RunConfig cfg;
  cfg.params = setup.processing.params;
  cfg.rotations = int(a.rotations);
  cfg.warmup = int(a.warmup);
  cfg.track = a.track;
  const bool tty = isatty(fileno(stderr));
  std::string scene_label;
  int confirmed_now = 0, live_now = 0;
  cfg.on_tracks = [&](int, const eval::FrameWithTruth&, const std::vector<track::Track>& tr) {
    live_now = int(tr.size());
    confirmed_now = int(std::count_if(tr.begin(), tr.end(), [](const track::Track& t) {
      return t.status == track::Track::Status::Tracked;
    }));
  };
  cfg.progress = [&](int i, int total, bool scored, const eval::RotationScore& s) {
    char line[320];
    if (scored)
      std::snprintf(
          line, sizeof line, "eval %s: rotation %d/%d: %d/%d vessels found, %d plots, %d unmatched",
          scene_label.c_str(), i + 1, total, s.found, s.vessels, s.detections, s.unmatched);
    else
      std::snprintf(line, sizeof line, "eval %s: rotation %d/%d (warm-up): %d plots",
                    scene_label.c_str(), i + 1, total, s.detections);
    if (a.track) {
      const size_t n = std::strlen(line);
      std::snprintf(line + n, sizeof line - n, ", %d tracks (%d confirmed)", live_now,
                    confirmed_now);
    }
    if (tty)
      std::fprintf(stderr, "\r\033[K%s%s", line, i + 1 == total ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line);
  };

  const auto t0 = std::chrono::steady_clock::now();
  const gpu::Backend backend = gpu::backend_from_string(setup.backend);
  std::vector<eval::SceneRun> runs;
  if (capture) {
    eval::TruthFile truth = eval::read_truth(a.truth);
    sweep::SweepConfig sc;
    sc.azimuths = std::clamp(setup.processing.azimuths, 16, 65536);
    sc.range_bins = std::clamp(setup.processing.range_bins, 16, 65536);
    auto feed = eval::capture_feed(a.capture, std::move(truth.vessels), sc, std::move(truth.own));
    scene_label = std::filesystem::path(a.capture).stem().string();
    auto pipeline = gpu::make_pipeline(backend);
    // The built-in scenarios' radar: the beamwidth and pulse length the targets are taken from.
    runs.push_back(eval::evaluate(scene_label, sim::RadarConfig{}, *feed, *pipeline, cfg));
    SWL_CHECK(!runs.back().rotations.empty(),
              "--capture: '" + a.capture + "' has no rotation after the " +
                  std::to_string(a.warmup) + " warm-up rotation(s) (lower --warmup)");
  } else {
    for (const std::string& n : names) {
      sim::Scenario s = sim::make_scenario(n);
      if (seed_given) s.seed = a.seed;
      auto feed = eval::scene_feed(s);
      scene_label = n;
      auto pipeline = gpu::make_pipeline(backend);  // each scene starts from a fresh state
      runs.push_back(eval::evaluate(n, s.radar, *feed, *pipeline, cfg));
    }
  }

  // The IMO scenarios: plot level over the seeds, then (--imo-video) the first seeds through the
  // video pipeline.
  std::vector<eval::ImoScenarioResult> imo;
  const eval::ImoConfig imo_cfg;
  auto imo_progress = [&](const std::string& label, uint64_t seed, uint64_t last,
                          const eval::ImoSeedRun& r) {
    char line[320];
    const eval::ImoSample& m3 = r.at[1];
    std::snprintf(line, sizeof line,
                  "eval %s: seed %llu (to %llu): %s, after 3 min rel. course err %.2f deg, CPA "
                  "err %.3f NM",
                  label.c_str(), (unsigned long long)seed, (unsigned long long)last,
                  !r.acquired  ? "not acquired"
                  : m3.tracked ? "tracked"
                               : "not tracked at 3 min",
                  m3.error[size_t(eval::ImoQuantity::RelCourse)],
                  m3.error[size_t(eval::ImoQuantity::Cpa)]);
    if (tty)
      std::fprintf(stderr, "\r\033[K%s%s", line, seed == last ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line);
  };
  for (const std::string& n : imo_names) {
    const sim::Scenario s = sim::make_scenario(n);
    imo.push_back(eval::evaluate_imo(
        s, seed_first, seed_last, imo_cfg,
        [&](uint64_t seed, const eval::ImoSeedRun& r) { imo_progress(n, seed, seed_last, r); }));
  }
  std::vector<eval::ImoScenarioResult> imo_video;
  if (a.imo_video > 0)
    for (const std::string& n : imo_names) {
      const sim::Scenario s = sim::make_scenario(n);
      const auto v0 = std::chrono::steady_clock::now();
      std::vector<eval::ImoSeedRun> vr;
      const uint64_t last = seed_first + uint64_t(a.imo_video) - 1;
      for (uint64_t seed = seed_first; seed <= last; ++seed) {
        vr.push_back(eval::imo_seed_as_scored(s, [&](const sim::Scenario& defined) {
          auto pipeline = gpu::make_pipeline(backend);
          return eval::run_imo_video_seed(defined, seed, *pipeline, setup.processing.params,
                                          imo_cfg);
        }));
        imo_progress(n + " (video)", seed, last, vr.back());
      }
      eval::ImoScenarioResult r = eval::score_imo(n, vr);
      r.label = "video pipeline";
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - v0).count();
      imo_video.push_back(std::move(r));
    }

  nlohmann::ordered_json report;
  report["backend"] = setup.backend;
  report["size"] = setup.size;
  report["rotations"] = a.rotations;
  report["warmup"] = a.warmup;
  if (capture) {
    report["capture"] = a.capture;
    report["truth"] = a.truth;
  } else {
    report["seed"] =
        seed_given ? nlohmann::ordered_json(a.seed) : nlohmann::ordered_json("scenario's");
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report["settings"] =
      a.settings.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.settings);
  report["gates"] = {{"range_m", "max(60, hull length)"},
                     {"min_range_m", cfg.gates.min_range_m},
                     {"bearing_deg", cfg.gates.bearing_deg}};
  report["pipeline"] = engine::params_json(cfg.params);
  report["seconds"] = seconds;
  nlohmann::ordered_json scenes = nlohmann::ordered_json::array();
  for (const eval::SceneRun& r : runs) {
    nlohmann::ordered_json j = eval::scene_json(r, &cfg);
    if (!a.out.empty() && !r.scan.empty()) {
      const std::string png = "eval-" + safe_file_name(r.name) + ".png";
      const std::vector<uint8_t> rgba = eval::ppi_picture(r);
      write_png_rgba((std::filesystem::path(a.out) / png).string(), r.scan.width, r.scan.height,
                     rgba.data());
      j["picture"] = png;
    }
    scenes.push_back(j);
  }
  report["scenes"] = scenes;
  if (!imo.empty()) {
    nlohmann::ordered_json t;
    t["standard"] = "IMO MSC.192(79) 5.25 (A.823(19) Annex 2 scenarios, Annex 3 sensor errors)";
    t["tracker"] = "track::Tracker, default parameters, automatic acquisition";
    auto results = [&](const std::vector<eval::ImoScenarioResult>& rs, const char* prefix) {
      nlohmann::ordered_json arr = nlohmann::ordered_json::array();
      for (const eval::ImoScenarioResult& r : rs) {
        nlohmann::ordered_json j = eval::imo_json(r);
        if (!a.out.empty()) {
          const std::string png = std::string(prefix) + safe_file_name(r.name) + ".png";
          int w = 0, h = 0;
          const std::vector<uint8_t> rgba = eval::imo_chart(r, w, h);
          write_png_rgba((std::filesystem::path(a.out) / png).string(), w, h, rgba.data());
          j["picture"] = png;
        }
        arr.push_back(j);
      }
      return arr;
    };
    t["imo"] = results(imo, "eval-imo-");
    if (!imo_video.empty()) t["imo_video"] = results(imo_video, "eval-imo-video-");
    report["tracking"] = t;
  }
  if (!a.out.empty()) {
    const std::string path = (std::filesystem::path(a.out) / "eval.json").string();
    std::ofstream f(path, std::ios::trunc);
    f << report.dump(1) << '\n';
    SWL_CHECK(f.good(), "--out: cannot write '" + path + "'");
  }

  if (a.json) {
    std::printf("%s\n", report.dump(1).c_str());
  } else {
    if (!runs.empty() || imo.empty()) {
      const eval::DetectionKind from =
          runs.empty() ? eval::DetectionKind::Components : runs.front().detections_from;
      std::printf(
          "sweepline eval: %s backend, display %d x %d, %lld rotation(s) asked after %lld "
          "warm-up (rot: scored), detections from %s\n\n",
          setup.backend.c_str(), setup.size, setup.size, (long long)a.rotations,
          (long long)a.warmup, eval::to_string(from));
      std::printf("%s", eval::scorecard_table(runs).c_str());
    }
    if (a.track && !runs.empty())
      std::printf(
          "\ntracking: the tracker on every rotation from the first (warm-up included), scored "
          "on the %lld scored rotation(s)\n\n%s",
          (long long)a.rotations, eval::tracking_table(runs).c_str());
    if (!imo.empty()) {
      std::printf(
          "%sIMO tracking accuracy, 95th percentile over seeds %llu..%llu against MSC.192(79) "
          "5.25 (margin = p95 / limit)\n\n%s",
          runs.empty() ? "" : "\n", (unsigned long long)seed_first, (unsigned long long)seed_last,
          eval::imo_table(imo).c_str());
      if (!imo_video.empty())
        std::printf(
            "cross-check through the video pipeline (%s backend, display %d), %lld seed(s) "
            "each:\n\n%s",
            setup.backend.c_str(), setup.size, (long long)a.imo_video,
            eval::imo_table(imo_video).c_str());
    }
  }
  int passed = 0;
  for (const auto& r : runs) passed += r.score.pass;
  const std::string where =
      a.out.empty() ? "" : "; report in " + (std::filesystem::path(a.out) / "eval.json").string();
  if (!runs.empty() || imo.empty())
    std::fprintf(stderr, "eval: %zu scene(s), %d meet every target, %.1f s%s\n", runs.size(),
                 passed, seconds, where.c_str());
  if (a.track && !runs.empty()) {
    int tpass = 0;
    for (const auto& r : runs) tpass += r.tracked && r.tracking.pass;
    std::fprintf(stderr, "eval: tracking: %zu scene(s), %d meet every tracking target\n",
                 runs.size(), tpass);
  }
  if (!imo.empty()) {
    int ipass = 0, vpass = 0;
    for (const auto& r : imo) ipass += r.pass;
    for (const auto& r : imo_video) vpass += r.pass;
    std::fprintf(stderr,
                 "eval: IMO: %zu scenario(s) x %llu seed(s), %d meet every limit%s, "
                 "%.1f s%s\n",
                 imo.size(), (unsigned long long)(seed_last - seed_first + 1), ipass,
                 imo_video.empty() ? ""
                                   : (", video pipeline " + std::to_string(vpass) + " of " +
                                      std::to_string(imo_video.size()))
                                         .c_str(),
                 seconds, where.c_str());
  }
  return 0;  // a measurement, not a test: the targets' results are in the report
}

}  // namespace

Command add_eval_command(CLI::App& parent) {
  auto a = std::make_shared<EvalArgs>();
  Command c;
  c.app = parent.add_subcommand(
      "eval",
      "Detection and tracking scorecards: simulated scenes (or a recording and its truth) "
      "through the console's pipeline, plots matched to the truth; the IMO scenarios' tracking "
      "accuracy over many seeds");
  CLI::App* app = c.app;
  app->add_option("--scenario", a->scenarios,
                  "harbour, open-sea, stress, vessels50, vessels1869 or all; imo1..imo4 or imo "
                  "(repeatable)");
  app->add_option("--seeds", a->seeds, "IMO scenarios: N (seeds 1..N) or A-B (default 100)");
  app->add_option("--imo-video", a->imo_video,
                  "IMO scenarios: the first N seeds also through the video pipeline (slow)")
      ->capture_default_str();
  app->add_flag("--track", a->track,
                "Also score the tracker on the scenes (busy scenes: confirmation, false tracks, "
                "id continuity, GOSPA)");
  app->add_option("--seed", a->seed, "Simulator seed (default: the scenario's own)")
      ->check(non_negative_check());
  app->add_option("--rotations", a->rotations, "Rotations scored")->capture_default_str();
  app->add_option("--warmup", a->warmup,
                  "Rotations run first and not scored (scan-to-scan state settles)")
      ->capture_default_str();
  app->add_option("--backend", a->backend,
                  "cpu or cuda (default: the settings' backend, the CPU when CUDA is unavailable)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app->add_option("--size", a->size,
                  "Display side in pixels; 0: as the console picks (4096 CUDA, 1536 CPU)");
  app->add_option("--settings", a->settings,
                  "A console settings.json: its \"processing\" object (default: built-in defaults)")
      ->check(CLI::ExistingFile);
  app->add_option("--out", a->out, "Folder for eval.json and one PPI picture per scene")
      ->check(output_folder_check());
  app->add_option("--capture", a->capture, "A recording (pcap, pcapng, raw ASTERIX) to score")
      ->check(CLI::ExistingFile);
  app->add_option("--truth", a->truth, "The recording's truth (JSON lines from `sweepline sim`)")
      ->check(CLI::ExistingFile);
  app->add_flag("--json", a->json, "Print the JSON report instead of the table");
  c.run = [a, app] { return run_eval(*a, app->count("--seed") > 0); };
  return c;
}

}  // namespace sweepline::cli
