// Max-hold scan conversion through a per-geometry table (MaxHoldTable, scan_kernels.hpp).
//
// A pixel's span (range bins r0..r1 x azimuths a0..a1, gpu/scan_math.hpp) depends only on the
// geometry, so the build computes every pixel's exact span once, with the CPU's arithmetic, and
// the per-frame gather does no polar arithmetic at all. Per 32 x 32 pixel tile the table holds a
// record: the tile's polar window (the union of its pixels' spans; its first azimuth row already
// reduced modulo the azimuths), which the gather stages in shared memory with 16-byte cp.async
// copies and no divisions (stage_window_rows). Per pixel it holds 3 bytes in two planes: the
// offset of the span's first cell in the staged window (16 bits; past the range, 16 zero bytes
// after the window) and its shape (azimuth rows - 1, bins - 1: 4 bits each). The gather takes
// each row's cells out of two shared-memory words with byte permutations and one 3-way 16x2
// max.
//
// Tiles wholly past the range are zeros; tiles around the radar (window too large, or spans of
// more than 16 rows or bins) are gathered per pixel, their widest spans (> 16 azimuths) one warp
// each, and go first in the launch so that they do not end it alone. The azimuth pyramid those
// read is built by one small kernel that the gather, launched behind it with programmatic
// dependent launch (sm_90+), overlaps: only the blocks that read the pyramid wait for it.
//
// The arithmetic route (scan_arith.cuh; the pipeline's frames) uses the same build to write a
// 1-byte code a pixel: a tile wholly inside the display whose pixels are all coded is gathered
// from the frame's range-max texture with no staging (maxhold_arith_kernel), the others per
// pixel as above. Measurements and the variants dropped: docs/decisions/0013-scan-max-hold.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "gpu/cuda/launch_bounds.cuh"
#include "gpu/cuda/scan_arith.cuh"
#include "gpu/cuda/scan_kernels.hpp"
#include "gpu/cuda/scan_staging.cuh"
#include "gpu/cuda/warp_scan.cuh"

namespace sweepline::gpu::cuda {

namespace {

using namespace scan_detail;

// Past-range pixels of a table tile point at 16 zero bytes that the gather keeps at the end of
// its staging buffer (windows end before them), so that they need no test of their own.
constexpr int kZeroOff = kMaxHoldStageBytes - 16;
constexpr int kRpt = kMaxHoldTileRows / 32;  // pixel rows a thread of a tile: 32 rows a block
static_assert(kMaxHoldTileRows % 32 == 0, "a tile covers whole 32-row thread groups");
constexpr int kNearAz = 16;  // in the per-pixel blocks, spans wider than this get a warp each
static_assert(kMaxHoldCodeRows >= 1 && kMaxHoldCodeRows <= 16, "a code holds 4 bits of rows");
enum : int { kBlockZero = 0, kBlockFast = 1, kBlockSlow = 2 };

// Waits for the grid this one was launched behind with programmatic dependent launch (the
// pyramid) and for its memory; returns at once otherwise. Launch_dependents lets the next grid
// start. sm_90+ only (before, the gather is launched plainly).
__device__ __forceinline__ void grid_dependency_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void grid_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

// Both pyramid levels in one launch, bins 0 .. used - 1 (launch_az_pyramid's cells): a block
// takes 16 bins x 16 level-1 rows (one level-2 row when all 16 exist). It lets the gather,
// launched behind it, start at once: only the gather's blocks that read the pyramid wait.
__global__ void __launch_bounds__(256)
    maxhold_pyramid_kernel(const uint8_t* __restrict__ polar, uint8_t* __restrict__ l1,
                           uint8_t* __restrict__ l2, int bins, int used, int n1, int n2) {
  grid_launch_dependents();
  __shared__ unsigned v[16][17];
  const int tid = int(threadIdx.x), c = tid & 15, k = int(blockIdx.y) * 16 + (tid >> 4);
  const int r = int(blockIdx.x) * 16 + c;
  unsigned m = 0;
  if (r < used && k < n1) {
#pragma unroll
    for (int j = 0; j < kAzBlock1; ++j)
      m = max(m, unsigned(__ldg(polar + size_t(k * kAzBlock1 + j) * size_t(bins) + size_t(r))));
    l1[size_t(k) * size_t(bins) + size_t(r)] = uint8_t(m);
  }
  v[tid >> 4][c] = m;
  __syncthreads();
  if (tid < 16 && int(blockIdx.y) < n2 && r < used) {
    unsigned m2 = 0;
#pragma unroll
    for (int j = 0; j < 16; ++j) m2 = max(m2, v[j][c]);
    l2[size_t(blockIdx.y) * size_t(bins) + size_t(r)] = uint8_t(m2);
  }
}

// The block's reference azimuth (its centre's): every azimuth of the block is unwrapped to
// within half a turn of it, so that a window across north is one run of rows.
__device__ int block_a_ref(const ScanSetup& s, int bx0, int by0, int rows) {
  const float xc = float(bx0) + 15.5f, yc = float(by0) + 0.5f * float(rows) - 0.5f;
  const float e = swl_fma(xc, s.step, s.east0), n = swl_fma(-yc, s.step, s.north0);
  int a = swl_floor(swl_azimuth(e, n, s.az_per_rad, float(s.azimuths)));
  return a >= s.azimuths ? a - s.azimuths : a;
}

// One block per tile, 4 horizontal pixels a thread (the gather's mapping): every pixel's exact
// span, the tile's window (block-wide minima and maxima), then each pixel's offset and shape.
// With `codes`, also each pixel's arithmetic-route code (scan_arith.cuh) and whether the tile
// can take that route (arith_ok: wholly inside the display, without a slow pixel).
template <int RPT>
__global__ void __launch_bounds__(kThreads)
    maxhold_build_kernel(ScanSetup s, uint16_t* __restrict__ offs, uint8_t* __restrict__ shapes,
                         int4* __restrict__ blocks, uint8_t* __restrict__ codes,
                         int* __restrict__ arith_ok) {
  // min a0, max a1, min r0, max r1, any unfit, any valid, any pixel off the display, any
  // pixel coded slow
  __shared__ int a_ref_s, red[8];
  __shared__ int4 rec_s;
  const int tid = int(threadIdx.x);
  const int bx0 = int(blockIdx.x) * kTileW, by0 = int(blockIdx.y) * 32 * RPT;
  if (tid == 0) {
    a_ref_s = block_a_ref(s, bx0, by0, 32 * RPT);
    red[0] = INT_MAX;
    red[1] = INT_MIN;
    red[2] = INT_MAX;
    red[3] = INT_MIN;
    red[4] = red[5] = red[6] = red[7] = 0;
  }
  __syncthreads();
  const int a_ref = a_ref_s, A = s.azimuths;
  const int x0 = bx0 + (tid & 7) * 4;
  int r0[RPT][4], r1[RPT][4], a0[RPT][4], a1[RPT][4];  // a0 > a1: past the range
  int mn_a = INT_MAX, mx_a = INT_MIN, mn_r = INT_MAX, mx_r = INT_MIN, unfit = 0, valid = 0;
  int cut = 0, slow = 0;
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    const bool coded = codes != nullptr && y < s.height && x0 < s.width;
    ArithGroup ag{0, 0, 0, 0};
    if (coded) ag = arith_group(s, x0, y);
    uint32_t code4 = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int x = x0 + i;
      r0[j][i] = r1[j][i] = a0[j][i] = 0;
      a1[j][i] = -1;
      if (x >= s.width || y >= s.height) {
        cut = 1;  // a tile the display cuts: per pixel
        continue;
      }
      const PixelPolar pp = swl_pixel_polar(s, x, y);
      if (!(pp.u < float(s.bins))) {
        code4 |= uint32_t(kCodeZero) << (8 * i);
        continue;
      }
      valid = 1;
      const PixelSpan sp = swl_pixel_span(s, pp);
      if (coded) {
        const uint8_t c = arith_code(s, ag, i, sp, kMaxHoldCodeRows);
        slow |= c == kCodeSlow;
        code4 |= uint32_t(c) << (8 * i);
      }
      int a = sp.a0;
      if (2 * (a - a_ref) > A)
        a -= A;
      else if (2 * (a - a_ref) < -A)
        a += A;
      r0[j][i] = sp.r0;
      r1[j][i] = sp.r1;
      a0[j][i] = a;
      a1[j][i] = a + sp.na - 1;
      if (sp.na >= A || sp.na > 16 || sp.r1 - sp.r0 >= 16) unfit = 1;
      mn_a = min(mn_a, a);
      mx_a = max(mx_a, a + sp.na - 1);
      mn_r = min(mn_r, sp.r0);
      mx_r = max(mx_r, sp.r1);
    }
    // arith_usable(): whole 4-pixel groups, so x0 + 3 < width when x0 < width.
    if (coded)
      *reinterpret_cast<uint32_t*>(codes + size_t(y) * size_t(s.width) + size_t(x0)) = code4;
  }
  if (valid) {
    atomicMin(&red[0], mn_a);
    atomicMax(&red[1], mx_a);
    atomicMin(&red[2], mn_r);
    atomicMax(&red[3], mx_r);
    atomicOr(&red[5], 1);
  }
  if (unfit) atomicOr(&red[4], 1);
  if (cut) atomicOr(&red[6], 1);
  if (slow) atomicOr(&red[7], 1);
  __syncthreads();
  // The route takes the tiles wholly inside the display without a slow pixel. (Taking the
  // others too, their slow pixels gathered in place, measured 90-96 against 66-69 us: the
  // slow lanes hold their warps and the code needs 48 registers; decision 0013.)
  if (tid == 0 && codes != nullptr)
    arith_ok[blockIdx.y * gridDim.x + blockIdx.x] = !red[6] && !red[7];
  if (tid == 0) {
    int4 rec = make_int4(a_ref, 0, 0, kBlockSlow);
    if (!red[5]) {
      rec.w = kBlockZero;
    } else if (!red[4]) {
      int r_lo = red[2];
      if ((s.bins & 15) == 0) r_lo &= ~15;
      const int n_r = red[3] - r_lo + 1, n_az = red[1] - red[0] + 1;
      if (4 * n_az <= A && n_az * window_pitch(n_r) <= kZeroOff) {
        rec.y = red[0] % A < 0 ? red[0] % A + A : red[0] % A;  // the first row, in [0, A)
        rec.z = r_lo;
        rec.w = kBlockFast | n_az << 2 | n_r << 17;
      }
    }
    rec_s = rec;
    blocks[blockIdx.y * gridDim.x + blockIdx.x] = rec;
  }
  __syncthreads();
  const int4 rec = rec_s;
  if ((rec.w & 3) != kBlockFast) return;  // the gather does not read these pixels' entries
  const int pitch = window_pitch(int(unsigned(rec.w) >> 17));
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    if (y >= s.height) continue;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int x = x0 + i;
      if (x >= s.width) continue;
      const size_t k = size_t(y) * size_t(s.width) + size_t(x);
      const bool in = a1[j][i] >= a0[j][i];
      offs[k] = uint16_t(in ? (a0[j][i] - red[0]) * pitch + r0[j][i] - rec.z : kZeroOff);
      shapes[k] = in ? uint8_t((a1[j][i] - a0[j][i]) | (r1[j][i] - r0[j][i]) << 4) : uint8_t(0);
    }
  }
}

// Pixels around the radar whose spans are too wide for one thread (a few pixels, thousands of
// cells each) get a warp each, in the near blocks of the gather launch; this box holds every
// pixel whose span may exceed kNearAz azimuths (na <= 2 w + 2, w = asin(rho / u) azimuths, so na
// > 16 needs w > 7: u < rho / sin(7 / az_per_rad)), with a margin of 2 bins and 2 pixels.
// Escapes outside it (there are none) would be gathered in place.
struct NearBox {
  int x0 = 0, y0 = 0, w = 0, h = 0;
  __device__ bool holds(int x, int y) const {
    return x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
  }
};

NearBox near_box(const ScanSetup& s) {
  NearBox b;
  const double ang = 7.0 / double(s.az_per_rad);
  double r_px;
  if (ang >= 1.5)
    r_px = 1e9;
  else
    r_px = (double(s.footprint) / std::sin(ang) + 2.0) / double(s.step) + 2.0;
  const double xr = -double(s.east0) / double(s.step), yr = double(s.north0) / double(s.step);
  const double x0 = std::max(0.0, std::floor(xr - r_px)),
               x1 = std::min(double(s.width), std::ceil(xr + r_px) + 1);
  const double y0 = std::max(0.0, std::floor(yr - r_px)),
               y1 = std::min(double(s.height), std::ceil(yr + r_px) + 1);
  if (x1 <= x0 || y1 <= y0) return b;
  b.x0 = int(x0);
  b.y0 = int(y0);
  b.w = int(x1 - x0);
  b.h = int(y1 - y0);
  return b;
}

// The order the gather launch takes the tiles in (one block of 1024 threads): per-pixel tiles
// first (each takes several times as long as a table tile and would otherwise end the launch
// alone), then table tiles, then zero tiles; each slot gets the tile's record and its position
// (bx | by << 16), loaded side by side by the gather. With arith_ok (the arithmetic route's
// order): the tiles the route cannot take (a slow pixel, or cut by the display's edge; gathered
// per pixel) first; the gather takes the route's own tiles by position, not from their slots.
constexpr int kOrderThreads = 1024;

__device__ int block_exclusive_scan(int v, int* sums, int& total) {
  const int lane = int(threadIdx.x & 31u), warp = int(threadIdx.x >> 5);
  const int x = warp_inclusive_sum(v, lane);
  if (lane == 31) sums[warp] = x;
  __syncthreads();
  if (warp == 0) sums[lane] = warp_inclusive_sum(sums[lane], lane);
  __syncthreads();
  const int excl = x - v + (warp > 0 ? sums[warp - 1] : 0);
  total = sums[31];
  __syncthreads();
  return excl;
}

__global__ void __launch_bounds__(kOrderThreads)
    maxhold_order_kernel(const int4* __restrict__ recs, const int* __restrict__ arith_ok, int n,
                         int blocks_x, int4* __restrict__ ordered, int* __restrict__ counts) {
  __shared__ int sums[32];
  const int per = (n + kOrderThreads - 1) / kOrderThreads;
  const int i0 = int(threadIdx.x) * per, i1 = min(n, i0 + per);
  auto cls = [&](int i, int m) {
    if (arith_ok != nullptr) return arith_ok[i] ? 1 : 0;
    return m == kBlockSlow ? 0 : (m == kBlockFast ? 1 : 2);
  };
  int c[3] = {0, 0, 0};  // per-pixel, table (or the arithmetic route), zero
  for (int i = i0; i < i1; ++i) ++c[cls(i, recs[i].w & 3)];
  int base[3], total[3];
  for (int k = 0; k < 3; ++k) base[k] = block_exclusive_scan(c[k], sums, total[k]);
  base[1] += total[0];
  base[2] += total[0] + total[1];
  if (threadIdx.x == 0) {
    counts[0] = total[0];  // the per-pixel tiles: slots 0 .. total[0] - 1
    counts[1] = total[1];
  }
  for (int i = i0; i < i1; ++i) {
    int4 r = recs[i];
    const int k = cls(i, r.w & 3);
    const int slot = base[k]++;
    r.x = (i % blocks_x) | (i / blocks_x) << 16;  // the gather takes the tile's position here
    ordered[slot] = r;
  }
}

// The maximum over a span, gathered per pixel (per-pixel tiles): up to kNearAz azimuth rows of
// up to 4 bins come from one or two aligned 32-bit words per row, several rows in flight at
// once; anything wider goes through swl_span_max (pyramid included). The same cells either way.
__device__ __forceinline__ uint8_t span_max_words(const ScanSetup& s,
                                                  const uint8_t* __restrict__ polar,
                                                  const AzPyramid& pyr, const PixelSpan& sp) {
  const int rl = sp.r1 - sp.r0 + 1;
  if (sp.na > kNearAz || rl > 4) return swl_span_max(s, polar, pyr, sp);
  const size_t total = size_t(s.azimuths) * size_t(s.bins), b = size_t(s.bins);
  const unsigned mask = 0xFFFFFFFFu >> (32 - 8 * rl);
  const uint32_t* words = reinterpret_cast<const uint32_t*>(polar);
  unsigned acc = 0;
  int a = sp.a0;
#pragma unroll 4
  for (int k = 0; k < sp.na; ++k) {
    const size_t p = size_t(a) * b + size_t(sp.r0), w0 = p >> 2;
    unsigned v = 0;
    if (4 * w0 + 8 <= total) {
      v = __funnelshift_r(__ldg(words + w0), __ldg(words + w0 + 1), unsigned(p & 3u) * 8u) & mask;
    } else {  // the frame's last word(s)
      for (int i = 0; i < rl; ++i) v |= unsigned(__ldg(polar + p + size_t(i))) << (8 * i);
    }
    acc = bytes_max_acc(acc, v);
    if (++a == s.azimuths) a = 0;
  }
  return uint8_t(bytes_max_result(acc));
}

// The maximum over azimuths sa .. ea - 1 (0 <= sa < ea <= azimuths) of bins r0 .. r1 with the
// whole warp (this lane's part): the level-1 pyramid blocks (16 azimuths) wholly inside, the
// cells before and after them singly, every load of a lane independent of the others (a
// sequential walk through swl_span_max is a chain of dependent steps).
__device__ __forceinline__ unsigned warp_segment_max(const ScanSetup& s,
                                                     const uint8_t* __restrict__ polar,
                                                     const uint8_t* __restrict__ l1, int r0, int r1,
                                                     int sa, int ea, int lane) {
  const size_t b = size_t(s.bins);
  const int bs = (sa + kAzBlock1 - 1) / kAzBlock1, be = min(ea / kAzBlock1, s.azimuths / kAzBlock1);
  const bool blocks = bs < be;
  const int head_end = blocks ? bs * kAzBlock1 : ea;    // single cells sa .. head_end - 1
  const int tail_start = blocks ? be * kAzBlock1 : ea;  // and tail_start .. ea - 1
  unsigned m = 0;
  for (int a = sa + lane; a < head_end; a += 32)
    for (int r = r0; r <= r1; ++r) m = max(m, unsigned(__ldg(polar + size_t(a) * b + size_t(r))));
  if (blocks) {
#pragma unroll 4
    for (int k = bs + lane; k < be; k += 32)
      for (int r = r0; r <= r1; ++r) m = max(m, unsigned(__ldg(l1 + size_t(k) * b + size_t(r))));
  }
  for (int a = tail_start + lane; a < ea; a += 32)
    for (int r = r0; r <= r1; ++r) m = max(m, unsigned(__ldg(polar + size_t(a) * b + size_t(r))));
  return m;
}

// The maximum over a wide span (more than kNearAz azimuths) with the whole warp; every lane gets
// it. Up to 512 azimuths the lanes take every 32nd azimuth row; wider spans (at the radar) are
// one or two runs (across north) of 16-azimuth pyramid blocks and single cells, spread over the
// lanes as independent loads (a sequential pyramid walk a lane bounded the near-radar chain).
// The same cells, the same maximum.
__device__ __forceinline__ unsigned warp_span_max(const ScanSetup& s,
                                                  const uint8_t* __restrict__ polar,
                                                  const AzPyramid& pyr, const PixelSpan& sp,
                                                  int lane) {
  unsigned m = 0;
  if (sp.na <= 32 * kAzBlock1) {
    // Lane l takes azimuths a0 + l, a0 + l + 32, ...: independent loads, several in flight.
#pragma unroll 4
    for (int k = lane; k < sp.na; k += 32) {
      int a = sp.a0 + k;
      if (a >= s.azimuths) a -= s.azimuths;
      const uint8_t* row = polar + size_t(a) * size_t(s.bins);
      for (int r = sp.r0; r <= sp.r1; ++r) m = max(m, unsigned(__ldg(row + r)));
    }
  } else {
    const int e = sp.a0 + sp.na;  // a0 in [0, azimuths), na <= azimuths
    m = warp_segment_max(s, polar, pyr.l1, sp.r0, sp.r1, sp.a0, min(e, s.azimuths), lane);
    if (e > s.azimuths)
      m = max(m, warp_segment_max(s, polar, pyr.l1, sp.r0, sp.r1, 0, e - s.azimuths, lane));
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xFFFFFFFFu, m, o));
  return m;
}

// A near block (one of n_blocks): each warp screens kMaxHoldNearPixelsPerWarp pixels of the
// box, one per lane, for those a per-pixel tile left out (span wider than kNearAz), then gathers
// each of them with the whole warp. A warp's pixels lie a warp count apart in the box, so that the
// costly ones at the radar spread over many warps instead of lining up in a few (the launch's
// longest blocks).
__device__ void near_block(const ScanSetup& s, const uint8_t* __restrict__ polar,
                           const AzPyramid& pyr, const int4* __restrict__ recs, int blocks_x,
                           int tile_rows, uint8_t* __restrict__ out, unsigned long long surf,
                           const NearBox& box, int block, int n_blocks) {
  const int lane = int(threadIdx.x & 31u);
  const long long warps = (long long)n_blocks * (kThreads / 32);
  const long long i = (long long)block * (kThreads / 32) + (threadIdx.x >> 5) + lane * warps;
  PixelSpan mine{0, 0, 0, 0};
  bool escape = false;
  if (lane < kMaxHoldNearPixelsPerWarp && i < (long long)box.w * box.h) {
    const int x = box.x0 + int(i % box.w), y = box.y0 + int(i / box.w);
    if ((__ldg(recs + (y / tile_rows) * blocks_x + x / kTileW).w & 3) == kBlockSlow) {
      const PixelPolar pp = swl_pixel_polar(s, x, y);
      if (pp.u < float(s.bins)) {
        mine = swl_pixel_span(s, pp);
        escape = mine.na > kNearAz;
      }
    }
  }
  unsigned todo = __ballot_sync(0xFFFFFFFFu, escape);
  if (todo) grid_dependency_wait();  // the pyramid
  while (todo) {
    const int src = __ffs(int(todo)) - 1;
    todo &= todo - 1u;
    PixelSpan sp;
    sp.r0 = __shfl_sync(0xFFFFFFFFu, mine.r0, src);
    sp.r1 = __shfl_sync(0xFFFFFFFFu, mine.r1, src);
    sp.a0 = __shfl_sync(0xFFFFFFFFu, mine.a0, src);
    sp.na = __shfl_sync(0xFFFFFFFFu, mine.na, src);
    const unsigned m = warp_span_max(s, polar, pyr, sp, lane);
    if (lane == src) {
      const int x = box.x0 + int(i % box.w), y = box.y0 + int(i / box.w);
      out[size_t(y) * size_t(s.width) + size_t(x)] = uint8_t(m);
      if (surf) surf2Dwrite(uint8_t(m), cudaSurfaceObject_t(surf), x, y);
    }
  }
}

// The maximum over rows 0..nr of the staged window from byte `off` on, rlm1 + 1 > 4 bins a row
// (zoomed out), 4 at a time.
__device__ __forceinline__ uint8_t staged_max_wide(const uint8_t* sm, int pitch, int off, int rlm1,
                                                   int nr) {
  const uint32_t* q = reinterpret_cast<const uint32_t*>(sm + (off & ~3));
  const unsigned sh = unsigned(off & 3) * 8u;
  const int rl = rlm1 + 1;
  unsigned acc = 0;
  for (int k = 0; k <= nr; ++k, q += pitch >> 2)
    for (int o = 0; o < rl; o += 4) {
      const unsigned mask = rl - o >= 4 ? 0xFFFFFFFFu : 0xFFFFFFFFu >> (32 - 8 * (rl - o));
      acc = bytes_max_acc(acc, __funnelshift_r(q[o >> 2], q[(o >> 2) + 1], sh) & mask);
    }
  return uint8_t(bytes_max_result(acc));
}

struct GatherArgs {
  const uint16_t* offs;
  const uint8_t* shapes;
  const int4* recs;     // by tile (the near blocks' look-ups)
  const int4* ordered;  // by slot; .x: the tile's position bx | by << 16
  int blocks_x, near_blocks;
  int n_slow, n_tiles;  // per-pixel tiles (slots 0 .. n_slow - 1), all tiles
  NearBox box;
  // The arithmetic route: codes a pixel, whether the route takes a tile (by tile), the
  // frame / range-max texture and the row of its range-max half.
  const uint8_t* codes;
  const int* arith_ok;
  unsigned long long tex;
  int r3_row0;
  int special_rows;  // maxhold_arith_kernel: grid rows of near and per-pixel blocks
};

// A tile of the arithmetic route (scan_arith.cuh), wholly inside the display: each thread's 4
// pixels of its RPT rows; nothing when the route does not take the tile (a per-pixel block
// gathers it). The codes are loaded with the tile's flag, not after it.
template <int RPT>
__device__ __forceinline__ void arith_tile(const ScanSetup& s, const GatherArgs& g,
                                           uint8_t* __restrict__ out, unsigned long long surf,
                                           int bx, int by, int tid) {
  const int bx0 = bx * kTileW, by0 = by * 32 * RPT;
  if (bx0 + kTileW > s.width || by0 + 32 * RPT > s.height) return;  // cut: a per-pixel tile
  const int x0 = bx0 + (tid & 7) * 4;
  uint32_t c[RPT];
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    c[j] = __ldcs(
        reinterpret_cast<const uint32_t*>(g.codes + size_t(y) * size_t(s.width) + size_t(x0)));
  }
  if (!__ldg(g.arith_ok + by * g.blocks_x + bx)) return;
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    uint32_t word = 0;
    if (c[j] != kCodesZero4)
      word = arith_group_max(g.tex, s.azimuths, g.r3_row0, arith_group(s, x0, y), c[j]);
    // arith_usable(): whole 4-pixel groups, rows of whole words.
    *reinterpret_cast<uint32_t*>(out + size_t(y) * size_t(s.width) + size_t(x0)) = word;
    if (surf) surf_store4(surf, x0, y, s.width, word);
  }
}

// A tile wholly past the range: zeros.
template <int RPT>
__device__ __forceinline__ void zero_tile(const ScanSetup& s, uint8_t* __restrict__ out,
                                          unsigned long long surf, int bx0, int by0, int tid) {
  const uint8_t zero[4] = {0, 0, 0, 0};
  const int x0 = bx0 + (tid & 7) * 4;
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    if (y < s.height && x0 < s.width) store4(s, out, surf, x0, y, zero);
  }
}

// A per-pixel tile computing its spans; the widest spans are left to the screening near blocks.
template <int RPT>
__device__ __forceinline__ void per_pixel_tile(const ScanSetup& s,
                                               const uint8_t* __restrict__ polar,
                                               const AzPyramid& pyr, const GatherArgs& g,
                                               uint8_t* __restrict__ out, unsigned long long surf,
                                               int bx0, int by0, int tid) {
  grid_dependency_wait();  // the pyramid
  const int x0 = bx0 + (tid & 7) * 4;
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    if (y >= s.height) continue;
    for (int i = 0; i < 4; ++i) {
      const int x = x0 + i;
      if (x >= s.width) continue;
      const PixelPolar p = swl_pixel_polar(s, x, y);
      uint8_t v = 0;
      if (p.u < float(s.bins)) {
        const PixelSpan sp = swl_pixel_span(s, p);
        if (sp.na > kNearAz && g.box.holds(x, y)) continue;
        v = span_max_words(s, polar, pyr, sp);
      }
      out[size_t(y) * size_t(s.width) + size_t(x)] = v;
      if (surf) surf2Dwrite(v, cudaSurfaceObject_t(surf), x, y);
    }
  }
}

__device__ __forceinline__ Window record_window(const int4& rec) {
  Window w;
  w.a_lo = rec.y;
  w.r_lo = rec.z;
  w.n_az = (rec.w >> 2) & 0x7FFF;
  w.n_r = int(unsigned(rec.w) >> 17);
  w.pitch = window_pitch(w.n_r);
  return w;
}

// This thread's table entries of a table tile (4 pixels of each of its RPT rows): offsets as
// two 16-bit pairs, shapes as 4 bytes.
template <int RPT>
__device__ __forceinline__ void load_entries(const ScanSetup& s, const GatherArgs& g, int x0,
                                             int by0, int tid, uint32_t (&off2)[RPT][2],
                                             uint32_t (&shape4)[RPT]) {
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int y = by0 + (tid >> 3) + 32 * j;
    off2[j][0] = off2[j][1] = unsigned(kZeroOff) * 0x10001u;  // pixels off the display
    shape4[j] = 0;
    if (y >= s.height || x0 >= s.width) continue;
    const size_t k = size_t(y) * size_t(s.width) + size_t(x0);
    if ((s.width & 3) == 0) {
      const uint2 o = __ldg(reinterpret_cast<const uint2*>(g.offs + k));
      off2[j][0] = o.x;
      off2[j][1] = o.y;
      shape4[j] = __ldg(reinterpret_cast<const unsigned*>(g.shapes + k));
    } else {
      for (int i = 0; i < 4; ++i)
        if (x0 + i < s.width) {
          const unsigned sh = 16u * unsigned(i & 1);
          off2[j][i >> 1] = (off2[j][i >> 1] & ~(0xFFFFu << sh)) | unsigned(__ldg(g.offs + k + i))
                                                                       << sh;
          shape4[j] |= unsigned(__ldg(g.shapes + k + i)) << (8 * i);
        }
    }
  }
}

// One row of a table tile: the thread's 4 pixels from the staged window `sm`. Straight-line
// code for the common case (<= 4 bins, rows 0 and 1) of the 4 pixels, so that their
// shared-memory loads overlap; past-range pixels read the zero bytes at kZeroOff; the rare
// longer spans are finished afterwards.
__device__ __forceinline__ void gather_row(const ScanSetup& s, const uint8_t* sm, int pitch,
                                           uint32_t off_lo, uint32_t off_hi, uint32_t shapes,
                                           uint8_t* __restrict__ out, unsigned long long surf,
                                           int x0, int y) {
  unsigned off[4], shape[4], acc[4], sel_a[4], sel_b[4];
  // More than 2 azimuth rows (bits 1-3 of the low nibble) or 4 bins (bits 6-7) anywhere.
  const bool more = (shapes & 0xCECECECEu) != 0u;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    off[i] = ((i < 2 ? off_lo : off_hi) >> (16 * (i & 1))) & 0xFFFFu;
    shape[i] = (shapes >> (8 * i)) & 0xFFu;
    const unsigned o = off[i];
    const unsigned nr = shape[i] & 15u, rlm1 = min(shape[i] >> 4, 3u);
    const unsigned shx = (o & 3u) * 0x1010u;
    sel_a[i] = shx + min(rlm1, 1u) * 0x1000u;
    sel_b[i] = shx + min(rlm1, 2u) * 0x10u + rlm1 * 0x1000u;
    const uint32_t* p = reinterpret_cast<const uint32_t*>(sm + (o & ~3u));
    const uint32_t* q = reinterpret_cast<const uint32_t*>(sm + (o & ~3u) + (nr ? pitch : 0));
    const uint32_t p0 = p[0], p1 = p[1], q0 = q[0], q1 = q[1];
    acc[i] = __vimax3_u16x2(__byte_perm(p0, p1, sel_a[i]), __byte_perm(p0, p1, sel_b[i]),
                            __byte_perm(q0, q1, sel_a[i]));
    acc[i] = __vimax3_u16x2(acc[i], __byte_perm(q0, q1, sel_b[i]), 0u);
  }
  if (more) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int nr = int(shape[i] & 15u), rlm1 = int(shape[i] >> 4);
      if (rlm1 > 3) {
        acc[i] = unsigned(staged_max_wide(sm, pitch, int(off[i]), rlm1, nr)) << 8;
      } else {
        const uint32_t* q = reinterpret_cast<const uint32_t*>(sm + (off[i] & ~3u) + pitch);
        for (int k = 2; k <= nr; ++k) {
          q += pitch >> 2;
          const uint32_t r0 = q[0], r1 = q[1];
          acc[i] =
              __vimax3_u16x2(acc[i], __byte_perm(r0, r1, sel_a[i]), __byte_perm(r0, r1, sel_b[i]));
        }
      }
    }
  }
  uint8_t v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = uint8_t(max(acc[i] >> 24, (acc[i] >> 8) & 0xFFu));
  store4(s, out, surf, x0, y, v);
}

// The per-frame gather, one launch: near blocks first, then the tiles in maxhold_order_kernel's
// order: the per-pixel tiles one a block (they take longer and would otherwise end the launch
// alone), then kMaxHoldTilesPerBlock table or zero tiles a block, each tile's record and
// position read from its slot. A table tile: 4 horizontal pixels a thread (a warp covers 32 x 4
// pixels). Every tile's record, entries and window copies are in flight before the first is
// gathered, so that the block pays the load latency once for both tiles and the second window
// arrives while the first is gathered (each tile its own kMaxHoldStageBytes of shared memory).
// 4 blocks an SM: 64 registers, 2 x 24 KiB.
template <int RPT>
__global__ void __launch_bounds__(kThreads, SWL_MIN_BLOCKS(kThreads, 4))
    maxhold_gather_kernel(ScanSetup s, const uint8_t* __restrict__ polar, AzPyramid pyr,
                          GatherArgs g, uint8_t* __restrict__ out, unsigned long long surf) {
  extern __shared__ __align__(16) uint8_t sm[];
  // The near blocks first, then the per-pixel tiles, then the table/zero tile pairs.
  const int bi = int(blockIdx.x), n_special = g.near_blocks + g.n_slow;
  const int special = bi < n_special ? bi : -1, pair = bi - n_special;
  if (special >= 0 && special < g.near_blocks) {
    near_block(s, polar, pyr, g.recs, g.blocks_x, 32 * RPT, out, surf, g.box, special,
               g.near_blocks);
    return;
  }
  const int tid = int(threadIdx.x);
  if (special >= 0) {
    const int pos = __ldg(g.ordered + special - g.near_blocks).x;
    per_pixel_tile<RPT>(s, polar, pyr, g, out, surf, (pos & 0xFFFF) * kTileW,
                        (pos >> 16) * 32 * RPT, tid);
    return;
  }
  // Slots from n_slow on hold table and zero tiles only.
  const int first = g.n_slow + pair * kMaxHoldTilesPerBlock;
  int4 rec[kMaxHoldTilesPerBlock];
#pragma unroll
  for (int t = 0; t < kMaxHoldTilesPerBlock; ++t)
    rec[t] = first + t < g.n_tiles ? __ldg(g.ordered + first + t) : make_int4(-1, 0, 0, kBlockZero);
  uint32_t off2[kMaxHoldTilesPerBlock][RPT][2], shape4[kMaxHoldTilesPerBlock][RPT];
  int pitch[kMaxHoldTilesPerBlock];
#pragma unroll
  for (int t = 0; t < kMaxHoldTilesPerBlock; ++t) {
    pitch[t] = 0;
    if ((rec[t].w & 3) == kBlockFast) {
      const Window w = record_window(rec[t]);
      pitch[t] = w.pitch;
      uint8_t* buf = sm + t * kMaxHoldStageBytes;
      // This thread's table entries, requested before the staging so that their latency
      // overlaps.
      load_entries<RPT>(s, g, (rec[t].x & 0xFFFF) * kTileW + (tid & 7) * 4,
                        (rec[t].x >> 16) * 32 * RPT, tid, off2[t], shape4[t]);
      stage_window_rows(polar, s.azimuths, s.bins, w, buf, tid);
      if (tid == 0) *reinterpret_cast<uint4*>(buf + kZeroOff) = make_uint4(0, 0, 0, 0);
    }
    copy_async_commit();  // one group a tile (empty for the others), waited for in order
  }
#pragma unroll
  for (int t = 0; t < kMaxHoldTilesPerBlock; ++t) {
    if (rec[t].x < 0) break;  // past the last slot (so are the later ones)
    const int bx0 = (rec[t].x & 0xFFFF) * kTileW, by0 = (rec[t].x >> 16) * 32 * RPT;
    if ((rec[t].w & 3) != kBlockFast) {
      zero_tile<RPT>(s, out, surf, bx0, by0, tid);
      continue;
    }
    copy_async_wait_groups(kMaxHoldTilesPerBlock - 1 - t);
    __syncthreads();
    const int x0 = bx0 + (tid & 7) * 4;
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
      const int y = by0 + (tid >> 3) + 32 * j;
      if (y >= s.height || x0 >= s.width) continue;
      gather_row(s, sm + t * kMaxHoldStageBytes, pitch[t], off2[t][j][0], off2[t][j][1],
                 shape4[t][j], out, surf, x0, y);
    }
  }
}

// The per-frame gather of the arithmetic route, one launch: near blocks
// first, then the per-pixel tiles (every tile the route cannot take, from their slots), then
// one block per tile position, which gathers the tile if the route takes it (no slot look-up
// before the codes, which would add a dependent load to every block's chain). No shared memory,
// so 8 blocks an SM (32 registers).
template <int RPT>
__global__ void __launch_bounds__(kThreads, SWL_MIN_BLOCKS(kThreads, 8))
    maxhold_arith_kernel(ScanSetup s, const uint8_t* __restrict__ polar, AzPyramid pyr,
                         GatherArgs g, uint8_t* __restrict__ out, unsigned long long surf) {
  // A 2-D grid of blocks_x columns: its first special_rows rows hold the near and per-pixel
  // blocks (row-major), the others the route's (no division for a tile's position).
  const int tid = int(threadIdx.x);
  if (int(blockIdx.y) < g.special_rows) {
    const int bi = int(blockIdx.y * gridDim.x + blockIdx.x);
    if (bi < g.near_blocks) {
      near_block(s, polar, pyr, g.recs, g.blocks_x, 32 * RPT, out, surf, g.box, bi, g.near_blocks);
    } else if (bi - g.near_blocks < g.n_slow) {
      const int pos = __ldg(&g.ordered[bi - g.near_blocks].x);
      per_pixel_tile<RPT>(s, polar, pyr, g, out, surf, (pos & 0xFFFF) * kTileW,
                          (pos >> 16) * 32 * RPT, tid);
    }
    return;
  }
  arith_tile<RPT>(s, g, out, surf, int(blockIdx.x), int(blockIdx.y) - g.special_rows, tid);
}

// Launches `kernel` with the gather's arguments, behind the pyramid kernel with programmatic
// dependent launch when asked: the gather starts while maxhold_pyramid_kernel (launched just
// before, plainly, so after everything earlier on the stream) runs; its blocks that read the
// pyramid wait for it (grid_dependency_wait), the others need nothing it writes.
template <class Kernel>
void launch_gather_kernel(Kernel kernel, dim3 grid, int smem, const ScanSetup& s,
                          const uint8_t* d_polar, AzPyramid pyr, const GatherArgs& g, Out8 out,
                          cudaStream_t stream, bool behind_pyramid) {
  if (!behind_pyramid) {
    kernel<<<grid, kThreads, smem, stream>>>(s, d_polar, pyr, g, out.d, out.surf);
    SWL_CUDA_CHECK_LAUNCH();
    return;
  }
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = size_t(smem);
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  SWL_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, s, d_polar, pyr, g, out.d, out.surf));
}

int near_blocks_for(const NearBox& box) {
  const long long box_px = (long long)box.w * box.h;
  const long long per_block = (kThreads / 32) * kMaxHoldNearPixelsPerWarp;
  return int((box_px + per_block - 1) / per_block);
}

template <int RPT>
void launch_arith_gather(const ScanSetup& s, const uint8_t* d_polar, AzPyramid pyr, GatherArgs g,
                         Out8 out, cudaStream_t stream, bool behind_pyramid) {
  g.near_blocks = near_blocks_for(g.box);
  const int route_rows = g.n_tiles / g.blocks_x;
  // Grid rows are limited to 65535: a narrow display with a large near box gets a wider grid
  // (the route's blocks past blocks_x return at once).
  const long long n_special = (long long)g.near_blocks + g.n_slow;
  long long gx = g.blocks_x;
  const long long max_special_rows = 65535 - route_rows;  // route_rows < 2^15 (usable())
  if ((n_special + gx - 1) / gx > max_special_rows)
    gx = (n_special + max_special_rows - 1) / max_special_rows;
  g.special_rows = int((n_special + gx - 1) / gx);
  launch_gather_kernel(maxhold_arith_kernel<RPT>,
                       dim3(unsigned(gx), unsigned(std::max(1, g.special_rows + route_rows))), 0, s,
                       d_polar, pyr, g, out, stream, behind_pyramid);
}

template <int RPT>
void launch_gather(const ScanSetup& s, const uint8_t* d_polar, AzPyramid pyr, GatherArgs g,
                   Out8 out, cudaStream_t stream, bool behind_pyramid) {
  constexpr int kBytes = kMaxHoldTilesPerBlock * kMaxHoldStageBytes;
  static const bool carved =
      prefer_shared_memory(maxhold_gather_kernel<RPT>) &&
      cudaFuncSetAttribute(maxhold_gather_kernel<RPT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           kBytes) == cudaSuccess;
  (void)carved;
  // The near box's pixels, kMaxHoldNearPixelsPerWarp a warp.
  g.near_blocks = near_blocks_for(g.box);
  const long long pairs =
      (g.n_tiles - g.n_slow + kMaxHoldTilesPerBlock - 1) / kMaxHoldTilesPerBlock;
  launch_gather_kernel(maxhold_gather_kernel<RPT>, dim3(unsigned(g.near_blocks + g.n_slow + pairs)),
                       kBytes, s, d_polar, pyr, g, out, stream, behind_pyramid);
}

// The pyramid's bins 0 .. used - 1 in one launch (at least one block, so that the gather
// launched behind it always follows a grid that started after the earlier work).
void launch_pyramid_fused(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                          int used, cudaStream_t stream) {
  const int n1 = azimuths / kAzBlock1, n2 = azimuths / kAzBlock2;
  used = std::min(bins, std::max(0, used));
  if (n1 == 0) used = 0;
  const unsigned gx = unsigned(std::max(1, (used + 15) / 16)),
                 gy = unsigned(std::max(1, (n1 + 15) / 16));
  maxhold_pyramid_kernel<<<dim3(gx, gy), 256, 0, stream>>>(
      d_polar, d_pyramid, d_pyramid + size_t(n1) * size_t(bins), bins, used, n1, n2);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace

bool MaxHoldTable::usable(const ScanSetup& s) {
  // The predictions are rounded with floor_small (|x| < 2^22); tile positions pack into 16 bits.
  return s.bins >= 1 && s.bins < (1 << 20) && s.azimuths >= 1 && s.azimuths < (1 << 20) &&
         s.width > 0 && s.height > 0 && s.width < (1 << 20) && s.height < (1 << 20);
}

bool MaxHoldTable::takes_range_texture(const ScanSetup& s) {
  return usable(s) && arith_usable(s);
}

bool MaxHoldTable::prepare(const ScanSetup& s, cudaStream_t stream) {
  if (valid_ && std::memcmp(&s, &setup_, sizeof s) == 0) return false;
  {
    int dev = 0, major = 0;
    SWL_CUDA_CHECK(cudaGetDevice(&dev));
    SWL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    pdl_ = major >= 9;
  }
  const int bx = (s.width + kTileW - 1) / kTileW;
  const int by = (s.height + kMaxHoldTileRows - 1) / kMaxHoldTileRows;
  const size_t n = size_t(bx) * size_t(by);
  const bool arith = arith_usable(s);
  d_offs_.resize(size_t(s.width) * size_t(s.height));
  d_shapes_.resize(size_t(s.width) * size_t(s.height));
  d_blocks_.resize(3 * n);  // by tile, then by slot, then by slot for the arithmetic route
  d_counts_.resize(4);
  d_codes_.resize(arith ? size_t(s.width) * size_t(s.height) : 0);
  d_arith_ok_.resize(arith ? n : 0);
  uint8_t* codes = arith ? d_codes_.get() : nullptr;
  int* ok = arith ? d_arith_ok_.get() : nullptr;
  maxhold_build_kernel<kRpt><<<dim3(unsigned(bx), unsigned(by)), kThreads, 0, stream>>>(
      s, d_offs_.get(), d_shapes_.get(), d_blocks_.get(), codes, ok);
  SWL_CUDA_CHECK_LAUNCH();
  maxhold_order_kernel<<<1, kOrderThreads, 0, stream>>>(d_blocks_.get(), nullptr, int(n), bx,
                                                        d_blocks_.get() + n, d_counts_.get());
  SWL_CUDA_CHECK_LAUNCH();
  int counts[4] = {0, 0, 0, 0};
  if (arith) {
    maxhold_order_kernel<<<1, kOrderThreads, 0, stream>>>(
        d_blocks_.get(), ok, int(n), bx, d_blocks_.get() + 2 * n, d_counts_.get() + 2);
    SWL_CUDA_CHECK_LAUNCH();
  }
  // How many per-pixel (and route) tiles (once per geometry): the gather launch's first blocks.
  SWL_CUDA_CHECK(cudaMemcpyAsync(counts, d_counts_.get(), (arith ? 4 : 2) * sizeof(int),
                                 cudaMemcpyDeviceToHost, stream));
  SWL_CUDA_CHECK(cudaStreamSynchronize(stream));
  n_slow_ = counts[0];
  n_slow_arith_ = counts[2];
  n_arith_ = counts[3];
  arith_built_ = arith;
  setup_ = s;
  valid_ = true;
  return true;
}

void MaxHoldTable::scan(const ScanSetup& s, const uint8_t* d_polar, uint8_t* d_pyramid, Out8 out,
                        cudaStream_t stream, const PolarTexture* range_tex) {
  if (!usable(s)) {
    launch_scan(s, d_polar, ScanMode::MaxHold, out, d_pyramid, stream);
    return;
  }
  SWL_CHECK(d_pyramid != nullptr, "max-hold scan conversion needs a pyramid buffer");
  prepare(s, stream);
  // Before sm_90, the two plain pyramid launches, then the gather.
  if (pdl_)
    launch_pyramid_fused(d_polar, s.azimuths, s.bins, d_pyramid, pyramid_bins_needed(s), stream);
  else
    launch_az_pyramid(d_polar, s.azimuths, s.bins, d_pyramid, stream, pyramid_bins_needed(s));
  AzPyramid pyr;
  pyr.l1 = d_pyramid;
  pyr.l2 = d_pyramid + size_t(s.azimuths / kAzBlock1) * size_t(s.bins);
  const int bx = (s.width + kTileW - 1) / kTileW;
  const int by = (s.height + kMaxHoldTileRows - 1) / kMaxHoldTileRows;
  const int n = bx * by;  // < 2^31: usable() bounds width and height by 2^20, tiles by 2^25
  GatherArgs g;
  g.offs = d_offs_.get();
  g.shapes = d_shapes_.get();
  g.recs = d_blocks_.get();
  g.ordered = d_blocks_.get() + n;
  g.blocks_x = bx;
  g.near_blocks = 0;  // set by launch_gather
  g.n_slow = n_slow_;
  g.n_tiles = n;
  g.box = near_box(s);
  g.codes = d_codes_.get();
  g.arith_ok = d_arith_ok_.get();
  g.tex = 0;
  g.r3_row0 = 0;
  g.special_rows = 0;
  // The arithmetic route needs the frame's range-max texture (holding this frame).
  if (arith_built_ && range_tex != nullptr && range_tex->range_max_row0() > 0 &&
      range_tex->azimuths() == s.azimuths && range_tex->bins() == s.bins) {
    g.ordered = d_blocks_.get() + 2 * n;
    g.n_slow = n_slow_arith_;
    g.tex = range_tex->texture();
    g.r3_row0 = range_tex->range_max_row0();
    launch_arith_gather<kRpt>(s, d_polar, pyr, g, out, stream, pdl_);
    return;
  }
  launch_gather<kRpt>(s, d_polar, pyr, g, out, stream, pdl_);
}

MaxHoldTable::BlockCounts MaxHoldTable::block_counts(cudaStream_t stream) const {
  BlockCounts c;
  if (!valid_) return c;
  std::vector<int4> h(d_blocks_.size() / 3);  // by tile
  SWL_CUDA_CHECK(cudaMemcpyAsync(h.data(), d_blocks_.get(), h.size() * sizeof(int4),
                                 cudaMemcpyDeviceToHost, stream));
  SWL_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (const int4& r : h) {
    const int m = r.w & 3;
    (m == kBlockZero ? c.zero : m == kBlockFast ? c.table : c.per_pixel)++;
  }
  if (arith_built_) {
    c.arith = n_arith_;
    c.arith_per_pixel = n_slow_arith_;
  }
  return c;
}

}  // namespace sweepline::gpu::cuda
