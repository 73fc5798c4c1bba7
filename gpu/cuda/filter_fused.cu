// Both passes of the separable Gaussian, and of the separable bilateral, in one kernel each
// (gpu/cuda/filter_kernels.hpp): the Gaussian's multiply-add kernel (the pipeline's below
// kGaussianMmaMinRadius and without tensor cores) and the pipeline's bilateral.
//
// A 256-thread block owns a 128 x 64 output tile. It loads the tile's input with aprons (A = R
// rounded up to 8 columns each side, R rows above and below, edges clamped) into shared memory
// in 8-byte words; the row pass turns it into the 8.8 fixed-point intermediate, kept in shared
// memory; the column pass keeps its sums in registers and stores whole output words. The radius
// is a template parameter, so every loop is unrolled and every tap index constant. A block walks
// a vertical strip of tiles, each tile reusing the last 2R intermediate rows of the one before
// and copying its new input rows while the previous tile's column pass runs.
//
// No integer<->float conversion instructions (a quarter of the FMA rate on sm_90, where they
// bound a kernel that converted every tap): a byte b becomes a float as the bit pattern 0x4B0000bb
// (= 2^23 + b) minus 2^23, and a float v in [0, 2^23) is truncated to an integer by adding 2^23
// rounding toward zero (the integer lands in the low mantissa bits). These are exact, so the
// kernels keep the CPU's numbers: same taps, same order, same 8.8 rounding of the intermediate
// (trunc(v * 256 + 0.5)), same final rounding (trunc(v / 256 + 0.5)), same range-weight table
// index; only the fused multiply-adds and the bilateral's divisions (__fdividef, 2 ulp) differ
// (within one level, see docs/pipeline.md).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <vector>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/filter_kernels.hpp"
#include "gpu/cuda/launch_bounds.cuh"
#include "gpu/cuda/radius_dispatch.hpp"
#include "gpu/cuda/surface_store.cuh"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::cuda {

namespace {

constexpr int kTileW = 128, kTileH = 64, kThreads = 256;
constexpr int kGroup = 8;  // Gaussian row-pass outputs per thread
constexpr float kMagic = 8388608.0f;
constexpr unsigned kMagicBits = 0x4B000000u;

struct FusedTaps {
  float w[2 * kMaxGaussianRadius + 1];  // Gaussian weights, or the bilateral's spatial weights
  float wr[256];                        // bilateral range weights
  float centre;                         // bilateral: w[R] * wr[0], the centre tap's weight (d = 0)
};

template <int R>
struct Geom {
  static constexpr int A = (R + 7) / 8 * 8;        // apron columns each side (8-byte loads)
  static constexpr int TWI = kTileW + 2 * A;       // input tile pitch (bytes, a multiple of 8)
  static constexpr int THI = kTileH + 2 * R;       // input and intermediate rows
  static constexpr int NW = (kGroup + 2 * A) / 4;  // 32-bit words a row-pass group reads
  // The Gaussian's shared memory: the float intermediate, then the input tile.
  static constexpr size_t smem = size_t(THI) * kTileW * 4 + size_t(THI) * TWI;
};

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return min(max(v, lo), hi);
}

// Byte k (constant) of a word as a float.
__device__ __forceinline__ float byte_f(uint32_t word, int k) {
  return __int_as_float(__byte_perm(word, kMagicBits, 0x7540u | unsigned(k))) - kMagic;
}

// to_fixed(v) as an exact float: trunc(v * 256 + 0.5); v >= 0 and small here.
__device__ __forceinline__ float fixed_f(float v) {
  return __fadd_rz(fmaf(v, kFixedScale, 0.5f), kMagic) - kMagic;
}

// fixed_to_level(v) in the low byte of the result: trunc(min(v / 256 + 0.5, 255)); v >= 0.
__device__ __forceinline__ uint32_t level_bits(float v_fixed) {
  const float f = fminf(fmaf(v_fixed, 1.0f / kFixedScale, 0.5f), 255.0f);
  return __float_as_uint(__fadd_rz(f, kMagic));
}

__device__ __forceinline__ uint32_t pack4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return __byte_perm(__byte_perm(a, b, 0x0040u), __byte_perm(c, d, 0x0040u), 0x5410u);
}

// Inputs [x, x + 8) of a row, clamped at both edges.
__device__ __forceinline__ void load8(uint8_t* dst, const uint8_t* __restrict__ row, int x, int w) {
  if (x >= 0 && x + 7 < w && (w & 7) == 0) {
    *reinterpret_cast<uint2*>(dst) = __ldg(reinterpret_cast<const uint2*>(row + x));
  } else {
#pragma unroll
    for (int i = 0; i < 8; ++i) dst[i] = row[clampi(x + i, 0, w - 1)];
  }
}

// 4 output bytes (packed) at (x, y), clipped at the right edge; also into the surface.
__device__ __forceinline__ void store4(Out8 out, int x, int y, int w, uint32_t packed) {
  uint8_t* row = out.d + size_t(y) * size_t(w);
  if (x + 3 < w && (w & 3) == 0) {
    *reinterpret_cast<uint32_t*>(row + x) = packed;
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x + i < w) row[x + i] = uint8_t(packed >> (8 * i));
  }
  if (out.surf) surf_store4(out.surf, x, y, w, packed);
}

// Row pass over input tile rows [0, NRows): mid row mid0 + j from tile row j, all kTileW columns.
template <int R, int NRows>
__device__ __forceinline__ void row_pass(const uint8_t* tile, float* mid, int mid0,
                                         const FusedTaps& taps) {
  using G = Geom<R>;
  constexpr int kGroupsPerRow = kTileW / kGroup;
  for (int task = threadIdx.x; task < NRows * kGroupsPerRow; task += kThreads) {
    const int j = task / kGroupsPerRow, c0 = (task % kGroupsPerRow) * kGroup;
    // Tile bytes [c0, c0 + 8 + 2A): output c0 + o reads taps at bytes c0 + o + A - R + k.
    const uint2* src = reinterpret_cast<const uint2*>(tile + j * G::TWI + c0);
    uint32_t wd[G::NW];
#pragma unroll
    for (int i = 0; i < G::NW / 2; ++i) {
      const uint2 q = src[i];
      wd[2 * i] = q.x;
      wd[2 * i + 1] = q.y;
    }
    float x[kGroup + 2 * R];
#pragma unroll
    for (int k = 0; k < kGroup + 2 * R; ++k) {
      const int b = G::A - R + k;
      x[k] = byte_f(wd[b >> 2], b & 3);
    }
    float v[kGroup];
#pragma unroll
    for (int o = 0; o < kGroup; ++o) {
      float acc = 0.0f;
#pragma unroll
      for (int k = 0; k <= 2 * R; ++k) acc = fmaf(taps.w[k], x[o + k], acc);
      v[o] = fixed_f(acc);
    }
    float4* dst = reinterpret_cast<float4*>(mid + (mid0 + j) * kTileW + c0);
    dst[0] = make_float4(v[0], v[1], v[2], v[3]);
    dst[1] = make_float4(v[4], v[5], v[6], v[7]);
  }
}

// Column pass of one tile: output rows ty0 .. ty0 + 63 from mid rows 0 .. THI - 1.
template <int R>
__device__ __forceinline__ void column_pass(const float* mid, Out8 out, int tx0, int ty0, int w,
                                            int h, const FusedTaps& taps) {
  const int tid = threadIdx.x, c = 4 * (tid & 31), x = tx0 + c;
  if (x >= w) return;
  constexpr int M = 8;  // rows per thread: 8 warps x 8 = kTileH
  const int r0 = (tid >> 5) * M;
  float acc[M][4];
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[i][q] = 0.0f;
#pragma unroll
  for (int jj = 0; jj < M + 2 * R; ++jj) {
    const float4 m = *reinterpret_cast<const float4*>(mid + (r0 + jj) * kTileW + c);
#pragma unroll
    for (int i = 0; i < M; ++i) {
      const int k = jj - i;
      if (k >= 0 && k <= 2 * R) {
        acc[i][0] = fmaf(taps.w[k], m.x, acc[i][0]);
        acc[i][1] = fmaf(taps.w[k], m.y, acc[i][1]);
        acc[i][2] = fmaf(taps.w[k], m.z, acc[i][2]);
        acc[i][3] = fmaf(taps.w[k], m.w, acc[i][3]);
      }
    }
  }
#pragma unroll
  for (int i = 0; i < M; ++i) {
    const int y = ty0 + r0 + i;
    if (y >= h) continue;  // not break: keeps acc[] in registers
    store4(out, x, y, w,
           pack4(level_bits(acc[i][0]), level_bits(acc[i][1]), level_bits(acc[i][2]),
                 level_bits(acc[i][3])));
  }
}

// load8 without waiting: an asynchronous copy (cp.async) where the 8 bytes are inside the row
// and aligned, else the clamped bytes now (the image's left and right edges only).
__device__ __forceinline__ void load8_async(uint8_t* dst, const uint8_t* __restrict__ row, int x,
                                            int w) {
  if (x >= 0 && x + 7 < w && (w & 7) == 0)
    __pipeline_memcpy_async(dst, row + x, 8);
  else
    load8(dst, row, x, w);
}

// A block filters a vertical strip of `strip` tiles (column blockIdx.x). The first tile's rows
// are all computed; each next tile reuses the last 2R intermediate rows of the one before (moved
// to the top of mid) and row-filters only its 64 new input rows, whose copy into the (then idle)
// input tile is started before the column pass of the current tile, so that it overlaps it.
// Resident blocks per SM the shared memory allows (4 up to R = 8, 3 above): the register cap
// that keeps them all resident.
template <int R>
constexpr int kGaussMinBlocks = R <= 8 ? 4 : 3;

template <int R>
__global__ void __launch_bounds__(kThreads, SWL_MIN_BLOCKS(kThreads, kGaussMinBlocks<R>))
    gauss_fused_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h, int strip,
                       const __grid_constant__ FusedTaps taps) {
  using G = Geom<R>;
  extern __shared__ __align__(16) unsigned char smem[];
  float* mid = reinterpret_cast<float*>(smem);         // [THI][kTileW]
  uint8_t* tile = smem + size_t(G::THI) * kTileW * 4;  // [THI][TWI]
  const int tid = threadIdx.x, tx0 = blockIdx.x * kTileW;
  const int tile_rows = (h + kTileH - 1) / kTileH, t0 = blockIdx.y * strip;
  const int ntiles = min(strip, tile_rows - t0), ys = t0 * kTileH;  // the strip's first row
  constexpr int kWords = G::TWI / 8;                                // 8-byte words a tile row
  const auto src_row = [&](int y) { return in + size_t(clampi(y, 0, h - 1)) * size_t(w); };

  for (int i = tid; i < G::THI * kWords; i += kThreads) {
    const int j = i / kWords, q = i - j * kWords;
    load8(tile + j * G::TWI + 8 * q, src_row(ys - R + j), tx0 - G::A + 8 * q, w);
  }
  __syncthreads();
  row_pass<R, G::THI>(tile, mid, 0, taps);
  __syncthreads();

  constexpr int kCarry = 2 * R * (kTileW / 4), kKeep = (kCarry + kThreads - 1) / kThreads;
  for (int t = 0; t < ntiles; ++t) {
    const bool more = t + 1 < ntiles;
    const int ty0 = ys + t * kTileH;
    if (more) {  // the next tile's new input rows: image rows ty0 + 64 + R + j, j < 64
      for (int i = tid; i < kTileH * kWords; i += kThreads) {
        const int j = i / kWords, q = i - j * kWords;
        load8_async(tile + j * G::TWI + 8 * q, src_row(ty0 + kTileH + R + j), tx0 - G::A + 8 * q,
                    w);
      }
      __pipeline_commit();
    }
    column_pass<R>(mid, out, tx0, ty0, w, h, taps);
    if (!more) break;
    __syncthreads();
    // mid rows 64 .. 64 + 2R - 1 become rows 0 .. 2R - 1.
    float4 keep[kKeep];
#pragma unroll
    for (int p = 0; p < kKeep; ++p) {
      const int i = tid + p * kThreads;
      if (i < kCarry) keep[p] = reinterpret_cast<const float4*>(mid + kTileH * kTileW)[i];
    }
    __pipeline_wait_prior(0);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kKeep; ++p) {
      const int i = tid + p * kThreads;
      if (i < kCarry) reinterpret_cast<float4*>(mid)[i] = keep[p];
    }
    row_pass<R, kTileH>(tile, mid, 2 * R, taps);
    __syncthreads();
  }
}

// ---- The bilateral with shared pair weights ----
//
// The range weight of a tap pair is symmetric: output x at tap +k and output x + k at tap -k
// both weigh wr[|p(x) - p(x + k)|] * ws[k] (ws[k] = ws[-k] exactly), so a thread that walks a
// run of consecutive outputs computes every pair weight once and adds it to both outputs:
// about R + R(R+1) / (2 run) lookups an output instead of 2R. Walking the pairs by their first
// element, each output still receives its taps in the CPU's order -R .. R (tap -k from the pair
// that starts k before it, then the centre, then its own pairs k = 1 .. R), so the sums are the
// CPU's, term for term. Row pass: 32 outputs a thread, the level differences of 4 pairs
// in one vabsdiff4 of byte words; column pass: 2 adjacent columns x 16 rows a thread, the
// intermediate kept as uint16 and the two columns' differences (|p - c| + 128, the CPU's
// rounding to a level) in one max/min/subtract of 16-bit pairs. The range table is [d][64]
// floats, lanes 0..31 used: the byte offset d * 256 + 4 lane is one byte permute of the
// difference word, and a warp's 32 lookups hit 32 different banks.
constexpr int kRowRun = 32, kColRun = 16;
constexpr size_t kPairTableBytes = 256 * 64 * 4;

template <int R>
constexpr size_t pair_smem() {
  using G = Geom<R>;
  return kPairTableBytes + size_t(G::THI) * kTileW * 2 + size_t(G::THI) * G::TWI;
}

// The table's float at byte offset off: a 32-bit shared address (a generic pointer plus a
// 32-bit offset costs a 64-bit add).
__device__ __forceinline__ float table_at(const unsigned char* tab, uint32_t off) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("ld.shared.f32 %0, [%1];" : "=f"(r) : "r"(uint32_t(__cvta_generic_to_shared(tab)) + off));
  return r;
#else
  return *reinterpret_cast<const float*>(tab + off);
#endif
}

// |a - b| + 128 in both 16-bit halves (no borrow: max - min >= 0 per half; <= 65408).
__device__ __forceinline__ uint32_t absdiff_round_u16x2(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t hi, lo;
  asm("max.u16x2 %0, %1, %2;" : "=r"(hi) : "r"(a), "r"(b));
  asm("min.u16x2 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));
  return hi - lo + 0x00800080u;
#else
  return __vmaxu2(a, b) - __vminu2(a, b) + 0x00800080u;
#endif
}

// Half c (constant) of a word of two uint16 as a float.
__device__ __forceinline__ float half_f(uint32_t word, int c) {
  return __int_as_float(__byte_perm(word, kMagicBits, c ? 0x7632u : 0x7610u)) - kMagic;
}

// Row pass, pair-shared: mid rows mid0 + j (uint16) from input tile rows j < NRows.
template <int R, int NRows>
__device__ __forceinline__ void pair_row_pass(const uint8_t* tile, uint16_t* mid, int mid0,
                                              const unsigned char* tab, uint32_t lane4,
                                              const FusedTaps& taps) {
  using G = Geom<R>;
  constexpr int kRuns = kTileW / kRowRun, NW = (kRowRun + 2 * G::A) / 4;
  for (int task = threadIdx.x; task < NRows * kRuns; task += kThreads) {
    const int j = task / kRuns, c0 = (task % kRuns) * kRowRun;
    // Tile bytes [c0, c0 + 32 + 2A): output o sits at byte A + o.
    const uint4* src = reinterpret_cast<const uint4*>(tile + j * G::TWI + c0);
    uint32_t wd[NW];
#pragma unroll
    for (int i = 0; i < NW / 4; ++i) {
      const uint4 q = src[i];
      wd[4 * i] = q.x;
      wd[4 * i + 1] = q.y;
      wd[4 * i + 2] = q.z;
      wd[4 * i + 3] = q.w;
    }
    // The inputs as floats, each converted once (bytes A - R .. A + 31 + R are read).
    float xf[kRowRun + 2 * G::A];
#pragma unroll
    for (int b = G::A - R; b < G::A + kRowRun + R; ++b) xf[b] = byte_f(wd[b >> 2], b & 3);
    float num[kRowRun], den[kRowRun];
#pragma unroll
    for (int o = 0; o < kRowRun; ++o) num[o] = den[o] = 0.0f;
    uint32_t diff[R + 1];  // diff[k]: |byte(i) - byte(i + k)| for the 4 bytes i of a's word
    uint32_t res[kRowRun / 2];
#pragma unroll
    for (int a = G::A - R; a < G::A + kRowRun; ++a) {
      const int oa = a - G::A;  // a's output, when >= 0
      if (oa >= 0) {
        num[oa] = fmaf(taps.centre, xf[a], num[oa]);
        den[oa] += taps.centre;
      }
#pragma unroll
      for (int k = 1; k <= R; ++k) {
        const int ob = oa + k;  // the output of a + k, when in 0 .. kRowRun - 1
        if (ob < 0) continue;
        if ((a & 3) == 0 || a == G::A - k) {
          const int i = a >> 2, s = k & 3, q = i + (k >> 2);
          const uint32_t shifted =
              s == 0 ? wd[q] : __funnelshift_r(wd[q], wd[min(q + 1, NW - 1)], 8 * s);
          diff[k] = __vabsdiffu4(wd[i], shifted);
        }
        const uint32_t off = __byte_perm(lane4, diff[k], 0x1140u + 16u * unsigned(a & 3));
        const float wt = taps.w[R + k] * table_at(tab, off);
        if (oa >= 0) {
          num[oa] = fmaf(wt, xf[a + k], num[oa]);
          den[oa] += wt;
        }
        if (ob < kRowRun) {
          num[ob] = fmaf(wt, xf[a], num[ob]);
          den[ob] += wt;
        }
      }
      if (oa >= 0) {  // to_fixed(num / den) in the low 16 bits; den >= the centre weight > 0
        const uint32_t bits = __float_as_uint(
            __fadd_rz(fmaf(__fdividef(num[oa], den[oa]), kFixedScale, 0.5f), kMagic));
        res[oa >> 1] = (oa & 1) ? __byte_perm(res[oa >> 1], bits, 0x5410u) : bits;
      }
    }
    uint4* dst = reinterpret_cast<uint4*>(mid + (mid0 + j) * kTileW + c0);
#pragma unroll
    for (int i = 0; i < kRowRun / 8; ++i)
      dst[i] = make_uint4(res[4 * i], res[4 * i + 1], res[4 * i + 2], res[4 * i + 3]);
  }
}

// 2 output bytes (the low bytes of lo and hi) at (x, y), clipped at the right edge.
__device__ __forceinline__ void store2(Out8 out, int x, int y, int w, uint32_t lo, uint32_t hi) {
  uint8_t* row = out.d + size_t(y) * size_t(w);
  if (x + 1 < w && (w & 1) == 0) {
    *reinterpret_cast<uint16_t*>(row + x) = uint16_t(__byte_perm(lo, hi, 0x0040u));
  } else {
    row[x] = uint8_t(lo);
    if (x + 1 < w) row[x + 1] = uint8_t(hi);
  }
  if (out.surf) surf_store2(out.surf, x, y, w, uint8_t(lo), uint8_t(hi));
}

// Column pass, pair-shared: output rows ty0 .. ty0 + 63 from mid rows 0 .. THI - 1.
template <int R>
__device__ __forceinline__ void pair_column_pass(const uint16_t* mid, Out8 out, int tx0, int ty0,
                                                 int w, int h, const unsigned char* tab,
                                                 uint32_t lane4, const FusedTaps& taps) {
  constexpr int M = kColRun, kPitch = kTileW / 2;  // words a mid row
  const int cp = threadIdx.x & 63, r0 = (threadIdx.x >> 6) * M, x = tx0 + 2 * cp;
  if (x >= w) return;
  // Mid rows r0 + a, a < M + 2R; output row ty0 + r0 + i is mid row r0 + R + i.
  const uint32_t* col = reinterpret_cast<const uint32_t*>(mid) + r0 * kPitch + cp;
  uint32_t p[M + 2 * R];
#pragma unroll
  for (int a = 0; a < M + 2 * R; ++a) p[a] = col[a * kPitch];
  float mf[2][M + 2 * R];  // the values as floats, each converted once
#pragma unroll
  for (int a = 0; a < M + 2 * R; ++a) mf[0][a] = half_f(p[a], 0), mf[1][a] = half_f(p[a], 1);
  float num[2][M], den[2][M];
#pragma unroll
  for (int i = 0; i < M; ++i) num[0][i] = num[1][i] = den[0][i] = den[1][i] = 0.0f;
#pragma unroll
  for (int a = 0; a < M + R; ++a) {
    const int oa = a - R;
#pragma unroll
    for (int c = 0; c < 2; ++c)
      if (oa >= 0) {
        num[c][oa] = fmaf(taps.centre, mf[c][a], num[c][oa]);
        den[c][oa] += taps.centre;
      }
#pragma unroll
    for (int k = 1; k <= R; ++k) {
      const int ob = oa + k;
      if (ob < 0) continue;
      // min(255, (|p - c| + 128) >> 8) is byte 1 (column 0) or 3 (column 1): never above 255.
      const uint32_t d = absdiff_round_u16x2(p[a], p[a + k]);
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const uint32_t off = __byte_perm(lane4, d, c ? 0x1170u : 0x1150u);
        const float wt = taps.w[R + k] * table_at(tab, off);
        if (oa >= 0) {
          num[c][oa] = fmaf(wt, mf[c][a + k], num[c][oa]);
          den[c][oa] += wt;
        }
        if (ob < M) {
          num[c][ob] = fmaf(wt, mf[c][a], num[c][ob]);
          den[c][ob] += wt;
        }
      }
    }
    if (oa >= 0) {
      const int y = ty0 + r0 + oa;
      if (y < h)
        store2(out, x, y, w, level_bits(__fdividef(num[0][oa], den[0][oa])),
               level_bits(__fdividef(num[1][oa], den[1][oa])));
    }
  }
}

// gauss_fused_kernel's strip walk with the pair-shared passes and a uint16 intermediate.
template <int R>
__global__ void __launch_bounds__(kThreads, SWL_MIN_BLOCKS(kThreads, 2))
    pair_bilateral_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h, int strip,
                          const __grid_constant__ FusedTaps taps) {
  using G = Geom<R>;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned char* tab = smem;                                             // [256][64] floats
  uint16_t* mid = reinterpret_cast<uint16_t*>(smem + kPairTableBytes);   // [THI][kTileW]
  uint8_t* tile = smem + kPairTableBytes + size_t(G::THI) * kTileW * 2;  // [THI][TWI]
  const int tid = threadIdx.x, tx0 = blockIdx.x * kTileW;
  const int tile_rows = (h + kTileH - 1) / kTileH, t0 = blockIdx.y * strip;
  const int ntiles = min(strip, tile_rows - t0), ys = t0 * kTileH;
  constexpr int kWords = G::TWI / 8;
  const auto src_row = [&](int y) { return in + size_t(clampi(y, 0, h - 1)) * size_t(w); };

  for (int i = tid; i < G::THI * kWords; i += kThreads) {
    const int j = i / kWords, q = i - j * kWords;
    load8(tile + j * G::TWI + 8 * q, src_row(ys - R + j), tx0 - G::A + 8 * q, w);
  }
  for (int i = tid; i < 256 * 32; i += kThreads)
    reinterpret_cast<float*>(tab)[(i >> 5) * 64 + (i & 31)] = taps.wr[i >> 5];
  __syncthreads();
  const uint32_t lane4 = 4u * uint32_t(tid & 31);
  pair_row_pass<R, G::THI>(tile, mid, 0, tab, lane4, taps);
  __syncthreads();

  constexpr int kCarry = 2 * R * kTileW * 2 / 16, kKeep = (kCarry + kThreads - 1) / kThreads;
  for (int t = 0; t < ntiles; ++t) {
    const bool more = t + 1 < ntiles;
    const int ty0 = ys + t * kTileH;
    if (more) {
      for (int i = tid; i < kTileH * kWords; i += kThreads) {
        const int j = i / kWords, q = i - j * kWords;
        load8_async(tile + j * G::TWI + 8 * q, src_row(ty0 + kTileH + R + j), tx0 - G::A + 8 * q,
                    w);
      }
      __pipeline_commit();
    }
    pair_column_pass<R>(mid, out, tx0, ty0, w, h, tab, lane4, taps);
    if (!more) break;
    __syncthreads();
    uint4 keep[kKeep];
#pragma unroll
    for (int p = 0; p < kKeep; ++p) {
      const int i = tid + p * kThreads;
      if (i < kCarry) keep[p] = reinterpret_cast<const uint4*>(mid + kTileH * kTileW)[i];
    }
    __pipeline_wait_prior(0);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kKeep; ++p) {
      const int i = tid + p * kThreads;
      if (i < kCarry) reinterpret_cast<uint4*>(mid)[i] = keep[p];
    }
    pair_row_pass<R, kTileH>(tile, mid, 2 * R, tab, lane4, taps);
    __syncthreads();
  }
}

// Tiles per strip: the fewest that fit all strips in one wave of resident blocks (a second,
// partial wave would cost a whole strip's time).
template <auto Kernel>
int auto_strip(int tile_cols, int tile_rows, size_t smem) {
  static const int slots = [&] {
    int blocks = 0, dev = 0, sms = 0;
    SWL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, kThreads, smem));
    SWL_CUDA_CHECK(cudaGetDevice(&dev));
    SWL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return std::max(1, blocks * sms);
  }();
  for (int strip = 1; strip < tile_rows; ++strip)
    if (long(tile_cols) * ((tile_rows + strip - 1) / strip) <= slots) return strip;
  return std::max(1, tile_rows);
}

// Launches Kernel over the image's tile columns, a block a strip of `strip` tiles (0: auto_strip).
template <auto Kernel>
void launch_strips(size_t smem, const uint8_t* d_in, Out8 out, int w, int h, const FusedTaps& taps,
                   cudaStream_t stream, int strip) {
  static const cudaError_t attr =
      cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  SWL_CUDA_CHECK(attr);
  const int tile_cols = (w + kTileW - 1) / kTileW, tile_rows = (h + kTileH - 1) / kTileH;
  if (strip <= 0) strip = auto_strip<Kernel>(tile_cols, tile_rows, smem);
  strip = std::min(strip, tile_rows);
  const dim3 grid(unsigned(tile_cols), unsigned((tile_rows + strip - 1) / strip));
  Kernel<<<grid, kThreads, smem, stream>>>(d_in, out, w, h, strip, taps);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_gaussian_fused(const uint8_t* d_in, Out8 out, int w, int h,
                           const std::vector<float>& weights, cudaStream_t stream,
                           StripOptions strips) {
  SWL_CHECK(weights.size() % 2 == 1 && weights.size() <= 2 * kMaxGaussianRadius + 1,
            "Gaussian: bad kernel size");
  SWL_CHECK(w > 0 && h > 0, "Gaussian: empty image");
  FusedTaps taps{};
  for (size_t i = 0; i < weights.size(); ++i) taps.w[i] = weights[i];
  with_radius<kMaxGaussianRadius>(
      int(weights.size() / 2),
      [&](auto r) {
        constexpr int R = decltype(r)::value;
        launch_strips<gauss_fused_kernel<R>>(Geom<R>::smem, d_in, out, w, h, taps, stream,
                                             strips.strip_tiles);
      },
      "Gaussian: radius out of range");
}

void launch_bilateral(const uint8_t* d_in, Out8 out, int w, int h,
                      const std::vector<float>& spatial, const std::array<float, 256>& range,
                      cudaStream_t stream, StripOptions strips) {
  SWL_CHECK(spatial.size() % 2 == 1 && spatial.size() <= 2 * kMaxBilateralRadius + 1,
            "bilateral: bad kernel size");
  SWL_CHECK(w > 0 && h > 0, "bilateral: empty image");
  FusedTaps taps{};
  for (size_t i = 0; i < spatial.size(); ++i) taps.w[i] = spatial[i];
  for (size_t i = 0; i < 256; ++i) taps.wr[i] = range[i];
  taps.centre = spatial[spatial.size() / 2] * range[0];  // the CPU's product for d = 0
  with_radius<kMaxBilateralRadius>(
      int(spatial.size() / 2),
      [&](auto r) {
        constexpr int R = decltype(r)::value;
        launch_strips<pair_bilateral_kernel<R>>(pair_smem<R>(), d_in, out, w, h, taps, stream,
                                                strips.strip_tiles);
      },
      "bilateral: radius out of range");
}

}  // namespace sweepline::gpu::cuda
