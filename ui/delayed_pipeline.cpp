#include "ui/delayed_pipeline.hpp"

#include <chrono>
#include <thread>
#include <utility>

namespace sweepline::ui {

namespace {

class DelayedPipeline final : public gpu::Pipeline {
 public:
  DelayedPipeline(std::unique_ptr<gpu::Pipeline> inner, int delay_ms)
      : inner_(std::move(inner)), delay_(delay_ms) {}
  gpu::Backend backend() const override { return inner_->backend(); }
  void process(const PolarFrame& frame, const gpu::PipelineParams& params,
               const gpu::DisplayTargets* targets) override {
    const auto until = std::chrono::steady_clock::now() + delay_;
    inner_->process(frame, params, targets);
    std::this_thread::sleep_until(until);
  }
  const gpu::FrameResult& result() override { return inner_->result(); }
  bool result_ready() override { return inner_->result_ready(); }
  void* native_stream() const override { return inner_->native_stream(); }
  void colour_labels(const std::vector<int32_t>& ids, const gpu::DisplayTargets& t) override {
    inner_->colour_labels(ids, t);
  }
  Image8 scan_image() override { return inner_->scan_image(); }
  Image8 denoised_image() override { return inner_->denoised_image(); }
  Image8 binary_image() override { return inner_->binary_image(); }
  ImageI32 label_image() override { return inner_->label_image(); }

 private:
  std::unique_ptr<gpu::Pipeline> inner_;
  std::chrono::milliseconds delay_;
};

}  // namespace

std::unique_ptr<gpu::Pipeline> make_delayed_pipeline(std::unique_ptr<gpu::Pipeline> inner,
                                                     int delay_ms) {
  if (delay_ms <= 0) return inner;
  return std::make_unique<DelayedPipeline>(std::move(inner), delay_ms);
}

}  // namespace sweepline::ui
