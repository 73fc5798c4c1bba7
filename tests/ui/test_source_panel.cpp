// The Source panel shows the source that is playing: its tab in front and its real parameters
// in the form (scenario, seed, rpm; the file; group, port, interface), whatever the form held
// before; the operator's own tab choice stands until the source changes. Headless ImGui (no
// platform or renderer backend; an EGL context for the console's renderer), as
// tests/ui/test_panels.cpp.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>
#include <string>

#include "app/engine/engine.hpp"
#include "render/egl_context.hpp"
#include "ui/console.hpp"
#include "ui/source_panel.hpp"

using namespace sweepline;
using namespace sweepline::ui;

namespace {

const std::string kCapture = std::string(SWEEPLINE_SOURCE_DIR) + "/assets/harbour.pcap";

class SourcePanelHarness {
 public:
  SourcePanelHarness() {
    engine::EngineSettings s;
    s.processing.backend = "cpu";
    s.source.file_path = "/somewhere/else.pcap";  // a stale form
    s.source.udp_port = 1234;
    engine_ = std::make_unique<engine::Engine>(s);
    console_ = std::make_unique<Console>(*engine_, ViewSettings{});
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 1000);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~SourcePanelHarness() { ImGui::DestroyContext(ctx_); }
  SourcePanelHarness(const SourcePanelHarness&) = delete;
  SourcePanelHarness& operator=(const SourcePanelHarness&) = delete;

  // Two frames (a tab chosen with SetSelected shows from the next one).
  void draw() {
    for (int i = 0; i < 2; ++i) {
      ImGui::NewFrame();
      ImGui::SetNextWindowSize(ImVec2(340, 600));
      ImGui::Begin("Source");
      source_panel(*engine_, *console_);
      ImGui::End();
      ImGui::Render();
    }
  }
  bool shows(const std::string& widget) const { return console_->widgets().count(widget) > 0; }
  engine::Engine& engine() { return *engine_; }

 private:
  render::EglContext egl_{"auto"};  // first: the console's renderer compiles its shaders
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<Console> console_;
  ImGuiContext* ctx_ = nullptr;
};

}  // namespace

TEST(SourcePanel, FormFromUri) {
  engine::SourceSettings f;
  EXPECT_EQ(form_from_uri("sim://open-sea?seed=7&rpm=30", f), SourceTab::Simulator);
  EXPECT_EQ(f.scenario, "open-sea");
  EXPECT_EQ(f.seed, 7);
  EXPECT_EQ(f.rpm, 30);
  EXPECT_EQ(form_from_uri("udp://239.9.9.9:9100?iface=lo", f), SourceTab::Udp);
  EXPECT_EQ(f.udp_group, "239.9.9.9");
  EXPECT_EQ(f.udp_port, 9100);
  EXPECT_EQ(f.udp_interface, "lo");
  EXPECT_EQ(form_from_uri("udp://239.9.9.8:9101", f), SourceTab::Udp);
  EXPECT_EQ(f.udp_interface, "") << "an interface the URI does not name is none";
  EXPECT_EQ(form_from_uri("/data/a.pcap", f), SourceTab::File);
  EXPECT_EQ(f.file_path, "/data/a.pcap");
  EXPECT_EQ(form_from_uri("file:///data/b.pcap?speed=2", f), SourceTab::File);
  EXPECT_EQ(f.file_path, "file:///data/b.pcap?speed=2") << "replay options open again with it";
  EXPECT_EQ(form_from_uri("bogus://x", f), SourceTab::None);
  EXPECT_EQ(f.file_path, "file:///data/b.pcap?speed=2") << "a malformed URI changes nothing";
}

TEST(SourcePanel, ShowsTheFileThatIsPlaying) {
  SourcePanelHarness h;
  ASSERT_TRUE(h.engine().open_source(kCapture)) << h.engine().source_view().error;
  h.draw();
  EXPECT_TRUE(h.shows("source.file.path")) << "the File tab is not in front";
  EXPECT_FALSE(h.shows("source.sim.scenario"));
  EXPECT_EQ(h.engine().settings().source.file_path, kCapture);
  EXPECT_TRUE(h.shows("source.loop")) << "a replay has its transport";
}

TEST(SourcePanel, ShowsTheSimulatorThatIsPlayingAndFollowsTheNextSource) {
  SourcePanelHarness h;
  ASSERT_TRUE(h.engine().open_source("sim://vessels50?seed=5&rpm=30"));
  h.draw();
  EXPECT_TRUE(h.shows("source.sim.scenario"));
  EXPECT_EQ(h.engine().settings().source.scenario, "vessels50");
  EXPECT_EQ(h.engine().settings().source.seed, 5);
  EXPECT_EQ(h.engine().settings().source.rpm, 30);
  // The next source brings its own tab to the front.
  ASSERT_TRUE(h.engine().open_source(kCapture));
  h.draw();
  EXPECT_TRUE(h.shows("source.file.path"));
  // A source that fails to open leaves the form and the tab as they were, with the message.
  EXPECT_FALSE(h.engine().open_source("/nonexistent/typo.pcap"));
  h.draw();
  EXPECT_TRUE(h.shows("source.file.path"));
  EXPECT_EQ(h.engine().settings().source.uri, kCapture);
  EXPECT_TRUE(h.engine().source_view().open);
}
