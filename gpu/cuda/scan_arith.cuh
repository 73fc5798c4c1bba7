#pragma once
// Max-hold's arithmetic route (scan_maxhold.cu): no per-pixel span table. A thread takes 4
// horizontal pixels (x0 a multiple of 4). From its first pixel's polar position (fast
// approximations: MUFU rsqrt and reciprocal, a short arctangent) it steps the two quantities a
// pixel needs, u - rho (first bin) and v - w (first azimuth), in 16.16 fixed point, half a unit
// low; a 1-byte code a pixel, built once per geometry on the same device from the exact spans
// (swl_pixel_span, the CPU's), corrects both by 0 or +1 and holds the span's bins - 1 and
// azimuth rows - 1. One texture gather a pixel (one more per further 2 azimuth rows) then reads
// the span from a CUDA array of two halves: the frame and its 3-bin range maxima (PolarTexture
// with a range-max half). A pixel the code cannot describe (more than kMaxHoldCodeRows azimuth
// rows or 4 bins, a single bin, a correction out of range) is coded kCodeSlow and its whole tile
// goes the per-pixel way, so the route gives the CPU's maximum by construction
// (docs/decisions/0013-scan-max-hold.md).
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

// One MUFU instruction each (rsqrtf and __frcp_rn add denormal and rounding fix-ups that
// cost a tenth of the group's instructions). Deterministic, and the build computes the codes
// with these same functions, so their approximation only has to keep the corrections 0 or 1.
__device__ __forceinline__ float arith_rsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float arith_rcp(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// Azimuth of (e, n) in radians, 0 = north, clockwise (error ~2e-6 rad).
__device__ __forceinline__ float arith_azimuth_rad(float e, float n) {
  const float ae = fabsf(e), an = fabsf(n);
  const float t = __fmul_rn(fminf(ae, an), arith_rcp(fmaxf(ae, an)));
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
  const float rs = arith_rsqrt(q);
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
// r0, bit 1 that of a0, bits 2-3 bins - 1 (1..3), bits 4-7 azimuth rows - 1 (0..max_na - 1,
// max_na <= 16). The two codes that would collide with kCodeZero and kCodeSlow (16 rows of 4
// bins, a0 corrected) are coded slow.
__device__ __forceinline__ uint8_t arith_code(const ScanSetup& s, const ArithGroup& g, int i,
                                              const PixelSpan& sp, int max_na) {
  const int nr = sp.r1 - sp.r0 + 1;
  if (sp.na > max_na || nr < 2 || nr > 4) return kCodeSlow;
  const int cr = sp.r0 - arith_r0(g, i);
  int ca = (sp.a0 - arith_a0(g, i)) % s.azimuths;  // nearest to 0 modulo the azimuths
  if (2 * ca > s.azimuths) ca -= s.azimuths;
  if (2 * ca < -s.azimuths) ca += s.azimuths;
  if (cr < 0 || cr > 1 || ca < 0 || ca > 1) return kCodeSlow;
  const int code = cr | ca << 1 | (nr - 1) << 2 | (sp.na - 1) << 4;
  return code >= kCodeZero ? kCodeSlow : uint8_t(code);
}

__device__ __forceinline__ float arith_small_float(int k) {  // 0 <= k < 2^23, exact
  return __int_as_float(0x4B000000 + k) - 8388608.0f;
}

// tex2Dgather of an 8-bit texture with the four texels as 32-bit values (zero-extended by the
// texture unit), so that no masking follows as it does through uchar4. Order: x (r, a + 1),
// y (r + 1, a + 1), z (r + 1, a), w (r, a) for the gather at (r + 1, a + 1).
struct Gather4 {
  unsigned x, y, z, w;
};
__device__ __forceinline__ Gather4 arith_gather(unsigned long long tex, float x, float y) {
  Gather4 g;
  asm("tld4.r.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
      : "=r"(g.x), "=r"(g.y), "=r"(g.z), "=r"(g.w)
      : "l"(tex), "f"(x), "f"(y));
  return g;
}

// Pixel i's first gather: x its first bin + 1, row its texture row a0 + 2 (+ the range-max
// half's first row for 3 or 4 bins). WRAP: a0 reduced into [0, azimuths); without, the caller
// knows it lies in [-1, azimuths - 1], which the halo rows cover.
template <bool WRAP>
__device__ __forceinline__ void arith_coords(int azimuths, int r3_row0, const ArithGroup& g, int i,
                                             unsigned code, float& x, int& row) {
  const int r0 = arith_r0(g, i) + int(code & 1u);
  int a0 = arith_a0(g, i) + int((code >> 1) & 1u);
  if (WRAP) {
    if (a0 < 0) a0 += azimuths;
    if (a0 >= azimuths) a0 -= azimuths;
  }
  x = arith_small_float(r0 + 1);
  row = a0 + ((code & 8u) ? r3_row0 + 2 : 2);
}

// The maxima over the spans that the codes of a group's 4 pixels describe (code4: pixel i in
// byte i), packed the same way; past-range pixels give 0. The texture's rows 0 .. A + 1 hold
// the frame (row a + 1 = azimuth a, with the wrap halo rows), rows r3_row0 .. the 3-bin range
// maxima the same way: 2 bins gather (r0, r0 + 1) of the frame, 3 bins the maximum at r0, 4 bins
// those at r0 and r0 + 1; a gather covers 2 azimuth rows, further ones the next pairs, the last
// pair ending on row a0 + na - 1. The 4 first gathers are straight-line code, issued together;
// past-range pixels gather too (the address mode clamps) and are masked, so that nothing
// branches. The rarer spans of more than 2 rows are finished after them. Groups whose first
// rows all lie in [-1, A - 1] (all but those at north) skip the per-pixel wrap.
template <bool WRAP>
__device__ __forceinline__ uint32_t arith_group_max_t(unsigned long long tex, int azimuths,
                                                      int r3_row0, const ArithGroup& g,
                                                      uint32_t code4) {
  Gather4 c[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float x;
    int row;
    arith_coords<WRAP>(azimuths, r3_row0, g, i, (code4 >> (8 * i)) & 0xFFu, x, row);
    c[i] = arith_gather(tex, x, arith_small_float(row));
  }
  uint32_t word = 0;
  bool more = false;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const unsigned code = (code4 >> (8 * i)) & 0xFFu;
    const bool one = (code & 0xCu) == 8u;  // 3 bins: the maximum at r0 alone
    unsigned m = max(c[i].w, one ? 0u : c[i].z);
    if (code >= 0x10u) m = max(m, max(c[i].x, one ? 0u : c[i].y));  // 2 azimuth rows
    word |= (code >= kCodeZero ? 0u : m) << (8 * i);
    more = more || (code >= 0x20u && code < kCodeZero);
  }
  if (!more) return word;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const unsigned code = (code4 >> (8 * i)) & 0xFFu;
    const int nam1 = int(code >> 4);
    if (code >= kCodeZero || nam1 < 2) continue;
    const bool one = (code & 0xCu) == 8u;
    float x;
    int row;
    arith_coords<true>(azimuths, r3_row0, g, i, code, x, row);
    const int half = (code & 8u) ? r3_row0 : 0, a0 = row - 2 - half;
    unsigned m = (word >> (8 * i)) & 0xFFu;
#pragma unroll 1
    for (int k = 2; k <= nam1; k += 2) {  // rows a2, a2 + 1
      int a2 = a0 + min(k, nam1 - 1);
      if (a2 >= azimuths) a2 -= azimuths;
      const Gather4 d = arith_gather(tex, x, arith_small_float(a2 + 2 + half));
      m = max(m, max(max(d.w, d.x), one ? 0u : max(d.z, d.y)));
    }
    word = (word & ~(0xFFu << (8 * i))) | m << (8 * i);
  }
  return word;
}

__device__ __forceinline__ uint32_t arith_group_max(unsigned long long tex, int azimuths,
                                                    int r3_row0, const ArithGroup& g,
                                                    uint32_t code4) {
  // The group's first azimuth rows (before the 0/1 corrections) at its two ends: linear in i.
  const int a_first = arith_a0(g, 0), a_last = arith_a0(g, 3);
  const bool inside = min(a_first, a_last) >= -1 && max(a_first, a_last) + 1 <= azimuths - 1;
  return inside ? arith_group_max_t<false>(tex, azimuths, r3_row0, g, code4)
                : arith_group_max_t<true>(tex, azimuths, r3_row0, g, code4);
}

}  // namespace sweepline::gpu::cuda::scan_detail
