#pragma once
// The land mask of the video stage as a bit per group of kLandGroupCells cells along range, a
// row of words per azimuth: small enough to copy to the host every frame, fine enough (a group is
// 8 range cells) to tell a plot at a coast or an island's edge from one in open water. Both
// backends derive it from the processed video (a cell is land when the video stage wrote
// kVideoLand there), so their plots' near-land flags agree whenever their video does.
#include <cstdint>
#include <vector>

namespace sweepline::gpu {

inline constexpr int kLandGroupCells = 8;
inline constexpr int kLandGroupsPerWord = 32;
inline constexpr int kLandWordCells = kLandGroupCells * kLandGroupsPerWord;  // 256

inline int land_words_per_row(int bins) {
  return (bins + kLandWordCells - 1) / kLandWordCells;
}

// One row of processed video (bins cells) to its land words: bit g % 32 of word g / 32 is set
// when any cell of group g (cells 8g .. 8g + 7) is land.
void land_words_row(const uint8_t* video_row, int bins, uint32_t* words);

// A read-only view of a frame's land words (azimuths x words_per_row) and of the clutter map's
// row ages (azimuths: how many times it has seen each row), or empty.
struct LandView {
  const uint32_t* words = nullptr;
  const uint8_t* row_age = nullptr;
  int azimuths = 0, bins = 0, words_per_row = 0;
  bool empty() const {
    return words == nullptr || row_age == nullptr || azimuths <= 0 || bins <= 0;
  }
  // Any land in rows [a0, a1] (inclusive, taken modulo azimuths; a1 >= a0) and cells [c0, c1]
  // (clamped to the row).
  bool any(int a0, int a1, int c0, int c1) const;
  // The map has seen every row of [a0, a1] often enough (kLandMinAge) to tell land there.
  bool known(int a0, int a1) const;
};

}  // namespace sweepline::gpu
