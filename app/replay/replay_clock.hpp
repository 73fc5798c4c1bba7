#pragma once
// The clock replay pacing reads; tests inject a manual one so pacing is fast and deterministic.
#include <chrono>

namespace sweepline::replay {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double now_s() const = 0;  // monotonic seconds, any origin
};

class SteadyClock : public Clock {
 public:
  double now_s() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

class ManualClock : public Clock {
 public:
  double now_s() const override { return t_; }
  void advance(double dt) { t_ += dt; }
  void set(double t) { t_ = t; }

 private:
  double t_ = 1000.0;
};

}  // namespace sweepline::replay
