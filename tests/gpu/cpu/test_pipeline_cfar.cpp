// CA-CFAR against a direct loop over each cell's training cells with the textbook scale factor
// alpha = N (Pfa^(-1/N) - 1) in double, on power (the 8-bit amplitude squared). Cells within 1e-4
// of the decision boundary may go either way (the stage compares in float); every other cell must
// agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gpu/cpu/cpu_stages.hpp"
#include "tests/support/frames.hpp"

namespace sweepline::gpu {
namespace {

double sq(uint8_t v) {
  return double(v) * v;
}

void check_cfar(const PolarFrame& f, int guard, int train, double pfa) {
  ThreadPool pool(2);
  std::vector<uint8_t> mask;
  cpu::cfar_polar(pool, f, guard, train, pfa, mask);
  ASSERT_EQ(mask.size(), f.cells.size());
  int detections = 0;
  for (int a = 0; a < f.azimuths; ++a)
    for (int r = 0; r < f.range_bins; ++r) {
      int n = 0;
      double sum = 0;
      for (int k = guard + 1; k <= guard + train; ++k) {
        if (r - k >= 0) {
          ++n;
          sum += sq(f.row(a)[r - k]);
        }
        if (r + k < f.range_bins) {
          ++n;
          sum += sq(f.row(a)[r + k]);
        }
      }
      const uint8_t got = mask[size_t(a) * size_t(f.range_bins) + size_t(r)];
      ASSERT_TRUE(got == 0 || got == 255);
      detections += got == 255;
      if (n == 0) {
        ASSERT_EQ(got, 0);
        continue;
      }
      const double alpha = n * (std::pow(pfa, -1.0 / n) - 1.0);
      const double margin = sq(f.row(a)[r]) - alpha * sum / n;
      if (std::abs(margin) < 1e-4 * (1 + alpha * sum / n)) continue;
      ASSERT_EQ(got, margin > 0 ? 255 : 0) << "cell " << a << "," << r;
    }
  EXPECT_GT(detections, 0);
}

TEST(PipelineCfar, MatchesDirectCellAveraging) {
  check_cfar(testing::random_frame(64, 300, 1000, 11), 2, 16, 0.3);
  check_cfar(testing::structured_frame(128, 500, 1000, 12), 3, 8, 1e-2);
  check_cfar(testing::structured_frame(32, 40, 1000, 13), 5, 30, 1e-6);  // windows wider than a row
  check_cfar(testing::random_frame(16, 64, 1000, 14), 0, 1, 0.3);
}

TEST(PipelineCfar, FindsPointTargetsInNoiseAndNotTheNoise) {
  PolarFrame f = testing::random_frame(256, 1024, 1000, 15);
  for (auto& c : f.cells) c = uint8_t(20 + (c % 11));  // uniform clutter 20..30
  f.row(10)[500] = 250;
  f.row(200)[30] = 250;
  ThreadPool pool(2);
  std::vector<uint8_t> mask;
  // alpha(32) = 32 (0.1^(-1/32) - 1) = 2.39: power threshold ~1500 (amplitude ~39) over clutter
  // of mean power ~630.
  cpu::cfar_polar(pool, f, 2, 16, 0.1, mask);
  EXPECT_EQ(mask[10 * 1024 + 500], 255);
  EXPECT_EQ(mask[200 * 1024 + 30], 255);
  size_t count = 0;
  for (uint8_t m : mask) count += m != 0;
  EXPECT_EQ(count, 2u);
}

TEST(PipelineCfar, HoldsTheFalseAlarmRateOnRayleighNoise) {
  // Rayleigh amplitude (exponential power), the model the scale factor is derived for: the
  // measured false-alarm rate must sit near the requested one whatever the noise level.
  for (const double mean : {12.0, 40.0}) {
    PolarFrame f = testing::random_frame(512, 1024, 1000, 16);
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double sigma = mean / std::sqrt(std::acos(-1.0) / 2);
    for (auto& c : f.cells)
      c = uint8_t(std::min(255.0, std::round(sigma * std::sqrt(-2 * std::log(1 - u(rng))))));
    ThreadPool pool(2);
    std::vector<uint8_t> mask;
    for (const double pfa : {1e-2, 1e-3}) {
      cpu::cfar_polar(pool, f, 2, 16, pfa, mask);
      size_t count = 0;
      for (uint8_t m : mask) count += m != 0;
      const double rate = double(count) / double(mask.size());
      EXPECT_GT(rate, 0.5 * pfa) << "mean " << mean << " pfa " << pfa;
      EXPECT_LT(rate, 2.0 * pfa) << "mean " << mean << " pfa " << pfa;
    }
  }
}

}  // namespace
}  // namespace sweepline::gpu
