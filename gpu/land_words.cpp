#include "gpu/land_words.hpp"

#include <algorithm>

#include "gpu/video_math.hpp"
#include "gpu/video_tuning.hpp"

namespace sweepline::gpu {

void land_words_row(const uint8_t* video_row, int bins, uint32_t* words) {
  const int wpr = land_words_per_row(bins);
  std::fill(words, words + wpr, 0u);
  for (int c = 0; c < bins; ++c)
    if (video_row[c] == kVideoLand) {
      const int g = c / kLandGroupCells;
      words[g / kLandGroupsPerWord] |= 1u << (g % kLandGroupsPerWord);
    }
}

bool LandView::any(int a0, int a1, int c0, int c1) const {
  if (empty()) return false;
  c0 = std::max(c0, 0);
  c1 = std::min(c1, bins - 1);
  if (c0 > c1) return false;
  a1 = std::min(a1, a0 + azimuths - 1);  // at most every row once
  const int g0 = c0 / kLandGroupCells, g1 = c1 / kLandGroupCells;
  for (int a = a0; a <= a1; ++a) {
    const uint32_t* row = words + size_t(((a % azimuths) + azimuths) % azimuths) * words_per_row;
    for (int g = g0; g <= g1;) {
      const int w = g / kLandGroupsPerWord, lo = g % kLandGroupsPerWord;
      const int hi = std::min(kLandGroupsPerWord - 1, lo + (g1 - g));
      const uint32_t mask = (hi == 31 ? ~0u : ((1u << (hi + 1)) - 1u)) & ~((1u << lo) - 1u);
      if (row[w] & mask) return true;
      g += hi - lo + 1;
    }
  }
  return false;
}

bool LandView::known(int a0, int a1) const {
  if (empty()) return false;
  a1 = std::min(a1, a0 + azimuths - 1);
  for (int a = a0; a <= a1; ++a)
    if (row_age[((a % azimuths) + azimuths) % azimuths] < kLandMinAge) return false;
  return true;
}

}  // namespace sweepline::gpu
