// `fast`: run-based union-find on 32-pixel row segments (the HA4 idea of Hennequin 2018, with warp
// ballots for the runs), extended to 8-connectivity by diagonal run contacts. Every segment-local
// run start is a node; roots are the minimum raster index (so the result is deterministic and
// already in raster order); unions link the larger root under the smaller with atomicMin and
// halve paths inline. Thresholding is fused into the first kernel.
//
// Two variants (fast_tiles_enabled(); the tiled one is the default, measured 1.1x-2.6x faster on
// 4096^2 noise and spirals, ~30 us slower on sparse radar-like frames: docs/perf/labelling.md):
// - tiled: tile_kernel (threshold, on bits, every union inside a 32 x 256 tile in shared memory,
//   each on pixel's tile root written with coalesced stores, tile-root bits) -> border_merge_kernel
//   (only contacts crossing tile borders, global atomics) -> tile_roots_kernel (flatten only the
//   tile roots; root bits, per-block counts). A run start reaches its root in <= 2 steps.
// - untiled: init (run starts point to themselves; only run starts have entries, so 4 bytes per
//   run are written) -> merge (one union per run contact) -> roots (flatten every run start).
// Either way only run starts (and tile roots) are read later: the finish finds a pixel's run
// start from the on bits.
#include <cstdlib>
#include <cstring>

#include "gpu/cuda/ccl_device.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

// Find with path halving: a node's parent is replaced by its grandparent (always an ancestor,
// so concurrent unions stay correct).
__device__ __forceinline__ int32_t find_halving(int32_t* uf, int32_t i) {
  for (;;) {
    int32_t p = __ldcg(uf + i);
    if (p == i) return i;
    int32_t gp = __ldcg(uf + p);
    if (gp == p) return p;
    __stcg(uf + i, gp);
    i = gp;
  }
}

__device__ __forceinline__ void unite(int32_t* uf, int32_t a, int32_t b) {
  for (;;) {
    a = find_halving(uf, a);
    b = find_halving(uf, b);
    if (a == b) return;
    if (a > b) {
      int32_t t = a;
      a = b;
      b = t;
    }
    int32_t old = atomicMin(uf + b, a);
    if (old == b) return;
    b = old;
  }
}

// One thread per 32-pixel word: 32 thresholded bytes become one word of on bits; each run start
// points to itself.
__global__ void init_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int wpr,
                            int64_t words, int32_t* uf, uint32_t* on_bits) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (gw >= words) return;
  const int64_t y = gw / wpr;
  const int x0 = int(gw % wpr) * 32;
  const int n = min(32, w - x0);
  const int64_t base = y * w + x0;
  const uint8_t* src = img + base;
  uint32_t bits = 0;
  if (n == 32 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
    const uint4* v = reinterpret_cast<const uint4*>(src);
    uint4 a = __ldg(v), b = __ldg(v + 1);
    const uint32_t q[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    const uint32_t t4 = uint32_t(thr) * 0x01010101u;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      uint32_t m = __vcmpgtu4(q[k], t4);  // 0xff per byte above the threshold
      uint32_t nib = (m & 1u) | ((m >> 7) & 2u) | ((m >> 14) & 4u) | ((m >> 21) & 8u);
      bits |= nib << (4 * k);
    }
  } else {
    for (int i = 0; i < n; ++i) bits |= uint32_t(src[i] > thr) << i;
  }
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

// ---- Tiled variant: label TH x (TW*32) tiles in shared memory first, then unite only the
// contacts that cross tile borders in global memory. Most unions (and every long find chain they
// would build on a giant component's root) stay in shared memory; the forest is written once per
// pixel with full 128-byte lines. Roots stay the minimum raster index: a tile's local index
// order equals the raster order of its pixels.
constexpr int kTileWords = 8;                         // tile width in 32-pixel words (256 pixels)
constexpr int kTileRows = 32;                         // tile height
constexpr int kTileThreads = kTileWords * kTileRows;  // one thread per word
constexpr int kTilePixels = kTileThreads * 32;

// Shared-memory union-find of one tile. While unions run, every access is an atomic (the
// races are intended; atomics keep them defined and racecheck quiet); parents always have smaller
// indices, so halving is an atomicMin to the grandparent.
__device__ __forceinline__ int s_find(int32_t* uf, int i) {
  for (;;) {
    int p = atomicOr(uf + i, 0);
    if (p == i) return i;
    int gp = atomicOr(uf + p, 0);
    if (gp == p) return p;
    atomicMin(uf + i, gp);
    i = gp;
  }
}

__device__ __forceinline__ void s_unite(int32_t* uf, int a, int b) {
  for (;;) {
    a = s_find(uf, a);
    b = s_find(uf, b);
    if (a == b) return;
    if (a > b) {
      int t = a;
      a = b;
      b = t;
    }
    int old = atomicMin(uf + b, a);
    if (old == b) return;
    b = old;
  }
}

// After the unions (a barrier later): a plain walk.
__device__ __forceinline__ int s_root(const int32_t* uf, int i) {
  int p = uf[i];
  while (p != i) {
    i = p;
    p = uf[i];
  }
  return i;
}

// Threshold, on bits, in-tile unions in shared memory, then every pixel of the tile gets its
// run's tile root (global index) or -1 in the forest. Grid: (tiles across, tiles down).
__global__ void __launch_bounds__(kTileThreads)
    tile_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int h, int wpr, int32_t* uf,
                uint32_t* on_bits, uint32_t* tile_roots, bool eight) {
  __shared__ int32_t s_uf[kTilePixels];
  __shared__ uint32_t s_bits[kTileRows][kTileWords];
  const int lx = threadIdx.x % kTileWords, ly = threadIdx.x / kTileWords;
  const int seg = blockIdx.x * kTileWords + lx;
  const int y = blockIdx.y * kTileRows + ly;
  const bool inside = seg < wpr && y < h;
  const int x0 = seg * 32;
  const int64_t base = int64_t(y) * w + x0;
  const int n = inside ? min(32, w - x0) : 0;
  uint32_t bits = 0;
  if (inside) {
    const uint8_t* src = img + base;
    if (n == 32 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
      const uint4* v = reinterpret_cast<const uint4*>(src);
      uint4 a = __ldg(v), b = __ldg(v + 1);
      const uint32_t q[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
      const uint32_t t4 = uint32_t(thr) * 0x01010101u;
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        uint32_t m = __vcmpgtu4(q[k], t4);
        uint32_t nib = (m & 1u) | ((m >> 7) & 2u) | ((m >> 14) & 4u) | ((m >> 21) & 8u);
        bits |= nib << (4 * k);
      }
    } else {
      for (int i = 0; i < n; ++i) bits |= uint32_t(src[i] > thr) << i;
    }
    on_bits[int64_t(y) * wpr + seg] = bits;
  }
  s_bits[ly][lx] = bits;
  const int li0 = ly * (kTileWords * 32) + lx * 32;  // local index of lane 0 of this word
  {
    uint32_t starts = bits & ~(bits << 1);
    while (starts) {
      int b = __ffs(starts) - 1;
      starts &= starts - 1;
      s_uf[li0 + b] = li0 + b;
    }
  }
  __syncthreads();
  // In-tile contacts only (neighbours outside the tile read as off): the border kernel adds the
  // rest. Same contact rules as merge_kernel.
  if (bits) {
    const uint32_t prev = lx > 0 ? s_bits[ly][lx - 1] : 0u;
    const uint32_t next = lx + 1 < kTileWords ? s_bits[ly][lx + 1] : 0u;
    if ((bits & 1u) && (prev >> 31)) s_unite(s_uf, li0, li0 - 32 + run_start(prev, 31));
    if (ly > 0) {
      const int up0 = li0 - kTileWords * 32;
      const uint32_t above = s_bits[ly - 1][lx];
      const uint32_t aprev = lx > 0 ? s_bits[ly - 1][lx - 1] : 0u;
      const uint32_t anext = lx + 1 < kTileWords ? s_bits[ly - 1][lx + 1] : 0u;
      const uint32_t left = (bits << 1) | (prev >> 31);
      const uint32_t right = (bits >> 1) | (next << 31);
      const uint32_t up_left = (above << 1) | (aprev >> 31);
      const uint32_t up_right = (above >> 1) | (anext << 31);
      uint32_t v = bits & above & ~(left & up_left);
      while (v) {
        int i = __ffs(v) - 1;
        v &= v - 1;
        s_unite(s_uf, li0 + run_start(bits, i), up0 + run_start(above, i));
      }
      if (eight) {
        uint32_t d1 = bits & ~above & ~left & up_left;
        while (d1) {
          int i = __ffs(d1) - 1;
          d1 &= d1 - 1;
          int q = i > 0 ? up0 + run_start(above, i - 1) : up0 - 32 + run_start(aprev, 31);
          s_unite(s_uf, li0 + run_start(bits, i), q);
        }
        uint32_t d2 = bits & ~above & ~right & up_right;
        while (d2) {
          int i = __ffs(d2) - 1;
          d2 &= d2 - 1;
          int q = i < 31 ? up0 + run_start(above, i + 1) : up0 + 32;
          s_unite(s_uf, li0 + run_start(bits, i), q);
        }
      }
    }
  }
  __syncthreads();
  // Every pixel gets its run's tile root as a global index, or -1 (off): warp k writes word k of
  // each tile row, 128 contiguous bytes per store. The tile roots' bits go to tile_roots (the
  // roots kernel then walks only from them). s_uf is read-only from here.
  const int lane = threadIdx.x & 31, wk = threadIdx.x / 32;
  const int tseg = blockIdx.x * kTileWords + wk;
  const int x = tseg * 32 + lane;
  for (int r = 0; r < kTileRows; ++r) {
    const int yy = blockIdx.y * kTileRows + r;
    if (yy >= h || tseg >= wpr) break;  // uniform across the warp
    const uint32_t word = s_bits[r][wk];
    const int wl0 = r * (kTileWords * 32) + wk * 32;
    int32_t v = -1;
    bool tile_root = false;
    if ((word >> lane) & 1u) {
      const int start = wl0 + run_start(word, lane);
      const int root = s_root(s_uf, start);
      tile_root = root == wl0 + lane;
      v = int32_t(int64_t(blockIdx.y * kTileRows + root / (kTileWords * 32)) * w +
                  blockIdx.x * (kTileWords * 32) + root % (kTileWords * 32));
    }
    const uint32_t roots = __ballot_sync(0xffffffffu, tile_root);
    if (x < w) uf[int64_t(yy) * w + x] = v;
    if (lane == 0) tile_roots[int64_t(yy) * wpr + tseg] = roots;
  }
}

// One thread per word, after the border unions: only tile roots can be roots or have parents
// outside their tile's tree, so only they are flattened (a run start reaches its root in at most
// two steps then: start -> tile root -> root). Root bits and per-block counts as roots_kernel.
__global__ void tile_roots_kernel(int32_t* uf, int w, int wpr, int64_t words, uint32_t* root_bits,
                                  uint32_t* block_counts) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t roots = 0;
  if (gw < words) {
    uint32_t cand = root_bits[gw];  // the tile roots, from tile_kernel
    const int32_t base = int32_t((gw / wpr) * w + int(gw % wpr) * 32);
    while (cand) {
      int b = __ffs(cand) - 1;
      cand &= cand - 1;
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

// One thread per word: the contacts that cross a tile border (the tile kernel made the rest):
// run continuations into a tile's first word column, every contact of a tile's top row with the
// row above, and with 8-connectivity the diagonal contacts across a vertical tile border.
__global__ void border_merge_kernel(int32_t* uf, const uint32_t* __restrict__ on_bits, int w,
                                    int wpr, int64_t words, bool eight) {
  int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (gw >= words) return;
  const int64_t y = gw / wpr;
  const int seg = int(gw % wpr);
  const bool first_col = seg % kTileWords == 0 && seg > 0;
  const bool last_col = (seg + 1) % kTileWords == 0 && seg + 1 < wpr;
  const bool top_row = y % kTileRows == 0 && y > 0;
  if (!first_col && !top_row && !(eight && last_col && y > 0)) return;
  const uint32_t bits = on_bits[gw];
  if (!bits) return;
  const int32_t row = int32_t(y * w), sx = seg * 32;
  const uint32_t prev = seg > 0 ? on_bits[gw - 1] : 0u;
  const uint32_t next = seg + 1 < wpr ? on_bits[gw + 1] : 0u;
  if (first_col && (bits & 1u) && (prev >> 31))
    unite(uf, row + sx, row + sx - 32 + run_start(prev, 31));
  if (y == 0) return;
  const int32_t up = row - w;
  const uint32_t above = on_bits[gw - wpr];
  const uint32_t aprev = seg > 0 ? on_bits[gw - wpr - 1] : 0u;
  const uint32_t anext = seg + 1 < wpr ? on_bits[gw - wpr + 1] : 0u;
  const uint32_t left = (bits << 1) | (prev >> 31);
  const uint32_t right = (bits >> 1) | (next << 31);
  const uint32_t up_left = (above << 1) | (aprev >> 31);
  const uint32_t up_right = (above >> 1) | (anext << 31);
  uint32_t v = top_row ? bits & above & ~(left & up_left) : 0u;
  while (v) {
    int i = __ffs(v) - 1;
    v &= v - 1;
    unite(uf, row + sx + run_start(bits, i), up + sx + run_start(above, i));
  }
  if (!eight) return;
  uint32_t d1 = bits & ~above & ~left & up_left;
  if (!top_row) d1 &= first_col ? 1u : 0u;
  while (d1) {
    int i = __ffs(d1) - 1;
    d1 &= d1 - 1;
    int32_t q = i > 0 ? up + sx + run_start(above, i - 1) : up + sx - 32 + run_start(aprev, 31);
    unite(uf, row + sx + run_start(bits, i), q);
  }
  uint32_t d2 = bits & ~above & ~right & up_right;
  if (!top_row) d2 &= last_col ? 0x80000000u : 0u;
  while (d2) {
    int i = __ffs(d2) - 1;
    d2 &= d2 - 1;
    int32_t q = i < 31 ? up + sx + run_start(above, i + 1) : up + sx + 32;
    unite(uf, row + sx + run_start(bits, i), q);
  }
}

}  // namespace

bool fast_tiles_enabled() {
  // The tiled variant is chosen once per process; SWEEPLINE_CCL_TILES=0/1 overrides the default.
  static const bool on = [] {
    const char* e = std::getenv("SWEEPLINE_CCL_TILES");
    if (e && *e) return std::strcmp(e, "0") != 0;
    return kFastTilesDefault;
  }();
  return on;
}

bool fast_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev) {
  constexpr int kThreads = kScanWords;
  int grid = blocks_for(ws.words, kThreads);
  if (fast_tiles_enabled()) {
    dim3 tiles(unsigned((ws.wpr + kTileWords - 1) / kTileWords),
               unsigned((ws.h + kTileRows - 1) / kTileRows));
    tile_kernel<<<tiles, kTileThreads, 0, stream>>>(d_image, threshold, ws.w, ws.h, ws.wpr, ws.uf,
                                                    ws.on_bits, ws.root_bits, connectivity == 8);
    CCL_CUDA_CHECK(cudaGetLastError());
    if (ev) ev->mark("init", stream);
    border_merge_kernel<<<grid, kThreads, 0, stream>>>(ws.uf, ws.on_bits, ws.w, ws.wpr, ws.words,
                                                       connectivity == 8);
    CCL_CUDA_CHECK(cudaGetLastError());
    if (ev) ev->mark("merge", stream);
  } else {
    init_kernel<<<grid, kThreads, 0, stream>>>(d_image, threshold, ws.w, ws.wpr, ws.words, ws.uf,
                                               ws.on_bits);
    CCL_CUDA_CHECK(cudaGetLastError());
    if (ev) ev->mark("init", stream);
    merge_kernel<<<grid, kThreads, 0, stream>>>(ws.uf, ws.on_bits, ws.w, ws.wpr, ws.words,
                                                connectivity == 8);
    CCL_CUDA_CHECK(cudaGetLastError());
    if (ev) ev->mark("merge", stream);
  }
  if (fast_tiles_enabled())
    tile_roots_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(ws.uf, ws.w, ws.wpr, ws.words,
                                                                 ws.root_bits, ws.block_counts);
  else
    roots_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(
        ws.uf, ws.on_bits, ws.w, ws.wpr, ws.words, ws.root_bits, ws.block_counts);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (ev) ev->mark("roots", stream);
  return true;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
