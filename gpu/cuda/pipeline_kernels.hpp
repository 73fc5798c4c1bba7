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

namespace sweepline::gpu {
// CUDA Gaussian: two passes through an 8.8 fixed-point intermediate image, the row pass either
// a plain shared-memory tile with apron (Tiled) or paper 002's sliding window (SlidingWindow);
// or one kernel doing both passes on a shared-memory tile (Fused), which skips the intermediate
// image's trip through global memory. All three compute the same numbers. The CPU backend has
// one implementation and ignores this.
enum class GaussianImpl { Tiled, SlidingWindow, Fused };
}  // namespace sweepline::gpu

namespace sweepline::gpu::cuda {

// A device image, optionally also written to a surface (cudaSurfaceObject_t; 0 = none).
struct Out8 {
  uint8_t* d = nullptr;
  unsigned long long surf = 0;
};

// Max-hold first builds the azimuth pyramid of d_polar into d_pyramid (az_pyramid_cells()
// bytes, gpu/scan_math.hpp); the other modes ignore it (may be null). Nearest and bilinear: a
// block covers 32 x tile_rows (32 or 64) pixels and, with `stage`, copies its polar window into
// shared memory first (the options are kept for the benchmark and the tests).
// Bilinear with `polar_tex` (PolarTexture::texture(), holding the same frame as d_polar): the
// 2 x 2 cells of a pixel in one tex2Dgather instead of 4 byte loads (same result). `bilinear_v1`:
// the 2026-11-23 bilinear arithmetic (kept for the benchmark only).
struct ScanOptions {
  int tile_rows = 32;
  bool stage = false;
  unsigned long long polar_tex = 0;
  bool bilinear_v1 = false;
  // Unstaged nearest / bilinear on a W % 8 == 0, even-H display: a block covers a tile of the
  // top-left quarter and its three mirror images, sharing the polar arithmetic among the four
  // where the grid is symmetric about the radar (scan_kernels.cu); false: a block a tile.
  bool mirror = true;
};
// The block height the pipeline's bilinear scan through the texture uses (both are tested).
inline constexpr int kBilinearTextureTileRows = 64;
void launch_scan(const ScanSetup& setup, const uint8_t* d_polar, ScanMode mode, Out8 out,
                 uint8_t* d_pyramid, cudaStream_t stream, ScanOptions options = {});
// The polar frame (azimuths x bins, 8-bit) as a CUDA array for the bilinear scan's texture
// gathers: block-linear layout, rows 1 .. azimuths hold azimuths 0 .. azimuths - 1, row 0 a copy
// of the last azimuth and row azimuths + 1 of azimuth 0 (so that no gather wraps), unnormalised
// coordinates, clamped to the first and last bins, element reads. Allocated once per shape.
class PolarTexture {
 public:
  // range_max: the array also holds, from row azimuths + 2 on, the frame's 3-bin range maxima
  // max(P[a][r .. r + 2]) laid out like the frame (halo rows included), kept by update() from
  // the same rows (max-hold's arithmetic route, MaxHoldTable::kArith).
  explicit PolarTexture(bool range_max = false) : range_max_(range_max) {}
  ~PolarTexture();
  PolarTexture(const PolarTexture&) = delete;
  PolarTexture& operator=(const PolarTexture&) = delete;
  // Whether the device can hold such an array (gather limits, 2 halo rows included).
  static bool usable(int azimuths, int bins, bool range_max = false);
  // Copies azimuths first .. first + count - 1 (mod azimuths) of the device frame d_polar
  // (row pitch bins) into the array, and the halo rows they feed; (re)allocates on a new shape.
  void update(const uint8_t* d_polar, int azimuths, int bins, int first, int count,
              cudaStream_t stream);
  unsigned long long texture() const { return tex_; }
  int azimuths() const { return az_; }
  int bins() const { return bins_; }
  bool has_range_max() const { return range_max_; }
  // The first row of the range-max half (0 without one, or before the first update).
  int range_max_row0() const { return range_max_ && az_ > 0 ? az_ + 2 : 0; }

 private:
  void release();
  bool range_max_ = false;
  cudaArray_t array_ = nullptr;
  unsigned long long tex_ = 0;
  unsigned long long surf_ = 0;  // range_max: the array's surface (0: copies from d_r3_)
  int az_ = 0, bins_ = 0;
  DeviceBuffer<uint8_t> d_r3_;  // without a surface: the updated rows' range maxima
};

// Builds the pyramid's columns 0 .. bins_needed - 1 (all bins when negative; the row pitch is
// `bins` either way).
void launch_az_pyramid(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                       cudaStream_t stream, int bins_needed = -1);
// The pyramid columns a max-hold scan with this geometry can read: spans of 16 or more
// azimuths lie near the radar; 0 when no pixel of the display is that near.
int pyramid_bins_needed(const ScanSetup& setup);

// Max-hold through a per-geometry table (scan_maxhold.cu): a pixel's span depends only on the
// geometry, so the table, built once per ScanSetup (and tile height), keeps a record per 32 x
// tile_rows pixel block (its polar window, staged in shared memory by the per-frame gather) and
// 3 bytes a pixel (where its span starts in that window, and its shape): 48 MiB at 4096^2. Same
// cells, same maximum as launch_scan. Blocks around the radar are computed per pixel as
// launch_scan does (the widest spans one warp each); geometries the table cannot take (>= 2^20
// bins or azimuths) use launch_scan. The frame's buffer must be 16-byte aligned (cudaMalloc's
// is). With kArith (the default) the build also writes a 1-byte code a pixel, and a frame given
// with its range-max texture is gathered without the span table (measured 4096^2 on the H100:
// docs/perf/scan.md).
class MaxHoldTable {
 public:
  // range_tex: a PolarTexture with a range-max half holding the frame d_polar; with kArith the
  // gather then takes the arithmetic route (else, or without it, the table's).
  void scan(const ScanSetup& setup, const uint8_t* d_polar, uint8_t* d_pyramid, Out8 out,
            cudaStream_t stream, const PolarTexture* range_tex = nullptr);
  // Enqueues the table build if the geometry changed (scan() calls it); true when it did.
  bool prepare(const ScanSetup& setup, cudaStream_t stream);
  void invalidate() { valid_ = false; }
  // Pixel rows per block: 32 (default) or 64 (kept for the benchmark and the tests).
  void set_tile_rows(int rows);
  // Pixels of the near box (spans wider than 16 azimuths possible) a warp of the near blocks
  // screens, 1..32 (default 16; measured, docs/perf/scan.md: 2-4 made more, shorter blocks
  // and took 1-3 us longer, 16-32 about 2 us less than 8).
  void set_near_per_warp(int pixels);
  // Measured options (docs/perf/scan.md; kOverlapPyramid, kWideSpread, kArith and kArithWide on
  // by default), a bit each:
  // kOverlapPyramid: one pyramid kernel, the gather launched behind it with programmatic
  // dependent launch (sm_90+), only the blocks that read the pyramid waiting for it;
  // kWideSpread: spans of more than 512 azimuths (at the radar) gathered by a warp as
  // independent loads of 16-azimuth blocks spread over the lanes instead of one sequential
  // pyramid walk a lane;
  // kStreamEntries: the table entries (48 MiB at 4096^2, read once a frame) loaded with the
  // evict-first hint (__ldcs) so that the frame and the records stay in L2;
  // kArith: the build also codes every pixel for the arithmetic route (scan_arith.cuh: no
  // span table, one texture gather a pixel), which scan() takes when given the range-max
  // texture; tiles the route cannot take (around the radar) are gathered per pixel.
  // kArithWide: the route's codes describe spans of up to 16 azimuth rows (8 without), so
  // that fewer tiles around the radar go per pixel.
  // kMeasureNoSpecial / kMeasureNoRoute (measurement only: the image is left incomplete): the
  // route's launch without its near and per-pixel blocks / with only those.
  enum : int {
    kOverlapPyramid = 1,
    kWideSpread = 2,
    kStreamEntries = 4,
    kArith = 8,
    kArithWide = 16,
    kMeasureNoSpecial = 32,
    kMeasureNoRoute = 64
  };
  void set_options(int options) { options_ = options; }
  int options() const { return options_; }
  static bool usable(const ScanSetup& setup);
  // Whether scan() would take the arithmetic route with a range-max texture for this geometry
  // (kArith set, a frame and display it can address).
  bool takes_range_texture(const ScanSetup& setup) const;
  // How the current table's blocks are gathered (waits for the stream): wholly past the range,
  // through the table, per pixel.
  struct BlockCounts {
    long long zero = 0, table = 0, per_pixel = 0;
    // kArith: the tiles the arithmetic route takes (past-range ones included) and the others.
    long long arith = 0, arith_per_pixel = 0;
  };
  BlockCounts block_counts(cudaStream_t stream) const;

 private:
  DeviceBuffer<uint16_t> d_offs_;   // per pixel: the span's first cell in the staged window
  DeviceBuffer<uint8_t> d_shapes_;  // per pixel: azimuth rows - 1 | (bins - 1) << 4
  DeviceBuffer<int4> d_blocks_;     // a record per tile, then in gather order (both routes)
  DeviceBuffer<int> d_counts_;      // per-pixel tiles, -, the route's per-pixel and own tiles
  DeviceBuffer<uint8_t> d_codes_;   // kArith: per pixel, the arithmetic route's code
  DeviceBuffer<int> d_arith_ok_;    // kArith: per tile, whether the route takes it
  ScanSetup setup_{};
  bool valid_ = false, arith_built_ = false;
  int tile_rows_ = 32, built_rows_ = 0, built_options_ = 0, near_per_warp_ = 16;
  int n_slow_ = 0;  // the built table's per-pixel tiles
  int n_slow_arith_ = 0, n_arith_ = 0;
  int options_ = kOverlapPyramid | kWideSpread | kArith | kArithWide;
  bool pdl_ = false;  // the device can launch programmatically dependent grids (sm_90+)
};

void launch_gaussian_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                          const std::vector<float>& weights, GaussianImpl impl,
                          cudaStream_t stream);
void launch_gaussian_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                          const std::vector<float>& weights, cudaStream_t stream);

// Both Gaussian passes in one kernel (GaussianImpl::Fused): no intermediate image
// (gpu/cuda/filter_fused.cu). A block filters a vertical strip of strip_tiles 128 x 64 tiles
// (0: as many as fill the GPU in one wave; the tests force other lengths).
void launch_gaussian_fused(const uint8_t* d_in, Out8 out, int w, int h,
                           const std::vector<float>& weights, cudaStream_t stream,
                           int strip_tiles = 0);

// Both Gaussian passes on the tensor cores (integer mma, sm_80+; gpu/cuda/filter_mma.cu): a
// block filters a 128 x tile_rows tile (64 or 128). Throws where gaussian_mma_available() is
// false (sm_75). Radius 1 .. kMaxGaussianRadius. variant: 0 (default) three weight slices
// (2^-23); 2 two weight slices (2^-16, fewer mma). (1, a synchronous tile load, was removed.)
bool gaussian_mma_available();
void launch_gaussian_mma(const uint8_t* d_in, Out8 out, int w, int h,
                         const std::vector<float>& weights, cudaStream_t stream, int tile_rows = 64,
                         int variant = 0);
// GaussianImpl::Fused as the pipeline runs it: the tensor-core kernel from this radius up where
// the GPU has it (measured faster there on the H100 from radius 2, sigma 0.5-1: 28-29 against
// 31-34 us in the 09:46 and 11:14 UTC runs, docs/perf/filters.md), else launch_gaussian_fused.
inline constexpr int kGaussianMmaMinRadius = 2;
void launch_gaussian_best(const uint8_t* d_in, Out8 out, int w, int h,
                          const std::vector<float>& weights, cudaStream_t stream);

void launch_bilateral_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);
void launch_bilateral_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);
// Both bilateral passes in one kernel, the pipeline's bilateral; the same numbers as
// launch_bilateral_rows + launch_bilateral_cols (kept for the benchmark and the tests).
// variant 1: the pair-shared kernel (each range weight computed once for the two taps that
// share it; same sums, term for term); the pipeline's (kBilateralPipelineVariant).
void launch_bilateral_fused(const uint8_t* d_in, Out8 out, int w, int h,
                            const std::vector<float>& spatial, const std::array<float, 256>& range,
                            cudaStream_t stream, int strip_tiles = 0, int variant = 0);
inline constexpr int kBilateralPipelineVariant = 1;

// mask (azimuths x bins) = 255 at CFAR detections.
void launch_cfar(const uint8_t* d_polar, uint8_t* d_mask, int azimuths, int bins, int guard,
                 int train, double pfa, cudaStream_t stream);

void launch_threshold(const uint8_t* d_in, Out8 out, int w, int h, uint8_t t, cudaStream_t stream);

// out = in (DenoiseMode::None), also into out's surface.
void launch_copy(const uint8_t* d_in, Out8 out, int w, int h, cudaStream_t stream);

// RGBA8 label colours (gpu::label_colour) into a surface.
void launch_label_colour(const int32_t* d_labels, unsigned long long surf, int w, int h,
                         cudaStream_t stream);

// Paper 004's block FFT enhancement in one kernel, a warp per two windows, everything in
// registers and shared memory (gpu/cuda/fft_warp.cu); FftEnhancer's default.
void launch_fft_enhance_warp(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& p,
                             cudaStream_t stream);

// Warp: launch_fft_enhance_warp (default). Cufft: batched cuFFT (R2C, scale, C2R) over chunks
// of 4096 windows, what issue 5 names; kept selectable for the benchmark and the tests.
enum class FftImpl { Warp, Cufft };

// Paper 004's block FFT enhancement; owns the cuFFT plans and chunk buffers (made once per image
// size, and only when the cuFFT implementation runs).
class FftEnhancer {
 public:
  FftEnhancer() = default;
  ~FftEnhancer();
  FftEnhancer(const FftEnhancer&) = delete;
  FftEnhancer& operator=(const FftEnhancer&) = delete;
  void run(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& p,
           cudaStream_t stream);
  void set_impl(FftImpl impl) { impl_ = impl; }
  FftImpl impl() const { return impl_; }
  // Bytes the stage moves through global memory (for the benchmark's GB/s): the warp kernel
  // reads the image and writes it once; cuFFT's path also moves its padded batches.
  static size_t bytes_moved(int w, int h, FftImpl impl = FftImpl::Cufft);

 private:
  void prepare(int w, int h);
  void release() noexcept;
  FftImpl impl_ = FftImpl::Warp;
  int w_ = 0, h_ = 0, windows_ = 0, chunk_ = 0;
  cufftHandle fwd_ = 0, inv_ = 0;
  bool have_plans_ = false;
  DeviceBuffer<float> d_real_;
  DeviceBuffer<cufftComplex> d_spec_;
};

}  // namespace sweepline::gpu::cuda
