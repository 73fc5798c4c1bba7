// The console's settings file (round trip, bad files) and the window script parser.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/common/check.hpp"
#include "ui/script.hpp"
#include "ui/settings.hpp"

using namespace sweepline;
using namespace sweepline::ui;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("sweepline_settings_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

}  // namespace

TEST(Settings, RoundTripKeepsEveryChangedValue) {
  Settings s;
  s.source.uri = "udp://239.0.1.2:8600";
  s.source.speed = 0.25;
  s.view.style.palette = render::Palette::Amber;
  s.view.style.brightness = render::Brightness::Night;
  s.view.style.afterglow = render::Afterglow::RealTime;
  s.view.style.layers[2] = {true, 0.3f};
  s.view.ring_spacing_m = 926;
  s.view.off_centre = true;
  s.processing.backend = "cpu";
  s.processing.size = 2048;
  s.processing.params.denoise = gpu::DenoiseMode::Bilateral;
  s.processing.params.bilateral_sigma_r = 12.5f;
  s.processing.params.threshold = 99;
  s.processing.params.label.connectivity = 4;
  s.processing.params.label.algorithm = ccl::Algorithm::Kang;
  s.processing.params.label.min_area = 17;
  s.processing.params.fft.power = 0.45f;
  const auto path = temp_file("round.json");
  save_settings(path.string(), s);
  Settings back;
  ASSERT_TRUE(load_settings(path.string(), back));
  EXPECT_EQ(to_json_text(back), to_json_text(s));
  EXPECT_EQ(back.processing.params.threshold, 99);
  EXPECT_EQ(back.processing.params.label.algorithm, ccl::Algorithm::Kang);
  EXPECT_EQ(back.view.style.palette, render::Palette::Amber);
  EXPECT_FLOAT_EQ(back.view.style.layers[2].opacity, 0.3f);
}

TEST(Settings, MissingFileGivesDefaultsAndPartialFileKeepsTheRest) {
  Settings s;
  EXPECT_TRUE(load_settings(temp_file("absent.json").string(), s));
  EXPECT_EQ(to_json_text(s), to_json_text(Settings{}));
  const auto path = temp_file("partial.json");
  std::ofstream(path) << R"({"view": {"style": {"palette": "multi"}}, "unknown": 1})";
  ASSERT_TRUE(load_settings(path.string(), s));
  EXPECT_EQ(s.view.style.palette, render::Palette::MultiColour);
  EXPECT_EQ(s.processing.params.threshold, Settings{}.processing.params.threshold);
}

TEST(Settings, MalformedFileIsReportedAndIgnored) {
  for (const char* text : {"{not json", R"({"view": {"style": {"palette": "purple"}}})",
                           R"({"processing": {"pipeline": {"threshold": "high"}}})"}) {
    const auto path = temp_file("bad.json");
    std::ofstream(path, std::ios::trunc) << text;
    Settings s;
    s.source.uri = "changed";
    std::string error;
    EXPECT_FALSE(load_settings(path.string(), s, &error)) << text;
    EXPECT_NE(error.find("bad.json"), std::string::npos) << error;
    EXPECT_EQ(to_json_text(s), to_json_text(Settings{})) << text;
  }
}

TEST(Settings, FileKeepsItsFormatAcrossTheEngineAndViewHalves) {
  // The engine reads "source" and "processing", the console "view": one file, the same keys.
  Settings s;
  ASSERT_TRUE(load_settings(
      std::string(SWEEPLINE_SOURCE_DIR) + "/tests/render/golden/harbour_settings.json", s));
  EXPECT_EQ(s.processing.backend, "cpu");
  EXPECT_EQ(s.processing.size, 1024);
  EXPECT_EQ(s.processing.params.denoise, gpu::DenoiseMode::Cfar);
  EXPECT_EQ(s.processing.params.cfar_guard, 24);
  EXPECT_EQ(s.processing.params.label.min_area, 4);
  EXPECT_EQ(s.view.style.brightness, render::Brightness::Dusk);
  EXPECT_FALSE(s.view.style.layers[1].visible);
  const auto j = nlohmann::json::parse(to_json_text(s));
  EXPECT_EQ(j.size(), 5u);
  for (const char* k : {"source", "view", "processing", "tracking", "navigation"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["processing"]["pipeline"]["denoise"], "cfar");
  EXPECT_EQ(j["source"]["udp_port"], 8600);
  EXPECT_EQ(j["view"]["style"]["brightness"], "dusk");
  // What the engine hands back at the end of a run, and the view, make the same file again.
  const Settings again = combine(s, s.view);
  EXPECT_EQ(to_json_text(again), to_json_text(s));
}

TEST(Script, ParsesCommandsAndSkipsComments) {
  const auto cmds =
      parse_script("# demo\nwait 1.5\n\nkey space  # pause\nscreenshot a.png\npan 10 -4\nquit\n");
  ASSERT_EQ(cmds.size(), 5u);
  EXPECT_EQ(cmds[0].verb, "wait");
  EXPECT_EQ(cmds[0].args[0], "1.5");
  EXPECT_EQ(cmds[1].verb, "key");
  EXPECT_EQ(cmds[1].line, 4);
  EXPECT_EQ(cmds[3].args.size(), 2u);
}

TEST(Script, ErrorsNameTheLine) {
  auto message = [](const std::string& text) {
    try {
      parse_script(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("wait 1\nfly away\n").find("line 2"), std::string::npos);
  EXPECT_NE(message("zoom\n").find("line 1"), std::string::npos);
  EXPECT_NE(message("key escape\n").find("unknown key"), std::string::npos);
  EXPECT_NE(message("wait soon\n").find("not a number"), std::string::npos);
  EXPECT_THROW(load_script("/nonexistent/script.txt"), Error);
}
