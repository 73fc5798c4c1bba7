// Scan conversion on the GPU (gpu/cuda/scan_kernels.hpp): nearest and bilinear (a block per
// 32 x 32 or 32 x 64 pixels, the per-row and per-column parts of the polar arithmetic shared by
// the block, each gather instruction of a warp reading the cells of a compact 8 x 4 pixel patch;
// on a display of whole 8-pixel column groups and even height a block also writes its tile's
// three mirror images about the display's centre lines, sharing their polar arithmetic where the
// pixel grid is symmetric about the radar; bilinear also through the frame's CUDA array, one
// tex2Dgather a pixel), the direct per-pixel max-hold, the azimuth pyramid, and PolarTexture.
// The arithmetic is gpu/scan_math.hpp's (the CPU's, bit for bit); max-hold through the
// per-geometry table is in scan_maxhold.cu. Why these kernels and no others:
// docs/decisions/0012-scan-nearest-bilinear.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "gpu/cuda/scan_kernels.hpp"
#include "gpu/cuda/scan_staging.cuh"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::cuda {

namespace {

using namespace scan_detail;

// Level 1: thread (r, k) = max over azimuths 16k..16k+15 at range r (coalesced across r).
// Level 2 the same over 16 level-1 rows. Only bins 0 .. used - 1 (row pitch `bins`).
__global__ void az_block_max_kernel(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst,
                                    int bins, int used, int blocks, int per) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
  if (r >= used || k >= blocks) return;
  unsigned m = 0;
  for (int j = 0; j < per; ++j)
    m = max(m, unsigned(__ldg(src + size_t(k * per + j) * size_t(bins) + size_t(r))));
  dst[size_t(k) * size_t(bins) + size_t(r)] = uint8_t(m);
}

// Max-hold computed per pixel, one thread per 4 horizontal pixels (no table: the geometries
// the table cannot take, and the benchmark's reference).
__global__ void scan_maxhold_direct_kernel(ScanSetup s, const uint8_t* __restrict__ polar,
                                           AzPyramid pyr, uint8_t* __restrict__ out,
                                           unsigned long long surf) {
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= s.height || x0 >= s.width) return;
  uint8_t v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    v[i] = x0 + i < s.width ? swl_max_hold(s, polar, pyr, swl_pixel_polar(s, x0 + i, y)) : 0;
  store4(s, out, surf, x0, y, v);
}

// The distance from the radar to the nearest pixel centre of x_lo..x_hi, y_lo..y_hi (plain
// float math: a hint, used with a margin of 2 bins).
__device__ __forceinline__ float rect_min_distance(const ScanSetup& s, int x_lo, int x_hi, int y_lo,
                                                   int y_hi) {
  const float ex0 = s.east0 + float(x_lo) * s.step, ex1 = s.east0 + float(x_hi) * s.step;
  const float nn0 = s.north0 - float(y_lo) * s.step, nn1 = s.north0 - float(y_hi) * s.step;
  const float de = ex0 > 0.0f ? ex0 : (ex1 < 0.0f ? -ex1 : 0.0f);
  const float dn = nn1 > 0.0f ? nn1 : (nn0 < 0.0f ? -nn0 : 0.0f);
  return sqrtf(de * de + dn * dn);
}
// Whether every pixel centre of the rectangle lies past the range.
__device__ __forceinline__ bool rect_past_range(const ScanSetup& s, int x_lo, int x_hi, int y_lo,
                                                int y_hi) {
  return rect_min_distance(s, x_lo, x_hi, y_lo, y_hi) >= float(s.bins) + 2.0f;
}

// 2^23 + c for a level c: differences of two are exact, and so is c after subtracting 2^23.
__device__ __forceinline__ float biased(unsigned c) {
  return __int_as_float(0x4B000000 | int(c));
}

// The blend of swl_bilinear and to_level on the cells (a0, r0), (a0, r1), (a1, r0), (a1, r1),
// without conversion instructions (a quarter or an eighth of the FMA rate): q in [0, 255], so
// f = q + 0.5 lies in [0.5, 255.5] and uint8_t(f) = floor(f), the low byte of f + 1.5 * 2^23
// rounded down.
__device__ __forceinline__ uint8_t blend(float tr, float ta, unsigned c00, unsigned c01,
                                         unsigned c10, unsigned c11) {
  const float e00 = biased(c00), e01 = biased(c01), e10 = biased(c10), e11 = biased(c11);
  const float q0 = swl_fma(tr, __fsub_rn(e01, e00), __fsub_rn(e00, 8388608.0f));
  const float q1 = swl_fma(tr, __fsub_rn(e11, e10), __fsub_rn(e10, 8388608.0f));
  const float f = __fadd_rn(swl_fma(ta, __fsub_rn(q1, q0), q0), 0.5f);
  return uint8_t(__float_as_int(__fadd_rd(f, 12582912.0f)));
}

// The azimuth constants of exact_v (scan_staging.cuh), computed once per thread.
struct AzConsts {
  float A, quarter, half;
};
__device__ __forceinline__ AzConsts az_consts(const ScanSetup& s) {
  const float A = float(s.azimuths);
  return AzConsts{A, swl_mul(A, 0.25f), swl_mul(A, 0.5f)};
}
// exact_v with those constants hoisted (the same operations, so the same value; measured on
// the texture path, where the polar arithmetic is most of a pixel's instructions), in two
// parts: the angle folded into the first quadrant, which depends only on |east| and |north|,
// and the quadrant's select, which depends only on their signs (so four pixels mirrored
// about the radar share the first part; see scan_mirror_kernel).
__device__ __forceinline__ float folded_v(const ScanSetup& s, const AzConsts& k, const ColPolar& c,
                                          const RowPolar& r) {
  const bool ns = c.ae <= r.an;
  const float num = ns ? c.ae : r.an, den = ns ? r.an : c.ae;
  const float rc = den > 0.0f ? (ns ? r.rcp : c.rcp) : 0.0f;
  const float q0 = swl_mul(num, rc);
  const float t = swl_fma(swl_fma(-den, q0, num), rc, q0);
  const float m = swl_mul(swl_atan_poly(t), s.az_per_rad);
  return ns ? m : k.quarter - m;
}
__device__ __forceinline__ float quadrant_v(const AzConsts& k, float a, bool east, bool north) {
  // Every quadrant's candidate, then selects (no branches).
  const float ve = north ? a : k.half - a, vw = north ? k.A - a : k.half + a;
  float v = east ? ve : vw;
  if (v >= k.A) v -= k.A;
  if (v < 0.0f) v = 0.0f;
  return v;
}
__device__ __forceinline__ float exact_v_k(const ScanSetup& s, const AzConsts& k, const ColPolar& c,
                                           const RowPolar& r) {
  return quadrant_v(k, folded_v(s, k, c, r), c.e >= 0.0f, r.n >= 0.0f);
}

// The level of the pixel at polar position (u < bins, v), exactly as swl_nearest /
// swl_bilinear (gpu/scan_math.hpp) compute it, the cells read from the frame or, bilinear with
// Tex, from the texture.
template <ScanMode M, bool Tex>
__device__ __forceinline__ uint8_t level_at(const ScanSetup& s, const uint8_t* __restrict__ polar,
                                            cudaTextureObject_t tex, float u, float v) {
  const size_t b = size_t(s.bins);
  if (M == ScanMode::Nearest) {
    const int r = floor_small(u);
    int a = floor_small(v);
    if (a >= s.azimuths) a -= s.azimuths;
    return __ldg(polar + size_t(a) * b + size_t(r));
  } else if (Tex) {
    // Floors as on the frame path; the gather's footprint is texels floor(x - 0.5) .. + 1 across
    // and floor(y - 0.5) .. + 1 down, so x = r0 + 1 and y = a0 + 2 (array row a + 1 holds
    // azimuth a, a0 >= -1) select bins r0, r0 + 1 (clamped as the CPU clamps) and azimuths a0,
    // a0 + 1 (wrapped through the halo rows), half a texel from any rounding question.
    const float fu = __fsub_rn(u, 0.5f), fv = __fsub_rn(v, 0.5f);
    const float tu = __fadd_rd(fu, 12582912.0f), tv = __fadd_rd(fv, 12582912.0f);
    const float tr = __fsub_rn(fu, __fsub_rn(tu, 12582912.0f));
    const float ta = __fsub_rn(fv, __fsub_rn(tv, 12582912.0f));
    const uchar4 g =
        tex2Dgather<uchar4>(tex, __fsub_rn(tu, 12582911.0f), __fsub_rn(tv, 12582910.0f), 0);
    // Gather order: x (r0, a0 + 1), y (r0 + 1, a0 + 1), z (r0 + 1, a0), w (r0, a0).
    return blend(tr, ta, g.w, g.z, g.x, g.y);
  } else {
    // swl_bilinear with floors and their float values by the rounding-mode add (no
    // conversions), and the blend above; every value is the CPU's.
    const float fu = __fsub_rn(u, 0.5f), fv = __fsub_rn(v, 0.5f);
    const float tu = __fadd_rd(fu, 12582912.0f), tv = __fadd_rd(fv, 12582912.0f);
    const int r0 = __float_as_int(tu) - 0x4B400000;  // -1 .. bins - 1
    int a0 = __float_as_int(tv) - 0x4B400000;        // -1 .. azimuths - 1
    float tr = __fsub_rn(fu, __fsub_rn(tu, 12582912.0f));
    const float ta = __fsub_rn(fv, __fsub_rn(tv, 12582912.0f));
    if (a0 < 0) a0 += s.azimuths;
    int a1 = a0 + 1;
    if (a1 >= s.azimuths) a1 -= s.azimuths;
    // Bins rc and rc + 1 (rc clamped to 0 .. bins - 2): where the CPU clamps r0 or r1 its two
    // cells are the same and q = p00; here tr = 0 (r0 = -1) or 1 (r0 = bins - 1) gives the
    // same q exactly (fma(1, p01 - p00, p00) = p01). One bin: both cells bin 0, tr = 0.
    int rc = r0;
    if (r0 < 0) {
      rc = 0;
      tr = 0.0f;
    } else if (r0 > s.bins - 2) {
      rc = max(s.bins - 2, 0);
      tr = s.bins > 1 ? 1.0f : 0.0f;
    }
    const int d = s.bins > 1 ? 1 : 0;
    const uint8_t* p0 = polar + (size_t(unsigned(a0)) * b + unsigned(rc));
    const uint8_t* p1 = polar + (size_t(unsigned(a1)) * b + unsigned(rc));
    return blend(tr, ta, __ldg(p0), __ldg(p0 + d), __ldg(p1), __ldg(p1 + d));
  }
}

// One pixel: its polar position from the block's column and row parts, then level_at. The
// azimuth is computed only for pixels inside the range.
template <ScanMode M, bool Tex>
__device__ __forceinline__ uint8_t pixel_level(const ScanSetup& s,
                                               const uint8_t* __restrict__ polar,
                                               cudaTextureObject_t tex, const AzConsts& kz,
                                               const ColPolar& cp, const RowPolar& rp) {
  const float u = exact_u(cp, rp);
  if (!(u < float(s.bins))) return 0;
  const float v = Tex ? exact_v_k(s, kz, cp, rp) : exact_v(s, cp, rp);
  return level_at<M, Tex>(s, polar, tex, u, v);
}

// Nearest / bilinear: a block per 32 x (32 RPT) pixels, 256 threads of 4 horizontal pixels
// (a warp covers 32 x 4 pixels). Thread 0 finds whether the whole block lies past the range
// while warps 1-3 compute the per-column and per-row parts of the polar arithmetic; blocks
// wholly past the range write zeros without any arithmetic.
template <ScanMode M, int RPT, bool Tex>
__global__ void __launch_bounds__(kThreads)
    scan_tile_kernel(ScanSetup s, const uint8_t* __restrict__ polar, cudaTextureObject_t tex,
                     uint8_t* __restrict__ out, unsigned long long surf) {
  __shared__ int zero_s;
  __shared__ ColPolar cols[kTileW];
  __shared__ RowPolar rows[32 * RPT];
  const int tid = int(threadIdx.x);
  const int bx0 = int(blockIdx.x) * kTileW, by0 = int(blockIdx.y) * 32 * RPT;
  if (tid == 0)
    zero_s = rect_past_range(s, bx0, min(s.width, bx0 + kTileW) - 1, by0,
                             min(s.height, by0 + 32 * RPT) - 1);
  else if (tid >= 32 && tid < 64)
    cols[tid - 32] = col_polar(s, bx0 + tid - 32);
  else if (tid >= 64 && tid < 64 + 32 * RPT)
    rows[tid - 64] = row_polar(s, by0 + tid - 64);
  __syncthreads();
  const bool zero = zero_s;
  const int xi = (tid & 7) * 4, x0 = bx0 + xi;
  const AzConsts kz = az_consts(s);
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int yi = (tid >> 3) + 32 * j, y = by0 + yi;
    if (y >= s.height || x0 >= s.width) continue;
    uint8_t v[4] = {0, 0, 0, 0};
    if (!zero) {
      const RowPolar rp = rows[yi];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (x0 + i < s.width) v[i] = pixel_level<M, Tex>(s, polar, tex, kz, cols[xi + i], rp);
    }
    store4(s, out, surf, x0, y, v);
  }
}

// Nearest / bilinear a quarter at a time: a block covers 32 x (32 RPT) pixels of the display's
// top-left quarter (W % 8 == 0, H even) and also their mirror images about the display's
// centre lines, 4 x 4 pixels a thread and row. Where the pixel grid is symmetric about the
// radar (the centred display at the default scale: east(W - 1 - x) == -east(x) and the same
// for north, checked for every column and row of the block), the four mirror images have the
// same |east| and |north|, hence the same range and folded azimuth: the square root and the
// arctangent are computed once for four pixels and only the quadrant select differs, so every
// value is still the CPU's. Elsewhere (zoomed, off-centre) each mirror image is computed on its
// own, as scan_tile_kernel does.
template <ScanMode M, int RPT, bool Tex>
__global__ void __launch_bounds__(kThreads)
    scan_mirror_kernel(ScanSetup s, const uint8_t* __restrict__ polar, cudaTextureObject_t tex,
                       uint8_t* __restrict__ out, unsigned long long surf) {
  __shared__ ColPolar cols[2][kTileW];  // [mirrored][column]: x, then W - 1 - x
  __shared__ RowPolar rows[2][32 * RPT];
  __shared__ int zero_s[4];  // [mirror image q]: every pixel centre past the range
  const int tid = int(threadIdx.x), W = s.width, H = s.height, hw = W / 2, hh = H / 2;
  const int bx0 = int(blockIdx.x) * kTileW, by0 = int(blockIdx.y) * 32 * RPT;
  const int bx1 = min(hw, bx0 + kTileW) - 1, by1 = min(hh, by0 + 32 * RPT) - 1;
  bool same = true;
  if (tid < 4) {
    const bool mx = tid & 1, my = tid & 2;
    zero_s[tid] = rect_past_range(s, mx ? W - 1 - bx1 : bx0, mx ? W - 1 - bx0 : bx1,
                                  my ? H - 1 - by1 : by0, my ? H - 1 - by0 : by1);
  } else if (tid >= 32 && tid < 32 + kTileW) {
    const int i = tid - 32;
    const ColPolar c = col_polar(s, bx0 + i), m = col_polar(s, W - 1 - bx0 - i);
    cols[0][i] = c;
    cols[1][i] = m;
    same = m.e == -c.e;
  } else if (tid >= 64 && tid < 64 + 32 * RPT) {
    const int i = tid - 64;
    const RowPolar r = row_polar(s, by0 + i), m = row_polar(s, H - 1 - by0 - i);
    rows[0][i] = r;
    rows[1][i] = m;
    same = m.n == -r.n;
  }
  const bool mirrored = __syncthreads_and(same);
  const bool all_zero = zero_s[0] && zero_s[1] && zero_s[2] && zero_s[3];
  const int xi = (tid & 7) * 4, x0 = bx0 + xi, xm = W - 4 - x0;
  const AzConsts kz = az_consts(s);
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int yi = (tid >> 3) + 32 * j, y = by0 + yi;
    if (y >= hh || x0 >= hw) continue;
    uint8_t v[4][4] = {};  // [mirror image q][pixel]; q & 1: x mirrored, q & 2: y mirrored
    if (!all_zero && mirrored) {
      const RowPolar rp = rows[0][yi];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const ColPolar cp = cols[0][xi + i];
        const float u = exact_u(cp, rp);
        if (!(u < float(s.bins))) continue;
        const float a = folded_v(s, kz, cp, rp);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          // The mirror image's east and north are exactly -east and -north.
          const float e = (q & 1) ? -cp.e : cp.e, n = (q & 2) ? -rp.n : rp.n;
          v[q][i] = level_at<M, Tex>(s, polar, tex, u, quadrant_v(kz, a, e >= 0.0f, n >= 0.0f));
        }
      }
    } else if (!all_zero) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (zero_s[q]) continue;
        const RowPolar rp = rows[q >> 1][yi];
#pragma unroll
        for (int i = 0; i < 4; ++i)
          v[q][i] = pixel_level<M, Tex>(s, polar, tex, kz, cols[q & 1][xi + i], rp);
      }
    }
    // Mirrored in x, pixel i lands at column W - 1 - x0 - i: byte 3 - i of the word at xm.
    const uint8_t r1[4] = {v[1][3], v[1][2], v[1][1], v[1][0]};
    const uint8_t r3[4] = {v[3][3], v[3][2], v[3][1], v[3][0]};
    store4(s, out, surf, x0, y, v[0]);
    store4(s, out, surf, xm, y, r1);
    store4(s, out, surf, x0, H - 1 - y, v[2]);
    store4(s, out, surf, xm, H - 1 - y, r3);
  }
}

// A display of whole 8-pixel column groups and even height takes the mirror kernel (a block a
// quarter tile and its three mirror images), others a block a tile.
template <ScanMode M, bool Tex>
void launch_tiles(const ScanSetup& s, const uint8_t* d_polar, cudaTextureObject_t tex, Out8 out,
                  cudaStream_t stream) {
  constexpr int kRows = Tex ? kScanTextureTileRows : kScanFrameTileRows, kRpt = kRows / 32;
  static_assert(kRows % 32 == 0, "a block covers whole 32-row thread groups");
  if (s.width % 8 == 0 && s.height % 2 == 0) {
    const dim3 grid(unsigned((s.width / 2 + kTileW - 1) / kTileW),
                    unsigned((s.height / 2 + kRows - 1) / kRows));
    scan_mirror_kernel<M, kRpt, Tex>
        <<<grid, kThreads, 0, stream>>>(s, d_polar, tex, out.d, out.surf);
    return;
  }
  const dim3 grid(unsigned((s.width + kTileW - 1) / kTileW),
                  unsigned((s.height + kRows - 1) / kRows));
  scan_tile_kernel<M, kRpt, Tex><<<grid, kThreads, 0, stream>>>(s, d_polar, tex, out.d, out.surf);
}

}  // namespace

int pyramid_bins_needed(const ScanSetup& s) {
  if (s.azimuths < kAzBlock1 || s.bins < 1) return 0;
  // A span reads the pyramid only when it holds >= 16 azimuths, which needs a half-width w > 7
  // azimuths (na < 2 w + 2), i.e. u < rho / sin(7 / az_per_rad); 6 leaves a margin for the
  // polynomial's rounding. Its cells then lie below u + rho.
  const double ang = 6.0 / double(s.az_per_rad), rho = double(s.footprint);
  if (ang >= 1.5) return s.bins;
  const double u_max = rho / std::sin(ang);
  // The display's pixel centre nearest the radar.
  const double ex0 = double(s.east0), ex1 = ex0 + double(s.width - 1) * double(s.step);
  const double ny1 = double(s.north0), ny0 = ny1 - double(s.height - 1) * double(s.step);
  const double de = ex0 > 0 ? ex0 : (ex1 < 0 ? -ex1 : 0.0);
  const double dn = ny0 > 0 ? ny0 : (ny1 < 0 ? -ny1 : 0.0);
  if (std::sqrt(de * de + dn * dn) > u_max + 2.0) return 0;
  return int(std::min<double>(s.bins, std::ceil(u_max + rho) + 2.0));
}

void launch_az_pyramid(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                       cudaStream_t stream, int bins_needed) {
  const int n1 = azimuths / kAzBlock1, n2 = azimuths / kAzBlock2;
  const int used = bins_needed < 0 ? bins : std::min(bins, bins_needed);
  if (used <= 0) return;
  uint8_t* l1 = d_pyramid;
  uint8_t* l2 = d_pyramid + size_t(n1) * size_t(bins);
  const unsigned gx = unsigned((used + 255) / 256);
  if (n1 > 0) {
    az_block_max_kernel<<<dim3(gx, unsigned(n1)), 256, 0, stream>>>(d_polar, l1, bins, used, n1,
                                                                    kAzBlock1);
    SWL_CUDA_CHECK_LAUNCH();
  }
  if (n2 > 0) {
    az_block_max_kernel<<<dim3(gx, unsigned(n2)), 256, 0, stream>>>(l1, l2, bins, used, n2,
                                                                    kAzBlock2 / kAzBlock1);
    SWL_CUDA_CHECK_LAUNCH();
  }
}

void launch_scan(const ScanSetup& s, const uint8_t* d_polar, ScanMode mode, Out8 out,
                 uint8_t* d_pyramid, cudaStream_t stream, const PolarTexture* tex) {
  // The kernels round with floor_small (|x| < 2^22); the pipeline allows 65536 at most.
  SWL_CHECK(s.bins < (1 << 21) && s.azimuths < (1 << 21), "scan: too many bins or azimuths");
  SWL_CHECK(tex == nullptr || (tex->azimuths() == s.azimuths && tex->bins() == s.bins),
            "scan: the polar texture holds another frame shape");
  if (s.width <= 0 || s.height <= 0) return;
  switch (mode) {
    case ScanMode::Nearest:
      launch_tiles<ScanMode::Nearest, false>(s, d_polar, 0, out, stream);
      break;
    case ScanMode::Bilinear:
      if (tex != nullptr)
        launch_tiles<ScanMode::Bilinear, true>(s, d_polar, cudaTextureObject_t(tex->texture()), out,
                                               stream);
      else
        launch_tiles<ScanMode::Bilinear, false>(s, d_polar, 0, out, stream);
      break;
    case ScanMode::MaxHold: {
      SWL_CHECK(d_pyramid != nullptr, "max-hold scan conversion needs a pyramid buffer");
      launch_az_pyramid(d_polar, s.azimuths, s.bins, d_pyramid, stream, pyramid_bins_needed(s));
      AzPyramid pyr;
      pyr.l1 = d_pyramid;
      pyr.l2 = d_pyramid + size_t(s.azimuths / kAzBlock1) * size_t(s.bins);
      const dim3 block(32, 8);
      const dim3 grid(unsigned((s.width + 4 * 32 - 1) / (4 * 32)), unsigned((s.height + 7) / 8));
      scan_maxhold_direct_kernel<<<grid, block, 0, stream>>>(s, d_polar, pyr, out.d, out.surf);
      break;
    }
  }
  SWL_CUDA_CHECK_LAUNCH();
}

// Bins r .. r + 3 (those below bins) of azimuth first + blockIdx.y (mod azimuths) and their
// 3-bin range maxima max(p[a][r .. min(r + 2, bins - 1)]).
struct RowQuad {
  int a;
  uint8_t v[4], m[4];
};
__device__ __forceinline__ RowQuad row_quad(const uint8_t* __restrict__ p, int azimuths, int bins,
                                            int first, int r) {
  RowQuad q;
  q.a = first + int(blockIdx.y);
  if (q.a >= azimuths) q.a -= azimuths;
  const uint8_t* row = p + size_t(q.a) * size_t(bins);
  unsigned v[6];
#pragma unroll
  for (int k = 0; k < 6; ++k) v[k] = r + k < bins ? unsigned(__ldg(row + r + k)) : 0u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    q.v[k] = uint8_t(v[k]);
    q.m[k] = uint8_t(max(v[k], max(v[k + 1], v[k + 2])));
  }
  return q;
}

// The range maxima of azimuths first .. first + count - 1 (mod azimuths) into `out` (laid out
// like the frame), 4 bins a thread: where the array has no surface.
__global__ void range_max3_kernel(const uint8_t* __restrict__ p, uint8_t* __restrict__ out,
                                  int azimuths, int bins, int first) {
  const int r = (int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x)) * 4;
  if (r >= bins) return;
  const RowQuad q = row_quad(p, azimuths, bins, first, r);
  uint8_t* o = out + size_t(q.a) * size_t(bins);
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (r + k < bins) o[r + k] = q.m[k];
}

// The same rows of the frame and their range maxima written into both halves of the array
// through its surface (halo rows included): one launch instead of two copies into the array
// and the maxima's kernel.
__global__ void range_max_rows_kernel(const uint8_t* __restrict__ p, cudaSurfaceObject_t surf,
                                      int azimuths, int bins, int first, int r3_row0) {
  const int r = (int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x)) * 4;
  if (r >= bins) return;
  const RowQuad q = row_quad(p, azimuths, bins, first, r);
  const int ys[3] = {q.a + 1, q.a == azimuths - 1 ? 0 : -1, q.a == 0 ? azimuths + 1 : -1};
  for (const int y : ys) {
    if (y < 0) continue;
    if (r + 4 <= bins && (bins & 3) == 0) {
      surf2Dwrite(make_uchar4(q.v[0], q.v[1], q.v[2], q.v[3]), surf, r, y);
      surf2Dwrite(make_uchar4(q.m[0], q.m[1], q.m[2], q.m[3]), surf, r, r3_row0 + y);
    } else {
      for (int k = 0; k < 4 && r + k < bins; ++k) {
        surf2Dwrite(q.v[k], surf, r + k, y);
        surf2Dwrite(q.m[k], surf, r + k, r3_row0 + y);
      }
    }
  }
}

PolarTexture::~PolarTexture() {
  release();
}

void PolarTexture::release() {
  if (surf_ != 0) SWL_CUDA_CHECK_NOTHROW(cudaDestroySurfaceObject(cudaSurfaceObject_t(surf_)));
  surf_ = 0;
  if (tex_ != 0) SWL_CUDA_CHECK_NOTHROW(cudaDestroyTextureObject(cudaTextureObject_t(tex_)));
  if (array_ != nullptr) SWL_CUDA_CHECK_NOTHROW(cudaFreeArray(array_));
  tex_ = 0;
  array_ = nullptr;
  az_ = bins_ = 0;
}

bool PolarTexture::usable(int azimuths, int bins, bool range_max) {
  static const int2 limit = [] {
    int dev = 0, w = 0, h = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&w, cudaDevAttrMaxTexture2DGatherWidth, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&h, cudaDevAttrMaxTexture2DGatherHeight, dev) != cudaSuccess)
      return make_int2(0, 0);
    return make_int2(w, h);
  }();
  return azimuths >= 1 && bins >= 1 && bins <= limit.x &&
         (long long)(azimuths + 2) * (range_max ? 2 : 1) <= limit.y;
}

void PolarTexture::update(const uint8_t* d_polar, int azimuths, int bins, int first, int count,
                          cudaStream_t stream) {
  SWL_CHECK(usable(azimuths, bins, range_max_),
            "polar texture: frame too large for a gather texture");
  if (azimuths != az_ || bins != bins_) {
    release();
    const cudaChannelFormatDesc fmt = cudaCreateChannelDesc<unsigned char>();
    const size_t rows = (size_t(azimuths) + 2) * (range_max_ ? 2 : 1);
    // With range maxima, the array is written through a surface where the device allows it;
    // else by copies from a linear buffer of the maxima.
    bool surface = false;
    if (range_max_) {
      surface = cudaMallocArray(&array_, &fmt, size_t(bins), rows,
                                cudaArrayTextureGather | cudaArraySurfaceLoadStore) == cudaSuccess;
      if (!surface) (void)cudaGetLastError();  // clear it: the plain array below
    }
    if (!surface)
      SWL_CUDA_CHECK(cudaMallocArray(&array_, &fmt, size_t(bins), rows, cudaArrayTextureGather));
    d_r3_.resize(range_max_ && !surface ? size_t(azimuths) * size_t(bins) : 0);
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array_;
    cudaTextureDesc td{};
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t t = 0;
    SWL_CUDA_CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    tex_ = t;
    if (surface) {
      cudaSurfaceObject_t sf = 0;
      SWL_CUDA_CHECK(cudaCreateSurfaceObject(&sf, &res));
      surf_ = sf;
    }
    az_ = azimuths;
    bins_ = bins;
    first = 0;
    count = azimuths;  // a new array holds nothing yet
  }
  if (count <= 0) return;
  if (count > azimuths) count = azimuths;
  first %= azimuths;
  if (first < 0) first += azimuths;
  // The range-max kernels: 4 bins a thread, 128 threads, a row of blocks per updated azimuth.
  const dim3 grid(unsigned((bins + 4 * 128 - 1) / (4 * 128)), unsigned(count));
  if (surf_ != 0) {
    range_max_rows_kernel<<<grid, 128, 0, stream>>>(d_polar, cudaSurfaceObject_t(surf_), azimuths,
                                                    bins, first, range_max_row0());
    SWL_CUDA_CHECK_LAUNCH();
    return;
  }
  const size_t b = size_t(bins);
  const int n1 = std::min(count, azimuths - first);
  const bool has_last = first + n1 == azimuths, has_zero = first == 0 || count > n1;
  // The updated azimuths of `src` (the frame or its range maxima) into the half from row0 on.
  auto half = [&](const uint8_t* src, int row0) {
    auto rows = [&](int a, int n, int row) {  // azimuths a .. a + n - 1 into rows row ..
      SWL_CUDA_CHECK(cudaMemcpy2DToArrayAsync(array_, 0, size_t(row0 + row), src + size_t(a) * b, b,
                                              b, size_t(n), cudaMemcpyDeviceToDevice, stream));
    };
    rows(first, n1, first + 1);
    if (count > n1) rows(0, count - n1, 1);
    if (has_last) rows(azimuths - 1, 1, 0);
    if (has_zero) rows(0, 1, azimuths + 1);
  };
  half(d_polar, 0);
  if (range_max_) {
    range_max3_kernel<<<grid, 128, 0, stream>>>(d_polar, d_r3_.get(), azimuths, bins, first);
    SWL_CUDA_CHECK_LAUNCH();
    half(d_r3_.get(), range_max_row0());
  }
}

}  // namespace sweepline::gpu::cuda
