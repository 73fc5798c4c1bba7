#include "ui/range_scale.hpp"

#include <cmath>
#include <cstdio>

namespace sweepline::ui {

namespace {

constexpr double kNm = 1852.0;
// A displayed radius within this fraction of a standard scale is that scale (float pixels).
constexpr double kScaleMatch = 0.01;

}  // namespace

int range_scale_for(double range_m) {
  const int n = int(kRangeScales.size());
  for (int i = 0; i < n; ++i)
    if (kRangeScales[size_t(i)].range_nm * kNm >= range_m * (1 - kScaleMatch)) return i;
  return n - 1;
}

int standard_range_scale(double range_m) {
  for (size_t i = 0; i < kRangeScales.size(); ++i)
    if (std::abs(kRangeScales[i].range_nm * kNm - range_m) <= kScaleMatch * range_m) return int(i);
  return -1;
}

double step_range_scale_m(double range_m, int delta) {
  const int n = int(kRangeScales.size());
  if (delta > 0) {
    for (int i = 0; i < n; ++i)
      if (kRangeScales[size_t(i)].range_nm * kNm > range_m * (1 + kScaleMatch))
        return kRangeScales[size_t(i)].range_nm * kNm;
    return kRangeScales.back().range_nm * kNm;
  }
  for (int i = n - 1; i >= 0; --i)
    if (kRangeScales[size_t(i)].range_nm * kNm < range_m * (1 - kScaleMatch))
      return kRangeScales[size_t(i)].range_nm * kNm;
  return kRangeScales.front().range_nm * kNm;
}

double ring_interval_m(double range_m) {
  if (const int i = standard_range_scale(range_m); i >= 0)
    return kRangeScales[size_t(i)].ring_nm * kNm;
  if (range_m <= 0) return kNm;
  static const double steps_nm[] = {0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32};
  const double target = range_m / kNm / 5.5;
  double best = steps_nm[0];
  for (double s : steps_nm)
    if (std::abs(std::log(s / target)) < std::abs(std::log(best / target))) best = s;
  return best * kNm;
}

std::string format_nm(double nm) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", nm);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace sweepline::ui
