#pragma once
// The four display textures the pipeline fills each frame: scan-converted, denoised and binary
// (R8) and the label colours (RGBA8, gpu::label_colour). Allocated once per size. The CPU backend
// fills them with glTexSubImage2D; the CUDA backend writes them in place through interop
// (render/interop/), which registers these very texture names.
#include <cstdint>

#include "app/common/image.hpp"
#include "render/gl_resource.hpp"
#include "render/ppi_style.hpp"

namespace sweepline::render {

// Where the display textures lie in the world: pixel (x, y) (y down) has its centre at
// east = origin_east + (x + 0.5 - W/2) * mpp, north = origin_north - (y + 0.5 - H/2) * mpp
// (gpu/pipeline.hpp's geometry).
struct TextureGeometry {
  int width = 0;
  int height = 0;
  double metres_per_pixel = 1;
  double origin_east_m = 0;
  double origin_north_m = 0;
  double frame_range_m = 0;  // nothing past this range
};

class DisplayTextures {
 public:
  DisplayTextures() = default;
  // (Re)allocates when the size changes; the contents are then zero. Returns true if it did.
  bool ensure(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  GLuint texture(Layer l) const { return tex_[int(l)].get(); }

  // CPU path: copies whichever images are given (null = leave as is). Sizes must match.
  void upload(const Image8* scan, const Image8* denoised, const Image8* binary,
              const ImageI32* labels);
  void clear_labels();

 private:
  int width_ = 0, height_ = 0;
  Texture tex_[kLayerCount];
};

}  // namespace sweepline::render
