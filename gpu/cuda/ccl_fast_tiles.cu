// `fast`, step 1: each 32 x 256-pixel tile labelled in shared memory, one block a tile
// (docs/decisions/0002, 0003).
//
// The block thresholds its tile (on bits) and a one-pixel halo around it. The nodes of its
// union-find are the runs of row PAIRS. With 8-connectivity every on pixel of rows 2k and 2k + 1
// inside one run of (row 2k | row 2k + 1) is connected to every other: neighbouring columns of a
// two-row band always touch. So the nodes are the runs of the OR'd pair ("pair runs"; about 2.7x
// fewer than row runs at density 0.5) and only the contacts between row 2k - 1 and row 2k are
// united (half the row boundaries). Pairs never cross tiles (32 rows).
//
// With 4-connectivity a column's on pixels in the band are connected (one above the other), and
// two neighbouring columns are connected exactly when one of the two rows is on in both, so the
// band's components are still intervals of columns: runs of the OR'd pair cut where neither row
// continues (row 2k = 1100, row 2k + 1 = 0011 is two pair runs). Their starts are kept per pair
// word (s_st); every lookup of a pair run goes through them instead of the OR'd word.
//
// The representative must stay the component's first pixel in raster order. A node's first pixel
// ("key") is the first on pixel of row 2k inside its run, else the run's start in row 2k + 1.
// Entries are packed as key << 13 | index (index: k * 256 + the run's start column in row 2k),
// so atomicMin orders by key: the root of a tile component is the node holding its first pixel.
// After the unions the root's key is written at every word-local pair-run start into a separate
// int16 array. A pair run's first contact with the pair above, found in the word of its start,
// is its initial parent instead of a union ("seeding"); the other contacts of a warp are handed
// out evenly over its lanes.
//
// Outputs, for the next steps:
// - the local roots (flattened) as int16 into the label image's own tile region, one a pair
//   column of rows 2m and 2m + 1 (scratch: the finish reads them back before it writes the
//   labels there);
// - root bits of components that stay inside the tile (root_bits) and tile-root bits of those
//   with a pixel next to an on pixel of another tile (bord_bits);
// - forest entries only where the global unions need them: each such border pixel points to its
//   tile root, each such tile root to itself. Nothing else of the forest is written or read.
#include "gpu/cuda/ccl_device.cuh"
#include "gpu/cuda/launch_bounds.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

constexpr int kPairs = kTileRows / 2;
constexpr int kIdxBits = 13;
constexpr int kIdxMask = (1 << kIdxBits) - 1;
static_assert(kTilePixels <= (1 << kIdxBits), "a local index fits the packed entry");
static_assert(kPairs * kTileWords <= kTileThreads && (kPairs - 1) * 16 <= kTileThreads,
              "a thread per pair word, two per word of a pair boundary");

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
  const int lane = int(threadIdx.x & 31);
  const int c = __popc(m0) + __popc(m1) + __popc(m2);
  int inc = c;
#pragma unroll
  for (int off = 1; off < 32; off *= 2) {
    const int o = __shfl_up_sync(kFull, inc, off);
    if (lane >= off) inc += o;
  }
  const int total = __shfl_sync(kFull, inc, 31);
  for (int base = 0; base < total; base += 32) {
    const int g = base + lane;
    int j = 0;  // the owner: the first lane whose inclusive count exceeds g
#pragma unroll
    for (int s = 16; s > 0; s >>= 1)
      if (__shfl_sync(kFull, inc, j + s - 1) <= g) j += s;
    int r = g - __shfl_sync(kFull, inc, j) + __shfl_sync(kFull, c, j);
    const uint32_t a0 = __shfl_sync(kFull, m0, j), a1 = __shfl_sync(kFull, m1, j);
    const uint32_t a2 = __shfl_sync(kFull, m2, j);
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
  const unsigned same = __match_any_sync(kFull, key);
  return int(threadIdx.x & 31) == __ffs(same) - 1;
#else
  (void)key;
  return true;
#endif
}

// The test for an empty tile (every thread calls it, it is a barrier): with no on pixel in the
// tile (most of a radar frame) the tile's root and border bits are zero and nothing else is
// written: no forest entries, no local roots (the finish reads none for empty words).
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

// Where the tile kernel's epilogue writes: the forest, the root and border tile-root bits and
// the int16 local roots in the label image.
struct TileOutputs {
  int32_t* uf;
  uint32_t* root_bits;
  uint32_t* bord_bits;
  int16_t* loc;
  int w, h, wpr;
};

// The pixels of a tile that touch another tile, ly << 8 | lx << 5 | bit, in shared memory: at
// most the first and last rows (2 x 256) and the outer columns (2 x 32). The items alias the
// kernel's parents, which are dead by the epilogue.
struct TileBorderList {
  static constexpr int kMax = 2 * kTileWords * 32 + 2 * kTileRows;
  int* count;
  uint16_t* items;
};

// The tile kernel's epilogue (kTileRows x kTileWords threads, thread (ly, lx) owning word lx of
// tile row ly; every thread calls it, it holds a barrier). root_of(r, k, i) is the local root
// (r * 256 + column) of the on pixel at bit i of word k in tile row r; rows 2m and 2m + 1 of a
// column give the same root (their on pixels are one above the other, so one tile component).
// For the pixels that touch another tile (cont: this thread's word's) it writes the forest entry
// (-> global index of the tile root) and marks the root in s_bord (zeroed by the caller before a
// barrier). Those pixels lie on the tile's first and last rows and outer columns, i.e. in 24 of
// the 256 threads' words: they are listed in `border` (count zeroed by the caller before a
// barrier) and handed out over all threads, so that the block does not wait on the top and
// bottom rows' threads (12 % of the stall samples at density 0.7 were that barrier). Then per
// word the root bits of components inside the tile (lr: this word's local roots), the border
// tile-root bits and their self entries; then (warp k: word column k, lane: pixel) the local
// roots as int16 into the tile's own label region, which the finish reads back before it writes
// the labels there: one entry a pair column, in row 2m's region, -1 where neither row is on. Pair
// words with no on pixel are skipped (most of a radar frame: the finish reads none). The stores
// are evict-first: the finish reads them once (docs/decisions/0007).
template <class RootOf>
__device__ __forceinline__ void tile_epilogue(const TileOutputs& o, int seg0, int y0, uint32_t cont,
                                              uint32_t lr, const uint32_t (*s_bits)[kTileWords],
                                              uint32_t (*s_bord)[kTileWords], TileBorderList border,
                                              RootOf&& root_of) {
  const int lx = int(threadIdx.x) % kTileWords, ly = int(threadIdx.x) / kTileWords;
  const int seg = seg0 + lx, y = y0 + ly;
  auto touch = [&](int r0, int k, int b) {  // pixel (row r0, word k, bit b) touches another tile
    const int r = root_of(r0, k, b);
    atomicOr(&s_bord[r / kTilePix][(r % kTilePix) / 32], 1u << (r & 31));
    o.uf[int64_t(y0 + r0) * o.w + (seg0 + k) * 32 + b] =
        int32_t(int64_t(y0 + r / kTilePix) * o.w + seg0 * 32 + r % kTilePix);
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
  for (int i = int(threadIdx.x); i < n; i += kTileThreads) {
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
  if (seg0 + k >= o.wpr) return;  // uniform across the warp
  // A pair column's root, looked up once.
  auto pair = [&](int m) {
    // Rows past the frame hold no on pixel (their words are 0).
    const uint32_t w0 = s_bits[2 * m][k], w1 = s_bits[2 * m + 1][k];
    if ((w0 | w1) == 0) return;  // the finish reads no local roots for an empty pair word
    const bool on = ((w0 | w1) >> lane) & 1u;
    const int16_t key = on ? int16_t(root_of(2 * m, k, lane)) : int16_t(-1);
    if (x < o.w) __stcs(o.loc + 2 * int64_t(y0 + 2 * m) * o.w + col, key);
  };
  // Where some pair words of the column are empty (a sparse frame), only the others are visited
  // (lane m: pair m). A column with every pair word busy keeps the plain loop: the mask's loop
  // made dense frames slower (docs/perf/labelling.md).
  const int pairs = min(kTileRows / 2, (o.h - y0 + 1) / 2);
  const uint32_t busy =
      __ballot_sync(kFull, lane < pairs && (s_bits[2 * lane][k] | s_bits[2 * lane + 1][k]) != 0u);
  if (busy != (1u << pairs) - 1u) {
    for (uint32_t pm = busy; pm; pm &= pm - 1) pair(__ffs(pm) - 1);
  } else if (pairs == kTileRows / 2) {
    // A whole tile: a fixed trip count, unrolled so that the pairs' shared loads overlap.
#pragma unroll 4
    for (int m = 0; m < kTileRows / 2; ++m) pair(m);
  } else {
    for (int m = 0; m < pairs; ++m) pair(m);
  }
}

// Shared-memory union-find on packed entries (every access an atomic while unions run). Returns
// the packed root (key << 13 | index). Entries only ever decrease, so halving is an atomicMin.
__device__ __forceinline__ int p_find(int32_t* uf, int i) {
  for (;;) {
    const int p = atomicOr(uf + i, 0);
    const int pi = p & kIdxMask;
    if (pi == i) return p;
    const int gp = atomicOr(uf + pi, 0);
    if ((gp & kIdxMask) == pi) return gp;
    atomicMin(uf + i, gp);
    i = gp & kIdxMask;
  }
}

__device__ __forceinline__ void p_unite(int32_t* uf, int a, int b) {
  int pa = p_find(uf, a), pb = p_find(uf, b);
  for (;;) {
    if (pa == pb) return;
    if (pa > pb) {
      const int t = pa;
      pa = pb;
      pb = t;
    }
    const int old = atomicMin(uf + (pb & kIdxMask), pa);
    if (old == pb) return;
    // pb was linked meanwhile (to old): unite pa's tree with old's.
    pb = p_find(uf, old & kIdxMask);
    pa = p_find(uf, pa & kIdxMask);
  }
}

// Pair-run starts of a pair word with 4-connectivity (a: row 2k, b: row 2k + 1; ap, bp: the
// words left of them, 0 at the tile's left edge): on columns joined to the column left of them
// through neither row.
__device__ __forceinline__ uint32_t band_starts4(uint32_t a, uint32_t b, uint32_t ap, uint32_t bp) {
  const uint32_t joined = (a & ((a << 1) | (ap >> 31))) | (b & ((b << 1) | (bp >> 31)));
  return (a | b) & ~joined;
}

// The bit where the pair run holding on bit i of pair word o (run starts st: 4-connectivity
// only) starts inside that word (0 when it comes from the word before).
template <bool kEight>
__device__ __forceinline__ int local_start(uint32_t o, uint32_t st, int i) {
  if (kEight) return run_start(o, i);
  return 31 - __clz((st | (o & 1u)) & (kFull >> (31 - i)));
}

// Node index of the pair run of pair k holding column 32 * px + i: k * 256 + the run's start
// column.
template <bool kEight>
__device__ __forceinline__ int pair_run_start(const uint32_t (*ors)[kTileWords],
                                              const uint32_t (*sts)[kTileWords], int k, int px,
                                              int i) {
  if (kEight) {
    int rs = run_start(ors[k][px], i);
    while (rs == 0 && px > 0 && (ors[k][px - 1] >> 31)) {
      --px;
      rs = run_start(ors[k][px], 31);
    }
    return k * kTilePix + px * 32 + rs;
  }
  // Every run starts somewhere in its tile row (the tile's left edge cuts runs).
  uint32_t m = sts[k][px] & (kFull >> (31 - i));
  while (!m) m = sts[k][--px];
  return k * kTilePix + px * 32 + 31 - __clz(m);
}

// The first pixel (local index) of the pair run of pair k starting at bit b of word px.
template <bool kEight>
__device__ __forceinline__ int pair_run_key(const uint32_t (*bits)[kTileWords],
                                            const uint32_t (*ors)[kTileWords],
                                            const uint32_t (*sts)[kTileWords], int k, int px,
                                            int b) {
  int j = px, from = b;
  for (;;) {
    const uint32_t o = ors[k][j];
    const uint32_t ahead = o & (kFull << from);
    // Where the run ends: an off column, or (4-connectivity) the next run's start.
    uint32_t stops = ~o;
    if (!kEight) stops |= sts[k][j] & ~(1u << from);
    stops &= kFull << from;
    const uint32_t run = stops ? ahead & ((1u << (__ffs(stops) - 1)) - 1u) : ahead;
    const uint32_t t = bits[2 * k][j] & run;
    if (t) return 2 * k * kTilePix + j * 32 + __ffs(t) - 1;
    if (stops || j + 1 >= kTileWords || !(ors[k][j + 1] & 1u)) break;
    if (!kEight && (sts[k][j + 1] & 1u)) break;
    ++j;
    from = 0;
  }
  return (2 * k + 1) * kTilePix + px * 32 + b;
}

// The contacts of row 2k (word ux) with row 2k - 1: the leftmost pixel of each vertical overlap
// (v) and with 8-connectivity the diagonal contacts at run ends (d1 up-left, d2 up-right).
template <bool kEight>
__device__ __forceinline__ void pair_contacts(const uint32_t (*bits)[kTileWords], int k, int ux,
                                              uint32_t& v, uint32_t& d1, uint32_t& d2) {
  const uint32_t row = bits[2 * k][ux];
  const uint32_t above = bits[2 * k - 1][ux];
  const uint32_t rprev = ux > 0 ? bits[2 * k][ux - 1] : 0u;
  const uint32_t rnext = ux + 1 < kTileWords ? bits[2 * k][ux + 1] : 0u;
  const uint32_t aprev = ux > 0 ? bits[2 * k - 1][ux - 1] : 0u;
  const uint32_t anext = ux + 1 < kTileWords ? bits[2 * k - 1][ux + 1] : 0u;
  const uint32_t left = (row << 1) | (rprev >> 31);
  const uint32_t right = (row >> 1) | (rnext << 31);
  const uint32_t up_left = (above << 1) | (aprev >> 31);
  const uint32_t up_right = (above >> 1) | (anext << 31);
  v = row & above & ~(left & up_left);
  d1 = kEight ? row & ~above & ~left & up_left : 0u;
  d2 = kEight ? row & ~above & ~right & up_right : 0u;
}

// Grid: (tiles across, tiles down), kTileThreads threads; thread (ly, lx) owns word lx of row ly
// for the threshold and the outputs, thread t < 128 pair word t for the nodes. Nodes sit in a
// 4096-entry array (index k * 256 + column) and the root keys in a separate int16 array: 26.6 KB
// of shared memory with 32 registers, so that kTileBlocksPerSm blocks fit an SM.
// kEight: 8-connectivity (else 4: pair runs cut as above, only straight contacts).
template <bool kEight>
__global__ void __launch_bounds__(kTileThreads, SWL_MIN_BLOCKS(kTileThreads, kTileBlocksPerSm))
    tile_pairs_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int h, int wpr,
                      int32_t* uf, uint32_t* on_bits, uint32_t* root_bits, uint32_t* bord_bits,
                      int16_t* loc) {
  // Parents in s_uf[k * 256 + column], root keys in s_key likewise.
  __shared__ int32_t s_uf[kTilePixels / 2];
  __shared__ int16_t s_key[kTilePixels / 2];
  // The root key of the pair run of pair kk with its word-local start at column c.
  auto key_at = [&](int kk, int c) -> int { return int(s_key[kk * kTilePix + c]); };
  __shared__ uint32_t s_bits[kTileRows][kTileWords];
  __shared__ uint32_t s_or[kPairs][kTileWords];
  __shared__ uint32_t s_st[kEight ? 1 : kPairs][kTileWords];  // pair-run starts (4-conn only)
  __shared__ uint32_t s_bord[kTileRows][kTileWords];          // local roots touching another tile
  // The epilogue's border list lies over the parents (dead by then; an array of its own would
  // cost the 8th block an SM).
  __shared__ int s_nborder;
  static_assert(kTilePixels / 2 * 4 >= TileBorderList::kMax * 2, "the list fits the parents");
  __shared__ uint32_t s_up[kTileWords + 2], s_dn[kTileWords + 2], s_side[2];
  const int t = threadIdx.x;
  const int lx = t % kTileWords, ly = t / kTileWords;
  const int warp = t / 32, lane = t & 31;
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

  const int li0 = ly * kTilePix + lx * 32;
  const uint32_t prev = lx > 0 ? s_bits[ly][lx - 1] : 0u;
  const uint32_t cont = tile_outer_contacts(bits, lx, ly, s_up, s_dn, s_side, kEight);
  // Pair words.
  const int pk = t / kTileWords, px = t % kTileWords;  // t < 128: pair pk, word px
  const bool pair_thread = t < kPairs * kTileWords;
  if (pair_thread) {
    s_or[pk][px] = s_bits[2 * pk][px] | s_bits[2 * pk + 1][px];
    if (!kEight)
      s_st[pk][px] = band_starts4(s_bits[2 * pk][px], s_bits[2 * pk + 1][px],
                                  px > 0 ? s_bits[2 * pk][px - 1] : 0u,
                                  px > 0 ? s_bits[2 * pk + 1][px - 1] : 0u);
  }
  __syncthreads();
  // Nodes: the pair runs, keyed by their first pixel.
  uint32_t por = 0, pprev = 0, pst = 0;
  if (pair_thread) {
    por = s_or[pk][px];
    pprev = px > 0 ? s_or[pk][px - 1] : 0u;
    if (!kEight) pst = s_st[pk][px];
    uint32_t starts = kEight ? por & ~((por << 1) | (pprev >> 31)) : pst;
    uint32_t v = 0, d1 = 0, d2 = 0, used = 0;
    if (pk > 0) pair_contacts<kEight>(s_bits, pk, px, v, d1, d2);
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const int a = pk * kTilePix + px * 32 + b;
      int entry = (pair_run_key<kEight>(s_bits, s_or, s_st, pk, px, b) << kIdxBits) | a;
      // Seeding: the parent is a node of the pair above. Its key field here is a lower bound of
      // its key (the run's start in row 2k - 2): only roots' entries must hold the exact key
      // (the unions compare those); a smaller one in a non-root entry only skips halving there.
      const uint32_t gaps = (kEight ? ~por : ~por | (pst & ~(1u << b))) & (kFull << b);
      const uint32_t c =
          (v | d1 | d2) & (gaps ? (1u << (__ffs(gaps) - 1)) - 1u : kFull) & (kFull << b);
      if (c) {
        const int i = __ffs(c) - 1;
        used |= 1u << i;
        const int kind = ((v >> i) & 1u) ? 0 : ((d1 >> i) & 1u) ? 1 : 2;
        const int j = kind == 0 ? i : kind == 1 ? (i + 31) & 31 : (i + 1) & 31;
        const int qx = px + (kind == 1 && i == 0 ? -1 : kind == 2 && i == 31 ? 1 : 0);
        const int p = pair_run_start<kEight>(s_or, s_st, pk - 1, qx, j);
        entry = ((2 * (pk - 1) * kTilePix + p - (pk - 1) * kTilePix) << kIdxBits) | p;
      }
      s_uf[a] = entry;
    }
    // The contacts taken (one bit per pixel; v, then d1, then d2 at that pixel), read by the
    // unions below; s_bord is zeroed again before its own use.
    s_bord[pk][px] = used;
  }
  __syncthreads();
  // Unions across the boundary of pair k - 1 and pair k (row 2k - 1 above row 2k): the leftmost
  // pixel of each vertical overlap and the diagonal contacts at run ends; two threads per word
  // (16 bits each) find them, then the warp's contacts are spread evenly over its lanes.
  {
    const int k = 1 + t / 16, ux = (t >> 1) & (kTileWords - 1);
    uint32_t v = 0, d1 = 0, d2 = 0;  // contacts: straight up, up-left, up-right
    if (t < (kPairs - 1) * 16) {
      const uint32_t half = (t & 1) ? 0xffff0000u : 0x0000ffffu;
      if (s_bits[2 * k][ux] & half) {
        pair_contacts<kEight>(s_bits, k, ux, v, d1, d2);
        const uint32_t used = s_bord[k][ux];
        d2 &= ~(used & ~d1);
        const uint32_t keep = half & ~used;
        v &= keep;
        d1 &= keep;
        d2 &= half;
      }
    }
    // The nodes joined by contact `kind` at bit i of word kux, boundary kk (row 2kk - 1 above
    // row 2kk): a in pair kk, b in pair kk - 1.
    auto ends = [&](int kk, int kux, int kind, int i, int& a, int& b) {
      int uxq = kux, j = i;
      if (kind == 1) {
        j = i > 0 ? i - 1 : 31;
        uxq = i > 0 ? kux : kux - 1;
      } else if (kind == 2) {
        j = i < 31 ? i + 1 : 0;
        uxq = i < 31 ? kux : kux + 1;
      }
      a = pair_run_start<kEight>(s_or, s_st, kk, kux, i);
      b = pair_run_start<kEight>(s_or, s_st, kk - 1, uxq, j);
    };
    // Lanes with the same pair of nodes in a round unite once. (Warp 7: lanes 16..31 own none;
    // the loop is warp-uniform.)
    warp_balanced_items(v, d1, d2, [&](bool valid, int src, int kind, int i) {
      const int ts = warp * 32 + src;
      int a = 0, b = 0;
      if (valid) ends(1 + ts / 16, (ts >> 1) & (kTileWords - 1), kind, i, a, b);
      const uint32_t key = valid ? (uint32_t(a) << 16) | uint32_t(b) : kFull;
      if (first_of_key(key) && valid) p_unite(s_uf, a, b);
    });
  }
  __syncthreads();
  s_bord[ly][lx] = 0;
  // The root's key at every word-local pair-run start.
  if (pair_thread) {
    uint32_t starts = kEight ? por & ~(por << 1) : pst | (por & 1u);
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const bool continued = b == 0 && (kEight ? (pprev >> 31) != 0 : !(pst & 1u));
      int a =
          continued ? pair_run_start<kEight>(s_or, s_st, pk, px, 0) : pk * kTilePix + px * 32 + b;
      int e = s_uf[a];
      while ((e & kIdxMask) != a) {
        a = e & kIdxMask;
        e = s_uf[a];
      }
      s_key[pk * kTilePix + px * 32 + b] = int16_t(e >> kIdxBits);
    }
  }
  __syncthreads();
  // Local-root bits (a root is a row-run start whose component's first pixel it is), and for
  // pixels touching another tile the forest entry and the border mark of their root.
  uint32_t lr = 0;
  {
    const uint32_t o = s_or[ly / 2][lx], st = kEight ? 0u : s_st[ly / 2][lx];
    const int kc = lx * 32;  // keys of this word's pair-run starts: key_at(ly / 2, kc + start)
    uint32_t cand = bits & ~((bits << 1) | (prev >> 31));
    while (cand) {
      const int b = __ffs(cand) - 1;
      cand &= cand - 1;
      if (key_at(ly / 2, kc + local_start<kEight>(o, st, b)) == li0 + b) lr |= 1u << b;
    }
  }
  // The root of the pixel at bit i of word k in row r: the key at its word-local pair-run start.
  tile_epilogue(
      TileOutputs{uf, root_bits, bord_bits, loc, w, h, wpr}, seg0, y0, cont, lr, s_bits, s_bord,
      TileBorderList{&s_nborder, reinterpret_cast<uint16_t*>(s_uf)}, [&](int r, int k, int i) {
        return key_at(
            r / 2, k * 32 + local_start<kEight>(s_or[r / 2][k], kEight ? 0u : s_st[r / 2][k], i));
      });
}

}  // namespace

void label_tiles(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, bool eight,
                 cudaStream_t stream) {
  const dim3 tiles(unsigned(ws.tiles_x), unsigned(ws.tiles_y));
  auto* loc = reinterpret_cast<int16_t*>(ws.labels);
  auto kernel = eight ? tile_pairs_kernel<true> : tile_pairs_kernel<false>;
  kernel<<<tiles, kTileThreads, 0, stream>>>(d_image, threshold, ws.w, ws.h, ws.wpr, ws.uf,
                                             ws.on_bits, ws.root_bits, ws.bord_bits, loc);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda::ccl_detail
