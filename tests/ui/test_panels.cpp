// The Processing panel driven with the mouse, headless (an EGL context for the console's
// renderer, ImGui without a platform or renderer backend): it leads with Gain, Sea and Rain, each
// slider inert while its Auto is on; the former controls and the plot settings sit under a
// collapsed Advanced header; a click reaches the engine's parameters through the panel's command
// path. Items are found by their ImGui ids: the mouse visits the panel and records what each
// position hovers.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <map>
#include <memory>
#include <string>

#include "app/engine/engine.hpp"
#include "render/egl_context.hpp"
#include "ui/console.hpp"
#include "ui/panels.hpp"

using namespace sweepline;
using namespace sweepline::ui;

namespace {

// Tall enough that the Processing panel holds the Advanced section without scrolling.
constexpr int kWidth = 1280, kHeight = 2400;

class PanelHarness {
 public:
  PanelHarness() {
    engine::EngineSettings s;
    s.processing.backend = "cpu";
    engine_ = std::make_unique<engine::Engine>(s);
    console_ = std::make_unique<Console>(*engine_, ViewSettings{});
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(float(kWidth), float(kHeight));
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // no renderer: the atlas is only built
    apply_console_style();
    frame(-1, -1, false);
  }
  ~PanelHarness() { ImGui::DestroyContext(ctx_); }
  PanelHarness(const PanelHarness&) = delete;
  PanelHarness& operator=(const PanelHarness&) = delete;

  // One UI frame with the mouse at (x, y); returns the id of the item hovered.
  ImGuiID frame(float x, float y, bool down) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y);
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    console_->build_ui(kWidth, kHeight, false);
    const ImGuiID hovered = GImGui->HoveredId;
    ImGui::Render();
    return hovered;
  }
  void click(ImVec2 p) {
    frame(p.x, p.y, true);
    frame(p.x, p.y, false);
    frame(-1, -1, false);
  }

  // Every item the mouse can hover in the Processing panel, with one position over it.
  std::map<ImGuiID, ImVec2> scan() {
    ImGuiWindow* w = ImGui::FindWindowByName("Processing");
    EXPECT_NE(w, nullptr);
    std::map<ImGuiID, ImVec2> found;
    if (!w) return found;
    const ImVec2 p0 = w->Pos, p1{w->Pos.x + w->Size.x, w->Pos.y + w->Size.y};
    for (float y = p0.y + 2; y < p1.y; y += 4)
      for (float x = p0.x + 4; x < p1.x - 4; x += 10) {
        const ImGuiID id = frame(x, y, false);
        if (id) found.emplace(id, ImVec2{x, y});
      }
    frame(-1, -1, false);
    return found;
  }

  // The id of a widget labelled `label` in the Processing panel, inside `scope` (PushID) if
  // given.
  static ImGuiID id_of(const char* label, const char* scope = nullptr) {
    ImGuiID seed = ImHashStr("Processing");
    if (scope) seed = ImHashStr(scope, 0, seed);
    return ImHashStr(label, 0, seed);
  }

  const gpu::PipelineParams& params() const { return engine_->settings().processing.params; }
  Console& console() { return *console_; }

 private:
  render::EglContext egl_{"auto"};  // first: the console's renderer compiles its shaders
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<Console> console_;
  ImGuiContext* ctx_ = nullptr;
};

}  // namespace

TEST(ProcessingPanel, OperatorControlsLeadAndAdvancedIsCollapsed) {
  PanelHarness h;
  auto items = h.scan();
  const ImGuiID video = PanelHarness::id_of("Video processing");
  const ImGuiID gain_auto = PanelHarness::id_of("Auto", "Gain");
  const ImGuiID rain_auto = PanelHarness::id_of("Auto", "Rain");
  const ImGuiID map = PanelHarness::id_of("Clutter map");
  const ImGuiID advanced = PanelHarness::id_of("Advanced");
  for (ImGuiID id :
       {video, gain_auto, PanelHarness::id_of("Auto", "Sea"), rain_auto, map, advanced})
    EXPECT_EQ(items.count(id), 1u) << "an operator control is missing (id " << id << ")";
  // In order down the panel, Advanced last.
  ASSERT_EQ(items.count(video) + items.count(gain_auto) + items.count(advanced), 3u);
  EXPECT_LT(items[video].y, items[gain_auto].y);
  EXPECT_LT(items[gain_auto].y, items[rain_auto].y);
  EXPECT_LT(items[map].y, items[advanced].y);
  EXPECT_EQ(items.count(PanelHarness::id_of("##knob", "Gain")), 1u);
  // Collapsed: the former controls and the plot settings are not there.
  for (const char* hidden : {"Threshold", "Backend", "Mode", "Connectivity", "Min area",
                             "Beamwidth", "Confirm over 2 scans", "Show all components"})
    EXPECT_EQ(items.count(PanelHarness::id_of(hidden)), 0u) << hidden << " outside Advanced";

  h.click(items[advanced]);
  items = h.scan();
  for (const char* shown :
       {"Threshold", "Backend", "Mode", "Connectivity", "Min area", "Beamwidth", "Pulse length",
        "Largest target", "Confirm over 2 scans", "Max speed", "Show all components"})
    EXPECT_EQ(items.count(PanelHarness::id_of(shown)), 1u) << shown << " missing under Advanced";
  EXPECT_GT(items[PanelHarness::id_of("Threshold")].y, items[advanced].y);
}

TEST(ProcessingPanel, ClicksReachTheEngine) {
  PanelHarness h;
  auto items = h.scan();
  const ImGuiID gain_auto = PanelHarness::id_of("Auto", "Gain");
  ASSERT_EQ(items.count(gain_auto), 1u);
  const gpu::PipelineParams before = h.params();
  ASSERT_TRUE(before.video.gain_auto);
  const ImGuiID knob = PanelHarness::id_of("##knob", "Gain");
  ASSERT_EQ(items.count(knob), 1u);
  // The leftmost point over the Gain slider: walk left until it stops hovering.
  ImVec2 left = items[knob];
  while (h.frame(left.x - 1, left.y, false) == knob) left.x -= 1;
  // Inert while Auto is on (the console's default): a click there changes nothing.
  h.click(left);
  EXPECT_EQ(h.params().video.gain, before.video.gain);
  EXPECT_TRUE(h.params().video.gain_auto);

  h.click(items[gain_auto]);
  EXPECT_FALSE(h.params().video.gain_auto);
  EXPECT_TRUE(h.params().video.sea_auto) << "another knob changed";
  EXPECT_TRUE(h.params().video.rain_auto) << "another knob changed";
  // Manual now: the same click turns the gain down.
  h.click(left);
  EXPECT_LT(h.params().video.gain, 10.0f);
  EXPECT_FALSE(h.params().video.gain_auto);

  h.click(items[PanelHarness::id_of("Clutter map")]);
  EXPECT_FALSE(h.params().video.clutter_map);
  h.click(items[PanelHarness::id_of("Video processing")]);
  EXPECT_FALSE(h.params().video.enabled);

  h.click(items[PanelHarness::id_of("Advanced")]);
  items = h.scan();
  ASSERT_EQ(items.count(PanelHarness::id_of("Confirm over 2 scans")), 1u);
  h.click(items[PanelHarness::id_of("Confirm over 2 scans")]);
  EXPECT_EQ(h.params().plot.confirm_scans, 1);
  ASSERT_FALSE(h.console().show_all_components());
  h.click(items[PanelHarness::id_of("Show all components")]);
  EXPECT_TRUE(h.console().show_all_components());
  // Untouched values kept.
  EXPECT_EQ(h.params().threshold, before.threshold);
  EXPECT_EQ(h.params().label.min_area, before.label.min_area);
}
