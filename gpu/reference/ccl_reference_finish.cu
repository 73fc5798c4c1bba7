// The numbering and statistics that the papers' algorithms share (`kang`, `propagate`), where
// every on pixel has a forest entry rooted at the component's minimum raster index: root bits
// and per-block counts, a scan of the counts (no host synchronisation), consecutive ids in raster
// order, the label image with statistics reduced per warp before any global atomic, and the area
// filter's renumbering over every pixel. (The product's `fast` numbers and measures per tile:
// gpu/cuda/ccl_fast_finish.cu.)
#include <algorithm>

#include "gpu/cuda/ccl_device.cuh"
#include "gpu/reference/ccl_reference_kernels.hpp"

namespace sweepline::gpu::reference {

using namespace cuda::ccl_detail;

namespace {

// Sums `count` over the block (kScanWords threads, one per word) into block_counts[block].
__device__ __forceinline__ void block_count(uint32_t count, uint32_t* block_counts) {
  __shared__ uint32_t s_warp[kScanWords / 32];
  for (int off = 16; off > 0; off /= 2) count += __shfl_down_sync(0xffffffffu, count, off);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x / 32] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t t = 0;
    for (int i = 0; i < kScanWords / 32; ++i) t += s_warp[i];
    block_counts[blockIdx.x] = t;
  }
}

// One thread per word (every on pixel has a forest entry).
__global__ void root_flags_kernel(const int32_t* __restrict__ uf, int w, int wpr, int64_t words,
                                  uint32_t* root_bits, uint32_t* block_counts) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t roots = 0;
  if (gw < words) {
    const int x0 = int(gw % wpr) * 32;
    const int64_t base = (gw / wpr) * w + x0;
    const int n = min(32, w - x0);
    for (int b = 0; b < n; ++b)
      if (uf[base + b] == int32_t(base + b)) roots |= 1u << b;
    root_bits[gw] = roots;
  }
  block_count(__popc(roots), block_counts);
}

// One thread per word: ids in raster order = block offset + roots of earlier words in the block
// (a block scan) + rank inside the word.
__global__ void assign_kernel(const uint32_t* root_bits, const uint32_t* offsets, int w, int wpr,
                              int64_t words, int32_t* uf, Stats st, int64_t capacity,
                              bool root_ymin) {
  __shared__ uint32_t s_warp[kScanWords / 32];
  const int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, wid = threadIdx.x / 32;
  uint32_t word = gw < words ? root_bits[gw] : 0u;
  uint32_t pop = __popc(word), inc = pop;
  for (int off = 1; off < 32; off *= 2) {
    uint32_t t = __shfl_up_sync(kFull, inc, off);
    if (lane >= off) inc += t;
  }
  if (lane == 31) s_warp[wid] = inc;
  __syncthreads();
  uint32_t before = 0;
  for (int i = 0; i < wid; ++i) before += s_warp[i];
  uint32_t id = offsets[blockIdx.x] + before + inc - pop;
  if (!word) return;
  const int32_t base = int32_t((gw / wpr) * w + int(gw % wpr) * 32);
  const uint32_t y = uint32_t(gw / wpr);
  while (word) {
    int b = __ffs(word) - 1;
    word &= word - 1;
    ++id;
    uf[base + b] = -int32_t(id) - 1;  // a root now holds its id, encoded below -1
    // The root is the component's first pixel in raster order: its row is the top row. The
    // other fields are set by stats_init_kernel with coalesced stores (per-root stores of nine
    // arrays here were scattered across each warp).
    if (root_ymin && int64_t(id) <= capacity) st.ymin[id - 1] = y;
  }
}

// Statistics identities for ids 1..min(count, capacity), grid-stride (the count is on the device).
__global__ void stats_init_kernel(const int32_t* count, Stats st, int64_t capacity, bool root_ymin,
                                  bool weighted) {
  const int64_t n = min(int64_t(count[0]), capacity);
  for (int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += int64_t(gridDim.x) * blockDim.x) {
    reset_stats_slot(st, k, weighted);
    if (!root_ymin) st.ymin[k] = 0xffffffffu;
  }
}

// Adds one run of a component's pixels (all in row y) to its statistics. Without an intensity
// image the weight sum is the area, so only the 32-bit area is kept (no sum_w, no peak); ymin is
// set at the root (for kang, by its box kernel).
__device__ __forceinline__ void flush(const Stats& st, uint32_t k, uint32_t area, uint64_t sw,
                                      uint64_t swx, uint32_t xmn, uint32_t xmx, uint32_t pk,
                                      uint32_t y, bool weighted, bool boxes) {
  atomicAdd(st.area + k, area);
  atomicAdd(st.sum_wx + k, (unsigned long long)swx);
  atomicAdd(st.sum_wy + k, (unsigned long long)(sw * y));
  if (weighted) {
    atomicAdd(st.sum_w + k, (unsigned long long)sw);
    atomicMax(st.peak + k, pk);
  }
  if (boxes) {
    atomicMin(st.xmin + k, xmn);
    atomicMax(st.xmax + k, xmx);
    atomicMax(st.ymax + k, y);
  }
}

// One warp walks a chunk of kChunk words of one row. Per word, lanes of one component reduce
// together (match + reduce); the component that reaches the word's last lane is carried to the
// next word instead of being flushed, so a run that spans words costs one set of atomics per
// chunk, not per word (large components otherwise serialise on their few addresses).
constexpr int kChunk = 16;

// Every on pixel has a forest entry; roots hold their ids (encoded below -1).
__global__ void finalize_kernel(const int32_t* __restrict__ uf, int32_t* labels, int w, int h,
                                int wpr, int chunks, const uint8_t* __restrict__ intensity,
                                Stats st, int64_t capacity, bool boxes) {
  int64_t warp = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (warp >= int64_t(h) * chunks) return;  // warp-uniform
  const int lane = threadIdx.x & 31;
  const uint32_t y = uint32_t(warp / chunks);
  const int seg0 = int(warp % chunks) * kChunk, seg1 = min(wpr, seg0 + kChunk);
  const bool weighted = intensity != nullptr;
  int32_t cid = 0;  // the carried component (uniform across the warp)
  uint32_t c_area = 0, c_xmn = 0, c_xmx = 0, c_pk = 0;
  uint64_t c_sw = 0, c_swx = 0;
  for (int seg = seg0; seg < seg1; ++seg) {
    uint32_t x = uint32_t(seg) * 32 + lane;
    int64_t p = int64_t(y) * w + x;
    int32_t id = 0;
    if (x < uint32_t(w)) {
      int32_t v = uf[p];
      if (v != -1) {
        while (v >= 0) v = uf[v];
        id = -v - 1;
      }
      labels[p] = id;
    }
    bool active = id > 0 && id <= capacity;
    uint32_t value = (active && weighted) ? intensity[p] : 0u;
    uint32_t wgt = weighted ? max(value, 1u) : 1u;
    uint32_t g_area = 0, g_sw = 0, g_swx = 0, g_xmn = 0, g_xmx = 0, g_pk = 0;
    bool leader = false;
    unsigned am = __ballot_sync(kFull, active);
    if (active) {
#if __CUDA_ARCH__ >= 800
      unsigned grp = __match_any_sync(am, id);
      g_area = __popc(grp);
      g_sw = __reduce_add_sync(grp, wgt);
      g_swx = __reduce_add_sync(grp, wgt * x);
      g_xmn = __reduce_min_sync(grp, x);
      g_xmx = __reduce_max_sync(grp, x);
      g_pk = __reduce_max_sync(grp, value);
      leader = lane == __ffs(grp) - 1;
#else
      g_area = 1, g_sw = wgt, g_swx = wgt * x, g_xmn = x, g_xmx = x, g_pk = value;
      leader = true;
#endif
    }
    const int32_t id_last = __shfl_sync(kFull, id, 31);
    const bool last_active = id_last > 0 && id_last <= capacity;
    const unsigned carry_mask = __ballot_sync(kFull, leader && cid != 0 && id == cid);
    const unsigned last_mask = __ballot_sync(kFull, leader && last_active && id == id_last);
    if (leader && !((carry_mask | last_mask) >> lane & 1u))
      flush(st, uint32_t(id - 1), g_area, g_sw, g_swx, g_xmn, g_xmx, g_pk, y, weighted, boxes);
    if (carry_mask) {
      int src = __ffs(carry_mask) - 1;
      c_area += __shfl_sync(kFull, g_area, src);
      c_sw += __shfl_sync(kFull, g_sw, src);
      c_swx += __shfl_sync(kFull, g_swx, src);
      c_xmn = min(c_xmn, __shfl_sync(kFull, g_xmn, src));
      c_xmx = max(c_xmx, __shfl_sync(kFull, g_xmx, src));
      c_pk = max(c_pk, __shfl_sync(kFull, g_pk, src));
    }
    if (last_mask && id_last != cid) {
      if (cid != 0 && lane == 0)
        flush(st, uint32_t(cid - 1), c_area, c_sw, c_swx, c_xmn, c_xmx, c_pk, y, weighted, boxes);
      int src = __ffs(last_mask) - 1;
      cid = id_last;
      c_area = __shfl_sync(kFull, g_area, src);
      c_sw = __shfl_sync(kFull, g_sw, src);
      c_swx = __shfl_sync(kFull, g_swx, src);
      c_xmn = __shfl_sync(kFull, g_xmn, src);
      c_xmx = __shfl_sync(kFull, g_xmx, src);
      c_pk = __shfl_sync(kFull, g_pk, src);
    }
  }
  if (cid != 0 && lane == 0)
    flush(st, uint32_t(cid - 1), c_area, c_sw, c_swx, c_xmn, c_xmx, c_pk, y, weighted, boxes);
}

// The area filter's renumbering, one thread a pixel.
__global__ void remap_kernel(const int32_t* count, int64_t capacity, const uint32_t* newid,
                             int32_t* labels, int64_t n) {
  if (int64_t(count[0]) > capacity) return;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t l = labels[i];
  if (l > 0) labels[i] = int32_t(newid[l - 1]);
}

}  // namespace

void root_flags(const Workspace& ws, cudaStream_t stream) {
  root_flags_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(ws.uf, ws.w, ws.wpr, ws.words,
                                                               ws.root_bits, ws.block_counts);
  SWL_CUDA_CHECK_LAUNCH();
}

void assign_ids(const Workspace& ws, bool root_ymin, bool weighted, cudaStream_t stream) {
  scan_block_counts(ws.block_counts, ws.block_counts, ws.blocks, ws.count, stream);
  constexpr int kThreads = 256;
  const int grid = int(std::min<int64_t>(blocks_for(ws.capacity, kThreads), 2048));
  if (grid > 0) {
    stats_init_kernel<<<grid, kThreads, 0, stream>>>(ws.count, ws.stats, ws.capacity, root_ymin,
                                                     weighted);
    SWL_CUDA_CHECK_LAUNCH();
  }
  assign_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(ws.root_bits, ws.block_counts, ws.w,
                                                           ws.wpr, ws.words, ws.uf, ws.stats,
                                                           ws.capacity, root_ymin);
  SWL_CUDA_CHECK_LAUNCH();
}

void finalize(const Workspace& ws, const uint8_t* d_intensity, bool boxes, cudaStream_t stream) {
  constexpr int kThreads = 256;
  int chunks = (ws.wpr + kChunk - 1) / kChunk;
  int grid = blocks_for(int64_t(ws.h) * chunks * 32, kThreads);
  finalize_kernel<<<grid, kThreads, 0, stream>>>(ws.uf, ws.labels, ws.w, ws.h, ws.wpr, chunks,
                                                 d_intensity, ws.stats, ws.capacity, boxes);
  SWL_CUDA_CHECK_LAUNCH();
}

void remap_labels(const Workspace& ws, cudaStream_t stream) {
  remap_kernel<<<blocks_for(ws.n, 256), 256, 0, stream>>>(ws.count, ws.capacity, ws.newid,
                                                          ws.labels, ws.n);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::reference
