#include "ui/display_sink.hpp"

#include <string>

#ifdef SWEEPLINE_HAVE_INTEROP
#include "render/interop/display_interop.hpp"
#endif

namespace sweepline::ui {

#ifdef SWEEPLINE_HAVE_INTEROP
struct DisplaySink::Interop {
  std::unique_ptr<render::interop::DisplayInterop> registered;
};

namespace {

// One frame's mapping of the registered textures; ending it unmaps them on the stream.
class InteropLease final : public engine::SurfaceLease {
 public:
  InteropLease(render::interop::DisplayInterop::Mapping mapping, render::DisplayTextures& tex)
      : mapping_(std::move(mapping)), tex_(tex) {}
  // CUDA wrote the textures in place: a picture drawn from them before is out of date.
  ~InteropLease() override { tex_.mark_written(); }
  const gpu::DisplayTargets& targets() const override { return mapping_.targets(); }

 private:
  render::interop::DisplayInterop::Mapping mapping_;
  render::DisplayTextures& tex_;
};

}  // namespace

bool interop_built() {
  return true;
}
#else
struct DisplaySink::Interop {};
bool interop_built() {
  return false;
}
#endif

DisplaySink::DisplaySink(render::DisplayTextures& textures) : tex_(textures) {}
DisplaySink::~DisplaySink() = default;

std::unique_ptr<engine::SurfaceLease> DisplaySink::map_surfaces(const gpu::Pipeline& pipeline,
                                                                int width, int height, bool labels,
                                                                StageTimes& times) {
#ifdef SWEEPLINE_HAVE_INTEROP
  if (pipeline.backend() != gpu::Backend::Cuda) return nullptr;
  const bool resized = tex_.ensure(width, height);
  // GL must not touch a texture while CUDA has it mapped: clear the unused label layer first.
  if (!labels) tex_.clear_labels();
  if (!interop_) interop_ = std::make_unique<Interop>();
  try {
    if (resized || !interop_->registered || !interop_->registered->matches(tex_))
      interop_->registered = std::make_unique<render::interop::DisplayInterop>(tex_);
  } catch (const Error& e) {
    interop_.reset();
    throw engine::DisplayUnavailable(std::string("CUDA-GL interop refused: ") + e.what());
  }
  ScopedStageTimer t(times, "interop map");
  // Mapped on the pipeline's stream, so the unmap (when the lease ends) is ordered after the
  // frame's kernels without a host wait, and GL sees the new pixels.
  return std::make_unique<InteropLease>(
      interop_->registered->map(static_cast<cudaStream_t>(pipeline.native_stream()),
                                render::interop::DisplayInterop::Layers::Images),
      tex_);
#else
  (void)pipeline, (void)width, (void)height, (void)labels, (void)times;
  return nullptr;
#endif
}

std::unique_ptr<engine::SurfaceLease> DisplaySink::map_label_surface(
    const gpu::Pipeline& pipeline) {
#ifdef SWEEPLINE_HAVE_INTEROP
  SWL_CHECK(pipeline.backend() == gpu::Backend::Cuda && interop_ && interop_->registered &&
                interop_->registered->matches(tex_),
            "label colours: the display textures are not mapped for this pipeline");
  return std::make_unique<InteropLease>(
      interop_->registered->map(static_cast<cudaStream_t>(pipeline.native_stream()),
                                render::interop::DisplayInterop::Layers::Labels),
      tex_);
#else
  (void)pipeline;
  SWL_CHECK(false, "label colours: this build has no CUDA-GL interop");
  return nullptr;
#endif
}

void DisplaySink::present(const engine::HostImages& images, StageTimes& times) {
  tex_.ensure(images.scan.width, images.scan.height);
  ScopedStageTimer t(times, "upload");
  tex_.upload(&images.scan, &images.denoised, &images.binary,
              images.labels.empty() ? nullptr : &images.labels, &images.label_ids);
  if (images.labels.empty()) tex_.clear_labels();
}

}  // namespace sweepline::ui
