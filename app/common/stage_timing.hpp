#pragma once
// Per-stage timings of one frame, in the order the stages ran. CUDA events on the GPU, a steady
// clock on the CPU.
#include <chrono>
#include <string>
#include <vector>

namespace sweepline {

struct StageTime {
  std::string stage;
  double ms = 0;
};
using StageTimes = std::vector<StageTime>;

// Times one CPU stage: construct before, call stop() (or let it go out of scope) after.
class ScopedStageTimer {
 public:
  ScopedStageTimer(StageTimes& out, std::string stage)
      : out_(out), stage_(std::move(stage)), start_(std::chrono::steady_clock::now()) {}
  ~ScopedStageTimer() { stop(); }
  void stop() {
    if (stopped_) return;
    stopped_ = true;
    auto dt = std::chrono::steady_clock::now() - start_;
    out_.push_back({stage_, std::chrono::duration<double, std::milli>(dt).count()});
  }
  ScopedStageTimer(const ScopedStageTimer&) = delete;
  ScopedStageTimer& operator=(const ScopedStageTimer&) = delete;

 private:
  StageTimes& out_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
  bool stopped_ = false;
};

}  // namespace sweepline
