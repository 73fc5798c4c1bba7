#pragma once
// Plot extraction: labelled components to plots in the radar's units, filtered by their extent
// against the beamwidth and pulse length and, when asked, confirmed by the previous sweep (or,
// away from land, by a plot of the sweep before). Host code shared by both backends (the CUDA
// backend downloads its components first), so their plots agree whenever their components do.
#include <cstdint>
#include <vector>

#include "app/common/polar_frame.hpp"
#include "gpu/land_words.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::gpu {

// A component's extent in range (m) and azimuth (deg) from its bounding box as seen from the
// radar (the box's nearest point and farthest corner; the angle its corners span).
struct PolarExtent {
  double range_min_m = 0, range_max_m = 0;
  double azimuth_deg = 0;  // 360 when the box holds the radar
};
PolarExtent polar_extent(const ccl::Component& c, const DisplayGeometry& g);

class PlotExtractor {
 public:
  // The frame's plots from its components (FrameResult::components, in label order). Keeps the
  // plots it has seen for the scan-to-scan correlation; `frame` gives the sweep times; `land`
  // (the video stage's land words for this frame, or null) sets Plot::near_land.
  std::vector<Plot> extract(const std::vector<ccl::Component>& components,
                            const DisplayGeometry& geometry, const PolarFrame& frame,
                            const PlotParams& params, const LandView* land = nullptr);
  // Forgets the history (a new source, a seek).
  void reset();
  // The antenna period the correlation assumes (s; 0 until two sweeps of a row were seen).
  double period_s() const { return period_s_; }

 private:
  struct Seen {
    double t, x, y;
    bool plotted;  // it became a plot (what a plot that faded for a sweep is continued from)
  };
  void update_period(const PolarFrame& frame);

  std::vector<Seen> history_;
  std::vector<double> row_time_;
  double period_s_ = 0;
  uint64_t frames_ = 0;
};

// Checks the plot parameters; throws sweepline::Error naming the bad one.
void validate(const PlotParams& p);

}  // namespace sweepline::gpu
