// `fast`, steps 2 and 3: the unions of the contacts across tile borders on the global forest,
// then the flattening of the border tile roots with the count of roots per segment (one tile's
// row) for the numbering (docs/decisions/0002, 0006).
//
// - tile_border_kernel: one union per contact across a tile border, lanes of a warp with the same
//   pair of tile roots uniting once; global atomicMin union-find (roots stay the minimum raster
//   index, so the result is deterministic), both finds of a union stepped together (path
//   splitting) so that their loads overlap.
// - tile_roots_kernel: flattens the border tile roots, adds the global ones to root_bits and
//   counts roots per segment: prefix inside blocks of 32 segments and block totals, for the
//   numbering's scan.
#include "gpu/cuda/ccl_device.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

// Both finds of a union at once, so that their dependent loads overlap (the border unions are
// latency-bound). Path splitting: each visited entry is pointed at its grandparent (an ancestor,
// so concurrent unions stay correct), one load per step.
__device__ __forceinline__ void find_both(int32_t* uf, int32_t& a, int32_t& b) {
  int32_t pa = __ldcg(uf + a), pb = __ldcg(uf + b);
  while (pa != a || pb != b) {
    const int32_t ga = pa != a ? __ldcg(uf + pa) : pa;
    const int32_t gb = pb != b ? __ldcg(uf + pb) : pb;
    if (pa != a) {
      if (ga != pa) __stcg(uf + a, ga);
      a = pa;
      pa = ga;
    }
    if (pb != b) {
      if (gb != pb) __stcg(uf + b, gb);
      b = pb;
      pb = gb;
    }
  }
}

// A union with both finds at once: the larger root goes under the smaller (atomicMin), so roots
// stay the minimum raster index.
__device__ __forceinline__ void unite_both(int32_t* uf, int32_t a, int32_t b) {
  for (;;) {
    find_both(uf, a, b);
    if (a == b) return;
    if (a > b) {
      const int32_t t = a;
      a = b;
      b = t;
    }
    const int32_t old = atomicMin(uf + b, a);
    if (old == b) return;
    b = old;
  }
}

// Unites tile roots ra and rb (the forest entries of two border pixels, loaded by the caller:
// they point to their tile roots and are not changed here) when `has`; lanes of the warp with
// the same pair unite once. Every lane of the warp calls this.
__device__ __forceinline__ void unite_roots(int32_t* uf, bool has, int32_t ra, int32_t rb) {
  const uint64_t key = has ? (uint64_t(uint32_t(ra)) << 32) | uint32_t(rb) : ~0ull;
#if __CUDA_ARCH__ >= 700
  const unsigned same = __match_any_sync(kFull, key);
  if (has && (threadIdx.x & 31) == __ffs(same) - 1)
#else
  if (has)
#endif
    unite_both(uf, ra, rb);
}

// One warp per word of a tile's top row (lane: pixel), every contact with the row above; then
// one thread per (vertical tile border, row): the pair across the border and, with
// 8-connectivity, the two diagonals to the row above (a warp: 32 rows of one border).
// Every entry a thread's unions need is loaded before its first union (the kernel is
// latency-bound).
__global__ void tile_border_kernel(int32_t* uf, const uint32_t* __restrict__ on_bits, int w, int h,
                                   int wpr, int tiles_x, int tiles_y, bool eight) {
  int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int64_t nh = int64_t(tiles_y - 1) * wpr * 32;
  if (t < nh) {
    const int64_t wi = t / 32;
    const int y = int(wi / wpr + 1) * kTileRows, seg = int(wi % wpr);
    const int64_t gw = int64_t(y) * wpr + seg;
    const uint32_t bits = on_bits[gw];
    if (!bits) return;  // uniform across the warp
    const uint32_t above = on_bits[gw - wpr];
    const uint32_t prev = seg > 0 ? on_bits[gw - 1] : 0u;
    const uint32_t next = seg + 1 < wpr ? on_bits[gw + 1] : 0u;
    const uint32_t aprev = seg > 0 ? on_bits[gw - wpr - 1] : 0u;
    const uint32_t anext = seg + 1 < wpr ? on_bits[gw - wpr + 1] : 0u;
    const uint32_t left = (bits << 1) | (prev >> 31);
    const uint32_t right = (bits >> 1) | (next << 31);
    const uint32_t up_left = (above << 1) | (aprev >> 31);
    const uint32_t up_right = (above >> 1) | (anext << 31);
    const int32_t p = int32_t(int64_t(y) * w) + seg * 32 + lane, q = p - w;
    // A pixel has at most two contacts: straight up or up-left, and up-right.
    const bool hv = (bits & above & ~(left & up_left)) >> lane & 1u;
    const bool h1 = eight && ((bits & ~above & ~left & up_left) >> lane & 1u);
    const bool h2 = eight && ((bits & ~above & ~right & up_right) >> lane & 1u);
    const int32_t rp = (hv || h1 || h2) ? __ldcg(uf + p) : 0;
    const int32_t r0 = (hv || h1) ? __ldcg(uf + (hv ? q : q - 1)) : 0;
    const int32_t r1 = h2 ? __ldcg(uf + q + 1) : 0;
    unite_roots(uf, hv || h1, rp, r0);
    if (eight) unite_roots(uf, h2, rp, r1);
    return;
  }
  t -= nh;
  const int nv = tiles_x - 1;
  const bool valid = nv > 0 && t < int64_t(nv) * h;
  if (nv <= 0 || t - lane >= int64_t(nv) * h) return;  // uniform across the warp
  const int y = valid ? int(t % h) : 0, sr = valid ? (int(t / h) + 1) * kTileWords : kTileWords;
  const int64_t gw = int64_t(y) * wpr + sr;  // sr: the first word right of the border
  const bool l = valid && (on_bits[gw - 1] >> 31), r = valid && (on_bits[gw] & 1u);
  const int32_t pr = int32_t(int64_t(y) * w) + sr * 32, pl = pr - 1;
  const bool ul = eight && valid && y > 0 && (on_bits[gw - wpr - 1] >> 31);
  const bool ur = eight && valid && y > 0 && (on_bits[gw - wpr] & 1u);
  const int32_t rl = l ? __ldcg(uf + pl) : 0, rr = r ? __ldcg(uf + pr) : 0;
  const int32_t rul = r && ul ? __ldcg(uf + pl - w) : 0;
  const int32_t rur = l && ur ? __ldcg(uf + pr - w) : 0;
  unite_roots(uf, l && r, rl, rr);
  if (!eight) return;
  unite_roots(uf, r && ul, rr, rul);
  unite_roots(uf, l && ur, rl, rur);
}

// kTileWords threads per segment (one tile's row), 256 threads: flatten the border tile roots
// (every other entry the finish reads already points at a tile root), add the global roots among
// them to root_bits, and count roots: per segment the exclusive prefix inside this block's 32
// segments (seg_local), per block the total (seg_blocks, scanned next).
__global__ void __launch_bounds__(256)
    tile_roots_kernel(int32_t* uf, int w, int wpr, int tiles_x, int64_t segs, uint32_t* root_bits,
                      const uint32_t* __restrict__ bord_bits, uint32_t* seg_local,
                      uint32_t* seg_blocks) {
  __shared__ uint32_t s_seg[32];
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t s = t / kTileWords;
  const int j = int(t % kTileWords);
  uint32_t rb = 0;
  if (s < segs) {
    const int y = int(s / tiles_x), x = int(s % tiles_x) * kTileWords + j;
    if (x < wpr) {
      const int64_t gw = int64_t(y) * wpr + x;
      rb = root_bits[gw];
      uint32_t cand = bord_bits[gw];
      if (cand) {
        const int32_t base = int32_t(int64_t(y) * w + x * 32);
        // Up to kChases finds stepped together, one dependent load each a round, so that their
        // latencies overlap (a tile's top-row words hold many border roots). No halving: only
        // a node's own entry is written, so a find ends exactly at the root.
        constexpr int kChases = kRootChases;
        while (cand) {
          int32_t node[kChases], cur[kChases];
#pragma unroll
          for (int k = 0; k < kChases; ++k) {
            node[k] = -1;
            if (cand) {
              node[k] = base + __ffs(cand) - 1;
              cand &= cand - 1;
            }
            cur[k] = node[k];
          }
          for (bool moved = true; moved;) {
            moved = false;
            int32_t next[kChases];
#pragma unroll
            for (int k = 0; k < kChases; ++k) next[k] = cur[k] >= 0 ? __ldcg(uf + cur[k]) : -1;
#pragma unroll
            for (int k = 0; k < kChases; ++k)
              if (next[k] != cur[k]) {
                cur[k] = next[k];
                moved = true;
              }
          }
#pragma unroll
          for (int k = 0; k < kChases; ++k) {
            if (node[k] < 0) continue;
            if (cur[k] == node[k])
              rb |= 1u << (node[k] - base);
            else
              __stcg(uf + node[k], cur[k]);
          }
        }
        root_bits[gw] = rb;
      }
    }
  }
  uint32_t c = __popc(rb);
  c += __shfl_xor_sync(kFull, c, 1);
  c += __shfl_xor_sync(kFull, c, 2);
  c += __shfl_xor_sync(kFull, c, 4);
  if (j == 0) s_seg[threadIdx.x / kTileWords] = c;
  __syncthreads();
  if (threadIdx.x < 32) {
    const uint32_t v = s_seg[threadIdx.x];
    uint32_t inc = v;
    for (int off = 1; off < 32; off *= 2) {
      const uint32_t o = __shfl_up_sync(kFull, inc, off);
      if (int(threadIdx.x) >= off) inc += o;
    }
    const int64_t sg = int64_t(blockIdx.x) * 32 + threadIdx.x;
    if (sg < segs) seg_local[sg] = inc - v;
    if (threadIdx.x == 31) seg_blocks[blockIdx.x] = inc;
  }
}

}  // namespace

void unite_tile_borders(const Workspace& ws, bool eight, cudaStream_t stream) {
  const int64_t border_threads =
      int64_t(ws.tiles_y - 1) * ws.wpr * 32 + int64_t(ws.tiles_x - 1) * ws.h;
  if (border_threads <= 0) return;
  tile_border_kernel<<<blocks_for(border_threads, 256), 256, 0, stream>>>(
      ws.uf, ws.on_bits, ws.w, ws.h, ws.wpr, ws.tiles_x, ws.tiles_y, eight);
  SWL_CUDA_CHECK_LAUNCH();
}

void flatten_tile_roots(const Workspace& ws, cudaStream_t stream) {
  tile_roots_kernel<<<int(ws.seg_nblocks), 256, 0, stream>>>(ws.uf, ws.w, ws.wpr, ws.tiles_x,
                                                             ws.segs, ws.root_bits, ws.bord_bits,
                                                             ws.seg_offsets, ws.seg_blocks);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda::ccl_detail
