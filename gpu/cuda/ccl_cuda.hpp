#pragma once
// CUDA connected-component labelling: the device API for the pipeline and a host convenience.
// Every algorithm leaves the same label image (0 = background, 1..n in raster order of each
// component's first pixel) and the same statistics as ccl::label_cpu.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "gpu/ccl/ccl.hpp"

namespace sweepline::gpu::cuda {

struct CclState;  // device scratch, events, the captured graph

// Owns the device scratch for one image size (allocated once per size, kept across frames).
// Device memory beyond the label image: 196.7 MB at 4096x4096 (see scratch_bytes()).
class CclLabeller {
 public:
  CclLabeller();
  ~CclLabeller();
  CclLabeller(CclLabeller&&) noexcept;
  CclLabeller& operator=(CclLabeller&&) noexcept;
  CclLabeller(const CclLabeller&) = delete;
  CclLabeller& operator=(const CclLabeller&) = delete;

  // Enqueues thresholding, optional hole filling, labelling, consecutive numbering, statistics
  // and the area filter on `stream`, with no host synchronisation. `d_image` (width x height
  // bytes, row-major, no padding) is on where > params.threshold; `d_intensity_or_null` weights
  // the centroids and gives the peaks. Both must stay valid until fetch() returns.
  void label(const uint8_t* d_image, const uint8_t* d_intensity_or_null, int width, int height,
             const ccl::LabelParams& params, cudaStream_t stream);

  // The int32 label image of the last label() call (valid once the stream reaches that point).
  const int32_t* d_labels() const;

  // Waits for the stream, then returns the components (and the label image if asked) with the
  // per-stage GPU times measured by CUDA events.
  ccl::LabelResult fetch(bool with_label_image = true);

  // Waits for the stream and returns the per-stage GPU times of the last label() only (for
  // benchmarks: no copies).
  StageTimes stage_times();

  // Device bytes held beyond the label image, and how many components the on-device statistics
  // hold (beyond that, fetch() computes the statistics from the label image on the host).
  size_t scratch_bytes() const;
  int64_t statistics_capacity() const;
  // For benchmarks: run `fast` without its graph, with an event after each kernel group, so
  // stage_times() breaks the frame down (slower: launch gaps are included).
  void set_profile_stages(bool on);
  // For benchmarks: `fast` without statistics (labels and consecutive ids 1..n only, as
  // cupyx.scipy.ndimage.label gives). fetch() then returns the count and the label image, no
  // components; label() refuses an area filter. Other algorithms still compute statistics.
  void set_statistics(bool on);
  // For tests: a smaller statistics capacity, to exercise the overflow path.
  void set_statistics_capacity_limit(int64_t limit);
  // The label image in memory the L2 may keep compressed (the default where the device offers
  // it; SWEEPLINE_CCL_COMPRESSIBLE=0 turns it off): a mostly empty frame's labels then cost
  // little DRAM traffic. Off: plain cudaMalloc (for A/B runs and tests). Takes effect at the
  // next label(), which reallocates.
  void set_compressible_memory(bool on);
  // Whether the label image of the last allocation is compressible (the driver may refuse).
  bool compressible_memory() const;

 private:
  std::unique_ptr<CclState> s_;
};

}  // namespace sweepline::gpu::cuda

namespace sweepline::ccl {

// Uploads, labels on the GPU, downloads. Throws sweepline::Error when no CUDA device is usable.
LabelResult label_cuda(const Image8& binary, const LabelParams& params,
                       const Image8* intensity = nullptr);

}  // namespace sweepline::ccl
