#include "ui/state_dump.hpp"

#include <filesystem>
#include <fstream>

#include "app/common/check.hpp"
#include "ui/console.hpp"

namespace sweepline::ui {

void FrameRate::tick(double now_s) {
  ++frames_;
  times_.push_back(now_s);
  while (!times_.empty() && times_.front() <= now_s - 1.0) times_.pop_front();
}

double FrameRate::fps() const {
  return double(times_.size());
}

nlohmann::json state_json(Console& console, const WindowStats& window) {
  using nlohmann::json;
  Engine& eng = console.engine();
  const render::PpiView& v = console.view();
  const engine::SourceView& sv = eng.source_view();
  const engine::SourceSettings& so = eng.settings().source;
  json widgets = json::object();
  for (const auto& [name, r] : console.widgets()) widgets[name] = {r.x, r.y, r.w, r.h};
  return {{"window", {{"frames", window.frames}, {"fps", window.fps}}},
          {"settings_writes", window.settings_writes},
          {"view",
           {{"px_per_m", v.px_per_m()},
            {"centre_east_m", v.centre().east},
            {"centre_north_m", v.centre().north},
            {"rect", {v.rect().x, v.rect().y, v.rect().w, v.rect().h}},
            {"show_panels", console.view_settings().show_panels}}},
          {"source",
           {{"uri", so.uri},
            {"open", sv.open},
            {"error", sv.error},
            {"state", sv.status.state},
            {"paused", sv.paused},
            {"speed", sv.speed},
            {"loop", sv.loop},
            {"shown_rotation", sv.shown_rotation}}},
          {"form",
           {{"scenario", so.scenario},
            {"seed", so.seed},
            {"rpm", so.rpm},
            {"file_path", so.file_path},
            {"udp_group", so.udp_group},
            {"udp_port", so.udp_port},
            {"udp_interface", so.udp_interface},
            {"speed", so.speed},
            {"loop", so.loop}}},
          {"processing",
           {{"frames_processed", eng.frames_processed()},
            {"in_flight", eng.frame_in_flight()},
            {"last_frame_ms", eng.frame_ms_history().last()},
            {"threshold", eng.settings().processing.params.threshold}}},
          {"operator",
           {{"readout", console.range_readout_text()},
            {"range_scale_nm", v.range_scale_m() / 1852.0},
            {"rotation_deg", v.rotation_deg()},
            {"orientation", console.view_settings().orientation},
            {"motion", console.view_settings().motion},
            {"key_help", console.key_help()},
            {"message", console.message()},
            {"screenshots_saved", console.screenshots_saved()},
            {"last_screenshot", console.last_screenshot()}}},
          {"widgets", widgets}};
}

void write_state(const std::string& path, const nlohmann::json& state) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    SWL_CHECK(out, "cannot write state file " + tmp);
    out << state.dump(1) << "\n";
    SWL_CHECK(out.good(), "cannot write state file " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  SWL_CHECK(!ec, "cannot replace state file " + path + ": " + ec.message());
}

}  // namespace sweepline::ui
