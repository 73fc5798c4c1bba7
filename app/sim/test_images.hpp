#pragma once
// Synthetic binary test images for labelling (the papers' test images and random noise).
// On pixels are 255, off pixels 0; the same spec, size and seed give the same image everywhere.
#include <cstdint>
#include <string>

#include "app/common/image.hpp"

namespace sweepline::sim {

// spec: "random:DENSITY" (each pixel on with probability DENSITY in [0, 1]), "spirals" (two long
// interleaved spirals that never touch, even 8-connected: papers 000/001 test image A), "stars"
// (scattered filled stars, two of them joined by a thin zig-zag line: test image B).
// "vessels:N" (N ship-like ellipses that never touch, for radar-like frames as in paper 000's
// Table 1: exactly N 8-connected components; 4-connectivity can split a thin one).
// Throws sweepline::Error on a bad spec or size.
Image8 make_test_image(const std::string& spec, int width, int height, uint64_t seed);

}  // namespace sweepline::sim
