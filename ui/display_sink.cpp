#include "ui/display_sink.hpp"

#include <spdlog/spdlog.h>

#ifdef SWEEPLINE_HAVE_INTEROP
#include "gpu/cuda/cuda_pipeline.hpp"
#include "render/interop/display_interop.hpp"
#endif

namespace sweepline::ui {

#ifdef SWEEPLINE_HAVE_INTEROP
struct DisplaySink::Interop {
  std::unique_ptr<render::interop::DisplayInterop> registered;
};
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

void DisplaySink::run(gpu::Pipeline& pipeline, const PolarFrame& frame,
                      const gpu::PipelineParams& params, StageTimes& times) {
  const bool resized = tex_.ensure(params.width, params.height);
#ifdef SWEEPLINE_HAVE_INTEROP
  if (pipeline.backend() == gpu::Backend::Cuda) {
    auto* cuda = dynamic_cast<gpu::cuda::CudaPipeline*>(&pipeline);
    SWL_CHECK(cuda, "the CUDA backend is not a CudaPipeline");
    if (!interop_) interop_ = std::make_unique<Interop>();
    try {
      if (resized || !interop_->registered || !interop_->registered->matches(tex_))
        interop_->registered = std::make_unique<render::interop::DisplayInterop>(tex_);
    } catch (const Error& e) {
      interop_.reset();
      throw InteropUnavailable(std::string("CUDA-GL interop refused: ") + e.what());
    }
    ScopedStageTimer t(times, "interop map");
    {
      // Mapped only for the frame's CUDA work; the mapping unmaps on the pipeline's stream
      // (ordered after the frame, no host wait) before GL samples the textures.
      auto mapping = interop_->registered->map(cuda->stream());
      t.stop();
      cuda->process(frame, params, mapping.targets());
    }
    if (!params.label_enabled) tex_.clear_labels();
    in_place_ = true;
    return;
  }
#else
  (void)resized;
#endif
  // Synchronous CPU path (the app uses PipelineWorker + upload() instead; kept for callers that
  // run a pipeline directly, such as tests).
  pipeline.process(frame, params);
  ScopedStageTimer t(times, "upload");
  const Image8 scan = pipeline.scan_image();
  const Image8 denoised = pipeline.denoised_image();
  const Image8 binary = pipeline.binary_image();
  const ImageI32 labels = params.label_enabled ? pipeline.label_image() : ImageI32{};
  tex_.upload(&scan, &denoised, &binary, labels.empty() ? nullptr : &labels);
  if (labels.empty()) tex_.clear_labels();
}

void DisplaySink::upload(const PipelineWorker::Output& out, StageTimes& times) {
  tex_.ensure(out.params.width, out.params.height);
  ScopedStageTimer t(times, "upload");
  tex_.upload(&out.scan, &out.denoised, &out.binary, out.labels.empty() ? nullptr : &out.labels);
  if (out.labels.empty()) tex_.clear_labels();
  in_place_ = false;
}

}  // namespace sweepline::ui
