#pragma once
// Device helpers shared by more than one CUDA labelling file (`fast`'s finish and the reference
// algorithms' numbering in gpu/reference): the statistics slots' identities.
#include <cuda_runtime.h>

#include "gpu/cuda/ccl_kernels.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

constexpr unsigned kFull = 0xffffffffu;

// The statistics of spanning component k (Stats::rec) back to the identities of min/max/sum,
// with its top row: one whole sector for the record, and without st.area nothing else (SpanWord),
// else four words in the arrays.
__device__ __forceinline__ void reset_spanning_record(const Stats& st, int64_t k, uint32_t ymin) {
  uint4* r = reinterpret_cast<uint4*>(st.rec + kRecordWords * k);
  if (!st.area) {  // all in the record (SpanWord)
    r[0] = make_uint4(kSpanFlag | ymin, 0xffffffffu, 0u, 0u);
    r[1] = make_uint4(0u, 0u, 0u, 0u);
    return;
  }
  r[0] = make_uint4(kRecSpanning, ymin, 0u, 0u);
  r[1] = make_uint4(0u, 0u, 0u, 0u);
  st.area[k] = 0;
  st.xmin[k] = 0xffffffffu;
  st.xmax[k] = 0;
  st.ymax[k] = 0;
}

// Statistics slot k back to the identities of min/max/sum (ymin is the caller's: some know it).
__device__ __forceinline__ void reset_stats_slot(const Stats& st, int64_t k, bool weighted) {
  st.xmin[k] = 0xffffffffu;
  st.xmax[k] = 0;
  st.ymax[k] = 0;
  st.area[k] = weighted ? 0u : kSums64;  // unweighted: the sums are the 64-bit ones
  st.sum_wx[k] = 0;
  st.sum_wy[k] = 0;
  if (weighted) {
    st.sum_w[k] = 0;
    st.peak[k] = 0;
  }
}

// Spanning component k's statistics (either layout) back to the identities, with its top row.
__device__ __forceinline__ void reset_spanning(const Stats& st, int64_t k, uint32_t ymin,
                                               bool weighted) {
  if (st.rec) {
    reset_spanning_record(st, k, ymin);
    return;
  }
  reset_stats_slot(st, k, weighted);
  st.ymin[k] = ymin;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
