#pragma once
// Move-only owners of CUDA resources: device memory, pinned host memory, streams, events.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda/cuda_check.hpp"

namespace sweepline::gpu::cuda {

namespace detail {

// Where a buffer's memory comes from.
struct DeviceMemory {
  static cudaError_t allocate(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
  static cudaError_t release(void* p) { return cudaFree(p); }
};
struct PinnedMemory {
  static cudaError_t allocate(void** p, size_t bytes) { return cudaMallocHost(p, bytes); }
  static cudaError_t release(void* p) { return cudaFreeHost(p); }
};

// n elements of T from Memory, reallocated only when the size changes.
template <class T, class Memory>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t n) { resize(n); }
  ~Buffer() { release(); }
  Buffer(Buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Reallocates only when the size changes (contents are then undefined).
  void resize(size_t n) {
    if (n == n_) return;
    release();
    if (n > 0) SWL_CUDA_CHECK(Memory::allocate(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    n_ = n;
  }
  T* get() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

 private:
  void release() noexcept {
    if (p_) SWL_CUDA_CHECK_NOTHROW(Memory::release(p_));
    p_ = nullptr;
    n_ = 0;
  }
  T* p_ = nullptr;
  size_t n_ = 0;
};

// A handle H destroyed by Destroy; created by the derived class.
template <class H, cudaError_t (*Destroy)(H)>
class Handle {
 public:
  ~Handle() {
    if (h_) SWL_CUDA_CHECK_NOTHROW(Destroy(h_));
  }
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&&) = delete;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  H get() const { return h_; }

 protected:
  Handle() = default;
  H h_ = nullptr;
};

}  // namespace detail

template <class T>
using DeviceBuffer = detail::Buffer<T, detail::DeviceMemory>;
template <class T>
using PinnedBuffer = detail::Buffer<T, detail::PinnedMemory>;

// Non-blocking: it does not wait for work on the legacy default stream (cudaMemcpy, cudaMemset).
class Stream : public detail::Handle<cudaStream_t, cudaStreamDestroy> {
 public:
  Stream() { SWL_CUDA_CHECK(cudaStreamCreateWithFlags(&h_, cudaStreamNonBlocking)); }
};

class Event : public detail::Handle<cudaEvent_t, cudaEventDestroy> {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    SWL_CUDA_CHECK(cudaEventCreateWithFlags(&h_, flags));
  }
};

}  // namespace sweepline::gpu::cuda
