#pragma once
// Where a frame's display images lie in the world, shared by the engine (which computes it from
// the pipeline parameters) and the renderer (which draws the textures with it).

namespace sweepline {

// Pixel (x, y) (y down) has its centre at east = origin_east + (x + 0.5 - W/2) * mpp,
// north = origin_north - (y + 0.5 - H/2) * mpp (gpu/pipeline.hpp's geometry). All zero (mpp 1)
// before the first frame.
struct DisplayGeometry {
  int width = 0;
  int height = 0;
  double metres_per_pixel = 1;
  double origin_east_m = 0;
  double origin_north_m = 0;
  double frame_range_m = 0;  // nothing past this range
};

}  // namespace sweepline
