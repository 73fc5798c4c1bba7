// Both passes of the separable Gaussian on the tensor cores (sm_80+; filter_kernels.hpp): each
// pass is a product with a banded Toeplitz matrix of the weights, computed by integer mma.sync
// (m16n8k32, u8 x u8 -> s32, exact).
//
// Why integers: the input bytes are u8 operands as they are (no conversion instruction at all),
// the accumulation is exact, and every rounding is a shift. The weights become W_k =
// rint(w_k * 2^16), the centre tap set so that they sum to exactly 2^16 (a constant image stays
// unchanged), in two byte slices (W = s0 + 256 s1), one mma per slice. The row pass gives S =
// sum W_k x_k exactly, and the 8.8 intermediate is the CPU's trunc(acc * 256 + 0.5) =
// (S + 2^7) >> 8. The intermediate (16 bits) is kept as two byte planes, hi and lo, transposed
// ([x][y]) so that the column pass reads 4 consecutive rows as one 32-bit word. Column pass:
// sum W_k mid_k = s0 L + 256 (s0 H + s1 L) + 65536 s1 H exactly (below 2^32 as the weights sum
// to 2^16), 4 mma per step, and the CPU's trunc(v / 256 + 0.5) is one shift. The only
// differences to the CPU are the weights' rounding to 2^-17 and the CPU's own float rounding
// (within one level, see tests/gpu/cuda/test_gpu_filters.cpp). Three slices (weights to 2^-23,
// 6 + 5 mma a step) measured slower: docs/decisions/0014-gaussian.md.
//
// Layout: a 256-thread block owns a 128 x TH output tile. Row pass: warp w computes output
// columns 16w .. 16w + 15 (the Toeplitz matrix is the constant A operand, kept in registers;
// the input rows are B, 8 rows an ldmatrix) for all TH + 2R intermediate rows. Column pass: the
// Toeplitz matrix is again A (16 output rows), the transposed planes are B (8 columns). Outputs
// are staged in shared memory and written as 16-byte stores.
//
// The input tile is copied with cp.async, every copy of a thread in flight at once (a
// load-store loop of 8-byte words cost ~13 full global latencies in a row per block).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/filter_kernels.hpp"
#include "gpu/cuda/launch_bounds.cuh"
#include "gpu/cuda/radius_dispatch.hpp"
#include "gpu/cuda/surface_store.cuh"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::cuda {

namespace {

constexpr int kTileW = 128, kThreads = 256;
constexpr int kStagePitch = kTileW + 16;  // output staging rows: 36 words, conflict-free rows

// The weight slices in shared memory, zero-padded: band[sl][kBandPad + t] = wb[sl][t] for t in
// 0 .. 2R, else 0. The fragments' per-lane indices differ, and indexed reads of the kernel
// parameter (constant bank) serialise across a warp's distinct addresses: that made the first
// version 3x slower than the FMA kernel.
constexpr int kBandPad = 32, kBand = 4 * kBandPad;  // bytes per slice; t from -22 to 67 read
constexpr int kSl = 2;                              // weight byte slices

// Weight byte slices, [slice][tap] (tap 0 .. 2R).
struct MmaTaps {
  unsigned char wb[kSl][2 * kMaxGaussianRadius + 1];
};

// A pitch >= need with pitch % 32 == 16 bytes (an odd multiple of 4 words mod 32 banks): the
// 8 rows x 4 words of an mma fragment then fall in 32 different banks.
constexpr int bank_pitch(int need) {
  return (need + 15) / 32 * 32 + 16;
}
constexpr int imax(int a, int b) {
  return a > b ? a : b;
}

template <int R, int TH>
struct MmaGeom {
  static constexpr int A = (R + 7) / 8 * 8;          // apron columns each side
  static constexpr int KR = (16 + A + R + 31) / 32;  // row pass k-steps of 32
  static constexpr int KC = (16 + 2 * R + 31) / 32;  // column pass k-steps of 32
  static constexpr int NT = (TH + 2 * R + 7) / 8;    // row-pass n-tiles (8 rows each)
  static constexpr int TWI = bank_pitch(imax(kTileW + 2 * A, kTileW - 16 + 32 * KR));
  static constexpr int P = bank_pitch(imax(NT * 8, TH - 16 + 32 * KC));  // plane pitch
  static constexpr int kIn = NT * 8 * TWI;  // input tile bytes (then the output staging)
  static constexpr size_t smem = size_t(kIn) + 2u * kTileW * P + size_t(kSl) * kBand;
  static_assert(TH * kStagePitch <= kIn, "output staging must fit in the input tile");
  static_assert(KR <= 2 && KC <= 2, "radius too large for two k-steps");
};

// The device helpers exist only where the kernel has a body (sm_80+, and the host pass): an
// sm_75 pass would flag them unused.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return min(max(v, lo), hi);
}

// 4 bytes of a Toeplitz slice: element [m][k .. k + 3] = wb[k - m - off] inside the band.
__device__ __forceinline__ uint32_t toeplitz4(const uint8_t* band, int m, int k, int off) {
  const int i = kBandPad + k - m - off;
  const uint32_t* w32 = reinterpret_cast<const uint32_t*>(band);
  return __funnelshift_r(w32[i >> 2], w32[(i >> 2) + 1], 8 * (i & 3));
}

// The mma A fragments of every k-step and weight slice: lane (g, q) holds rows g and g + 8,
// bytes 4q .. 4q + 3 and 16 + 4q .. of each 16 x 32 Toeplitz block (the PTX m16n8k32 layout).
template <int KS, int SL>
__device__ __forceinline__ void toeplitz_fragments(uint32_t (&a)[KS][SL][4], const uint8_t* band,
                                                   int g, int q, int off) {
#pragma unroll
  for (int s = 0; s < KS; ++s)
#pragma unroll
    for (int sl = 0; sl < SL; ++sl)
#pragma unroll
      for (int r = 0; r < 4; ++r)
        a[s][sl][r] =
            toeplitz4(band + sl * kBand, g + 8 * (r & 1), 32 * s + 4 * q + 16 * (r >> 1), off);
}

// D += A (16 x 32, u8, row) * B (32 x 8, u8, col), s32 accumulators.
__device__ __forceinline__ void mma_u8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  (void)d, (void)a, (void)b0, (void)b1;
#endif
}

// ldmatrix: lane t gives the address of row t % 8 of 8 x 16-byte matrix t / 8 and receives, of
// each matrix, word t % 4 of row t / 4: an mma B fragment (b0 or b1) per matrix.
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], const uint8_t* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(uint32_t(__cvta_generic_to_shared(p))));
}
__device__ __forceinline__ void ldsm_x2(uint32_t (&r)[4], const uint8_t* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(uint32_t(__cvta_generic_to_shared(p))));
  r[2] = r[3] = 0;
}

// Asynchronous global -> shared copy of N (8 or 16) aligned bytes.
template <int N>
__device__ __forceinline__ void cp_async(uint8_t* dst, const uint8_t* src) {
  asm volatile(
      "cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(uint32_t(__cvta_generic_to_shared(dst))),
      "l"(src), "n"(N));
}

#endif

// The tile height for radius R: 128 rows halve the row pass's apron a row where it is large.
template <int R>
constexpr int kMmaTileRows = R >= kGaussianMmaTallMinRadius ? 128 : 64;

template <int R, int TH>
__global__ void __launch_bounds__(kThreads, SWL_MIN_BLOCKS(kThreads, (TH == 64 && R <= 12 ? 4 : 3)))
    gauss_mma_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h,
                     const __grid_constant__ MmaTaps taps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using G = MmaGeom<R, TH>;
  extern __shared__ __align__(16) unsigned char smem[];
  uint8_t* tile = smem;              // [NT * 8][TWI] input, then [TH][kStagePitch] output
  uint8_t* plane_h = smem + G::kIn;  // [kTileW][P] high bytes of the intermediate
  uint8_t* plane_l = plane_h + kTileW * G::P;
  uint8_t* band = plane_l + kTileW * G::P;  // [kSl][kBand] weight slices, zero-padded
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, q = lane & 3;
  const int tx0 = blockIdx.x * kTileW, ty0 = blockIdx.y * TH;

  {
    // Chunks of 16 bytes where the apron keeps them aligned (A = 16), else 8. Edge chunks (and
    // rows whose start is not aligned) are gathered byte by byte with clamping.
    constexpr int kCh = G::A % 16 == 0 ? 16 : 8, kChunks = (kTileW + 2 * G::A) / kCh;
    const bool vec = (w % kCh) == 0 && (reinterpret_cast<uintptr_t>(in) % kCh) == 0;
#pragma unroll 4
    for (int i = tid; i < G::NT * 8 * kChunks; i += kThreads) {
      const int j = i / kChunks, c = i - j * kChunks, x = tx0 - G::A + kCh * c;
      const uint8_t* row = in + size_t(clampi(ty0 - R + j, 0, h - 1)) * size_t(w);
      uint8_t* dst = tile + j * G::TWI + kCh * c;
      if (vec && x >= 0 && x + kCh <= w) {
        cp_async<kCh>(dst, row + x);
      } else {
#pragma unroll
        for (int k = 0; k < kCh; ++k) dst[k] = row[clampi(x + k, 0, w - 1)];
      }
    }
    asm volatile("cp.async.commit_group;\n" ::);
  }
  for (int i = tid; i < kSl * kBand; i += kThreads) {
    const int t = i % kBand - kBandPad;
    band[i] = t >= 0 && t <= 2 * R ? taps.wb[i / kBand][t] : 0;
  }
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();

  {  // Row pass: intermediate rows 0 .. NT * 8 - 1 (image rows ty0 - R + j), columns 16 warp + m.
    uint32_t a[G::KR][kSl][4];
    toeplitz_fragments(a, band, g, q, G::A - R);
    // ldmatrix rows: input row lane % 8, columns 16 warp + 16 (lane / 8) (k-step lane / 16).
    const uint8_t* src = tile + (lane & 7) * G::TWI + 16 * warp + 16 * (lane >> 3);
    const int x0 = 16 * warp + g;
#pragma unroll 2
    for (int nt = 0; nt < G::NT; ++nt) {
      // The rounding constant of the >> 8.
      constexpr int kHalf = 1 << 7;
      int acc[kSl][4] = {{kHalf, kHalf, kHalf, kHalf}};
      uint32_t b[4];
      if (G::KR == 2)
        ldsm_x4(b, src + nt * 8 * G::TWI);
      else
        ldsm_x2(b, src + nt * 8 * G::TWI);
#pragma unroll
      for (int s = 0; s < G::KR; ++s)
#pragma unroll
        for (int sl = 0; sl < kSl; ++sl) mma_u8(acc[sl], a[s][sl], b[2 * s], b[2 * s + 1]);
      uint32_t m[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) m[r] = (uint32_t(acc[0][r]) + (uint32_t(acc[1][r]) << 8)) >> 8;
      // m[0], m[1]: column x0, rows 2q, 2q + 1; m[2], m[3]: column x0 + 8.
      const int y = nt * 8 + 2 * q;
      *reinterpret_cast<uint16_t*>(plane_l + x0 * G::P + y) =
          uint16_t(__byte_perm(m[0], m[1], 0x40));
      *reinterpret_cast<uint16_t*>(plane_h + x0 * G::P + y) =
          uint16_t(__byte_perm(m[0], m[1], 0x51));
      *reinterpret_cast<uint16_t*>(plane_l + (x0 + 8) * G::P + y) =
          uint16_t(__byte_perm(m[2], m[3], 0x40));
      *reinterpret_cast<uint16_t*>(plane_h + (x0 + 8) * G::P + y) =
          uint16_t(__byte_perm(m[2], m[3], 0x51));
    }
  }
  __syncthreads();

  {  // Column pass: output rows 16 mt + m, columns 8 nt + n (warp: n-tiles 2 warp, 2 warp + 1).
    uint32_t a[G::KC][kSl][4];
    toeplitz_fragments(a, band, g, q, 0);
#pragma unroll 1
    for (int mt = 0; mt < TH / 16; ++mt) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int nt = 2 * warp + half;
        // ldmatrix rows: plane row (column) 8 nt + lane % 8; h0, h1, l0, l1 from lanes / 8.
        const uint8_t* src = ((lane & 16) ? plane_l : plane_h) + (8 * nt + (lane & 7)) * G::P +
                             16 * mt + 16 * ((lane >> 3) & 1);
        // sum W mid = s0 L + 256 (s0 H + s1 L) + 65536 s1 H exactly (< 2^32 as the weights sum
        // to 2^16), four accumulators, so that no mma waits for another.
        constexpr int kAcc = 4, kHalf = 1 << 23;
        int acc[kAcc][4] = {{kHalf, kHalf, kHalf, kHalf}};
#pragma unroll
        for (int s = 0; s < G::KC; ++s) {
          uint32_t b[4];
          ldsm_x4(b, src + 32 * s);
          const uint32_t h0 = b[0], h1 = b[1], l0 = b[2], l1 = b[3];
          mma_u8(acc[0], a[s][0], l0, l1);  // scale 1: s0 L
          mma_u8(acc[1], a[s][0], h0, h1);  // scale 256: s0 H + s1 L
          mma_u8(acc[2], a[s][1], l0, l1);
          mma_u8(acc[3], a[s][1], h0, h1);  // scale 65536: s1 H
        }
        uint32_t lv[4];
#pragma unroll
        for (int r = 0; r < 4; ++r)
          lv[r] = min((uint32_t(acc[0][r]) + (uint32_t(acc[1][r] + acc[2][r]) << 8) +
                       (uint32_t(acc[3][r]) << 16)) >>
                          24,
                      255u);
        // lv[0], lv[1]: row 16 mt + g, columns 8 nt + 2q, + 1; lv[2], lv[3]: row + 8.
        uint8_t* st = tile + (16 * mt + g) * kStagePitch + 8 * nt + 2 * q;
        *reinterpret_cast<uint16_t*>(st) = uint16_t(__byte_perm(lv[0], lv[1], 0x40));
        *reinterpret_cast<uint16_t*>(st + 8 * kStagePitch) =
            uint16_t(__byte_perm(lv[2], lv[3], 0x40));
      }
    }
  }
  __syncthreads();

  // Write the staged tile: 16-byte stores where the tile is whole and aligned.
  const bool whole = tx0 + kTileW <= w && (w & 15) == 0;
  for (int i = tid; i < TH * (kTileW / 16); i += kThreads) {
    const int r = i / (kTileW / 16), c = 16 * (i % (kTileW / 16)), y = ty0 + r;
    if (y >= h) break;
    const uint8_t* sp = tile + r * kStagePitch + c;
    uint8_t* dp = out.d + size_t(y) * size_t(w) + tx0 + c;
    if (whole) {
      *reinterpret_cast<uint4*>(dp) = *reinterpret_cast<const uint4*>(sp);
    } else {
      for (int k = 0; k < 16 && tx0 + c + k < w; ++k) dp[k] = sp[k];
    }
    if (out.surf)  // the staged bytes: 16-byte aligned, whole rows of the tile
      surf_store16(out.surf, tx0 + c, y, w, *reinterpret_cast<const uint4*>(sp));
  }
#else
  (void)in, (void)out, (void)w, (void)h, (void)taps;
#endif
}

template <int R>
void launch_mma(const uint8_t* d_in, Out8 out, int w, int h, const MmaTaps& taps,
                cudaStream_t stream) {
  constexpr int TH = kMmaTileRows<R>;
  constexpr size_t smem = MmaGeom<R, TH>::smem;
  static const cudaError_t attr = cudaFuncSetAttribute(
      gauss_mma_kernel<R, TH>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  SWL_CUDA_CHECK(attr);
  const dim3 grid(unsigned((w + kTileW - 1) / kTileW), unsigned((h + TH - 1) / TH));
  gauss_mma_kernel<R, TH><<<grid, kThreads, smem, stream>>>(d_in, out, w, h, taps);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace

bool gaussian_mma_available() {
  static const bool ok = [] {
    int dev = 0, major = 0;
    SWL_CUDA_CHECK(cudaGetDevice(&dev));
    SWL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    return major >= 8;
  }();
  return ok;
}

void launch_gaussian_mma(const uint8_t* d_in, Out8 out, int w, int h,
                         const std::vector<float>& weights, cudaStream_t stream) {
  SWL_CHECK(weights.size() % 2 == 1 && weights.size() >= 3 &&
                weights.size() <= 2 * kMaxGaussianRadius + 1,
            "Gaussian (tensor cores): bad kernel size");
  SWL_CHECK(w > 0 && h > 0, "Gaussian (tensor cores): empty image");
  SWL_CHECK(gaussian_mma_available(), "Gaussian (tensor cores): needs compute capability 8.0");
  MmaTaps taps{};
  const size_t n = weights.size(), c = n / 2;
  std::vector<long> v(n);
  long off_centre = 0;
  for (size_t i = 0; i < n; ++i) {
    SWL_CHECK(weights[i] >= 0.0f && weights[i] < 1.0f, "Gaussian (tensor cores): bad weight");
    // W < 2^16, and the centre tap makes the sum exactly 2^16 (the column pass's exact sum then
    // stays below 2^32).
    v[i] = std::lrint(double(weights[i]) * 65536.0);
    if (i != c) off_centre += v[i];
  }
  v[c] = 65536 - off_centre;
  SWL_CHECK(v[c] >= 0 && v[c] >= v[c - 1],
            "Gaussian (tensor cores): weights not a normalised Gaussian");
  // A centre tap of 2^16 (tiny sigma: the other taps round to 0) does not fit two slices; the
  // multiply-add kernel takes it.
  if (v[c] > 65535) return launch_gaussian_fused(d_in, out, w, h, weights, stream);
  for (size_t i = 0; i < n; ++i)
    for (int sl = 0; sl < kSl; ++sl)
      taps.wb[sl][i] = static_cast<unsigned char>((v[i] >> (8 * sl)) & 255);
  with_radius<kMaxGaussianRadius>(
      int(c), [&](auto r) { launch_mma<decltype(r)::value>(d_in, out, w, h, taps, stream); },
      "Gaussian (tensor cores): radius out of range");
}

void launch_gaussian(const uint8_t* d_in, Out8 out, int w, int h, const std::vector<float>& weights,
                     cudaStream_t stream) {
  const int r = int(weights.size() / 2);
  if (r >= kGaussianMmaMinRadius && gaussian_mma_available())
    launch_gaussian_mma(d_in, out, w, h, weights, stream);
  else
    launch_gaussian_fused(d_in, out, w, h, weights, stream);
}

}  // namespace sweepline::gpu::cuda
