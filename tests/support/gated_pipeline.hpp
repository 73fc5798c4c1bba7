#pragma once
// A CPU pipeline whose process() holds until a Gate is released from another thread: for tests
// that the engine's caller never waits on processing.
#include <condition_variable>
#include <memory>
#include <mutex>

#include "gpu/backend/make_pipeline.hpp"

namespace sweepline::test {

struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  void release() {
    {
      std::lock_guard l(m);
      open = true;
    }
    cv.notify_all();
  }
};

class GatedCpuPipeline final : public gpu::Pipeline {
 public:
  explicit GatedCpuPipeline(std::shared_ptr<Gate> g)
      : g_(std::move(g)), inner_(gpu::make_pipeline(gpu::Backend::Cpu)) {}
  gpu::Backend backend() const override { return gpu::Backend::Cpu; }
  void process(const PolarFrame& f, const gpu::PipelineParams& p,
               const gpu::DisplayTargets* t) override {
    std::unique_lock l(g_->m);
    g_->cv.wait(l, [&] { return g_->open; });
    inner_->process(f, p, t);
  }
  const gpu::FrameResult& result() override { return inner_->result(); }
  Image8 scan_image() override { return inner_->scan_image(); }
  Image8 denoised_image() override { return inner_->denoised_image(); }
  Image8 binary_image() override { return inner_->binary_image(); }
  ImageI32 label_image() override { return inner_->label_image(); }

 private:
  std::shared_ptr<Gate> g_;
  std::unique_ptr<gpu::Pipeline> inner_;
};

}  // namespace sweepline::test
