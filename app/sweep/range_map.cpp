#include "app/sweep/range_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/common/check.hpp"
#include "app/sweep/max_into.hpp"

namespace sweepline::sweep {

double cell_length_m(uint32_t cell_dur, cat240::CellDurUnit unit) {
  const double seconds = double(cell_dur) * (unit == cat240::CellDurUnit::Nano ? 1e-9 : 1e-15);
  return seconds * kSpeedOfLight / 2.0;
}

namespace {

struct Grid {
  double cell_m, bin_m, start, eps;
  double r(uint64_t i) const { return (start + double(i)) * cell_m; }  // near edge of cell i
  double e(int64_t b) const { return double(b) * bin_m; }              // near edge of bin b
  bool meets(uint64_t i, int64_t b) const {
    return std::min(r(i + 1), e(b + 1)) - std::max(r(i), e(b)) > eps;
  }
};

Grid make_grid(const RangeGeometry& g, int range_bins, double range_m) {
  SWL_CHECK(range_bins > 0 && range_m > 0 && std::isfinite(range_m),
            "sweep: the display range must be positive");
  Grid grid;
  grid.cell_m = cell_length_m(g.cell_dur, g.unit);
  grid.bin_m = range_m / range_bins;
  grid.start = double(g.start_rg);
  grid.eps = 1e-6 * std::min(grid.cell_m, grid.bin_m);
  return grid;
}

}  // namespace

bool cell_meets_bin(const RangeGeometry& g, uint32_t i, int b, int range_bins, double range_m) {
  if (g.cell_dur == 0) return false;
  return make_grid(g, range_bins, range_m).meets(i, b);
}

RangeMap::RangeMap(const RangeGeometry& g, int range_bins, double range_m) : geometry_(g) {
  const Grid grid = make_grid(g, range_bins, range_m);
  const uint64_t n = g.nb_cells;
  if (n == 0 || g.cell_dur == 0) return;
  // Bins that can meet a cell, found by division and then widened by one on each side: the
  // overlap rule below decides.
  const double lo = std::floor(grid.r(0) / grid.bin_m) - 1.0;
  const double hi = std::ceil(grid.r(n) / grid.bin_m) + 1.0;
  const int b_lo = int(std::clamp(lo, 0.0, double(range_bins)));
  const int b_hi = int(std::clamp(hi, 0.0, double(range_bins)));
  uint64_t c0 = 0;
  int first = -1, last = -1;
  std::vector<uint32_t> c0s, c1s;
  c0s.reserve(size_t(b_hi - b_lo));
  c1s.reserve(size_t(b_hi - b_lo));
  for (int b = b_lo; b < b_hi; ++b) {
    // Cells that end before this bin starts can meet no later bin either.
    while (c0 < n && !grid.meets(c0, b) && grid.r(c0 + 1) <= grid.e(b) + grid.eps) ++c0;
    uint64_t c1 = c0;
    while (c1 < n && grid.meets(c1, b)) ++c1;
    if (c1 > c0) {
      if (first < 0) first = b;
      // Bins between two touched bins that no cell meets keep an empty range.
      while (int(c0s.size()) < b - first) {
        c0s.push_back(uint32_t(c0));
        c1s.push_back(uint32_t(c0));
      }
      c0s.push_back(uint32_t(c0));
      c1s.push_back(uint32_t(c1));
      last = b;
    }
  }
  if (first < 0) return;
  first_bin_ = first;
  end_bin_ = last + 1;
  c0s.resize(size_t(end_bin_ - first_bin_));
  c1s.resize(size_t(end_bin_ - first_bin_));
  identity_ = true;
  shift_ = int(int64_t(c0s[0]) - first_bin_);
  for (size_t k = 0; k < c0s.size() && identity_; ++k) {
    identity_ = c1s[k] == c0s[k] + 1 && int64_t(c0s[k]) - int64_t(first_bin_ + int(k)) == shift_;
  }
  single_ = true;
  for (size_t k = 0; k < c0s.size() && single_; ++k) single_ = c1s[k] == c0s[k] + 1;
  if (single_) {
    for (size_t k = 0; k < c0s.size(); ++k) {
      if (runs_.empty() || runs_.back().cell != c0s[k]) runs_.push_back({c0s[k], 0});
      ++runs_.back().bins;
    }
  }
  c0_ = std::move(c0s);
  c1_ = std::move(c1s);
}

void RangeMap::apply_max(std::span<const uint8_t> cells, uint8_t* line) const {
  if (end_bin_ <= first_bin_) return;
  if (identity_) {
    max_into(line + first_bin_, cells.data() + (first_bin_ + shift_),
             size_t(end_bin_ - first_bin_));
    return;
  }
  if (single_) {
    uint8_t* dst = line + first_bin_;
    for (const Run& r : runs_) {
      const uint8_t v = cells[r.cell];
      for (uint32_t j = 0; j < r.bins; ++j) dst[j] = std::max(dst[j], v);
      dst += r.bins;
    }
    return;
  }
  for (int b = first_bin_; b < end_bin_; ++b) {
    const size_t k = size_t(b - first_bin_);
    uint8_t v = line[b];
    for (uint32_t i = c0_[k]; i < c1_[k]; ++i) v = std::max(v, cells[i]);
    line[b] = v;
  }
}

void RangeMap::apply_store(std::span<const uint8_t> cells, uint8_t* line) const {
  if (end_bin_ <= first_bin_) return;
  if (identity_) {
    std::copy_n(cells.data() + (first_bin_ + shift_), end_bin_ - first_bin_, line + first_bin_);
    return;
  }
  if (single_) {
    uint8_t* dst = line + first_bin_;
    for (const Run& r : runs_) {
      std::memset(dst, cells[r.cell], r.bins);
      dst += r.bins;
    }
    return;
  }
  for (int b = first_bin_; b < end_bin_; ++b) {
    const size_t k = size_t(b - first_bin_);
    uint8_t v = 0;
    for (uint32_t i = c0_[k]; i < c1_[k]; ++i) v = std::max(v, cells[i]);
    line[b] = v;
  }
}

}  // namespace sweepline::sweep
