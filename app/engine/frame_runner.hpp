#pragma once
// One frame at a time through a pipeline, for a caller that never has to wait: submit() hands a
// frame over, poll() returns it once it is done and never blocks, wait() blocks until it is
// (explicitly: headless runs and tests). How the frame runs depends on what the backend's
// process() does:
//   - threaded (the CPU backend, whose process() computes the whole frame before it returns):
//     process() runs on a thread of the runner's own; the frame is done when that thread is.
//   - inline (the CUDA backend, whose process() only enqueues device work): process() runs on
//     the caller's thread, where the display's surfaces are mapped, and the frame is done when
//     Pipeline::result_ready(), a non-blocking event query, says so.
// The engine drives both through this one interface: one frame path for both backends.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/engine/display_port.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::engine {

class FrameRunner {
 public:
  struct Output {
    gpu::FrameResult result;
    gpu::PipelineParams params;
    HostImages images;  // only when asked for at submit()
    std::string error;  // the pipeline threw: nothing else is valid
    // Threaded: wall time of process() and the image copies on the runner's thread. Inline: the
    // device's span over the frame's stages (their events are recorded back to back).
    double ms = 0;
  };

  virtual ~FrameRunner() = default;
  // backend() and native_stream() only: constant for the pipeline's life, safe while it runs.
  virtual const gpu::Pipeline& pipeline() const = 0;
  // Whether this runner runs process() on a thread of its own (targets are then ignored).
  virtual bool threaded() const = 0;
  // A frame was submitted and has not been taken by poll() or wait() yet.
  virtual bool busy() const = 0;
  // Starts a frame; false (and nothing done) when busy. Threaded: works on a copy of `frame`
  // and ignores `targets` (they would be written after the caller unmapped them). Inline:
  // process() runs now, writing `targets`; its error comes back through poll(). `host_images`:
  // also copy the images to the host once the frame is done (a display without surfaces).
  virtual bool submit(const PolarFrame& frame, const gpu::PipelineParams& params,
                      const gpu::DisplayTargets* targets, bool host_images) = 0;
  // The finished frame, once; never waits (nullopt while it runs or when none was submitted).
  virtual std::optional<Output> poll() = 0;
  // Waits for the frame in flight and returns it (nullopt when none was submitted).
  virtual std::optional<Output> wait() = 0;
  // Inline only, after the frame was taken and before the next submit(): its label colours into
  // targets.label_colour in place (gpu::Pipeline::colour_labels). Threaded: nothing (its
  // frames reach the display as host images).
  virtual void colour_labels(const std::vector<int32_t>& ids,
                             const gpu::DisplayTargets& targets) = 0;
};

// Threaded for the CPU backend, inline for a device backend.
std::unique_ptr<FrameRunner> make_frame_runner(std::unique_ptr<gpu::Pipeline> pipeline);

}  // namespace sweepline::engine
