// CFAR (polar), threshold, the plain copy and label colouring on the GPU (detect_kernels.hpp).
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/detect_kernels.hpp"
#include "gpu/cuda/surface_store.cuh"
#include "gpu/cuda/warp_scan.cuh"
#include "gpu/fixed_point.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::gpu::cuda {

namespace {

constexpr int kCfarThreads = 256;

struct CfarTable {
  float k[2 * kMaxCfarCells + 1];  // alpha(N) / N, the same numbers as the CPU's table
  int guard, train;
};

// The video is linear amplitude: the detector works on power (the cell's value squared against
// the training cells' summed squares), where the CA-CFAR factor holds. Integer sums are exact:
// (2 x 256 cells) x 255^2 and a prefix over 12000 bins x 255^2 both fit an int.
__device__ __forceinline__ int power_of(const uint8_t* p) {
  const int v = __ldg(p);
  return v * v;
}

// One block per azimuth row; each thread a contiguous run of cells, sliding the two training
// windows with exact integer sums.
__global__ void cfar_kernel(const uint8_t* __restrict__ polar, uint8_t* __restrict__ mask, int bins,
                            CfarTable tab) {
  const uint8_t* row = polar + size_t(blockIdx.x) * size_t(bins);
  uint8_t* m = mask + size_t(blockIdx.x) * size_t(bins);
  const int run = (bins + kCfarThreads - 1) / kCfarThreads;
  const int r_begin = threadIdx.x * run, r_end = min(bins, r_begin + run);
  if (r_begin >= r_end) return;
  const int G = tab.guard, T = tab.train;
  int r = r_begin;
  int lb = max(0, r - G - T), le = max(0, r - G);                // [lb, le)
  int rb = min(bins, r + G + 1), re = min(bins, r + G + T + 1);  // [rb, re)
  int sl = 0, sr = 0;
  for (int i = lb; i < le; ++i) sl += power_of(row + i);
  for (int i = rb; i < re; ++i) sr += power_of(row + i);
  for (;;) {
    const int n = (le - lb) + (re - rb);
    const float v = float(power_of(row + r));
    m[r] = (n > 0 && v > __fmul_rn(tab.k[n], float(sl + sr))) ? 255 : 0;
    if (++r == r_end) break;
    // Slide to r: the left window gains r-1-G and loses r-1-G-T, the right loses r+G, gains r+G+T.
    if (r - 1 - G >= 0) {
      sl += power_of(row + (r - 1 - G));
      le = r - G;
    }
    if (r - 1 - G - T >= 0) {
      sl -= power_of(row + (r - 1 - G - T));
      lb = r - G - T;
    }
    if (r + G < bins) {
      sr -= power_of(row + (r + G));
      rb = r + G + 1;
    } else {
      rb = bins;
    }
    if (r + G + T < bins) {
      sr += power_of(row + (r + G + T));
      re = r + G + T + 1;
    } else {
      re = bins;
    }
  }
}

// One block per azimuth row when its prefix sums fit in shared memory: the row's running sums
// P[i] = row[0] + ... + row[i - 1] (exact integers, built 4 cells a thread with a warp-shuffle
// scan), then every cell's two training sums are two differences, the cells spread across the
// threads (coalesced) rather than one contiguous run per thread. Same windows, same integer
// sums, same test as cfar_kernel.

__global__ void cfar_prefix_kernel(const uint8_t* __restrict__ polar, uint8_t* __restrict__ mask,
                                   int bins, CfarTable tab) {
  extern __shared__ int P[];  // bins + 1
  __shared__ int warp_sum[kCfarThreads / 32];
  const uint8_t* row = polar + size_t(blockIdx.x) * size_t(bins);
  uint8_t* m = mask + size_t(blockIdx.x) * size_t(bins);
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) P[0] = 0;
  int carry = 0;
  for (int base = 0; base < bins; base += 4 * kCfarThreads) {
    int c[4], run = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = base + 4 * t + i;
      c[i] = run += r < bins ? power_of(row + r) : 0;
    }
    const int incl = warp_inclusive_sum(run, lane);  // of the threads' runs within the warp
    if (lane == 31) warp_sum[warp] = incl;
    __syncthreads();
    int before = carry, total = 0;
#pragma unroll
    for (int w = 0; w < kCfarThreads / 32; ++w) {
      before += w < warp ? warp_sum[w] : 0;
      total += warp_sum[w];
    }
    before += incl - run;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = base + 4 * t + i;
      if (r < bins) P[r + 1] = before + c[i];
    }
    carry += total;
    __syncthreads();  // warp_sum is reused
  }
  const int G = tab.guard, T = tab.train;
  for (int r = t; r < bins; r += kCfarThreads) {
    const int lb = max(0, r - G - T), le = max(0, r - G);
    const int rb = min(bins, r + G + 1), re = min(bins, r + G + T + 1);
    const int n = (le - lb) + (re - rb);
    const int sum = (P[le] - P[lb]) + (P[re] - P[rb]);
    const float v = float(power_of(row + r));
    m[r] = (n > 0 && v > __fmul_rn(tab.k[n], float(sum))) ? 255 : 0;
  }
}

// 16 pixels a thread: one 16-byte load, store and surface store where the row allows.
__global__ void threshold_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h,
                                 unsigned t) {
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  const int y = blockIdx.y;
  if (x >= w) return;
  const uint8_t* src = in + size_t(y) * size_t(w);
  uint8_t* dst = out.d + size_t(y) * size_t(w);
  uint4 v;
  if (x + 16 <= w && (w & 15) == 0) {
    const uint4 q = __ldg(reinterpret_cast<const uint4*>(src + x));
    const uint32_t tt = t * 0x01010101u;  // per byte: 0xff where the value is above t
    v = make_uint4(__vcmpgtu4(q.x, tt), __vcmpgtu4(q.y, tt), __vcmpgtu4(q.z, tt),
                   __vcmpgtu4(q.w, tt));
    *reinterpret_cast<uint4*>(dst + x) = v;
  } else {
    uint32_t wd[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int i = 0; i < 16; ++i)
      if (x + i < w) {
        const uint8_t b = src[x + i] > t ? 255 : 0;
        dst[x + i] = b;
        wd[i / 4] |= uint32_t(b) << (8 * (i % 4));
      }
    v = make_uint4(wd[0], wd[1], wd[2], wd[3]);
  }
  if (out.surf) surf_store16(out.surf, x, y, w, v);
}

__global__ void copy_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w || y >= h) return;
  const size_t i = size_t(y) * size_t(w) + size_t(x);
  const uint8_t v = __ldg(in + i);
  out.d[i] = v;
  if (out.surf) surf2Dwrite(v, cudaSurfaceObject_t(out.surf), x, y);
}

// One pixel a thread: a 4-byte surface store per RGBA texel, the lanes' texels adjacent (four
// pixels a thread with one 16-byte store each measured slower; decision 0018).
// The colour is that of the label's identity (gpu::identity_colour, the CPU display's twin).
__global__ void label_colour_kernel(const int32_t* __restrict__ labels,
                                    const int32_t* __restrict__ ids, int n_ids,
                                    cudaSurfaceObject_t surf, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w || y >= h) return;
  const int32_t l = labels[size_t(y) * size_t(w) + size_t(x)];
  const uint32_t c = l > 0 && l < n_ids ? label_colour(__ldg(ids + l)) : 0u;
  surf2Dwrite(make_uchar4(uint8_t(c), uint8_t(c >> 8), uint8_t(c >> 16), uint8_t(c >> 24)), surf,
              x * int(sizeof(uchar4)), y);
}

}  // namespace

void launch_cfar(const uint8_t* d_polar, uint8_t* d_mask, int azimuths, int bins, int guard,
                 int train, double pfa, cudaStream_t stream) {
  SWL_CHECK(guard >= 0 && train >= 1 && guard + train <= kMaxCfarCells, "CFAR: bad guard/train");
  CfarTable tab{};
  tab.guard = guard;
  tab.train = train;
  const std::vector<float> k = cfar_scale_table(train, pfa);  // the CPU's very table
  for (size_t n = 0; n < k.size(); ++n) tab.k[n] = k[n];
  if (bins <= kCfarPrefixMaxBins)
    cfar_prefix_kernel<<<unsigned(azimuths), kCfarThreads, size_t(bins + 1) * sizeof(int),
                         stream>>>(d_polar, d_mask, bins, tab);
  else
    cfar_kernel<<<unsigned(azimuths), kCfarThreads, 0, stream>>>(d_polar, d_mask, bins, tab);
  SWL_CUDA_CHECK_LAUNCH();
}

void launch_threshold(const uint8_t* d_in, Out8 out, int w, int h, uint8_t t, cudaStream_t stream) {
  const dim3 grid(unsigned((w + 16 * 256 - 1) / (16 * 256)), unsigned(h));
  threshold_kernel<<<grid, 256, 0, stream>>>(d_in, out, w, h, t);
  SWL_CUDA_CHECK_LAUNCH();
}

void launch_copy(const uint8_t* d_in, Out8 out, int w, int h, cudaStream_t stream) {
  const dim3 grid(unsigned((w + 255) / 256), unsigned(h));
  copy_kernel<<<grid, 256, 0, stream>>>(d_in, out, w, h);
  SWL_CUDA_CHECK_LAUNCH();
}

void launch_label_colour(const int32_t* d_labels, const int32_t* d_ids, int n_ids,
                         unsigned long long surf, int w, int h, cudaStream_t stream) {
  if (!surf) return;
  const dim3 grid(unsigned((w + 255) / 256), unsigned(h));
  label_colour_kernel<<<grid, 256, 0, stream>>>(d_labels, d_ids, n_ids, cudaSurfaceObject_t(surf),
                                                w, h);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda
