#pragma once
// Scan conversion on the GPU: nearest, bilinear and max-hold (gpu/cuda/scan_kernels.cu,
// scan_maxhold.cu), every pixel the CPU's value bit for bit (the arithmetic of gpu/scan_math.hpp).
// The launchers enqueue on the given stream and never wait for the device; the display is
// setup.width x setup.height with row pitch width, the frame azimuths x bins with row pitch bins.
// Why each path is the one kept: docs/decisions/0012-scan-nearest-bilinear.md and
// 0013-scan-max-hold.md.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/out8.hpp"
#include "gpu/pipeline_types.hpp"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu::cuda {

// Tuning, measured at 4096^2 on an H100 (the decision records above).
// Pixel rows of a nearest / bilinear block reading the frame: 64 rows were 6.3 us slower for
// bilinear, the same for nearest.
inline constexpr int kScanFrameTileRows = 32;
// Pixel rows of a bilinear block reading the texture: 2.2 us faster than 32 a tile a block, within
// 1 us of it with the mirror images.
inline constexpr int kScanTextureTileRows = 64;
// Pixel rows of a max-hold table tile: 32 x 64 tiles were slower for both gathers.
inline constexpr int kMaxHoldTileRows = 32;
// Table tiles a max-hold gather block takes: 1.4 us faster than one, three were slower.
inline constexpr int kMaxHoldTilesPerBlock = 2;
// Shared memory a tile's staged polar window may take: 2 tiles a block, 4 blocks an SM.
inline constexpr int kMaxHoldStageBytes = 24 * 1024;
// Near-radar pixels a warp of the near blocks screens: 16 took 1-2 us less than 8; 32 the same.
inline constexpr int kMaxHoldNearPixelsPerWarp = 16;
// Azimuth rows a pixel code of the arithmetic route describes: 16 per-pixel tiles instead of 68
// with 8 rows.
inline constexpr int kMaxHoldCodeRows = 16;

// The polar frame (azimuths x bins, 8-bit) as a CUDA array for texture gathers: block-linear
// layout, rows 1 .. azimuths hold azimuths 0 .. azimuths - 1, row 0 a copy of the last azimuth
// and row azimuths + 1 of azimuth 0 (so that no gather wraps), unnormalised coordinates, clamped
// to the first and last bins, element reads. Allocated once per shape. Bilinear reads the frame
// through it (one tex2Dgather a pixel instead of 4 byte loads); max-hold's arithmetic route
// through one with a range-max half.
class PolarTexture {
 public:
  // range_max: the array also holds, from row azimuths + 2 on, the frame's 3-bin range maxima
  // max(P[a][r .. r + 2]) laid out like the frame (halo rows included), kept by update() from
  // the same rows.
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

// Nearest and bilinear: a block covers 32 x kScanFrameTileRows pixels (bilinear through `tex`:
// 32 x kScanTextureTileRows) and shares the per-row and per-column parts of the polar
// arithmetic; on a display with W % 8 == 0 and even H it also writes its tile's three mirror
// images about the centre lines, sharing the arithmetic where the pixel grid is symmetric about
// the radar. Bilinear with `tex` (a PolarTexture holding the frame d_polar, either kind) reads
// each pixel's 2 x 2 cells with one gather; the same values. Max-hold here computes every
// pixel's span each frame (what MaxHoldTable falls back to), after building the azimuth pyramid
// of d_polar into d_pyramid (az_pyramid_cells() bytes); the other modes ignore d_pyramid (may be
// null).
void launch_scan(const ScanSetup& setup, const uint8_t* d_polar, ScanMode mode, Out8 out,
                 uint8_t* d_pyramid, cudaStream_t stream, const PolarTexture* tex = nullptr);

// Builds the pyramid's columns 0 .. bins_needed - 1 (all bins when negative; the row pitch is
// `bins` either way).
void launch_az_pyramid(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                       cudaStream_t stream, int bins_needed = -1);
// The pyramid columns a max-hold scan with this geometry can read: spans of 16 or more
// azimuths lie near the radar; 0 when no pixel of the display is that near.
int pyramid_bins_needed(const ScanSetup& setup);

// Max-hold through a per-geometry table: a pixel's span depends only on the geometry, so the
// table, built once per ScanSetup, keeps a record per 32 x kMaxHoldTileRows tile (its polar
// window, staged in shared memory by the per-frame gather), 3 bytes a pixel (where its span
// starts in that window, and its shape) and a 1-byte code a pixel for the arithmetic route: 64
// MiB at 4096^2. Given the frame's range-max texture, a tile wholly inside the display whose
// pixels are all coded is gathered from the texture with no table look-up and no staging (the
// arithmetic route, gpu/cuda/scan_arith.cuh); without it (CFAR's mask, frames the route cannot
// address, displays whose width is not a multiple of 4) the span table is gathered. Either way
// tiles around the radar are computed per pixel (the widest spans a warp each) and the azimuth
// pyramid they read is built in one kernel that the gather overlaps (programmatic dependent
// launch, sm_90+). Same cells, same maximum as launch_scan. Geometries the table cannot take
// (>= 2^20 bins, azimuths or pixels across) use launch_scan. The frame's buffer must be 16-byte
// aligned (cudaMalloc's is).
class MaxHoldTable {
 public:
  // range_tex: a PolarTexture with a range-max half holding the frame d_polar.
  void scan(const ScanSetup& setup, const uint8_t* d_polar, uint8_t* d_pyramid, Out8 out,
            cudaStream_t stream, const PolarTexture* range_tex = nullptr);
  // Enqueues the table build if the geometry changed (scan() calls it) and waits for it (the
  // gather's launch needs two of its counts); true when it did.
  bool prepare(const ScanSetup& setup, cudaStream_t stream);
  void invalidate() { valid_ = false; }
  static bool usable(const ScanSetup& setup);
  // Whether scan() takes the arithmetic route when given a range-max texture for this geometry.
  static bool takes_range_texture(const ScanSetup& setup);
  // How the current table's tiles are gathered (waits for the stream): wholly past the range,
  // through the table, per pixel; and on the arithmetic route (past-range tiles included) or
  // per pixel there.
  struct BlockCounts {
    long long zero = 0, table = 0, per_pixel = 0;
    long long arith = 0, arith_per_pixel = 0;
  };
  BlockCounts block_counts(cudaStream_t stream) const;

 private:
  DeviceBuffer<uint16_t> d_offs_;   // per pixel: the span's first cell in the staged window
  DeviceBuffer<uint8_t> d_shapes_;  // per pixel: azimuth rows - 1 | (bins - 1) << 4
  DeviceBuffer<int4> d_blocks_;     // a record per tile, then in gather order (both routes)
  DeviceBuffer<int> d_counts_;      // per-pixel tiles, -, the route's per-pixel and own tiles
  DeviceBuffer<uint8_t> d_codes_;   // per pixel, the arithmetic route's code
  DeviceBuffer<int> d_arith_ok_;    // per tile, whether the arithmetic route takes it
  ScanSetup setup_{};
  bool valid_ = false, arith_built_ = false;
  int n_slow_ = 0;  // the built table's per-pixel tiles
  int n_slow_arith_ = 0, n_arith_ = 0;
  bool pdl_ = false;  // the device can launch programmatically dependent grids (sm_90+)
};

}  // namespace sweepline::gpu::cuda
