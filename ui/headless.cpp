// `sweepline view --headless`: the same console rendered offscreen through EGL (the NVIDIA device
// platform on a GPU machine, Mesa surfaceless elsewhere) with ImGui's OpenGL3 backend alone and a
// fixed display size. One frame per completed rotation, read unpaced from the source.
#include <GL/glew.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>

#include <unistd.h>

#include "app/cli/stop_signals.hpp"
#include "app/common/check.hpp"
#include "app/engine/engine.hpp"
#include "app/engine/remote_track_view.hpp"
#include "app/engine/report.hpp"
#include "render/egl_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/readback.hpp"
#include "ui/console.hpp"
#include "ui/panels.hpp"
#include "ui/view_options.hpp"
#include "ui/view_setup.hpp"

namespace sweepline::ui {

namespace {

// The ImGui context with only the renderer backend; torn down in reverse order.
class HeadlessImGui {
 public:
  HeadlessImGui(int width, int height) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // a fixed layout: snapshots must not depend on a saved one
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DeltaTime = 1.0f / 30.0f;
    apply_console_style();
    load_console_font();
    SWL_CHECK(ImGui_ImplOpenGL3_Init("#version 330"), "ImGui OpenGL3 backend failed to initialise");
  }
  ~HeadlessImGui() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace

int run_headless(const ViewOptions& opt) {
  std::string settings_path;
  Settings settings = effective_settings(opt, settings_path);
  // Headless runs read as fast as the source allows: a frame is a whole rotation, or
  // --frame-radials of it (what a window shows each frame at its frame rate).
  settings.source.speed = 0;
  settings.source.loop = false;
  const int frames = opt.frames > 0 ? opt.frames : 1;

  render::EglContext egl(opt.egl);
  spdlog::info("headless: EGL {} platform, GL {} on {}", egl.platform(), egl.version(),
               egl.renderer());
  HeadlessImGui imgui(opt.width, opt.height);
  render::OffscreenTarget target(opt.width, opt.height);

  Engine eng(settings);
  if (opt.stop) eng.set_stop_flag(&opt.stop->flag());
  if (!eng.open_source(eng.settings().source.uri)) {
    std::fprintf(stderr, "sweepline view: %s\n", eng.source_view().error.c_str());
    return 1;
  }
  Console console(eng, settings.view);
  nlohmann::json report = nlohmann::json::object();
  nlohmann::json frame_list = nlohmann::json::array();
  int done = 0;
  const auto stopped = [&] { return opt.stop && opt.stop->requested(); };
  const bool progress_in_place = isatty(fileno(stderr)) != 0;
  for (int i = 0; i < frames && !stopped(); ++i) {
    const bool complete = opt.frame_radials > 0
                              ? eng.pump_radials(uint64_t(opt.frame_radials), opt.timeout_s)
                              : eng.pump_rotation(opt.timeout_s);
    const bool processed = console.process_now();
    eng.refresh_status();
    if (!complete && !processed) {
      if (!stopped())
        spdlog::warn("headless: no further rotation from the source after {} frame(s)", done);
      break;
    }
    frame_list.push_back(engine::frame_report(eng, i));
    ++done;
    const auto* r = eng.result();
    // On a terminal one line rewritten in place; elsewhere (a log, a pipe) a line per frame.
    if (progress_in_place)
      std::fprintf(stderr, "\rframe %d/%d: %d components%s", i + 1, frames, r ? r->count : 0,
                   i + 1 == frames ? "\n" : "");
    else
      std::fprintf(stderr, "frame %d/%d: %d components\n", i + 1, frames, r ? r->count : 0);

    target.bind();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    console.build_ui(opt.width, opt.height, false);
    target.bind();
    console.draw_ppi(opt.width, opt.height, 1.0 / 30.0);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  if (!opt.snapshot.empty()) {
    target.bind();
    render::save_framebuffer_png(opt.snapshot, opt.width, opt.height);
    spdlog::info("snapshot written to {}", opt.snapshot);
  }
  eng.refresh_status();
  report = engine::run_report_header(eng);
  report["egl_platform"] = egl.platform();
  report["gl_renderer"] = egl.renderer();
  const render::PpiView& v = console.view();
  report["view"] = {{"rect", {v.rect().x, v.rect().y, v.rect().w, v.rect().h}},
                    {"centre_east_m", v.centre().east},
                    {"centre_north_m", v.centre().north},
                    {"px_per_m", v.px_per_m()}};
  report["frames_requested"] = frames;
  report["frame_radials"] = opt.frame_radials;
  report["frames_rendered"] = done;
  report["source_error"] = eng.source_view().error;
  report["stopped_by"] = stopped() ? opt.stop->signal_name() : "";
  report["frames"] = frame_list;
  // A display client: its servers' tracks as received, scan by scan (the load test compares them
  // with the servers' reports).
  if (const net::RemoteTracks* rt = eng.remote_tracks())
    report["remote_tracks"] = engine::remote_tracks_report(rt->picture());
  if (!opt.report.empty()) {
    std::ofstream out(opt.report, std::ios::trunc);
    SWL_CHECK(out, "cannot write report " + opt.report);
    out << report.dump(1) << "\n";
    SWL_CHECK(out.good(), "cannot write report " + opt.report);
    spdlog::info("report written to {}", opt.report);
  }
  std::fprintf(stderr, "headless: %d frame(s), backend %s%s, last frame %d components\n", done,
               eng.backend_name().c_str(), eng.in_place() ? " with interop" : "",
               eng.result() ? eng.result()->count : 0);
  const nlohmann::json& in = report["input"];
  std::fprintf(
      stderr,
      "input: %llu datagrams, %llu records, %llu messages lost, %llu dropped by the "
      "kernel, %llu by the queue, %llu frames dropped by the pipeline\n",
      in["datagrams"].get<unsigned long long>(), in["records"].get<unsigned long long>(),
      in["lost_messages"].get<unsigned long long>(), in["kernel_dropped"].get<unsigned long long>(),
      in["queue_full"].get<unsigned long long>(), in["frames_dropped"].get<unsigned long long>());
  if (stopped()) {
    // Stopped on request: the report and any recording are complete up to the stop.
    std::fprintf(stderr, "headless: stopped by %s\n", opt.stop->signal_name());
    return 0;
  }
  return done == frames ? 0 : 1;
}

}  // namespace sweepline::ui
