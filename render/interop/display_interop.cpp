#include "render/interop/display_interop.hpp"

// GL types must be declared before cuda_gl_interop.h pulls in its own GL header.
#include <GL/glew.h>
#include <cuda_gl_interop.h>

#include <string>
#include <utility>

#include "app/common/check.hpp"

namespace sweepline::render::interop {

namespace {

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    SWL_CHECK(false, std::string(what) + ": " + cudaGetErrorString(e));
  }
}

void cuda_check_nothrow(cudaError_t e, const char* what) noexcept {
  SWL_CHECK_NOTHROW(e == cudaSuccess, std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

RegisteredTexture::RegisteredTexture(GLuint texture, unsigned flags) {
  cuda_check(cudaGraphicsGLRegisterImage(&resource_, texture, GL_TEXTURE_2D, flags),
             "cudaGraphicsGLRegisterImage");
}

RegisteredTexture::~RegisteredTexture() {
  release();
}

RegisteredTexture::RegisteredTexture(RegisteredTexture&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)) {}

RegisteredTexture& RegisteredTexture::operator=(RegisteredTexture&& o) noexcept {
  if (this != &o) {
    release();
    resource_ = std::exchange(o.resource_, nullptr);
  }
  return *this;
}

void RegisteredTexture::release() noexcept {
  if (resource_)
    cuda_check_nothrow(cudaGraphicsUnregisterResource(resource_), "cudaGraphicsUnregisterResource");
  resource_ = nullptr;
}

DisplayInterop::DisplayInterop(const DisplayTextures& textures) {
  for (int i = 0; i < kLayerCount; ++i) {
    names_[size_t(i)] = textures.texture(Layer(i));
    registered_[size_t(i)] =
        RegisteredTexture(names_[size_t(i)], cudaGraphicsRegisterFlagsSurfaceLoadStore);
    // The pipeline rewrites every pixel each frame: CUDA need not preserve the old contents.
    cuda_check(cudaGraphicsResourceSetMapFlags(registered_[size_t(i)].get(),
                                               cudaGraphicsMapFlagsWriteDiscard),
               "cudaGraphicsResourceSetMapFlags");
  }
}

DisplayInterop::~DisplayInterop() {
  // The whole device, not the last mapping's stream: that stream belongs to a pipeline which a
  // backend switch may already have destroyed (its destructor has then drained it).
  if (mapped_) cuda_check_nothrow(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  destroy_surfaces(0, kLayerCount);
}

bool DisplayInterop::matches(const DisplayTextures& textures) const {
  for (int i = 0; i < kLayerCount; ++i)
    if (names_[size_t(i)] != textures.texture(Layer(i))) return false;
  return true;
}

void DisplayInterop::destroy_surfaces(int first, int count) noexcept {
  for (int i = first; i < first + count; ++i) {
    cudaSurfaceObject_t& s = surfaces_[size_t(i)];
    if (s) cuda_check_nothrow(cudaDestroySurfaceObject(s), "cudaDestroySurfaceObject");
    s = 0;
  }
}

DisplayInterop::Mapping DisplayInterop::map(cudaStream_t stream, Layers layers) {
  static_assert(int(Layer::Labels) == kLayerCount - 1, "the label layer comes last");
  const int first = layers == Layers::Images ? 0 : int(Layer::Labels);
  const int count = layers == Layers::Images ? int(Layer::Labels) : 1;
  destroy_surfaces(first, count);
  mapped_ = true;
  cudaGraphicsResource_t res[kLayerCount];
  for (int i = 0; i < count; ++i) res[i] = registered_[size_t(first + i)].get();
  cuda_check(cudaGraphicsMapResources(count, res, stream), "cudaGraphicsMapResources");
  // From here on the destructor unmaps, also if a step below throws.
  Mapping m(this, stream, first, count);
  unsigned long long* out[kLayerCount] = {&m.targets_.scan, &m.targets_.denoised,
                                          &m.targets_.binary, &m.targets_.label_colour};
  for (int i = first; i < first + count; ++i) {
    cudaArray_t array = nullptr;
    cuda_check(cudaGraphicsSubResourceGetMappedArray(&array, res[i - first], 0, 0),
               "cudaGraphicsSubResourceGetMappedArray");
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    cuda_check(cudaCreateSurfaceObject(&surfaces_[size_t(i)], &desc), "cudaCreateSurfaceObject");
    *out[i] = surfaces_[size_t(i)];
  }
  return m;
}

DisplayInterop::Mapping::Mapping(Mapping&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)),
      stream_(o.stream_),
      first_(o.first_),
      count_(o.count_),
      targets_(o.targets_) {}

DisplayInterop::Mapping::~Mapping() {
  if (!owner_) return;
  cudaGraphicsResource_t res[kLayerCount];
  for (int i = 0; i < count_; ++i) res[i] = owner_->registered_[size_t(first_ + i)].get();
  cuda_check_nothrow(cudaGraphicsUnmapResources(count_, res, stream_),
                     "cudaGraphicsUnmapResources");
}

}  // namespace sweepline::render::interop
