#pragma once
// Device helpers shared by the CUDA labelling kernels.
#include <cuda_runtime.h>

#include "gpu/cuda/ccl_kernels.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

// Follows parents to the root (a root is its own parent). Reads bypass L1: other threads write.
__device__ __forceinline__ int32_t find_root(const int32_t* uf, int32_t i) {
  int32_t p = __ldcg(uf + i);
  while (p != i) {
    i = p;
    p = __ldcg(uf + i);
  }
  return i;
}

// Find with path halving: a node's parent is replaced by its grandparent (always an ancestor,
// so concurrent unions stay correct). Parents always have smaller indices than their children.
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

// Links the larger root under the smaller (atomicMin), so roots stay the minimum index.
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

// The labelling's L2 hints (SWEEPLINE_CCL_CACHE_HINTS, bits): data read or written once is
// marked evict-first so that it does not push out what later kernels read again. Measured on the
// H100 (docs/perf/labelling.md, 2026-11-26): both bits gain 2-6 us on sparse frames, mostly in
// the finish. (The image's reads marked so were slower and are not offered.)
enum CacheHints : int {
  kHintLocStores = 1,     // the tile kernels' int16 local roots
  kHintFinishStream = 2,  // the finish's reads of them and its label stores
};

// Word `seg` of row y thresholded: bit i set when pixel 32 * seg + i is above `thr`. The caller
// keeps y and seg inside the image.
__device__ __forceinline__ uint32_t threshold_word(const uint8_t* __restrict__ img, uint8_t thr,
                                                   int w, int y, int seg) {
  const int x0 = seg * 32;
  const int n = min(32, w - x0);
  const uint8_t* src = img + int64_t(y) * w + x0;
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
  return bits;
}

// The lane where the run of set bits holding `lane` starts inside its 32-bit word.
__device__ __forceinline__ int run_start(uint32_t bits, int lane) {
  uint32_t below_clear = ~bits & ((1u << lane) - 1u);
  return below_clear ? 32 - __clz(below_clear) : 0;
}

// The position of the set bit of rank r (0: the lowest) in m; any position when r >= popc(m).
__device__ __forceinline__ int nth_set_bit(uint32_t m, int r) {
  int pos = 0;
#pragma unroll
  for (int s = 16; s > 0; s >>= 1) {
    const int lo = __popc(m & ((1u << s) - 1u));
    if (r >= lo) {
      r -= lo;
      m >>= s;
      pos += s;
    }
  }
  return pos;
}

// Work items spread evenly over a warp (every lane calls this with warp-uniform control): lane L
// owns the set bits of m0, m1, m2 (item kinds 0, 1, 2). The warp's items in order (lane by lane;
// in a lane kind 0, 1, 2, low bits first) are handed out 32 a round: item 32 * round + lane goes
// to `lane` as f(valid, owner lane, kind, bit), so that a lane with many items no longer keeps
// the others waiting. f is called by every lane in every round (valid false past the end).
template <class F>
__device__ __forceinline__ void warp_balanced_items(uint32_t m0, uint32_t m1, uint32_t m2, F&& f) {
  constexpr unsigned kAll = 0xffffffffu;
  const int lane = int(threadIdx.x & 31);
  const int c = __popc(m0) + __popc(m1) + __popc(m2);
  int inc = c;
#pragma unroll
  for (int off = 1; off < 32; off *= 2) {
    const int o = __shfl_up_sync(kAll, inc, off);
    if (lane >= off) inc += o;
  }
  const int total = __shfl_sync(kAll, inc, 31);
  for (int base = 0; base < total; base += 32) {
    const int g = base + lane;
    int j = 0;  // the owner: the first lane whose inclusive count exceeds g
#pragma unroll
    for (int s = 16; s > 0; s >>= 1)
      if (__shfl_sync(kAll, inc, j + s - 1) <= g) j += s;
    int r = g - __shfl_sync(kAll, inc, j) + __shfl_sync(kAll, c, j);
    const uint32_t a0 = __shfl_sync(kAll, m0, j), a1 = __shfl_sync(kAll, m1, j);
    const uint32_t a2 = __shfl_sync(kAll, m2, j);
    const int n0 = __popc(a0), n1 = __popc(a1);
    int kind = 0;
    uint32_t m = a0;
    if (r >= n0 + n1) {
      kind = 2;
      m = a2;
      r -= n0 + n1;
    } else if (r >= n0) {
      kind = 1;
      m = a1;
      r -= n0;
    }
    f(g < total, j, kind, nth_set_bit(m, r));
  }
}

// Whether this lane leads the lanes of the warp holding the same key (every lane calls this);
// without match_any (before sm_70) every lane leads.
__device__ __forceinline__ bool first_of_key(uint32_t key) {
#if __CUDA_ARCH__ >= 700
  const unsigned same = __match_any_sync(0xffffffffu, key);
  return int(threadIdx.x & 31) == __ffs(same) - 1;
#else
  (void)key;
  return true;
#endif
}

// A tile kernel's test for an empty tile (every thread calls it, it is a barrier): with no on
// pixel in the tile (most of a radar frame) the tile's root and border bits are zero and nothing
// else is written: no forest entries, no local roots (the finish reads none for empty words).
// True: the caller returns.
__device__ __forceinline__ bool empty_tile_done(uint32_t bits, bool inside, int64_t gw,
                                                uint32_t* root_bits, uint32_t* bord_bits) {
  if (__syncthreads_or(bits != 0u)) return false;
  if (inside) root_bits[gw] = bord_bits[gw] = 0u;
  return true;
}

// The on pixels of word lx of tile row ly (bits) with a neighbour in another tile, from the
// tile's halo: rows above and below (up, dn: words seg0 - 1 .. seg0 + kTileWords) and the
// columns left and right of it (side: bit r is row r).
__device__ __forceinline__ uint32_t tile_outer_contacts(uint32_t bits, int lx, int ly,
                                                        const uint32_t* up, const uint32_t* dn,
                                                        const uint32_t* side, bool eight) {
  if (!bits) return 0u;
  // Pixels whose neighbours in the row beyond (u: same word, ul/ur: the words left and right of
  // it) include an on pixel.
  auto vertical = [eight](uint32_t u, uint32_t ul, uint32_t ur) {
    return eight ? (u | (u << 1) | (ul >> 31) | (u >> 1) | (ur << 31)) : u;
  };
  // Whether the edge pixel at row ly has an on neighbour in the column beyond: col bit r + 1 is
  // row r of that column, r = -1..32.
  auto beside = [eight, ly](uint64_t col) {
    return eight ? ((col >> ly) & 7u) != 0 : ((col >> (ly + 1)) & 1u) != 0;
  };
  uint32_t cont = 0;
  if (ly == 0) cont |= bits & vertical(up[lx + 1], up[lx], up[lx + 2]);
  if (ly == kTileRows - 1) cont |= bits & vertical(dn[lx + 1], dn[lx], dn[lx + 2]);
  if (lx == 0 && (bits & 1u) &&
      beside(uint64_t(up[0] >> 31) | (uint64_t(side[0]) << 1) | (uint64_t(dn[0] >> 31) << 33)))
    cont |= 1u;
  if (lx == kTileWords - 1 && (bits >> 31) &&
      beside(uint64_t(up[kTileWords + 1] & 1u) | (uint64_t(side[1]) << 1) |
             (uint64_t(dn[kTileWords + 1] & 1u) << 33)))
    cont |= 1u << 31;
  return cont;
}

// Where a tile kernel's epilogue writes (ccl_tiles.cu, ccl_tiles_pairs.cu): the forest, the root
// and border tile-root bits and the int16 local roots in the label image.
struct TileOutputs {
  int32_t* uf;
  uint32_t* root_bits;
  uint32_t* bord_bits;
  int16_t* loc;
  int w, h, wpr;
  int hints;  // CacheHints
  // pair_loc_enabled(): one int16 a pair column (rows 2m and 2m + 1 of the tile) in row 2m's
  // region, else one a pixel.
  bool pair_loc;
};

// The tile kernels' common epilogue (kTileRows x kTileWords threads, thread (ly, lx) owning word
// lx of tile row ly; every thread calls it, it holds a barrier). root_of(r, k, i) is the local
// root (r * 256 + column) of the on pixel at bit i of word k in tile row r, from the kernel's own
// node layout. For the pixels that touch another tile (cont: this thread's word's) it writes the
// forest entry (-> global index of the tile root) and marks the root in s_bord (zeroed by the
// caller before a barrier). Those pixels lie on the tile's first and last rows and outer
// columns, i.e. in 24 of the 256 threads' words: they are listed in `border` (count zeroed by
// the caller before a barrier) and handed out over all threads, so that the block does not wait
// on the top and bottom rows' threads (12 % of the 4-connected tile kernel's stall samples at
// density 0.7 were that barrier). Then per word the root bits of components inside the tile (lr:
// this word's local roots), the border tile-root bits and their self entries; then (warp k: word
// column k, lane: pixel) the local roots as int16 into the tile's own label region, which the
// finish reads back before it writes the labels there. With o.pair_loc one entry serves a pair
// column (rows 2m and 2m + 1: their on pixels are one above the other, so one tile component)
// and sits in row 2m's region; -1 where neither is on. Else one entry a pixel (-1 off). Words
// (pair words) with no on pixel are skipped (most of a radar frame: the finish reads none).
// The pixels of a tile that touch another tile, ly << 8 | lx << 5 | bit, in shared memory: at
// most the first and last rows (2 x 256) and the outer columns (2 x 32). The items may alias
// shared memory that is dead by the epilogue (the compact pair kernel's parents).
struct TileBorderList {
  static constexpr int kMax = 2 * kTileWords * 32 + 2 * kTileRows;
  int* count;
  uint16_t* items;
};

// kPairRows: root_of(2m, k, i) == root_of(2m + 1, k, i) (the pair kernel's nodes are runs of row
// pairs, so a column's on pixels in a pair share their root): one lookup serves both rows.
template <bool kPairRows = false, class RootOf>
__device__ __forceinline__ void tile_epilogue(const TileOutputs& o, int seg0, int y0, uint32_t cont,
                                              uint32_t lr, const uint32_t (*s_bits)[kTileWords],
                                              uint32_t (*s_bord)[kTileWords], TileBorderList border,
                                              RootOf&& root_of) {
  constexpr int kPix = kTileWords * 32;
  const int lx = int(threadIdx.x) % kTileWords, ly = int(threadIdx.x) / kTileWords;
  const int seg = seg0 + lx, y = y0 + ly;
  auto touch = [&](int r0, int k, int b) {  // pixel (row r0, word k, bit b) touches another tile
    const int r = root_of(r0, k, b);
    atomicOr(&s_bord[r / kPix][(r % kPix) / 32], 1u << (r & 31));
    o.uf[int64_t(y0 + r0) * o.w + (seg0 + k) * 32 + b] =
        int32_t(int64_t(y0 + r / kPix) * o.w + seg0 * 32 + r % kPix);
  };
  if (cont) {
    int at = atomicAdd(border.count, __popc(cont));
    while (cont) {
      const int b = __ffs(cont) - 1;
      cont &= cont - 1;
      if (at < TileBorderList::kMax)
        border.items[at++] = uint16_t(ly << 8 | lx << 5 | b);
      else
        touch(ly, lx, b);  // (never: cont is on the tile's outer pixels only)
    }
  }
  __syncthreads();  // the list, and the roots root_of reads (written by their words' threads)
  const int n = min(*border.count, TileBorderList::kMax);
  for (int i = int(threadIdx.x); i < n; i += kTileRows * kTileWords) {
    const int it = border.items[i];
    touch(it >> 8, (it >> 5) & 7, it & 31);
  }
  __syncthreads();
  if (seg < o.wpr && y < o.h) {
    const uint32_t bd = s_bord[ly][lx] & lr;
    const int64_t gw = int64_t(y) * o.wpr + seg;
    o.root_bits[gw] = lr & ~bd;
    o.bord_bits[gw] = bd;
    const int32_t base = int32_t(int64_t(y) * o.w + seg * 32);
    uint32_t m = bd;
    while (m) {
      const int b = __ffs(m) - 1;
      m &= m - 1;
      o.uf[base + b] = base + b;
    }
  }
  const int k = int(threadIdx.x) / 32, lane = int(threadIdx.x) & 31;
  const int x = (seg0 + k) * 32 + lane;
  const int64_t col = int64_t(seg0) * 64 + k * 32 + lane;
  auto store = [&](int yy, int16_t v) {
    if (x >= o.w) return;
    int16_t* at = o.loc + 2 * int64_t(yy) * o.w + col;
    if (o.hints & kHintLocStores)
      __stcs(at, v);
    else
      *at = v;
  };
  if (seg0 + k >= o.wpr) return;  // uniform across the warp
  if (o.pair_loc || kPairRows) {
    // A pair column's root, looked up once: one entry (pair layout) or both rows' entries.
    auto pair = [&](int m) {
      const int yy = y0 + 2 * m;
      // Rows past the frame hold no on pixel (their words are 0).
      const uint32_t w0 = s_bits[2 * m][k], w1 = s_bits[2 * m + 1][k];
      if ((w0 | w1) == 0) return;  // the finish reads no local roots for an empty (pair) word
      const bool on0 = (w0 >> lane) & 1u, on1 = (w1 >> lane) & 1u;
      // (The pair kernel's root_of takes either row of a pair column.)
      const int16_t key = (on0 || on1)
                              ? int16_t(root_of(on0 || kPairRows ? 2 * m : 2 * m + 1, k, lane))
                              : int16_t(-1);
      if (o.pair_loc) {
        store(yy, key);
      } else {
        if (w0) store(yy, on0 ? key : int16_t(-1));
        if (w1) store(yy + 1, on1 ? key : int16_t(-1));
      }
    };
    // Where some pair words of the column are empty (a sparse frame), only the others are
    // visited (lane m: pair m). A column with every pair word busy keeps the plain loop: the
    // mask's loop made dense frames slower (docs/perf/labelling.md).
    const int pairs = min(kTileRows / 2, (o.h - y0 + 1) / 2);
    const uint32_t busy = __ballot_sync(
        0xffffffffu, lane < pairs && (s_bits[2 * lane][k] | s_bits[2 * lane + 1][k]) != 0u);
    if (busy != (1u << pairs) - 1u) {
      for (uint32_t pm = busy; pm; pm &= pm - 1) pair(__ffs(pm) - 1);
    } else if (pairs == kTileRows / 2) {
      // A whole tile: a fixed trip count, unrolled so that the pairs' shared loads overlap.
#pragma unroll 4
      for (int m = 0; m < kTileRows / 2; ++m) pair(m);
    } else {
      for (int m = 0; m < pairs; ++m) pair(m);
    }
  } else {
    for (int r = 0; r < kTileRows; ++r) {
      const int yy = y0 + r;
      if (yy >= o.h) break;  // uniform across the warp
      const uint32_t word = s_bits[r][k];
      if (word == 0) continue;  // the finish reads no local roots for an empty word
      store(yy, ((word >> lane) & 1u) ? int16_t(root_of(r, k, lane)) : int16_t(-1));
    }
  }
}

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

}  // namespace sweepline::gpu::cuda::ccl_detail
