#pragma once
// The papers' CUDA labelling algorithms on the product's workspace (gpu/cuda/ccl_kernels.hpp):
// `kang` (papers 000/001) and the numbering and statistics that `kang` and `propagate` share,
// where every on pixel has a forest entry (the product's `fast` numbers per tile instead).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/ccl/ccl.hpp"
#include "gpu/cuda/ccl_kernels.hpp"

namespace sweepline::gpu::reference {

using cuda::ccl_detail::StageEvents;
using cuda::ccl_detail::Workspace;

// `kang` (ccl_kang.cu): leaves the forest with every component rooted at its minimum raster
// index and kang's own count (Alg. 5) in count[2].
void kang_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev);
// kang's bounding boxes (Alg. 6, Alg. 7 or plain atomics) from the final labels.
void kang_boxes(const Workspace& ws, ccl::BoxMethod method, cudaStream_t stream);

// The shared numbering (ccl_reference_finish.cu), over a forest whose roots are the minimum
// raster index: root bits and per-block counts, ids in raster order, then the labels with the
// statistics reduced per warp before any global atomic.
void root_flags(const Workspace& ws, cudaStream_t stream);
// root_ymin: a component's ymin is its root's row (not for kang, whose box kernels find it).
// weighted: an intensity image is given (else sum_w and peak are not kept).
void assign_ids(const Workspace& ws, bool root_ymin, bool weighted, cudaStream_t stream);
// boxes: the statistics include the bounding boxes (kang's come from kang_boxes).
void finalize(const Workspace& ws, const uint8_t* d_intensity, bool boxes, cudaStream_t stream);
// The area filter's renumbering over every pixel (after cuda::ccl_detail::area_filter_ids).
void remap_labels(const Workspace& ws, cudaStream_t stream);

}  // namespace sweepline::gpu::reference
