#include "gpu/cpu/ccl_runs.hpp"

#include <algorithm>
#include <thread>

namespace sweepline::ccl::detail {

namespace {

// Union-find whose root is always the smallest index: parent[i] <= i holds throughout, so one
// forward pass numbers the components in raster order of their first run.
inline int32_t find(int32_t* parent, int32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

inline void unite(int32_t* parent, int32_t a, int32_t b) {
  a = find(parent, a);
  b = find(parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

// Joins the runs [cur_b, cur_e) of one row with the overlapping runs [prev_b, prev_e) of the row
// above; with 8-connectivity runs that touch diagonally overlap by one column of slack.
void join_rows(const Run* runs, int32_t* parent, int32_t prev_b, int32_t prev_e, int32_t cur_b,
               int32_t cur_e, int slack) {
  int32_t p = prev_b;
  for (int32_t c = cur_b; c < cur_e; ++c) {
    while (p < prev_e && runs[p].x1 + slack < runs[c].x0) ++p;
    for (int32_t q = p; q < prev_e && runs[q].x0 <= runs[c].x1 + slack; ++q) unite(parent, c, q);
  }
}

}  // namespace

int cpu_threads(int rows) {
  int hw = int(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min(hw, rows / 32));
}

RunLabels label_runs(const uint8_t* mask, int w, int h, uint8_t value, int connectivity,
                     int threads) {
  const int slack = connectivity == 8 ? 1 : 0;
  threads = std::max(1, std::min(threads, h));
  std::vector<int> r0(size_t(threads) + 1);
  for (int t = 0; t <= threads; ++t) r0[size_t(t)] = int(int64_t(h) * t / threads);
  // Pass 1, per strip: count the runs, so that every strip then writes its runs and parents
  // straight into the one global array (no per-strip copies: an image of single-pixel runs, the
  // worst case, holds w * h / 2 of them).
  std::vector<int64_t> offset(size_t(threads) + 1, 0);
  parallel_chunks(threads, threads, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      int64_t n = 0;
      for (int y = r0[size_t(t)]; y < r0[size_t(t) + 1]; ++y) {
        const uint8_t* row = mask + size_t(y) * size_t(w);
        bool in = false;
        for (int x = 0; x < w; ++x) {
          const bool on = row[x] == value;
          n += on && !in;
          in = on;
        }
      }
      offset[size_t(t) + 1] = n;
    }
  });
  for (int t = 0; t < threads; ++t) offset[size_t(t) + 1] += offset[size_t(t)];
  RunLabels out;
  out.runs.resize(size_t(offset[size_t(threads)]));
  // Indices are int32: at most w * h / 2 runs, and validate() keeps w * h below 2^31.
  std::vector<int32_t> parent(out.runs.size());
  out.run_rows.assign(size_t(h) + 1, 0);
  // Pass 2, per strip: extract the runs and join each row to the one above inside the strip.
  parallel_chunks(threads, threads, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      int32_t k = int32_t(offset[size_t(t)]);
      for (int y = r0[size_t(t)]; y < r0[size_t(t) + 1]; ++y) {
        out.run_rows[size_t(y)] = k;
        const uint8_t* row = mask + size_t(y) * size_t(w);
        int x = 0;
        while (x < w) {
          while (x < w && row[x] != value) ++x;
          if (x == w) break;
          int x0 = x;
          while (x < w && row[x] == value) ++x;
          out.runs[size_t(k)] = {x0, x - 1};
          parent[size_t(k)] = k;
          ++k;
        }
      }
      for (int y = r0[size_t(t)] + 1; y < r0[size_t(t) + 1]; ++y) {
        const int32_t row_end = y + 1 < r0[size_t(t) + 1] ? out.run_rows[size_t(y) + 1] : k;
        join_rows(out.runs.data(), parent.data(), out.run_rows[size_t(y) - 1],
                  out.run_rows[size_t(y)], out.run_rows[size_t(y)], row_end, slack);
      }
    }
  });
  out.run_rows[size_t(h)] = int32_t(offset[size_t(threads)]);
  // Pass 3: the seams between strips.
  for (int t = 1; t < threads; ++t) {
    const int y = r0[size_t(t)];
    if (y == 0 || y >= h) continue;
    join_rows(out.runs.data(), parent.data(), out.run_rows[size_t(y) - 1], out.run_rows[size_t(y)],
              out.run_rows[size_t(y)], out.run_rows[size_t(y) + 1], slack);
  }
  // Pass 4: number the roots in raster order, in place: parent[i] < i for every non-root, and
  // slot parent[i] already holds that run's component when run i is reached.
  int32_t n = 0;
  for (size_t i = 0; i < parent.size(); ++i) {
    const int32_t p = parent[i];
    parent[i] = (p == int32_t(i)) ? ++n : parent[size_t(p)];
  }
  out.comp = std::move(parent);
  out.count = n;
  return out;
}

}  // namespace sweepline::ccl::detail
