// The CUDA denoising filters against the CPU stages (gpu/cpu/cpu_stages.hpp, themselves checked
// against direct formulas in tests/gpu/cpu) and against each other, image in, image out: the
// product's Gaussian kernels (multiply-add and tensor cores) and bilateral, its FFT enhancement,
// and the references beside them (gpu/reference/: paper 002's two-pass filters with either row
// pass, batched cuFFT). Odd sizes (not multiples of 4, 8, 16; smaller than a tile or a window),
// every radius, and adversarial images: constant (flat FFT windows), 0/255 checkerboards (Nyquist
// frequencies, extreme range weights), hard edges, isolated impulses. Within one level and under
// 1 % of pixels different (float sums in another order, fused multiply-adds, the tensor-core
// Gaussian's weights rounded to 2^-17).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/fft_kernels.hpp"
#include "gpu/cuda/filter_kernels.hpp"
#include "gpu/reference/fft_cufft.hpp"
#include "gpu/reference/separable_filters.hpp"
#include "tests/support/gpu_skip.hpp"
#include "tests/support/image_compare.hpp"

namespace sweepline::gpu {
namespace {

struct Named {
  std::string name;
  Image8 img;
};

using test::count_diff;
using test::max_diff;
using test::random_image;
using test::structured_image;

Image8 checkerboard(int w, int h) {
  Image8 img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.at(x, y) = ((x ^ y) & 1) ? 255 : 0;
  return img;
}

std::vector<Named> images(int w, int h, uint32_t seed) {
  return {{"random", random_image(w, h, seed)},
          {"structured", structured_image(w, h, seed + 1)},
          {"constant 77", Image8(w, h, 77)},
          {"checkerboard", checkerboard(w, h)}};
}

const std::vector<std::pair<int, int>> kSizes = {{16, 16},   {37, 23},   {128, 64}, {132, 70},
                                                 {301, 203}, {520, 130}, {96, 515}, {1024, 333}};

// Runs `launch(d_in, out, stream)` on img and returns the device output.
template <class Launch>
Image8 on_gpu(const Image8& img, Launch&& launch) {
  cuda::Stream stream;
  cuda::DeviceBuffer<uint8_t> d_in(img.size()), d_out(img.size());
  SWL_CUDA_CHECK(cudaMemcpy(d_in.get(), img.pixels.data(), img.size(), cudaMemcpyHostToDevice));
  SWL_CUDA_CHECK(cudaMemset(d_out.get(), 0xCD, img.size()));  // nothing left unwritten
  // The copy and the memset run on the legacy stream, which a non-blocking stream does not wait
  // for: without this the memset could land after the kernel (seen once: 0xCD at (0, 0)).
  SWL_CUDA_CHECK(cudaDeviceSynchronize());
  launch(d_in.get(), cuda::Out8{d_out.get(), 0}, stream.get());
  SWL_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  Image8 out(img.width, img.height);
  SWL_CUDA_CHECK(cudaMemcpy(out.pixels.data(), d_out.get(), img.size(), cudaMemcpyDeviceToHost));
  return out;
}

// Where the first difference over one level is, for the failure message.
std::string first_bad(const Image8& a, const Image8& b) {
  for (int y = 0; y < std::min(a.height, b.height); ++y)
    for (int x = 0; x < std::min(a.width, b.width); ++x)
      if (std::abs(int(a.at(x, y)) - int(b.at(x, y))) > 1)
        return " (first at x " + std::to_string(x) + ", y " + std::to_string(y) + ": " +
               std::to_string(a.at(x, y)) + " vs " + std::to_string(b.at(x, y)) + ")";
  return "";
}

void expect_close(const Image8& gpu, const Image8& cpu, const std::string& what) {
  EXPECT_LE(max_diff(gpu, cpu), 1) << what << first_bad(gpu, cpu);
  EXPECT_LE(count_diff(gpu, cpu), gpu.size() / 100) << what;
}

// The two-pass Gaussian in double precision with the CPU's 8.8 intermediate: the final value
// before truncation (level + 0.5), per pixel.
std::vector<double> exact_gaussian(const Image8& img, const std::vector<float>& wt) {
  const int r = int(wt.size() / 2), w = img.width, h = img.height;
  std::vector<double> mid(img.size()), out(img.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double acc = 0;
      for (int k = -r; k <= r; ++k)
        acc += double(wt[size_t(k + r)]) * img.at(std::clamp(x + k, 0, w - 1), y);
      mid[size_t(y) * size_t(w) + size_t(x)] = std::floor(acc * 256.0 + 0.5);
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double acc = 0;
      for (int k = -r; k <= r; ++k)
        acc += double(wt[size_t(k + r)]) *
               mid[size_t(std::clamp(y + k, 0, h - 1)) * size_t(w) + size_t(x)];
      out[size_t(y) * size_t(w) + size_t(x)] = acc / 256.0 + 0.5;
    }
  return out;
}

// The tensor-core Gaussian rounds its weights to 2^-23 and sums exactly; the CPU sums floats.
// Within one level everywhere; where they differ, the exact value must lie within 1/64 of a
// level of a rounding boundary (a 0/255 checkerboard puts every pixel there for radius >= 5,
// where the float rounding decides), and other differences stay under 1 % of the pixels.
void expect_close_or_tie(const Image8& got, const Image8& ref, const std::vector<double>& exact,
                         const std::string& what) {
  EXPECT_LE(max_diff(got, ref), 1) << what << first_bad(got, ref);
  size_t off_tie = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got.pixels[i] != ref.pixels[i]) {
      const double v = exact[i];
      off_tie += std::abs(v - std::round(v)) > 1.0 / 64.0;
    }
  EXPECT_LE(off_tie, got.size() / 100) << what;
}

// The paper's two-pass Gaussian (either row pass) through a device intermediate image.
Image8 separable_gaussian(const Image8& img, const std::vector<float>& wt,
                          reference::RowPass pass) {
  return on_gpu(img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
    cuda::DeviceBuffer<uint16_t> mid(img.size());
    reference::launch_gaussian_rows(d, mid.get(), img.width, img.height, wt,
                                    reference::SeparableGaussian{pass}, s);
    reference::launch_gaussian_cols(mid.get(), o, img.width, img.height, wt, s);
    SWL_CUDA_CHECK(cudaStreamSynchronize(s));
  });
}

TEST(GpuFilters, GaussianMatchesCpuAndTheTwoPassReference) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool(4);
  std::vector<uint16_t> scratch;
  uint32_t seed = 100;
  for (auto [w, h] : kSizes)
    for (const Named& n : images(w, h, seed++))
      for (float sigma : {0.5f, 0.8f, 1.0f, 1.7f, 2.0f, 3.3f, 5.0f}) {
        const std::vector<float> wt = gaussian_weights(sigma);
        Image8 cpu_out;
        cpu::gaussian(pool, n.img, sigma, cpu_out, scratch);
        // A block filters a strip of tiles, carrying 2R intermediate rows from one to the next:
        // the automatic strip (one tile at these sizes) and forced longer ones.
        const Image8 fused = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
          cuda::launch_gaussian_fused(d, o, w, h, wt, s);
        });
        for (int strip : {2, 3, 64}) {
          const Image8 striped = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
            cuda::launch_gaussian_fused(d, o, w, h, wt, s, cuda::StripOptions{strip});
          });
          EXPECT_EQ(striped, fused) << n.name << " " << w << "x" << h << " sigma " << sigma
                                    << " strip " << strip << first_bad(striped, fused);
        }
        const std::string what = n.name + " " + std::to_string(w) + "x" + std::to_string(h) +
                                 " sigma " + std::to_string(sigma);
        expect_close(fused, cpu_out, "fused vs cpu, " + what);
        // The pipeline's choice between the kernels.
        const Image8 product = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
          cuda::launch_gaussian(d, o, w, h, wt, s);
        });
        // The pipeline takes the tensor-core kernel from kGaussianMmaMinRadius: ties allowed.
        expect_close_or_tie(product, cpu_out, exact_gaussian(n.img, wt),
                            "pipeline's Gaussian vs cpu, " + what);
        // The paper's two row passes compute the same numbers.
        const Image8 tiled = separable_gaussian(n.img, wt, reference::RowPass::Tiled);
        expect_close(fused, tiled, "fused vs two-pass, " + what);
        EXPECT_EQ(separable_gaussian(n.img, wt, reference::RowPass::SlidingWindow), tiled)
            << "sliding window vs plain tile, " << what;
        if (n.name == "constant 77") {
          EXPECT_EQ(fused, n.img) << what;  // the weights sum to 1
        }
      }
}

// The tensor-core Gaussian (integer mma, gpu/cuda/filter_mma.cu) at every radius 1..15 (sigma
// (R - 0.5) / 3; both tile heights: 128 rows from kGaussianMmaTallMinRadius) against the CPU and
// the multiply-add kernel; sizes add a width not a multiple of 16 over several tiles and a height
// over several 128-row tiles. Radius 1 (every off-centre weight rounds to 0) takes the fallback.
TEST(GpuFilters, TensorCoreGaussianMatchesCpuAndFused) {
  SWL_SKIP_WITHOUT_CUDA();
  if (!cuda::gaussian_mma_available()) GTEST_SKIP() << "no sm_80+ tensor cores";
  ThreadPool pool(4);
  std::vector<uint16_t> scratch;
  uint32_t seed = 150;
  std::vector<std::pair<int, int>> sizes = kSizes;
  sizes.push_back({1000, 257});
  for (auto [w, h] : sizes)
    for (const Named& n : images(w, h, seed++))
      for (int r = 1; r <= kMaxGaussianRadius; ++r) {
        const float sigma = (float(r) - 0.5f) / 3.0f;
        const std::vector<float> wt = gaussian_weights(sigma);
        ASSERT_EQ(int(wt.size()), 2 * r + 1);
        Image8 cpu_out;
        cpu::gaussian(pool, n.img, sigma, cpu_out, scratch);
        const Image8 fused = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
          cuda::launch_gaussian_fused(d, o, w, h, wt, s);
        });
        const std::vector<double> exact = exact_gaussian(n.img, wt);
        const std::string what = n.name + " " + std::to_string(w) + "x" + std::to_string(h) +
                                 " radius " + std::to_string(r);
        const Image8 mma = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
          cuda::launch_gaussian_mma(d, o, w, h, wt, s);
        });
        expect_close_or_tie(mma, cpu_out, exact, "mma vs cpu, " + what);
        expect_close_or_tie(mma, fused, exact, "mma vs fused, " + what);
        if (n.name == "constant 77") {
          EXPECT_EQ(mma, n.img) << what;  // the integer weights sum to 2^16 exactly
        }
      }
}

TEST(GpuFilters, BilateralMatchesCpuAndTheTwoPassReference) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool(4);
  std::vector<uint16_t> scratch;
  uint32_t seed = 200;
  for (auto [w, h] : kSizes)
    for (const Named& n : images(w, h, seed++))
      for (float sigma_s : {0.5f, 1.0f, 2.0f, 3.5f, 5.0f})
        for (float sigma_r : {1.0f, 12.0f, 30.0f, 255.0f}) {
          const std::vector<float> ws = bilateral_spatial_weights(sigma_s);
          const std::array<float, 256> wr = bilateral_range_weights(sigma_r);
          Image8 cpu_out;
          cpu::bilateral(pool, n.img, sigma_s, sigma_r, cpu_out, scratch);
          const Image8 fused = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
            cuda::launch_bilateral(d, o, w, h, ws, wr, s);
          });
          const Image8 striped = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
            cuda::launch_bilateral(d, o, w, h, ws, wr, s, cuda::StripOptions{3});
          });
          EXPECT_EQ(striped, fused) << n.name << " " << w << "x" << h << " sigma_s " << sigma_s
                                    << " strip 3" << first_bad(striped, fused);
          const Image8 two = on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
            cuda::DeviceBuffer<uint16_t> mid(size_t(w) * size_t(h));
            reference::launch_bilateral_rows(d, mid.get(), w, h, ws, wr, s);
            reference::launch_bilateral_cols(mid.get(), o, w, h, ws, wr, s);
            SWL_CUDA_CHECK(cudaStreamSynchronize(s));
          });
          const std::string what = n.name + " " + std::to_string(w) + "x" + std::to_string(h) +
                                   " sigma_s " + std::to_string(sigma_s) + " sigma_r " +
                                   std::to_string(sigma_r);
          expect_close(fused, cpu_out, "fused vs cpu, " + what);
          expect_close(two, cpu_out, "two-pass vs cpu, " + what);
        }
}

std::vector<std::pair<std::string, FftEnhanceParams>> fft_params() {
  std::vector<std::pair<std::string, FftEnhanceParams>> out;
  out.push_back({"default", FftEnhanceParams{}});
  FftEnhanceParams p;
  p.gain = 127.0f;  // the paper's fingerprint setting
  p.offset = 128.5f;
  p.high_cut = 16.0f;
  out.push_back({"paper", p});
  p = FftEnhanceParams{};
  p.power = 0.0f;  // a plain band-pass, DC kept
  p.low_cut = 0.0f;
  p.high_cut = 30.0f;
  out.push_back({"power 0, all kept", p});
  p = FftEnhanceParams{};
  p.power = 1.5f;
  p.low_cut = 3.0f;
  p.high_cut = 8.0f;
  out.push_back({"power 1.5, band 3..8", p});
  return out;
}

TEST(GpuFilters, FftEnhanceAndTheCufftReferenceMatchCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool(4);
  uint32_t seed = 300;
  reference::CufftEnhancer cufft;
  std::vector<std::pair<int, int>> sizes = kSizes;
  sizes.push_back({1536, 1018});  // more windows than one cuFFT chunk
  for (auto [w, h] : sizes)
    for (const Named& n : images(w, h, seed++))
      for (const auto& [pname, prm] : fft_params()) {
        Image8 cpu_out;
        cpu::fft_enhance(pool, n.img, prm, cpu_out);
        const std::string what =
            n.name + " " + std::to_string(w) + "x" + std::to_string(h) + " " + pname;
        expect_close(
            on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o,
                              cudaStream_t s) { cuda::launch_fft_enhance(d, o, w, h, prm, s); }),
            cpu_out, "warp " + what);
        expect_close(on_gpu(n.img, [&](const uint8_t* d, cuda::Out8 o,
                                       cudaStream_t s) { cufft.run(d, o, w, h, prm, s); }),
                     cpu_out, "cufft " + what);
      }
}

// A few small cases of every kernel path (multi-tile strips with carried rows, the asynchronous
// copies, edge clamping, both FFT implementations), cheap enough to run under compute-sanitizer
// memcheck and racecheck (scripts/gpu-check --area filters --sanitize).
TEST(GpuFilters, SmallCasesForSanitizers) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool(4);
  std::vector<uint16_t> scratch;
  reference::CufftEnhancer cufft;
  for (auto [w, h] : std::vector<std::pair<int, int>>{{132, 70}, {256, 200}}) {
    const Image8 img = structured_image(w, h, 11);
    Image8 cpu_out;
    for (float sigma : {0.5f, 1.0f, 5.0f}) {
      cpu::gaussian(pool, img, sigma, cpu_out, scratch);
      expect_close(on_gpu(img,
                          [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                            cuda::launch_gaussian_fused(d, o, w, h, gaussian_weights(sigma), s,
                                                        cuda::StripOptions{2});
                          }),
                   cpu_out, "gaussian strip 2");
      if (cuda::gaussian_mma_available())
        expect_close(on_gpu(img,
                            [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                              cuda::launch_gaussian_mma(d, o, w, h, gaussian_weights(sigma), s);
                            }),
                     cpu_out, "gaussian tensor cores");
    }
    for (float sigma_s : {2.0f, 5.0f}) {
      cpu::bilateral(pool, img, sigma_s, 30.0f, cpu_out, scratch);
      expect_close(on_gpu(img,
                          [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                            cuda::launch_bilateral(d, o, w, h, bilateral_spatial_weights(sigma_s),
                                                   bilateral_range_weights(30.0f), s,
                                                   cuda::StripOptions{2});
                          }),
                   cpu_out, "bilateral strip 2, sigma_s " + std::to_string(sigma_s));
    }
    cpu::fft_enhance(pool, img, FftEnhanceParams{}, cpu_out);
    expect_close(on_gpu(img,
                        [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                          cuda::launch_fft_enhance(d, o, w, h, FftEnhanceParams{}, s);
                        }),
                 cpu_out, "fft");
    expect_close(on_gpu(img, [&](const uint8_t* d, cuda::Out8 o,
                                 cudaStream_t s) { cufft.run(d, o, w, h, FftEnhanceParams{}, s); }),
                 cpu_out, "fft (cuFFT)");
  }
}

// The benchmark's size: every filter at 4096^2 on a structured image.
TEST(GpuFilters, FullSizeFiltersMatchCpu) {
  SWL_SKIP_WITHOUT_CUDA();
  ThreadPool pool;
  std::vector<uint16_t> scratch;
  const int n = 4096;
  const Image8 img = structured_image(n, n, 7);
  Image8 cpu_out;
  cpu::gaussian(pool, img, 1.0f, cpu_out, scratch);
  expect_close(on_gpu(img,
                      [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                        cuda::launch_gaussian_fused(d, o, n, n, gaussian_weights(1.0f), s);
                      }),
               cpu_out, "gaussian sigma 1");
  // The pipeline's Gaussian (tensor cores from kGaussianMmaMinRadius up) at sigma 1, 2 and 5.
  for (float sigma : {1.0f, 2.0f, 5.0f}) {
    cpu::gaussian(pool, img, sigma, cpu_out, scratch);
    expect_close(on_gpu(img,
                        [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                          cuda::launch_gaussian(d, o, n, n, gaussian_weights(sigma), s);
                        }),
                 cpu_out, "gaussian (pipeline's) sigma " + std::to_string(sigma));
  }
  cpu::bilateral(pool, img, 2.0f, 30.0f, cpu_out, scratch);
  expect_close(on_gpu(img,
                      [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                        cuda::launch_bilateral(d, o, n, n, bilateral_spatial_weights(2.0f),
                                               bilateral_range_weights(30.0f), s);
                      }),
               cpu_out, "bilateral 2/30");
  cpu::fft_enhance(pool, img, FftEnhanceParams{}, cpu_out);
  expect_close(on_gpu(img,
                      [&](const uint8_t* d, cuda::Out8 o, cudaStream_t s) {
                        cuda::launch_fft_enhance(d, o, n, n, FftEnhanceParams{}, s);
                      }),
               cpu_out, "fft enhance");
}

}  // namespace
}  // namespace sweepline::gpu
