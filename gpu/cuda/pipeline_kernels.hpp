#pragma once
// Host-side launchers of the CUDA pipeline's kernels, each enqueued on the given stream with no
// host synchronisation. Exposed for the pipeline class, the tests and the benchmarks. Images are
// W x H, row pitch W; the separable filters' intermediate is 8.8 fixed point (uint16).
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <array>
#include <cstdint>
#include <vector>

#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/pipeline_types.hpp"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu::cuda {

// A device image, optionally also written to a surface (cudaSurfaceObject_t; 0 = none).
struct Out8 {
  uint8_t* d = nullptr;
  unsigned long long surf = 0;
};

// Max-hold first builds the azimuth pyramid of d_polar into d_pyramid (az_pyramid_cells()
// bytes, gpu/scan_math.hpp); the other modes ignore it (may be null).
void launch_scan(const ScanSetup& setup, const uint8_t* d_polar, ScanMode mode, Out8 out,
                 uint8_t* d_pyramid, cudaStream_t stream);
void launch_az_pyramid(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                       cudaStream_t stream);

// Max-hold through a per-pixel span table: a pixel's span depends only on the geometry, so the
// table (4 bytes a pixel) is built once per ScanSetup and each frame only gathers (same cells,
// same maximum as launch_scan). Pixels whose span is wider than 4 bins x 16 azimuths (near the
// radar) are gathered as launch_scan does; geometries the table cannot encode (>= 8191 bins,
// > 8192 azimuths) use launch_scan. The frame's buffer must be 4-byte aligned (cudaMalloc's is).
class MaxHoldTable {
 public:
  void scan(const ScanSetup& setup, const uint8_t* d_polar, uint8_t* d_pyramid, Out8 out,
            cudaStream_t stream);
  // Enqueues the table build if the geometry changed (scan() calls it).
  void prepare(const ScanSetup& setup, cudaStream_t stream);
  void invalidate() { valid_ = false; }
  // Thread mapping of the gather pass: a warp per 16 x 8 pixels (default) or per 128 x 1 row
  // run (kept for the benchmark and the tests).
  void set_tile2d(bool on) { tile2d_ = on; }
  static bool usable(const ScanSetup& setup);

 private:
  DeviceBuffer<uint32_t> d_lut_;
  ScanSetup setup_{};
  bool valid_ = false, tile2d_ = true;
};

void launch_gaussian_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                          const std::vector<float>& weights, GaussianImpl impl,
                          cudaStream_t stream);
void launch_gaussian_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                          const std::vector<float>& weights, cudaStream_t stream);

// Both Gaussian passes in one kernel (GaussianImpl::Fused): no intermediate image.
void launch_gaussian_fused(const uint8_t* d_in, Out8 out, int w, int h,
                           const std::vector<float>& weights, cudaStream_t stream);

void launch_bilateral_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);
void launch_bilateral_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);

// mask (azimuths x bins) = 255 at CFAR detections.
void launch_cfar(const uint8_t* d_polar, uint8_t* d_mask, int azimuths, int bins, int guard,
                 int train, double pfa, cudaStream_t stream);

void launch_threshold(const uint8_t* d_in, Out8 out, int w, int h, uint8_t t, cudaStream_t stream);

// out = in (DenoiseMode::None), also into out's surface.
void launch_copy(const uint8_t* d_in, Out8 out, int w, int h, cudaStream_t stream);

// RGBA8 label colours (gpu::label_colour) into a surface.
void launch_label_colour(const int32_t* d_labels, unsigned long long surf, int w, int h,
                         cudaStream_t stream);

// Paper 004's block FFT enhancement with batched cuFFT (R2C, scale, C2R) over chunks of 4096
// windows; owns its plans and chunk buffers, made once per image size.
class FftEnhancer {
 public:
  FftEnhancer() = default;
  ~FftEnhancer();
  FftEnhancer(const FftEnhancer&) = delete;
  FftEnhancer& operator=(const FftEnhancer&) = delete;
  void run(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& p,
           cudaStream_t stream);
  // Bytes the stage moves through global memory (for the benchmark's GB/s).
  static size_t bytes_moved(int w, int h);

 private:
  void prepare(int w, int h);
  void release() noexcept;
  int w_ = 0, h_ = 0, windows_ = 0, chunk_ = 0;
  cufftHandle fwd_ = 0, inv_ = 0;
  bool have_plans_ = false;
  DeviceBuffer<float> d_real_;
  DeviceBuffer<cufftComplex> d_spec_;
};

}  // namespace sweepline::gpu::cuda
