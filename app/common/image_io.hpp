#pragma once
// 8-bit grey image files: binary PGM (P5) and PNG. Errors throw sweepline::Error with the path.
//
// Every size a file states is checked against the limits below before anything is allocated, so
// a small hostile file cannot make the reader ask for gigabytes (docs/limits.md lists them).
#include <cstdint>
#include <span>
#include <string>

#include "app/common/image.hpp"

namespace sweepline {

// Each side at most the largest display and texture size the renderer accepts.
inline constexpr int kMaxImageSide = 16384;
// 64 Mi pixels (8192 x 8192, four times the benchmarks' 4096 x 4096): reading the largest image
// takes about 0.5 GiB at most, whatever the file's colour type, depth and compression.
inline constexpr int64_t kMaxImagePixels = int64_t{8192} * 8192;
// A PNG decoded before its conversion to grey (width x height x channels x bytes per channel,
// alpha included): an 8-bit RGBA image of the largest pixel count. Also the most any one
// allocation of the PNG decoder may take, which bounds decompression bombs.
inline constexpr int64_t kMaxImageDecodedBytes = kMaxImagePixels * 4;

// Reads an 8-bit PGM (P5, maxval <= 255) or any PNG (converted to one grey channel).
Image8 read_image(const std::string& path);
// The same from bytes in memory; `name` is what error messages call the image.
Image8 decode_image(std::span<const uint8_t> bytes, const std::string& name);
void write_pgm(const std::string& path, const Image8& image);
void write_png(const std::string& path, const Image8& image);
// RGBA8, rows top to bottom.
void write_png_rgba(const std::string& path, int width, int height, const uint8_t* rgba);
// Picks PGM or PNG from the extension.
void write_image(const std::string& path, const Image8& image);

}  // namespace sweepline
