// Scan conversion on the GPU: one thread per 4 horizontal pixels, with the arithmetic of
// gpu/scan_math.hpp (the CPU's, bit for bit).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gpu/cuda/pipeline_kernels.hpp"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::cuda {

namespace {

// Level 1: thread (r, k) = max over azimuths 16k..16k+15 at range r (coalesced across r).
// Level 2 the same over 16 level-1 rows.
__global__ void az_block_max_kernel(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst,
                                    int bins, int blocks, int per) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
  if (r >= bins || k >= blocks) return;
  unsigned m = 0;
  for (int j = 0; j < per; ++j)
    m = max(m, unsigned(__ldg(src + size_t(k * per + j) * size_t(bins) + size_t(r))));
  dst[size_t(k) * size_t(bins) + size_t(r)] = uint8_t(m);
}

template <ScanMode M>
__global__ void scan_kernel(ScanSetup s, const uint8_t* __restrict__ polar, AzPyramid pyr,
                            uint8_t* __restrict__ out, unsigned long long surf) {
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= s.height || x0 >= s.width) return;
  uint8_t v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int x = x0 + i;
    v[i] = 0;
    if (x < s.width) {
      const PixelPolar p = swl_pixel_polar(s, x, y);
      if (M == ScanMode::Nearest)
        v[i] = swl_nearest(s, polar, p);
      else if (M == ScanMode::Bilinear)
        v[i] = to_level(swl_bilinear(s, polar, p));
      else
        v[i] = swl_max_hold(s, polar, pyr, p);
    }
  }
  uint8_t* row = out + size_t(y) * size_t(s.width);
  if ((s.width & 3) == 0) {
    *reinterpret_cast<uchar4*>(row + x0) = make_uchar4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x0 + i < s.width) row[x0 + i] = v[i];
  }
  if (surf)
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x0 + i < s.width) surf2Dwrite(v[i], cudaSurfaceObject_t(surf), x0 + i, y);
}

// Per-pixel span table for max-hold (MaxHoldTable): the span depends only on the geometry, so
// it is computed once per geometry and each frame only gathers. Code: r0 (13 bits), a0 (13 bits),
// range length - 1 (2 bits), azimuth count - 1 (4 bits); r0 = 8191 marks the escapes below.
constexpr uint32_t kLutPast = 0x1FFFu;                  // past the range: 0
constexpr uint32_t kLutCompute = 0x1FFFu | (1u << 13);  // wide span: gathered the slow way
constexpr int kLutMaxRange = 4, kLutMaxAz = 16;

__global__ void span_lut_kernel(ScanSetup s, uint32_t* __restrict__ lut) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= s.width || y >= s.height) return;
  const PixelPolar p = swl_pixel_polar(s, x, y);
  uint32_t code = kLutPast;
  if (p.u < float(s.bins)) {
    const PixelSpan sp = swl_pixel_span(s, p);
    const int rl = sp.r1 - sp.r0 + 1;
    code = kLutCompute;
    if (rl <= kLutMaxRange && sp.na <= kLutMaxAz)
      code = uint32_t(sp.r0) | (uint32_t(sp.a0) << 13) | (uint32_t(rl - 1) << 26) |
             (uint32_t(sp.na - 1) << 28);
  }
  lut[size_t(y) * size_t(s.width) + size_t(x)] = code;
}

// The maximum over the cells a table code names: per azimuth row the (at most 4) range cells
// come from the one or two aligned 32-bit words holding them (the last, partial word of the
// frame byte by byte), maxed four bytes at a time.
__device__ __forceinline__ uint8_t lut_gather(const ScanSetup& s, const uint8_t* __restrict__ polar,
                                              const AzPyramid& pyr, uint32_t code, int x, int y,
                                              bool near) {
  if (code == kLutPast) return 0;
  if (code == kLutCompute)  // inside the near box the near pass (one warp a pixel) fills it in
    return near ? uint8_t(0) : swl_max_hold(s, polar, pyr, swl_pixel_polar(s, x, y));
  const int r0 = int(code & 0x1FFFu), rl = int((code >> 26) & 3u) + 1, na = int(code >> 28) + 1;
  int a = int((code >> 13) & 0x1FFFu);
  const size_t total = size_t(s.azimuths) * size_t(s.bins);
  const uint32_t mask = rl == 4 ? 0xFFFFFFFFu : ((1u << (8 * rl)) - 1u);
  const uint32_t* words = reinterpret_cast<const uint32_t*>(polar);
  uint32_t acc = 0;
  for (int k = 0; k < na; ++k) {
    const size_t p = size_t(a) * size_t(s.bins) + size_t(r0);
    const size_t w0 = p >> 2, w1 = (p + size_t(rl) - 1) >> 2;
    if (4 * w1 + 4 <= total) {
      const uint32_t lo = __ldg(words + w0);
      const uint32_t hi = w1 != w0 ? __ldg(words + w1) : 0u;
      acc = __vmaxu4(acc, __funnelshift_r(lo, hi, unsigned(p & 3u) * 8u) & mask);
    } else {
      for (int i = 0; i < rl; ++i) acc = max(acc, unsigned(__ldg(polar + p + size_t(i))));
    }
    if (++a == s.azimuths) a = 0;
  }
  acc = __vmaxu4(acc, acc >> 16);
  acc = __vmaxu4(acc, acc >> 8);
  return uint8_t(acc & 0xFFu);
}

// The pixels around the radar whose spans are too wide for the table (up to every azimuth):
// gathered by one thread each they would set the kernel's time (a few pixels, thousands of
// cells each), so a second pass gives each a warp.
struct NearBox {
  int x0 = 0, y0 = 0, w = 0, h = 0;
  __device__ bool holds(int x, int y) const {
    return x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
  }
};

// One warp per pixel of the near box with a table escape: the lanes split the span's azimuths
// into runs aligned to the pyramid's 16-azimuth blocks, each gathers its run like swl_span_max
// (pyramid included), and the warp takes the maximum: the same cells, the same maximum.
__global__ void scan_near_kernel(ScanSetup s, const uint8_t* __restrict__ polar, AzPyramid pyr,
                                 const uint32_t* __restrict__ lut, uint8_t* __restrict__ out,
                                 unsigned long long surf, NearBox box) {
  const long long wid = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = int(threadIdx.x & 31u);
  if (wid >= (long long)box.w * box.h) return;
  const int x = box.x0 + int(wid % box.w), y = box.y0 + int(wid / box.w);
  const size_t idx = size_t(y) * size_t(s.width) + size_t(x);
  if (lut[idx] != kLutCompute) return;  // the same for the whole warp
  const PixelSpan sp = swl_pixel_span(s, swl_pixel_polar(s, x, y));
  const int first = sp.a0 - sp.a0 % kAzBlock1;
  int chunk = (sp.na + (sp.a0 - first) + 31) / 32;
  if (chunk > kAzBlock1) chunk = (chunk + kAzBlock1 - 1) / kAzBlock1 * kAzBlock1;
  const int lo = max(first + lane * chunk, sp.a0),
            hi = min(first + (lane + 1) * chunk, sp.a0 + sp.na);
  unsigned m = 0;
  if (hi > lo) {
    PixelSpan sub = sp;
    sub.a0 = lo >= s.azimuths ? lo - s.azimuths : lo;
    sub.na = hi - lo;
    m = swl_span_max(s, polar, pyr, sub);
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xFFFFFFFFu, m, o));
  if (lane == 0) {
    out[idx] = uint8_t(m);
    if (surf) surf2Dwrite(uint8_t(m), cudaSurfaceObject_t(surf), x, y);
  }
}

template <bool Tile2D>
__global__ void scan_lut_kernel(ScanSetup s, const uint8_t* __restrict__ polar, AzPyramid pyr,
                                const uint32_t* __restrict__ lut, uint8_t* __restrict__ out,
                                unsigned long long surf, NearBox box) {
  // A warp covers 128 x 1 pixels, or (Tile2D) 16 x 8: fewer azimuth rows, so fewer sectors
  // per gather where the row runs across the azimuths. A block is 128 x 8 either way.
  const int tid = threadIdx.y * 32 + threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int x0 =
      Tile2D ? blockIdx.x * 128 + warp * 16 + (lane & 3) * 4 : (blockIdx.x * 32 + lane) * 4;
  const int y = blockIdx.y * 8 + (Tile2D ? lane >> 2 : warp);
  if (y >= s.height || x0 >= s.width) return;
  const size_t i0 = size_t(y) * size_t(s.width) + size_t(x0);
  uint32_t c[4];
  if ((s.width & 3) == 0) {
    // The table is read once per frame: stream it past the L2 that holds the polar frame.
    const uint4 q = __ldcs(reinterpret_cast<const uint4*>(lut + i0));
    c[0] = q.x;
    c[1] = q.y;
    c[2] = q.z;
    c[3] = q.w;
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) c[i] = x0 + i < s.width ? __ldcs(lut + i0 + size_t(i)) : kLutPast;
  }
  uint8_t v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    v[i] = lut_gather(s, polar, pyr, c[i], x0 + i, y, box.holds(x0 + i, y));
  uint8_t* row = out + size_t(y) * size_t(s.width);
  if ((s.width & 3) == 0) {
    *reinterpret_cast<uchar4*>(row + x0) = make_uchar4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x0 + i < s.width) row[x0 + i] = v[i];
  }
  if (surf)
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x0 + i < s.width) surf2Dwrite(v[i], cudaSurfaceObject_t(surf), x0 + i, y);
}

}  // namespace

void launch_az_pyramid(const uint8_t* d_polar, int azimuths, int bins, uint8_t* d_pyramid,
                       cudaStream_t stream) {
  const int n1 = azimuths / kAzBlock1, n2 = azimuths / kAzBlock2;
  uint8_t* l1 = d_pyramid;
  uint8_t* l2 = d_pyramid + size_t(n1) * size_t(bins);
  const unsigned gx = unsigned((bins + 255) / 256);
  if (n1 > 0) {
    az_block_max_kernel<<<dim3(gx, unsigned(n1)), 256, 0, stream>>>(d_polar, l1, bins, n1,
                                                                    kAzBlock1);
    SWL_CUDA_CHECK_LAUNCH();
  }
  if (n2 > 0) {
    az_block_max_kernel<<<dim3(gx, unsigned(n2)), 256, 0, stream>>>(l1, l2, bins, n2,
                                                                    kAzBlock2 / kAzBlock1);
    SWL_CUDA_CHECK_LAUNCH();
  }
}

void launch_scan(const ScanSetup& s, const uint8_t* d_polar, ScanMode mode, Out8 out,
                 uint8_t* d_pyramid, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid(unsigned((s.width + 4 * 32 - 1) / (4 * 32)), unsigned((s.height + 7) / 8));
  AzPyramid pyr;
  switch (mode) {
    case ScanMode::Nearest:
      scan_kernel<ScanMode::Nearest><<<grid, block, 0, stream>>>(s, d_polar, pyr, out.d, out.surf);
      break;
    case ScanMode::Bilinear:
      scan_kernel<ScanMode::Bilinear><<<grid, block, 0, stream>>>(s, d_polar, pyr, out.d, out.surf);
      break;
    case ScanMode::MaxHold:
      SWL_CHECK(d_pyramid != nullptr, "max-hold scan conversion needs a pyramid buffer");
      launch_az_pyramid(d_polar, s.azimuths, s.bins, d_pyramid, stream);
      pyr.l1 = d_pyramid;
      pyr.l2 = d_pyramid + size_t(s.azimuths / kAzBlock1) * size_t(s.bins);
      scan_kernel<ScanMode::MaxHold><<<grid, block, 0, stream>>>(s, d_polar, pyr, out.d, out.surf);
      break;
  }
  SWL_CUDA_CHECK_LAUNCH();
}

namespace {

// A box around the radar holding every pixel whose span may exceed the table's 16 azimuths
// (na <= 2 w + 2 with w = asin(rho / u) azimuths, so na > 16 needs w > 7: u < rho / sin(7 /
// az_per_rad)); bounded with a margin. Escapes outside it are still gathered, by the main pass.
NearBox near_box(const ScanSetup& s) {
  NearBox b;
  const double ang = 6.0 / double(s.az_per_rad);
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

}  // namespace

bool MaxHoldTable::usable(const ScanSetup& s) {
  return s.bins >= 1 && s.bins < 8191 && s.azimuths >= 1 && s.azimuths <= 8192 && s.width > 0 &&
         s.height > 0;
}

void MaxHoldTable::scan(const ScanSetup& s, const uint8_t* d_polar, uint8_t* d_pyramid, Out8 out,
                        cudaStream_t stream) {
  if (!usable(s)) {
    launch_scan(s, d_polar, ScanMode::MaxHold, out, d_pyramid, stream);
    return;
  }
  SWL_CHECK(d_pyramid != nullptr, "max-hold scan conversion needs a pyramid buffer");
  prepare(s, stream);
  launch_az_pyramid(d_polar, s.azimuths, s.bins, d_pyramid, stream);
  AzPyramid pyr;
  pyr.l1 = d_pyramid;
  pyr.l2 = d_pyramid + size_t(s.azimuths / kAzBlock1) * size_t(s.bins);
  const dim3 block(32, 8);
  const dim3 grid(unsigned((s.width + 4 * 32 - 1) / (4 * 32)), unsigned((s.height + 7) / 8));
  const NearBox box = near_box(s);
  if (tile2d_)
    scan_lut_kernel<true>
        <<<grid, block, 0, stream>>>(s, d_polar, pyr, d_lut_.get(), out.d, out.surf, box);
  else
    scan_lut_kernel<false>
        <<<grid, block, 0, stream>>>(s, d_polar, pyr, d_lut_.get(), out.d, out.surf, box);
  SWL_CUDA_CHECK_LAUNCH();
  const long long warps = (long long)box.w * box.h;
  if (warps > 0) {
    scan_near_kernel<<<unsigned((warps + 7) / 8), 256, 0, stream>>>(s, d_polar, pyr, d_lut_.get(),
                                                                    out.d, out.surf, box);
    SWL_CUDA_CHECK_LAUNCH();
  }
}

void MaxHoldTable::prepare(const ScanSetup& s, cudaStream_t stream) {
  if (valid_ && std::memcmp(&s, &setup_, sizeof s) == 0) return;
  d_lut_.resize(size_t(s.width) * size_t(s.height));
  span_lut_kernel<<<dim3(unsigned((s.width + 255) / 256), unsigned(s.height)), 256, 0, stream>>>(
      s, d_lut_.get());
  SWL_CUDA_CHECK_LAUNCH();
  setup_ = s;
  valid_ = true;
}

}  // namespace sweepline::gpu::cuda
