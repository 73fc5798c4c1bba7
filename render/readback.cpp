#include "render/readback.hpp"

#include <GL/glew.h>

#include <algorithm>

#include "app/common/image_io.hpp"
#include "render/gl_check.hpp"

namespace sweepline::render {

std::vector<uint8_t> read_framebuffer_rgba(int width, int height) {
  std::vector<uint8_t> pixels(size_t(width) * size_t(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  check_gl("glReadPixels");
  const size_t stride = size_t(width) * 4;
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(pixels.begin() + y * stride, pixels.begin() + (y + 1) * stride,
                     pixels.begin() + (height - 1 - y) * stride);
  return pixels;
}

void save_framebuffer_png(const std::string& path, int width, int height) {
  auto rgba = read_framebuffer_rgba(width, height);
  write_png_rgba(path, width, height, rgba.data());
}

}  // namespace sweepline::render
