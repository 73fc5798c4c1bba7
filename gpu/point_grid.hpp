#pragma once
// Point indices by square grid cell, for "what lies near here" among thousands of points a frame
// (the plot extractor's remembered echoes, the engine's previous label centroids). Host code.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sweepline::gpu {

class PointGrid {
 public:
  explicit PointGrid(double cell) : cell_(cell) {}
  void add(double x, double y, std::size_t i) {
    cells_[key(cell(x), cell(y))].push_back(i);
    ++count_;
  }
  // Asks `test` of every point in the cells that a circle of radius r about (x, y) touches (a
  // superset of those within r) until one answers true, so its answer is the same as asking
  // every point; a test that never answers true visits them all.
  template <class Test>
  bool any_within(double x, double y, double r, Test&& test) const {
    const int64_t x0 = cell(x - r), x1 = cell(x + r), y0 = cell(y - r), y1 = cell(y + r);
    if (double(x1 - x0 + 1) * double(y1 - y0 + 1) > double(count_)) {
      // A reach wider than the points are many: ask them all.
      for (const auto& [k, ids] : cells_)
        for (const std::size_t i : ids)
          if (test(i)) return true;
      return false;
    }
    for (int64_t cx = x0; cx <= x1; ++cx)
      for (int64_t cy = y0; cy <= y1; ++cy) {
        const auto it = cells_.find(key(cx, cy));
        if (it == cells_.end()) continue;
        for (const std::size_t i : it->second)
          if (test(i)) return true;
      }
    return false;
  }

 private:
  int64_t cell(double v) const { return int64_t(std::floor(v / cell_)); }
  static uint64_t key(int64_t cx, int64_t cy) {
    return (uint64_t(cx) << 32) ^ (uint64_t(cy) & 0xffffffffu);
  }
  double cell_;
  std::size_t count_ = 0;
  std::unordered_map<uint64_t, std::vector<std::size_t>> cells_;
};

}  // namespace sweepline::gpu
