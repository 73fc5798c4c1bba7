#pragma once
// Where the engine's processed frames go, seen from the engine: an interface that the console
// implements with its GL textures (ui/display_sink.hpp), so that the engine never includes GL.
// A frame reaches the display one of two ways, chosen per frame by the port:
//   - in place: map_surfaces() hands device surfaces that the pipeline writes during the frame
//     (CUDA-GL interop: no copy through the host), and once the frame is collected
//     map_label_surface() the label colours' surface, which the pipeline colours through the
//     engine's label identities (gpu::Pipeline::colour_labels);
//   - host images: map_surfaces() returns null, the engine asks the pipeline for host copies of
//     the images and hands them to present() once the frame is collected (the CPU backend).
#include <memory>
#include <vector>

#include "app/common/check.hpp"
#include "app/common/image.hpp"
#include "app/common/stage_timing.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::engine {

// Thrown by map_surfaces() when the display cannot take a device backend's frames in place
// (interop refused, no GL-capable CUDA device for this context): the engine switches to the CPU
// backend and says why.
class DisplayUnavailable : public Error {
 public:
  using Error::Error;
};

// A finished frame's images on the host (W x H), for the display to upload.
struct HostImages {
  Image8 scan, denoised, binary;
  ImageI32 labels;  // empty when labelling is off
  // The identity of each label (index: label), from app/engine/label_identities.hpp: the
  // display colours label l as gpu::identity_colour(label_ids, l).
  std::vector<int32_t> label_ids;
  bool empty() const { return scan.empty(); }
};

// Device surfaces mapped for one frame. Ending the lease unmaps them, ordered after the frame's
// device work on the pipeline's stream (no host wait).
class SurfaceLease {
 public:
  virtual ~SurfaceLease() = default;
  virtual const gpu::DisplayTargets& targets() const = 0;
};

class DisplayPort {
 public:
  virtual ~DisplayPort() = default;
  // Called on the engine's thread before the frame is processed. Surfaces of `width` x
  // `height` for `pipeline` to write the frame's images in place (scan, denoised, binary), or
  // null when this display takes that pipeline's frames as host images. `labels`: whether the
  // frame will colour the label layer (when not, the display clears it). Appends the display's
  // own host time ("interop map") to `times`. Throws DisplayUnavailable when the in-place path
  // was refused.
  virtual std::unique_ptr<SurfaceLease> map_surfaces(const gpu::Pipeline& pipeline, int width,
                                                     int height, bool labels,
                                                     StageTimes& times) = 0;
  // After an in-place frame was collected: the label colours' surface (targets().label_colour)
  // for `pipeline` to write in place, the same size. Throws on a device failure.
  virtual std::unique_ptr<SurfaceLease> map_label_surface(const gpu::Pipeline& pipeline) = 0;
  // A collected frame's host images, on the engine's thread. Appends "upload" to `times`.
  virtual void present(const HostImages& images, StageTimes& times) = 0;
};

}  // namespace sweepline::engine
