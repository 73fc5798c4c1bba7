#include "render/display_textures.hpp"

#include <vector>

#include "gpu/pipeline.hpp"
#include "render/gl_check.hpp"

namespace sweepline::render {

namespace {

void allocate(GLuint tex, GLint internal, GLenum format, int w, int h, bool nearest) {
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, internal, w, h, 0, format, GL_UNSIGNED_BYTE, nullptr);
  const GLint filter = nearest ? GL_NEAREST : GL_LINEAR;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  // Zero the texture so that a frame that has not been processed yet shows as empty.
  std::vector<uint8_t> zero(size_t(w) * size_t(h) * (format == GL_RGBA ? 4 : 1), 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, format, GL_UNSIGNED_BYTE, zero.data());
}

}  // namespace

bool DisplayTextures::ensure(int width, int height) {
  SWL_CHECK(
      width > 0 && height > 0 && width <= 16384 && height <= 16384,
      "display texture size out of range: " + std::to_string(width) + "x" + std::to_string(height));
  if (width == width_ && height == height_ && tex_[0]) return false;
  for (int i = 0; i < kLayerCount; ++i) {
    tex_[i] = make_texture();
    if (Layer(i) == Layer::Labels)
      allocate(tex_[i].get(), GL_RGBA8, GL_RGBA, width, height, true);
    else
      allocate(tex_[i].get(), GL_R8, GL_RED, width, height, false);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("display texture allocation");
  width_ = width;
  height_ = height;
  ++generation_;
  return true;
}

void DisplayTextures::upload(const Image8* scan, const Image8* denoised, const Image8* binary,
                             const ImageI32* labels, const std::vector<int32_t>* label_ids) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const Image8* grey[3] = {scan, denoised, binary};
  for (int i = 0; i < 3; ++i) {
    if (!grey[i] || grey[i]->empty()) continue;
    SWL_CHECK(grey[i]->width == width_ && grey[i]->height == height_,
              "display image size mismatch");
    glBindTexture(GL_TEXTURE_2D, tex_[i].get());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RED, GL_UNSIGNED_BYTE,
                    grey[i]->pixels.data());
  }
  if (labels && !labels->empty()) {
    SWL_CHECK(labels->width == width_ && labels->height == height_, "label image size mismatch");
    rgba_.resize(labels->pixels.size());
    const int32_t* l = labels->pixels.data();
    if (label_ids)
      for (size_t i = 0; i < rgba_.size(); ++i) rgba_[i] = gpu::identity_colour(*label_ids, l[i]);
    else
      for (size_t i = 0; i < rgba_.size(); ++i) rgba_[i] = gpu::label_colour(l[i]);
    glBindTexture(GL_TEXTURE_2D, tex_[int(Layer::Labels)].get());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE,
                    rgba_.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  ++generation_;
  check_gl("display texture upload");
}

void DisplayTextures::clear_labels() {
  std::vector<uint32_t> zero(size_t(width_) * size_t(height_), 0u);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, tex_[int(Layer::Labels)].get());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, zero.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  ++generation_;
}

}  // namespace sweepline::render
