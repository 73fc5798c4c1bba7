#pragma once
// Target tracking on the PPI, with ImGui draw lists over the picture: acquisition zones, past
// positions, vectors and IEC 62288 symbols per track, own ship (symbol, heading line, speed
// vector), the selected target's data box, the alarm banner, the warning and the tracking
// legend. What goes where is decided by ui/track_view.hpp's plain functions.
#include <optional>
#include <vector>

#include "app/engine/tracking.hpp"
#include "app/track/zones.hpp"
#include "render/ppi_view.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

// What the console adds to the engine's snapshot: its selection and a zone being drawn.
struct TrackOverlayState {
  int selected_id = 0;
  bool zone_armed = false;                       // a two-click zone is being drawn
  std::optional<render::WorldPoint> zone_first;  // its first corner (PPI metres)
  bool zone_relative = false;
  bool polygon_armed = false;                          // a polygon zone is being drawn
  std::vector<track::ZonePoint> polygon;               // its vertices so far (the tracker's plane)
  int edit_zone = 0;                                   // the zone whose handles are shown (0: none)
  std::optional<track::AcquisitionZone> edit_preview;  // that zone as a drag has it now
  bool mouse_valid = false;  // the cursor is over the PPI and ImGui does not want it
  float mouse_x = 0, mouse_y = 0;
  double time_s = 0;     // the UI's clock (flashing)
  double range_m = 0;    // the scope's range (heading line length); 0: none
  int status_lines = 3;  // text lines the status block in the top-left corner takes
};

void draw_tracking_overlay(const engine::TrackingView& v, const ViewSettings& vs,
                           const render::PpiView& view, const TrackOverlayState& st);

}  // namespace sweepline::ui
