#include "gpu/cpu/thread_pool.hpp"

#include <algorithm>
#include <cstdint>

namespace sweepline::gpu {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

// Takes the next chunk and runs it outside the lock; false when none is left.
bool ThreadPool::run_one_chunk() {
  int begin, end;
  const std::function<void(int, int)>* fn;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fn_ == nullptr || next_ >= n_) return false;
    begin = next_;
    end = std::min(n_, begin + chunk_);
    next_ = end;
    fn = fn_;
  }
  std::exception_ptr err;
  try {
    (*fn)(begin, end);
  } catch (...) {
    err = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (err && !error_) error_ = err;
    if (--pending_ == 0) done_.notify_all();
  }
  return true;
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || (generation_ != seen && fn_ && next_ < n_); });
      if (stop_) return;
      seen = generation_;
    }
    while (run_one_chunk()) {
    }
  }
}

void ThreadPool::parallel_for(int n, const std::function<void(int, int)>& fn) {
  if (n <= 0) return;
  if (workers_.empty()) {
    fn(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = &fn;
    n_ = n;
    // Several chunks per thread so that uneven rows (the display's corners past the range) even
    // out.
    chunk_ = std::max(1, n / int(size() * 8));
    next_ = 0;
    pending_ = (n + chunk_ - 1) / chunk_;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  while (run_one_chunk()) {
  }
  std::exception_ptr err;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    fn_ = nullptr;
    err = error_;
    error_ = nullptr;
  }
  if (err) std::rethrow_exception(err);
}

}  // namespace sweepline::gpu
