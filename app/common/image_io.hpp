#pragma once
// 8-bit grey image files: binary PGM (P5) and PNG. Errors throw sweepline::Error with the path.
#include <string>

#include "app/common/image.hpp"

namespace sweepline {

// Reads an 8-bit PGM (P5, maxval <= 255) or any PNG (converted to one grey channel).
Image8 read_image(const std::string& path);
void write_pgm(const std::string& path, const Image8& image);
void write_png(const std::string& path, const Image8& image);
// RGBA8, rows top to bottom.
void write_png_rgba(const std::string& path, int width, int height, const uint8_t* rgba);
// Picks PGM or PNG from the extension.
void write_image(const std::string& path, const Image8& image);

}  // namespace sweepline
