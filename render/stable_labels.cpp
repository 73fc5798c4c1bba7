#include "render/stable_labels.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "gpu/pipeline.hpp"

namespace sweepline::render {

namespace {

// A component matches a previous one whose centroid lies within this many of its sizes (and at
// least kMinMatchPx): a ship moves a few pixels a frame, and a blob that grows keeps its place.
constexpr double kMatchSizes = 1.5;
constexpr double kMinMatchPx = 6.0;
constexpr int kCellPx = 32;  // the match grid's cell

}  // namespace

const std::vector<int32_t>& StableLabels::update(const ImageI32& labels) {
  int32_t max_label = 0;
  for (int32_t l : labels.pixels) max_label = std::max(max_label, l);
  std::vector<double> sx(size_t(max_label) + 1, 0.0), sy(sx.size(), 0.0), n(sx.size(), 0.0);
  for (int y = 0; y < labels.height; ++y)
    for (int x = 0; x < labels.width; ++x) {
      const int32_t l = labels.pixels[size_t(y) * size_t(labels.width) + size_t(x)];
      if (l <= 0) continue;
      sx[size_t(l)] += x;
      sy[size_t(l)] += y;
      n[size_t(l)] += 1;
    }
  std::vector<Blob> now;
  for (int32_t l = 1; l <= max_label; ++l)
    if (n[size_t(l)] > 0)
      now.push_back(
          {sx[size_t(l)] / n[size_t(l)], sy[size_t(l)] / n[size_t(l)], std::sqrt(n[size_t(l)]), l});
  // The biggest first: a blob that split keeps its identity on its larger part.
  std::vector<size_t> order(now.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return now[a].size > now[b].size || (now[a].size == now[b].size && a < b);
  });
  std::vector<bool> taken(previous_.size(), false);
  // The previous frame's blobs in a grid, so that a match looks only nearby (thousands of clutter
  // components a frame).
  const int gw = labels.width / kCellPx + 1, gh = labels.height / kCellPx + 1;
  std::vector<std::vector<size_t>> grid(size_t(gw) * size_t(gh));
  auto cell_of = [&](double v, int n) { return std::clamp(int(v) / kCellPx, 0, n - 1); };
  for (size_t j = 0; j < previous_.size(); ++j)
    grid[size_t(cell_of(previous_[j].y, gh)) * size_t(gw) + size_t(cell_of(previous_[j].x, gw))]
        .push_back(j);
  ids_.assign(size_t(max_label) + 1, 0);
  std::vector<Blob> next;
  next.reserve(now.size());
  std::vector<int32_t> fresh;  // labels of this frame that matched nothing
  std::vector<bool> is_fresh(size_t(max_label) + 1, false);
  for (size_t k : order) {
    const Blob& b = now[k];
    const double limit = std::max(kMinMatchPx, kMatchSizes * b.size);
    int best = -1;
    double best_d = limit;
    const int reach = int(std::ceil(limit / kCellPx));
    const int cx = cell_of(b.x, gw), cy = cell_of(b.y, gh);
    for (int gy = std::max(cy - reach, 0); gy <= std::min(cy + reach, gh - 1); ++gy)
      for (int gx = std::max(cx - reach, 0); gx <= std::min(cx + reach, gw - 1); ++gx)
        for (size_t j : grid[size_t(gy) * size_t(gw) + size_t(gx)]) {
          if (taken[j]) continue;
          const double d = std::hypot(previous_[j].x - b.x, previous_[j].y - b.y);
          if (d < best_d || (d == best_d && best >= 0 && j < size_t(best)) ||
              (d == best_d && best < 0)) {
            best_d = d;
            best = int(j);
          }
        }
    if (best < 0) {
      fresh.push_back(b.id);
      is_fresh[size_t(b.id)] = true;
      continue;
    }
    taken[size_t(best)] = true;
    const int32_t id = previous_[size_t(best)].id;
    ids_[size_t(b.id)] = id;  // b.id is still the frame's label here
    next.push_back({b.x, b.y, b.size, id});
  }
  // A new component takes its own label as its identity when no carried one holds it (so the
  // first frame's colours are the labeller's), else one past every identity given so far.
  std::set<int32_t> used;
  for (const Blob& b : next) used.insert(b.id);
  for (int32_t label : fresh) {
    int32_t id = label;
    while (used.count(id)) id = next_id_++;
    used.insert(id);
    next_id_ = std::max(next_id_, id + 1);
    ids_[size_t(label)] = id;
  }
  for (const Blob& b : now)
    if (is_fresh[size_t(b.id)]) next.push_back({b.x, b.y, b.size, ids_[size_t(b.id)]});
  previous_ = std::move(next);
  return ids_;
}

void StableLabels::colours(const ImageI32& labels, std::vector<uint32_t>& rgba) const {
  rgba.resize(labels.pixels.size());
  for (size_t i = 0; i < rgba.size(); ++i) {
    const int32_t l = labels.pixels[i];
    rgba[i] = l > 0 && size_t(l) < ids_.size() ? gpu::label_colour(ids_[size_t(l)]) : 0u;
  }
}

}  // namespace sweepline::render
