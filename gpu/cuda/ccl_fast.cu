// `fast`, untiled variant (SWEEPLINE_CCL_TILES=0; the tiled default is in ccl_tiles.cu):
// run-based union-find on 32-pixel row segments (the HA4 idea of Hennequin 2018, with warp ballots
// for the runs), extended to 8-connectivity by diagonal run contacts. Every segment-local run
// start is a node; roots are the minimum raster index (so the result is deterministic and already
// in raster order); unions link the larger root under the smaller with atomicMin and halve paths
// inline. Thresholding is fused into the first kernel. init (run starts point to themselves; only
// run starts have entries) -> merge (one union per run contact) -> roots (flatten every run start,
// root bits, per-block counts); the shared finish (ccl_finish.cu) then numbers and measures.
#include <cstdlib>
#include <cstring>

#include "gpu/cuda/ccl_device.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

// One thread per 32-pixel word: 32 thresholded bytes become one word of on bits; each run start
// points to itself.
__global__ void init_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int wpr,
                            int64_t words, int32_t* uf, uint32_t* on_bits) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (gw >= words) return;
  const int64_t y = gw / wpr;
  const int x0 = int(gw % wpr) * 32;
  const int64_t base = y * w + x0;
  const uint32_t bits = threshold_word(img, thr, w, int(y), int(gw % wpr));
  on_bits[gw] = bits;
  uint32_t starts = bits & ~(bits << 1);
  while (starts) {
    int b = __ffs(starts) - 1;
    starts &= starts - 1;
    uf[base + b] = int32_t(base + b);
  }
}

// One thread per word. One union per contact between a run of this word and a run above: the
// leftmost pixel of each vertical overlap, and with 8-connectivity the diagonal contacts at the
// ends of runs; plus the continuation of a run from the previous word. Unions join run starts.
__global__ void merge_kernel(int32_t* uf, const uint32_t* __restrict__ on_bits, int w, int wpr,
                             int64_t words, bool eight) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (gw >= words) return;
  const uint32_t bits = on_bits[gw];
  if (!bits) return;
  const int64_t y = gw / wpr;
  const int seg = int(gw % wpr);
  const int32_t row = int32_t(y * w), sx = seg * 32;
  const uint32_t prev = seg > 0 ? on_bits[gw - 1] : 0u;
  const uint32_t next = seg + 1 < wpr ? on_bits[gw + 1] : 0u;
  if ((bits & 1u) && (prev >> 31)) unite(uf, row + sx, row + sx - 32 + run_start(prev, 31));
  if (y == 0) return;
  const int32_t up = row - w;
  const uint32_t above = on_bits[gw - wpr];
  const uint32_t aprev = seg > 0 ? on_bits[gw - wpr - 1] : 0u;
  const uint32_t anext = seg + 1 < wpr ? on_bits[gw - wpr + 1] : 0u;
  const uint32_t left = (bits << 1) | (prev >> 31);   // bit i: pixel i-1 is on
  const uint32_t right = (bits >> 1) | (next << 31);  // bit i: pixel i+1 is on
  const uint32_t up_left = (above << 1) | (aprev >> 31);
  const uint32_t up_right = (above >> 1) | (anext << 31);
  uint32_t v = bits & above & ~(left & up_left);
  while (v) {
    int i = __ffs(v) - 1;
    v &= v - 1;
    unite(uf, row + sx + run_start(bits, i), up + sx + run_start(above, i));
  }
  if (!eight) return;
  uint32_t d1 = bits & ~above & ~left & up_left;
  while (d1) {
    int i = __ffs(d1) - 1;
    d1 &= d1 - 1;
    int32_t q = i > 0 ? up + sx + run_start(above, i - 1) : up + sx - 32 + run_start(aprev, 31);
    unite(uf, row + sx + run_start(bits, i), q);
  }
  uint32_t d2 = bits & ~above & ~right & up_right;
  while (d2) {
    int i = __ffs(d2) - 1;
    d2 &= d2 - 1;
    int32_t q = i < 31 ? up + sx + run_start(above, i + 1) : up + sx + 32;
    unite(uf, row + sx + run_start(bits, i), q);
  }
}

// One thread per word: flatten each run start to its root, root bits, roots per block.
__global__ void roots_kernel(int32_t* uf, const uint32_t* __restrict__ on_bits, int w, int wpr,
                             int64_t words, uint32_t* root_bits, uint32_t* block_counts) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t roots = 0;
  if (gw < words) {
    const uint32_t bits = on_bits[gw];
    uint32_t starts = bits & ~(bits << 1);
    const int32_t base = int32_t((gw / wpr) * w + int(gw % wpr) * 32);
    while (starts) {
      int b = __ffs(starts) - 1;
      starts &= starts - 1;
      int32_t p = base + b;
      int32_t r = find_halving(uf, p);
      if (r == p)
        roots |= 1u << b;
      else
        __stcg(uf + p, r);
    }
    root_bits[gw] = roots;
  }
  block_count(__popc(roots), block_counts);
}

}  // namespace

SWL_CCL_SWITCH(fast_tiles_enabled, "SWEEPLINE_CCL_TILES", kFastTilesDefault)

bool fast_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev) {
  constexpr int kThreads = kScanWords;
  const int grid = blocks_for(ws.words, kThreads);
  init_kernel<<<grid, kThreads, 0, stream>>>(d_image, threshold, ws.w, ws.wpr, ws.words, ws.uf,
                                             ws.on_bits);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (ev) ev->mark("init", stream);
  merge_kernel<<<grid, kThreads, 0, stream>>>(ws.uf, ws.on_bits, ws.w, ws.wpr, ws.words,
                                              connectivity == 8);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (ev) ev->mark("merge", stream);
  roots_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(ws.uf, ws.on_bits, ws.w, ws.wpr, ws.words,
                                                          ws.root_bits, ws.block_counts);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (ev) ev->mark("roots", stream);
  return true;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
