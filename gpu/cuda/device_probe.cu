#include <cuda_runtime.h>

#include <string>

#include "gpu/cuda/device_probe.hpp"

namespace sweepline::gpu::cuda {

std::string device_probe() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not poisoned
    return std::string("no usable CUDA device: ") + cudaGetErrorString(e);
  }
  if (n == 0) return "no CUDA device present";
  return {};
}

std::string device_description() {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return "unknown device";
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  return std::string(p.name) + ", sm_" + std::to_string(p.major) + std::to_string(p.minor) +
         ", driver " + std::to_string(drv / 1000) + "." + std::to_string(drv % 1000 / 10) +
         ", runtime " + std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10);
}

}  // namespace sweepline::gpu::cuda
