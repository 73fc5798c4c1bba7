#include "app/engine/label_identities.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "gpu/point_grid.hpp"

namespace sweepline::engine {

namespace {

// A component matches a previous one whose centroid lies within this many of its sizes (and at
// least kMinMatchPx): a ship moves a few pixels a frame, and a blob that grows keeps its place.
constexpr double kMatchSizes = 1.5;
constexpr double kMinMatchPx = 6.0;
constexpr double kCellPx = 32.0;  // the match grid's cell
// New identities count up from here back to 1 (a colour is a hash of the identity, so a reused
// number only repeats a colour; a console left running for days must not overflow).
constexpr int32_t kIdWrap = int32_t(1) << 30;

}  // namespace

void LabelIdentities::reset() {
  previous_.clear();
  ids_.assign(1, 0);
  next_id_ = 1;
}

const std::vector<int32_t>& LabelIdentities::update(const std::vector<ccl::Component>& components) {
  int32_t max_label = 0;
  for (const ccl::Component& c : components) max_label = std::max(max_label, c.label);
  std::vector<Blob> now;
  now.reserve(components.size());
  for (const ccl::Component& c : components)
    if (c.label > 0 && c.area > 0) now.push_back({c.cx, c.cy, std::sqrt(double(c.area)), c.label});
  // The biggest first: a blob that split keeps its identity on its larger part.
  std::vector<size_t> order(now.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return now[a].size > now[b].size || (now[a].size == now[b].size && now[a].id < now[b].id);
  });
  // The previous frame's blobs in a grid, so that a match looks only nearby (thousands of
  // clutter components a frame).
  gpu::PointGrid grid(kCellPx);
  for (size_t j = 0; j < previous_.size(); ++j) grid.add(previous_[j].x, previous_[j].y, j);
  std::vector<bool> taken(previous_.size(), false);
  ids_.assign(size_t(max_label) + 1, 0);
  std::vector<Blob> next;
  next.reserve(now.size());
  std::vector<size_t> fresh;  // indices into `now` of the components that matched nothing
  for (size_t k : order) {
    const Blob& b = now[k];
    const double limit = std::max(kMinMatchPx, kMatchSizes * b.size);
    int64_t best = -1;
    double best_d = limit;
    grid.any_within(b.x, b.y, limit, [&](size_t j) {
      if (taken[j]) return false;
      const double d = std::hypot(previous_[j].x - b.x, previous_[j].y - b.y);
      // Nearest first; on a tie the earlier of the previous frame's blobs.
      if (d < best_d || (d == best_d && (best < 0 || int64_t(j) < best))) {
        best_d = d;
        best = int64_t(j);
      }
      return false;  // look at every candidate
    });
    if (best < 0) {
      fresh.push_back(k);
      continue;
    }
    taken[size_t(best)] = true;
    const int32_t id = previous_[size_t(best)].id;
    ids_[size_t(b.id)] = id;  // b.id is still the frame's label here
    next.push_back({b.x, b.y, b.size, id});
  }
  // A new component takes its own label as its identity when no carried one holds it (so the
  // first frame's colours are the labeller's), else one past every identity given so far.
  std::unordered_set<int32_t> used;
  used.reserve(next.size() + fresh.size());
  for (const Blob& b : next) used.insert(b.id);
  std::sort(fresh.begin(), fresh.end(), [&](size_t a, size_t b) { return now[a].id < now[b].id; });
  for (size_t k : fresh) {
    int32_t id = now[k].id;
    while (used.count(id)) {
      if (next_id_ >= kIdWrap) next_id_ = 1;
      id = next_id_++;
    }
    used.insert(id);
    next_id_ = std::max(next_id_, id + 1);
    ids_[size_t(now[k].id)] = id;
    next.push_back({now[k].x, now[k].y, now[k].size, id});
  }
  previous_ = std::move(next);
  return ids_;
}

}  // namespace sweepline::engine
