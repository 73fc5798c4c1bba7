#pragma once
// What every CUDA labeller shares (the product's `fast` and the reference algorithms of
// gpu/reference): the device scratch for one image size, the start of a frame (checks,
// allocation, hole filling), the per-stage events and fetch() with its host fallback for frames
// with more components than the statistics hold.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>

#include "app/common/stage_timing.hpp"
#include "gpu/ccl/ccl.hpp"
#include "gpu/cuda/ccl_kernels.hpp"
#include "gpu/cuda/compressible_memory.hpp"
#include "gpu/cuda/cuda_resources.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

// Where a frame keeps its statistics (Stats): arrays, 32-byte records with the spanning
// components' area and box in arrays, or records alone (docs/decisions/0005).
enum class StatsLayout { Arrays, Records, SpanRecords };

class CclScratch {
 public:
  CclScratch() = default;  // no device work before the first begin_frame()
  CclScratch(const CclScratch&) = delete;
  CclScratch& operator=(const CclScratch&) = delete;

  // The image a frame's labelling reads: the caller's, or the hole-filled mask (threshold 0).
  struct Input {
    const uint8_t* image = nullptr;
    uint8_t threshold = 0;
  };
  // Checks the parameters and the size, (re)allocates for the size, marks "start", fills the
  // holes when params.fill_holes (paper 003). The statistics layout is Arrays until
  // set_layout(); with_stats is on.
  Input begin_frame(const uint8_t* d_image, const uint8_t* d_intensity, int width, int height,
                    const ccl::LabelParams& params, cudaStream_t stream);
  void set_layout(StatsLayout layout);

  Workspace& ws() { return ws_; }
  StageEvents& events() { return events_; }
  // Changes whenever the buffers are reallocated (a captured graph holds their addresses).
  uint64_t generation() const { return generation_; }

  // After a frame: waits for its stream, then the per-stage GPU times.
  StageTimes stage_times();
  // Waits for the stream, then the device's counts: [0] components, [1] kept by the area filter,
  // [2] kang's count.
  std::array<int32_t, 4> counts();
  // Waits, then the components through the area filter (statistics from the device, or from
  // the label image on the host when they overflowed), with the label image if asked.
  ccl::LabelResult fetch(bool with_label_image);

  const int32_t* d_labels() const { return ws_.labels; }
  size_t scratch_bytes() const;
  int64_t statistics_capacity() const { return ws_.capacity; }
  void set_statistics_capacity_limit(int64_t limit);
  void set_compressible_memory(bool on);
  bool compressible_memory() const { return labels_comp_.compressed(); }

 private:
  void allocate(int w, int h);

  Workspace ws_;
  DeviceBuffer<int32_t> uf_, count_;
  DeviceBuffer<uint32_t> on_bits_, root_bits_, block_counts_, newid_, keep_bits_;
  DeviceBuffer<uint8_t> blob_;
  // The label image: compressible where asked for and granted, else plain.
  CompressibleMemory labels_comp_;
  DeviceBuffer<int32_t> labels_plain_;
  // The layouts of the statistics in the blob (StatsLayout).
  Stats array_stats_, record_stats_, span_stats_;
  int64_t capacity_limit_ = kStatisticsCapacity;
  bool compressible_ = kCompressibleLabelImage;
  bool reallocate_ = false;  // a setting changed: reallocate at the next frame
  uint64_t generation_ = 0;
  StageEvents events_;
  // The frame as last begun.
  cudaStream_t stream_ = nullptr;
  ccl::LabelParams params_;
  const uint8_t* d_intensity_ = nullptr;
  bool pending_ = false;
};

}  // namespace sweepline::gpu::cuda::ccl_detail
