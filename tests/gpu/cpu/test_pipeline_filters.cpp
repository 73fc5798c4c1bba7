// The CPU denoising stages against deliberately simple oracles in double precision: a straight
// 2-D convolution for the Gaussian, the textbook separable bilateral, a direct DFT for the block
// FFT enhancement. The stages round an 8.8 fixed-point intermediate, so one level is allowed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "tests/support/image_compare.hpp"

namespace sweepline::gpu {
namespace {

constexpr double kPi = 3.14159265358979323846;

using test::random_image;
using test::structured_image;  // speckle, a ramp, rectangles, lines, impulses: edges

int max_abs_diff(const Image8& a, const std::vector<int>& b) {
  int m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(int(a.pixels[i]) - b[i]));
  return m;
}

std::vector<int> oracle_gaussian(const Image8& in, double sigma) {
  const int r = std::min(15, int(std::ceil(3 * sigma)));
  std::vector<double> w(size_t(2 * r + 1));
  double s = 0;
  for (int k = -r; k <= r; ++k) s += w[size_t(k + r)] = std::exp(-k * k / (2 * sigma * sigma));
  std::vector<int> out(in.size());
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double acc = 0;
      for (int j = -r; j <= r; ++j)
        for (int i = -r; i <= r; ++i)
          acc += w[size_t(i + r)] * w[size_t(j + r)] / (s * s) *
                 in.at(std::clamp(x + i, 0, in.width - 1), std::clamp(y + j, 0, in.height - 1));
      out[size_t(y) * size_t(in.width) + size_t(x)] = int(std::floor(acc + 0.5));
    }
  return out;
}

TEST(PipelineFilters, GaussianMatchesStraight2DConvolution) {
  ThreadPool pool(2);
  std::vector<uint16_t> scratch;
  for (float sigma : {0.5f, 1.0f, 2.3f, 5.0f})
    for (const Image8& in : {random_image(67, 45, 5), structured_image(80, 64, 6)}) {
      Image8 out;
      cpu::gaussian(pool, in, sigma, out, scratch);
      ASSERT_EQ(out.width, in.width);
      EXPECT_LE(max_abs_diff(out, oracle_gaussian(in, sigma)), 1) << "sigma " << sigma;
    }
}

TEST(PipelineFilters, GaussianFlatImageStaysFlat) {
  ThreadPool pool(2);
  std::vector<uint16_t> scratch;
  for (int v : {0, 1, 128, 255}) {
    Image8 in(50, 40, uint8_t(v)), out;
    cpu::gaussian(pool, in, 3.0f, out, scratch);
    for (uint8_t p : out.pixels) ASSERT_EQ(p, v);
  }
}

// Textbook separable bilateral: row pass in double; the column pass's range weight uses the
// intermediate's difference rounded to whole levels (the documented definition).
std::vector<int> oracle_bilateral(const Image8& in, double ss, double sr) {
  const int r = std::min(10, std::max(1, int(std::ceil(2 * ss))));
  const int W = in.width, H = in.height;
  auto ws = [&](int k) { return std::exp(-k * k / (2 * ss * ss)); };
  auto wr = [&](double d) { return std::exp(-d * d / (2 * sr * sr)); };
  std::vector<double> mid(in.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      double num = 0, den = 0;
      const int c = in.at(x, y);
      for (int k = -r; k <= r; ++k) {
        const int p = in.at(std::clamp(x + k, 0, W - 1), y);
        const double wt = ws(k) * wr(std::abs(p - c));
        num += wt * p;
        den += wt;
      }
      mid[size_t(y) * size_t(W) + size_t(x)] = num / den;
    }
  std::vector<int> out(in.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      double num = 0, den = 0;
      const double c = mid[size_t(y) * size_t(W) + size_t(x)];
      for (int k = -r; k <= r; ++k) {
        const double p = mid[size_t(std::clamp(y + k, 0, H - 1)) * size_t(W) + size_t(x)];
        const double wt = ws(k) * wr(std::floor(std::abs(p - c) + 0.5));
        num += wt * p;
        den += wt;
      }
      out[size_t(y) * size_t(W) + size_t(x)] = int(std::floor(num / den + 0.5));
    }
  return out;
}

TEST(PipelineFilters, BilateralMatchesDirectSeparableDefinition) {
  ThreadPool pool(2);
  std::vector<uint16_t> scratch;
  for (auto [ss, sr] : {std::pair{1.0f, 20.0f}, std::pair{2.5f, 40.0f}, std::pair{5.0f, 10.0f}})
    for (const Image8& in : {random_image(61, 47, 7), structured_image(90, 70, 8)}) {
      Image8 out;
      cpu::bilateral(pool, in, ss, sr, out, scratch);
      EXPECT_LE(max_abs_diff(out, oracle_bilateral(in, ss, sr)), 1) << ss << " " << sr;
    }
}

TEST(PipelineFilters, BilateralPreservesAStepEdge) {
  Image8 in(64, 32, 20);
  for (int y = 0; y < 32; ++y)
    for (int x = 32; x < 64; ++x) in.at(x, y) = 220;
  ThreadPool pool(2);
  std::vector<uint16_t> scratch;
  Image8 bil, gau;
  cpu::bilateral(pool, in, 3.0f, 20.0f, bil, scratch);
  cpu::gaussian(pool, in, 3.0f, gau, scratch);
  EXPECT_LE(std::abs(int(bil.at(31, 10)) - 20), 1);
  EXPECT_LE(std::abs(int(bil.at(32, 10)) - 220), 1);
  EXPECT_GT(std::abs(int(gau.at(31, 10)) - 20), 20);  // the Gaussian blurs it
}

// Direct 2-D DFT of each window (O(n^4) would be slow; separable O(n^3) in double is still a
// straight DFT with no butterflies).
std::vector<int> oracle_fft_enhance(const Image8& in, const FftEnhanceParams& p) {
  using cd = std::complex<double>;
  const int N = 32, S = 16, W = in.width, H = in.height;
  std::vector<int> out(in.size(), 0);
  // A 1-D DFT of each of the N lines of `from` into `to`; element j of line l is at
  // l * line_stride + j * step (rows: N, 1; columns: 1, N).
  auto dft_lines = [&](const std::vector<cd>& from, std::vector<cd>& to, int line_stride, int step,
                       int sign) {
    for (int l = 0; l < N; ++l)
      for (int k = 0; k < N; ++k) {
        cd s = 0;
        for (int j = 0; j < N; ++j)
          s += from[size_t(l * line_stride + j * step)] *
               std::polar(1.0, sign * 2 * kPi * k * j / N);
        to[size_t(l * line_stride + k * step)] = s;
      }
  };
  auto dft = [&](std::vector<cd>& a, int sign) {  // rows then columns
    std::vector<cd> t(a.size());
    dft_lines(a, t, N, 1, sign);
    dft_lines(t, a, 1, N, sign);
  };
  for (int by = 0; by * S < H; ++by)
    for (int bx = 0; bx * S < W; ++bx) {
      const int ox = bx * S - 8, oy = by * S - 8;
      std::vector<cd> a(size_t(N * N));
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) {
          const int x = ox + i, y = oy + j;
          a[size_t(j * N + i)] = (x >= 0 && x < W && y >= 0 && y < H) ? in.at(x, y) : 0;
        }
      dft(a, -1);
      for (int fy = 0; fy < N; ++fy)
        for (int fx = 0; fx < N; ++fx) {
          const int sx = fx < 16 ? fx : fx - 32, sy = fy < 16 ? fy : fy - 32;
          const double rad = std::sqrt(double(sx * sx + sy * sy));
          cd& z = a[size_t(fy * N + fx)];
          z = (rad < p.low_cut || rad > p.high_cut) ? cd(0)
                                                    : z * std::pow(std::norm(z), double(p.power));
        }
      dft(a, +1);
      double peak = 0;
      for (auto& z : a) peak = std::max(peak, std::abs(z.real()) / (N * N));
      for (int j = 8; j < 24; ++j)
        for (int i = 8; i < 24; ++i) {
          const int x = ox + i, y = oy + j;
          if (x >= W || y >= H) continue;
          double v = peak < p.min_peak
                         ? p.offset
                         : a[size_t(j * N + i)].real() / (N * N) * p.gain / peak + p.offset;
          v = std::clamp(v, 0.0, 255.0);
          out[size_t(y) * size_t(W) + size_t(x)] = int(v);
        }
    }
  return out;
}

TEST(PipelineFilters, FftEnhanceMatchesDirectDft) {
  ThreadPool pool(2);
  FftEnhanceParams fingerprint;  // the paper's constants
  fingerprint.gain = 127;
  fingerprint.offset = 128.5f;
  fingerprint.low_cut = 2;
  fingerprint.high_cut = 10;
  for (const FftEnhanceParams& p : {FftEnhanceParams{}, fingerprint})
    for (const Image8& in : {random_image(72, 40, 9), structured_image(64, 64, 10)}) {
      Image8 out;
      cpu::fft_enhance(pool, in, p, out);
      EXPECT_LE(max_abs_diff(out, oracle_fft_enhance(in, p)), 1);
    }
}

TEST(PipelineFilters, FftEnhanceEmptyImageGivesTheOffset) {
  ThreadPool pool(1);
  FftEnhanceParams p;
  p.offset = 7.5f;
  Image8 in(48, 40, 0), out;
  cpu::fft_enhance(pool, in, p, out);
  for (uint8_t q : out.pixels) ASSERT_EQ(q, 7);
}

TEST(PipelineFilters, ThresholdIsStrictlyGreater) {
  ThreadPool pool(2);
  Image8 in(256, 3);
  for (int x = 0; x < 256; ++x)
    for (int y = 0; y < 3; ++y) in.at(x, y) = uint8_t(x);
  for (int t : {0, 1, 64, 254, 255}) {
    Image8 out;
    cpu::threshold(pool, in, uint8_t(t), out);
    for (int x = 0; x < 256; ++x) ASSERT_EQ(out.at(x, 1), x > t ? 255 : 0);
  }
}

}  // namespace
}  // namespace sweepline::gpu
