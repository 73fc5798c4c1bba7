#pragma once
// The video stage's controls: the operator's Gain, Sea and Rain (VideoParams) and the picture's
// measured statistics turned into a VideoSetup and a sea table, on the host, the same for both
// backends (each measures the statistics on its own and hands them here).
#include <cstdint>
#include <vector>

#include "app/common/polar_frame.hpp"
#include "gpu/pipeline_types.hpp"

namespace sweepline::gpu {

// The statistics a row's bands collect (kVideoStatFields uint32 per band, in this order): the sum
// of the smoothed levels of the cells that are not land and their count; the sum of the clutter
// map's mean deviation over the cells whose map has settled (kMapSettle rotations) and their count.
enum VideoStat { kStatSum = 0, kStatCount = 1, kStatDevSum = 2, kStatDevCount = 3 };
inline constexpr int kVideoStatFields = 4;

// The picture's statistics per azimuth sector and range band (kVideoSectors x kVideoBands,
// row-major by sector): the mean smoothed level and the mean map deviation, each negative where
// there is no data yet.
struct VideoStats {
  std::vector<float> mean, dev;
  bool empty() const { return mean.empty(); }
};

// Per sector and band, the row statistics summed (kVideoSectors x kVideoBands x
// kVideoStatFields). Both backends reduce their rows to these integers; the means follow from them
// on the host, the same for both.
struct SectorSums {
  std::vector<uint64_t> v;
};
// From per-row band statistics (azimuths x kVideoBands x kVideoStatFields).
SectorSums sector_sums(const std::vector<uint32_t>& row_stats, int azimuths);
VideoStats video_stats(const SectorSums& sums);

// The receiver noise floor the auto gain uses: kNoiseQuantile up the sorted means (kNoiseTarget
// without statistics).
double noise_floor(const VideoStats& stats);

// Everything the stage applies this frame. `sea_table` becomes kVideoSectors x kVideoBands.
// Throws sweepline::Error on a knob out of 0..100 (the message names it).
VideoSetup resolve_video(const VideoParams& p, const PolarFrame& frame, const VideoStats& stats,
                         std::vector<uint8_t>& sea_table);

// Checks the knobs (0..100, finite); throws sweepline::Error naming the bad one.
void validate(const VideoParams& p);

}  // namespace sweepline::gpu
