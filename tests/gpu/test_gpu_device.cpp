#include <gtest/gtest.h>

#include "tests/support/gpu_skip.hpp"
#ifdef SWEEPLINE_HAVE_CUDA
#include "gpu/cuda/device_probe.hpp"
#endif

TEST(GpuDevice, DescribesTheDevice) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  std::string d = sweepline::gpu::cuda::device_description();
  EXPECT_NE(d.find("sm_"), std::string::npos) << d;
  std::printf("CUDA device: %s\n", d.c_str());
#endif
}
