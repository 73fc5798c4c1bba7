#pragma once
// The radar console: the PPI, its overlays and the panels, for one frame at a time. Used by the
// window (ui/window_app.cpp) and the headless renderer (ui/headless.cpp) alike, so both show the
// same picture. The caller owns the GL context and the ImGui context and keeps the loop order:
// poll events, update() (source, pipeline), ImGui NewFrame, build_ui(), draw_ppi(), ImGui
// render, swap. The engine (app/engine/) owns the frame path; the console sends it commands,
// reads its state, and is its display port (the textures the frames land in).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/engine/engine.hpp"
#include "render/display_textures.hpp"
#include "render/orientation.hpp"
#include "render/ppi_renderer.hpp"
#include "render/ppi_view.hpp"
#include "ui/display_sink.hpp"
#include "ui/ebl_vrm.hpp"
#include "ui/settings.hpp"
#include "ui/ship_reference.hpp"

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
  Escape,          // Esc: stop drawing or editing a zone, else clear the selection
  ZoneClose,       // Enter: close the polygon zone being drawn
  ZoneUndo,        // Backspace: remove the polygon's last vertex
  // The operator's functions (the key help, F1, lists them with their keys).
  RangeUp,      // a longer standard range scale (Plus/Up are a shorter one, Minus/Down longer)
  RangeDown,    // a shorter one
  Orientation,  // north-up, head-up, course-up in turn
  Motion,       // relative, true
  OffCentre,    // off-centre on/off
  Help,         // the key help on/off
  Marker1,      // EBL/VRM 1 active (and on)
  Marker2,      // EBL/VRM 2 active (and on)
  ToggleEbl,    // the active EBL on/off
  ToggleVrm,    // the active VRM on/off
  EblLeft,      // the active EBL 1 deg anticlockwise
  EblRight,     // 1 deg clockwise
  EblFineLeft,  // 0.1 deg
  EblFineRight,
  VrmIn,       // the active VRM 1 % of the range scale shorter
  VrmOut,      // longer
  EblTrue,     // the active EBL true/relative
  DropOrigin,  // the active pair's origin at the cursor, or back to own ship
  Erbl         // the ERBL on/off
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
  void pan(float dx_px, float dy_px);
  // The range scale: the displayed radius (m), kept in the settings.
  void set_range_scale(double range_m);
  void step_range_scale(int delta);  // > 0: the next longer standard scale
  render::Orientation orientation() const;
  render::Motion motion() const;
  void set_orientation(render::Orientation o);
  void set_motion(render::Motion m);
  // EBLs, VRMs and the ERBL; `heading` turns relative bearings into true ones.
  OperatorMarkers& markers() { return markers_; }
  const ShipReference& ship() const { return ship_; }
  // The active EBL and VRM through a screen point; the active pair's origin dropped there (or
  // back on own ship when it is already floating).
  void aim_marker_at(float sx, float sy);
  void drop_origin_at(float sx, float sy);
  bool& key_help() { return key_help_; }
  // A brief confirmation on the PPI (e.g. "Saved PATH"), also logged.
  void show_message(const std::string& text);
  const std::string& message() const { return message_; }  // "" once it has gone
  // A screenshot written: "Saved PATH" on the PPI; the count and the last path stay (tests).
  void screenshot_saved(const std::string& path);
  int screenshots_saved() const { return screenshots_saved_; }
  const std::string& last_screenshot() const { return last_screenshot_; }
  // The status lines as drawn (the RANGE readout among them), for tests and the log.
  const std::string& range_readout_text() const { return range_readout_; }

  // Requests for the window loop, consumed by it.
  std::optional<std::string> take_screenshot_request();
  bool take_fullscreen_request();
  // A script's screenshot: written without the on-screen confirmation, so that a series of them
  // shows the picture alone (the S key's shows "Saved PATH").
  void request_screenshot(const std::string& path) {
    screenshot_ = path;
    screenshot_confirm_ = false;
  }

  const render::PpiView& view() const { return view_; }
  render::DisplayTextures& textures() { return textures_; }
  Engine& engine() { return engine_; }
  ViewSettings& view_settings() { return view_settings_; }
  const ViewSettings& view_settings() const { return view_settings_; }
  // Target tracking (docs/tracking.md). The selected track (0: none): its data box and symbol.
  int selected_track() const { return selected_track_; }
  void select_track(int id) { selected_track_ = id; }
  // A left click on the PPI at screen (sx, sy): a corner or vertex of a zone being drawn (a click
  // on a polygon's first vertex closes it), else the track whose symbol is under it (selected),
  // else manual acquisition there.
  void click_ppi(float sx, float sy);
  // Manual acquisition at a point of the PPI (metres about the radar); the new or marked track
  // is selected. False when nothing is near (the engine says why in its command_error).
  bool acquire_at(render::WorldPoint p);
  void cancel_selected();
  // Two-click arc zones: arm, then two clicks on the PPI (or click_ppi) make the zone.
  void begin_zone(bool relative_to_heading);
  void cancel_zone();
  bool zone_armed() const { return zone_armed_; }
  // Polygon zones drawn vertex by vertex (docs/tracking.md): arm, then each click adds a vertex
  // (kept in the tracker's plane); Enter, a double-click or a click on the first vertex closes
  // it, Backspace removes the last vertex, Esc (cancel_zone) stops.
  void begin_polygon_zone();
  void add_polygon_vertex(render::WorldPoint p);  // PPI metres
  // Adds the zone and stops drawing; false, with the reason as the PPI's message, when the
  // vertices make no zone yet (fewer than 3, edges crossing): drawing goes on.
  bool close_polygon_zone();
  void undo_polygon_vertex();
  bool polygon_armed() const { return polygon_armed_; }
  const std::vector<track::ZonePoint>& polygon_vertices() const { return polygon_; }
  // Editing a zone on the PPI: its handles are drawn and dragging one replaces the zone in the
  // engine when the button is let go. 0 stops editing.
  void edit_zone(int zone_id);
  int edited_zone() const { return edit_zone_; }
  // Moves a handle of the zone being edited to a point of the PPI and applies it (a drag in one
  // step; scripts). False, with the reason as the PPI's message, when the result is no zone.
  bool move_edited_handle(int handle, render::WorldPoint to);
  ZoneForm& zone_form() { return zone_form_; }

  // Where named widgets were drawn (screen pixels), for the window's tests to click them
  // (the script's dump-state lists them).
  void note_widget(const std::string& name, const render::ScreenRect& r) { widgets_[name] = r; }
  const std::map<std::string, render::ScreenRect>& widgets() const { return widgets_; }
  // A panel drops its names each frame before noting those it draws now.
  void forget_widgets(const std::string& prefix) {
    std::erase_if(widgets_, [&](const auto& w) { return w.first.rfind(prefix, 0) == 0; });
  }

  // Box every labelled component, not only the plots (Processing, Advanced): how the clutter
  // the plot filters removed looks. Off at start and not saved, as a diagnostic.
  bool& show_all_components() { return show_all_components_; }

 private:
  render::ScreenRect ppi_rect(int fb_width, int fb_height) const;
  double fallback_range_m() const;  // the scope's range before any data
  void handle_ppi_input(const render::ScreenRect& rect);
  void ppi_menu();  // the PPI's right-click menu
  // Replaces the edited zone in the engine (a drag let go); false with a message when refused.
  bool apply_zone_edit(const track::AcquisitionZone& z);
  std::optional<int> edited_handle_at(float sx, float sy) const;  // the edited zone's handle
  // The zone edit_zone_ names, as the engine holds it; null when none is edited or it is gone.
  const track::AcquisitionZone* zone_being_edited() const;
  double default_range_scale_m() const;  // the standard scale nearest the video's range
  void update_picture();                 // orientation and true motion, once a frame
  void true_motion_reset();

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
  std::map<std::string, render::ScreenRect> widgets_;
  // The operator's functions: own ship's reference, course-up's course, true motion's start,
  // EBL/VRM/ERBL, the key help, the brief message and the readout last logged.
  ShipReference ship_;
  double course_up_deg_ = 0;
  bool tm_started_ = false;
  double tm_east_ = 0, tm_north_ = 0, tm_x_ = 0, tm_y_ = 0;
  OperatorMarkers markers_;
  bool erbl_dragging_ = false;
  bool key_help_ = false;
  bool key_help_logged_ = false;
  std::string message_;
  int screenshots_saved_ = 0;
  bool screenshot_confirm_ = true;
  std::string last_screenshot_;
  double message_until_s_ = 0;
  std::string range_readout_;
  int status_lines_ = 4;
  int fb_seen_w_ = 0, fb_seen_h_ = 0;  // the window size the panels were laid out for
  bool reflow_next_ = false;           // imgui.ini's layout does not fit: re-flow next frame
  // Tracking: selection, a zone being drawn, the click that may become a pan, the menu's point.
  int selected_track_ = 0;
  bool zone_armed_ = false;
  bool zone_relative_ = false;
  std::optional<render::WorldPoint> zone_first_;
  bool polygon_armed_ = false;
  std::vector<track::ZonePoint> polygon_;  // the polygon's vertices so far, in the plane
  bool polygon_closed_ = false;     // a polygon closed since the last single press (double-click)
  int edit_zone_ = 0;               // the zone whose handles are shown (0: none)
  std::optional<int> drag_handle_;  // the handle being dragged
  track::AcquisitionZone drag_start_;                   // the zone when the drag began
  std::optional<track::AcquisitionZone> drag_preview_;  // where the drag has it now
  ZoneForm zone_form_;
  float press_x_ = 0, press_y_ = 0;
  bool panning_ = false;
  render::WorldPoint menu_point_;
  std::optional<int> menu_track_;
  std::optional<int> menu_zone_;  // the zone whose outline the right-click was on
};

}  // namespace sweepline::ui
