#include "ui/pipeline_worker.hpp"

#include <chrono>
#include <utility>

namespace sweepline::ui {

PipelineWorker::PipelineWorker(std::unique_ptr<gpu::Pipeline> pipeline)
    : pipeline_(std::move(pipeline)), thread_([this] { loop(); }) {}

PipelineWorker::~PipelineWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

bool PipelineWorker::busy() const {
  std::lock_guard lock(mutex_);
  return has_job_ || running_;
}

bool PipelineWorker::submit(const PolarFrame& frame, const gpu::PipelineParams& params) {
  {
    std::lock_guard lock(mutex_);
    if (has_job_ || running_) return false;
    frame_ = frame;
    params_ = params;
    has_job_ = true;
  }
  cv_.notify_all();
  return true;
}

std::optional<PipelineWorker::Output> PipelineWorker::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, std::nullopt);
}

void PipelineWorker::wait_idle() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !has_job_ && !running_; });
}

void PipelineWorker::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || has_job_; });
    if (stop_) return;
    has_job_ = false;
    running_ = true;
    lock.unlock();  // frame_ and params_ are ours until running_ drops: submit() refuses meanwhile
    Output out;
    out.params = params_;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      pipeline_->process(frame_, params_);
      out.result = pipeline_->result();
      out.scan = pipeline_->scan_image();
      out.denoised = pipeline_->denoised_image();
      out.binary = pipeline_->binary_image();
      if (params_.label_enabled) out.labels = pipeline_->label_image();
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    out.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    lock.lock();
    done_ = std::move(out);
    running_ = false;
    cv_.notify_all();
  }
}

}  // namespace sweepline::ui
