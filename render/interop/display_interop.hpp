#pragma once
// CUDA-GL interop for the display textures (built only with CUDA). The four textures are
// registered once (cudaGraphicsGLRegisterImage with SurfaceLoadStore, so kernels write them
// through surface objects) by move-only owners; map() maps them on the pipeline's stream just
// around the frame's CUDA work and the returned Mapping unmaps them on the same stream, so the
// unmap is ordered after the kernels without a host wait and GL draws see the new pixels.
#include <cuda_runtime_api.h>

#include <array>

#include "gpu/pipeline.hpp"
#include "render/display_textures.hpp"

struct cudaGraphicsResource;

namespace sweepline::render::interop {

// One registered GL texture. Unregisters in the destructor (errors logged, never thrown).
class RegisteredTexture {
 public:
  RegisteredTexture() = default;
  RegisteredTexture(GLuint texture, unsigned flags);  // throws sweepline::Error with CUDA's reason
  ~RegisteredTexture();
  RegisteredTexture(RegisteredTexture&& o) noexcept;
  RegisteredTexture& operator=(RegisteredTexture&& o) noexcept;
  RegisteredTexture(const RegisteredTexture&) = delete;
  RegisteredTexture& operator=(const RegisteredTexture&) = delete;
  cudaGraphicsResource* get() const { return resource_; }

 private:
  void release() noexcept;
  cudaGraphicsResource* resource_ = nullptr;
};

class DisplayInterop {
 public:
  explicit DisplayInterop(const DisplayTextures& textures);  // registers all four
  ~DisplayInterop();
  DisplayInterop(const DisplayInterop&) = delete;
  DisplayInterop& operator=(const DisplayInterop&) = delete;

  // True while `textures` still holds the very names registered here (not reallocated).
  bool matches(const DisplayTextures& textures) const;

  class Mapping {
   public:
    ~Mapping();  // unmaps on the stream (non-throwing)
    Mapping(Mapping&& o) noexcept;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping& operator=(Mapping&&) = delete;
    const gpu::DisplayTargets& targets() const { return targets_; }

   private:
    friend class DisplayInterop;
    Mapping(DisplayInterop* owner, cudaStream_t stream) : owner_(owner), stream_(stream) {}
    DisplayInterop* owner_;
    cudaStream_t stream_;
    gpu::DisplayTargets targets_;
  };
  // Maps the four textures on `stream` and makes surface objects for them.
  Mapping map(cudaStream_t stream);

 private:
  void destroy_surfaces() noexcept;
  std::array<GLuint, kLayerCount> names_{};
  std::array<RegisteredTexture, kLayerCount> registered_;
  // Surface objects of the previous mapping. They are destroyed at the next map(): the engine
  // maps again only after it has collected that frame (Pipeline::result_ready()), so no kernel
  // still uses them.
  std::array<cudaSurfaceObject_t, kLayerCount> surfaces_{};
  bool mapped_ = false;  // map() was called: kernels may still write the surfaces
};

}  // namespace sweepline::render::interop
