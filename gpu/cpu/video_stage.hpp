#pragma once
// The video stage on the CPU (gpu/video_math.hpp has the per-cell rules): the rows a frame
// changed are smoothed, gained, cleared of sea and rain clutter and of land, and written into the
// processed video that the scan converter reads; the clutter map and the statistics the automatic
// controls use are updated on the way.
#include <cstdint>
#include <vector>

#include "app/common/polar_frame.hpp"
#include "gpu/cpu/thread_pool.hpp"
#include "gpu/land_words.hpp"
#include "gpu/pipeline_types.hpp"

namespace sweepline::gpu::cpu {

// What the stage keeps from frame to frame (reset when the frame's shape changes).
struct VideoState {
  int azimuths = 0, bins = 0;
  std::vector<uint8_t> video;     // azimuths x bins: the processed video
  std::vector<uint8_t> map_mean;  // azimuths x bins: clutter map
  std::vector<uint8_t> map_dev;   // azimuths x bins
  std::vector<uint8_t> row_age;   // azimuths: map updates so far (saturating)
  // azimuths x kVideoBands x kVideoStatFields: each row's band statistics (video_control.hpp)
  std::vector<uint32_t> row_stats;
  // azimuths x land_words_per_row(bins): the land mask a bit per 8 cells (gpu/land_words.hpp)
  std::vector<uint32_t> land;
  void reset(int azimuths, int bins);  // everything zero
};

// Processes frame.dirty's rows. `sea_table` is kVideoSectors x kVideoBands (resolve_video).
void video_stage(ThreadPool& pool, const PolarFrame& frame, const VideoSetup& setup,
                 const std::vector<uint8_t>& sea_table, VideoState& state);

// One row, as the CUDA kernel does it: prev/cur/next are rows a-1, a, a+1 of the raw frame.
// Exposed for the tests' oracle comparisons.
void video_row(const uint8_t* prev, const uint8_t* cur, const uint8_t* next, int bins,
               const VideoSetup& setup, const uint8_t* sea_row, uint8_t* map_mean, uint8_t* map_dev,
               int age, uint8_t* out, uint32_t* band_stats);

}  // namespace sweepline::gpu::cpu
