#pragma once
// Device memory that the L2 may hold compressed ("compute data compression", sm_80 and later):
// a frame of labels that is mostly zeros (a radar frame) then costs far less DRAM traffic than
// its 64 MB. Allocated through the driver's virtual memory API, reached with
// cudaGetDriverEntryPointByVersion so that nothing links libcuda.
#include <cstddef>

namespace sweepline::gpu::cuda {

// Owns one compressible allocation (move-only). Empty when the device, the driver or the
// allocation refused: the caller then falls back to cudaMalloc.
class CompressibleMemory {
 public:
  CompressibleMemory() = default;
  ~CompressibleMemory();
  CompressibleMemory(CompressibleMemory&& o) noexcept;
  CompressibleMemory& operator=(CompressibleMemory&& o) noexcept;
  CompressibleMemory(const CompressibleMemory&) = delete;
  CompressibleMemory& operator=(const CompressibleMemory&) = delete;

  // At least `bytes` on the current device, or empty (no exception) when compression is not
  // available there.
  static CompressibleMemory allocate(size_t bytes);

  void* get() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  // Whether the driver granted compression (it may hand out plain memory instead).
  bool compressed() const { return compressed_; }

 private:
  void release() noexcept;
  void* ptr_ = nullptr;
  size_t size_ = 0;  // mapped bytes (a multiple of the allocation granularity)
  bool compressed_ = false;
};

}  // namespace sweepline::gpu::cuda
