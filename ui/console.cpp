#include "ui/console.hpp"

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86's GLFW backend indexes io.KeysDown by them
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <utility>

#include "ui/overlays.hpp"
#include "ui/panels.hpp"
#include "ui/range_scale.hpp"
#include "ui/track_overlay.hpp"
#include "ui/track_view.hpp"

namespace sweepline::ui {

namespace {

// A press that moves less than this before its release is a click (select, acquire); more is
// a drag (pan). A hand on a trackball or a mouse rarely holds still to the pixel.
constexpr float kClickSlopPx = 4.0f;
// How near a click must be to a track's symbol to pick it: the symbol's radius and a margin.
constexpr float kPickRadiusPx = 10.0f;
// How near a press must be to a zone's handle to drag it, and a click to a polygon's first
// vertex to close it: the handle's square and a margin, as for a symbol.
constexpr float kHandleRadiusPx = 10.0f;
// A brief confirmation (a screenshot saved) stays this long: read at a glance, then out of the way.
constexpr double kMessageSeconds = 3.0;
// The EBL's and VRM's steps per key press: 1 deg (0.1 with Shift), 1 % of the range scale, the
// accuracy IMO MSC.192(79) 5.12 asks of them.
constexpr double kEblStepDeg = 1.0, kEblFineStepDeg = 0.1, kVrmStepFraction = 0.01;
constexpr double kNmM = 1852.0;

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

double Console::default_range_scale_m() const {
  const double range = engine_.geometry().frame_range_m;
  const double video = range > 0 ? range : fallback_range_m();
  // The standard scale nearest the video's range (in ratio): the picture fills the circle.
  const double longer = kRangeScales[size_t(range_scale_for(video))].range_nm * kNmM;
  const double shorter = step_range_scale_m(longer, -1);
  return longer / video < video / shorter ? longer : shorter;
}

void Console::reset_view() {
  const auto& v = view_settings_;
  const double range = v.range_scale_nm > 0 ? v.range_scale_nm * kNmM : default_range_scale_m();
  course_up_deg_ = ship_.course_deg;
  view_.set_rotation_deg(
      render::picture_rotation_deg(orientation(), ship_.heading_deg, course_up_deg_));
  const bool tm = motion() == render::Motion::True && ship_.position_valid;
  // Off-centre looks ahead along the bow; true motion starts astern along the course.
  const double ahead =
      tm ? view_.screen_bearing(ship_.course_deg - ship_.heading_deg) : view_.screen_bearing(0);
  view_.reset(last_rect_, range, v.off_centre || tm, ahead);
  tm_started_ = false;
  fitted_range_ = engine_.geometry().frame_range_m;
  fitted_off_centre_ = v.off_centre;
  view_initialised_ = true;
}

void Console::zoom_to(double zoom) {
  set_range_scale(default_range_scale_m() / std::max(zoom, 1e-3));
}

void Console::set_range_scale(double range_m) {
  if (range_m <= 0) return;
  view_settings_.range_scale_nm = range_m / kNmM;
  view_.set_range_scale(range_m);
}

void Console::step_range_scale(int delta) {
  set_range_scale(step_range_scale_m(view_.range_scale_m(), delta));
}

void Console::pan(float dx_px, float dy_px) {
  view_.pan(dx_px, dy_px);
  tm_started_ = false;  // true motion goes on from where the radar now is
}

render::Orientation Console::orientation() const {
  try {
    return render::orientation_from_string(view_settings_.orientation);
  } catch (const std::exception&) {
    return render::Orientation::HeadUp;
  }
}

render::Motion Console::motion() const {
  try {
    return render::motion_from_string(view_settings_.motion);
  } catch (const std::exception&) {
    return render::Motion::Relative;
  }
}

void Console::set_orientation(render::Orientation o) {
  view_settings_.orientation = render::to_string(o);
  reset_view();
}

void Console::set_motion(render::Motion m) {
  view_settings_.motion = render::to_string(m);
  reset_view();
}

void Console::true_motion_reset() {
  // Own ship back astern along the course, the true-motion track starting there.
  const double ahead =
      view_.screen_bearing(ship_.course_deg - ship_.heading_deg) * 3.14159265358979323846 / 180.0;
  view_.set_radar_offset(-render::kOffCentreFraction * std::sin(ahead),
                         -render::kOffCentreFraction * std::cos(ahead));
  tm_started_ = false;
}

void Console::update_picture() {
  ship_ = ship_reference(engine_.tracking(), view_settings_.heading_deg);
  view_.set_rotation_deg(
      render::picture_rotation_deg(orientation(), ship_.heading_deg, course_up_deg_));
  if (motion() != render::Motion::True || !ship_.position_valid) {
    tm_started_ = false;
    return;
  }
  if (!tm_started_) {
    tm_started_ = true;
    tm_east_ = ship_.east_m;
    tm_north_ = ship_.north_m;
    tm_x_ = view_.radar_offset_x();
    tm_y_ = view_.radar_offset_y();
  }
  double x = 0, y = 0;
  render::true_motion_offset(tm_x_, tm_y_, ship_.east_m - tm_east_, ship_.north_m - tm_north_,
                             view_.rotation_deg(), ship_.heading_deg, view_.range_scale_m(), x, y);
  if (std::hypot(x, y) > render::kTrueMotionResetRadii)
    true_motion_reset();
  else
    view_.set_radar_offset(x, y);
}

void Console::aim_marker_at(float sx, float sy) {
  aim_at(markers_.marker[size_t(markers_.active)], view_.screen_to_world(sx, sy),
         ship_.heading_deg);
}

void Console::drop_origin_at(float sx, float sy) {
  Marker& m = markers_.marker[size_t(markers_.active)];
  if (m.floating) {
    m.floating = false;
    return;
  }
  m.origin = video_to_true(view_.screen_to_world(sx, sy), ship_.heading_deg);
  m.floating = true;
  m.ebl_on = m.vrm_on = true;
}

void Console::screenshot_saved(const std::string& path) {
  ++screenshots_saved_;
  last_screenshot_ = path;
  if (std::exchange(screenshot_confirm_, true))
    show_message("Saved " + path);
  else
    spdlog::info("screenshot written to {}", path);
}

void Console::show_message(const std::string& text) {
  spdlog::info("{}", text);
  message_ = text;
  message_until_s_ = ImGui::GetCurrentContext() ? ImGui::GetTime() + kMessageSeconds : 0;
}

void Console::solo_layer(render::Layer l) {
  auto& layers = view_settings_.style.layers;
  for (int i = 0; i < render::kLayerCount; ++i) layers[size_t(i)].visible = i == int(l);
}

void Console::key(Key k) {
  auto& v = view_settings_;
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
    case Key::RangeDown:
      step_range_scale(-1);
      break;
    case Key::Down:
    case Key::Minus:
    case Key::RangeUp:
      step_range_scale(+1);
      break;
    case Key::Screenshot: {
      char name[64];
      const std::time_t t = std::time(nullptr);
      std::tm tm{};
      gmtime_r(&t, &tm);
      std::strftime(name, sizeof name, "sweepline-%Y%m%d-%H%M%S", &tm);
      // Two within a second get -2, -3, ...: a screenshot never replaces another.
      std::string path = std::string(name) + ".png";
      for (int n = 2; std::filesystem::exists(path); ++n)
        path = std::string(name) + "-" + std::to_string(n) + ".png";
      screenshot_ = path;
      screenshot_confirm_ = true;
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
      if (key_help_)
        key_help_ = false;
      else if (zone_armed_ || polygon_armed_)
        cancel_zone();
      else if (edit_zone_ > 0)
        edit_zone(0);
      else
        selected_track_ = 0;
      break;
    case Key::ZoneClose:
      if (polygon_armed_) close_polygon_zone();
      break;
    case Key::ZoneUndo:
      if (polygon_armed_) undo_polygon_vertex();
      break;
    case Key::Orientation:
      set_orientation(render::Orientation((int(orientation()) + 1) % 3));
      break;
    case Key::Motion:
      set_motion(motion() == render::Motion::True ? render::Motion::Relative
                                                  : render::Motion::True);
      break;
    case Key::OffCentre:
      v.off_centre = !v.off_centre;
      reset_view();
      break;
    case Key::Help:
      key_help_ = !key_help_;
      break;
    case Key::Marker1:
    case Key::Marker2: {
      markers_.active = k == Key::Marker1 ? 0 : 1;
      Marker& m = markers_.marker[size_t(markers_.active)];
      if (!m.ebl_on && !m.vrm_on) {
        // A new pair starts where it shows: the EBL up the screen, the VRM at half the scale.
        m.ebl_deg = render::wrap360(view_.world_bearing(markers_.active == 0 ? 0 : 90) +
                                    (m.ebl_true ? ship_.heading_deg : 0.0));
        m.vrm_m = 0.5 * view_.range_scale_m();
        m.ebl_on = m.vrm_on = true;
      }
      break;
    }
    case Key::ToggleEbl:
      markers_.marker[size_t(markers_.active)].ebl_on ^= true;
      break;
    case Key::ToggleVrm:
      markers_.marker[size_t(markers_.active)].vrm_on ^= true;
      break;
    case Key::EblLeft:
    case Key::EblRight:
    case Key::EblFineLeft:
    case Key::EblFineRight: {
      const double step = k == Key::EblLeft       ? -kEblStepDeg
                          : k == Key::EblRight    ? kEblStepDeg
                          : k == Key::EblFineLeft ? -kEblFineStepDeg
                                                  : kEblFineStepDeg;
      Marker& m = markers_.marker[size_t(markers_.active)];
      m.ebl_deg = render::wrap360(m.ebl_deg + step);
      m.ebl_on = true;
      break;
    }
    case Key::VrmIn:
    case Key::VrmOut: {
      Marker& m = markers_.marker[size_t(markers_.active)];
      const double step = kVrmStepFraction * view_.range_scale_m();
      m.vrm_m = std::max(0.0, m.vrm_m + (k == Key::VrmIn ? -step : step));
      m.vrm_on = true;
      break;
    }
    case Key::EblTrue: {
      Marker& m = markers_.marker[size_t(markers_.active)];
      set_ebl_true(m, !m.ebl_true, ship_.heading_deg);
      break;
    }
    case Key::DropOrigin: {
      const ImGuiIO& io = ImGui::GetIO();
      drop_origin_at(io.MousePos.x, io.MousePos.y);
      break;
    }
    case Key::Erbl:
      markers_.erbl.on ^= true;
      break;
  }
}

void Console::click_ppi(float sx, float sy) {
  const render::WorldPoint w = view_.screen_to_world(sx, sy);
  const engine::TrackingView& tv = engine_.tracking();
  const PlaneToDisplay f = plane_to_display(tv);
  if (polygon_armed_) {
    if (!polygon_.empty() && near_point(f, view_, polygon_.front(), sx, sy, kHandleRadiusPx)) {
      if (polygon_.size() >= 3)
        close_polygon_zone();
      else
        show_message("ZONE: " + polygon_problem(polygon_));
      return;
    }
    add_polygon_vertex(w);
    return;
  }
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
  cancel_zone();
  edit_zone(0);
  zone_armed_ = true;
  zone_relative_ = relative_to_heading;
}

void Console::cancel_zone() {
  zone_armed_ = false;
  zone_first_.reset();
  polygon_armed_ = false;
  polygon_.clear();
}

void Console::begin_polygon_zone() {
  cancel_zone();
  edit_zone(0);
  polygon_armed_ = true;
}

void Console::add_polygon_vertex(render::WorldPoint p) {
  if (!polygon_armed_) return;
  polygon_.push_back(plane_point(plane_to_display(engine_.tracking()), p));
}

void Console::undo_polygon_vertex() {
  if (!polygon_.empty()) polygon_.pop_back();
}

bool Console::close_polygon_zone() {
  if (!polygon_armed_) return false;
  const std::string problem = polygon_problem(polygon_);
  if (!problem.empty()) {
    show_message("ZONE: " + problem);
    return false;
  }
  if (!engine_.add_zone(polygon_zone(polygon_))) {
    show_message("ZONE: " + engine_.tracking().command_error);
    return false;
  }
  cancel_zone();
  polygon_closed_ = true;
  return true;
}

void Console::edit_zone(int zone_id) {
  edit_zone_ = std::max(zone_id, 0);
  drag_handle_.reset();
  drag_preview_.reset();
  if (edit_zone_ > 0) {
    zone_armed_ = polygon_armed_ = false;
    zone_first_.reset();
    polygon_.clear();
  }
}

bool Console::apply_zone_edit(const track::AcquisitionZone& z) {
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    const std::string problem = polygon_problem(z.polygon);
    if (!problem.empty()) {
      show_message("ZONE: " + problem);
      return false;
    }
  }
  if (!engine_.replace_zone(edit_zone_, z)) {
    show_message("ZONE: " + engine_.tracking().command_error);
    return false;
  }
  return true;
}

const track::AcquisitionZone* Console::zone_being_edited() const {
  if (edit_zone_ <= 0) return nullptr;
  for (const auto& [id, z] : engine_.tracking().zones)
    if (id == edit_zone_) return &z;
  return nullptr;
}

bool Console::move_edited_handle(int handle, render::WorldPoint to) {
  const track::AcquisitionZone* z = zone_being_edited();
  if (!z) return false;
  return apply_zone_edit(move_zone_handle(*z, plane_to_display(engine_.tracking()), handle, to));
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
  if (polygon_armed_) {
    if (ImGui::MenuItem("Close the polygon", "Enter", false, polygon_.size() >= 3))
      close_polygon_zone();
    if (ImGui::MenuItem("Remove the last vertex", "Backspace", false, !polygon_.empty()))
      undo_polygon_vertex();
  } else {
    if (ImGui::MenuItem("New zone from here", nullptr, false, tv.enabled)) {
      begin_zone(zone_form_.relative_to_heading);
      zone_first_ = menu_point_;
    }
    if (ImGui::MenuItem("New polygon zone from here", nullptr, false, tv.enabled)) {
      begin_polygon_zone();
      add_polygon_vertex(menu_point_);
    }
  }
  if ((zone_armed_ || polygon_armed_) && ImGui::MenuItem("Stop drawing the zone", "Esc"))
    cancel_zone();
  if (menu_zone_ && *menu_zone_ != edit_zone_) {
    char label[48];
    std::snprintf(label, sizeof label, "Edit zone Z%d", *menu_zone_);
    if (ImGui::MenuItem(label)) edit_zone(*menu_zone_);
  }
  if (edit_zone_ > 0 && ImGui::MenuItem("Stop editing the zone", "Esc")) edit_zone(0);
  ImGui::EndPopup();
}

std::optional<std::string> Console::take_screenshot_request() {
  return std::exchange(screenshot_, std::nullopt);
}
bool Console::take_fullscreen_request() {
  return std::exchange(fullscreen_, false);
}

std::optional<int> Console::edited_handle_at(float sx, float sy) const {
  const track::AcquisitionZone* z = zone_being_edited();
  if (!z) return std::nullopt;
  return pick_zone_handle(*z, plane_to_display(engine_.tracking()), view_, sx, sy, kHandleRadiusPx);
}

void Console::handle_ppi_input(const render::ScreenRect& rect) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse) {
    const bool inside = rect.contains(io.MousePos.x, io.MousePos.y);
    // The wheel steps the range scale, a notch a scale: wheel forward shows a shorter range.
    if (inside && io.MouseWheel != 0) step_range_scale(io.MouseWheel > 0 ? -1 : +1);
    if (inside && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
        !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
      polygon_closed_ = false;
    if (inside && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      if (io.KeyCtrl) {
        aim_marker_at(io.MousePos.x, io.MousePos.y);  // the active EBL and VRM through here
      } else if (io.KeyShift) {
        // The ERBL from here to where the button is let go.
        const render::WorldPoint w =
            video_to_true(view_.screen_to_world(io.MousePos.x, io.MousePos.y), ship_.heading_deg);
        markers_.erbl = {true, w, w};
        erbl_dragging_ = true;
      } else if (const auto h = edited_handle_at(io.MousePos.x, io.MousePos.y)) {
        // A zone's handle: dragged (not the picture) until the button is let go.
        drag_handle_ = *h;
        press_x_ = io.MousePos.x;
        press_y_ = io.MousePos.y;
      } else {
        dragging_ = true;
        panning_ = false;
        press_x_ = io.MousePos.x;
        press_y_ = io.MousePos.y;
      }
    }
    if (inside && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      // Drawing a polygon: the double-click closes it (its first click made the last vertex).
      // One whose first click already closed the polygon (on its first vertex) does no more.
      if (polygon_armed_)
        close_polygon_zone();
      else if (!drag_handle_ && !polygon_closed_)
        reset_view();
      dragging_ = false;  // the second press is no click: nothing is acquired under it
    }
    if (dragging_ && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      const float dx = io.MousePos.x - press_x_, dy = io.MousePos.y - press_y_;
      if (panning_) {
        pan(io.MouseDelta.x, io.MouseDelta.y);
      } else if (dx * dx + dy * dy > kClickSlopPx * kClickSlopPx) {
        panning_ = true;
        pan(dx, dy);
      }
    }
    if (inside && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
      menu_point_ = view_.screen_to_world(io.MousePos.x, io.MousePos.y);
      const engine::TrackingView& tv = engine_.tracking();
      menu_track_ = pick_track(tv.tracks, plane_to_display(tv), view_, io.MousePos.x, io.MousePos.y,
                               kPickRadiusPx);
      menu_zone_ = pick_zone(tv.zones, plane_to_display(tv), view_, io.MousePos.x, io.MousePos.y,
                             kPickRadiusPx);
      ImGui::OpenPopup("ppi_menu");
    }
  }
  if (erbl_dragging_)
    markers_.erbl.b =
        video_to_true(view_.screen_to_world(io.MousePos.x, io.MousePos.y), ship_.heading_deg);
  if (dragging_ && !panning_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left))
    click_ppi(press_x_, press_y_);
  if (drag_handle_) {
    if (const track::AcquisitionZone* z = zone_being_edited(); !z) {
      edit_zone(0);  // deleted under the drag
    } else {
      if (!drag_preview_) drag_start_ = *z;
      drag_preview_ =
          move_zone_handle(drag_start_, plane_to_display(engine_.tracking()), *drag_handle_,
                           view_.screen_to_world(io.MousePos.x, io.MousePos.y));
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        // A press let go where it was is no edit (the handle would jump to the cursor).
        const float dx = io.MousePos.x - press_x_, dy = io.MousePos.y - press_y_;
        if (dx * dx + dy * dy > kClickSlopPx * kClickSlopPx) apply_zone_edit(*drag_preview_);
        drag_handle_.reset();
        drag_preview_.reset();
      }
    }
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    dragging_ = false;
    panning_ = false;
    erbl_dragging_ = false;
  }
  if (io.WantCaptureKeyboard) return;
  struct Binding {
    int glfw;
    Key key;
  };
  static const Binding bindings[] = {{GLFW_KEY_SPACE, Key::Space},
                                     {GLFW_KEY_RIGHT, Key::Right},
                                     {GLFW_KEY_LEFT, Key::Left},
                                     {GLFW_KEY_UP, Key::Up},
                                     {GLFW_KEY_DOWN, Key::Down},
                                     {GLFW_KEY_EQUAL, Key::Plus},
                                     {GLFW_KEY_KP_ADD, Key::Plus},
                                     {GLFW_KEY_MINUS, Key::Minus},
                                     {GLFW_KEY_KP_SUBTRACT, Key::Minus},
                                     {GLFW_KEY_S, Key::Screenshot},
                                     {GLFW_KEY_F, Key::Fullscreen},
                                     {GLFW_KEY_H, Key::HidePanels},
                                     {GLFW_KEY_R, Key::Reset},
                                     {GLFW_KEY_DELETE, Key::CancelTarget},
                                     {GLFW_KEY_A, Key::AcknowledgeAll},
                                     {GLFW_KEY_ESCAPE, Key::Escape},
                                     {GLFW_KEY_ENTER, Key::ZoneClose},
                                     {GLFW_KEY_KP_ENTER, Key::ZoneClose},
                                     {GLFW_KEY_BACKSPACE, Key::ZoneUndo},
                                     {GLFW_KEY_PAGE_UP, Key::RangeUp},
                                     {GLFW_KEY_PAGE_DOWN, Key::RangeDown},
                                     {GLFW_KEY_O, Key::Orientation},
                                     {GLFW_KEY_M, Key::Motion},
                                     {GLFW_KEY_C, Key::OffCentre},
                                     {GLFW_KEY_F1, Key::Help},
                                     {GLFW_KEY_1, Key::Marker1},
                                     {GLFW_KEY_2, Key::Marker2},
                                     {GLFW_KEY_E, Key::ToggleEbl},
                                     {GLFW_KEY_V, Key::ToggleVrm},
                                     {GLFW_KEY_COMMA, Key::VrmIn},
                                     {GLFW_KEY_PERIOD, Key::VrmOut},
                                     {GLFW_KEY_T, Key::EblTrue},
                                     {GLFW_KEY_D, Key::DropOrigin},
                                     {GLFW_KEY_B, Key::Erbl}};
  // Keys that repeat when held: range steps, and the EBL's and VRM's adjustments.
  auto repeats = [](Key k) {
    return k == Key::Plus || k == Key::Minus || k == Key::VrmIn || k == Key::VrmOut;
  };
  for (const auto& b : bindings)
    if (ImGui::IsKeyPressed(b.glfw, repeats(b.key))) key(b.key);
  // [ and ] turn the EBL (Shift: finely); ? (Shift+/) is the key help too.
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET, true))
    key(io.KeyShift ? Key::EblFineLeft : Key::EblLeft);
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET, true))
    key(io.KeyShift ? Key::EblFineRight : Key::EblRight);
  // '?' is read as the character typed, whatever the layout puts it on.
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
    if (io.InputQueueCharacters[i] == '?') key(Key::Help);
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
  update_picture();
  // The panels re-flow into their columns when the window changes size, and at the start when
  // the layout imgui.ini restored does not fit this window (written at another size); a layout
  // the operator left that fits stands.
  const bool reflow =
      reflow_next_ || (fb_seen_w_ > 0 && (fb_width != fb_seen_w_ || fb_height != fb_seen_h_));
  const bool first = fb_seen_w_ == 0;
  fb_seen_w_ = fb_width;
  fb_seen_h_ = fb_height;
  reflow_next_ = false;
  if (vs.show_panels) {
    const bool in_place = draw_panels(engine_, *this, float(fb_width), float(fb_height), reflow);
    reflow_next_ = first && !in_place;
  }
  if (key_help_) draw_key_help(&key_help_);
  if (interactive) handle_ppi_input(rect);
  ppi_menu();
  const ImGuiIO& io = ImGui::GetIO();
  const bool mouse_valid =
      interactive && !io.WantCaptureMouse && rect.contains(io.MousePos.x, io.MousePos.y);
  PictureState pic;
  pic.orientation = orientation();
  pic.motion = motion();
  pic.heading_deg = ship_.heading_deg;
  pic.heading_measured = ship_.heading_measured;
  pic.course_up_deg = course_up_deg_;
  pic.true_motion_held = pic.motion == render::Motion::True && !ship_.position_valid;
  pic.markers = &markers_;
  if (!message_.empty() && ImGui::GetTime() > message_until_s_) message_.clear();
  pic.message = message_;
  status_lines_ = draw_ppi_overlays(engine_, view_settings_, view_, pic, show_all_components_,
                                    fallback_range_m(), mouse_valid, io.MousePos.x, io.MousePos.y);
  // What the window shows, in the log as it changes: the tests wait for these lines.
  const std::string readout =
      range_readout(view_, ring_spacing_m(view_.range_scale_m(), vs.ring_spacing_m)) + "   " +
      orientation_readout(pic);
  if (readout != range_readout_) {
    range_readout_ = readout;
    spdlog::info("display: {}", readout);
  }
  if (key_help_ != key_help_logged_) {
    key_help_logged_ = key_help_;
    spdlog::info("display: key help {}", key_help_ ? "shown" : "hidden");
  }

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
  st.polygon_armed = polygon_armed_;
  st.polygon = polygon_;
  // A zone deleted (the panel, a settings change) is no longer edited.
  if (edit_zone_ > 0 && !zone_being_edited()) edit_zone(0);
  st.edit_zone = edit_zone_;
  st.edit_preview = drag_preview_;
  st.mouse_valid = mouse_valid;
  st.mouse_x = io.MousePos.x;
  st.mouse_y = io.MousePos.y;
  st.time_s = ImGui::GetTime();
  st.status_lines = status_lines_ + 1;
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
