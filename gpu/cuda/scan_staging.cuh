#pragma once
// Device helpers shared by the scan-conversion kernels (scan_kernels.cu, scan_maxhold.cu): the
// CPU's polar arithmetic with its per-row and per-column parts factored out, the polar window a
// max-hold table tile stages in shared memory, byte maxima, cheap floors and the 4-pixel store.
//
// Measured on the H100 (docs/decisions/0012-scan-nearest-bilinear.md): these kernels are bound
// by instruction issue and latency, not by DRAM; the 16 MiB frame stays in L2.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/cuda/surface_store.cuh"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu::cuda::scan_detail {

constexpr int kThreads = 256;  // per block: 8 threads x 4 pixels across, 32 rows
constexpr int kTileW = 32;     // pixels across a block tile

// A block's staged window: azimuth rows a_lo .. a_lo + n_az - 1 (mod azimuths; a_lo may be
// negative or past the last azimuth) and range bins r_lo .. r_lo + n_r - 1, each azimuth row
// `pitch` bytes of shared memory (16-byte aligned, and one spare 16-byte chunk past the window
// so that a 2-word read starting inside the window stays inside the row).
struct Window {
  int a_lo = 0, n_az = 0, r_lo = 0, n_r = 0, pitch = 0;
};

__host__ __device__ __forceinline__ int window_pitch(int n_r) {
  return ((n_r + 15) & ~15) + 16;
}

// floor(x) and ceil(x) for |x| < 2^22 with one full-rate add each (the float-to-int
// conversion unit runs at a quarter of the rate): adding 1.5 * 2^23 rounded down (up) leaves
// floor(x) (ceil(x)) in the low mantissa bits.
__device__ __forceinline__ int floor_small(float x) {
  return __float_as_int(__fadd_rd(x, 12582912.0f)) - 0x4B400000;
}
__device__ __forceinline__ int ceil_small(float x) {
  return __float_as_int(__fadd_ru(x, 12582912.0f)) - 0x4B400000;
}

// Maximum of the bytes of v folded into acc, whose two 16-bit lanes hold running maxima (of
// the even and the odd bytes); Hopper does max.u16x2 in one instruction.
__device__ __forceinline__ unsigned bytes_max_acc(unsigned acc, unsigned v) {
  return __vimax3_u16x2(acc, __byte_perm(v, 0u, 0x4240u), __byte_perm(v, 0u, 0x4341u));
}
__device__ __forceinline__ unsigned bytes_max_result(unsigned acc) {
  return max(acc & 0xFFFFu, acc >> 16);
}

// swl_pixel_polar (gpu/scan_math.hpp) bit for bit, with the work shared by a block's rows and
// columns: east, north, north^2 and the correctly rounded reciprocals of |east| and |north| are
// computed once per column / row, and the arctangent's division y / x becomes q0 = y * (1/x),
// q = fma(fma(-x, q0, y), 1/x, q0), which is the correctly rounded quotient when 1/x is
// (Markstein's theorem; also checked on 3.4e8 quotients and on every pixel of 7 displays).
struct ColPolar {
  float e, ae, rcp, pad;
};
struct RowPolar {
  float n, an, n2, rcp;
};
__device__ __forceinline__ ColPolar col_polar(const ScanSetup& s, int x) {
  ColPolar c;
  c.e = swl_fma(float(x), s.step, s.east0);
  c.ae = fabsf(c.e);
  c.rcp = __frcp_rn(c.ae);
  c.pad = 0.0f;
  return c;
}
__device__ __forceinline__ RowPolar row_polar(const ScanSetup& s, int y) {
  RowPolar r;
  r.n = swl_fma(-float(y), s.step, s.north0);
  r.an = fabsf(r.n);
  r.n2 = swl_mul(r.n, r.n);
  r.rcp = __frcp_rn(r.an);
  return r;
}
__device__ __forceinline__ float exact_u(const ColPolar& c, const RowPolar& r) {
  return swl_sqrt(swl_fma(c.e, c.e, r.n2));
}
// swl_azimuth(east, north, ...) through swl_atan_poly.
__device__ __forceinline__ float exact_v(const ScanSetup& s, const ColPolar& c, const RowPolar& r) {
  const bool ns = c.ae <= r.an;
  const float num = ns ? c.ae : r.an, den = ns ? r.an : c.ae;
  // den == 0 (the pixel on the radar): num == 0 too, and a zero reciprocal gives t = 0 and the
  // arctangent +0, as swl_atan_unit's early return does, without a branch.
  const float rc = den > 0.0f ? (ns ? r.rcp : c.rcp) : 0.0f;
  const float q0 = swl_mul(num, rc);
  const float t = swl_fma(swl_fma(-den, q0, num), rc, q0);
  const float at = swl_atan_poly(t);
  const float A = float(s.azimuths), quarter = swl_mul(A, 0.25f), half = swl_mul(A, 0.5f);
  const float a = ns ? swl_mul(at, s.az_per_rad) : quarter - swl_mul(at, s.az_per_rad);
  float v;
  if (c.e >= 0.0f)
    v = r.n >= 0.0f ? a : half - a;
  else
    v = r.n >= 0.0f ? A - a : half + a;
  if (v >= A) v -= A;
  if (v < 0.0f) v = 0.0f;
  return v;
}

// Copies the window into shared memory (all kThreads threads of the block call it), for windows
// stage_window_rows cannot take. 16-byte loads where the rows allow (16-byte aligned frame rows and
// r_lo, which the window builders arrange whenever bins % 16 == 0); bytes otherwise.
__device__ __forceinline__ void stage_window(const uint8_t* __restrict__ polar, int azimuths,
                                             int bins, const Window& w, uint8_t* sm, int tid) {
  int a0 = w.a_lo % azimuths;
  if (a0 < 0) a0 += azimuths;
  const int cpr = (w.n_r + 15) >> 4;  // 16-byte chunks per row
  if ((bins & 15) == 0 && (w.r_lo & 15) == 0 && cpr <= kThreads) {
    // A fixed chunk column per thread and a stride of whole rows: one division per thread.
    const int rstep = kThreads / cpr, col = tid % cpr, row = tid / cpr;
    if (row >= rstep) return;
    const uint8_t* base = polar + size_t(w.r_lo) + size_t(col) * 16u;
    // Up to 4 rows a thread with all their loads in flight before the first store.
    constexpr int kBatch = 4;
    for (int k0 = row; k0 < w.n_az; k0 += kBatch * rstep) {
      uint4 v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int k = k0 + u * rstep;
        int a = a0 + k;
        if (a >= azimuths) a -= azimuths;
        if (k < w.n_az)
          v[u] = __ldg(reinterpret_cast<const uint4*>(base + unsigned(a) * unsigned(bins)));
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int k = k0 + u * rstep;
        if (k < w.n_az) *reinterpret_cast<uint4*>(sm + k * w.pitch + col * 16) = v[u];
      }
    }
  } else {
    const int total = w.n_az * w.n_r;
    for (int i = tid; i < total; i += kThreads) {
      const int k = i / w.n_r, c = i - k * w.n_r;
      int a = a0 + k;
      if (a >= azimuths) a -= azimuths;
      sm[k * w.pitch + c] = __ldg(polar + size_t(a) * size_t(bins) + size_t(w.r_lo + c));
    }
  }
}

// A 16-byte global -> shared copy that does not wait for the data (cp.async, sm_80+; a load
// and a store before sm_80). Both addresses are 16-byte aligned.
__device__ __forceinline__ void copy_async16(void* sm_dst, const void* g_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = unsigned(__cvta_generic_to_shared(sm_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(g_src) : "memory");
#else
  *reinterpret_cast<uint4*>(sm_dst) = __ldg(reinterpret_cast<const uint4*>(g_src));
#endif
}
// Waits for this thread's copies (a __syncthreads() must follow before others read them).
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}
// Closes this thread's group of copies issued since the last commit (one group a staged
// window), so that copy_async_wait_groups can wait for the older windows only.
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most `pending` (0 .. 3) of this thread's newest groups are still in flight.
__device__ __forceinline__ void copy_async_wait_groups(int pending) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  switch (pending) {
    case 0:
      asm volatile("cp.async.wait_group 0;\n" ::: "memory");
      break;
    case 1:
      asm volatile("cp.async.wait_group 1;\n" ::: "memory");
      break;
    case 2:
      asm volatile("cp.async.wait_group 2;\n" ::: "memory");
      break;
    default:
      asm volatile("cp.async.wait_group 3;\n" ::: "memory");
      break;
  }
#else
  (void)pending;
#endif
}

// stage_window for a window whose first row a_lo lies in [0, azimuths) and that holds at most
// a quarter of the azimuths (the max-hold table's records), without its divisions: 2^k
// 16-byte chunk columns a row, so that a thread's column and first row are a mask and a
// shift of its index, each chunk copied with copy_async16 (copy_async_wait and a barrier
// complete them; before sm_80 up to 4 rows a thread through registers, all loads in flight
// before the first store). Rows that are not 16-byte aligned go through stage_window.
// Measured on the H100 with the record's first row reduced at build time: the gather's
// staging went from ~150 to ~35 instructions a warp (docs/decisions/0013-scan-max-hold.md).
__device__ __forceinline__ void stage_window_rows(const uint8_t* __restrict__ polar, int azimuths,
                                                  int bins, const Window& w, uint8_t* sm, int tid) {
  const int cpr = (w.n_r + 15) >> 4;  // 16-byte chunks per row
  if ((bins & 15) != 0 || (w.r_lo & 15) != 0 || cpr > kThreads) {
    stage_window(polar, azimuths, bins, w, sm, tid);
    return;
  }
  const int lg = 32 - __clz(cpr - 1);  // columns: the power of two >= cpr
  const int col = tid & ((1 << lg) - 1), row = tid >> lg, rstep = kThreads >> lg;
  if (col >= cpr || row >= w.n_az) return;
  const uint8_t* base = polar + size_t(w.r_lo) + size_t(col) * 16u;
  int a = w.a_lo + row;  // < 2 azimuths
  if (a >= azimuths) a -= azimuths;
  uint8_t* dst = sm + row * w.pitch + col * 16;
  const int dstep = rstep * w.pitch;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  for (int k = row; k < w.n_az; k += rstep, dst += dstep) {
    copy_async16(dst, base + size_t(a) * size_t(bins));
    a += rstep;  // a further row exists only when rstep < n_az <= azimuths / 4
    if (a >= azimuths) a -= azimuths;
  }
#else
  constexpr int kBatch = 4;
  for (int k0 = row; k0 < w.n_az; k0 += kBatch * rstep) {
    uint4 v[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      if (k0 + u * rstep < w.n_az)
        v[u] = __ldg(reinterpret_cast<const uint4*>(base + size_t(a) * size_t(bins)));
      a += rstep;
      if (a >= azimuths) a -= azimuths;
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u)
      if (k0 + u * rstep < w.n_az) *reinterpret_cast<uint4*>(dst + u * dstep) = v[u];
    dst += kBatch * dstep;
  }
#endif
}

// Asks for the largest shared-memory carveout for a staging kernel (called once per kernel): a
// smaller one would hold fewer blocks an SM than the registers allow.
template <class Kernel>
bool prefer_shared_memory(Kernel kernel) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                              int(cudaSharedmemCarveoutMaxShared)) == cudaSuccess;
}

// Writes a thread's 4 pixels (x0 .. x0 + 3 of row y) to the image and the optional surface.
__device__ __forceinline__ void store4(const ScanSetup& s, uint8_t* __restrict__ out,
                                       unsigned long long surf, int x0, int y, const uint8_t v[4]) {
  uint8_t* row = out + size_t(y) * size_t(s.width);
  if ((s.width & 3) == 0) {
    *reinterpret_cast<uchar4*>(row + x0) = make_uchar4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x0 + i < s.width) row[x0 + i] = v[i];
  }
  if (surf)
    surf_store4(surf, x0, y, s.width,
                uint32_t(v[0]) | uint32_t(v[1]) << 8 | uint32_t(v[2]) << 16 | uint32_t(v[3]) << 24);
}

}  // namespace sweepline::gpu::cuda::scan_detail
