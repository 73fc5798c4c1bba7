#pragma once
// Label colours that stay put from frame to frame. The labeller numbers components afresh each
// frame, so colouring by the label (gpu::label_colour) makes every blob change colour every
// frame. Here each component is matched to the nearest one of the previous frame (centroid
// within a few of its own sizes) and keeps that one's identity, hence its colour; a new
// component takes its label as its identity while no other holds it, else a new one. Used on the
// CPU path's upload (render/display_textures.cpp); the CUDA path writes gpu::label_colour in place
// (render/interop/).
#include <cstdint>
#include <vector>

#include "app/common/image.hpp"

namespace sweepline::render {

class StableLabels {
 public:
  // The identity of every label of `labels` (index: label; 0 stays 0), carried over from the
  // previous call's components where they match.
  const std::vector<int32_t>& update(const ImageI32& labels);
  // RGBA8 (0xAABBGGRR) for each pixel of `labels` after update().
  void colours(const ImageI32& labels, std::vector<uint32_t>& rgba) const;
  void reset() { previous_.clear(); }

 private:
  struct Blob {
    double x = 0, y = 0;  // centroid (pixels)
    double size = 0;      // sqrt(area)
    int32_t id = 0;
  };
  std::vector<Blob> previous_;
  std::vector<int32_t> ids_;
  int32_t next_id_ = 1;
};

}  // namespace sweepline::render
