// `sweepline view --headless` end to end: the bundled capture (assets/harbour.pcap) rendered
// offscreen against a golden image, its report's components against the simulator's truth, the
// overlay boxes in the picture against the report, a clean simulated scene where every vessel
// must be found, and a bad source that must fail cleanly.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpu/backend/cuda_availability.hpp"
#include "tests/render/png_rgba.hpp"
#include "tests/support/run_command.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kSource = SWEEPLINE_SOURCE_DIR;
const std::string kGoldenDir = kSource + "/tests/render/golden";

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sweepline_test_render_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

struct HeadlessRun {
  int status = -1;
  std::string output;
  json report;
  sweepline::test::RgbaImage image;
};

HeadlessRun headless(const std::string& source, int frames, const std::string& tag,
                     const std::string& extra = "",
                     const std::string& config = kGoldenDir + "/harbour_settings.json") {
  HeadlessRun r;
  const fs::path png = scratch(tag + ".png"), rep = scratch(tag + ".json");
  const std::string args = "view --headless --source '" + source + "' --frames " +
                           std::to_string(frames) + " --snapshot " + png.string() + " --report " +
                           rep.string() + " --config " + config +
                           " --no-save --width 800 --height 800 --hide-panels " + extra;
  const auto res = sweepline::test::run_sweepline(args);
  r.status = res.status;
  r.output = res.output;
  if (r.status == 0) {
    std::ifstream in(rep);
    r.report = json::parse(in);
    r.image = sweepline::test::read_png_rgba(png.string());
  }
  return r;
}

struct Truth {
  int rotation, id;
  double range_m, bearing_deg;
};
std::vector<Truth> read_truth(const std::string& path) {
  std::vector<Truth> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const json j = json::parse(line);
    out.push_back({j["rotation"].get<int>(), j["id"].get<int>(), j["range_m"].get<double>(),
                   j["bearing_deg"].get<double>()});
  }
  return out;
}

// Tolerance: one pulse length (30 m) plus one display pixel in range, one beamwidth (1.2 deg) in
// bearing. Returns the truth vessels of the frame's rotation not found within it.
std::vector<Truth> unmatched(const json& frame, const std::vector<Truth>& truth, double mpp,
                             int& truth_count) {
  // A frame handed off at the north crossing that ended rotation N-1 shows that rotation.
  const int rotation = frame["rotation"].get<int>() - 1;
  std::vector<Truth> missed;
  truth_count = 0;
  for (const Truth& t : truth) {
    if (t.rotation != rotation) continue;
    ++truth_count;
    bool found = false;
    for (const auto& c : frame["components"]) {
      const double dr = c["range_m"].get<double>() - t.range_m;
      const double db = std::remainder(c["bearing_deg"].get<double>() - t.bearing_deg, 360.0);
      if (std::abs(dr) <= 30 + mpp && std::abs(db) <= 1.2) found = true;
    }
    if (!found) missed.push_back(t);
  }
  return missed;
}

// The harbour scenario's 50 vessels of the frame's rotation are all in the truth and all found.
void expect_every_vessel_found(const json& frame, const std::vector<Truth>& truth, double mpp) {
  int n = 0;
  const auto missed = unmatched(frame, truth, mpp, n);
  EXPECT_EQ(n, 50);
  EXPECT_TRUE(missed.empty()) << missed.size() << " missed in frame " << frame["frame"]
                              << ", first id " << (missed.empty() ? -1 : missed[0].id);
}

// Fraction of pixels whose largest channel difference exceeds `tol`, and the mean difference.
void compare(const sweepline::test::RgbaImage& a, const sweepline::test::RgbaImage& b, int tol,
             double& frac, double& mean) {
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  size_t over = 0;
  double sum = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      int m = 0;
      for (int c = 0; c < 3; ++c)
        m = std::max(m, std::abs(int(a.at(x, y)[c]) - int(b.at(x, y)[c])));
      over += m > tol;
      sum += m;
    }
  frac = double(over) / (double(a.width) * a.height);
  mean = sum / (double(a.width) * a.height);
}

// The golden tolerance: a pixel differs when a channel is off by more than 24 levels; at most
// 0.5 % of the pixels may differ and the mean difference must stay under 1 level. That absorbs
// rasterisation differences between GL drivers (anti-aliased lines and text edges) but not a
// moved ring, box or echo.
constexpr int kPixelTol = 24;
constexpr double kMaxDifferingFraction = 0.005;
constexpr double kMaxMeanDiff = 1.0;

}  // namespace

TEST(HeadlessView, BundledCaptureMatchesTheGoldenImage) {
  const HeadlessRun r = headless(kSource + "/assets/harbour.pcap", 2, "golden", "--backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto golden = sweepline::test::read_png_rgba(kGoldenDir + "/harbour_cpu_800.png");
  double frac = 0, mean = 0;
  compare(r.image, golden, kPixelTol, frac, mean);
  // The golden image was rendered by Mesa's llvmpipe (as on CI). Another GL implementation
  // rasterises the antialiased text and lines differently: on the H100 (NVIDIA EGL) 1.0 % of the
  // pixels differed, mean 1.35 levels; with the range rings' labels on plates, on the H200, mean
  // 2.03 levels. There the bounds are 2 % and 2.5 levels.
  const bool mesa =
      r.report.value("gl_renderer", std::string()).find("llvmpipe") != std::string::npos;
  EXPECT_LE(frac, mesa ? kMaxDifferingFraction : 0.02) << "mean diff " << mean;
  EXPECT_LE(mean, mesa ? kMaxMeanDiff : 2.5);
}

TEST(HeadlessView, BundledCaptureComponentsMatchTheSimulatorTruth) {
  const HeadlessRun r = headless(kSource + "/assets/harbour.pcap", 3, "truth", "--backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto truth = read_truth(kSource + "/assets/harbour.truth.jsonl");
  const double mpp = r.report["display"]["metres_per_pixel"].get<double>();
  ASSERT_EQ(r.report["frames"].size(), 3u);
  for (const auto& f : r.report["frames"]) {
    // Every vessel, also those inside the rain cells and off the coast: the settings detect with
    // CA-CFAR (guard 24, 64 training cells, Pfa 1e-6), which follows the local clutter level.
    expect_every_vessel_found(f, truth, mpp);
    // CFAR's false alarms on the spiky (K-distributed) sea clutter and the land's edges pass
    // the area filter too; bounded so that a detector gone noisy fails.
    EXPECT_GE(f["count"].get<int>(), 50);
    EXPECT_LE(f["count"].get<int>(), 400);
    EXPECT_EQ(f["count"].get<size_t>(), f["components"].size());
    EXPECT_TRUE(f["times_ms"].contains("scan"));
  }
}

TEST(HeadlessView, EveryVesselOfACleanSceneIsFound) {
  // The same harbour vessels without clutter, rain or land: all 50 must be found each frame.
  const std::string uri =
      "sim://harbour?seed=3&clutter=off&rain=off&coast=off&separated=on&rotations=3";
  const fs::path truth_path = scratch("clean.truth.jsonl");
  const auto sim = sweepline::test::run_sweepline(
      "sim --scenario harbour --seed 3 --set clutter=off --set rain=off --set coast=off --set "
      "separated=on "
      "--rotations 3 --quiet --out " +
      scratch("clean.pcap").string() + " --truth " + truth_path.string());
  ASSERT_EQ(sim.status, 0) << sim.output;
  const HeadlessRun r = headless(uri, 2, "clean", "--backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto truth = read_truth(truth_path.string());
  const double mpp = r.report["display"]["metres_per_pixel"].get<double>();
  for (const auto& f : r.report["frames"]) {
    expect_every_vessel_found(f, truth, mpp);
    EXPECT_EQ(f["count"].get<int>(), 50) << "no false targets in a clean scene";
  }
}

// The overlay boxes the plots (a plot needs the previous sweep, so the third frame is used), each
// round its component's pixels.
TEST(HeadlessView, OverlayBoxesAreDrawnWhereTheReportPutsThePlots) {
  const HeadlessRun r = headless(kSource + "/assets/harbour.pcap", 3, "boxes", "--backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  const json& view = r.report["view"];
  const json& disp = r.report["display"];
  const double ppm = view["px_per_m"], ce = view["centre_east_m"], cn = view["centre_north_m"];
  const double rx = view["rect"][0], ry = view["rect"][1], rw = view["rect"][2],
               rh = view["rect"][3];
  const double mpp = disp["metres_per_pixel"], w = disp["width"], h = disp["height"];
  // The box colour (255, 204, 38) anti-aliased over the dark scope: its hue, at any strength.
  auto is_box = [](const uint8_t* p) {
    const int r = p[0], g = p[1], b = p[2];
    return r > 120 && g * 100 > r * 60 && g * 100 < r * 95 && b * 100 < r * 40;
  };
  int checked = 0, found = 0;
  const json& last = r.report["frames"].back();
  for (const auto& p : last["plots"]) {
    const json& c = last["components"][p["component"].get<size_t>() - 1];
    ASSERT_EQ(c["id"], p["component"]);
    // Left edge of the box: pixel column xmin's left edge in world metres, then on screen.
    const double e0 = (c["bbox"][0].get<double>() - 0.5 * w) * mpp;
    const double n0 = -(c["bbox"][1].get<double>() - 0.5 * h) * mpp;
    const double n1 = -(c["bbox"][3].get<double>() + 1 - 0.5 * h) * mpp;
    const double sx = rx + 0.5 * rw + (e0 - ce) * ppm;
    const double sy0 = ry + 0.5 * rh - (n0 - cn) * ppm, sy1 = ry + 0.5 * rh - (n1 - cn) * ppm;
    const double mid = 0.5 * (sy0 + sy1);
    if (sx < 40 || sx > r.image.width - 40 || mid < 80 || mid > r.image.height - 40) continue;
    ++checked;
    bool hit = false;
    // Boxes are at least 8 px wide around the centre, so search a few pixels about the edge.
    const double cx =
        sx + 0.5 * (c["bbox"][2].get<double>() + 1 - c["bbox"][0].get<double>()) * mpp * ppm;
    for (int dy = -5; dy <= 5 && !hit; ++dy)
      for (int x = int(std::min(sx, cx - 4)) - 2; x <= int(sx) + 2 && !hit; ++x)
        hit = is_box(r.image.at(x, int(mid) + dy));
    found += hit;
    if (!hit)
      std::printf("no box at %.1f,%.1f (id %d area %d)\n", sx, mid, c["id"].get<int>(),
                  c["area"].get<int>());
  }
  ASSERT_GT(checked, 30);
  EXPECT_GE(found, checked * 95 / 100) << found << " of " << checked << " boxes seen";
}

TEST(HeadlessView, CudaWithInteropRendersTheSameImageAsTheCpu) {
  if (auto reason = sweepline::gpu::cuda_unavailable_reason(); !reason.empty())
    GTEST_SKIP() << reason;
  const HeadlessRun r = headless(kSource + "/assets/harbour.pcap", 2, "cuda", "--backend cuda");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.report["backend"], "cuda") << r.report["backend_note"];
  EXPECT_TRUE(r.report["interop"].get<bool>());
  // The same capture through the CPU backend on the same GL implementation: only the processing
  // differs, so the bounds are the strict ones.
  const HeadlessRun c = headless(kSource + "/assets/harbour.pcap", 2, "cuda_cpu", "--backend cpu");
  ASSERT_EQ(c.status, 0) << c.output;
  double frac = 0, mean = 0;
  compare(r.image, c.image, kPixelTol, frac, mean);
  EXPECT_LE(frac, kMaxDifferingFraction) << "mean diff " << mean;
  EXPECT_LE(mean, kMaxMeanDiff);
}

// Label colours follow identities kept across frames (app/engine/label_identities.hpp): on CUDA
// the device labels are recoloured in place once the frame's components are in, on the CPU the
// host label image on upload. The label layer alone, several frames in: both backends must show
// the same colour on the same blobs (coloured by the frame's label numbers, most would differ).
TEST(HeadlessView, CudaLabelColoursFollowTheSameIdentitiesAsTheCpu) {
  if (auto reason = sweepline::gpu::cuda_unavailable_reason(); !reason.empty())
    GTEST_SKIP() << reason;
  json settings;
  {
    std::ifstream in(kGoldenDir + "/harbour_settings.json");
    settings = json::parse(in);
  }
  json& layers = settings["view"]["style"]["layers"];
  layers["scan"]["visible"] = false;
  layers["labels"]["opacity"] = 1.0;
  settings["view"]["style"]["afterglow"] = "off";
  settings["view"]["show_boxes"] = false;
  settings["view"]["show_rings"] = false;
  settings["view"]["show_bearing_scale"] = false;
  settings["view"]["show_sweep_line"] = false;
  const fs::path config = scratch("labels_only.json");
  std::ofstream(config) << settings.dump(1);
  const std::string source = kSource + "/assets/harbour.pcap";
  const HeadlessRun g = headless(source, 6, "labels_cuda", "--backend cuda", config.string());
  ASSERT_EQ(g.status, 0) << g.output;
  ASSERT_TRUE(g.report["interop"].get<bool>());
  const HeadlessRun c = headless(source, 6, "labels_cpu", "--backend cpu", config.string());
  ASSERT_EQ(c.status, 0) << c.output;
  ASSERT_EQ(g.image.width, c.image.width);
  ASSERT_EQ(g.image.height, c.image.height);
  // Over the pixels that either picture colours (label hues are saturated; the background, the
  // text plates and the land are grey): how many the other colours differently.
  auto saturation = [](const uint8_t* p) {
    return std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]});
  };
  size_t coloured = 0, differ = 0;
  for (int y = 0; y < c.image.height; ++y)
    for (int x = 0; x < c.image.width; ++x) {
      const uint8_t* a = g.image.at(x, y);
      const uint8_t* b = c.image.at(x, y);
      if (saturation(a) <= 48 && saturation(b) <= 48) continue;
      ++coloured;
      int d = 0;
      for (int ch = 0; ch < 3; ++ch) d = std::max(d, std::abs(int(a[ch]) - int(b[ch])));
      differ += d > kPixelTol;
    }
  std::printf("label layer: %zu coloured pixels, %zu of them differ\n", coloured, differ);
  ASSERT_GT(coloured, 1000u) << "the label layer shows almost nothing";
  EXPECT_LE(double(differ) / double(coloured), 0.05)
      << differ << " of " << coloured << " coloured pixels differ";
}

TEST(HeadlessView, AMissingSourceFailsWithAClearMessage) {
  const auto res = sweepline::test::run_sweepline(
      "view --headless --source /nonexistent/capture.pcap --frames 1 "
      "--no-save --config " +
      scratch("none.json").string());
  EXPECT_EQ(res.status, 1) << res.output;
  EXPECT_NE(res.output.find("/nonexistent/capture.pcap"), std::string::npos) << res.output;
}

// A settings file named with --config that holds a value out of its range (here the hostile
// 65536 x 65536 polar frame, 4 GiB a frame) is refused before anything is allocated: exit 1 and
// a message naming the key and its limit.
TEST(HeadlessView, AHostileSettingsFileIsRefusedNamingTheKey) {
  const std::string hostile = SWEEPLINE_SHARED_DIR "/data/hostile/11_max_polar_65536.json";
  if (!fs::exists(hostile)) GTEST_SKIP() << hostile << " is not here";
  const auto res =
      sweepline::test::run_sweepline("view --headless --source " + kSource +
                                     "/assets/harbour.pcap --frames 1 --no-save --config " +
                                     hostile + " --snapshot " + scratch("hostile.png").string());
  EXPECT_EQ(res.status, 1) << res.output;
  EXPECT_NE(res.output.find("processing.azimuths must be 4 .. 16384 (got 65536)"),
            std::string::npos)
      << res.output;
}
