// `kang`: papers 000/001 as written (with the digest's corrections). Phases: initLabel (Alg. 1),
// vertLabel per column (Alg. 2: every vertical run points to its bottom pixel), hierarchical
// mergeLabel (Alg. 3: log2(w) launches, comparing roots, the larger root wins), relabel (Alg. 4),
// countBlobs with atomicAdd (Alg. 5), bounding boxes by Alg. 6 (spin lock per box), Alg. 7 (lock
// per coordinate) or atomicMin/Max.
//
// Two departures, both needed for a correct partition: the merge's store label[min] = max is an
// atomicCAS retried on failure (two threads linking the same root in one launch would otherwise
// lose a union), and 8-connectivity also compares the diagonal pairs across each boundary.
// Our addition: "canonical" re-roots each component at its minimum index for the shared numbering
// (ccl_reference_finish.cu).
#include "gpu/cuda/ccl_device.cuh"
#include "gpu/reference/ccl_reference_kernels.hpp"

namespace sweepline::gpu::reference {

using namespace cuda::ccl_detail;

namespace {

// Follows parents to the root (a root is its own parent). Reads bypass L1: other threads write.
__device__ __forceinline__ int32_t find_root(const int32_t* uf, int32_t i) {
  int32_t p = __ldcg(uf + i);
  while (p != i) {
    i = p;
    p = __ldcg(uf + i);
  }
  return i;
}

__global__ void kang_init(const uint8_t* __restrict__ img, uint8_t thr, int64_t n, int32_t* uf) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) uf[i] = img[i] > thr ? int32_t(i) : -1;
}

__global__ void kang_vert(int32_t* uf, int w, int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= w) return;
  for (int row = h - 2; row >= 0; --row) {
    int64_t i = int64_t(row) * w + col;
    int32_t below = uf[i + w];
    if (uf[i] >= 0 && below >= 0) uf[i] = below;
  }
}

__device__ __forceinline__ void union_max(int32_t* uf, int32_t a, int32_t b) {
  for (;;) {
    a = find_root(uf, a);
    b = find_root(uf, b);
    if (a == b) return;
    int32_t lo = min(a, b), hi = max(a, b);
    if (atomicCAS(uf + lo, lo, hi) == lo) return;
  }
}

// Launch for sub-images of width s: boundaries at columns c = s + j*2s compare (c-1, c).
__global__ void kang_merge(int32_t* uf, int w, int h, int s, int boundaries, bool eight) {
  int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= int64_t(boundaries) * h) return;
  int row = int(t / boundaries);
  int c = s + int(t % boundaries) * 2 * s;
  int32_t l = int32_t(int64_t(row) * w + c - 1);
  if (__ldcg(uf + l) < 0) return;
  if (__ldcg(uf + l + 1) >= 0) union_max(uf, l, l + 1);
  if (eight) {
    if (row > 0 && __ldcg(uf + l + 1 - w) >= 0) union_max(uf, l, l + 1 - w);
    if (row + 1 < h && __ldcg(uf + l + 1 + w) >= 0) union_max(uf, l, l + 1 + w);
  }
}

__global__ void kang_relabel(int32_t* uf, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n || __ldcg(uf + i) < 0) return;
  uf[i] = find_root(uf, int32_t(i));
}

__global__ void kang_count_kernel(const int32_t* uf, int64_t n, int32_t* count) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && uf[i] == int32_t(i)) atomicAdd(count, 1);
}

__global__ void canonical_min(const int32_t* uf, int64_t n, uint32_t* first) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t r = uf[i];
  if (r >= 0) atomicMin(first + r, uint32_t(i));
}

__global__ void canonical_apply(int32_t* uf, int64_t n, const uint32_t* first) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t r = uf[i];
  if (r >= 0) uf[i] = int32_t(first[r]);
}

// Alg. 6: the whole box behind one spin lock.
__device__ void box_lock_per_box(Stats st, uint32_t* locks, uint32_t k, uint32_t x, uint32_t y) {
  volatile uint32_t* xmin = st.xmin;
  volatile uint32_t* xmax = st.xmax;
  volatile uint32_t* ymin = st.ymin;
  volatile uint32_t* ymax = st.ymax;
  bool done = false;
  while (!done) {
    if (atomicCAS(locks + k, 0u, 1u) == 0u) {
      if (x < xmin[k]) xmin[k] = x;
      if (x > xmax[k]) xmax[k] = x;
      if (y < ymin[k]) ymin[k] = y;
      if (y > ymax[k]) ymax[k] = y;
      __threadfence();
      atomicExch(locks + k, 0u);
      done = true;
    }
  }
}

// Alg. 7: one lock per coordinate (a bit of the box's lock word), taken only to improve it.
__device__ void improve(volatile uint32_t* v, uint32_t* lock, uint32_t bit, uint32_t value,
                        bool is_min) {
  if (is_min ? !(value < *v) : !(value > *v)) return;
  bool done = false;
  while (!done) {
    if (!(atomicOr(lock, bit) & bit)) {
      if (is_min ? value < *v : value > *v) *v = value;
      __threadfence();
      atomicAnd(lock, ~bit);
      done = true;
    }
  }
}

__global__ void kang_boxes_kernel(const int32_t* labels, int w, int64_t n, int64_t capacity,
                                  Stats st, uint32_t* locks, int method) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t id = labels[i];
  if (id <= 0 || id > capacity) return;
  uint32_t k = uint32_t(id - 1);  // whichGroup: the consecutive id is the box index
  uint32_t x = uint32_t(i % w), y = uint32_t(i / w);
  if (method == 0) {
    atomicMin(st.xmin + k, x);
    atomicMax(st.xmax + k, x);
    atomicMin(st.ymin + k, y);
    atomicMax(st.ymax + k, y);
  } else if (method == 1) {
    box_lock_per_box(st, locks, k, x, y);
  } else {
    improve(st.xmin + k, locks + k, 1u, x, true);
    improve(st.xmax + k, locks + k, 2u, x, false);
    improve(st.ymin + k, locks + k, 4u, y, true);
    improve(st.ymax + k, locks + k, 8u, y, false);
  }
}

// countBlobs (Alg. 5) over a forest whose roots are themselves, into count[2].
void kang_count(const Workspace& ws, cudaStream_t stream) {
  SWL_CUDA_CHECK(cudaMemsetAsync(ws.count + 2, 0, 4, stream));
  kang_count_kernel<<<blocks_for(ws.n, 256), 256, 0, stream>>>(ws.uf, ws.n, ws.count + 2);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void kang_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev) {
  constexpr int kThreads = 256;
  int grid = blocks_for(ws.n, kThreads);
  kang_init<<<grid, kThreads, 0, stream>>>(d_image, threshold, ws.n, ws.uf);
  SWL_CUDA_CHECK_LAUNCH();
  if (ev) ev->mark("init", stream);
  kang_vert<<<blocks_for(ws.w, 128), 128, 0, stream>>>(ws.uf, ws.w, ws.h);
  SWL_CUDA_CHECK_LAUNCH();
  if (ev) ev->mark("column_merge", stream);
  for (int s = 1; s < ws.w; s *= 2) {
    int boundaries = (ws.w - s + 2 * s - 1) / (2 * s);  // c = s + j*2s < w
    int64_t threads = int64_t(boundaries) * ws.h;
    kang_merge<<<blocks_for(threads, kThreads), kThreads, 0, stream>>>(
        ws.uf, ws.w, ws.h, s, boundaries, connectivity == 8);
    SWL_CUDA_CHECK_LAUNCH();
  }
  if (ev) ev->mark("hierarchical_merge", stream);
  kang_relabel<<<grid, kThreads, 0, stream>>>(ws.uf, ws.n);
  SWL_CUDA_CHECK_LAUNCH();
  if (ev) ev->mark("relabel", stream);
  kang_count(ws, stream);
  if (ev) ev->mark("count", stream);
  auto* first = reinterpret_cast<uint32_t*>(ws.blob);  // blob holds >= 4 bytes per pixel
  SWL_CUDA_CHECK(cudaMemsetAsync(first, 0xff, size_t(ws.n) * 4, stream));
  canonical_min<<<grid, kThreads, 0, stream>>>(ws.uf, ws.n, first);
  SWL_CUDA_CHECK_LAUNCH();
  canonical_apply<<<grid, kThreads, 0, stream>>>(ws.uf, ws.n, first);
  SWL_CUDA_CHECK_LAUNCH();
  if (ev) ev->mark("canonical_roots", stream);
}

void kang_boxes(const Workspace& ws, ccl::BoxMethod method, cudaStream_t stream) {
  const int m = method == ccl::BoxMethod::Atomic ? 0 : method == ccl::BoxMethod::LockPerBox ? 1 : 2;
  if (m != 0) SWL_CUDA_CHECK(cudaMemsetAsync(ws.newid, 0, size_t(ws.capacity) * 4, stream));
  kang_boxes_kernel<<<blocks_for(ws.n, 256), 256, 0, stream>>>(ws.labels, ws.w, ws.n, ws.capacity,
                                                               ws.stats, ws.newid, m);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::reference
