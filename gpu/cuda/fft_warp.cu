// Paper 004's block FFT enhancement in one kernel (gpu/cuda/fft_kernels.hpp): one warp per pair
// of horizontally adjacent 32 x 32 windows, the whole transform in registers and 8.4 KB of shared
// memory, the image read once and written once.
//
// Lanes 0..15 work on window A, 16..31 on window B. Lane j of a half holds rows 2j and 2j + 1 of
// its window as one complex row z = r1 + i r2 and does a 32-point radix-2 FFT of it in registers.
// Because r1 and r2 are real, their spectra separate exactly: R1(f) = (Z(f) + conj Z(-f)) / 2,
// R2(f) = (Z(f) - conj Z(-f)) / 2i, and each is Hermitian, so frequencies 0..16 suffice: 15
// complex columns plus two real ones (f = 0 and 16, packed as one complex column) per window, 32
// columns for the pair, one per lane after a transpose through shared memory. Lane c then does
// the column FFT, scales its coefficients by (Re^2 + Im^2)^power or cuts them (the CPU's mask),
// and the inverse column FFT; the packed column is separated, scaled and repacked the same way,
// in pairs (fy, -fy), so every lane runs the same instructions. A transpose back, two rows'
// Hermitian spectra recombined into one complex row, the inverse row FFT: rows 2j and 2j + 1 are
// its real and imaginary parts. Only rows of the same window share a complex transform, so one
// window's rounding never leaks into the other (the two windows' scaled spectra can differ by
// many orders of magnitude). Each half-warp's max |v| normalises its window, and lanes 4..11 of
// each half write their two rows of the central 16 x 16.
// Same algorithm as the CPU (radix-2 decimation in time, same twiddles, same mask, same
// normalisation and truncation); the float sums differ in order (within one level).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda/fft_kernels.hpp"
#include "gpu/cuda/surface_store.cuh"
#include "gpu/fixed_point.hpp"

namespace sweepline::gpu::cuda {

namespace {

constexpr int N = kFftWindow, S = kFftStep, kWarps = 4;
constexpr float kMagic = 8388608.0f;  // 2^23
constexpr unsigned kMagicBits = 0x4B000000u;
static_assert(N == 32 && S == 16, "the warp kernel is written for 32 x 32 windows, step 16");

struct WarpParams {
  uint32_t keep[N / 2 + 1];  // bit fy of keep[fx]: frequency (fx, fy) kept, fx = 0..16
  float power, gain, offset, min_peak;
};

// cos(2 pi j / 32) and sin(2 pi j / 32), j = 0..15, as the CPU's float twiddles.
__host__ __device__ constexpr float tw_cos8(int j) {  // j = 0..8
  return j == 0   ? 1.0f
         : j == 1 ? 0.98078528040323043f
         : j == 2 ? 0.92387953251128674f
         : j == 3 ? 0.83146961230254524f
         : j == 4 ? 0.70710678118654757f
         : j == 5 ? 0.55557023301960229f
         : j == 6 ? 0.38268343236508984f
         : j == 7 ? 0.19509032201612833f
                  : 0.0f;
}
__host__ __device__ constexpr float tw_cos(int j) {
  return j <= 8 ? tw_cos8(j) : -tw_cos8(16 - j);
}
__host__ __device__ constexpr float tw_sin(int j) {
  return j <= 8 ? tw_cos8(8 - j) : tw_cos8(j - 8);
}
__host__ __device__ constexpr int brev5(int i) {
  return ((i & 1) << 4) | ((i & 2) << 2) | (i & 4) | ((i & 8) >> 2) | ((i & 16) >> 4);
}

// v * exp(Sign * 2 pi i j / 32); j is a constant after unrolling.
template <int Sign>
__device__ __forceinline__ float2 twiddle(float2 v, int j) {
  if (j == 0) return v;
  if (j == 8) return Sign < 0 ? make_float2(v.y, -v.x) : make_float2(-v.y, v.x);
  const float c = tw_cos(j), s = Sign < 0 ? -tw_sin(j) : tw_sin(j);
  return make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
}

// One radix-2 stage: butterflies of span Half, twiddle index k * (16 / Half).
template <int Sign, int Half>
__device__ __forceinline__ void fft_stage(float2 (&a)[N]) {
#pragma unroll
  for (int i = 0; i < N; i += 2 * Half)
#pragma unroll
    for (int k = 0; k < Half; ++k) {
      const float2 u = a[i + k], v = twiddle<Sign>(a[i + k + Half], k * (16 / Half));
      a[i + k] = make_float2(u.x + v.x, u.y + v.y);
      a[i + k + Half] = make_float2(u.x - v.x, u.y - v.y);
    }
}

// In-place 32-point FFT, unnormalised; Sign -1 forward, +1 inverse. The CPU's algorithm (bit
// reversal, then radix-2 decimation in time); the stages are templates so that every index is
// a constant before unrolling (the array then stays in registers).
template <int Sign>
__device__ __forceinline__ void fft32(float2 (&a)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const int j = brev5(i);
    if (i < j) {
      const float2 t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  fft_stage<Sign, 1>(a);
  fft_stage<Sign, 2>(a);
  fft_stage<Sign, 4>(a);
  fft_stage<Sign, 8>(a);
  fft_stage<Sign, 16>(a);
}

__device__ __forceinline__ float byte_f(uint32_t word, int k) {
  return __int_as_float(__byte_perm(word, kMagicBits, 0x7540u | unsigned(k))) - kMagic;
}

// z * (Re^2 + Im^2)^power where kept, else 0 (the CPU's z * pow(p, power)).
__device__ __forceinline__ float2 spec_scale(float2 z, bool keep, float power) {
  const float p = z.x * z.x + z.y * z.y;
  const float s = (keep && p > 0.0f) ? exp2f(power * __log2f(p)) : 0.0f;
  return make_float2(z.x * s, z.y * s);
}

// Row y of the window whose first column is wx0 into component Comp (0: .x, 1: .y) of v, zero
// outside the image.
template <int Comp>
__device__ __forceinline__ void load_row(const uint8_t* __restrict__ in, int w, int h, int wx0,
                                         int y, float2 (&v)[N]) {
  if (y < 0 || y >= h) {
#pragma unroll
    for (int x = 0; x < N; ++x) (Comp == 0 ? v[x].x : v[x].y) = 0.0f;
    return;
  }
  const uint8_t* row = in + size_t(y) * size_t(w);
  if ((w & 15) == 0 && wx0 >= 8 && wx0 + 40 <= w) {
    // The 16-byte-aligned bytes [wx0 - 8, wx0 + 40): column x at offset 8 + x.
    uint32_t wd[12];
    const uint4* src = reinterpret_cast<const uint4*>(row + wx0 - 8);
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      const uint4 q = __ldg(src + i);
      wd[4 * i] = q.x;
      wd[4 * i + 1] = q.y;
      wd[4 * i + 2] = q.z;
      wd[4 * i + 3] = q.w;
    }
#pragma unroll
    for (int x = 0; x < N; ++x) (Comp == 0 ? v[x].x : v[x].y) = byte_f(wd[(8 + x) >> 2], x & 3);
  } else {
#pragma unroll
    for (int x = 0; x < N; ++x) {
      const int xx = wx0 + x;
      (Comp == 0 ? v[x].x : v[x].y) = xx >= 0 && xx < w ? float(row[xx]) : 0.0f;
    }
  }
}

// Row y of the output, central columns wx0 + 8 .. wx0 + 23 of a window, from the lane's values.
__device__ __forceinline__ void store_row(Out8 out, int w, int wx0, int y,
                                          const uint32_t (&wd)[4]) {
  uint8_t* row = out.d + size_t(y) * size_t(w);
  const int xc = wx0 + S / 2;
  if ((w & 15) == 0 && xc + S <= w) {
    *reinterpret_cast<uint4*>(row + xc) = make_uint4(wd[0], wd[1], wd[2], wd[3]);
  } else {
#pragma unroll
    for (int i = 0; i < S; ++i)
      if (xc + i < w) row[xc + i] = uint8_t(wd[i / 4] >> (8 * (i % 4)));
  }
  if (out.surf) surf_store16(out.surf, xc, y, w, make_uint4(wd[0], wd[1], wd[2], wd[3]));
}

// The lane's column spectrum (column c = lane: window A for lanes 0..15, B for 16..31; lanes 0
// and 16 hold frequencies fx = 0 and 16 of their window packed as real + i imag), scaled.
__device__ __forceinline__ void scale_column(float2 (&v)[N], int lane, const WarpParams& p) {
  const int q = lane & 15;
  const bool packed = q == 0;
  const uint32_t k1 = p.keep[q], k2 = p.keep[packed ? 16 : q];
  const float pw = p.power;
  {
    // fy = 0 and 16: packed, four real coefficients; otherwise two complex ones.
    const float2 p0 = v[0], p16 = v[16];
    const float2 s1 = spec_scale(packed ? make_float2(p0.x, 0.0f) : p0, k1 & 1u, pw);
    const float2 s2 = spec_scale(packed ? make_float2(p0.y, 0.0f) : p16,
                                 packed ? (k2 & 1u) : ((k1 >> 16) & 1u), pw);
    const float2 s3 = spec_scale(make_float2(p16.x, 0.0f), packed && ((k1 >> 16) & 1u), pw);
    const float2 s4 = spec_scale(make_float2(p16.y, 0.0f), packed && ((k2 >> 16) & 1u), pw);
    v[0] = packed ? make_float2(s1.x, s2.x) : s1;
    v[16] = packed ? make_float2(s3.x, s4.x) : s2;
  }
#pragma unroll
  for (int m = 1; m < N / 2; ++m) {
    const float2 x1 = v[m], x2 = v[N - m];
    // Packed: U = F0(m) = (X(m) + conj X(-m)) / 2, V = F16(m) = (X(m) - conj X(-m)) / 2i.
    const float2 u = packed ? make_float2((x1.x + x2.x) * 0.5f, (x1.y - x2.y) * 0.5f) : x1;
    const float2 w = packed ? make_float2((x1.y + x2.y) * 0.5f, (x2.x - x1.x) * 0.5f) : x2;
    const bool ku = (k1 >> m) & 1u;
    const bool kw = packed ? ((k2 >> m) & 1u) : ((k1 >> (N - m)) & 1u);
    const float2 us = spec_scale(u, ku, pw), ws = spec_scale(w, kw, pw);
    v[m] = packed ? make_float2(us.x - ws.y, us.y + ws.x) : us;
    v[N - m] = packed ? make_float2(us.x + ws.y, ws.x - us.y) : ws;
  }
}

// Shared-memory position of window row i in a column: even rows first, then odd rows, so that
// the 16 lanes of a half-warp, which hold rows 2j and 2j + 1, write consecutive slots.
__host__ __device__ constexpr int row_pos(int i) {
  return (i >> 1) + (i & 1) * (N / 2);
}

__global__ void __launch_bounds__(kWarps * 32)
    fft_warp_kernel(const uint8_t* __restrict__ in, Out8 out, int w, int h, int pairs_x, int pairs,
                    const __grid_constant__ WarpParams p) {
  __shared__ float2 s_buf[kWarps][N][N + 1];  // [column][row_pos], padded: no bank conflicts
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int pair = blockIdx.x * kWarps + warp;
  if (pair >= pairs) return;  // the whole warp
  const int by = pair / pairs_x, px = pair - by * pairs_x;
  const int win = lane >> 4, j = lane & 15;
  const int wx0 = 2 * S * px - S / 2 + S * win, y0 = by * S - S / 2;  // the lane's window origin
  const int c0 = (N / 2) * win;  // the window's first column in the transpose
  float2(*buf)[N + 1] = s_buf[warp];
  float2 v[N];

  load_row<0>(in, w, h, wx0, y0 + 2 * j, v);
  load_row<1>(in, w, h, wx0, y0 + 2 * j + 1, v);
  fft32<-1>(v);
  // Separate the two rows' spectra, write them as columns (row 2j at slot j, 2j + 1 at 16 + j).
  buf[c0][j] = make_float2(v[0].x, v[16].x);          // R1(0), R1(16): real
  buf[c0][N / 2 + j] = make_float2(v[0].y, v[16].y);  // R2(0), R2(16): real
#pragma unroll
  for (int f = 1; f < N / 2; ++f) {
    const float2 z = v[f], zm = v[N - f];
    buf[c0 + f][j] = make_float2((z.x + zm.x) * 0.5f, (z.y - zm.y) * 0.5f);
    buf[c0 + f][N / 2 + j] = make_float2((z.y + zm.y) * 0.5f, (zm.x - z.x) * 0.5f);
  }
  __syncwarp();
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = buf[lane][row_pos(i)];
  fft32<-1>(v);
  scale_column(v, lane, p);
  fft32<+1>(v);
#pragma unroll
  for (int i = 0; i < N; ++i) buf[lane][row_pos(i)] = v[i];  // the lane's own column: no hazard
  __syncwarp();
  // Recombine rows 2j, 2j + 1: Z(f) = R1(f) + i R2(f), Z(-f) = conj R1(f) + i conj R2(f).
  {
    const float2 a0 = buf[c0][j], b0 = buf[c0][N / 2 + j];
    v[0] = make_float2(a0.x, b0.x);
    v[16] = make_float2(a0.y, b0.y);
  }
#pragma unroll
  for (int f = 1; f < N / 2; ++f) {
    const float2 a = buf[c0 + f][j], b = buf[c0 + f][N / 2 + j];
    v[f] = make_float2(a.x - b.y, a.y + b.x);
    v[N - f] = make_float2(a.x + b.y, b.x - a.y);
  }
  fft32<+1>(v);

  float m = 0.0f;
#pragma unroll
  for (int x = 0; x < N; ++x) m = fmaxf(m, fmaxf(fabsf(v[x].x), fabsf(v[x].y)));
#pragma unroll
  for (int off = 8; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  const float peak = m * (1.0f / (N * N));  // the half-warp's window
  const float scale = peak < p.min_peak ? 0.0f : p.gain / peak;
  if (j < S / 4 || j >= S / 4 + S / 2) return;  // rows 8..23 are the central ones
  uint32_t w1[4], w2[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint32_t b1[4], b2[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int x = S / 2 + 4 * i + k;
      const float f1 = fminf(fmaxf(v[x].x * (1.0f / (N * N)) * scale + p.offset, 0.0f), 255.0f);
      const float f2 = fminf(fmaxf(v[x].y * (1.0f / (N * N)) * scale + p.offset, 0.0f), 255.0f);
      b1[k] = __float_as_uint(__fadd_rz(f1, kMagic));  // trunc in the low byte
      b2[k] = __float_as_uint(__fadd_rz(f2, kMagic));
    }
    w1[i] = __byte_perm(__byte_perm(b1[0], b1[1], 0x0040u), __byte_perm(b1[2], b1[3], 0x0040u),
                        0x5410u);
    w2[i] = __byte_perm(__byte_perm(b2[0], b2[1], 0x0040u), __byte_perm(b2[2], b2[3], 0x0040u),
                        0x5410u);
  }
  const int y = y0 + 2 * j;
  if (y < h) store_row(out, w, wx0, y, w1);
  if (y + 1 < h) store_row(out, w, wx0, y + 1, w2);
}

}  // namespace

void launch_fft_enhance(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& prm,
                        cudaStream_t stream) {
  SWL_CHECK(w > 0 && h > 0, "fft enhance: empty image");
  WarpParams p{};
  const std::vector<float> mask = fft_keep_mask(prm);  // the CPU's mask, [fy][fx]
  for (int fx = 0; fx <= N / 2; ++fx)
    for (int fy = 0; fy < N; ++fy)
      if (mask[size_t(fy * N + fx)] != 0.0f) p.keep[fx] |= 1u << fy;
  p.power = prm.power;
  p.gain = prm.gain;
  p.offset = prm.offset;
  p.min_peak = prm.min_peak;
  const int bw = (w + S - 1) / S, bh = (h + S - 1) / S, pairs_x = (bw + 1) / 2;
  const long long pairs = (long long)pairs_x * bh;
  SWL_CHECK(pairs < (1LL << 30), "fft enhance: image too large");
  const unsigned blocks = unsigned((pairs + kWarps - 1) / kWarps);
  fft_warp_kernel<<<blocks, kWarps * 32, 0, stream>>>(d_in, out, w, h, pairs_x, int(pairs), p);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda
