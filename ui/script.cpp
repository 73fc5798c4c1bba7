#include "ui/script.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "app/common/check.hpp"
#include "render/orientation.hpp"
#include "ui/console.hpp"
#include "ui/track_view.hpp"

namespace sweepline::ui {

namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;
// An arity for verbs whose arguments are a list (checked by the verb's own rule).
constexpr int kVariadic = -1;

const std::map<std::string, int>& arity() {
  static const std::map<std::string, int> a = {{"wait", 1},
                                               {"frames", 1},
                                               {"key", 1},
                                               {"screenshot", 1},
                                               {"zoom", 1},
                                               {"pan", 2},
                                               {"reset", 0},
                                               {"layer", 1},
                                               {"show", 1},
                                               {"hide", 1},
                                               {"palette", 1},
                                               {"brightness", 1},
                                               {"afterglow", 1},
                                               {"threshold", 1},
                                               {"backend", 1},
                                               {"source", 1},
                                               {"panels", 1},
                                               {"record", 1},
                                               {"quit", 0},
                                               // Target tracking.
                                               {"acquire", 2},
                                               {"select", 1},
                                               {"cancel", 1},
                                               {"ack", 1},
                                               {"vectors", 1},
                                               {"vector_minutes", 1},
                                               {"trails", 1},
                                               {"cpa_limit", 1},
                                               {"tcpa_limit", 1},
                                               {"zone", 4},
                                               {"zone_polygon", kVariadic},
                                               {"zone_draw", 1},
                                               {"zone_edit", 1},
                                               {"zone_drag", 3},
                                               {"click", 2},
                                               // The operator's functions.
                                               {"range", 1},
                                               {"orientation", 1},
                                               {"motion", 1},
                                               {"heading", 1},
                                               {"help", 1},
                                               {"ebl", 3},
                                               {"vrm", 2},
                                               {"erbl", 4},
                                               // Tests: what the window shows, as JSON.
                                               {"dump-state", 1},
                                               {"dump-state-every", 2},
                                               {"wait-file", 1}};
  return a;
}

Key key_from_name(const std::string& n, int line) {
  static const std::map<std::string, Key> keys = {
      {"space", Key::Space},      {"left", Key::Left},
      {"right", Key::Right},      {"up", Key::Up},
      {"down", Key::Down},        {"plus", Key::Plus},
      {"minus", Key::Minus},      {"s", Key::Screenshot},
      {"f", Key::Fullscreen},     {"h", Key::HidePanels},
      {"r", Key::Reset},          {"del", Key::CancelTarget},
      {"a", Key::AcknowledgeAll}, {"esc", Key::Escape},
      {"enter", Key::ZoneClose},  {"backspace", Key::ZoneUndo},
      {"pgup", Key::RangeUp},     {"pgdn", Key::RangeDown},
      {"o", Key::Orientation},    {"m", Key::Motion},
      {"c", Key::OffCentre},      {"f1", Key::Help},
      {"1", Key::Marker1},        {"2", Key::Marker2},
      {"e", Key::ToggleEbl},      {"v", Key::ToggleVrm},
      {"[", Key::EblLeft},        {"]", Key::EblRight},
      {",", Key::VrmIn},          {".", Key::VrmOut},
      {"t", Key::EblTrue},        {"b", Key::Erbl}};
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

// A point of the PPI from a range (NM) and a bearing on the PPI's scale, as `acquire` reads them.
render::WorldPoint ppi_point(const std::string& nm, const std::string& brg, int line) {
  const double r = number(nm, line) * kMetresPerNm;
  const double b = number(brg, line) * kDegToRad;
  return {r * std::sin(b), r * std::cos(b)};
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
    SWL_CHECK(it->second == kVariadic || int(c.args.size()) == it->second,
              "script line " + std::to_string(n) + ": '" + c.verb + "' takes " +
                  std::to_string(it->second) + " argument(s)");
    if (c.verb == "zone_polygon") {
      SWL_CHECK(c.args.size() >= 6 && c.args.size() % 2 == 0,
                "script line " + std::to_string(n) +
                    ": zone_polygon NM BRG NM BRG NM BRG ... (3 vertices or more)");
      for (const std::string& a : c.args) number(a, n);
    }
    if (c.verb == "zone_draw")
      SWL_CHECK(c.args[0] == "arc" || c.args[0] == "polygon" || c.args[0] == "off",
                "script line " + std::to_string(n) + ": zone_draw arc|polygon|off");
    if (c.verb == "zone_edit" && c.args[0] != "none") number(c.args[0], n);
    if (c.verb == "zone_drag") {
      for (const std::string& a : c.args) number(a, n);
      SWL_CHECK(
          number(c.args[0], n) >= 0 && std::floor(number(c.args[0], n)) == number(c.args[0], n),
          "script line " + std::to_string(n) + ": zone_drag HANDLE NM BRG (HANDLE 0, 1, ...)");
    }
    if (c.verb == "key") key_from_name(c.args[0], n);
    if (c.verb == "wait" || c.verb == "frames" || c.verb == "zoom" || c.verb == "threshold" ||
        c.verb == "vector_minutes" || c.verb == "cpa_limit" || c.verb == "tcpa_limit")
      number(c.args[0], n);
    if (c.verb == "dump-state-every") number(c.args[0], n);
    if (c.verb == "acquire" || c.verb == "zone" || c.verb == "click" || c.verb == "erbl" ||
        c.verb == "vrm")
      for (const std::string& a : c.args) number(a, n);
    if (c.verb == "range" || c.verb == "heading") number(c.args[0], n);
    if (c.verb == "ebl") {
      number(c.args[0], n);
      number(c.args[1], n);
      SWL_CHECK(c.args[2] == "T" || c.args[2] == "R",
                "script line " + std::to_string(n) + ": ebl N BEARING T|R");
    }
    if (c.verb == "orientation") render::orientation_from_string(c.args[0]);
    if (c.verb == "motion") render::motion_from_string(c.args[0]);
    if (c.verb == "help")
      SWL_CHECK(c.args[0] == "on" || c.args[0] == "off",
                "script line " + std::to_string(n) + ": help on|off");
    if ((c.verb == "select" || c.verb == "cancel" || c.verb == "ack") && c.args[0] != "all" &&
        c.args[0] != "none" && c.args[0] != "nearest" && c.args[0] != "dangerous")
      number(c.args[0], n);
    if (c.verb == "vectors")
      SWL_CHECK(c.args[0] == "true" || c.args[0] == "relative",
                "script line " + std::to_string(n) + ": vectors true|relative");
    if (c.verb == "trails")
      SWL_CHECK(c.args[0] == "on" || c.args[0] == "off",
                "script line " + std::to_string(n) + ": trails on|off");
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
  if (!wait_file_.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(wait_file_, ec)) return true;
    wait_file_.clear();
  }
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
    } else if (c.verb == "acquire") {
      // Range (NM) and bearing (deg, on the PPI's scale) from the radar.
      if (!console.acquire_at(ppi_point(c.args[0], c.args[1], c.line)))
        spdlog::warn("script:{}: nothing acquired: {}", c.line, st.tracking().command_error);
    } else if (c.verb == "click") {
      // Screen pixels: what a left click on the PPI does there.
      console.click_ppi(float(number(c.args[0], c.line)), float(number(c.args[1], c.line)));
    } else if (c.verb == "select") {
      if (a == "nearest" || a == "dangerous") {
        // A demo's or a test's way to a data box without knowing ids: the nearest confirmed
        // track, or the most urgent dangerous one (the nearest confirmed when none is).
        int id = 0, urgent = 0;
        double best = 0, soonest = 0;
        for (const track::Track& t : st.tracking().tracks) {
          if (t.status != track::Track::Status::Tracked) continue;
          if (id == 0 || t.range_m < best) {
            id = t.id;
            best = t.range_m;
          }
          if (t.dangerous && (urgent == 0 || t.tcpa_s < soonest)) {
            urgent = t.id;
            soonest = t.tcpa_s;
          }
        }
        console.select_track(a == "dangerous" && urgent ? urgent : id);
      } else {
        console.select_track(a == "none" ? 0 : int(number(a, c.line)));
      }
    } else if (c.verb == "cancel") {
      if (a == "all")
        st.cancel_all_tracks();
      else
        st.cancel_track(int(number(a, c.line)));
    } else if (c.verb == "ack") {
      if (a == "all")
        st.acknowledge_all_alarms();
      else
        st.acknowledge_alarm(int(number(a, c.line)));
    } else if (c.verb == "zone") {
      // An arc zone: range from and to (NM), bearing from and to (deg, true), as the panel's.
      track::AcquisitionZone z;
      z.range_min_m = number(c.args[0], c.line) * kMetresPerNm;
      z.range_max_m = number(c.args[1], c.line) * kMetresPerNm;
      z.bearing_from_deg = number(c.args[2], c.line);
      z.bearing_to_deg = number(c.args[3], c.line);
      if (!st.add_zone(z)) spdlog::warn("script:{}: {}", c.line, st.tracking().command_error);
    } else if (c.verb == "zone_polygon") {
      // Vertices at ranges (NM) and PPI bearings, drawn as the mouse draws them, then closed.
      console.begin_polygon_zone();
      for (size_t k = 0; k + 1 < c.args.size(); k += 2)
        console.add_polygon_vertex(ppi_point(c.args[k], c.args[k + 1], c.line));
      if (!console.close_polygon_zone()) {
        spdlog::warn("script:{}: {}", c.line, console.message());
        console.cancel_zone();
      }
    } else if (c.verb == "zone_draw") {
      // As the panel's buttons: then `click X Y`, `key enter|backspace|esc` draw it.
      if (a == "arc")
        console.begin_zone(console.zone_form().relative_to_heading);
      else if (a == "polygon")
        console.begin_polygon_zone();
      else
        console.cancel_zone();
    } else if (c.verb == "zone_edit") {
      console.edit_zone(a == "none" ? 0 : int(number(a, c.line)));
    } else if (c.verb == "zone_drag") {
      // The edited zone's handle HANDLE (polygon: vertex; arc: 0 inner/from, 1 outer/to) moved.
      if (!console.move_edited_handle(int(number(a, c.line)),
                                      ppi_point(c.args[1], c.args[2], c.line)))
        spdlog::warn("script:{}: zone not edited: {}", c.line, console.message());
    } else if (c.verb == "vectors" || c.verb == "vector_minutes" || c.verb == "trails" ||
               c.verb == "cpa_limit" || c.verb == "tcpa_limit") {
      engine::TrackingSettings t = st.settings().tracking;
      if (c.verb == "vectors") t.vector_mode = a;
      if (c.verb == "vector_minutes") t.vector_minutes = number(a, c.line);
      if (c.verb == "trails") t.trails = a == "on";
      if (c.verb == "cpa_limit") t.cpa_limit_nm = number(a, c.line);
      if (c.verb == "tcpa_limit") t.tcpa_limit_min = number(a, c.line);
      if (!st.set_tracking_settings(t))
        spdlog::warn("script:{}: {}", c.line, st.tracking().command_error);
    } else if (c.verb == "wait-file") {
      wait_file_ = a;
      return true;
    } else if (c.verb == "dump-state") {
      dump_now_ = a;
    } else if (c.verb == "dump-state-every") {
      dump_every_s_ = std::max(number(a, c.line), 0.0);
      dump_path_ = c.args[1];
      next_dump_s_ = now_s;
    } else if (c.verb == "range") {
      console.set_range_scale(number(a, c.line) * kMetresPerNm);
    } else if (c.verb == "orientation") {
      console.set_orientation(render::orientation_from_string(a));
    } else if (c.verb == "motion") {
      console.set_motion(render::motion_from_string(a));
    } else if (c.verb == "heading") {
      view.heading_deg = number(a, c.line);  // the manual heading (no own-ship heading)
    } else if (c.verb == "help") {
      console.key_help() = a == "on";
    } else if (c.verb == "ebl" || c.verb == "vrm") {
      // ebl N BEARING T|R, vrm N NM: pair N (1 or 2) made active and set, from own ship.
      const int i = std::clamp(int(number(a, c.line)), 1, kMarkers) - 1;
      OperatorMarkers& mk = console.markers();
      mk.active = i;
      Marker& m = mk.marker[size_t(i)];
      if (c.verb == "ebl") {
        m.ebl_true = c.args[2] == "T";
        m.ebl_deg = number(c.args[1], c.line);
        m.ebl_on = true;
      } else {
        m.vrm_m = number(c.args[1], c.line) * kMetresPerNm;
        m.vrm_on = true;
      }
    } else if (c.verb == "erbl") {
      // erbl NM1 BRG1 NM2 BRG2: from one point to another, ranges and true bearings from own ship.
      auto point = [&](size_t k) {
        const double r = number(c.args[k], c.line) * kMetresPerNm;
        const double b = number(c.args[k + 1], c.line) * kDegToRad;
        return render::WorldPoint{r * std::sin(b), r * std::cos(b)};
      };
      console.markers().erbl = {true, point(0), point(2)};
    } else if (c.verb == "quit") {
      next_ = commands_.size();
      return false;
    }
  }
  return false;
}

std::optional<std::string> ScriptRunner::take_dump(double now_s) {
  if (dump_now_) return std::exchange(dump_now_, std::nullopt);
  if (dump_path_.empty() || now_s < next_dump_s_) return std::nullopt;
  next_dump_s_ = now_s + dump_every_s_;
  return dump_path_;
}

}  // namespace sweepline::ui
