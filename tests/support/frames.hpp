#pragma once
// Test frames for the pipeline tests (also used by tests/gpu): random speckle and structured
// scenes (rings, spokes, point targets, blobs), deterministic by seed.
#include <cmath>
#include <cstdint>
#include <random>

#include "app/common/polar_frame.hpp"

namespace sweepline::testing {

inline PolarFrame random_frame(int az, int bins, double range_m, uint32_t seed) {
  PolarFrame f(az, bins, range_m);
  std::mt19937 rng(seed);
  for (auto& c : f.cells) c = uint8_t(rng() & 0xFF);
  return f;
}

// Speckle noise, rings and spokes, isolated single-cell targets and extended blobs.
inline PolarFrame structured_frame(int az, int bins, double range_m, uint32_t seed) {
  PolarFrame f(az, bins, range_m);
  std::mt19937 rng(seed);
  std::exponential_distribution<double> speckle(1.0 / 12.0);
  for (auto& c : f.cells) c = uint8_t(std::min(255.0, speckle(rng)));
  for (int a = 0; a < az; ++a) {
    uint8_t* row = f.row(a);
    for (int r = bins / 3; r < bins / 3 + 3; ++r) row[r] = 200;  // a ring
    if (a % (az / 8) == 0)
      for (int r = 0; r < bins; ++r) row[r] = 180;  // spokes
  }
  std::uniform_int_distribution<int> ua(0, az - 1), ur(0, bins - 1);
  for (int i = 0; i < 40; ++i) f.row(ua(rng))[ur(rng)] = 255;  // point targets
  for (int i = 0; i < 12; ++i) {                               // blobs
    const int a0 = ua(rng), r0 = ur(rng), da = 2 + int(rng() % 6), dr = 2 + int(rng() % 10);
    for (int a = a0; a < a0 + da; ++a)
      for (int r = r0; r < std::min(bins, r0 + dr); ++r)
        f.row(a % az)[r] = uint8_t(150 + rng() % 100);
  }
  return f;
}

}  // namespace sweepline::testing
