#pragma once
// A small PNG reader for the render tests: 8-bit RGB/RGBA/grey, non-interlaced (what the project
// writes), all five row filters. Returns RGBA8, rows top to bottom.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sweepline::test {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<uint8_t> px;  // RGBA
  const uint8_t* at(int x, int y) const {
    return px.data() + (size_t(y) * size_t(width) + size_t(x)) * 4;
  }
};

inline RgbaImage read_png_rgba(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (d.size() < 8 || d[1] != 'P' || d[2] != 'N' || d[3] != 'G')
    throw std::runtime_error("not a PNG: " + path);
  auto be32 = [&](size_t p) {
    return uint32_t(d[p]) << 24 | uint32_t(d[p + 1]) << 16 | uint32_t(d[p + 2]) << 8 | d[p + 3];
  };
  RgbaImage img;
  int ctype = 0, depth = 0;
  std::vector<uint8_t> idat;
  for (size_t p = 8; p + 8 <= d.size();) {
    const uint32_t n = be32(p);
    const std::string kind(reinterpret_cast<const char*>(&d[p + 4]), 4);
    if (p + 12 + n > d.size()) throw std::runtime_error("truncated PNG: " + path);
    if (kind == "IHDR") {
      img.width = int(be32(p + 8));
      img.height = int(be32(p + 12));
      depth = d[p + 16];
      ctype = d[p + 17];
      if (d[p + 20] != 0) throw std::runtime_error("interlaced PNG not supported");
    } else if (kind == "IDAT") {
      idat.insert(idat.end(), d.begin() + long(p + 8), d.begin() + long(p + 8 + n));
    }
    p += 12 + n;
  }
  const int channels = ctype == 6 ? 4 : ctype == 2 ? 3 : ctype == 0 ? 1 : ctype == 4 ? 2 : 0;
  if (depth != 8 || channels == 0) throw std::runtime_error("unsupported PNG format in " + path);
  const size_t stride = size_t(img.width) * size_t(channels);
  std::vector<uint8_t> raw((stride + 1) * size_t(img.height));
  uLongf raw_len = uLongf(raw.size());
  if (uncompress(raw.data(), &raw_len, idat.data(), uLong(idat.size())) != Z_OK ||
      raw_len != raw.size())
    throw std::runtime_error("bad PNG data in " + path);
  std::vector<uint8_t> cur(stride), prev(stride, 0);
  img.px.resize(size_t(img.width) * size_t(img.height) * 4);
  for (int y = 0; y < img.height; ++y) {
    const uint8_t* row = raw.data() + size_t(y) * (stride + 1);
    const int filter = row[0];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= size_t(channels) ? cur[i - size_t(channels)] : 0;
      const int b = prev[i];
      const int c = i >= size_t(channels) ? prev[i - size_t(channels)] : 0;
      int v = row[1 + i];
      switch (filter) {
        case 1:
          v += a;
          break;
        case 2:
          v += b;
          break;
        case 3:
          v += (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          v += (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c;
          break;
        }
        default:
          break;
      }
      cur[i] = uint8_t(v);
    }
    for (int x = 0; x < img.width; ++x) {
      uint8_t* o = img.px.data() + (size_t(y) * size_t(img.width) + size_t(x)) * 4;
      const uint8_t* s = cur.data() + size_t(x) * size_t(channels);
      if (channels >= 3) {
        o[0] = s[0], o[1] = s[1], o[2] = s[2], o[3] = channels == 4 ? s[3] : 255;
      } else {
        o[0] = o[1] = o[2] = s[0], o[3] = channels == 2 ? s[1] : 255;
      }
    }
    std::swap(cur, prev);
  }
  return img;
}

}  // namespace sweepline::test
