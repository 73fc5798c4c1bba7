#pragma once
// A deliberately simple reference labeller for the tests only: breadth-first flood fill from each
// unlabelled pixel in raster order (so labels come out in raster order of the first pixel),
// statistics pixel by pixel. It shares nothing with the labellers under test.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "gpu/ccl/ccl.hpp"

namespace sweepline::test {

struct OracleResult {
  ImageI32 labels;
  std::vector<ccl::Component> components;
};

// Flood-fills every pixel with mask value `value`; returns the label image (0 elsewhere) and
// the number of components.
inline int32_t oracle_flood(const std::vector<uint8_t>& mask, int w, int h, uint8_t value,
                            int connectivity, std::vector<int32_t>& label) {
  label.assign(mask.size(), 0);
  int32_t n = 0;
  std::deque<int64_t> queue;
  for (int64_t start = 0; start < int64_t(mask.size()); ++start) {
    if (mask[start] != value || label[start] != 0) continue;
    label[start] = ++n;
    queue.push_back(start);
    while (!queue.empty()) {
      int64_t p = queue.front();
      queue.pop_front();
      int px = int(p % w), py = int(p / w);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          if (connectivity == 4 && dx != 0 && dy != 0) continue;
          int qx = px + dx, qy = py + dy;
          if (qx < 0 || qy < 0 || qx >= w || qy >= h) continue;
          int64_t q = int64_t(qy) * w + qx;
          if (mask[q] != value || label[q] != 0) continue;
          label[q] = n;
          queue.push_back(q);
        }
    }
  }
  return n;
}

inline OracleResult oracle_label(const Image8& image, const ccl::LabelParams& p,
                                 const Image8* intensity = nullptr) {
  const int w = image.width, h = image.height;
  std::vector<uint8_t> mask(image.size());
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = image.pixels[i] > p.threshold ? 1 : 0;
  std::vector<int32_t> label;
  if (p.fill_holes) {
    // Holes: background components (with the dual connectivity) off the border, small enough.
    int32_t nb = oracle_flood(mask, w, h, 0, p.connectivity == 8 ? 4 : 8, label);
    std::vector<int64_t> area(size_t(nb) + 1, 0);
    std::vector<bool> border(size_t(nb) + 1, false);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int32_t l = label[size_t(y) * w + x];
        if (!l) continue;
        area[l]++;
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1) border[l] = true;
      }
    for (size_t i = 0; i < mask.size(); ++i) {
      int32_t l = label[i];
      if (l && !border[l] && (p.hole_max_area <= 0 || area[l] < p.hole_max_area)) mask[i] = 1;
    }
  }
  int32_t n = oracle_flood(mask, w, h, 1, p.connectivity, label);
  struct Sums {
    int64_t area = 0;
    int xmin = 1 << 30, xmax = -1, ymin = 1 << 30, ymax = -1;
    double sw = 0, swx = 0, swy = 0;  // exact: integers far below 2^53
    int peak = 0;
  };
  std::vector<Sums> s(size_t(n) + 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      size_t i = size_t(y) * w + x;
      int32_t l = label[i];
      if (!l) continue;
      Sums& a = s[l];
      double wgt = 1;
      if (intensity) wgt = std::max(1, int(intensity->pixels[i]));
      a.area++;
      a.xmin = std::min(a.xmin, x), a.xmax = std::max(a.xmax, x);
      a.ymin = std::min(a.ymin, y), a.ymax = std::max(a.ymax, y);
      a.sw += wgt, a.swx += wgt * x, a.swy += wgt * y;
      if (intensity) a.peak = std::max(a.peak, int(intensity->pixels[i]));
    }
  // Area filter, then renumbering of the survivors in their original order.
  std::vector<int32_t> renum(size_t(n) + 1, 0);
  OracleResult r;
  int32_t kept = 0;
  for (int32_t l = 1; l <= n; ++l) {
    const Sums& a = s[l];
    if (p.min_area > 0 && a.area < p.min_area) continue;
    if (p.max_area > 0 && a.area > p.max_area) continue;
    renum[l] = ++kept;
    ccl::Component c;
    c.label = kept;
    c.area = a.area;
    c.xmin = a.xmin, c.xmax = a.xmax, c.ymin = a.ymin, c.ymax = a.ymax;
    c.cx = a.swx / a.sw;
    c.cy = a.swy / a.sw;
    c.peak = uint8_t(a.peak);
    double ex = c.cx + 0.5 - p.geometry.radar_x;  // east
    double north = p.geometry.radar_y - (c.cy + 0.5);
    c.range_m = std::sqrt(ex * ex + north * north) * p.geometry.metres_per_pixel;
    double deg = std::atan2(ex, north) * 180.0 / M_PI;
    c.bearing_deg = deg < 0 ? deg + 360.0 : deg;
    r.components.push_back(c);
  }
  r.labels = ImageI32(w, h, 0);
  for (size_t i = 0; i < label.size(); ++i) r.labels.pixels[i] = renum[label[i]];
  return r;
}

}  // namespace sweepline::test
