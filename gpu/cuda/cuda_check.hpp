#pragma once
// CUDA error checks: SWL_CUDA_CHECK throws sweepline::Error with the call and the runtime's
// message; SWL_CUDA_CHECK_NOTHROW logs (for destructors).
#include <cuda_runtime_api.h>

#include <string>

#include "app/common/check.hpp"

// `report(file, line, message)` when `call` does not return cudaSuccess.
#define SWL_CUDA_CHECK_REPORT(call, report)                                                 \
  do {                                                                                      \
    const cudaError_t swl_err_ = (call);                                                    \
    if (swl_err_ != cudaSuccess)                                                            \
      report(__FILE__, __LINE__, std::string(#call) + ": " + cudaGetErrorString(swl_err_)); \
  } while (0)

#define SWL_CUDA_CHECK(call) SWL_CUDA_CHECK_REPORT(call, ::sweepline::throw_error)
#define SWL_CUDA_CHECK_NOTHROW(call) SWL_CUDA_CHECK_REPORT(call, ::sweepline::log_error_nothrow)

// After a kernel launch: launch-configuration errors surface here, not at the next sync.
#define SWL_CUDA_CHECK_LAUNCH() SWL_CUDA_CHECK(cudaGetLastError())
