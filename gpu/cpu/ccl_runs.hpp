#pragma once
// Run-based two-pass union-find over horizontal runs, strips of rows in parallel, then the seams.
// Used by the CPU labeller for the foreground and for the background (hole filling).
#include <cstdint>
#include <vector>

namespace sweepline::ccl::detail {

// One horizontal run of a row; its row is known from RunLabels::run_rows (8 bytes a run: an
// image of single-pixel runs holds w * h / 2 of them).
struct Run {
  int32_t x0 = 0, x1 = 0;  // x1 inclusive
};

struct RunLabels {
  std::vector<Run> runs;          // raster order
  std::vector<int32_t> run_rows;  // run_rows[y] = index of the first run of row y; size h + 1
  std::vector<int32_t> comp;      // per run: component 1..count, numbered in raster order
  int32_t count = 0;
};

// Labels the pixels of `mask` (0/1 bytes, w x h) equal to `value` with 4- or 8-connectivity.
RunLabels label_runs(const uint8_t* mask, int w, int h, uint8_t value, int connectivity,
                     int threads);

// Threads to use for an image of `rows` rows.
int cpu_threads(int rows);

// Runs fn(begin, end) over [0, n) split in `threads` contiguous chunks, in parallel.
template <class Fn>
void parallel_chunks(int64_t n, int threads, Fn&& fn);

}  // namespace sweepline::ccl::detail

#include <exception>
#include <thread>

template <class Fn>
void sweepline::ccl::detail::parallel_chunks(int64_t n, int threads, Fn&& fn) {
  if (threads <= 1 || n < 2) {
    fn(int64_t(0), n);
    return;
  }
  // The last chunk runs on the calling thread: one thread fewer to start (each start costs tens of
  // microseconds, milliseconds on a loaded machine) and the caller does not sit idle.
  std::vector<std::thread> pool;
  for (int t = 0; t + 1 < threads; ++t) {
    int64_t b = n * t / threads, e = n * (t + 1) / threads;
    if (b < e) pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  const int64_t last = n * (threads - 1) / threads;
  std::exception_ptr err;
  try {
    if (last < n) fn(last, n);
  } catch (...) {
    err = std::current_exception();  // rethrown once the started threads have joined
  }
  for (auto& th : pool) th.join();
  if (err) std::rethrow_exception(err);
}
