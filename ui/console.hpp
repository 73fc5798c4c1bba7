#pragma once
// The radar console: the PPI, its overlays and the panels, for one frame at a time. Used by the
// window (ui/window_app.cpp) and the headless renderer (ui/headless.cpp) alike, so both show the
// same picture. The caller owns the GL context and the ImGui context and keeps the loop order:
// poll events, update() (source, pipeline), ImGui NewFrame, build_ui(), draw_ppi(), ImGui
// render, swap. The engine (app/engine/) owns the frame path; the console sends it commands,
// reads its state, and is its display port (the textures the frames land in).
#include <optional>
#include <string>

#include "app/engine/engine.hpp"
#include "render/display_textures.hpp"
#include "render/ppi_renderer.hpp"
#include "render/ppi_view.hpp"
#include "ui/display_sink.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

using engine::Engine;

enum class Key {
  Space,
  Left,
  Right,
  Up,
  Down,
  Plus,
  Minus,
  Screenshot,
  Fullscreen,
  HidePanels,
  Reset,
  CancelTarget,    // Delete: cancel the selected target
  AcknowledgeAll,  // A: acknowledge every alarm
  Escape           // Esc: stop drawing a zone, else clear the selection
};

// The Tracking panel's zone editor (an arc between two ranges and two bearings).
struct ZoneForm {
  double range_min_nm = 0.5, range_max_nm = 3.0;
  double bearing_from_deg = 315, bearing_to_deg = 45;
  bool relative_to_heading = true;
};

class Console {
 public:
  // Needs a current GL context; becomes the engine's display until destroyed.
  Console(Engine& engine, ViewSettings view);
  ~Console();
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;

  // Pumps the source for up to `budget_ms`, collects a finished frame and starts the next one;
  // never waits for the pipeline.
  void update(double budget_ms);
  // Processes whatever the source delivered and waits for it (headless: after a whole rotation).
  bool process_now();
  // Builds panels and overlays (between ImGui::NewFrame and ImGui::Render) and handles mouse and
  // keys for the PPI when ImGui does not want them. `interactive`: read the mouse and keyboard.
  void build_ui(int fb_width, int fb_height, bool interactive);
  // Draws the PPI picture into the current framebuffer (before ImGui renders on top).
  void draw_ppi(int fb_width, int fb_height, double dt_s);

  // Commands (keys, scripts).
  void key(Key k);
  void zoom_to(double zoom);         // relative to the fit; about the view centre
  void solo_layer(render::Layer l);  // only this layer visible
  void reset_view();
  void pan(float dx_px, float dy_px) { view_.pan(dx_px, dy_px); }

  // Requests for the window loop, consumed by it.
  std::optional<std::string> take_screenshot_request();
  bool take_fullscreen_request();
  void request_screenshot(const std::string& path) { screenshot_ = path; }

  const render::PpiView& view() const { return view_; }
  render::DisplayTextures& textures() { return textures_; }
  Engine& engine() { return engine_; }
  ViewSettings& view_settings() { return view_settings_; }
  const ViewSettings& view_settings() const { return view_settings_; }
  // Target tracking (docs/tracking.md). The selected track (0: none): its data box and symbol.
  int selected_track() const { return selected_track_; }
  void select_track(int id) { selected_track_ = id; }
  // A left click on the PPI at screen (sx, sy): the second corner of a zone being drawn, else
  // the track whose symbol is under it (selected), else manual acquisition there.
  void click_ppi(float sx, float sy);
  // Manual acquisition at a point of the PPI (metres about the radar); the new or marked track
  // is selected. False when nothing is near (the engine says why in its command_error).
  bool acquire_at(render::WorldPoint p);
  void cancel_selected();
  // Two-click arc zones: arm, then two clicks on the PPI (or click_ppi) make the zone.
  void begin_zone(bool relative_to_heading);
  void cancel_zone();
  bool zone_armed() const { return zone_armed_; }
  ZoneForm& zone_form() { return zone_form_; }

  // Box every labelled component, not only the plots (Processing, Advanced): how the clutter
  // the plot filters removed looks. Off at start and not saved, as a diagnostic.
  bool& show_all_components() { return show_all_components_; }

 private:
  render::ScreenRect ppi_rect(int fb_width, int fb_height) const;
  double fallback_range_m() const;  // the scope's range before any data
  void handle_ppi_input(const render::ScreenRect& rect);
  void ppi_menu();  // the PPI's right-click menu

  Engine& engine_;
  ViewSettings view_settings_;
  render::DisplayTextures textures_;
  DisplaySink sink_;
  render::PpiRenderer renderer_;
  render::PpiView view_;
  bool view_initialised_ = false;
  double fitted_range_ = 0;
  bool fitted_off_centre_ = false;
  render::ScreenRect last_rect_;
  bool dragging_ = false;
  std::optional<std::string> screenshot_;
  bool fullscreen_ = false;
  std::string settings_message_;
  bool show_all_components_ = false;
  // Tracking: selection, a zone being drawn, the click that may become a pan, the menu's point.
  int selected_track_ = 0;
  bool zone_armed_ = false;
  bool zone_relative_ = false;
  std::optional<render::WorldPoint> zone_first_;
  ZoneForm zone_form_;
  float press_x_ = 0, press_y_ = 0;
  bool panning_ = false;
  render::WorldPoint menu_point_;
  std::optional<int> menu_track_;
};

}  // namespace sweepline::ui
