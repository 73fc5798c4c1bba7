#pragma once
// The console's side of the engine's display port (app/engine/display_port.hpp): the display
// textures. A device backend's frame is written in place through CUDA-GL interop (the textures
// mapped on the pipeline's stream only around the frame's device work, unmapped before GL draws
// them); the CPU backend's host images are uploaded with glTexSubImage2D. No frame path here:
// the engine decides when a frame is processed and collected.
#include <memory>

#include "app/engine/display_port.hpp"
#include "app/engine/engine.hpp"
#include "render/display_textures.hpp"

namespace sweepline::ui {

class DisplaySink final : public engine::DisplayPort {
 public:
  explicit DisplaySink(render::DisplayTextures& textures);
  ~DisplaySink() override;
  DisplaySink(const DisplaySink&) = delete;
  DisplaySink& operator=(const DisplaySink&) = delete;

  // Interop surfaces for a CUDA pipeline (null for the CPU, or in a build without interop).
  // Throws engine::DisplayUnavailable when CUDA refuses to register the textures.
  std::unique_ptr<engine::SurfaceLease> map_surfaces(const gpu::Pipeline& pipeline, int width,
                                                     int height, bool labels,
                                                     StageTimes& times) override;
  // The label texture mapped alone, for the collected frame's colours.
  std::unique_ptr<engine::SurfaceLease> map_label_surface(const gpu::Pipeline& pipeline) override;
  // glTexSubImage2D of a collected frame's images ("upload" stage).
  void present(const engine::HostImages& images, StageTimes& times) override;

 private:
  render::DisplayTextures& tex_;
  struct Interop;  // CUDA builds only
  std::unique_ptr<Interop> interop_;
};

// Whether this build can do CUDA-GL interop at all (CUDA compiled in).
bool interop_built();

}  // namespace sweepline::ui
