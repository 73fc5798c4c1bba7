// Paper 002's separable filters on the GPU (separable_filters.hpp). Row passes: a block walks
// image rows in segments of 512 pixels (128 threads x 4); the plain version loads each segment
// with its apron from global memory, paper 002's sliding window keeps the last 32 pixels of the
// previous segment in shared memory and loads only the 512 new ones. Column passes: each thread
// keeps 16 rows x 4 columns of accumulators in registers and reads each intermediate row once.
// The sums run over taps -R..R in the CPU's order.
#include "gpu/reference/separable_filters.hpp"

#include <cuda_runtime.h>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/surface_store.cuh"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::reference {

using cuda::Out8;

namespace {

constexpr int kRowThreads = 128;
constexpr int kSeg = kRowThreads * 4;  // outputs per segment
constexpr int kApron = 16;             // >= every radius
constexpr int kColRows = 16;           // outputs per thread in a column pass

struct GaussTaps {
  float w[2 * kMaxGaussianRadius + 1];
  int r;
};
struct BilatTaps {
  float ws[2 * kMaxBilateralRadius + 1];
  float wr[256];
  int r;
};

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return min(max(v, lo), hi);
}

// Loads inputs [x, x + 4) of a row into buf (4 bytes), clamping at the right edge.
__device__ __forceinline__ void load4(uint8_t* buf, const uint8_t* __restrict__ row, int x, int w) {
  if (x + 3 < w && (w & 3) == 0 && x >= 0) {
    const uchar4 v = __ldg(reinterpret_cast<const uchar4*>(row + x));
    buf[0] = v.x;
    buf[1] = v.y;
    buf[2] = v.z;
    buf[3] = v.w;
  } else {
    for (int i = 0; i < 4; ++i) buf[i] = row[clampi(x + i, 0, w - 1)];
  }
}

__device__ __forceinline__ void store4(uint16_t* row, int x, int w, const uint16_t (&v)[4]) {
  if (x + 3 < w && (w & 3) == 0) {
    *reinterpret_cast<ushort4*>(row + x) = make_ushort4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x + i < w) row[x + i] = v[i];
  }
}

// One segment: buf[i] holds input x0 - kApron + i for i in [0, kSeg + 2 kApron).
template <bool Bilateral>
__device__ __forceinline__ void row_outputs(const uint8_t* buf, int x0, int w, uint16_t* out_row,
                                            const float* s_w, int r, const float* s_wr) {
  const int t = threadIdx.x;
  uint16_t v[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int c = kApron + 4 * t + j;
    if (!Bilateral) {
      float acc = 0.0f;
      for (int k = -r; k <= r; ++k) acc += s_w[k + r] * float(buf[c + k]);
      v[j] = to_fixed(acc);
    } else {
      const int cv = buf[c];
      float num = 0.0f, den = 0.0f;
      for (int k = -r; k <= r; ++k) {
        const int p = buf[c + k];
        const float wt = s_w[k + r] * s_wr[abs(p - cv)];
        num += wt * float(p);
        den += wt;
      }
      v[j] = to_fixed(num / den);
    }
  }
  store4(out_row, x0 + 4 * t, w, v);
}

// The taps into shared memory, read from the parameter block with constant indices only (a
// dynamically indexed by-value kernel parameter is copied to local memory). Caller syncs.
template <bool Bilateral>
__device__ __forceinline__ void load_taps(const GaussTaps& g, const BilatTaps& b, float* s_w,
                                          float* s_wr) {
  if (threadIdx.x == 0) {
    if (Bilateral) {
#pragma unroll
      for (int i = 0; i < 2 * kMaxBilateralRadius + 1; ++i) s_w[i] = b.ws[i];
    } else {
#pragma unroll
      for (int i = 0; i < 2 * kMaxGaussianRadius + 1; ++i) s_w[i] = g.w[i];
    }
  }
  if (Bilateral)
    for (int i = threadIdx.x; i < 256; i += blockDim.x) s_wr[i] = b.wr[i];
}

template <bool Bilateral>
__global__ void row_sliding_kernel(const uint8_t* __restrict__ in, uint16_t* __restrict__ mid,
                                   int w, int h, GaussTaps g, BilatTaps b) {
  __shared__ uint8_t buf[kSeg + 2 * kApron];
  __shared__ float s_wr[256];
  __shared__ float s_w[2 * kMaxGaussianRadius + 1];
  const int y = blockIdx.x, t = threadIdx.x;
  if (y >= h) return;
  const int r = Bilateral ? b.r : g.r;
  load_taps<Bilateral>(g, b, s_w, s_wr);
  const uint8_t* row = in + size_t(y) * size_t(w);
  uint16_t* out_row = mid + size_t(y) * size_t(w);
  // The first window: [-kApron, kApron) clamped.
  if (t < 2 * kApron) buf[t] = row[clampi(t - kApron, 0, w - 1)];
  for (int x0 = 0; x0 < w; x0 += kSeg) {
    // New pixels [x0 + kApron, x0 + kSeg + kApron) go after the kept 2 * kApron.
    load4(buf + 2 * kApron + 4 * t, row, x0 + kApron + 4 * t, w);
    __syncthreads();
    if (x0 + 4 * t < w) row_outputs<Bilateral>(buf, x0, w, out_row, s_w, r, s_wr);
    __syncthreads();
    if (t < 2 * kApron) buf[t] = buf[kSeg + t];  // slide: keep the last 32 pixels
    __syncthreads();
  }
}

template <bool Bilateral>
__global__ void row_tiled_kernel(const uint8_t* __restrict__ in, uint16_t* __restrict__ mid, int w,
                                 int h, GaussTaps g, BilatTaps b) {
  __shared__ uint8_t buf[kSeg + 2 * kApron];
  __shared__ float s_wr[256];
  __shared__ float s_w[2 * kMaxGaussianRadius + 1];
  const int y = blockIdx.y, t = threadIdx.x, x0 = blockIdx.x * kSeg;
  if (y >= h) return;
  const int r = Bilateral ? b.r : g.r;
  load_taps<Bilateral>(g, b, s_w, s_wr);
  const uint8_t* row = in + size_t(y) * size_t(w);
  for (int i = t; i < kSeg + 2 * kApron; i += kRowThreads)
    buf[i] = row[clampi(x0 - kApron + i, 0, w - 1)];
  __syncthreads();
  if (x0 + 4 * t < w) row_outputs<Bilateral>(buf, x0, w, mid + size_t(y) * size_t(w), s_w, r, s_wr);
}

__device__ __forceinline__ void load_cols(const uint16_t* __restrict__ row, int x, int w,
                                          float (&v)[4]) {
  if (x + 3 < w && (w & 3) == 0) {
    const ushort4 q = __ldg(reinterpret_cast<const ushort4*>(row + x));
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  } else {
    for (int i = 0; i < 4; ++i) v[i] = x + i < w ? float(row[x + i]) : 0.0f;
  }
}

__device__ __forceinline__ void put8(Out8 out, int x, int y, int w, const uint8_t (&v)[4]) {
  uint8_t* row = out.d + size_t(y) * size_t(w);
  if (x + 3 < w && (w & 3) == 0)
    *reinterpret_cast<uchar4*>(row + x) = make_uchar4(v[0], v[1], v[2], v[3]);
  else
#pragma unroll
    for (int i = 0; i < 4; ++i)
      if (x + i < w) row[x + i] = v[i];
  if (out.surf)
    cuda::surf_store4(
        out.surf, x, y, w,
        uint32_t(v[0]) | uint32_t(v[1]) << 8 | uint32_t(v[2]) << 16 | uint32_t(v[3]) << 24);
}

template <int R>
__global__ void gauss_cols_kernel(const uint16_t* __restrict__ mid, Out8 out, int w, int h,
                                  GaussTaps g) {
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kColRows;
  if (x >= w || y0 >= h) return;
  float acc[kColRows][4];
#pragma unroll
  for (int i = 0; i < kColRows; ++i)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[i][c] = 0.0f;
#pragma unroll
  for (int j = 0; j < kColRows + 2 * R; ++j) {
    float v[4];
    load_cols(mid + size_t(clampi(y0 - R + j, 0, h - 1)) * size_t(w), x, w, v);
#pragma unroll
    for (int i = 0; i < kColRows; ++i) {
      const int k = j - i;  // tap index 0..2R (tap -R + k)
      if (k >= 0 && k <= 2 * R)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[i][c] += g.w[k] * v[c];
    }
  }
#pragma unroll
  for (int i = 0; i < kColRows; ++i) {
    if (y0 + i >= h) continue;  // not break: keeps acc[] in registers
    uint8_t o[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) o[c] = fixed_to_level(acc[i][c]);
    put8(out, x, y0 + i, w, o);
  }
}

// Bilateral column pass: the centre of output i is row i + R of the loaded run.
template <int R>
__global__ void bilat_cols_kernel(const uint16_t* __restrict__ mid, Out8 out, int w, int h,
                                  BilatTaps b) {
  constexpr int M = 8;
  __shared__ float s_wr[256];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = tid; i < 256; i += blockDim.x * blockDim.y) s_wr[i] = b.wr[i];
  __syncthreads();
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * M;
  if (x >= w || y0 >= h) return;
  float v[M + 2 * R][4];
#pragma unroll
  for (int j = 0; j < M + 2 * R; ++j)
    load_cols(mid + size_t(clampi(y0 - R + j, 0, h - 1)) * size_t(w), x, w, v[j]);
#pragma unroll
  for (int i = 0; i < M; ++i) {
    if (y0 + i >= h) continue;  // not break: keeps acc[] in registers
    uint8_t o[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const int cv = int(v[i + R][c]);
      float num = 0.0f, den = 0.0f;
#pragma unroll
      for (int k = 0; k <= 2 * R; ++k) {
        const int p = int(v[i + k][c]);
        const int d = min(255, (abs(p - cv) + 128) >> 8);
        const float wt = b.ws[k] * s_wr[d];
        num += wt * float(p);
        den += wt;
      }
      o[c] = fixed_to_level(num / den);
    }
    put8(out, x, y0 + i, w, o);
  }
}

GaussTaps gauss_taps(const std::vector<float>& w) {
  SWL_CHECK(w.size() % 2 == 1 && w.size() <= 2 * kMaxGaussianRadius + 1,
            "Gaussian: bad kernel size");
  GaussTaps g{};
  g.r = int(w.size() / 2);
  for (size_t i = 0; i < w.size(); ++i) g.w[i] = w[i];
  return g;
}

BilatTaps bilat_taps(const std::vector<float>& ws, const std::array<float, 256>& wr) {
  SWL_CHECK(ws.size() % 2 == 1 && ws.size() <= 2 * kMaxBilateralRadius + 1,
            "bilateral: bad kernel size");
  BilatTaps b{};
  b.r = int(ws.size() / 2);
  for (size_t i = 0; i < ws.size(); ++i) b.ws[i] = ws[i];
  for (size_t i = 0; i < 256; ++i) b.wr[i] = wr[i];
  return b;
}

template <bool Bilateral>
void launch_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h, const GaussTaps& g,
                 const BilatTaps& b, bool sliding, cudaStream_t stream) {
  if (sliding) {
    row_sliding_kernel<Bilateral><<<unsigned(h), kRowThreads, 0, stream>>>(d_in, d_mid, w, h, g, b);
  } else {
    const dim3 grid(unsigned((w + kSeg - 1) / kSeg), unsigned(h));
    row_tiled_kernel<Bilateral><<<grid, kRowThreads, 0, stream>>>(d_in, d_mid, w, h, g, b);
  }
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_gaussian_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                          const std::vector<float>& weights, const SeparableGaussian& how,
                          cudaStream_t stream) {
  launch_rows<false>(d_in, d_mid, w, h, gauss_taps(weights), BilatTaps{},
                     how.row_pass == RowPass::SlidingWindow, stream);
}

void launch_bilateral_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream) {
  launch_rows<true>(d_in, d_mid, w, h, GaussTaps{}, bilat_taps(spatial, range), true, stream);
}

#define SWL_GAUSS_CASE(R)                                                  \
  case R:                                                                  \
    gauss_cols_kernel<R><<<grid, block, 0, stream>>>(d_mid, out, w, h, g); \
    break;

void launch_gaussian_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                          const std::vector<float>& weights, cudaStream_t stream) {
  const GaussTaps g = gauss_taps(weights);
  const dim3 block(32, 4);
  const dim3 grid(unsigned((w + 127) / 128), unsigned((h + 4 * kColRows - 1) / (4 * kColRows)));
  switch (g.r) {
    SWL_GAUSS_CASE(1);
    SWL_GAUSS_CASE(2);
    SWL_GAUSS_CASE(3);
    SWL_GAUSS_CASE(4);
    SWL_GAUSS_CASE(5);
    SWL_GAUSS_CASE(6);
    SWL_GAUSS_CASE(7);
    SWL_GAUSS_CASE(8);
    SWL_GAUSS_CASE(9);
    SWL_GAUSS_CASE(10);
    SWL_GAUSS_CASE(11);
    SWL_GAUSS_CASE(12);
    SWL_GAUSS_CASE(13);
    SWL_GAUSS_CASE(14);
    SWL_GAUSS_CASE(15);
    default:
      SWL_CHECK(false, "Gaussian: radius out of range");
  }
  SWL_CUDA_CHECK_LAUNCH();
}

#define SWL_BILAT_CASE(R)                                                  \
  case R:                                                                  \
    bilat_cols_kernel<R><<<grid, block, 0, stream>>>(d_mid, out, w, h, b); \
    break;

void launch_bilateral_cols(const uint16_t* d_mid, Out8 out, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream) {
  const BilatTaps b = bilat_taps(spatial, range);
  const dim3 block(32, 4);
  const dim3 grid(unsigned((w + 127) / 128), unsigned((h + 4 * 8 - 1) / (4 * 8)));
  switch (b.r) {
    SWL_BILAT_CASE(1);
    SWL_BILAT_CASE(2);
    SWL_BILAT_CASE(3);
    SWL_BILAT_CASE(4);
    SWL_BILAT_CASE(5);
    SWL_BILAT_CASE(6);
    SWL_BILAT_CASE(7);
    SWL_BILAT_CASE(8);
    SWL_BILAT_CASE(9);
    SWL_BILAT_CASE(10);
    default:
      SWL_CHECK(false, "bilateral: radius out of range");
  }
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::reference
