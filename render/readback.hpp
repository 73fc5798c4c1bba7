#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sweepline::render {

// Reads the bound read framebuffer as RGBA8, rows top to bottom (GL's are bottom-up).
std::vector<uint8_t> read_framebuffer_rgba(int width, int height);
// The same, written as a PNG.
void save_framebuffer_png(const std::string& path, int width, int height);

}  // namespace sweepline::render
