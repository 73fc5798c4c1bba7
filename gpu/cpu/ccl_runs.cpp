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
  struct Strip {
    int r0 = 0, r1 = 0;
    std::vector<Run> runs;
    std::vector<int32_t> parent;
    std::vector<int32_t> rows;  // local index of each row's first run
  };
  std::vector<Strip> strips(threads);
  for (int t = 0; t < threads; ++t) {
    strips[t].r0 = int(int64_t(h) * t / threads);
    strips[t].r1 = int(int64_t(h) * (t + 1) / threads);
  }
  // Pass 1, per strip: extract the runs and join each row to the one above inside the strip.
  parallel_chunks(threads, threads, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      Strip& s = strips[t];
      for (int y = s.r0; y < s.r1; ++y) {
        s.rows.push_back(int32_t(s.runs.size()));
        const uint8_t* row = mask + size_t(y) * size_t(w);
        int x = 0;
        while (x < w) {
          while (x < w && row[x] != value) ++x;
          if (x == w) break;
          int x0 = x;
          while (x < w && row[x] == value) ++x;
          s.runs.push_back({y, x0, x - 1});
        }
      }
      s.rows.push_back(int32_t(s.runs.size()));
      s.parent.resize(s.runs.size());
      for (size_t i = 0; i < s.parent.size(); ++i) s.parent[i] = int32_t(i);
      for (int y = s.r0 + 1; y < s.r1; ++y) {
        int k = y - s.r0;
        join_rows(s.runs.data(), s.parent.data(), s.rows[k - 1], s.rows[k], s.rows[k],
                  s.rows[k + 1], slack);
      }
    }
  });
  // Concatenate with global indices (parents stay <= their index).
  RunLabels out;
  std::vector<int32_t> offset(threads + 1, 0);
  for (int t = 0; t < threads; ++t) offset[t + 1] = offset[t] + int32_t(strips[t].runs.size());
  out.runs.resize(size_t(offset[threads]));
  std::vector<int32_t> parent(out.runs.size());
  out.run_rows.assign(size_t(h) + 1, 0);
  parallel_chunks(threads, threads, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      Strip& s = strips[t];
      int32_t off = offset[t];
      std::copy(s.runs.begin(), s.runs.end(), out.runs.begin() + off);
      for (size_t i = 0; i < s.parent.size(); ++i) parent[off + i] = off + s.parent[i];
      for (int y = s.r0; y < s.r1; ++y) out.run_rows[y] = off + s.rows[y - s.r0];
      std::vector<Run>().swap(s.runs);
    }
  });
  out.run_rows[h] = offset[threads];
  // Pass 2: the seams between strips.
  for (int t = 1; t < threads; ++t) {
    int y = strips[t].r0;
    if (y == 0 || y >= h) continue;
    join_rows(out.runs.data(), parent.data(), out.run_rows[y - 1], out.run_rows[y], out.run_rows[y],
              out.run_rows[y + 1], slack);
  }
  // Pass 3: number the roots in raster order; parent[i] < i for every non-root.
  out.comp.resize(out.runs.size());
  int32_t n = 0;
  for (size_t i = 0; i < out.runs.size(); ++i) {
    int32_t p = parent[i];
    out.comp[i] = (p == int32_t(i)) ? ++n : out.comp[size_t(p)];
  }
  out.count = n;
  return out;
}

}  // namespace sweepline::ccl::detail
