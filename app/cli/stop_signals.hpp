#pragma once
// SIGINT and SIGTERM as a stop request for the long-running commands (`sim --udp`, `view`,
// `record`): the first signal sets a flag that the command's loops poll, so they stop at the next
// check, flush and close what they write, print their summary and return (docs/decisions/0043);
// a second signal ends the process at once (the default action), for a loop that is stuck.
//
// No signal handler and no global state: the two signals are blocked in the calling thread (and
// so in every thread it starts afterwards) and read from a signalfd by a thread of this object.
// Construct it before the command starts any thread: a thread started earlier keeps the default
// action and may be the one the kernel picks. Destruction restores the previous signal mask.
#include <signal.h>

#include <atomic>
#include <thread>

#include "app/net/unique_fd.hpp"

namespace sweepline::cli {

class StopSignals {
 public:
  // Throws sweepline::Error when the signalfd cannot be created.
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Set by the first SIGINT or SIGTERM; what the loops poll (library code takes it as a
  // `const std::atomic<bool>*` and knows nothing of signals).
  const std::atomic<bool>& flag() const { return stop_; }
  bool requested() const { return stop_.load(std::memory_order_relaxed); }
  // The signal that asked to stop (SIGINT, SIGTERM), 0 before one arrived.
  int signal_number() const { return signo_.load(); }
  // "SIGINT", "SIGTERM" or "" (for summaries).
  const char* signal_name() const;

 private:
  void watch();

  std::atomic<bool> stop_{false};
  std::atomic<int> signo_{0};
  net::UniqueFd signal_fd_;
  net::UniqueFd wake_fd_;  // eventfd: ends the watcher at destruction
  sigset_t saved_mask_{};
  std::thread watcher_;
};

}  // namespace sweepline::cli
