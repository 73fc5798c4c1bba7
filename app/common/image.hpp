#pragma once
// A plain row-major image owned by a vector. Width-major rows, no padding: what the CPU stages,
// the image files and the tests share.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sweepline {

template <class T>
struct Image {
  int width = 0;
  int height = 0;
  std::vector<T> pixels;

  Image() = default;
  Image(int w, int h, T fill = T{}) : width(w), height(h), pixels(size_t(w) * size_t(h), fill) {}

  T& at(int x, int y) { return pixels[size_t(y) * size_t(width) + size_t(x)]; }
  const T& at(int x, int y) const { return pixels[size_t(y) * size_t(width) + size_t(x)]; }
  T* row(int y) { return pixels.data() + size_t(y) * size_t(width); }
  const T* row(int y) const { return pixels.data() + size_t(y) * size_t(width); }
  size_t size() const { return pixels.size(); }
  bool empty() const { return pixels.empty(); }
  bool operator==(const Image&) const = default;
};

using Image8 = Image<uint8_t>;
using ImageI32 = Image<int32_t>;
using ImageF = Image<float>;

}  // namespace sweepline
