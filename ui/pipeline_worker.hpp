#pragma once
// Runs a (CPU) pipeline on its own thread so that the window keeps drawing at its frame rate
// while a frame is being processed: the UI submits a copy of the polar frame and picks up the
// finished images and components on a later frame. One job at a time; the newest data wins.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "gpu/pipeline.hpp"

namespace sweepline::ui {

class PipelineWorker {
 public:
  struct Output {
    gpu::FrameResult result;
    gpu::PipelineParams params;
    Image8 scan, denoised, binary;
    ImageI32 labels;    // empty when labelling is off
    std::string error;  // the pipeline threw: nothing else is valid
    double ms = 0;      // wall time of process() and the image copies
  };

  explicit PipelineWorker(std::unique_ptr<gpu::Pipeline> pipeline);
  ~PipelineWorker();  // waits for the job in progress, then joins
  PipelineWorker(const PipelineWorker&) = delete;
  PipelineWorker& operator=(const PipelineWorker&) = delete;

  bool busy() const;
  // Starts a job on a copy of `frame`; only when not busy (returns false otherwise).
  bool submit(const PolarFrame& frame, const gpu::PipelineParams& params);
  // The finished job's output, once.
  std::optional<Output> take();
  void wait_idle();

 private:
  void loop();

  std::unique_ptr<gpu::Pipeline> pipeline_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool has_job_ = false;
  bool running_ = false;
  PolarFrame frame_;
  gpu::PipelineParams params_;
  std::optional<Output> done_;
  std::thread thread_;
};

}  // namespace sweepline::ui
