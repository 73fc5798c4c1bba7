#pragma once
// Where a processed frame goes: the display textures. The CPU backend's images are uploaded with
// glTexSubImage2D; the CUDA backend writes the textures in place through CUDA-GL interop (mapped
// only around the frame's CUDA work, unmapped before GL draws).
#include <memory>
#include <string>

#include "app/common/check.hpp"
#include "app/common/stage_timing.hpp"
#include "gpu/pipeline.hpp"
#include "render/display_textures.hpp"
#include "ui/pipeline_worker.hpp"

namespace sweepline::ui {

// Thrown when the CUDA pipeline cannot write the display (interop refused, no GL-capable CUDA
// device for this context): the caller switches to the CPU backend and says why.
class InteropUnavailable : public Error {
 public:
  using Error::Error;
};

class DisplaySink {
 public:
  explicit DisplaySink(render::DisplayTextures& textures);
  ~DisplaySink();
  DisplaySink(const DisplaySink&) = delete;
  DisplaySink& operator=(const DisplaySink&) = delete;

  // Runs `pipeline` on `frame` and leaves the images in the textures. Appends the display's own
  // stage ("upload" or "interop") to `times`.
  void run(gpu::Pipeline& pipeline, const PolarFrame& frame, const gpu::PipelineParams& params,
           StageTimes& times);
  // CPU path: uploads a finished worker job's images with glTexSubImage2D ("upload" stage).
  void upload(const PipelineWorker::Output& out, StageTimes& times);
  // True once a CUDA frame went through interop (for the report and the status line).
  bool in_place() const { return in_place_; }

 private:
  render::DisplayTextures& tex_;
  bool in_place_ = false;
  struct Interop;  // CUDA builds only
  std::unique_ptr<Interop> interop_;
};

// Whether this build can do CUDA-GL interop at all (CUDA compiled in).
bool interop_built();

}  // namespace sweepline::ui
