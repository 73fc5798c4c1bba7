#pragma once
// CUDA-GL interop for the display textures (built only with CUDA). The four textures are
// registered once (cudaGraphicsGLRegisterImage with SurfaceLoadStore, so kernels write them
// through surface objects) by move-only owners; map() maps them on the pipeline's stream just
// around CUDA work and the returned Mapping unmaps them on the same stream, so the unmap is
// ordered after the kernels without a host wait and GL draws see the new pixels. The frame's
// images are mapped around the frame; the label colours apart, once the frame's components are
// in (the colours follow identities matched on the host: gpu::Pipeline::colour_labels).
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
    Mapping(DisplayInterop* owner, cudaStream_t stream, int first, int count)
        : owner_(owner), stream_(stream), first_(first), count_(count) {}
    DisplayInterop* owner_;
    cudaStream_t stream_;
    int first_, count_;  // the layers mapped
    gpu::DisplayTargets targets_;
  };
  // Which textures a mapping holds: the frame's images (scan, denoised, binary) or the label
  // colours.
  enum class Layers { Images, Labels };
  // Maps `layers` on `stream` and makes surface objects for them (the others stay 0 in the
  // targets).
  Mapping map(cudaStream_t stream, Layers layers);

 private:
  void destroy_surfaces(int first, int count) noexcept;
  std::array<GLuint, kLayerCount> names_{};
  std::array<RegisteredTexture, kLayerCount> registered_;
  // Surface objects of each layer's previous mapping. They are destroyed when that layer is
  // mapped again: the engine maps a layer again only after it has collected the next frame
  // (Pipeline::result_ready()), which the stream orders after every kernel that used them.
  std::array<cudaSurfaceObject_t, kLayerCount> surfaces_{};
  bool mapped_ = false;  // map() was called: kernels may still write the surfaces
};

}  // namespace sweepline::render::interop
