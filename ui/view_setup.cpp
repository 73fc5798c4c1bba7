#include "ui/view_setup.hpp"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "app/common/check.hpp"

namespace sweepline::ui {

Settings effective_settings(const ViewOptions& opt, std::string& path_out) {
  path_out = opt.config.empty() ? default_settings_path() : opt.config;
  Settings s;
  std::string error;
  // A settings file named on the command line that cannot be used is an error (exit 1); the
  // console's own file, if damaged, is set aside with a warning so the console still starts.
  if (!load_settings(path_out, s, &error)) {
    if (!opt.config.empty()) throw Error(error);
    spdlog::warn("{}", error);
  }
  if (!opt.source.empty() && opt.source != s.source.uri) {
    // Replay speed and loop belong to the source they were set for (engine::Engine::open_source).
    s.source.uri = opt.source;
    s.source.speed = SourceSettings{}.speed;
    s.source.loop = SourceSettings{}.loop;
  }
  if (!opt.backend.empty()) s.processing.backend = opt.backend;
  if (opt.size >= 0) s.processing.size = opt.size;
  if (!opt.palette.empty()) s.view.style.palette = render::palette_from_string(opt.palette);
  if (opt.hide_panels) s.view.show_panels = false;
  return s;
}

void load_console_font() {
  const char* path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    ImGui::GetIO().Fonts->AddFontFromFileTTF(path, 15.0f);
  } else {
    spdlog::debug("{} not found: using ImGui's built-in font", path);
  }
}

}  // namespace sweepline::ui
