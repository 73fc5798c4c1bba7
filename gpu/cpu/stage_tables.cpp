#include "gpu/cpu/stage_tables.hpp"

#include "gpu/plot_extractor.hpp"
#include "gpu/video_control.hpp"

#include <algorithm>
#include <cmath>

#include "app/common/check.hpp"

namespace sweepline::gpu {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

DisplayGeometry display_geometry(const PipelineParams& params, const PolarFrame& frame) {
  DisplayGeometry g;
  const double range = params.display_range_m > 0 ? params.display_range_m : frame.range_m;
  g.metres_per_pixel = range / (std::min(params.width, params.height) / 2.0);
  g.radar_x = params.width / 2.0 - params.origin_east_m / g.metres_per_pixel;
  g.radar_y = params.height / 2.0 + params.origin_north_m / g.metres_per_pixel;
  return g;
}

ScanSetup make_scan_setup(const PipelineParams& params, const PolarFrame& frame) {
  const DisplayGeometry g = display_geometry(params, frame);
  const double bins_per_m = frame.range_bins / frame.range_m;
  ScanSetup s;
  s.width = params.width;
  s.height = params.height;
  s.azimuths = frame.azimuths;
  s.bins = frame.range_bins;
  s.step = float(g.metres_per_pixel * bins_per_m);
  s.east0 = float((0.5 - g.radar_x) * g.metres_per_pixel * bins_per_m);
  s.north0 = float((g.radar_y - 0.5) * g.metres_per_pixel * bins_per_m);
  // The disc circumscribing the pixel: the discs of neighbouring pixels overlap a little, but
  // together they cover the plane, so no polar cell falls between pixels.
  s.footprint = float(0.70710678118654752 * g.metres_per_pixel * bins_per_m);
  s.az_per_rad = float(frame.azimuths / (2 * kPi));
  return s;
}

int gaussian_radius(float sigma) {
  return std::min(kMaxGaussianRadius, int(std::ceil(3.0 * sigma)));
}

std::vector<float> gaussian_weights(float sigma) {
  const int r = gaussian_radius(sigma);
  std::vector<double> w(size_t(2 * r + 1));
  double sum = 0;
  for (int k = -r; k <= r; ++k)
    sum += w[size_t(k + r)] = std::exp(-0.5 * k * k / (double(sigma) * sigma));
  std::vector<float> out(w.size());
  for (size_t i = 0; i < w.size(); ++i) out[i] = float(w[i] / sum);
  return out;
}

int bilateral_radius(float sigma_s) {
  return std::min(kMaxBilateralRadius, std::max(1, int(std::ceil(2.0 * sigma_s))));
}

std::vector<float> bilateral_spatial_weights(float sigma_s) {
  const int r = bilateral_radius(sigma_s);
  std::vector<float> w(size_t(2 * r + 1));
  for (int k = -r; k <= r; ++k)
    w[size_t(k + r)] = float(std::exp(-0.5 * k * k / (double(sigma_s) * sigma_s)));
  return w;
}

std::array<float, 256> bilateral_range_weights(float sigma_r) {
  std::array<float, 256> w{};
  for (int d = 0; d < 256; ++d)
    w[size_t(d)] = float(std::exp(-0.5 * d * d / (double(sigma_r) * sigma_r)));
  return w;
}

std::vector<float> cfar_scale_table(int train, double pfa) {
  std::vector<float> k(size_t(2 * train + 1), 0.0f);
  for (int n = 1; n <= 2 * train; ++n) {
    const double alpha = n * (std::pow(pfa, -1.0 / n) - 1.0);
    k[size_t(n)] = float(alpha / n);
  }
  return k;
}

std::vector<float> fft_keep_mask(const FftEnhanceParams& p) {
  std::vector<float> m(size_t(kFftWindow * kFftWindow));
  for (int fy = 0; fy < kFftWindow; ++fy)
    for (int fx = 0; fx < kFftWindow; ++fx) {
      const int sx = fx < kFftWindow / 2 ? fx : fx - kFftWindow;
      const int sy = fy < kFftWindow / 2 ? fy : fy - kFftWindow;
      const double r = std::sqrt(double(sx * sx + sy * sy));
      m[size_t(fy * kFftWindow + fx)] = (r < p.low_cut || r > p.high_cut) ? 0.0f : 1.0f;
    }
  return m;
}

void validate(const PipelineParams& p, const PolarFrame& f) {
  SWL_CHECK(p.width >= 16 && p.height >= 16 && p.width <= 16384 && p.height <= 16384,
            "pipeline: display size must be 16..16384 pixels each way, got " +
                std::to_string(p.width) + "x" + std::to_string(p.height));
  SWL_CHECK(f.azimuths >= 4 && f.range_bins >= 4 && f.azimuths <= 65536 && f.range_bins <= 65536,
            "pipeline: polar frame must have 4..65536 azimuths and range bins");
  SWL_CHECK(f.cells.size() == size_t(f.azimuths) * size_t(f.range_bins),
            "pipeline: polar frame holds " + std::to_string(f.cells.size()) + " cells, expected " +
                std::to_string(size_t(f.azimuths) * size_t(f.range_bins)));
  SWL_CHECK(std::isfinite(f.range_m) && f.range_m > 0, "pipeline: polar frame range_m must be > 0");
  SWL_CHECK(std::isfinite(p.display_range_m) && p.display_range_m >= 0,
            "pipeline: display_range_m must be >= 0");
  SWL_CHECK(std::isfinite(p.origin_east_m) && std::isfinite(p.origin_north_m),
            "pipeline: display origin must be finite");
  SWL_CHECK(p.gaussian_sigma >= 0.5f && p.gaussian_sigma <= 5.0f,
            "pipeline: gaussian_sigma must be 0.5..5");
  SWL_CHECK(p.bilateral_sigma_s >= 0.5f && p.bilateral_sigma_s <= 5.0f,
            "pipeline: bilateral_sigma_s must be 0.5..5");
  SWL_CHECK(p.bilateral_sigma_r >= 1.0f && p.bilateral_sigma_r <= 255.0f,
            "pipeline: bilateral_sigma_r must be 1..255");
  SWL_CHECK(p.fft.power >= 0.0f && p.fft.power <= 2.0f, "pipeline: fft power must be 0..2");
  SWL_CHECK(p.fft.low_cut >= 0.0f && p.fft.high_cut > p.fft.low_cut,
            "pipeline: fft cuts need 0 <= low_cut < high_cut");
  SWL_CHECK(std::isfinite(p.fft.gain) && std::isfinite(p.fft.offset) && p.fft.min_peak > 0.0f,
            "pipeline: fft gain/offset must be finite and min_peak > 0");
  SWL_CHECK(p.cfar_guard >= 0 && p.cfar_train >= 1 && p.cfar_guard + p.cfar_train <= kMaxCfarCells,
            "pipeline: CFAR needs guard >= 0, train >= 1, guard + train <= 256");
  SWL_CHECK(p.cfar_pfa > 0 && p.cfar_pfa < 1, "pipeline: cfar_pfa must be in (0, 1)");
  validate(p.video);
  validate(p.plot);
  // The display pixel must map to a finite, representable range in bins.
  const DisplayGeometry g = display_geometry(p, f);
  const double step = g.metres_per_pixel * f.range_bins / f.range_m;
  SWL_CHECK(step > 1e-4 && step < 1e4, "pipeline: display range gives an unusable pixel size");
  SWL_CHECK(
      std::abs(p.origin_east_m) / f.range_m < 64 && std::abs(p.origin_north_m) / f.range_m < 64,
      "pipeline: display origin is too far from the radar");
}

}  // namespace sweepline::gpu
