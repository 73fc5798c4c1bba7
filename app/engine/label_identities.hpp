#pragma once
// Label colours that stay put from frame to frame. The labeller numbers components afresh each
// frame, so colouring by the label (gpu::label_colour) makes every blob change colour every
// frame. Here each component is matched to the nearest one of the previous frame (centroid
// within a few of its own sizes) and keeps that one's identity, hence its colour; a new
// component takes its label as its identity while no other holds it, else a new one. Works from
// the frame's component list (centroid and area), so it costs the same on both backends and
// never reads the label image: the engine hands the identities to the display, which colours
// the CPU backend's label image with them on upload and has the CUDA backend recolour its
// device labels in place (gpu::Pipeline::colour_labels).
#include <cstdint>
#include <vector>

#include "gpu/ccl/ccl.hpp"

namespace sweepline::engine {

class LabelIdentities {
 public:
  // The identity of every label 1..n of `components` (index: label; index 0 is 0), carried over
  // from the previous call's components where they match. `components` are one frame's, labels
  // 1..n in any order.
  const std::vector<int32_t>& update(const std::vector<ccl::Component>& components);
  const std::vector<int32_t>& ids() const { return ids_; }
  // Forget the previous frame (a new source or display geometry): the next frame's components
  // all count as new.
  void reset();

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

}  // namespace sweepline::engine
