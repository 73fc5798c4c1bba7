// Measurement probe for issue 5's max-hold target (<= 60 us at 4096^2), not a product path: how
// fast the far pixels of a max-hold scan could be gathered through the frame's CUDA array
// (PolarTexture, the bilinear path's) instead of the default span-table gather
// (MaxHoldTable::scan: pyramid + staged windows), against that default in the same run.
//
// Far pixels are those whose span is at most 2 azimuths x 4 bins (all but the pixels around the
// radar with the default geometry, 2 bins a pixel). Two routes, each checked against the CPU's
// swl_max_hold on every pixel it gathers (0 for the others, which another path would take):
// - table: a 4-byte span entry a pixel, one or two tex2Dgather (2 x 2 cells each);
// - arithmetic: no span table; a thread's pixels extrapolate their span ends linearly from its
//   first pixel's exact position and a 1-byte code a pixel (built on the host from the exact
//   spans) corrects them by -1, 0 or +1. Its faster descendant is the pipeline's route
//   (MaxHoldTable::kArith, gpu/cuda/scan_arith.cuh); the probe's intermediate versions are in
//   the history (docs/perf/scan.md).
// Usage: bench_maxhold_probe [--reps N]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/pipeline_kernels.hpp"
#include "gpu/scan_math.hpp"

namespace sg = sweepline::gpu;
namespace sc = sweepline::gpu::cuda;

namespace {

constexpr int kSize = 4096;

// bench_pipeline's geometry (make_scan_setup for a 4096 x 4096 display whose range fills the
// shorter side, radar at the centre) written out: this file is CUDA C++17 and the app's headers
// are C++20. 2 bins a pixel.
sg::ScanSetup default_setup() {
  sg::ScanSetup s;
  s.width = s.height = kSize;
  s.azimuths = s.bins = kSize;
  const double step = double(kSize) / (kSize / 2.0);
  s.step = float(step);
  s.east0 = float((0.5 - kSize / 2.0) * step);
  s.north0 = float((kSize / 2.0 - 0.5) * step);
  s.footprint = float(0.70710678118654752 * step);
  s.az_per_rad = float(kSize / (2 * 3.14159265358979323846));
  return s;
}
// Entry: a0 (12 bits) | r0 << 12 (12 bits) | (na - 1) << 24 (1 bit) | (nr - 1) << 25 (2 bits).
constexpr uint32_t kOther = 0x80000000u;  // near the radar or past the range: not this probe's

// The maximum over azimuth rows a0 (and a0 + 1 when `two`) of bins r0 .. r0 + nr - 1 (nr <= 4),
// from one or two tex2Dgather.
__device__ __forceinline__ unsigned span_gather_max(cudaTextureObject_t tex, int a0, int r0,
                                                    bool two, int nr) {
  // Azimuth a is texel row a + 1 (row 0 and row A + 1 are the wrap halo): rows a0 + 1, a0 + 2.
  const float y = float(a0) + 2.0f;
  // Gather order: x (r0, a0 + 1), y (r0 + 1, a0 + 1), z (r0 + 1, a0), w (r0, a0).
  const uchar4 g = tex2Dgather<uchar4>(tex, float(r0) + 1.0f, y, 0);
  unsigned m = g.w;
  if (nr >= 2) m = max(m, unsigned(g.z));
  if (two) m = max(m, unsigned(nr >= 2 ? max(g.x, g.y) : g.x));
  if (nr >= 3) {
    const uchar4 h = tex2Dgather<uchar4>(tex, float(r0) + 3.0f, y, 0);
    m = max(m, unsigned(nr == 4 ? max(h.w, h.z) : h.w));
    if (two) m = max(m, unsigned(nr == 4 ? max(h.x, h.y) : h.x));
  }
  return m;
}

__device__ __forceinline__ unsigned far_span_max(cudaTextureObject_t tex, uint32_t e) {
  if (e & kOther) return 0;
  return span_gather_max(tex, int(e & 4095u), int((e >> 12) & 4095u), ((e >> 24) & 1u) != 0,
                         int((e >> 25) & 3u) + 1);
}

// Four pixels a thread: one 16-byte table load, one 4-byte store.
__global__ void probe_kernel(cudaTextureObject_t tex, const uint4* __restrict__ table,
                             uchar4* __restrict__ out, size_t n4) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  const uint4 e = __ldcs(table + i);
  out[i] = make_uchar4(uint8_t(far_span_max(tex, e.x)), uint8_t(far_span_max(tex, e.y)),
                       uint8_t(far_span_max(tex, e.z)), uint8_t(far_span_max(tex, e.w)));
}

// kGroups groups of four pixels a thread (kGroups table loads in flight before the gathers: the
// plain kernel waits for its one load, then for its gathers, with nothing else in flight).
template <int kGroups>
__global__ void probe_groups_kernel(cudaTextureObject_t tex, const uint4* __restrict__ table,
                                    uchar4* __restrict__ out, size_t n4) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  const size_t i0 = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint4 e[kGroups];
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const size_t i = i0 + size_t(g) * stride;
    e[g] = i < n4 ? __ldcs(table + i) : make_uint4(kOther, kOther, kOther, kOther);
  }
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const size_t i = i0 + size_t(g) * stride;
    const uchar4 v =
        make_uchar4(uint8_t(far_span_max(tex, e[g].x)), uint8_t(far_span_max(tex, e[g].y)),
                    uint8_t(far_span_max(tex, e[g].z)), uint8_t(far_span_max(tex, e[g].w)));
    if (i < n4) out[i] = v;
  }
}

// One pixel a thread, each warp an 8 x 4 pixel patch (a block 32 x 8 pixels), so that a warp's
// gathers stay in few texel rows. kFirstOnly: the first gather alone (a timing floor for one
// gather a pixel; its image is wrong where a span has 3 or 4 bins and is not checked).
template <bool kFirstOnly>
__global__ void probe_patch_kernel(cudaTextureObject_t tex, const uint32_t* __restrict__ table,
                                   uint8_t* __restrict__ out, int w, int h) {
  const int lane = int(threadIdx.x & 31u), warp = int(threadIdx.x >> 5);
  const int x = int(blockIdx.x) * 32 + (warp & 3) * 8 + (lane & 7);
  const int y = int(blockIdx.y) * 8 + (warp >> 2) * 4 + (lane >> 3);
  if (x >= w || y >= h) return;
  const size_t k = size_t(y) * size_t(w) + size_t(x);
  uint32_t e = __ldcs(table + k);
  if (kFirstOnly) e &= ~(3u << 25) | (1u << 25);  // at most 2 bins: one gather
  out[k] = uint8_t(far_span_max(tex, e));
}

// The arithmetic route: no span table. A thread takes kGroup horizontal pixels; their spans are
// extrapolated linearly from the first pixel's exact polar position (swl_pixel_polar, correctly
// rounded operations only, so the host builds the same values), and a 1-byte code per pixel
// corrects the extrapolated span ends by -1, 0 or +1 each (2 bits per end: r0, r1, a0, a1).
// kCodeZero: past the range; kCodeSlow: near the radar (span over 2 x 4) or a correction out of
// range: left to another path (0 here).
constexpr uint8_t kCodeZero = 0xFE, kCodeSlow = 0xFF;

struct ArithGroup {
  float u, du, v, dv, w, dw;
};

SWL_HD ArithGroup arith_group(const sg::ScanSetup& s, int x0, int y) {
  const sg::PixelPolar p = sg::swl_pixel_polar(s, x0, y);
  const float east = sg::swl_fma(float(x0), s.step, s.east0);
  const float north = sg::swl_fma(-float(y), s.step, s.north0);
  ArithGroup g{p.u, 0.0f, p.v, 0.0f, 0.0f, 0.0f};
  if (!(p.u > 1.0f)) return g;  // at the radar: its pixels are slow
  const float r = sg::swl_div(1.0f, p.u);
  g.du = sg::swl_mul(sg::swl_mul(s.step, east), r);
  // d(azimuth)/dx = az_per_rad * step * north / u^2 (0 = north, clockwise).
  g.dv = sg::swl_mul(sg::swl_mul(sg::swl_mul(sg::swl_mul(s.step, s.az_per_rad), north), r), r);
  // Half-width asin(rho / u) ~ rho / u (the cubic term is under 1e-6 azimuths for far pixels).
  g.w = sg::swl_mul(sg::swl_mul(s.footprint, s.az_per_rad), r);
  g.dw = -sg::swl_mul(sg::swl_mul(g.w, g.du), r);
  return g;
}

struct ArithSpan {
  int r0, r1, a0, a1;  // a0, a1 unwrapped
};

SWL_HD ArithSpan arith_span(const sg::ScanSetup& s, const ArithGroup& g, int i) {
  const float fi = float(i);
  const float u = sg::swl_fma(fi, g.du, g.u), v = sg::swl_fma(fi, g.dv, g.v);
  const float w = sg::swl_fma(fi, g.dw, g.w);
  ArithSpan a;
  const float lo = u - s.footprint;
  a.r0 = lo > 0.0f ? sg::swl_floor(lo) : 0;
  a.r1 = int(ceilf(u + s.footprint)) - 1;
  if (a.r1 < a.r0) a.r1 = a.r0;
  if (a.r1 > s.bins - 1) a.r1 = s.bins - 1;
  a.a0 = sg::swl_floor(v - w);
  a.a1 = int(ceilf(v + w)) - 1;
  if (a.a1 < a.a0) a.a1 = a.a0;
  return a;
}

// One pixel's code from its exact span (host, once per geometry).
uint8_t arith_code(const sg::ScanSetup& s, const ArithGroup& g, int i, int x, int y) {
  const sg::PixelPolar p = sg::swl_pixel_polar(s, x, y);
  if (!(p.u < float(s.bins))) return kCodeZero;
  const sg::PixelSpan sp = sg::swl_pixel_span(s, p);
  if (sp.na > 2 || sp.r1 - sp.r0 + 1 > 4) return kCodeSlow;
  const ArithSpan a = arith_span(s, g, i);
  int ca0 = sp.a0 - a.a0;  // modulo the azimuths, nearest to 0
  ca0 = ((ca0 % s.azimuths) + s.azimuths + s.azimuths / 2) % s.azimuths - s.azimuths / 2;
  const int c[4] = {sp.r0 - a.r0, sp.r1 - a.r1, ca0, a.a0 + ca0 + sp.na - 1 - a.a1};
  uint8_t code = 0;
  for (int k = 0; k < 4; ++k) {
    if (c[k] < -1 || c[k] > 1) return kCodeSlow;
    code = uint8_t(code | (c[k] + 1) << (2 * k));
  }
  return code;
}

__device__ __forceinline__ unsigned arith_max(cudaTextureObject_t tex, const sg::ScanSetup& s,
                                              const ArithGroup& g, int i, unsigned code) {
  if (code >= kCodeZero) return 0;
  const ArithSpan a = arith_span(s, g, i);
  const int r0 = a.r0 + int(code & 3u) - 1, r1 = a.r1 + int((code >> 2) & 3u) - 1;
  int a0 = a.a0 + int((code >> 4) & 3u) - 1;
  const int a1 = a.a1 + int(code >> 6) - 1;
  const bool two = a1 != a0;
  if (a0 < 0) a0 += s.azimuths;
  if (a0 >= s.azimuths) a0 -= s.azimuths;
  return span_gather_max(tex, a0, r0, two, r1 - r0 + 1);
}

// kGroup (4 or 8) pixels a thread; a warp covers (8 kGroup) x 4 pixels, a block of 256 threads
// (8 kGroup) x 32.
template <int kGroup>
__global__ void __launch_bounds__(256)
    arith_kernel(cudaTextureObject_t tex, sg::ScanSetup s, const uint8_t* __restrict__ codes,
                 uint8_t* __restrict__ out) {
  const int lane = int(threadIdx.x & 31u), warp = int(threadIdx.x >> 5);
  const int x0 = (int(blockIdx.x) * 8 + (lane & 7)) * kGroup;
  const int y = int(blockIdx.y) * 32 + warp * 4 + (lane >> 3);
  if (x0 >= s.width || y >= s.height) return;
  const size_t k = size_t(y) * size_t(s.width) + size_t(x0);
  uint32_t c[kGroup / 4];
  if constexpr (kGroup == 8) {
    const uint2 c2 = __ldcs(reinterpret_cast<const uint2*>(codes + k));
    c[0] = c2.x;
    c[1] = c2.y;
  } else {
    c[0] = __ldcs(reinterpret_cast<const uint32_t*>(codes + k));
  }
  bool all_zero = true;
#pragma unroll
  for (int j = 0; j < kGroup / 4; ++j) all_zero = all_zero && c[j] == 0xFEFEFEFEu;
  uint32_t o[kGroup / 4];
  if (all_zero) {
#pragma unroll
    for (int j = 0; j < kGroup / 4; ++j) o[j] = 0;
  } else {
    const ArithGroup g = arith_group(s, x0, y);
#pragma unroll
    for (int j = 0; j < kGroup / 4; ++j) {
      uint32_t word = 0;
#pragma unroll
      for (int b = 0; b < 4; ++b)
        word |= arith_max(tex, s, g, j * 4 + b, (c[j] >> (8 * b)) & 0xFFu) << (8 * b);
      o[j] = word;
    }
  }
  if constexpr (kGroup == 8)
    *reinterpret_cast<uint2*>(out + k) = make_uint2(o[0], o[1]);
  else
    *reinterpret_cast<uint32_t*>(out + k) = o[0];
}

template <class F>
double median_us(cudaStream_t s, int reps, F&& work) {
  sc::Event a, b;
  for (int i = 0; i < 5; ++i) work();
  std::vector<float> t(size_t(reps), 0.0f);
  for (float& v : t) {
    SWL_CUDA_CHECK(cudaEventRecord(a.get(), s));
    work();
    SWL_CUDA_CHECK(cudaEventRecord(b.get(), s));
    SWL_CUDA_CHECK(cudaEventSynchronize(b.get()));
    SWL_CUDA_CHECK(cudaEventElapsedTime(&v, a.get(), b.get()));
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return 1000.0 * double(t[size_t(reps / 2)]);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 50;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
  const sg::ScanSetup setup = default_setup();
  const size_t px = size_t(setup.width) * size_t(setup.height);
  const size_t cells = size_t(setup.azimuths) * size_t(setup.bins);
  std::vector<uint8_t> polar(cells);  // noise: every cell may be a span's maximum
  uint32_t rng = 12345u;
  for (uint8_t& c : polar) {
    rng = rng * 1664525u + 1013904223u;
    c = uint8_t(rng >> 24);
  }

  std::printf("building the far-pixel span table on the host...\n");
  std::vector<uint32_t> h_table(px, kOther);
  size_t far = 0, near = 0, past = 0;
  for (int y = 0; y < setup.height; ++y)
    for (int x = 0; x < setup.width; ++x) {
      const sg::PixelPolar p = sg::swl_pixel_polar(setup, x, y);
      if (!(p.u < float(setup.bins))) {
        ++past;
        continue;
      }
      const sg::PixelSpan sp = sg::swl_pixel_span(setup, p);
      const int nr = sp.r1 - sp.r0 + 1;
      if (sp.na > 2 || nr > 4) {
        ++near;
        continue;
      }
      ++far;
      h_table[size_t(y) * size_t(setup.width) + size_t(x)] =
          uint32_t(sp.a0) | uint32_t(sp.r0) << 12 | uint32_t(sp.na - 1) << 24 |
          uint32_t(nr - 1) << 25;
    }
  std::printf("pixels: %zu far (gathered here), %zu near the radar (left out), %zu past range\n",
              far, near, past);

  sc::Stream stream;
  cudaStream_t s = stream.get();
  sc::DeviceBuffer<uint8_t> d_polar(cells + 16), d_out(px), d_ref(px), d_copy(px);
  sc::DeviceBuffer<uint8_t> d_pyr(sg::az_pyramid_cells(setup.azimuths, setup.bins));
  sc::DeviceBuffer<uint32_t> d_table(px);
  SWL_CUDA_CHECK(cudaMemcpy(d_polar.get(), polar.data(), cells, cudaMemcpyHostToDevice));
  SWL_CUDA_CHECK(
      cudaMemcpy(d_table.get(), h_table.data(), px * sizeof(uint32_t), cudaMemcpyHostToDevice));
  sc::PolarTexture tex;
  tex.update(d_polar.get(), setup.azimuths, setup.bins, 0, setup.azimuths, s);
  const size_t n4 = px / 4;
  const int threads = 256;
  const unsigned blocks = unsigned((n4 + threads - 1) / threads);
  auto probe = [&] {
    probe_kernel<<<blocks, threads, 0, s>>>(tex.texture(),
                                            reinterpret_cast<const uint4*>(d_table.get()),
                                            reinterpret_cast<uchar4*>(d_out.get()), n4);
    SWL_CUDA_CHECK(cudaGetLastError());
  };
  probe();
  SWL_CUDA_CHECK(cudaStreamSynchronize(s));

  // Correctness of the probe's own pixels: the CPU's max-hold (no pyramid needed for <= 2 rows).
  std::vector<uint8_t> h_out(px);
  SWL_CUDA_CHECK(cudaMemcpy(h_out.data(), d_out.get(), px, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t k = 0; k < px; ++k) {
    if (h_table[k] & kOther) continue;
    const int x = int(k % size_t(setup.width)), y = int(k / size_t(setup.width));
    const uint8_t want =
        sg::swl_max_hold(setup, polar.data(), sg::AzPyramid{}, sg::swl_pixel_polar(setup, x, y));
    if (h_out[k] != want && bad++ < 5)
      std::printf("  mismatch at (%d, %d): %u, CPU %u\n", x, y, h_out[k], want);
  }
  std::printf("far pixels equal to the CPU's max-hold: %s (%zu differ)\n", bad ? "NO" : "yes", bad);

  sc::MaxHoldTable table;
  table.prepare(setup, s);
  const double copy_us = median_us(s, reps, [&] {
    SWL_CUDA_CHECK(cudaMemcpyAsync(d_copy.get(), d_out.get(), px, cudaMemcpyDeviceToDevice, s));
  });
  const double probe_us = median_us(s, reps, probe);
  const double default_us = median_us(s, reps, [&] {
    table.scan(setup, d_polar.get(), d_pyr.get(), sc::Out8{d_ref.get(), 0}, s);
  });
  const double probe2_us = median_us(s, reps, probe);
  const dim3 patch_grid(unsigned((setup.width + 31) / 32), unsigned((setup.height + 7) / 8));
  auto patch = [&](auto kernel) {
    kernel<<<patch_grid, 256, 0, s>>>(tex.texture(), d_table.get(), d_out.get(), setup.width,
                                      setup.height);
    SWL_CUDA_CHECK(cudaGetLastError());
  };
  patch(probe_patch_kernel<false>);
  SWL_CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<uint8_t> h_patch(px);
  SWL_CUDA_CHECK(cudaMemcpy(h_patch.data(), d_out.get(), px, cudaMemcpyDeviceToHost));
  const bool patch_same = h_patch == h_out;
  const double patch_us = median_us(s, reps, [&] { patch(probe_patch_kernel<false>); });
  const double first_us = median_us(s, reps, [&] { patch(probe_patch_kernel<true>); });
  // The image a run leaves in d_out, filled with a marker first so that unwritten pixels show.
  auto fresh_image = [&](auto&& run) {
    SWL_CUDA_CHECK(cudaMemsetAsync(d_out.get(), 7, px, s));
    run();
    SWL_CUDA_CHECK(cudaStreamSynchronize(s));
    std::vector<uint8_t> h(px);
    SWL_CUDA_CHECK(cudaMemcpy(h.data(), d_out.get(), px, cudaMemcpyDeviceToHost));
    return h;
  };
  double groups_us[3] = {0, 0, 0};
  bool groups_same = true;
  const int group_counts[3] = {2, 4, 8};
  for (int k = 0; k < 3; ++k) {
    const int g = group_counts[k];
    const unsigned gb = unsigned((n4 + size_t(threads) * g - 1) / (size_t(threads) * g));
    auto run_groups = [&] {
      const auto* t4 = reinterpret_cast<const uint4*>(d_table.get());
      auto* o4 = reinterpret_cast<uchar4*>(d_out.get());
      if (g == 2) probe_groups_kernel<2><<<gb, threads, 0, s>>>(tex.texture(), t4, o4, n4);
      if (g == 4) probe_groups_kernel<4><<<gb, threads, 0, s>>>(tex.texture(), t4, o4, n4);
      if (g == 8) probe_groups_kernel<8><<<gb, threads, 0, s>>>(tex.texture(), t4, o4, n4);
      SWL_CUDA_CHECK(cudaGetLastError());
    };
    groups_same = groups_same && fresh_image(run_groups) == h_out;
    groups_us[k] = median_us(s, reps, run_groups);
  }
  // The arithmetic route, 4 and 8 pixels a thread: its codes (host), its image against the
  // 4-pixel probe's (equal to the CPU on every far pixel) and 0 past the range.
  double arith_us[2] = {0, 0};
  size_t arith_slow[2] = {0, 0}, arith_bad[2] = {0, 0};
  sc::DeviceBuffer<uint8_t> d_codes(px);
  for (int v = 0; v < 2; ++v) {
    const int group = 4 << v;
    std::vector<uint8_t> codes(px);
    for (int y = 0; y < setup.height; ++y)
      for (int x0 = 0; x0 < setup.width; x0 += group) {
        const ArithGroup g = arith_group(setup, x0, y);
        for (int i = 0; i < group && x0 + i < setup.width; ++i) {
          const uint8_t c = arith_code(setup, g, i, x0 + i, y);
          codes[size_t(y) * size_t(setup.width) + size_t(x0 + i)] = c;
          arith_slow[v] += c == kCodeSlow;
        }
      }
    SWL_CUDA_CHECK(cudaMemcpy(d_codes.get(), codes.data(), px, cudaMemcpyHostToDevice));
    const dim3 grid(unsigned(setup.width / (8 * group)), unsigned(setup.height / 32));
    auto run_arith = [&] {
      if (group == 4)
        arith_kernel<4><<<grid, 256, 0, s>>>(tex.texture(), setup, d_codes.get(), d_out.get());
      else
        arith_kernel<8><<<grid, 256, 0, s>>>(tex.texture(), setup, d_codes.get(), d_out.get());
      SWL_CUDA_CHECK(cudaGetLastError());
    };
    const std::vector<uint8_t> h_a = fresh_image(run_arith);
    for (size_t k = 0; k < px; ++k) {
      const uint8_t c = codes[k];
      if (c == kCodeSlow) continue;
      const uint8_t want = c == kCodeZero ? 0 : h_out[k];
      if (h_a[k] != want && arith_bad[v]++ < 5)
        std::printf("  arith %d: mismatch at (%zu, %zu): %u, want %u (code %02x)\n", group,
                    k % size_t(setup.width), k / size_t(setup.width), h_a[k], want, c);
    }
    arith_us[v] = median_us(s, reps, run_arith);
  }
  for (int v = 0; v < 2; ++v)
    std::printf(
        "arith: %d pixels a thread, 1-byte codes, 2 gathers  %7.1f us (%zu pixels left slow, "
        "%zu differ)\n",
        4 << v, arith_us[v], arith_slow[v], arith_bad[v]);
  std::printf("d2d copy 16 MiB                                   %7.1f us\n", copy_us);
  std::printf(
      "probe: far pixels by tex2Dgather, 4-byte table    %7.1f us (again %.1f; %.0f GB/s "
      "of table + image)\n",
      probe_us, probe2_us, 5.0 * double(px) / (probe_us * 1e3));
  for (int k = 0; k < 3; ++k)
    std::printf("probe: %d groups of 4 pixels a thread (loads first) %7.1f us (image %s)\n",
                group_counts[k], groups_us[k], groups_same ? "the same" : "DIFFERENT");
  std::printf(
      "probe: 8 x 4-pixel warp patches, a pixel a thread  %7.1f us (image %s the "
      "4-pixel kernel's)\n",
      patch_us, patch_same ? "equal to" : "DIFFERENT from");
  std::printf("probe: patches, first gather only (timing floor)  %7.1f us\n", first_us);
  std::printf("default max-hold (pyramid + span-table gather)    %7.1f us (probe / default %.2f)\n",
              default_us, probe_us / default_us);
  return bad || !patch_same || !groups_same || arith_bad[0] || arith_bad[1] ? 1 : 0;
}
