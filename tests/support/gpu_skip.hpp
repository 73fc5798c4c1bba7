#pragma once
// GPU tests skip cleanly, with the reason, where no CUDA device can be used.
#include <gtest/gtest.h>

#include "gpu/backend/cuda_availability.hpp"

#define SWL_SKIP_WITHOUT_CUDA()                                                     \
  do {                                                                              \
    if (auto reason = ::sweepline::gpu::cuda_unavailable_reason(); !reason.empty()) \
      GTEST_SKIP() << reason;                                                       \
  } while (0)
