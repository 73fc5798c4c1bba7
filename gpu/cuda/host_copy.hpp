#pragma once
// The host copy that feeds an upload: a frame's rows into the pinned buffer that the next
// host-to-device copy reads.
#include <cstddef>
#include <cstdint>

namespace sweepline::gpu::cuda {

// memcpy(dst, src, n) with non-temporal (streaming) stores where the CPU has them (x86-64), so
// that the copied lines go to memory instead of staying dirty in the CPU's caches, where the
// device's DMA read would have to fetch them from (docs/decisions/0017-upload-staging.md).
// Plain memcpy elsewhere.
void copy_for_upload(uint8_t* dst, const uint8_t* src, size_t n);

}  // namespace sweepline::gpu::cuda
