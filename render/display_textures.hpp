#pragma once
// The four display textures the pipeline fills each frame: scan-converted, denoised and binary
// (R8) and the label colours (RGBA8, gpu::label_colour of each label's identity, kept across
// frames by the engine: app/engine/label_identities.hpp). Allocated once per size. The CPU backend
// fills them with glTexSubImage2D; the CUDA backend writes them in place through interop
// (render/interop/), which registers these very texture names.
#include <cstdint>

#include <vector>
#include "app/common/display_geometry.hpp"
#include "app/common/image.hpp"
#include "render/gl_resource.hpp"
#include "render/ppi_style.hpp"

namespace sweepline::render {

class DisplayTextures {
 public:
  DisplayTextures() = default;
  // (Re)allocates when the size changes; the contents are then zero. Returns true if it did.
  bool ensure(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  GLuint texture(Layer l) const { return tex_[int(l)].get(); }

  // CPU path: copies whichever images are given (null = leave as is). Sizes must match. The
  // labels are coloured by their identities `label_ids` (gpu::identity_colour), or by the labels
  // themselves when none are given.
  void upload(const Image8* scan, const Image8* denoised, const Image8* binary,
              const ImageI32* labels, const std::vector<int32_t>* label_ids = nullptr);
  void clear_labels();
  // Counts the writes to the textures, the CUDA path's in place included (mark_written), so a
  // picture drawn from them knows when it is out of date.
  uint64_t generation() const { return generation_; }
  void mark_written() { ++generation_; }

 private:
  int width_ = 0, height_ = 0;
  uint64_t generation_ = 1;
  Texture tex_[kLayerCount];
  std::vector<uint32_t> rgba_;  // the label colours' upload buffer, kept between frames
};

}  // namespace sweepline::render
