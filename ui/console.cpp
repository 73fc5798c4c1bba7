#include "ui/console.hpp"

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86's GLFW backend indexes io.KeysDown by them
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <utility>

#include "ui/overlays.hpp"
#include "ui/panels.hpp"
#include "ui/track_overlay.hpp"
#include "ui/track_view.hpp"

namespace sweepline::ui {

namespace {

// A press that moves less than this before its release is a click (select, acquire); more is
// a drag (pan). A hand on a trackball or a mouse rarely holds still to the pixel.
constexpr float kClickSlopPx = 4.0f;
// How near a click must be to a track's symbol to pick it: the symbol's radius and a margin.
constexpr float kPickRadiusPx = 10.0f;

}  // namespace

Console::Console(Engine& engine, ViewSettings view)
    : engine_(engine), view_settings_(std::move(view)), sink_(textures_) {
  engine_.set_display(&sink_);
}

Console::~Console() {
  engine_.set_display(nullptr);
}

void Console::update(double budget_ms) {
  engine_.pump(budget_ms);
  const bool had = engine_.result() != nullptr;
  if (engine_.update() && !had) renderer_.reset_afterglow();
  engine_.refresh_status();
}

bool Console::process_now() {
  const bool had = engine_.result() != nullptr;
  const bool done = engine_.process_and_wait();
  if (done && !had) renderer_.reset_afterglow();
  return done;
}

render::ScreenRect Console::ppi_rect(int fb_width, int fb_height) const {
  const bool panels = view_settings_.show_panels;
  const float margin = panels ? kPanelWidth + 12.0f : 0.0f;
  const float w = std::max(float(fb_width) - 2 * margin, 64.0f);
  return {float(fb_width) * 0.5f - 0.5f * w, 0.0f, w, float(fb_height)};
}

double Console::fallback_range_m() const {
  const double r = engine_.settings().processing.params.display_range_m;
  return r > 0 ? r : 12 * 1852.0;
}

void Console::reset_view() {
  const double range = engine_.geometry().frame_range_m;
  const auto& v = view_settings_;
  view_.reset(last_rect_, range > 0 ? range : fallback_range_m(), v.off_centre, v.heading_deg);
  fitted_range_ = range;
  fitted_off_centre_ = v.off_centre;
  view_initialised_ = true;
}

void Console::zoom_to(double zoom) {
  const render::ScreenRect& r = view_.rect();
  view_.zoom_at(r.x + 0.5f * r.w, r.y + 0.5f * r.h, std::max(zoom, 1e-3) / view_.zoom());
}

void Console::solo_layer(render::Layer l) {
  auto& layers = view_settings_.style.layers;
  for (int i = 0; i < render::kLayerCount; ++i) layers[size_t(i)].visible = i == int(l);
}

void Console::key(Key k) {
  auto& v = view_settings_;
  const render::ScreenRect& r = view_.rect();
  switch (k) {
    case Key::Space:
      engine_.set_paused(!engine_.paused());
      break;
    case Key::Right:
      engine_.step_rotation(+1);
      break;
    case Key::Left:
      engine_.step_rotation(-1);
      break;
    case Key::Up:
    case Key::Plus:
      view_.zoom_at(r.x + 0.5f * r.w, r.y + 0.5f * r.h, 1.25);
      break;
    case Key::Down:
    case Key::Minus:
      view_.zoom_at(r.x + 0.5f * r.w, r.y + 0.5f * r.h, 1 / 1.25);
      break;
    case Key::Screenshot: {
      char name[64];
      const std::time_t t = std::time(nullptr);
      std::tm tm{};
      gmtime_r(&t, &tm);
      std::strftime(name, sizeof name, "sweepline-%Y%m%d-%H%M%S.png", &tm);
      screenshot_ = name;
      break;
    }
    case Key::Fullscreen:
      fullscreen_ = true;
      break;
    case Key::HidePanels:
      v.show_panels = !v.show_panels;
      break;
    case Key::Reset:
      reset_view();
      break;
    case Key::CancelTarget:
      cancel_selected();
      break;
    case Key::AcknowledgeAll:
      engine_.acknowledge_all_alarms();
      break;
    case Key::Escape:
      if (zone_armed_)
        cancel_zone();
      else
        selected_track_ = 0;
      break;
  }
}

void Console::click_ppi(float sx, float sy) {
  const render::WorldPoint w = view_.screen_to_world(sx, sy);
  const engine::TrackingView& tv = engine_.tracking();
  const PlaneToDisplay f = plane_to_display(tv);
  if (zone_armed_) {
    if (!zone_first_) {
      zone_first_ = w;
      return;
    }
    engine_.add_zone(arc_zone_from_points(f, *zone_first_, w, zone_relative_));
    cancel_zone();
    return;
  }
  if (const auto id = pick_track(tv.tracks, f, view_, sx, sy, kPickRadiusPx)) {
    selected_track_ = *id;
    return;
  }
  acquire_at(w);
}

bool Console::acquire_at(render::WorldPoint p) {
  double x = 0, y = 0;
  to_plane(plane_to_display(engine_.tracking()), p, x, y);
  const std::optional<int> id = engine_.acquire(x, y);
  if (id) selected_track_ = *id;
  return id.has_value();
}

void Console::cancel_selected() {
  if (selected_track_ > 0) engine_.cancel_track(selected_track_);
  selected_track_ = 0;
}

void Console::begin_zone(bool relative_to_heading) {
  zone_armed_ = true;
  zone_relative_ = relative_to_heading;
  zone_first_.reset();
}

void Console::cancel_zone() {
  zone_armed_ = false;
  zone_first_.reset();
}

void Console::ppi_menu() {
  if (!ImGui::BeginPopup("ppi_menu")) return;
  const engine::TrackingView& tv = engine_.tracking();
  if (menu_track_) {
    ImGui::TextDisabled("Target %d", *menu_track_);
    if (ImGui::MenuItem("Select")) selected_track_ = *menu_track_;
    if (ImGui::MenuItem("Cancel target", "Del")) {
      engine_.cancel_track(*menu_track_);
      if (selected_track_ == *menu_track_) selected_track_ = 0;
    }
  } else {
    if (ImGui::MenuItem("Acquire here", nullptr, false, tv.enabled)) acquire_at(menu_point_);
    if (selected_track_ > 0) {
      char label[48];
      std::snprintf(label, sizeof label, "Cancel target %d", selected_track_);
      if (ImGui::MenuItem(label, "Del")) cancel_selected();
    }
  }
  if (ImGui::MenuItem("Cancel all targets", nullptr, false, !tv.tracks.empty())) {
    engine_.cancel_all_tracks();
    selected_track_ = 0;
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Acknowledge all alarms", "A", false, tv.unacknowledged > 0))
    engine_.acknowledge_all_alarms();
  ImGui::Separator();
  if (ImGui::MenuItem("New zone from here", nullptr, false, tv.enabled)) {
    begin_zone(zone_form_.relative_to_heading);
    zone_first_ = menu_point_;
  }
  if (zone_armed_ && ImGui::MenuItem("Stop drawing the zone", "Esc")) cancel_zone();
  ImGui::EndPopup();
}

std::optional<std::string> Console::take_screenshot_request() {
  return std::exchange(screenshot_, std::nullopt);
}
bool Console::take_fullscreen_request() {
  return std::exchange(fullscreen_, false);
}

void Console::handle_ppi_input(const render::ScreenRect& rect) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse) {
    const bool inside = rect.contains(io.MousePos.x, io.MousePos.y);
    if (inside && io.MouseWheel != 0)
      view_.zoom_at(io.MousePos.x, io.MousePos.y, std::pow(1.15, double(io.MouseWheel)));
    if (inside && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      dragging_ = true;
      panning_ = false;
      press_x_ = io.MousePos.x;
      press_y_ = io.MousePos.y;
    }
    if (inside && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      reset_view();
      dragging_ = false;  // the second press is no click: nothing is acquired under it
    }
    if (dragging_ && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      const float dx = io.MousePos.x - press_x_, dy = io.MousePos.y - press_y_;
      if (panning_) {
        view_.pan(io.MouseDelta.x, io.MouseDelta.y);
      } else if (dx * dx + dy * dy > kClickSlopPx * kClickSlopPx) {
        panning_ = true;
        view_.pan(dx, dy);
      }
    }
    if (inside && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
      menu_point_ = view_.screen_to_world(io.MousePos.x, io.MousePos.y);
      const engine::TrackingView& tv = engine_.tracking();
      menu_track_ = pick_track(tv.tracks, plane_to_display(tv), view_, io.MousePos.x, io.MousePos.y,
                               kPickRadiusPx);
      ImGui::OpenPopup("ppi_menu");
    }
  }
  if (dragging_ && !panning_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left))
    click_ppi(press_x_, press_y_);
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    dragging_ = false;
    panning_ = false;
  }
  if (io.WantCaptureKeyboard) return;
  struct Binding {
    int glfw;
    Key key;
  };
  static const Binding bindings[] = {
      {GLFW_KEY_SPACE, Key::Space},       {GLFW_KEY_RIGHT, Key::Right},
      {GLFW_KEY_LEFT, Key::Left},         {GLFW_KEY_UP, Key::Up},
      {GLFW_KEY_DOWN, Key::Down},         {GLFW_KEY_EQUAL, Key::Plus},
      {GLFW_KEY_KP_ADD, Key::Plus},       {GLFW_KEY_MINUS, Key::Minus},
      {GLFW_KEY_KP_SUBTRACT, Key::Minus}, {GLFW_KEY_S, Key::Screenshot},
      {GLFW_KEY_F, Key::Fullscreen},      {GLFW_KEY_H, Key::HidePanels},
      {GLFW_KEY_R, Key::Reset},           {GLFW_KEY_DELETE, Key::CancelTarget},
      {GLFW_KEY_A, Key::AcknowledgeAll},  {GLFW_KEY_ESCAPE, Key::Escape}};
  for (const auto& b : bindings)
    if (ImGui::IsKeyPressed(b.glfw, b.key == Key::Plus || b.key == Key::Minus)) key(b.key);
}

void Console::build_ui(int fb_width, int fb_height, bool interactive) {
  const render::ScreenRect rect = ppi_rect(fb_width, fb_height);
  const bool rect_changed =
      rect.x != last_rect_.x || rect.w != last_rect_.w || rect.h != last_rect_.h;
  last_rect_ = rect;
  const double range = engine_.geometry().frame_range_m;
  const auto& vs = view_settings_;
  if (!view_initialised_ || (range > 0 && range != fitted_range_) ||
      vs.off_centre != fitted_off_centre_) {
    reset_view();
  } else if (rect_changed) {
    // Keep the world point at the centre and the zoom; just move the picture into the new rect.
    view_.set_rect(rect);
  }
  if (vs.show_panels) draw_panels(engine_, *this, float(fb_width), float(fb_height));
  if (interactive) handle_ppi_input(rect);
  ppi_menu();
  const ImGuiIO& io = ImGui::GetIO();
  const bool mouse_valid =
      interactive && !io.WantCaptureMouse && rect.contains(io.MousePos.x, io.MousePos.y);
  draw_ppi_overlays(engine_, view_settings_, view_, show_all_components_, fallback_range_m(),
                    mouse_valid, io.MousePos.x, io.MousePos.y);

  const engine::TrackingView& tv = engine_.tracking();
  // Track ids are never reused: a selection whose track was deleted is dropped.
  if (selected_track_ > 0 &&
      std::none_of(tv.tracks.begin(), tv.tracks.end(),
                   [this](const track::Track& t) { return t.id == selected_track_; }))
    selected_track_ = 0;
  TrackOverlayState st;
  st.selected_id = selected_track_;
  st.zone_armed = zone_armed_;
  st.zone_first = zone_first_;
  st.zone_relative = zone_relative_;
  st.mouse_valid = mouse_valid;
  st.mouse_x = io.MousePos.x;
  st.mouse_y = io.MousePos.y;
  st.time_s = ImGui::GetTime();
  const DisplayGeometry& g = engine_.geometry();
  st.range_m = g.frame_range_m > 0           ? g.frame_range_m
               : engine_.polar().range_m > 0 ? engine_.polar().range_m
                                             : fallback_range_m();
  draw_tracking_overlay(tv, view_settings_, view_, st);
}

void Console::draw_ppi(int fb_width, int fb_height, double dt_s) {
  glViewport(0, 0, fb_width, fb_height);
  const render::Rgb out = render::outside_colour(view_settings_.style.brightness);
  glClearColor(out.r, out.g, out.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  DisplayGeometry g = engine_.geometry();
  if (g.frame_range_m <= 0)
    g.frame_range_m = fallback_range_m();  // an empty scope until data comes
  render::PpiStyle style = view_settings_.style;
  style.land_level = engine_.settings().processing.params.video.enabled;
  renderer_.draw(textures_, g, style, view_, fb_width, fb_height, engine_.sweep_azimuth_deg(), dt_s,
                 engine_.result() != nullptr);
}

}  // namespace sweepline::ui
