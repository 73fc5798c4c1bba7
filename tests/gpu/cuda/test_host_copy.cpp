// copy_for_upload (the pipeline's staging copy with streaming stores) against memcpy, at every
// alignment of both ends and at sizes around its 16-byte head and 64-byte blocks. Host only:
// runs without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "gpu/cuda/host_copy.hpp"

namespace sweepline::gpu::cuda {
namespace {

TEST(HostCopy, StreamingCopyEqualsMemcpyAtEveryAlignmentAndSize) {
  std::mt19937 rng(7);
  std::vector<uint8_t> src(4096 + 64), dst(4096 + 64), want(4096 + 64);
  for (auto& b : src) b = uint8_t(rng());
  for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(16), size_t(17), size_t(63), size_t(64),
                   size_t(65), size_t(127), size_t(128), size_t(200), size_t(4000)})
    for (size_t so = 0; so < 16; ++so)
      for (size_t d_off = 0; d_off < 16; ++d_off) {
        std::fill(dst.begin(), dst.end(), uint8_t(0xA5));
        want = dst;
        std::memcpy(want.data() + d_off, src.data() + so, n);
        copy_for_upload(dst.data() + d_off, src.data() + so, n);
        ASSERT_EQ(dst, want) << "n " << n << " src offset " << so << " dst offset " << d_off;
      }
}

}  // namespace
}  // namespace sweepline::gpu::cuda
