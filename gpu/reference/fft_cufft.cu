// Paper 004's block FFT enhancement with batched cuFFT (fft_cufft.hpp).
#include "gpu/reference/fft_cufft.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::reference {

using cuda::Out8;

namespace {

// Windows per cuFFT batch (see run()).
constexpr int kChunkWindows = 4096;
constexpr int N = kFftWindow, S = kFftStep, NH = kFftWindow / 2 + 1, kWinThreads = 256;

void cufft_check(cufftResult r, const char* what) {
  SWL_CHECK(r == CUFFT_SUCCESS,
            std::string(what) + " failed: cufftResult " + std::to_string(int(r)));
}

struct KeepBits {
  uint32_t bits[NH];  // bit fy of bits[fx]: frequency (fx, fy) kept
};

// Windows first .. first + gridDim.x - 1 of the image into the chunk buffer; windows past the
// last (padding of the final chunk) are zero.
__global__ void gather_kernel(const uint8_t* __restrict__ in, float* __restrict__ real, int w,
                              int h, int bw, int first, int total) {
  const int win = first + int(blockIdx.x), bx = win % bw, by = win / bw;
  const int ox = bx * S - S / 2, oy = by * S - S / 2;
  float* dst = real + size_t(blockIdx.x) * (N * N);
  for (int e = threadIdx.x; e < N * N; e += kWinThreads) {
    const int x = ox + (e & (N - 1)), y = oy + e / N;
    dst[e] = (win < total && x >= 0 && x < w && y >= 0 && y < h)
                 ? float(__ldg(in + size_t(y) * size_t(w) + size_t(x)))
                 : 0.0f;
  }
}

__global__ void scale_kernel(cufftComplex* __restrict__ spec, size_t total, float power,
                             KeepBits keep) {
  for (size_t e = size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += size_t(gridDim.x) * blockDim.x) {
    const int idx = int(e % (N * NH)), fy = idx / NH, fx = idx % NH;
    cufftComplex z = spec[e];
    if ((keep.bits[fx] >> fy) & 1u) {
      const float s = powf(z.x * z.x + z.y * z.y, power);
      z.x *= s;
      z.y *= s;
    } else {
      z.x = 0.0f;
      z.y = 0.0f;
    }
    spec[e] = z;
  }
}

__global__ void scatter_kernel(const float* __restrict__ real, Out8 out, int w, int h, int bw,
                               int first, int total, FftEnhanceParams p) {
  __shared__ float s_max[kWinThreads / 32];
  const int win = first + int(blockIdx.x), bx = win % bw, by = win / bw, t = threadIdx.x;
  if (win >= total) return;  // the whole block: padding of the final chunk
  const int ox = bx * S - S / 2, oy = by * S - S / 2;
  const float* src = real + size_t(blockIdx.x) * (N * N);
  float m = 0.0f;
  for (int e = t; e < N * N; e += kWinThreads) m = fmaxf(m, fabsf(src[e]));
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if ((t & 31) == 0) s_max[t >> 5] = m;
  __syncthreads();
  m = s_max[0];
  for (int i = 1; i < kWinThreads / 32; ++i) m = fmaxf(m, s_max[i]);
  const float peak = m * (1.0f / (N * N));
  const float scale = peak < p.min_peak ? 0.0f : p.gain / peak;
  const int i = S / 2 + (t & (S - 1)), j = S / 2 + t / S;
  const int x = ox + i, y = oy + j;
  if (x >= w || y >= h) return;
  float v = src[j * N + i] * (1.0f / (N * N)) * scale + p.offset;
  v = fminf(fmaxf(v, 0.0f), 255.0f);
  const uint8_t o = uint8_t(v);
  out.d[size_t(y) * size_t(w) + size_t(x)] = o;
  if (out.surf) surf2Dwrite(o, cudaSurfaceObject_t(out.surf), x, y);
}

}  // namespace

CufftEnhancer::~CufftEnhancer() {
  release();
}

void CufftEnhancer::release() noexcept {
  if (have_plans_) {
    cufftDestroy(fwd_);
    cufftDestroy(inv_);
  }
  have_plans_ = false;
}

size_t CufftEnhancer::bytes_moved(int w, int h) {
  const size_t nb = size_t((w + S - 1) / S) * size_t((h + S - 1) / S);
  const size_t real = nb * N * N * sizeof(float), spec = nb * N * NH * sizeof(cufftComplex);
  // gather (write), R2C (read + write), scale (read + write), C2R (read + write), scatter (read)
  // plus the image read once and written once.
  return 4 * real + 4 * spec + 2 * size_t(w) * size_t(h);
}

void CufftEnhancer::prepare(int w, int h) {
  if (w == w_ && h == h_ && have_plans_) return;
  release();
  const int bw = (w + S - 1) / S, bh = (h + S - 1) / S;
  windows_ = bw * bh;
  chunk_ = std::min(windows_, kChunkWindows);
  d_real_.resize(size_t(chunk_) * N * N);
  d_spec_.resize(size_t(chunk_) * N * NH);
  int n[2] = {N, N};
  cufft_check(cufftPlanMany(&fwd_, 2, n, nullptr, 1, N * N, nullptr, 1, N * NH, CUFFT_R2C, chunk_),
              "cufftPlanMany(R2C)");
  const cufftResult r =
      cufftPlanMany(&inv_, 2, n, nullptr, 1, N * NH, nullptr, 1, N * N, CUFFT_C2R, chunk_);
  if (r != CUFFT_SUCCESS) cufftDestroy(fwd_);
  cufft_check(r, "cufftPlanMany(C2R)");
  have_plans_ = true;
  w_ = w;
  h_ = h;
}

void CufftEnhancer::run(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& p,
                        cudaStream_t stream) {
  prepare(w, h);
  const int bw = (w + S - 1) / S;
  KeepBits keep{};
  const std::vector<float> mask = fft_keep_mask(p);  // the CPU's mask, full spectrum [fy][fx]
  for (int fx = 0; fx < NH; ++fx)
    for (int fy = 0; fy < N; ++fy)
      if (mask[size_t(fy * N + fx)] != 0.0f) keep.bits[fx] |= 1u << fy;
  cufft_check(cufftSetStream(fwd_, stream), "cufftSetStream");
  cufft_check(cufftSetStream(inv_, stream), "cufftSetStream");
  // Chunks of kChunkWindows windows: a chunk's real and complex buffers (34 MB) stay in the L2
  // cache between the five steps, instead of 550 MB going through HBM four times.
  const size_t total = d_spec_.size();
  for (int first = 0; first < windows_; first += chunk_) {
    gather_kernel<<<unsigned(chunk_), kWinThreads, 0, stream>>>(d_in, d_real_.get(), w, h, bw,
                                                                first, windows_);
    SWL_CUDA_CHECK_LAUNCH();
    cufft_check(cufftExecR2C(fwd_, d_real_.get(), d_spec_.get()), "cufftExecR2C");
    scale_kernel<<<unsigned(132 * 4), 256, 0, stream>>>(d_spec_.get(), total, p.power, keep);
    SWL_CUDA_CHECK_LAUNCH();
    cufft_check(cufftExecC2R(inv_, d_spec_.get(), d_real_.get()), "cufftExecC2R");
    scatter_kernel<<<unsigned(chunk_), kWinThreads, 0, stream>>>(d_real_.get(), out, w, h, bw,
                                                                 first, windows_, p);
    SWL_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace sweepline::gpu::reference
