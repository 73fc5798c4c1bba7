// Scan conversion on the GPU: one thread per 4 horizontal pixels, with the arithmetic of
// gpu/scan_math.hpp (the CPU's, bit for bit).
#include <cuda_runtime.h>

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

}  // namespace sweepline::gpu::cuda
