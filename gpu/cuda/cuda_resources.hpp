#pragma once
// Move-only owners of CUDA resources (device memory, pinned host memory, streams, events).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda/cuda_check.hpp"

namespace sweepline::gpu::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) { resize(n); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : d_(std::exchange(o.d_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      d_ = std::exchange(o.d_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // Reallocates only when the size changes (contents are then undefined).
  void resize(size_t n) {
    if (n == n_) return;
    release();
    if (n > 0) SWL_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_), n * sizeof(T)));
    n_ = n;
  }
  T* get() const { return d_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

 private:
  void release() noexcept {
    if (d_) SWL_CUDA_CHECK_NOTHROW(cudaFree(d_));
    d_ = nullptr;
    n_ = 0;
  }
  T* d_ = nullptr;
  size_t n_ = 0;
};

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() { release(); }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : h_(std::exchange(o.h_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      h_ = std::exchange(o.h_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void resize(size_t n) {
    if (n == n_) return;
    release();
    if (n > 0) SWL_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_), n * sizeof(T)));
    n_ = n;
  }
  T* get() const { return h_; }
  size_t size() const { return n_; }

 private:
  void release() noexcept {
    if (h_) SWL_CUDA_CHECK_NOTHROW(cudaFreeHost(h_));
    h_ = nullptr;
    n_ = 0;
  }
  T* h_ = nullptr;
  size_t n_ = 0;
};

class Stream {
 public:
  Stream() { SWL_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_) SWL_CUDA_CHECK_NOTHROW(cudaStreamDestroy(s_));
  }
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    SWL_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags));
  }
  ~Event() {
    if (e_) SWL_CUDA_CHECK_NOTHROW(cudaEventDestroy(e_));
  }
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace sweepline::gpu::cuda
