#include "gpu/cuda/compressible_memory.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/cuda/cuda_check.hpp"

namespace sweepline::gpu::cuda {

namespace {

// The driver calls this file needs, looked up once through the runtime (no libcuda link).
struct DriverCalls {
  decltype(&cuDeviceGetAttribute) device_attribute = nullptr;
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) address_free = nullptr;
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemGetAllocationPropertiesFromHandle) properties = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) set_access = nullptr;
  bool ok = false;
};

template <class F>
bool lookup(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || !p)
    return false;
  fn = reinterpret_cast<F>(p);
  return true;
}

const DriverCalls& driver() {
  static const DriverCalls calls = [] {
    DriverCalls d;
    d.ok = lookup("cuDeviceGetAttribute", d.device_attribute) &&
           lookup("cuMemGetAllocationGranularity", d.granularity) &&
           lookup("cuMemAddressReserve", d.reserve) && lookup("cuMemAddressFree", d.address_free) &&
           lookup("cuMemCreate", d.create) &&
           lookup("cuMemGetAllocationPropertiesFromHandle", d.properties) &&
           lookup("cuMemRelease", d.release) && lookup("cuMemMap", d.map) &&
           lookup("cuMemUnmap", d.unmap) && lookup("cuMemSetAccess", d.set_access);
    return d;
  }();
  return calls;
}

}  // namespace

CompressibleMemory CompressibleMemory::allocate(size_t bytes) {
  CompressibleMemory m;
  const DriverCalls& d = driver();
  int dev = 0;
  if (!d.ok || bytes == 0 || cudaGetDevice(&dev) != cudaSuccess) return m;
  int supported = 0;
  if (d.device_attribute(&supported, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev) !=
          CUDA_SUCCESS ||
      !supported)
    return m;
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
  size_t gran = 0;
  if (d.granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS || !gran)
    return m;
  const size_t size = (bytes + gran - 1) / gran * gran;
  CUdeviceptr va = 0;
  if (d.reserve(&va, size, 0, 0, 0) != CUDA_SUCCESS) return m;
  CUmemGenericAllocationHandle handle = 0;
  if (d.create(&handle, size, &prop, 0) != CUDA_SUCCESS) {
    d.address_free(va, size);
    return m;
  }
  // The driver may grant plain memory (for example when the compression carve-out is used up):
  // that is still correct, only not compressed.
  CUmemAllocationProp granted{};
  const bool compressed = d.properties(&granted, handle) == CUDA_SUCCESS &&
                          granted.allocFlags.compressionType == CU_MEM_ALLOCATION_COMP_GENERIC;
  const bool mapped = d.map(va, size, 0, handle, 0) == CUDA_SUCCESS;
  d.release(handle);  // the mapping keeps the memory alive
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (!mapped || d.set_access(va, size, &access, 1) != CUDA_SUCCESS) {
    if (mapped) d.unmap(va, size);
    d.address_free(va, size);
    return m;
  }
  m.ptr_ = reinterpret_cast<void*>(va);
  m.size_ = size;
  m.compressed_ = compressed;
  return m;
}

void CompressibleMemory::release() noexcept {
  if (!ptr_) return;
  const DriverCalls& d = driver();
  // Pending work may still use the range: unmapping does not wait for it.
  SWL_CUDA_CHECK_NOTHROW(cudaDeviceSynchronize());
  const CUresult unmapped = d.unmap(reinterpret_cast<CUdeviceptr>(ptr_), size_);
  const CUresult freed = d.address_free(reinterpret_cast<CUdeviceptr>(ptr_), size_);
  if (unmapped != CUDA_SUCCESS || freed != CUDA_SUCCESS)
    log_error_nothrow(__FILE__, __LINE__, "compressible memory: unmapping or freeing failed");
  ptr_ = nullptr;
  size_ = 0;
  compressed_ = false;
}

CompressibleMemory::~CompressibleMemory() {
  release();
}

CompressibleMemory::CompressibleMemory(CompressibleMemory&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      compressed_(std::exchange(o.compressed_, false)) {}

CompressibleMemory& CompressibleMemory::operator=(CompressibleMemory&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = std::exchange(o.ptr_, nullptr);
    size_ = std::exchange(o.size_, 0);
    compressed_ = std::exchange(o.compressed_, false);
  }
  return *this;
}

}  // namespace sweepline::gpu::cuda
