#include "app/sim/sim_source.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/common/check.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/sim/scene.hpp"

namespace sweepline {

namespace {

using Clock = std::chrono::steady_clock;

// At most this many radials per poll, so one poll never blocks for long (~10 ms at 4096 cells).
constexpr int kMaxRadialsPerPoll = 512;

class SimSource final : public RecordSource, public ReplayControl {
 public:
  SimSource(const std::string& uri, const SourceOptions& options)
      : uri_(uri),
        s_(sim::parse_sim_uri(uri)),
        scene_(s_),
        producer_(s_),
        speed_(options.speed),
        loop_(options.loop),
        last_(Clock::now()) {
    SWL_CHECK(options.speed >= 0 && std::isfinite(options.speed), "sim: replay speed must be >= 0");
    rows_.resize(size_t(kMaxRadialsPerPoll) * size_t(s_.radar.cells));
  }

  bool poll(std::vector<cat240::Record>& out) override {
    if (ended_) return false;
    const size_t start_size = out.size();
    const auto now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    const int n = s_.radar.radials;
    int budget = 0;  // radials to deliver in this poll
    const bool stepping = step_left_ > 0;
    if (stepping) {
      budget = std::min(step_left_, kMaxRadialsPerPoll);
      step_left_ -= budget;
    } else if (!paused_) {
      if (speed_ == 0) {
        budget = kMaxRadialsPerPoll;
      } else {
        // Simulated clock: radial k of the run is due at k / n periods.
        clock_ += wall * speed_;
        const double due = std::floor(clock_ / s_.radar.period_s() * n);
        const double have = double(emitted_);
        budget = int(std::clamp(due - have, 0.0, double(kMaxRadialsPerPoll)));
        // After a stall (debugger, slow consumer), do not try to catch up more than a poll.
        if (due - have > 4.0 * n) clock_ = have / n * s_.radar.period_s();
      }
    }
    while (budget > 0 && !ended_) {
      if (next_radial_ == 0) {
        if (!start_rotation()) break;
        const double t = sim::kSimEpoch + double(scene_.rotation()) * s_.radar.period_s();
        out.push_back(producer_.summary(scene_.rotation(), t));
        ++records_;
      }
      const int count = std::min(budget, n - next_radial_);
      scene_.render(next_radial_, count, rows_.data());
      const double t0 = sim::kSimEpoch + double(scene_.rotation()) * s_.radar.period_s();
      for (int i = 0; i < count; ++i) {
        const int a = next_radial_ + i;
        const double t = t0 + double(a) / n * s_.radar.period_s();
        const size_t before = out.size();
        producer_.radial(a, rows_.data() + size_t(i) * size_t(s_.radar.cells), t, out, true);
        for (size_t k = before; k < out.size(); ++k) bytes_ += out[k].cells.size();
        records_ += out.size() - before;
      }
      next_radial_ += count;
      emitted_ += uint64_t(count);
      budget -= count;
      if (next_radial_ == n) {
        next_radial_ = 0;
        rotation_done_ = true;
      }
    }
    // A step moves the clock with it, so that resuming does not wait for the stepped time.
    if (stepping) clock_ = double(emitted_) / n * s_.radar.period_s();
    return !ended_ || out.size() > start_size;
  }

  SourceStatus status() const override {
    SourceStatus st;
    st.uri = uri_;
    st.state = ended_ ? "ended" : paused_ ? "paused" : "running";
    st.records = records_;
    st.datagrams = records_;
    st.bytes = bytes_;
    st.bytes_per_s = speed_ > 0 ? double(s_.radar.cells) * s_.radar.radials / s_.radar.period_s() *
                                      speed_ * s_.radar.res_bits / 8
                                : 0;
    return st;
  }

  ReplayControl* replay() override { return this; }

  // ReplayControl
  void set_paused(bool p) override { paused_ = p; }
  bool paused() const override { return paused_; }
  void set_speed(double f) override {
    SWL_CHECK(f >= 0 && std::isfinite(f), "sim: replay speed must be >= 0");
    speed_ = f;
  }
  double speed() const override { return speed_; }
  void step_rotation() override {
    // The rest of the rotation in progress, or a whole one at a rotation boundary.
    step_left_ = s_.radar.radials - next_radial_;
  }
  void seek_rotation(uint64_t n) override {
    if (s_.rotations > 0) n = std::min(n, s_.rotations - 1);
    scene_.seek(n);
    rotation_done_ = false;
    next_radial_ = 0;
    step_left_ = 0;
    ended_ = false;
    emitted_ = n * uint64_t(s_.radar.radials);
    clock_ = double(n) * s_.radar.period_s();
  }
  uint64_t rotation_count() const override { return s_.rotations; }
  void set_loop(bool l) override { loop_ = l; }
  bool loop() const override { return loop_; }

 private:
  // Moves the scene to the rotation about to be sent; false when the source ends here.
  bool start_rotation() {
    if (!rotation_done_) return true;  // the first rotation, or right after a seek
    rotation_done_ = false;
    if (s_.rotations > 0 && scene_.rotation() + 1 >= s_.rotations) {
      if (!loop_) {
        ended_ = true;
        return false;
      }
      scene_.seek(0);
      return true;
    }
    scene_.next_rotation();
    return true;
  }

  std::string uri_;
  sim::Scenario s_;
  sim::Scene scene_;
  sim::RadialProducer producer_;
  double speed_ = 1;
  bool loop_ = true;
  bool paused_ = false;
  bool ended_ = false;
  bool rotation_done_ = false;  // the scene's rotation has been sent completely
  int next_radial_ = 0;
  int step_left_ = 0;
  uint64_t emitted_ = 0;  // radials sent since the start (pacing)
  double clock_ = 0;      // simulated seconds since the start
  Clock::time_point last_;
  std::vector<uint8_t> rows_;
  uint64_t records_ = 0, bytes_ = 0;
};

}  // namespace

std::unique_ptr<RecordSource> open_sim_source(const std::string& uri,
                                              const SourceOptions& options) {
  return std::make_unique<SimSource>(uri, options);
}

}  // namespace sweepline
