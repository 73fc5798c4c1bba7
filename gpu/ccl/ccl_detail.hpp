#pragma once
// Helpers shared by the CPU and CUDA labellers (not part of the public contract): the
// per-component accumulator, its conversion into a Component, the area filter and the hole rule.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu/ccl/ccl.hpp"

namespace sweepline::ccl::detail {

// Exact integer sums, so every backend gives bit-identical centroids. A pixel weighs its
// intensity, at least 1 (so a component of zero intensity still has a centroid); without an
// intensity image every pixel weighs 1.
struct Accumulator {
  int64_t area = 0;
  int32_t xmin = INT32_MAX, xmax = -1, ymin = INT32_MAX, ymax = -1;
  uint64_t sum_w = 0, sum_wx = 0, sum_wy = 0;
  uint32_t peak = 0;
};

inline uint32_t pixel_weight(const uint8_t* intensity, size_t index) {
  if (!intensity) return 1;
  return intensity[index] > 0 ? intensity[index] : 1u;
}

// Centroid in pixel-index coordinates (the centre of pixel (x, y) is (x, y)); range and bearing
// use the same centre shifted by half a pixel, as Geometry places the radar at pixel centres +0.5.
inline Component make_component(int32_t label, const Accumulator& a, const Geometry& g,
                                bool has_intensity) {
  Component c;
  c.label = label;
  c.area = a.area;
  c.xmin = a.xmin;
  c.xmax = a.xmax;
  c.ymin = a.ymin;
  c.ymax = a.ymax;
  c.cx = double(a.sum_wx) / double(a.sum_w);
  c.cy = double(a.sum_wy) / double(a.sum_w);
  c.peak = has_intensity ? uint8_t(a.peak) : uint8_t(0);
  double dx = c.cx + 0.5 - g.radar_x;
  double dy = c.cy + 0.5 - g.radar_y;
  c.range_m = std::hypot(dx, dy) * g.metres_per_pixel;
  double b = std::atan2(dx, -dy) * 180.0 / M_PI;  // 0 = up (north), clockwise
  if (b < 0) b += 360.0;
  if (b >= 360.0) b -= 360.0;
  c.bearing_deg = b;
  return c;
}

inline bool keep_area(int64_t area, const LabelParams& p) {
  if (p.min_area > 0 && area < p.min_area) return false;
  if (p.max_area > 0 && area > p.max_area) return false;
  return true;
}

// A background component becomes foreground when it does not touch the border and its area is
// below hole_max_area (0: any size).
inline bool fill_hole(int64_t area, bool touches_border, const LabelParams& p) {
  if (touches_border) return false;
  return p.hole_max_area <= 0 || area < p.hole_max_area;
}

// Background components are labelled with the dual connectivity (8-connected objects have
// 4-connected holes and vice versa), so a hole is exactly what the foreground encloses.
inline int background_connectivity(int connectivity) {
  return connectivity == 8 ? 4 : 8;
}

void validate(const Image8& binary, const LabelParams& params, const Image8* intensity);

// Statistics of a finished label image (labels 1..count); used where a device run has more
// components than its statistics buffer holds, and by `fetch` checks.
std::vector<Component> components_from_labels(const ImageI32& labels, int32_t count,
                                              const LabelParams& params, const Image8* intensity);

}  // namespace sweepline::ccl::detail
