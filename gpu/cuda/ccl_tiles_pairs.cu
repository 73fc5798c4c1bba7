// `fast`, tiled: the tile labelling on row PAIRS (the default; the row-run tile_label_kernel in
// ccl_tiles.cu stays for SWEEPLINE_CCL_PAIRS=0, and for 4-connectivity with
// SWEEPLINE_CCL_PAIRS4=0).
//
// With 8-connectivity every on pixel of rows 2k and 2k + 1 inside one run of (row 2k | row 2k + 1)
// is connected to every other: neighbouring columns of a two-row band always touch. So the nodes
// of the tile's union-find are the runs of the OR'd pair ("pair runs"; about 2.7x fewer than row
// runs at density 0.5) and only the contacts between row 2k - 1 and row 2k are united (half the
// row boundaries). Pairs never cross tiles (32 rows), so the border unions, roots and the finish
// stay as they are; the outputs are exactly those of tile_label_kernel.
//
// With 4-connectivity a column's on pixels in the band are connected (one above the other), and
// two neighbouring columns are connected exactly when one of the two rows is on in both, so the
// band's components are still intervals of columns: runs of the OR'd pair cut where neither row
// continues (row 2k = 1100, row 2k + 1 = 0011 is two pair runs). Their starts are kept per pair
// word (s_st); every lookup of a pair run goes through them instead of the OR'd word.
//
// The representative must stay the component's first pixel in raster order. A node's first pixel
// ("key") is the first on pixel of row 2k inside its run, else the run's start in row 2k + 1.
// Entries are packed as key << 13 | index (index: the run's start in row 2k), so atomicMin orders
// by key: the root of a tile component is the node holding its first pixel. After the unions the
// root's key is written at every word-local pair-run start in row 2k + 1 (entries no node uses),
// or in the compact layout (the default) nodes and keys sit in two half-size arrays.
//
// Seeding (the compact balanced default): a pair run's first contact with the pair above, found
// in the word of its start, is its initial parent instead of a union.
#include <cstdlib>
#include <cstring>

#include "gpu/cuda/ccl_device.cuh"
#include "gpu/cuda/launch_bounds.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kTilePix = kTileWords * 32;             // pixels per tile row
constexpr int kTileThreads = kTileWords * kTileRows;  // one thread per word
constexpr int kTilePixels = kTilePix * kTileRows;
constexpr int kPairs = kTileRows / 2;
constexpr int kIdxBits = 13;
constexpr int kIdxMask = (1 << kIdxBits) - 1;
static_assert(kTilePixels <= (1 << kIdxBits), "a local index fits the packed entry");
static_assert(kTileThreads == 256 && kTileWords == 8, "one warp per word column of a tile");
static_assert(kPairs * kTileWords <= kTileThreads && (kPairs - 1) * 16 <= kTileThreads,
              "a thread per pair word, two per word of a pair boundary");

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

// Node index of the pair run of pair k holding column 32 * px + i: k * kStride + the run's start
// column (kStride 512: its start in row 2k; 256: the compact layout).
template <int kStride, bool kEight>
__device__ __forceinline__ int pair_run_start(const uint32_t (*ors)[kTileWords],
                                              const uint32_t (*sts)[kTileWords], int k, int px,
                                              int i) {
  if (kEight) {
    int rs = run_start(ors[k][px], i);
    while (rs == 0 && px > 0 && (ors[k][px - 1] >> 31)) {
      --px;
      rs = run_start(ors[k][px], 31);
    }
    return k * kStride + px * 32 + rs;
  }
  // Every run starts somewhere in its tile row (the tile's left edge cuts runs).
  uint32_t m = sts[k][px] & (kFull >> (31 - i));
  while (!m) m = sts[k][--px];
  return k * kStride + px * 32 + 31 - __clz(m);
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
// (v) and with 8-connectivity the diagonal contacts at run ends (d1 up-left, d2 up-right), as in
// tile_label_kernel.
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
// for the threshold and the outputs, thread t < 128 pair word t for the nodes.
// kCompact: nodes in a 4096-entry array (index k * 256 + column) and the root keys in a separate
// int16 array: 26.6 KB of shared memory instead of 35.4 KB, with 32 registers, so that 8 blocks
// fit an SM instead of 6 (a 4096^2 frame's 2048 tiles in 2 waves instead of 3).
// kBalanced: the contacts of a warp are handed out evenly over its lanes (warp_balanced_items)
// instead of each thread looping over its own 16 bits (SWEEPLINE_CCL_BALANCE).
// kSeed: a pair run's first contact with the pair above (inside the word of its start) is its
// parent from the start instead of a union (with the compact balanced default only).
// kEight: 8-connectivity (else 4: pair runs cut as above, only straight contacts).
template <bool kCompact, bool kBalanced, bool kSeed, bool kEight>
__global__ void __launch_bounds__(kTileThreads, SWL_MIN_BLOCKS(kTileThreads, kCompact ? 8 : 6))
    tile_pairs_kernel(const uint8_t* __restrict__ img, uint8_t thr, int w, int h, int wpr,
                      int32_t* uf, uint32_t* on_bits, uint32_t* root_bits, uint32_t* bord_bits,
                      int16_t* loc, int hints, bool pair_loc) {
  // Not compact: row 2k holds the packed parents at pair-run starts, row 2k + 1 the root's key at
  // word-local starts. Compact: parents in s_uf[k * 256 + column], keys in s_key likewise.
  constexpr int kStride = kCompact ? kTilePix : 2 * kTilePix;
  __shared__ int32_t s_uf[kCompact ? kTilePixels / 2 : kTilePixels];
  __shared__ int16_t s_key[kCompact ? kTilePixels / 2 : 2];
  // The root key of the pair run of pair kk with its word-local start at column c.
  auto key_at = [&](int kk, int c) -> int {
    return kCompact ? int(s_key[kk * kTilePix + c]) : s_uf[(2 * kk + 1) * kTilePix + c];
  };
  __shared__ uint32_t s_bits[kTileRows][kTileWords];
  __shared__ uint32_t s_or[kPairs][kTileWords];
  __shared__ uint32_t s_st[kEight ? 1 : kPairs][kTileWords];  // pair-run starts (4-conn only)
  __shared__ uint32_t s_bord[kTileRows][kTileWords];          // local roots touching another tile
  // The epilogue's border list: in the compact kernel over the parents (dead by then; a separate
  // array would cost the 8th block an SM), else its own array.
  __shared__ int s_nborder;
  __shared__ uint16_t s_border[kCompact ? 2 : TileBorderList::kMax];
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
    if (kSeed && pk > 0) pair_contacts<kEight>(s_bits, pk, px, v, d1, d2);
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const int a = pk * kStride + px * 32 + b;
      int entry = (pair_run_key<kEight>(s_bits, s_or, s_st, pk, px, b) << kIdxBits) | a;
      if (kSeed) {
        // The parent is a node of the pair above. Its key field here is a lower bound of its
        // key (the run's start in row 2k - 2): only roots' entries must hold the exact key (the
        // unions compare those); a smaller one in a non-root entry only skips halving there.
        const uint32_t gaps = (kEight ? ~por : ~por | (pst & ~(1u << b))) & (kFull << b);
        const uint32_t c =
            (v | d1 | d2) & (gaps ? (1u << (__ffs(gaps) - 1)) - 1u : kFull) & (kFull << b);
        if (c) {
          const int i = __ffs(c) - 1;
          used |= 1u << i;
          const int kind = ((v >> i) & 1u) ? 0 : ((d1 >> i) & 1u) ? 1 : 2;
          const int j = kind == 0 ? i : kind == 1 ? (i + 31) & 31 : (i + 1) & 31;
          const int qx = px + (kind == 1 && i == 0 ? -1 : kind == 2 && i == 31 ? 1 : 0);
          const int p = pair_run_start<kStride, kEight>(s_or, s_st, pk - 1, qx, j);
          entry = ((2 * (pk - 1) * kTilePix + p - (pk - 1) * kStride) << kIdxBits) | p;
        }
      }
      s_uf[a] = entry;
    }
    // The contacts taken (one bit per pixel; v, then d1, then d2 at that pixel), read by the
    // unions below; s_bord is zeroed again before its own use.
    if (kSeed) s_bord[pk][px] = used;
  }
  __syncthreads();
  // Unions across the boundary of pair k - 1 and pair k (row 2k - 1 above row 2k): the leftmost
  // pixel of each vertical overlap and the diagonal contacts at run ends, as in
  // tile_label_kernel; two threads per word (16 bits each).
  {
    const int k = 1 + t / 16, ux = (t >> 1) & (kTileWords - 1);
    uint32_t v = 0, d1 = 0, d2 = 0;  // contacts: straight up, up-left, up-right
    if (t < (kPairs - 1) * 16) {
      const uint32_t half = (t & 1) ? 0xffff0000u : 0x0000ffffu;
      if (s_bits[2 * k][ux] & half) {
        pair_contacts<kEight>(s_bits, k, ux, v, d1, d2);
        uint32_t keep = half;
        if (kSeed) {
          const uint32_t used = s_bord[k][ux];
          d2 &= ~(used & ~d1);
          keep &= ~used;
        }
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
      a = pair_run_start<kStride, kEight>(s_or, s_st, kk, kux, i);
      b = pair_run_start<kStride, kEight>(s_or, s_st, kk - 1, uxq, j);
    };
    if constexpr (kBalanced) {
      // The warp's contacts spread evenly over its lanes; lanes with the same pair of nodes in a
      // round unite once. (Warp 7: lanes 16..31 own none; the loop is warp-uniform.)
      warp_balanced_items(v, d1, d2, [&](bool valid, int src, int kind, int i) {
        const int ts = warp * 32 + src;
        int a = 0, b = 0;
        if (valid) ends(1 + ts / 16, (ts >> 1) & (kTileWords - 1), kind, i, a, b);
        const uint32_t key = valid ? (uint32_t(a) << 16) | uint32_t(b) : kFull;
        if (first_of_key(key) && valid) p_unite(s_uf, a, b);
      });
    } else {
      int last_a = -1, last_b = -1;
      auto join = [&](int kind, int i) {
        int a, b;
        ends(k, ux, kind, i, a, b);
        if (a == last_a && b == last_b) return;
        last_a = a;
        last_b = b;
        p_unite(s_uf, a, b);
      };
      const uint32_t ms[3] = {v, d1, d2};
#pragma unroll
      for (int kind = 0; kind < 3; ++kind) {
        uint32_t m = ms[kind];
        while (m) {
          const int i = __ffs(m) - 1;
          m &= m - 1;
          join(kind, i);
        }
      }
    }
  }
  __syncthreads();
  if (kSeed) s_bord[ly][lx] = 0;
  // The root's key at every word-local pair-run start (row 2k + 1 entries; the walks read only
  // row 2k entries, which nobody writes any more).
  if (pair_thread) {
    uint32_t starts = kEight ? por & ~(por << 1) : pst | (por & 1u);
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const bool continued = b == 0 && (kEight ? (pprev >> 31) != 0 : !(pst & 1u));
      int a = continued ? pair_run_start<kStride, kEight>(s_or, s_st, pk, px, 0)
                        : pk * kStride + px * 32 + b;
      int e = s_uf[a];
      while ((e & kIdxMask) != a) {
        a = e & kIdxMask;
        e = s_uf[a];
      }
      if (kCompact)
        s_key[pk * kTilePix + px * 32 + b] = int16_t(e >> kIdxBits);
      else
        s_uf[(2 * pk + 1) * kTilePix + px * 32 + b] = e >> kIdxBits;
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
  tile_epilogue<true>(
      TileOutputs{uf, root_bits, bord_bits, loc, w, h, wpr, hints, pair_loc}, seg0, y0, cont, lr,
      s_bits, s_bord,
      TileBorderList{&s_nborder, kCompact ? reinterpret_cast<uint16_t*>(s_uf) : s_border},
      [&](int r, int k, int i) {
        return key_at(
            r / 2, k * 32 + local_start<kEight>(s_or[r / 2][k], kEight ? 0u : s_st[r / 2][k], i));
      });
}

}  // namespace

SWL_CCL_SWITCH(pairs_compact_enabled, "SWEEPLINE_CCL_PAIRS_COMPACT", kPairsCompactDefault)

bool tiles_balance_enabled(bool pairs) {
  // SWEEPLINE_CCL_BALANCE=0/1 overrides kPairsBalanceDefault / kRowsBalanceDefault once per
  // process (-1: not set).
  static const int env = [] {
    const char* e = std::getenv("SWEEPLINE_CCL_BALANCE");
    if (e && *e) return std::strcmp(e, "0") != 0 ? 1 : 0;
    return -1;
  }();
  if (env >= 0) return env == 1;
  return pairs ? kPairsBalanceDefault : kRowsBalanceDefault;
}

SWL_CCL_SWITCH(pair_loc_enabled, "SWEEPLINE_CCL_PAIR_LOC", kPairLocDefault)

SWL_CCL_SWITCH(fast_pairs_enabled, "SWEEPLINE_CCL_PAIRS", kFastPairsDefault)

SWL_CCL_SWITCH(fast_pairs4_enabled, "SWEEPLINE_CCL_PAIRS4", kFastPairs4Default)

void tile_pairs_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, bool eight,
                      cudaStream_t stream) {
  const dim3 tiles(unsigned(ws.tiles_x), unsigned(ws.tiles_y));
  auto* loc = reinterpret_cast<int16_t*>(ws.labels);
  auto launch = [&](auto kernel) {
    kernel<<<tiles, kTileThreads, 0, stream>>>(d_image, threshold, ws.w, ws.h, ws.wpr, ws.uf,
                                               ws.on_bits, ws.root_bits, ws.bord_bits, loc,
                                               cache_hints(), pair_loc_enabled());
  };
  const bool compact = pairs_compact_enabled(), balanced = tiles_balance_enabled(true);
  if (compact && balanced)
    launch(eight ? tile_pairs_kernel<true, true, true, true>
                 : tile_pairs_kernel<true, true, true, false>);
  else if (compact)
    launch(eight ? tile_pairs_kernel<true, false, false, true>
                 : tile_pairs_kernel<true, false, false, false>);
  else if (balanced)
    launch(eight ? tile_pairs_kernel<false, true, false, true>
                 : tile_pairs_kernel<false, true, false, false>);
  else
    launch(eight ? tile_pairs_kernel<false, false, false, true>
                 : tile_pairs_kernel<false, false, false, false>);
  CCL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace sweepline::gpu::cuda::ccl_detail
