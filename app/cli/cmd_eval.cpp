// `sweepline eval`: the detection scorecard. Simulated scenarios (or a recording with its truth
// file) through the console's pipeline, one pipeline instance per scene over consecutive
// rotations, the detections matched to the truth per rotation; a table on stdout, progress on
// stderr, and with --out a JSON report and a marked PPI picture per scene (docs/eval.md).
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/common/check.hpp"
#include "app/common/image_io.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/eval/eval_report.hpp"
#include "app/eval/eval_run.hpp"
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
};

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
    if (n == "all") {
      for (const std::string& k : sim::scenario_names())
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
      continue;
    }
    const auto known = sim::scenario_names();
    SWL_CHECK(std::find(known.begin(), known.end(), n) != known.end(),
              "--scenario: unknown scenario '" + n +
                  "' (harbour, open-sea, stress, vessels50, vessels1869 or all)");
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
  const std::vector<std::string> names =
      capture ? std::vector<std::string>{} : scene_names(a.scenarios);
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
  const bool tty = isatty(fileno(stderr));
  std::string scene_label;
  cfg.progress = [&](int i, int total, bool scored, const eval::RotationScore& s) {
    char line[256];
    if (scored)
      std::snprintf(
          line, sizeof line, "eval %s: rotation %d/%d: %d/%d vessels found, %d plots, %d unmatched",
          scene_label.c_str(), i + 1, total, s.found, s.vessels, s.detections, s.unmatched);
    else
      std::snprintf(line, sizeof line, "eval %s: rotation %d/%d (warm-up): %d plots",
                    scene_label.c_str(), i + 1, total, s.detections);
    if (tty)
      std::fprintf(stderr, "\r\033[K%s%s", line, i + 1 == total ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line);
  };

  const auto t0 = std::chrono::steady_clock::now();
  const gpu::Backend backend = gpu::backend_from_string(setup.backend);
  std::vector<eval::SceneRun> runs;
  if (capture) {
    auto truth = eval::read_truth_file(a.truth);
    sweep::SweepConfig sc;
    sc.azimuths = std::clamp(setup.processing.azimuths, 16, 65536);
    sc.range_bins = std::clamp(setup.processing.range_bins, 16, 65536);
    auto feed = eval::capture_feed(a.capture, std::move(truth), sc);
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
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

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
  report["settings"] =
      a.settings.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.settings);
  report["gates"] = {{"range_m", "max(60, hull length)"},
                     {"min_range_m", cfg.gates.min_range_m},
                     {"bearing_deg", cfg.gates.bearing_deg}};
  report["pipeline"] = engine::params_json(cfg.params);
  report["seconds"] = seconds;
  nlohmann::ordered_json scenes = nlohmann::ordered_json::array();
  for (const eval::SceneRun& r : runs) {
    nlohmann::ordered_json j = eval::scene_json(r);
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
  if (!a.out.empty()) {
    const std::string path = (std::filesystem::path(a.out) / "eval.json").string();
    std::ofstream f(path, std::ios::trunc);
    f << report.dump(1) << '\n';
    SWL_CHECK(f.good(), "--out: cannot write '" + path + "'");
  }

  if (a.json) {
    std::printf("%s\n", report.dump(1).c_str());
  } else {
    const eval::DetectionKind from =
        runs.empty() ? eval::DetectionKind::Components : runs.front().detections_from;
    std::printf(
        "sweepline eval: %s backend, display %d x %d, %lld rotation(s) asked after %lld "
        "warm-up (rot: scored), detections from %s\n\n",
        setup.backend.c_str(), setup.size, setup.size, (long long)a.rotations, (long long)a.warmup,
        eval::to_string(from));
    std::printf("%s", eval::scorecard_table(runs).c_str());
  }
  int passed = 0;
  for (const auto& r : runs) passed += r.score.pass;
  std::fprintf(stderr, "eval: %zu scene(s), %d meet every target, %.1f s%s%s\n", runs.size(),
               passed, seconds, a.out.empty() ? "" : "; report in ",
               a.out.empty() ? "" : (std::filesystem::path(a.out) / "eval.json").string().c_str());
  return 0;  // a measurement, not a test: the targets' results are in the report
}

}  // namespace

Command add_eval_command(CLI::App& parent) {
  auto a = std::make_shared<EvalArgs>();
  Command c;
  c.app = parent.add_subcommand(
      "eval",
      "Detection scorecard: simulated scenes (or a recording and its truth) through the "
      "console's pipeline, plots matched to the truth");
  CLI::App* app = c.app;
  app->add_option("--scenario", a->scenarios,
                  "harbour, open-sea, stress, vessels50, vessels1869 or all (repeatable)");
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
