#pragma once
// Max-hold's arithmetic route (MaxHoldTable::kArith, scan_maxhold.cu): no per-pixel span table.
// A thread takes 4 horizontal pixels (x0 a multiple of 4). From its first pixel's polar position
// (fast approximations: MUFU rsqrt, a correctly rounded reciprocal, a short arctangent) it steps
// the two quantities a pixel needs, u - rho (first bin) and v - w (first azimuth), in 16.16
// fixed point, half a unit low; a 1-byte code a pixel, built once per geometry on the same
// device from the exact spans (swl_pixel_span, the CPU's), corrects both by 0 or +1 and holds
// the span's bins - 1 and azimuth rows - 1. One texture gather a pixel (one more per further 2
// azimuth rows) then reads the span from a CUDA array of two halves: the frame and its 3-bin
// range maxima (PolarTexture with a range-max half). A pixel the code cannot describe (more than
// 8 azimuth rows or 4 bins, a single bin, a correction out of range) is coded kCodeSlow and its
// whole tile goes the per-pixel way, so the route gives the CPU's maximum by construction
// (docs/perf/scan.md).
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/scan_math.hpp"

namespace sweepline::gpu::cuda::scan_detail {

constexpr uint8_t kCodeZero = 0xFE;  // past the range
constexpr uint8_t kCodeSlow = 0xFF;  // not describable: the tile is gathered per pixel
constexpr uint32_t kCodesZero4 = 0xFEFEFEFEu;

// Frames the 16.16 stepping can address (u and v below 2^15), display rows of whole 4-pixel
// groups.
__host__ __device__ inline bool arith_usable(const ScanSetup& s) {
  return s.bins >= 1 && s.bins < (1 << 14) && s.azimuths >= 1 && s.azimuths < (1 << 14) &&
         (s.width & 3) == 0;
}

struct ArithGroup {
  int u, du, v, dv;  // 16.16: u - rho and v - w at the group's first pixel, and their steps
};

// Azimuth of (e, n) in radians, 0 = north, clockwise (error ~2e-6 rad).
__device__ __forceinline__ float arith_azimuth_rad(float e, float n) {
  const float ae = fabsf(e), an = fabsf(n);
  const float t = __fmul_rn(fminf(ae, an), __frcp_rn(fmaxf(ae, an)));
  const float q = __fmul_rn(t, t);
  float p = __fmaf_rn(q, -0.0117212f, 0.05265332f);
  p = __fmaf_rn(p, q, -0.11643287f);
  p = __fmaf_rn(p, q, 0.19354346f);
  p = __fmaf_rn(p, q, -0.33262347f);
  p = __fmaf_rn(p, q, 0.99997726f);
  float a = __fmul_rn(p, t);
  if (ae > an) a = 1.57079633f - a;
  if (n < 0.0f) a = 3.14159265f - a;
  if (e < 0.0f) a = 6.28318531f - a;
  return a;
}

// Every operation is an explicit intrinsic, so that the build and the gather, compiled in
// different contexts, compute the same bits. asin(rho / u) is taken as rho / u: the error is
// under 1e-6 azimuths where spans are narrow enough for a code.
__device__ __forceinline__ ArithGroup arith_group(const ScanSetup& s, int x0, int y) {
  const float e = __fmaf_rn(float(x0), s.step, s.east0);
  const float n = __fmaf_rn(-float(y), s.step, s.north0);
  const float q = __fmaf_rn(e, e, __fmul_rn(n, n));
  const float rs = rsqrtf(q);
  const float u = __fmul_rn(q, rs);
  const float v = __fmul_rn(arith_azimuth_rad(e, n), s.az_per_rad);
  const float du = __fmul_rn(__fmul_rn(s.step, e), rs);
  const float dv = __fmul_rn(__fmul_rn(__fmul_rn(__fmul_rn(s.step, s.az_per_rad), n), rs), rs);
  const float w = __fmul_rn(__fmul_rn(s.footprint, s.az_per_rad), rs);
  const float dw = -__fmul_rn(__fmul_rn(w, du), rs);
  constexpr float k = 65536.0f;
  ArithGroup g;  // out-of-range values saturate alike in the build and the gather
  // Half a unit low, so that floor(exact) - floor(stepped) is 0 or 1 (the error is ~1e-3).
  g.u = __float2int_rn(__fmul_rn(__fsub_rn(__fsub_rn(u, s.footprint), 0.5f), k));
  g.du = __float2int_rn(__fmul_rn(du, k));
  g.v = __float2int_rn(__fmul_rn(__fsub_rn(__fsub_rn(v, w), 0.5f), k));
  g.dv = __float2int_rn(__fmul_rn(__fsub_rn(dv, dw), k));
  return g;
}

// The stepped first bin and first azimuth (unwrapped) of the group's pixel i (0..3); wrapping
// arithmetic, so that saturated values stay defined (their pixels are never coded).
__device__ __forceinline__ int arith_r0(const ArithGroup& g, int i) {
  return max(int(unsigned(g.u) + unsigned(i) * unsigned(g.du)), 0) >> 16;
}
__device__ __forceinline__ int arith_a0(const ArithGroup& g, int i) {
  return int(unsigned(g.v) + unsigned(i) * unsigned(g.dv)) >> 16;
}

// The code of the group's pixel i whose exact span is sp (u < bins): bit 0 the correction of
// r0, bit 1 that of a0, bits 2-3 bins - 1 (1..3), bits 4-6 azimuth rows - 1 (0..7).
__device__ __forceinline__ uint8_t arith_code(const ScanSetup& s, const ArithGroup& g, int i,
                                              const PixelSpan& sp) {
  const int nr = sp.r1 - sp.r0 + 1;
  if (sp.na > 8 || nr < 2 || nr > 4) return kCodeSlow;
  const int cr = sp.r0 - arith_r0(g, i);
  int ca = (sp.a0 - arith_a0(g, i)) % s.azimuths;  // nearest to 0 modulo the azimuths
  if (2 * ca > s.azimuths) ca -= s.azimuths;
  if (2 * ca < -s.azimuths) ca += s.azimuths;
  if (cr < 0 || cr > 1 || ca < 0 || ca > 1) return kCodeSlow;
  return uint8_t(cr | ca << 1 | (nr - 1) << 2 | (sp.na - 1) << 4);
}

__device__ __forceinline__ float arith_small_float(int k) {  // 0 <= k < 2^23, exact
  return __int_as_float(0x4B000000 + k) - 8388608.0f;
}

// The maximum over the span a code describes. The texture's rows 0 .. A + 1 hold the frame
// (row a + 1 = azimuth a, with the wrap halo rows), rows r3_row0 .. the 3-bin range maxima the
// same way: 2 bins gather (r0, r0 + 1) of the frame, 3 bins the maximum at r0, 4 bins those at
// r0 and r0 + 1; a gather covers 2 azimuth rows, further ones the next pairs, the last pair
// ending on row a0 + na - 1.
__device__ __forceinline__ unsigned arith_span_max(unsigned long long tex, int azimuths,
                                                   int r3_row0, const ArithGroup& g, int i,
                                                   unsigned code) {
  if (code >= kCodeZero) return 0;
  const int r0 = arith_r0(g, i) + int(code & 1u);
  int a0 = arith_a0(g, i) + int((code >> 1) & 1u);
  if (a0 < 0) a0 += azimuths;
  if (a0 >= azimuths) a0 -= azimuths;
  const int nrm1 = int((code >> 2) & 3u), nam1 = int(code >> 4);
  const int half = nrm1 >= 2 ? r3_row0 : 0;
  const float x = arith_small_float(r0 + 1);
  const cudaTextureObject_t t = cudaTextureObject_t(tex);
  // Gather order: x (r, a + 1), y (r + 1, a + 1), z (r + 1, a), w (r, a).
  const uchar4 c = tex2Dgather<uchar4>(t, x, arith_small_float(a0 + 2 + half), 0);
  const bool one = nrm1 == 2;  // 3 bins: the maximum at r0 alone
  unsigned m = one ? unsigned(c.w) : max(unsigned(c.w), unsigned(c.z));
  if (nam1 >= 1) m = max(m, one ? unsigned(c.x) : max(unsigned(c.x), unsigned(c.y)));
#pragma unroll 1
  for (int k = 2; k <= nam1; k += 2) {  // rows a2, a2 + 1
    int a2 = a0 + min(k, nam1 - 1);
    if (a2 >= azimuths) a2 -= azimuths;
    const uchar4 d = tex2Dgather<uchar4>(t, x, arith_small_float(a2 + 2 + half), 0);
    m = max(m, one ? max(unsigned(d.w), unsigned(d.x))
                   : max(max(unsigned(d.w), unsigned(d.z)), max(unsigned(d.x), unsigned(d.y))));
  }
  return m;
}

}  // namespace sweepline::gpu::cuda::scan_detail
