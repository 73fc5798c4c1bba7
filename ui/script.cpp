#include "ui/script.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "app/common/check.hpp"
#include "ui/console.hpp"

namespace sweepline::ui {

namespace {

const std::map<std::string, int>& arity() {
  static const std::map<std::string, int> a = {
      {"wait", 1},    {"frames", 1},     {"key", 1},       {"screenshot", 1}, {"zoom", 1},
      {"pan", 2},     {"reset", 0},      {"layer", 1},     {"show", 1},       {"hide", 1},
      {"palette", 1}, {"brightness", 1}, {"afterglow", 1}, {"threshold", 1},  {"backend", 1},
      {"source", 1},  {"panels", 1},     {"record", 1},    {"quit", 0}};
  return a;
}

Key key_from_name(const std::string& n, int line) {
  static const std::map<std::string, Key> keys = {
      {"space", Key::Space},  {"left", Key::Left},    {"right", Key::Right}, {"up", Key::Up},
      {"down", Key::Down},    {"plus", Key::Plus},    {"minus", Key::Minus}, {"s", Key::Screenshot},
      {"f", Key::Fullscreen}, {"h", Key::HidePanels}, {"r", Key::Reset}};
  auto it = keys.find(n);
  SWL_CHECK(it != keys.end(), "script line " + std::to_string(line) + ": unknown key '" + n + "'");
  return it->second;
}

double number(const std::string& s, int line) {
  try {
    size_t used = 0;
    double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  SWL_CHECK(false, "script line " + std::to_string(line) + ": not a number: '" + s + "'");
  return 0;
}

}  // namespace

std::vector<ScriptCommand> parse_script(const std::string& text) {
  std::vector<ScriptCommand> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    ScriptCommand c;
    c.line = n;
    if (!(words >> c.verb)) continue;
    for (std::string w; words >> w;) c.args.push_back(w);
    auto it = arity().find(c.verb);
    SWL_CHECK(it != arity().end(),
              "script line " + std::to_string(n) + ": unknown command '" + c.verb + "'");
    SWL_CHECK(int(c.args.size()) == it->second, "script line " + std::to_string(n) + ": '" +
                                                    c.verb + "' takes " +
                                                    std::to_string(it->second) + " argument(s)");
    if (c.verb == "key") key_from_name(c.args[0], n);
    if (c.verb == "wait" || c.verb == "frames" || c.verb == "zoom" || c.verb == "threshold")
      number(c.args[0], n);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<ScriptCommand> load_script(const std::string& path) {
  std::ifstream in(path);
  SWL_CHECK(in, "cannot read script " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_script(ss.str());
}

bool ScriptRunner::step(Console& console, double now_s) {
  if (wait_frames_ > 0) {
    --wait_frames_;
    return true;
  }
  if (now_s < wait_until_s_) return true;
  Engine& st = console.engine();
  ViewSettings& view = console.view_settings();
  while (next_ < commands_.size()) {
    const ScriptCommand& c = commands_[next_++];
    spdlog::info("script:{}: {}{}{}", c.line, c.verb, c.args.empty() ? "" : " ",
                 c.args.empty() ? "" : c.args[0]);
    const std::string a = c.args.empty() ? "" : c.args[0];
    if (c.verb == "wait") {
      wait_until_s_ = now_s + number(a, c.line);
      return true;
    } else if (c.verb == "frames") {
      wait_frames_ = int(number(a, c.line));
      return true;
    } else if (c.verb == "key") {
      console.key(key_from_name(a, c.line));
    } else if (c.verb == "screenshot") {
      console.request_screenshot(a);
      wait_frames_ = 1;  // the window loop writes it at the end of this frame
      return true;
    } else if (c.verb == "zoom") {
      console.zoom_to(number(a, c.line));
    } else if (c.verb == "pan") {
      console.pan(float(number(c.args[0], c.line)), float(number(c.args[1], c.line)));
    } else if (c.verb == "reset") {
      console.reset_view();
    } else if (c.verb == "layer") {
      console.solo_layer(render::layer_from_string(a));
    } else if (c.verb == "show" || c.verb == "hide") {
      view.style.layers[size_t(render::layer_from_string(a))].visible = c.verb == "show";
    } else if (c.verb == "palette") {
      view.style.palette = render::palette_from_string(a);
    } else if (c.verb == "brightness") {
      view.style.brightness = render::brightness_from_string(a);
    } else if (c.verb == "afterglow") {
      view.style.afterglow = render::afterglow_from_string(a);
    } else if (c.verb == "threshold") {
      gpu::PipelineParams p = st.settings().processing.params;
      p.threshold = uint8_t(std::clamp(number(a, c.line), 0.0, 255.0));
      st.set_params(p);
    } else if (c.verb == "backend") {
      st.set_backend(a);
    } else if (c.verb == "source") {
      st.open_source(a);
    } else if (c.verb == "panels") {
      view.show_panels = a == "on";
    } else if (c.verb == "record") {
      if (a == "off")
        st.stop_recording();
      else
        st.start_recording(a);
    } else if (c.verb == "quit") {
      next_ = commands_.size();
      return false;
    }
  }
  return false;
}

}  // namespace sweepline::ui
