// `fast`, tiled (the default), first half: label every 32 x 256 tile in shared memory, unite only
// the contacts that cross tile borders in global memory, flatten only tile roots.
//
// - tile_label_kernel: thresholds the tile (on bits) and a one-pixel halo around it, unites the
//   row runs of the tile on a shared-memory union-find (roots = minimum local index = minimum
//   raster index, so the partition and its numbering stay deterministic; a run's first contact
//   with the row above is its initial parent, only the further contacts are unions), and writes
//   * the local roots (flattened) as int16 into the label image's own tile region, one a pair
//     column of rows 2m and 2m + 1 (scratch: the finish reads them back before it writes the
//     labels there),
//   * root bits of components that stay inside the tile (root_bits) and tile-root bits of those
//     with a pixel next to an on pixel of another tile (bord_bits),
//   * forest entries only where the global unions need them: each such border pixel points to its
//     tile root, each such tile root to itself. Nothing else of the forest is written or read.
//   With 8-connectivity the default is tile_pairs_kernel (ccl_tiles_pairs.cu), the same outputs
//   from the runs of row pairs; this row-run kernel serves 4-connectivity and
//   SWEEPLINE_CCL_PAIRS=0.
// - tile_border_kernel: one union per contact across a tile border, lanes of a warp with the same
//   pair of tile roots uniting once; global atomicMin union-find, both finds of a union stepped
//   together (path splitting) so that their loads overlap.
// - tile_roots_kernel: flattens the border tile roots, adds the global ones to root_bits and
//   counts roots per segment (one tile's row: 8 words): prefix inside blocks of 32 segments and
//   block totals, for the numbering scan.
#include "gpu/cuda/ccl_device.cuh"
#include "gpu/cuda/launch_bounds.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kTilePix = kTileWords * 32;             // pixels per tile row
constexpr int kTileThreads = kTileWords * kTileRows;  // one thread per word
constexpr int kTilePixels = kTilePix * kTileRows;
static_assert(kTileThreads == 256 && kTileWords == 8, "one warp per word column of a tile");

// Shared-memory union-find while unions run: every access is an atomic (the races are intended;
// atomics keep them defined and racecheck quiet). Parents only ever decrease, so halving is an
// atomicMin to the grandparent.
__device__ __forceinline__ int s_find(int32_t* uf, int i) {
  for (;;) {
    const int p = atomicOr(uf + i, 0);
    if (p == i) return i;
    const int gp = atomicOr(uf + p, 0);
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
      const int t = a;
      a = b;
      b = t;
    }
    const int old = atomicMin(uf + b, a);
    if (old == b) return;
    b = old;
  }
}

// After the unions (a barrier later): a plain walk over the parents (lower 16 bits; the upper
// ones receive the roots meanwhile).
__device__ __forceinline__ int s_root(const int32_t* uf, int i) {
  int p = uf[i] & 0xffff;
  while (p != i) {
    i = p;
    p = uf[i] & 0xffff;
  }
  return i;
}

// Local index of the start of the tile-row run holding pixel i of word lx in row ly (runs are
// cut only at the tile's left edge).
__device__ __forceinline__ int row_run_start(const uint32_t (*bits)[kTileWords], int ly, int lx,
                                             int i) {
  int rs = run_start(bits[ly][lx], i);
  while (rs == 0 && lx > 0 && (bits[ly][lx - 1] >> 31)) {
    --lx;
    rs = run_start(bits[ly][lx], 31);
  }
  return ly * kTilePix + lx * 32 + rs;
}

// Grid: (tiles across, tiles down), kTileThreads threads, thread (ly, lx) owns word lx of row ly.
// kBalanced: the contacts of a warp are handed out evenly over its lanes (SWEEPLINE_CCL_BALANCE).
template <bool kBalanced>
__global__ void __launch_bounds__(kTileThreads, SWL_MIN_BLOCKS(kTileThreads, 6))
    tile_label_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int h, int wpr,
                      int32_t* uf, uint32_t* on_bits, uint32_t* root_bits, uint32_t* bord_bits,
                      int16_t* loc, bool eight, int hints, bool pair_loc) {
  // Entries at tile-row run starts only: the parent; at the end also the root in bits 16..31.
  __shared__ int32_t s_uf[kTilePixels];
  __shared__ uint32_t s_bits[kTileRows][kTileWords];
  __shared__ uint32_t s_bord[kTileRows][kTileWords];  // local roots touching another tile
  __shared__ int s_nborder;
  __shared__ uint16_t s_border[TileBorderList::kMax];
  __shared__ uint32_t s_up[kTileWords + 2], s_dn[kTileWords + 2], s_side[2];
  const int lx = threadIdx.x % kTileWords, ly = threadIdx.x / kTileWords;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int seg0 = blockIdx.x * kTileWords, y0 = blockIdx.y * kTileRows;
  const int seg = seg0 + lx, y = y0 + ly;
  const bool inside = seg < wpr && y < h;
  const uint32_t bits = inside ? threshold_word(img, thr, w, y, seg) : 0u;
  if (inside) on_bits[int64_t(y) * wpr + seg] = bits;
  s_bits[ly][lx] = bits;
  s_bord[ly][lx] = 0;
  if (threadIdx.x == 0) s_nborder = 0;
  // The halo: rows y0 - 1 and y0 + 32 (words seg0 - 1 .. seg0 + 8), columns left and right.
  if (warp < 2 && lane < kTileWords + 2) {
    const int s = seg0 - 1 + lane, yy = warp == 0 ? y0 - 1 : y0 + kTileRows;
    const uint32_t v =
        (yy >= 0 && yy < h && s >= 0 && s < wpr) ? threshold_word(img, thr, w, yy, s) : 0u;
    (warp == 0 ? s_up : s_dn)[lane] = v;
  } else if (warp == 2 || warp == 3) {
    const int x = warp == 2 ? seg0 * 32 - 1 : (seg0 + kTileWords) * 32;
    const int yy = y0 + lane;
    const bool on = x >= 0 && x < w && yy < h && img[int64_t(yy) * w + x] > thr;
    const uint32_t m = __ballot_sync(kFull, on);
    if (lane == 0) s_side[warp - 2] = m;
  }
  if (empty_tile_done(bits, inside, int64_t(y) * wpr + seg, root_bits, bord_bits)) return;

  // Nodes: the starts of the tile's row runs. Contacts with other tiles.
  const int li0 = ly * kTilePix + lx * 32;
  const uint32_t prev = lx > 0 ? s_bits[ly][lx - 1] : 0u;
  const uint32_t next = lx + 1 < kTileWords ? s_bits[ly][lx + 1] : 0u;
  // Contacts with the row above inside the tile: the leftmost pixel of each vertical overlap, and
  // with 8-connectivity the diagonal contacts at run ends (as the untiled merge_kernel).
  uint32_t v = 0, d1 = 0, d2 = 0;  // straight up, up-left, up-right
  if (bits && ly > 0) {
    const uint32_t above = s_bits[ly - 1][lx];
    const uint32_t aprev = lx > 0 ? s_bits[ly - 1][lx - 1] : 0u;
    const uint32_t anext = lx + 1 < kTileWords ? s_bits[ly - 1][lx + 1] : 0u;
    const uint32_t left = (bits << 1) | (prev >> 31);
    const uint32_t right = (bits >> 1) | (next << 31);
    const uint32_t up_left = (above << 1) | (aprev >> 31);
    const uint32_t up_right = (above >> 1) | (anext << 31);
    v = bits & above & ~(left & up_left);
    if (eight) {
      d1 = bits & ~above & ~left & up_left;
      d2 = bits & ~above & ~right & up_right;
    }
  }
  {
    uint32_t starts = bits & ~((bits << 1) | (prev >> 31));
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      // A run's first straight contact above (inside this word) is its parent from the start:
      // one union fewer, and the parent (row above) has the smaller index, as the forest needs.
      int parent = li0 + b;
      const uint32_t gaps = ~bits & (kFull << b);
      const uint32_t first = v & (gaps ? (1u << (__ffs(gaps) - 1)) - 1u : kFull) & (kFull << b);
      if (first) {
        const int i = __ffs(first) - 1;
        v &= ~(1u << i);
        parent = row_run_start(s_bits, ly - 1, lx, i);
      }
      s_uf[li0 + b] = parent;
    }
  }
  const uint32_t cont = tile_outer_contacts(bits, lx, ly, s_up, s_dn, s_side, eight);
  __syncthreads();
  // Unions with the row above inside the tile (the contacts left).
  {
    // The run starts joined by contact `kind` at bit i of word qx in row qy (with row qy - 1).
    auto ends = [&](int qy, int qx, int kind, int i, int& a, int& b) {
      int qxa = qx, j = i;
      if (kind == 1) {
        j = i > 0 ? i - 1 : 31;
        qxa = i > 0 ? qx : qx - 1;
      } else if (kind == 2) {
        j = i < 31 ? i + 1 : 0;
        qxa = i < 31 ? qx : qx + 1;
      }
      a = row_run_start(s_bits, qy, qx, i);
      b = row_run_start(s_bits, qy - 1, qxa, j);
    };
    if constexpr (kBalanced) {
      // The warp's contacts spread evenly over its lanes; lanes with the same pair of runs in a
      // round unite once.
      warp_balanced_items(v, d1, d2, [&](bool valid, int src, int kind, int i) {
        const int ts = warp * 32 + src;
        int a = 0, b = 0;
        if (valid) ends(ts / kTileWords, ts % kTileWords, kind, i, a, b);
        const uint32_t key = valid ? (uint32_t(a) << 16) | uint32_t(b) : kFull;
        if (first_of_key(key) && valid) s_unite(s_uf, a, b);
      });
    } else {
      int last_a = -1, last_b = -1;
      const uint32_t ms[3] = {v, d1, d2};
#pragma unroll
      for (int kind = 0; kind < 3; ++kind) {
        uint32_t m = ms[kind];
        while (m) {
          const int i = __ffs(m) - 1;
          m &= m - 1;
          int a, b;
          ends(ly, lx, kind, i, a, b);
          if (a == last_a && b == last_b) continue;
          last_a = a;
          last_b = b;
          s_unite(s_uf, a, b);
        }
      }
    }
  }
  __syncthreads();

  // The root of every word-local run start goes to the upper 16 bits of its entry (the parent
  // stays in the lower 16 bits for concurrent walks, so nodes are updated with atomicOr; a run
  // continued from the previous word is no node and is written plainly), local-root bits, and
  // for pixels touching another tile the forest entry and the border mark of their root.
  uint32_t lr = 0;
  {
    uint32_t starts = bits & ~(bits << 1);
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const bool continued = b == 0 && (prev >> 31);
      const int r = s_root(s_uf, continued ? row_run_start(s_bits, ly, lx, 0) : li0 + b);
      if (continued)
        s_uf[li0] = r << 16;
      else
        atomicOr(s_uf + li0 + b, r << 16);
      if (r == li0 + b) lr |= 1u << b;
    }
  }
  // The root of the pixel at bit i of word k in row r: in the upper bits of its word-local run
  // start's entry.
  tile_epilogue(TileOutputs{uf, root_bits, bord_bits, loc, w, h, wpr, hints, pair_loc}, seg0, y0,
                cont, lr, s_bits, s_bord, TileBorderList{&s_nborder, s_border},
                [&](int r, int k, int i) {
                  return s_uf[r * kTilePix + k * 32 + run_start(s_bits[r][k], i)] >> 16;
                });
}

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

// unite() with both finds at once.
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
        constexpr int kChases = 4;
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

void fast_tiled(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                const uint8_t* d_intensity, cudaStream_t stream, StageEvents* ev) {
  const bool eight = connectivity == 8;
  const dim3 tiles(unsigned(ws.tiles_x), unsigned(ws.tiles_y));
  auto* loc = reinterpret_cast<int16_t*>(ws.labels);
  if (fast_pairs_enabled() && (eight || fast_pairs4_enabled())) {
    tile_pairs_label(ws, d_image, threshold, eight, stream);
  } else {
    auto kernel = tiles_balance_enabled(false) ? tile_label_kernel<true> : tile_label_kernel<false>;
    kernel<<<tiles, kTileThreads, 0, stream>>>(d_image, threshold, ws.w, ws.h, ws.wpr, ws.uf,
                                               ws.on_bits, ws.root_bits, ws.bord_bits, loc, eight,
                                               cache_hints(), pair_loc_enabled());
    CCL_CUDA_CHECK(cudaGetLastError());
  }
  if (ev) ev->mark("init", stream);
  const int64_t border_threads =
      int64_t(ws.tiles_y - 1) * ws.wpr * 32 + int64_t(ws.tiles_x - 1) * ws.h;
  if (border_threads > 0) {
    tile_border_kernel<<<blocks_for(border_threads, 256), 256, 0, stream>>>(
        ws.uf, ws.on_bits, ws.w, ws.h, ws.wpr, ws.tiles_x, ws.tiles_y, eight);
    CCL_CUDA_CHECK(cudaGetLastError());
  }
  if (ev) ev->mark("merge", stream);
  tile_roots_kernel<<<int(ws.seg_nblocks), 256, 0, stream>>>(ws.uf, ws.w, ws.wpr, ws.tiles_x,
                                                             ws.segs, ws.root_bits, ws.bord_bits,
                                                             ws.seg_offsets, ws.seg_blocks);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (ev) ev->mark("roots", stream);
  tiled_finish(ws, d_intensity, stream, ev);
}

}  // namespace sweepline::gpu::cuda::ccl_detail
