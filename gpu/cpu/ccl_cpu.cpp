// The CPU labeller: threshold, optional hole filling, run-based union-find in parallel strips,
// statistics over runs, area filter with consecutive renumbering.
#include <algorithm>
#include <string>

#include "app/common/check.hpp"
#include "gpu/ccl/ccl.hpp"
#include "gpu/ccl/ccl_detail.hpp"
#include "gpu/cpu/ccl_runs.hpp"

namespace sweepline::ccl {

namespace detail {

void validate(const Image8& binary, const LabelParams& params, const Image8* intensity) {
  SWL_CHECK(params.connectivity == 4 || params.connectivity == 8,
            "connectivity must be 4 or 8, not " + std::to_string(params.connectivity));
  SWL_CHECK(params.max_components >= 0, "labelling: max_components must be >= 0 (0: no limit)");
  SWL_CHECK(binary.width >= 0 && binary.height >= 0 &&
                binary.pixels.size() == size_t(binary.width) * size_t(binary.height),
            "labelling: malformed image");
  SWL_CHECK(int64_t(binary.width) * binary.height < (int64_t(1) << 31) - 1,
            "labelling: image too large (" + std::to_string(binary.width) + "x" +
                std::to_string(binary.height) + ")");
  if (intensity)
    SWL_CHECK(intensity->width == binary.width && intensity->height == binary.height &&
                  intensity->pixels.size() == binary.pixels.size(),
              "labelling: the intensity image must have the size of the binary image");
}

std::vector<Component> components_from_labels(const ImageI32& labels, int32_t count,
                                              const LabelParams& params, const Image8* intensity) {
  std::vector<Accumulator> acc(size_t(count) + 1);
  const uint8_t* in = intensity ? intensity->pixels.data() : nullptr;
  for (int y = 0; y < labels.height; ++y)
    for (int x = 0; x < labels.width; ++x) {
      size_t i = size_t(y) * size_t(labels.width) + size_t(x);
      int32_t l = labels.pixels[i];
      if (l <= 0) continue;
      SWL_CHECK(l <= count, "label image holds a label above its count");
      Accumulator& a = acc[size_t(l)];
      uint64_t wgt = pixel_weight(in, i);
      a.area++;
      a.xmin = std::min(a.xmin, x);
      a.xmax = std::max(a.xmax, x);
      a.ymin = std::min(a.ymin, y);
      a.ymax = std::max(a.ymax, y);
      a.sum_w += wgt;
      a.sum_wx += wgt * uint64_t(x);
      a.sum_wy += wgt * uint64_t(y);
      if (in) a.peak = std::max<uint32_t>(a.peak, in[i]);
    }
  std::vector<Component> out;
  out.reserve(size_t(count));
  for (int32_t l = 1; l <= count; ++l)
    out.push_back(make_component(l, acc[size_t(l)], params.geometry, in != nullptr));
  return out;
}

}  // namespace detail

std::string limit_message(const LabelResult& r, const LabelParams& params) {
  return "labelling: " + std::to_string(r.found) + " components, more than the limit of " +
         std::to_string(params.max_components) +
         " (LabelParams::max_components, docs/limits.md): none collected";
}

LabelResult label_cpu(const Image8& binary, const LabelParams& params, const Image8* intensity) {
  using namespace detail;
  validate(binary, params, intensity);
  LabelResult r;
  const int w = binary.width, h = binary.height;
  if (w == 0 || h == 0) {
    r.labels = ImageI32(w, h, 0);
    return r;
  }
  const int threads = cpu_threads(h);

  ScopedStageTimer t_threshold(r.times, "threshold");
  Image8 mask(w, h);
  parallel_chunks(int64_t(mask.size()), threads, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) mask.pixels[i] = binary.pixels[i] > params.threshold ? 1 : 0;
  });
  t_threshold.stop();

  if (params.fill_holes) {
    ScopedStageTimer t(r.times, "fill_holes");
    RunLabels bg = label_runs(mask.pixels.data(), w, h, 0,
                              background_connectivity(params.connectivity), threads);
    std::vector<int64_t> area(size_t(bg.count) + 1, 0);
    std::vector<uint8_t> border(size_t(bg.count) + 1, 0);
    for (int y = 0; y < h; ++y)
      for (int32_t i = bg.run_rows[size_t(y)]; i < bg.run_rows[size_t(y) + 1]; ++i) {
        const Run& run = bg.runs[size_t(i)];
        area[size_t(bg.comp[size_t(i)])] += run.x1 - run.x0 + 1;
        if (y == 0 || y == h - 1 || run.x0 == 0 || run.x1 == w - 1)
          border[size_t(bg.comp[size_t(i)])] = 1;
      }
    for (int y = 0; y < h; ++y)
      for (int32_t i = bg.run_rows[size_t(y)]; i < bg.run_rows[size_t(y) + 1]; ++i) {
        const int32_t c = bg.comp[size_t(i)];
        if (!fill_hole(area[size_t(c)], border[size_t(c)] != 0, params)) continue;
        const Run& run = bg.runs[size_t(i)];
        std::fill(mask.row(y) + run.x0, mask.row(y) + run.x1 + 1, uint8_t(1));
      }
  }

  ScopedStageTimer t_label(r.times, "label");
  RunLabels fg = label_runs(mask.pixels.data(), w, h, 1, params.connectivity, threads);
  t_label.stop();
  // The runs hold everything from here on: the mask goes before the label image comes (the peak
  // of an image of single-pixel runs, docs/limits.md).
  mask = Image8();
  r.found = fg.count;
  if (params.max_components > 0 && fg.count > params.max_components) {
    r.limit_exceeded = true;
    fg = RunLabels();
    r.labels = ImageI32(w, h, 0);  // all background
    return r;
  }

  ScopedStageTimer t_stats(r.times, "statistics");
  const uint8_t* in = intensity ? intensity->pixels.data() : nullptr;
  std::vector<Accumulator> acc(size_t(fg.count) + 1);
  for (int y = 0; y < h; ++y)
    for (int32_t i = fg.run_rows[size_t(y)]; i < fg.run_rows[size_t(y) + 1]; ++i) {
      const Run& run = fg.runs[size_t(i)];
      Accumulator& a = acc[size_t(fg.comp[size_t(i)])];
      int64_t len = run.x1 - run.x0 + 1;
      a.area += len;
      a.xmin = std::min(a.xmin, run.x0);
      a.xmax = std::max(a.xmax, run.x1);
      a.ymin = std::min(a.ymin, y);
      a.ymax = std::max(a.ymax, y);
      if (!in) {
        a.sum_w += uint64_t(len);
        a.sum_wx += uint64_t(int64_t(run.x0 + run.x1) * len / 2);
        a.sum_wy += uint64_t(len) * uint64_t(y);
      } else {
        size_t base = size_t(y) * size_t(w);
        uint64_t sw = 0, swx = 0;
        for (int x = run.x0; x <= run.x1; ++x) {
          uint64_t wgt = pixel_weight(in, base + size_t(x));
          sw += wgt;
          swx += wgt * uint64_t(x);
          a.peak = std::max<uint32_t>(a.peak, in[base + size_t(x)]);
        }
        a.sum_w += sw;
        a.sum_wx += swx;
        a.sum_wy += sw * uint64_t(y);
      }
    }
  // Area filter: dropped components become background, the rest are renumbered 1..count.
  std::vector<int32_t> final_label(size_t(fg.count) + 1, 0);
  int32_t n = 0;
  for (int32_t c = 1; c <= fg.count; ++c) {
    if (!keep_area(acc[size_t(c)].area, params)) continue;
    final_label[size_t(c)] = ++n;
    r.components.push_back(make_component(n, acc[size_t(c)], params.geometry, in != nullptr));
  }
  r.count = n;
  t_stats.stop();

  ScopedStageTimer t_write(r.times, "write_labels");
  r.labels = ImageI32(w, h, 0);
  parallel_chunks(h, threads, [&](int64_t y0, int64_t y1) {
    for (int64_t y = y0; y < y1; ++y)
      for (int32_t i = fg.run_rows[size_t(y)]; i < fg.run_rows[size_t(y) + 1]; ++i) {
        const Run& run = fg.runs[size_t(i)];
        const int32_t l = final_label[size_t(fg.comp[size_t(i)])];
        if (l) std::fill(r.labels.row(int(y)) + run.x0, r.labels.row(int(y)) + run.x1 + 1, l);
      }
  });
  return r;
}

}  // namespace sweepline::ccl
