#include "app/common/image_io.hpp"

#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>

#include "app/common/check.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_ONLY_PNG
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace sweepline {

namespace {

// Largest image we accept from a file: 32768^2 pixels, so a bad header cannot ask for terabytes.
constexpr long long kMaxPixels = 32768LL * 32768LL;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Reads the next PGM header token, skipping whitespace and '#' comments.
bool pgm_token(std::istream& in, long long& value) {
  int c = in.get();
  while (c != EOF) {
    if (c == '#') {
      while (c != EOF && c != '\n') c = in.get();
    } else if (!std::isspace(c)) {
      break;
    }
    c = in.get();
  }
  if (c == EOF || !std::isdigit(c)) return false;
  value = 0;
  while (c != EOF && std::isdigit(c)) {
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<int>::max()) return false;
    c = in.get();
  }
  return true;  // the single whitespace after the token is consumed
}

Image8 read_pgm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  SWL_CHECK(in, "cannot open image '" + path + "'");
  char magic[2] = {};
  in.read(magic, 2);
  SWL_CHECK(in && magic[0] == 'P' && magic[1] == '5', "'" + path + "' is not a binary PGM (P5)");
  long long w = 0, h = 0, maxval = 0;
  SWL_CHECK(pgm_token(in, w) && pgm_token(in, h) && pgm_token(in, maxval),
            "'" + path + "': malformed PGM header");
  SWL_CHECK(w > 0 && h > 0 && w * h <= kMaxPixels, "'" + path + "': bad PGM size");
  SWL_CHECK(maxval > 0 && maxval <= 255, "'" + path + "': only 8-bit PGM is supported");
  Image8 img{static_cast<int>(w), static_cast<int>(h)};
  in.read(reinterpret_cast<char*>(img.pixels.data()), std::streamsize(img.size()));
  SWL_CHECK(in.gcount() == std::streamsize(img.size()), "'" + path + "': PGM pixel data truncated");
  return img;
}

}  // namespace

Image8 read_image(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  SWL_CHECK(f, "cannot open image '" + path + "'");
  unsigned char sig[8] = {};
  size_t n = std::fread(sig, 1, sizeof sig, f);
  std::fclose(f);
  if (n >= 2 && sig[0] == 'P' && sig[1] == '5') return read_pgm(path);
  SWL_CHECK(n == 8 && sig[0] == 0x89 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G',
            "'" + path + "' is neither a binary PGM nor a PNG");
  int w = 0, h = 0, comp = 0;
  SWL_CHECK(stbi_info(path.c_str(), &w, &h, &comp), "'" + path + "': malformed PNG");
  SWL_CHECK(w > 0 && h > 0 && (long long)w * h <= kMaxPixels, "'" + path + "': bad PNG size");
  std::unique_ptr<unsigned char, void (*)(void*)> data(stbi_load(path.c_str(), &w, &h, &comp, 1),
                                                      stbi_image_free);
  SWL_CHECK(data, "'" + path + "': cannot decode PNG: " + stbi_failure_reason());
  Image8 img(w, h);
  std::copy(data.get(), data.get() + img.size(), img.pixels.begin());
  return img;
}

void write_pgm(const std::string& path, const Image8& image) {
  std::ofstream out(path, std::ios::binary);
  SWL_CHECK(out, "cannot write '" + path + "'");
  out << "P5\n" << image.width << " " << image.height << "\n255\n";
  out.write(reinterpret_cast<const char*>(image.pixels.data()), std::streamsize(image.size()));
  SWL_CHECK(out, "write failed for '" + path + "'");
}

void write_png(const std::string& path, const Image8& image) {
  SWL_CHECK(stbi_write_png(path.c_str(), image.width, image.height, 1, image.pixels.data(),
                           image.width),
            "cannot write PNG '" + path + "'");
}

void write_png_rgba(const std::string& path, int width, int height, const uint8_t* rgba) {
  SWL_CHECK(stbi_write_png(path.c_str(), width, height, 4, rgba, width * 4),
            "cannot write PNG '" + path + "'");
}

void write_image(const std::string& path, const Image8& image) {
  if (ends_with(path, ".png") || ends_with(path, ".PNG"))
    write_png(path, image);
  else
    write_pgm(path, image);
}

}  // namespace sweepline
