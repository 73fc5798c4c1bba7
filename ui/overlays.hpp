#pragma once
// What is drawn over the PPI picture with ImGui draw lists: range rings with labels, the bearing
// scale with its heading marker, the sweep line, a box per plot, the filter legend, the cursor
// readout and the hover tooltip, and the status text in the corners.
//
// The pieces that decide what is drawn (the legend's text, which boxes and where) are plain
// functions below, so that they are tested without ImGui or GL (tests/ui/).
#include <string>
#include <vector>

#include "app/common/display_geometry.hpp"
#include "app/engine/engine.hpp"
#include "gpu/pipeline.hpp"
#include "render/ppi_view.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

// Ring spacing in metres: `requested` (> 0) or about five rings over `range_m`, a nice step in
// nautical miles.
double ring_spacing_m(double range_m, double requested);

// The filter legend, as marine radars show it in a corner of the PPI: the operator's controls
// on the first line ("GAIN A  SEA 40  RAIN A  MAP ON  2-SCAN"; A = automatic, VIDEO OFF when the
// video processing is off, PLOTS OFF when labelling is), the advanced stages on the second
// ("GAUSS 1.0  THR 48  AREA 6..20000"; ALL BLOBS when every component is boxed).
std::vector<std::string> filter_legend(const gpu::PipelineParams& params, bool all_components);

// A box on the PPI: a component's bounding box (pixel edges) in world metres, east/north of the
// radar (e0, n0 the top-left corner, e1, n1 the bottom-right).
struct WorldBox {
  double e0 = 0, n0 = 0, e1 = 0, n1 = 0;
};
WorldBox box_of(const ccl::Component& c, const DisplayGeometry& g);

// One box to draw: a plot (with its component, FrameResult::components[plot.label - 1]) or,
// when every component is shown, a component that is no plot (plot null).
struct TargetMark {
  WorldBox box;
  const ccl::Component* component = nullptr;
  const gpu::Plot* plot = nullptr;
};
// The plots' boxes, and with `all_components` the other components' too (those first, so the
// plots are drawn over them). A plot whose label names no component is skipped. No plots: no
// boxes (clutter is not boxed), however many components there are.
std::vector<TargetMark> target_marks(const gpu::FrameResult& result, const DisplayGeometry& g,
                                     bool all_components);

// `all_components`: box every component, not only the plots (Processing, Advanced).
// `mouse_valid`: the cursor is over the PPI and ImGui does not want it. `fallback_range_m`: the
// scope drawn before any data has come.
void draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& view_settings,
                       const render::PpiView& view, bool all_components, double fallback_range_m,
                       bool mouse_valid, float mouse_x, float mouse_y);

}  // namespace sweepline::ui
