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
  uint8_t* map_mean = nullptr;
  uint8_t* map_dev = nullptr;
  uint8_t* row_age = nullptr;  // azimuths
  // azimuths x kVideoBands x kVideoStatFields (gpu/video_control.hpp's VideoStat order)
  uint32_t* row_stats = nullptr;
  const uint8_t* sea = nullptr;      // kVideoSectors x kVideoBands
  uint64_t* sector_stats = nullptr;  // kVideoSectors x kVideoBands x kVideoStatFields
};

// The owner of that state: sized for a frame shape and cleared (no history) by reset().
struct VideoDeviceState {
  DeviceBuffer<uint8_t> video, map_mean, map_dev, row_age, sea;
  DeviceBuffer<uint32_t> row_stats;
  DeviceBuffer<uint64_t> sector_stats;
  void reset(int azimuths, int bins, cudaStream_t stream);
  VideoBuffers buffers(const uint8_t* d_polar);
};

// Processes rows [first, first + count) (wrapping through north), then reduces every row's band
// sums to the sector sums (gpu/video_control.hpp's SectorSums).
void launch_video(const VideoSetup& setup, const VideoBuffers& b, int first, int count,
                  cudaStream_t stream);

}  // namespace sweepline::gpu::cuda
