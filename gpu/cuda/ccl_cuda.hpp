#pragma once
// CUDA connected-component labelling: the device API for the pipeline and a host convenience.
// The product runs one algorithm, `fast` (CclLabeller). The papers' algorithms (`kang`,
// `propagate`) live in gpu/reference (library sweepline_reference) behind the same interface,
// CudaLabeller, and are reached through a LabellerFactory (reference::make_cuda_labeller), so the
// product never depends on them (docs/decisions/0001, 0008). Every labeller leaves the same label
// image (0 = background, 1..n in raster order of each component's first pixel) and the same
// statistics as ccl::label_cpu.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "gpu/ccl/ccl.hpp"

namespace sweepline::gpu::cuda {

// A CUDA labeller: owns the device scratch for one image size (allocated at the first label()
// of a size, kept across frames). Construction does no device work.
class CudaLabeller {
 public:
  virtual ~CudaLabeller() = default;
  CudaLabeller(const CudaLabeller&) = delete;
  CudaLabeller& operator=(const CudaLabeller&) = delete;

  // The algorithm this labeller runs; label() refuses parameters that name another.
  virtual ccl::Algorithm algorithm() const = 0;

  // Enqueues thresholding, optional hole filling, labelling, consecutive numbering, statistics
  // and the area filter on `stream`, with no host synchronisation. `d_image` (width x height
  // bytes, row-major, no padding) is on where > params.threshold; `d_intensity_or_null` weights
  // the centroids and gives the peaks. Both must stay valid until fetch() returns.
  virtual void label(const uint8_t* d_image, const uint8_t* d_intensity_or_null, int width,
                     int height, const ccl::LabelParams& params, cudaStream_t stream) = 0;

  // The int32 label image of the last label() call (valid once the stream reaches that point).
  virtual const int32_t* d_labels() const = 0;

  // Waits for the stream, then returns the components (and the label image if asked) with the
  // per-stage GPU times measured by CUDA events.
  virtual ccl::LabelResult fetch(bool with_label_image = true) = 0;

  // Waits for the stream and returns the per-stage GPU times of the last label() only (for
  // benchmarks: no copies).
  virtual StageTimes stage_times() = 0;

  // Device bytes held beyond the label image, and how many components the on-device statistics
  // hold (beyond that, fetch() computes the statistics from the label image on the host).
  virtual size_t scratch_bytes() const = 0;
  virtual int64_t statistics_capacity() const = 0;
  // For tests: a smaller statistics capacity, to exercise the overflow path. Takes effect at the
  // next label(), which reallocates.
  virtual void set_statistics_capacity_limit(int64_t limit) = 0;
  // The label image in memory the L2 may keep compressed (on by default where the device offers
  // it: a mostly empty frame's labels then cost little DRAM traffic). Off: plain cudaMalloc (for
  // A/B runs and tests). Takes effect at the next label(), which reallocates.
  virtual void set_compressible_memory(bool on) = 0;
  // Whether the label image of the last allocation is compressible (the driver may refuse).
  virtual bool compressible_memory() const = 0;

 protected:
  CudaLabeller() = default;
};

// Makes the labeller for an algorithm (throws sweepline::Error for one it does not provide).
using LabellerFactory = std::function<std::unique_ptr<CudaLabeller>(ccl::Algorithm)>;

struct CclState;  // CclLabeller's scratch and captured graph

// The product labeller: `fast` (tiled union-find over the runs of row pairs, numbering and
// statistics per tile; docs/labelling.md), the whole frame captured once as a CUDA graph and
// replayed. Device memory beyond the label image: 196.7 MB at 4096x4096 (scratch_bytes()).
class CclLabeller final : public CudaLabeller {
 public:
  CclLabeller();
  ~CclLabeller() override;

  ccl::Algorithm algorithm() const override { return ccl::Algorithm::Fast; }
  // Throws sweepline::Error, before any device work, when params.algorithm is not `fast`.
  void label(const uint8_t* d_image, const uint8_t* d_intensity_or_null, int width, int height,
             const ccl::LabelParams& params, cudaStream_t stream) override;
  const int32_t* d_labels() const override;
  ccl::LabelResult fetch(bool with_label_image = true) override;
  StageTimes stage_times() override;
  size_t scratch_bytes() const override;
  int64_t statistics_capacity() const override;
  void set_statistics_capacity_limit(int64_t limit) override;
  void set_compressible_memory(bool on) override;
  bool compressible_memory() const override;

  // For benchmarks: run without the graph, with an event after each kernel group, so
  // stage_times() breaks the frame down (slower: launch gaps are included).
  void set_profile_stages(bool on);
  // For benchmarks: no statistics (labels and consecutive ids 1..n only, as
  // cupyx.scipy.ndimage.label gives). fetch() then returns the count and the label image, no
  // components; label() refuses an area filter.
  void set_statistics(bool on);

 private:
  std::unique_ptr<CclState> s_;
};

// The product's factory: a CclLabeller for `fast`; throws sweepline::Error for the reference
// algorithms (reference::make_cuda_labeller makes those).
std::unique_ptr<CudaLabeller> make_product_labeller(ccl::Algorithm algorithm);

// The labeller for whichever algorithm the parameters name: made by the factory at the first
// label() and again when the algorithm changes (the CUDA pipeline holds one, so that the
// console's algorithm setting reaches the labeller without the product depending on the
// reference library).
class SelectedLabeller {
 public:
  // An empty factory means make_product_labeller.
  explicit SelectedLabeller(LabellerFactory factory = {});
  void label(const uint8_t* d_image, const uint8_t* d_intensity_or_null, int width, int height,
             const ccl::LabelParams& params, cudaStream_t stream);
  // Of the last label() (null / empty before the first).
  const int32_t* d_labels() const;
  ccl::LabelResult fetch(bool with_label_image = true);
  CudaLabeller* current() const { return current_.get(); }

 private:
  LabellerFactory factory_;
  std::unique_ptr<CudaLabeller> current_;
};

}  // namespace sweepline::gpu::cuda

namespace sweepline::ccl {

// Uploads, labels on the GPU with the labeller `make` gives for params.algorithm (empty: the
// product's, `fast` only), downloads. Throws sweepline::Error when no CUDA device is usable or
// the factory lacks the algorithm.
LabelResult label_cuda(const Image8& binary, const LabelParams& params,
                       const Image8* intensity = nullptr,
                       const gpu::cuda::LabellerFactory& make = {});

}  // namespace sweepline::ccl
