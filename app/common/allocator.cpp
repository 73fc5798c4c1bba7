#include "app/common/allocator.hpp"

#include <malloc.h>

namespace sweepline {

void keep_frame_memory() {
  // 32 MiB is glibc's largest mmap threshold (half its per-thread heap); the trim threshold
  // lets a worker thread's heap keep what its last frame freed.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace sweepline
