#pragma once
// What is drawn over the PPI picture with ImGui draw lists: range rings with labels, the bearing
// scale with its heading marker, the sweep line, a box per component, the cursor readout and the
// hover tooltip, and the status text in the corners.
#include "app/engine/engine.hpp"
#include "render/ppi_view.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

// Ring spacing in metres: `requested` (> 0) or about five rings over `range_m`, a nice step in
// nautical miles.
double ring_spacing_m(double range_m, double requested);

// `mouse_valid`: the cursor is over the PPI and ImGui does not want it. `fallback_range_m`: the
// scope drawn before any data has come.
void draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& view_settings,
                       const render::PpiView& view, double fallback_range_m, bool mouse_valid,
                       float mouse_x, float mouse_y);

}  // namespace sweepline::ui
