#pragma once
// The video stage on the GPU (gpu/cuda/video_kernels.cu): gpu/video_math.hpp per cell, the same
// values as the CPU stage (gpu/cpu/video_stage.hpp). The launchers enqueue on the given stream
// and never wait for the device.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/pipeline_types.hpp"
#include "gpu/video_control.hpp"

namespace sweepline::gpu::cuda {

// Device state of the stage, each azimuths x bins unless said (the caller owns it).
struct VideoBuffers {
  const uint8_t* polar = nullptr;  // the raw frame
  uint8_t* video = nullptr;        // the processed video
  // The clutter map, mean | dev << 8 a cell, in two copies: a row is read from
  // map[row_parity] and written to the other, so a block may read its neighbours' cells while
  // they are being updated.
  uint16_t* map[2] = {nullptr, nullptr};
  uint8_t* row_age = nullptr;     // azimuths
  uint8_t* row_parity = nullptr;  // azimuths: which copy holds the row (flips when processed)
  // azimuths x kVideoBands x kVideoStatFields (gpu/video_control.hpp's VideoStat order)
  uint32_t* row_stats = nullptr;
  const uint8_t* sea = nullptr;      // kVideoTableSize: sea levels, then clip levels
  uint64_t* sector_stats = nullptr;  // kVideoSectors x kVideoBands x kVideoStatFields
};

// The owner of that state: sized for a frame shape and cleared (no history) by reset().
struct VideoDeviceState {
  DeviceBuffer<uint8_t> video, row_age, row_parity, sea;
  DeviceBuffer<uint16_t> map[2];
  DeviceBuffer<uint32_t> row_stats;
  DeviceBuffer<uint64_t> sector_stats;
  DeviceBuffer<uint32_t> land;  // azimuths x land_words_per_row(bins) (gpu/land_words.hpp)
  void reset(int azimuths, int bins, cudaStream_t stream);
  VideoBuffers buffers(const uint8_t* d_polar);
};

// Processes rows [first, first + count) (wrapping through north), then reduces every row's band
// sums to the sector sums (gpu/video_control.hpp's SectorSums).
// The cells a block takes along range: whole bands, about 1024 cells.
int video_chunk_cells(int band_bins);

void launch_video(const VideoSetup& setup, const VideoBuffers& b, int first, int count,
                  cudaStream_t stream);

// The land words (gpu/land_words.hpp) of rows [first, first + count) (wrapping through north)
// from the processed video, as land_words_row() does on the host.
void launch_land_words(const uint8_t* video, int azimuths, int bins, int first, int count,
                       uint32_t* land, cudaStream_t stream);

}  // namespace sweepline::gpu::cuda
