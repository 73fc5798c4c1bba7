#pragma once
// What is drawn over the PPI picture with ImGui draw lists: range rings with labels, the bearing
// scale with its heading line, the sweep line, a box per plot, the EBLs, VRMs and the ERBL with
// their readouts, the filter legend, the cursor readout and the hover tooltip, the status text in
// the corners and a brief confirmation (a screenshot saved). Everything follows the view's
// rotation (orientation) and the radar's place on the screen (off-centre, true motion).
//
// The pieces that decide what is drawn (the legend's text, which boxes and where) are plain
// functions below, so that they are tested without ImGui or GL (tests/ui/).
#include <string>
#include <vector>

#include "app/common/display_geometry.hpp"
#include "app/engine/engine.hpp"
#include "gpu/pipeline.hpp"
#include "render/orientation.hpp"
#include "render/ppi_view.hpp"
#include "ui/ebl_vrm.hpp"
#include "ui/settings.hpp"

namespace sweepline::ui {

// Ring spacing in metres: `requested` (> 0) or the standard interval of the range scale
// `range_m` (ui/range_scale.hpp).
double ring_spacing_m(double range_m, double requested);

// The status line of the picture: "RANGE 12 NM  RINGS 2 NM" (the range scale is the displayed
// radius of `view`), then orientation, motion and heading: "H UP  RM  HDG 045.0 T (MAN)".
std::string range_readout(const render::PpiView& view, double ring_spacing_m);

// What the console knows of the picture beyond the view itself.
struct PictureState {
  render::Orientation orientation = render::Orientation::HeadUp;
  render::Motion motion = render::Motion::Relative;
  double heading_deg = 0;         // true
  bool heading_measured = false;  // false: the operator's manual heading
  double course_up_deg = 0;       // the course up in course-up
  bool true_motion_held = false;  // true motion without own ship's position: the radar stays
  const OperatorMarkers* markers = nullptr;
  std::string message;  // a brief confirmation ("Saved PATH"); empty: none
};
std::string orientation_readout(const PictureState& pic);

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
// Returns the number of status lines drawn in the top-left corner (what comes under them starts
// lower).
int draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& view_settings,
                      const render::PpiView& view, const PictureState& picture, bool all_components,
                      double fallback_range_m, bool mouse_valid, float mouse_x, float mouse_y);

// The key help (F1 or ?): every key and mouse action of the PPI, as (keys, what) rows.
struct KeyHelpRow {
  const char* keys;
  const char* what;
};
const std::vector<KeyHelpRow>& key_help_rows();
void draw_key_help(bool* open);

}  // namespace sweepline::ui
