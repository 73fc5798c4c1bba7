#pragma once
// A fixed pool of worker threads for data-parallel loops over rows. parallel_for blocks until
// every chunk has run; an exception in a chunk is rethrown in the caller.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sweepline::gpu {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads = 0);  // 0: hardware concurrency
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return unsigned(workers_.size()) + 1; }
  // Calls fn(begin, end) over [0, n) in contiguous chunks, on the workers and the caller.
  void parallel_for(int n, const std::function<void(int, int)>& fn);

 private:
  void worker_loop();
  bool run_one_chunk();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, int)>* fn_ = nullptr;
  int n_ = 0, chunk_ = 1, next_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace sweepline::gpu
