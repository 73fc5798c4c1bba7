#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "tests/support/gpu_skip.hpp"
#ifdef SWEEPLINE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "gpu/cuda/compressible_memory.hpp"
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

TEST(GpuDevice, CompressibleMemoryHoldsWhatIsWritten) {
  SWL_SKIP_WITHOUT_CUDA();
#ifdef SWEEPLINE_HAVE_CUDA
  using sweepline::gpu::cuda::CompressibleMemory;
  // Not a multiple of any granularity; zeros (what compresses) and a pattern (what does not).
  const size_t n = (size_t(3) << 20) + 12345;
  CompressibleMemory m = CompressibleMemory::allocate(n);
  if (!m) GTEST_SKIP() << "this device or driver offers no compressible memory";
  std::printf("compressible memory granted with compression: %s\n",
              m.compressed() ? "yes" : "no (plain)");
  std::vector<uint8_t> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = i < n / 2 ? 0 : uint8_t(i * 2654435761u >> 24);
  ASSERT_EQ(cudaMemcpy(m.get(), h.data(), n, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(static_cast<uint8_t*>(m.get()) + 100, 0x5a, 1000), cudaSuccess);
  for (size_t i = 100; i < 1100; ++i) h[i] = 0x5a;
  // Moving hands the mapping over; the moved-from owner is empty and frees nothing.
  CompressibleMemory moved = std::move(m);
  EXPECT_FALSE(m);
  std::vector<uint8_t> back(n, 1);
  ASSERT_EQ(cudaMemcpy(back.data(), moved.get(), n, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(back == h);
  EXPECT_FALSE(CompressibleMemory::allocate(0));
#endif
}
