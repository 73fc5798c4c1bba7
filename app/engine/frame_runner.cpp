#include "app/engine/frame_runner.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

namespace sweepline::engine {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

HostImages copy_images(gpu::Pipeline& p, const gpu::PipelineParams& params) {
  HostImages im;
  im.scan = p.scan_image();
  im.denoised = p.denoised_image();
  im.binary = p.binary_image();
  if (params.label_enabled) im.labels = p.label_image();
  return im;
}

// The CPU backend on a thread of its own, so that the window keeps drawing at its frame rate
// while a frame is computed. One job at a time.
class ThreadedRunner final : public FrameRunner {
 public:
  explicit ThreadedRunner(std::unique_ptr<gpu::Pipeline> pipeline)
      : pipeline_(std::move(pipeline)), thread_([this] { loop(); }) {}
  ~ThreadedRunner() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  const gpu::Pipeline& pipeline() const override { return *pipeline_; }
  bool threaded() const override { return true; }
  void colour_labels(const std::vector<int32_t>&, const gpu::DisplayTargets&) override {}

  bool busy() const override {
    std::lock_guard lock(mutex_);
    return has_job_ || running_ || done_.has_value();
  }

  bool submit(const PolarFrame& frame, const gpu::PipelineParams& params,
              const gpu::DisplayTargets*, bool host_images) override {
    {
      std::lock_guard lock(mutex_);
      if (has_job_ || running_ || done_) return false;
      frame_ = frame;
      params_ = params;
      host_images_ = host_images;
      has_job_ = true;
    }
    cv_.notify_all();
    return true;
  }

  std::optional<Output> poll() override {
    std::lock_guard lock(mutex_);
    return std::exchange(done_, std::nullopt);
  }

  std::optional<Output> wait() override {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !has_job_ && !running_; });
    return std::exchange(done_, std::nullopt);
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || has_job_; });
      if (stop_) return;
      has_job_ = false;
      running_ = true;
      // frame_ and params_ are this thread's until running_ drops: submit() refuses meanwhile.
      lock.unlock();
      Output out;
      out.params = params_;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        pipeline_->process(frame_, params_);
        out.result = pipeline_->result();
        if (host_images_) out.images = copy_images(*pipeline_, params_);
      } catch (const std::exception& e) {
        out.error = e.what();
      }
      out.ms = ms_since(t0);
      lock.lock();
      done_ = std::move(out);
      running_ = false;
      cv_.notify_all();
    }
  }

  std::unique_ptr<gpu::Pipeline> pipeline_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool has_job_ = false;
  bool running_ = false;
  bool host_images_ = false;
  PolarFrame frame_;
  gpu::PipelineParams params_;
  std::optional<Output> done_;
  std::thread thread_;
};

// A device backend on the caller's thread: process() enqueues the frame and returns; the frame
// is collected once result_ready() reports it finished, so the caller never waits on the device.
class InlineRunner final : public FrameRunner {
 public:
  explicit InlineRunner(std::unique_ptr<gpu::Pipeline> pipeline) : pipeline_(std::move(pipeline)) {}

  const gpu::Pipeline& pipeline() const override { return *pipeline_; }
  bool threaded() const override { return false; }
  void colour_labels(const std::vector<int32_t>& ids, const gpu::DisplayTargets& targets) override {
    SWL_CHECK(!busy(), "label colours: a frame is still in flight");
    pipeline_->colour_labels(ids, targets);
  }
  bool busy() const override { return in_flight_ || failed_.has_value(); }

  bool submit(const PolarFrame& frame, const gpu::PipelineParams& params,
              const gpu::DisplayTargets* targets, bool host_images) override {
    if (busy()) return false;
    params_ = params;
    host_images_ = host_images;
    try {
      pipeline_->process(frame, params, targets);
      in_flight_ = true;
    } catch (const std::exception& e) {
      failed_ = Output{};
      failed_->params = params;
      failed_->error = e.what();
    }
    return true;
  }

  std::optional<Output> poll() override {
    if (failed_) return std::exchange(failed_, std::nullopt);
    if (!in_flight_) return std::nullopt;
    try {
      if (!pipeline_->result_ready()) return std::nullopt;
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    return finish();
  }

  std::optional<Output> wait() override {
    if (failed_) return std::exchange(failed_, std::nullopt);
    if (!in_flight_) return std::nullopt;
    return finish();  // result() waits for the device
  }

 private:
  Output fail(const std::string& why) {
    in_flight_ = false;
    Output out;
    out.params = params_;
    out.error = why;
    return out;
  }

  Output finish() {
    Output out;
    out.params = params_;
    try {
      out.result = pipeline_->result();
      if (host_images_) out.images = copy_images(*pipeline_, params_);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    in_flight_ = false;
    // The top-level stages' events are recorded back to back on the stream, so their sum is the
    // device's span over the frame; "stage:part" entries are sub-stages inside them.
    for (const StageTime& st : out.result.times)
      if (st.stage.find(':') == std::string::npos) out.ms += st.ms;
    return out;
  }

  std::unique_ptr<gpu::Pipeline> pipeline_;
  gpu::PipelineParams params_;
  bool host_images_ = false;
  bool in_flight_ = false;
  std::optional<Output> failed_;  // process() threw: returned by the next poll() or wait()
};

}  // namespace

std::unique_ptr<FrameRunner> make_frame_runner(std::unique_ptr<gpu::Pipeline> pipeline) {
  if (pipeline->backend() == gpu::Backend::Cpu)
    return std::make_unique<ThreadedRunner>(std::move(pipeline));
  return std::make_unique<InlineRunner>(std::move(pipeline));
}

}  // namespace sweepline::engine
