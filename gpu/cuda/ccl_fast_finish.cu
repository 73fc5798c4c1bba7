// `fast`, steps 4 and 5: consecutive ids and statistics without a forest walk per pixel and
// without global atomics for components that stay inside one tile (docs/decisions/0002, 0004,
// 0005).
//
// - The block totals of tile_roots_kernel are scanned: the id of a root is its block's offset +
//   its segment's prefix in the block + roots of earlier words of the segment + its rank in its
//   word, so ids follow raster order, 1..n.
// - border_scan_kernel (rows of whole tiles, as 4096 wide; else the scan kernel and then
//   border_init_kernel): each block its offset (the scan, fused) and identities for the
//   statistics of components that span tiles (the only ones accumulated with global atomics).
// - tile_finish_kernel: per tile, reads back the local roots (int16, one a pair column of rows 2m
//   and 2m + 1, written by the tile labelling into the label image's own tile region), numbers
//   the tile's local components ("slots"), accumulates each row run into its slot (shared-memory
//   atomics, closed forms without an intensity image), writes the labels two rows a step, then
//   per component either stores its final statistics (inside the tile: no atomics, consecutive
//   ids from consecutive threads) or adds them once per (component, tile) with global atomics.
//   A tile with more components than its shared slots takes several passes. The local roots are
//   read and the labels stored evict-first: each is touched once (docs/decisions/0007).
#include <algorithm>

#include "gpu/cuda/ccl_device.cuh"
#include "gpu/cuda/launch_bounds.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

constexpr uint32_t kBorderFlag = 0x80000000u;
constexpr uint32_t kPending = 0xffffffffu;  // in s_ymx while a slot's id is still to be looked up

// Blocks an SM and slots a pass (ccl_tuning.hpp): without an intensity image six blocks with
// 1088 slots, with one three with 1280.
template <bool kWeighted>
constexpr int kBlocksPerSm = kWeighted ? kFinishBlocksPerSmWeighted : kFinishBlocksPerSm;
template <bool kWeighted>
constexpr int kSlots = kWeighted ? kFinishSlotsWeighted : kFinishSlots;
// Local roots (int16 a pair column), with an intensity image its bytes, the on bits (transposed:
// [word column][row]), the row-root bits, row offsets, warp counts. Per slot: id, weight sum (with
// the sum of local y packed in when unweighted), sum of x, sum of y (weighted only), box columns
// and last row; weighted also the area and peak. The top row rides above the sum of x (unweighted)
// or the area (weighted): kRowShift.
template <bool kWeighted>
constexpr int kSlotArrays = kWeighted ? 9 : 6;
template <bool kWeighted>
constexpr size_t kFinishShared = size_t(kTilePixels) * (kWeighted ? 2 : 1) +
                                 (2 * size_t(kTileThreads) + kTileRows + 8) * 4 +
                                 size_t(kSlotArrays<kWeighted>) * kSlots<kWeighted> * 4;
// The blocks an SM fit its shared memory on sm_90 (228 KB, 1 KB reserved a block).
static_assert((kFinishShared<false> + 1024) * kBlocksPerSm<false> <= 228 * 1024,
              "the unweighted finish's blocks an SM (sm_90)");
static_assert((kFinishShared<true> + 1024) * kBlocksPerSm<true> <= 228 * 1024,
              "the weighted finish's blocks an SM (sm_90)");

// The pair column (m * kTilePix + column) of local pixel li (row * kTilePix + column).
__device__ __forceinline__ int pair_col(int li) {
  return (li >> 9) * kTilePix + (li & (kTilePix - 1));
}
static_assert(kTilePix == 256, "pair_col: a pair is 512 local pixels");

// Roots before segment sg: its block's offset + its prefix inside the block.
__device__ __forceinline__ uint32_t seg_offset(const uint32_t* __restrict__ seg_local,
                                               const uint32_t* __restrict__ seg_blocks,
                                               int64_t sg) {
  return seg_blocks[sg / 32] + seg_local[sg];
}

// The id of the root at bit b of word x in row y (every root bit of the frame is final).
__device__ __forceinline__ uint32_t root_id(const uint32_t* __restrict__ root_bits,
                                            const uint32_t* __restrict__ seg_local,
                                            const uint32_t* __restrict__ seg_blocks, int wpr,
                                            int tiles_x, int y, int x, int b) {
  const int64_t row = int64_t(y) * wpr;
  uint32_t id = seg_offset(seg_local, seg_blocks, int64_t(y) * tiles_x + x / kTileWords);
  const int j0 = (x / kTileWords) * kTileWords;
  // Unrolled and predicated: the loads of the earlier words of the segment are independent.
#pragma unroll
  for (int j = 0; j < kTileWords - 1; ++j)
    if (j0 + j < x) id += __popc(root_bits[row + j0 + j]);
  return id + __popc(root_bits[row + x] & ((1u << b) - 1u)) + 1u;
}

// The statistics of the global roots m of one word (root bits rb, `before` roots earlier in the
// frame) back to their identities, with their row y as the top row: the components that span
// tiles, whose statistics the finish adds with atomics.
__device__ __forceinline__ void reset_border_roots(const Stats& st, uint32_t m, uint32_t rb,
                                                   uint32_t before, uint32_t y, int64_t capacity,
                                                   bool weighted) {
  while (m) {
    const int b = __ffs(m) - 1;
    m &= m - 1;
    const uint32_t id = before + __popc(rb & ((1u << b) - 1u)) + 1u;
    if (int64_t(id) > capacity) continue;
    reset_spanning(st, id - 1, y, weighted);
  }
}

// One thread per word: identities for the statistics of components that span tiles (their roots
// are the global roots among the border tile roots); ymin is the root's row.
__global__ void border_init_kernel(const uint32_t* __restrict__ root_bits,
                                   const uint32_t* __restrict__ bord_bits,
                                   const uint32_t* __restrict__ seg_local,
                                   const uint32_t* __restrict__ seg_blocks, int wpr, int tiles_x,
                                   int64_t words, Stats st, int64_t capacity, bool weighted) {
  const int64_t gw = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (gw >= words) return;
  uint32_t m = bord_bits[gw];
  if (!m) return;
  const uint32_t rb = root_bits[gw];
  m &= rb;
  if (!m) return;
  const int y = int(gw / wpr), x = int(gw % wpr);
  const uint32_t before = root_id(root_bits, seg_local, seg_blocks, wpr, tiles_x, y, x, 0) - 1u;
  reset_border_roots(st, m, rb, before, uint32_t(y), capacity, weighted);
}

// Frames whose rows are whole tiles wide (wpr % kTileWords == 0; 256 threads, one per word):
// block b's words are exactly segment block b, so the scan of the segment block totals is done
// here (no separate scan kernel): block b sums the totals of the blocks before it (at most
// kMaxFusedBlocks), writes its offset to seg_scan[b] (the last block also the component count),
// then with kInit the identities of its border roots as border_init_kernel.
template <bool kInit>
__global__ void __launch_bounds__(256)
    border_scan_kernel(const uint32_t* __restrict__ root_bits,
                       const uint32_t* __restrict__ bord_bits,
                       const uint32_t* __restrict__ seg_local,
                       const uint32_t* __restrict__ seg_totals, uint32_t* seg_scan, int32_t* total,
                       int wpr, int64_t words, int64_t nblocks, Stats st, int64_t capacity,
                       bool weighted) {
  __shared__ uint32_t s_part[8];
  const int64_t b = blockIdx.x;
  const int lane = int(threadIdx.x) & 31;
  uint32_t part = 0;
  for (int64_t i0 = 0; i0 < b; i0 += 2048) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const int64_t i = i0 + threadIdx.x + 256 * k;
      if (i < b) part += seg_totals[i];
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off /= 2) part += __shfl_xor_sync(kFull, part, off);
  if (lane == 0) s_part[threadIdx.x / 32] = part;
  __syncthreads();
  uint32_t offset = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) offset += s_part[i];
  if (threadIdx.x == 0) {
    seg_scan[b] = offset;
    if (b == nblocks - 1) *total = int32_t(offset + seg_totals[b]);
  }
  if (!kInit) return;
  const int64_t gw = b * 256 + threadIdx.x;
  const bool valid = gw < words;
  const uint32_t rb = valid ? root_bits[gw] : 0u;
  uint32_t m = valid ? bord_bits[gw] & rb : 0u;
  // Roots of the segment's earlier words: a scan over its kTileWords lanes.
  const uint32_t c = __popc(rb);
  uint32_t inc = c;
  const int sub = int(threadIdx.x) % kTileWords;
#pragma unroll
  for (int off = 1; off < kTileWords; off *= 2) {
    const uint32_t o = __shfl_up_sync(kFull, inc, off, kTileWords);
    if (sub >= off) inc += o;
  }
  if (!m) return;
  const int y = int(gw / wpr);
  const uint32_t before = offset + seg_local[gw / kTileWords] + inc - c;
  reset_border_roots(st, m, rb, before, uint32_t(y), capacity, weighted);
}

// The statistics of one component that spans tiles, as one tile (or one warp) adds them.
template <bool kWeighted>
struct BorderSums {
  uint64_t sw;    // weighted only
  uint32_t area;  // unweighted: the pixel count (added onto kSums64 from the reset)
  uint32_t pk;    // weighted only
  uint64_t swx, swy;
  uint32_t xmn, xmx, ymx;
};

template <bool kWeighted>
__device__ __forceinline__ void add_border_sums(const Stats& st, uint32_t kk,
                                                const BorderSums<kWeighted>& v) {
  if (!kWeighted && st.rec && !st.area) {  // all in the record (SpanWord)
    uint32_t* r = st.rec + size_t(kRecordWords) * kk;
    auto* sums = reinterpret_cast<unsigned long long*>(r);
    atomicAdd(sums + kSpanAreaSx / 2,
              (unsigned long long)((uint64_t(v.area) << kSpanAreaShift) + v.swx));
    atomicAdd(sums + kSpanSumY / 2, (unsigned long long)v.swy);
    atomicMin(r + kSpanXmin, v.xmn);
    atomicMax(r + kSpanXmax, v.xmx);
    atomicMax(r + kSpanYmax, v.ymx);
    return;
  }
  if (!kWeighted && st.rec) {
    auto* sums = reinterpret_cast<unsigned long long*>(st.rec + size_t(kRecordWords) * kk);
    atomicAdd(sums + kSpanSx / 2, (unsigned long long)v.swx);
    atomicAdd(sums + kSpanSy / 2, (unsigned long long)v.swy);
    atomicAdd(st.area + kk, v.area);
    atomicMin(st.xmin + kk, v.xmn);
    atomicMax(st.xmax + kk, v.xmx);
    atomicMax(st.ymax + kk, v.ymx);
    return;
  }
  if (kWeighted) {
    atomicAdd(st.sum_w + kk, (unsigned long long)v.sw);
    atomicMax(st.peak + kk, v.pk);
  }
  atomicAdd(st.area + kk, v.area);
  atomicAdd(st.sum_wx + kk, (unsigned long long)v.swx);
  atomicAdd(st.sum_wy + kk, (unsigned long long)v.swy);
  atomicMin(st.xmin + kk, v.xmn);
  atomicMax(st.xmax + kk, v.xmx);
  atomicMax(st.ymax + kk, v.ymx);
}

// A tile's small open-addressed table (keyed by id) of the components that span tiles and hold
// several slots of one warp, in the shared words of the row-root bits once they are no longer
// read. The giant component of a frame near the percolation threshold enters every tile through
// tens of warps; without the table each warp's share is a set of global atomics on the same few
// addresses. A component with one slot in its warp, or one that finds no free entry, goes to the
// global atomics directly (same result).
template <bool kWeighted>
struct BorderTable {
  static constexpr int kEntries = kBorderTableEntries;
  static constexpr uint32_t kEmpty = 0u;  // ids start at 1
  unsigned long long* swx;
  unsigned long long* swy;
  unsigned long long* sw;  // weighted only
  uint32_t *key, *area, *xmn, *xmx, *ymx, *pk;

  __device__ explicit BorderTable(unsigned char* base) {
    swx = reinterpret_cast<unsigned long long*>(base);
    swy = swx + kEntries;
    sw = swy + kEntries;
    key = reinterpret_cast<uint32_t*>(sw + (kWeighted ? kEntries : 0));
    area = key + kEntries;
    xmn = area + kEntries;
    xmx = xmn + kEntries;
    ymx = xmx + kEntries;
    pk = ymx + kEntries;
  }
  static constexpr size_t bytes() {
    return size_t(kEntries) * ((kWeighted ? 3 : 2) * 8 + (kWeighted ? 6 : 5) * 4);
  }
  __device__ void clear() {
    if (const int i = threadIdx.x; i < kEntries) {
      key[i] = kEmpty;
      area[i] = 0;
      swx[i] = swy[i] = 0;
      xmn[i] = 0xffffffffu;
      xmx[i] = ymx[i] = 0;
      if (kWeighted) {
        sw[i] = 0;
        pk[i] = 0;
      }
    }
  }
  __device__ bool add(uint32_t id, const BorderSums<kWeighted>& v) {
    uint32_t h = (id * 2654435761u) >> 28;
    for (int p = 0; p < kEntries; ++p, h = (h + 1) & (kEntries - 1)) {
      const uint32_t k = atomicCAS(key + h, kEmpty, id);
      if (k != kEmpty && k != id) continue;
      atomicAdd(area + h, v.area);
      atomicAdd(swx + h, (unsigned long long)v.swx);
      atomicAdd(swy + h, (unsigned long long)v.swy);
      atomicMin(xmn + h, v.xmn);
      atomicMax(xmx + h, v.xmx);
      atomicMax(ymx + h, v.ymx);
      if (kWeighted) {
        atomicAdd(sw + h, (unsigned long long)v.sw);
        atomicMax(pk + h, v.pk);
      }
      return true;
    }
    return false;
  }
  __device__ void flush(const Stats& st, int64_t capacity) const {
    if (const int i = threadIdx.x; i < kEntries) {
      const uint32_t id = key[i];
      if (id == kEmpty || int64_t(id) > capacity) return;
      add_border_sums<kWeighted>(st, id - 1,
                                 {kWeighted ? uint64_t(sw[i]) : 0, area[i], kWeighted ? pk[i] : 0,
                                  swx[i], swy[i], xmn[i], xmx[i], ymx[i]});
    }
  }
};
static_assert(BorderTable<true>::bytes() <= size_t(kTileThreads) * 4, "inside the row-root bits");
static_assert(BorderTable<false>::kEntries == 16, "the hash keeps 4 bits");

// kStats = false: labels and ids only (no statistics, no border identities). Without an
// intensity image a slot's area and sum of local y share one 32-bit word (area <= 8192 above bit
// kYBits, sum of y < 2^kYBits: no carry), one shared atomic fewer a run.
constexpr int kYBits = 18;
static_assert(kTilePixels * (kTileRows - 1) < (1 << kYBits) &&
                  (uint64_t(kTilePixels) << kYBits) < (uint64_t(1) << 32),
              "packed area and sum of y");
// A slot's top row (local, 0..31) rides in the high bits of a sum that stays below 2^27 in a
// tile: the sum of local x without an intensity image (< 8192 pixels x 256), else the area.
constexpr int kRowShift = 27;
constexpr uint32_t kSumMask = (1u << kRowShift) - 1u;
static_assert(uint64_t(kTilePixels) * kTilePix < (uint64_t(1) << kRowShift), "row above the sum");

// Grid: (tiles across, tiles down), kTileThreads threads; thread (ly, lx) owns word lx of row ly
// and its runs, and loads half of pair word (ly / 2, lx)'s local roots; warp k writes word column
// k's labels two rows a step.
template <bool kWeighted, bool kStats>
__global__ void __launch_bounds__(kTileThreads,
                                  SWL_MIN_BLOCKS(kTileThreads, kBlocksPerSm<kWeighted>))
    tile_finish_kernel(int32_t* labels, const int32_t* __restrict__ uf,
                       const uint32_t* __restrict__ on_bits, const uint32_t* __restrict__ root_bits,
                       const uint32_t* __restrict__ bord_bits,
                       const uint32_t* __restrict__ seg_local,
                       const uint32_t* __restrict__ seg_blocks,
                       const uint8_t* __restrict__ intensity, int w, int h, int wpr, int tiles_x,
                       Stats st, int64_t capacity, bool narrow) {
  constexpr bool kPack = !kWeighted;
  constexpr int S = kSlots<kWeighted>;
  extern __shared__ __align__(16) unsigned char smem[];
  // Local root of a pair column (m * kTilePix + column), then the encoded slot at roots' columns.
  int16_t* s_loc = reinterpret_cast<int16_t*>(smem);
  uint8_t* s_int = smem + size_t(kTilePixels);  // kWeighted only
  uint32_t* s_bits = reinterpret_cast<uint32_t*>(s_int + (kWeighted ? kTilePixels : 0));
  uint32_t* s_rb = s_bits + kTileThreads;
  uint32_t* s_segoff = s_rb + kTileThreads;  // roots before each row's segment
  uint32_t* s_warp = s_segoff + kTileRows;
  uint32_t* s_id = s_warp + 8;  // id | kBorderFlag
  uint32_t* s_sw = s_id + S;
  uint32_t* s_swx = s_sw + S;                 // local x, weighted
  uint32_t* s_swy = s_swx + (kPack ? 0 : S);  // local y, weighted (in s_sw when kPack: unused)
  uint32_t* s_xmn = s_swy + S;
  uint32_t* s_xmx = s_xmn + S;
  uint32_t* s_ymx = s_xmx + S;
  uint32_t* s_area = s_ymx + S;  // kWeighted only
  uint32_t* s_pk = s_area + S;   // kWeighted only

  const int lx = threadIdx.x % kTileWords, ly = threadIdx.x / kTileWords;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int seg0 = blockIdx.x * kTileWords, y0 = blockIdx.y * kTileRows;
  const int seg = seg0 + lx, y = y0 + ly;
  const int x0 = seg0 * 32;
  const bool inside = seg < wpr && y < h;
  const int li0 = ly * kTilePix + lx * 32;
  const int xw = x0 + lx * 32;  // first pixel of this thread's word
  const int64_t pw = int64_t(y) * w + xw;
  uint32_t bits = 0, rb = 0, bb = 0;
  if (inside) {
    const int64_t gw = int64_t(y) * wpr + seg;
    bits = on_bits[gw];
    rb = root_bits[gw];
    bb = bord_bits[gw];
  }
  // An empty tile (most of a radar frame): zero labels, nothing else.
  if (!__syncthreads_or(bits != 0u)) {
    const int c = warp * 32 + lane, x = x0 + c;
    if (seg0 + warp < wpr && x < w)
      for (int r = 0; r < kTileRows && y0 + r < h; ++r) __stcs(labels + int64_t(y0 + r) * w + x, 0);
    return;
  }
  // The local roots of this thread's 16 pair columns (int16, from the labelling's scratch in the
  // label image; not written for an empty pair word, which reads as -1) and, with an intensity
  // image, its word's bytes: vector loads where aligned.
  s_bits[lx * kTileRows + ly] = bits;
  {
    const uint32_t other = __shfl_xor_sync(kFull, bits, kTileWords);  // the pair's other row
    const int m = ly / 2, half = ly & 1, yy = y0 + 2 * m;
    const uint32_t b0 = half ? other : bits, b1 = half ? bits : other;  // rows 2m, 2m + 1
    const int c0 = lx * 32 + half * 16;
    const uint32_t h0 = (b0 >> (half * 16)) & 0xffffu, h1 = (b1 >> (half * 16)) & 0xffffu;
    const int16_t* row0 =
        reinterpret_cast<const int16_t*>(labels) + 2 * (int64_t(yy) * w + x0) + c0;
    int16_t* dst = s_loc + m * kTilePix + c0;
    const uint4 none = make_uint4(kFull, kFull, kFull, kFull);
    if ((h0 | h1) == 0) {
      reinterpret_cast<uint4*>(dst)[0] = reinterpret_cast<uint4*>(dst)[1] = none;
    } else if (seg < wpr && yy < h && xw + 32 <= w && (w & 3) == 0) {
      const uint4* src = reinterpret_cast<const uint4*>(row0);
      const uint4 a = __ldcs(src), b = __ldcs(src + 1);
      reinterpret_cast<uint4*>(dst)[0] = a;
      reinterpret_cast<uint4*>(dst)[1] = b;
    } else {
      for (int i = 0; i < 16; ++i) dst[i] = (((h0 | h1) >> i) & 1u) ? row0[i] : int16_t(-1);
    }
  }
  if (kWeighted) {
    const uint8_t* src = intensity + pw;
    if (inside && xw + 32 <= w && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
      const uint4 a = __ldg(reinterpret_cast<const uint4*>(src));
      const uint4 b = __ldg(reinterpret_cast<const uint4*>(src) + 1);
      reinterpret_cast<uint4*>(s_int + li0)[0] = a;
      reinterpret_cast<uint4*>(s_int + li0)[1] = b;
    } else {
      for (int i = 0; i < 32; ++i) s_int[li0 + i] = ((bits >> i) & 1u) ? src[i] : 0;
    }
  }
  const uint32_t lr = rb | bb;  // local roots: global roots inside the tile + border tile roots
  s_rb[threadIdx.x] = rb;
  if (threadIdx.x < kTileRows) {
    const int yy = y0 + int(threadIdx.x);
    s_segoff[threadIdx.x] =
        yy < h ? seg_offset(seg_local, seg_blocks, int64_t(yy) * tiles_x + blockIdx.x) : 0u;
  }
  // Slots: local roots numbered in the tile's raster order (a block scan of popcounts).
  const uint32_t cnt = __popc(lr);
  uint32_t inc = cnt;
  for (int off = 1; off < 32; off *= 2) {
    const uint32_t o = __shfl_up_sync(kFull, inc, off);
    if (lane >= off) inc += o;
  }
  if (lane == 31) s_warp[warp] = inc;
  __syncthreads();
  uint32_t before = 0, total = 0;
  for (int i = 0; i < kTileThreads / 32; ++i) {
    const uint32_t v = s_warp[i];
    if (i < warp) before += v;
    total += v;
  }
  const uint32_t slot0 = before + inc - cnt;
  {
    uint32_t m = lr, s = slot0;
    while (m) {
      const int b = __ffs(m) - 1;
      m &= m - 1;
      s_loc[pair_col(li0 + b)] = int16_t(-int(s) - 2);
      ++s;
    }
  }
  uint32_t id_base = 0;  // ids of this word's roots start after id_base
  if (inside) {
    id_base = s_segoff[ly];
    for (int j = 0; j < lx; ++j) id_base += __popc(s_rb[ly * kTileWords + j]);
  }
  // A tile without border tile roots has no statistics for the global atomics.
  const bool tile_border = __syncthreads_or(bb != 0u);

  const int passes = max(1, int((total + S - 1) / S));
  for (int pass = 0; pass < passes; ++pass) {
    const int b0 = pass * S, b1 = b0 + S;
    // In the last pass (the row-root bits are no longer read) the tile's table of components
    // that span tiles, cleared before the barrier below.
    const bool table = kStats && tile_border && pass + 1 == passes;
    BorderTable<kWeighted> bt(reinterpret_cast<unsigned char*>(s_rb));
    if (table) bt.clear();
    // Ids and empty statistics of this thread's roots in the pass.
    {
      uint32_t m = lr;
      int s = int(slot0);
      while (m) {
        const int b = __ffs(m) - 1;
        m &= m - 1;
        if (s >= b0 && s < b1) {
          const int q = s - b0;
          uint32_t id;
          if ((rb >> b) & 1u) {
            id = id_base + __popc(rb & ((1u << b) - 1u)) + 1u;
          } else {  // a border tile root under another tile's root: looked up below
            id = uint32_t(li0 + b);
            s_ymx[q] = kPending;
          }
          s_id[q] = id | (((bb >> b) & 1u) ? kBorderFlag : 0u);
          if ((rb >> b) & 1u) s_ymx[q] = 0;
          if (kStats) {
            s_sw[q] = 0;
            s_swx[q] = kPack ? uint32_t(ly) << kRowShift : 0u;
            if (!kPack) s_swy[q] = 0;
            s_xmn[q] = 0xffffffffu;
            s_xmx[q] = 0;
          }
          if (kWeighted && kStats) {
            s_area[q] = uint32_t(ly) << kRowShift;
            s_pk[q] = 0;
          }
        }
        ++s;
      }
    }
    __syncthreads();
    const int nq = min(S, int(total) - b0);
    // The ids of border tile roots under another tile's root (flattened by tile_roots_kernel),
    // one slot per thread so that their global loads overlap.
    for (int q = threadIdx.x; q < nq; q += kTileThreads) {
      if (s_ymx[q] != kPending) continue;
      const int li = int(s_id[q] & ~kBorderFlag);
      const int32_t g = uf[int64_t(y0 + li / kTilePix) * w + x0 + li % kTilePix];
      const int gx = g % w;
      s_id[q] = kBorderFlag |
                root_id(root_bits, seg_local, seg_blocks, wpr, tiles_x, g / w, gx / 32, gx % 32);
      s_ymx[q] = 0;
    }
    __syncthreads();
    // The runs of this word into their slots: consecutive runs of one component add up in
    // registers; each change of component flushes with shared-memory atomics, and when every
    // thread of the warp (4 rows x 8 words) ends on the same component, their last sums are
    // reduced across the warp first (a large component's runs become one set of atomics).
    if (kStats) {
      int cur = -1;
      uint32_t a_sw = 0, a_swx = 0, a_n = 0, a_xmn = 0, a_xmx = 0, a_pk = 0;
      auto flush = [&](int q, uint32_t sw, uint32_t swx, uint32_t swy, uint32_t n, uint32_t xmn,
                       uint32_t xmx, uint32_t ymx, uint32_t pk) {
        if (kPack) {
          atomicAdd(s_sw + q, (sw << kYBits) + swy);
        } else {
          atomicAdd(s_sw + q, sw);
          atomicAdd(s_swy + q, swy);
        }
        atomicAdd(s_swx + q, swx);
        atomicMin(s_xmn + q, xmn);
        atomicMax(s_xmx + q, xmx);
        atomicMax(s_ymx + q, ymx);
        if (kWeighted) {
          atomicAdd(s_area + q, n);
          atomicMax(s_pk + q, pk);
        }
      };
      uint32_t m = bits;
      while (m) {
        const int r0 = __ffs(m) - 1;
        const uint32_t rest = ~(m >> r0);
        const int n = rest ? __ffs(rest) - 1 : 32 - r0;
        m &= n >= 32 ? 0u : ~(((1u << n) - 1u) << r0);
        const int v = s_loc[pair_col(li0 + r0)];
        const int slot = v < -1 ? -v - 2 : -int(s_loc[pair_col(v)]) - 2;
        if (slot < b0 || slot >= b1) continue;
        const int q = slot - b0;
        const uint32_t c0 = uint32_t(lx * 32 + r0);  // local column of the run's first pixel
        uint32_t sw, swx, pk = 0;
        if (kWeighted) {
          sw = 0;
          swx = 0;
          for (int i = 0; i < n; ++i) {
            const uint32_t val = s_int[li0 + r0 + i];
            const uint32_t wgt = max(val, 1u);
            sw += wgt;
            swx += wgt * (c0 + uint32_t(i));
            pk = max(pk, val);
          }
        } else {
          sw = uint32_t(n);
          swx = uint32_t(n) * c0 + uint32_t(n * (n - 1) / 2);
        }
        if (q != cur) {
          if (cur >= 0)
            flush(cur, a_sw, a_swx, a_sw * uint32_t(ly), a_n, a_xmn, a_xmx, uint32_t(ly), a_pk);
          cur = q;
          a_sw = sw;
          a_swx = swx;
          a_n = uint32_t(n);
          a_xmn = c0;
          a_pk = pk;
        } else {
          a_sw += sw;
          a_swx += swx;
          a_n += uint32_t(n);
          a_pk = max(a_pk, pk);
        }
        a_xmx = c0 + uint32_t(n - 1);
      }
      // When the whole warp's open components are one (a large component), reduce first.
      const unsigned open = __ballot_sync(kFull, cur >= 0);
      if (open) {
        const int first = __shfl_sync(kFull, cur, __ffs(open) - 1);
        const bool one = __all_sync(kFull, cur < 0 || cur == first);
        bool done = false;
#if __CUDA_ARCH__ >= 800
        if (one) {
          const bool o = cur >= 0;
          const uint32_t g_sw = __reduce_add_sync(kFull, o ? a_sw : 0u);
          const uint32_t g_swx = __reduce_add_sync(kFull, o ? a_swx : 0u);
          const uint32_t g_swy = __reduce_add_sync(kFull, o ? a_sw * uint32_t(ly) : 0u);
          const uint32_t g_n = kWeighted ? __reduce_add_sync(kFull, o ? a_n : 0u) : 0u;
          const uint32_t g_xmn = __reduce_min_sync(kFull, o ? a_xmn : 0xffffffffu);
          const uint32_t g_xmx = __reduce_max_sync(kFull, o ? a_xmx : 0u);
          const uint32_t g_ymx = __reduce_max_sync(kFull, o ? uint32_t(ly) : 0u);
          const uint32_t g_pk = kWeighted ? __reduce_max_sync(kFull, o ? a_pk : 0u) : 0u;
          if (lane == __ffs(open) - 1)
            flush(first, g_sw, g_swx, g_swy, g_n, g_xmn, g_xmx, g_ymx, g_pk);
          done = true;
        }
#else
        (void)one;
#endif
        if (!done && cur >= 0)
          flush(cur, a_sw, a_swx, a_sw * uint32_t(ly), a_n, a_xmn, a_xmx, uint32_t(ly), a_pk);
      }
    }
    // Labels: warp k, word column k, one pixel per lane, two rows a step: two on pixels one
    // above the other in a tile are in one tile component, so one slot lookup serves both.
    {
      const int k = warp, c = k * 32 + lane, x = x0 + c;
      auto put = [&](int r, bool on, int slot, int32_t id) {
        const bool in = on && slot >= b0 && slot < b1;
        if (!in && !(pass == 0 && !on)) return;
        __stcs(labels + int64_t(y0 + r) * w + x, in ? id : 0);
      };
      auto slot_of = [&](int v) { return v < -1 ? -v - 2 : -int(s_loc[pair_col(v)]) - 2; };
      auto id_of = [&](int slot) {
        return slot >= b0 && slot < b1 ? int32_t(s_id[slot - b0] & ~kBorderFlag) : 0;
      };
      // The pair words of this column with an on pixel (lane m: pair m). Where some are empty
      // (most of a sparse frame's), those only get zeros, without the shared-memory lookups. A
      // column with every pair word busy keeps the plain unrolled loop.
      const uint2 pair_words =
          lane < kTileRows / 2 ? *reinterpret_cast<const uint2*>(s_bits + k * kTileRows + 2 * lane)
                               : make_uint2(0u, 0u);
      const uint32_t busy = __ballot_sync(kFull, (pair_words.x | pair_words.y) != 0u);
      if (seg0 + k < wpr && x < w) {
        auto two_rows = [&](int r, bool second) {
          const int v = s_loc[(r / 2) * kTilePix + c];
          const uint2 rows = *reinterpret_cast<const uint2*>(s_bits + k * kTileRows + r);
          const int slot = v != -1 ? slot_of(v) : -1;
          const int32_t id = v != -1 ? id_of(slot) : 0;
          put(r, (rows.x >> lane) & 1u, slot, id);
          if (second) put(r + 1, (rows.y >> lane) & 1u, slot, id);
        };
        if (y0 + kTileRows <= h) {
          // Whole tiles: a fixed trip count, unrolled so that the pairs' shared loads overlap
          // (on a sparse frame this loop is nearly all of the finish's time).
          if (busy == 0xffffu) {
#pragma unroll 4
            for (int r = 0; r < kTileRows; r += 2) two_rows(r, true);
          } else {
#pragma unroll 4
            for (int r = 0; r < kTileRows; r += 2) {
              if ((busy >> (r / 2)) & 1u) {
                two_rows(r, true);
              } else if (pass == 0) {
                put(r, false, -1, 0);
                put(r + 1, false, -1, 0);
              }
            }
          }
        } else {
          for (int r = 0; y0 + r < h; r += 2) two_rows(r, y0 + r + 1 < h);
        }
      }
    }
    __syncthreads();
    // Statistics out, one slot per thread (consecutive ids of a row from consecutive threads):
    // stored for components inside the tile. For those that span tiles, the first lane of the
    // warp holding a component adds up the slots of the other lanes holding it and alone goes
    // on, to the tile's table (when it holds several slots of the warp) or to the global
    // atomics: a component that enters the tile many times (near the percolation threshold)
    // costs one set of global atomics a tile instead of one a slot.
    for (int qb = 0; qb < (kStats ? nq : 0); qb += kTileThreads) {
      const int q = qb + int(threadIdx.x);
      const bool valid = q < nq;
      const uint32_t e = valid ? s_id[q] : 0u;
      const bool border = valid && (e & kBorderFlag);
#if __CUDA_ARCH__ >= 700
      const unsigned same = __match_any_sync(kFull, border ? e : 0u);
#else
      const unsigned same = 1u << lane;
#endif
      const uint32_t id = e & ~kBorderFlag;
      if (!valid || int64_t(id) > capacity) continue;
      if (border && lane != __ffs(same) - 1) continue;
      const uint32_t kk = id - 1;
      // The slots of the lanes holding this component (itself only for one inside the tile);
      // the tile's local sums keep their 32-bit bounds.
      uint32_t l_sw = 0, l_swx = 0, l_swy = 0, l_xmn = 0xffffffffu, l_xmx = 0, l_ymx = 0;
      uint32_t l_area = 0, l_pk = 0;
      for (unsigned m = border ? same : 1u << lane; m; m &= m - 1) {
        const int qj = q - lane + __ffs(m) - 1;
        if (kPack) {
          const uint32_t v = s_sw[qj];
          l_sw += v >> kYBits;
          l_swy += v & ((1u << kYBits) - 1u);
        } else {
          l_sw += s_sw[qj];
          l_swy += s_swy[qj];
        }
        l_swx += kPack ? s_swx[qj] & kSumMask : s_swx[qj];
        l_xmn = min(l_xmn, s_xmn[qj]);
        l_xmx = max(l_xmx, s_xmx[qj]);
        l_ymx = max(l_ymx, s_ymx[qj]);
        if (kWeighted) {
          l_area += s_area[qj] & kSumMask;
          l_pk = max(l_pk, s_pk[qj]);
        }
      }
      const uint64_t sw = l_sw;
      const uint64_t swx = l_swx + uint64_t(x0) * sw;
      const uint64_t swy = l_swy + uint64_t(y0) * sw;
      const uint32_t xmn = uint32_t(x0) + l_xmn, xmx = uint32_t(x0) + l_xmx;
      const uint32_t ymx = uint32_t(y0) + l_ymx;
      if (!(e & kBorderFlag)) {
        // The root is the component's first pixel: its row (above a sum since the slot's set-up)
        // is the top row.
        const uint32_t top = (kWeighted ? s_area[q] : s_swx[q]) >> kRowShift;
        if (!kWeighted && st.rec) {
          uint4* r = reinterpret_cast<uint4*>(st.rec + size_t(kRecordWords) * kk);
          r[0] = make_uint4(l_sw, xmn, xmx, uint32_t(y0) + top);
          r[1] = make_uint4(ymx, uint32_t(swx), uint32_t(swy), 0u);  // < 2^29 in a tile
        } else {
          if (kWeighted) {
            st.sum_w[kk] = sw;
            st.area[kk] = l_area;
            st.peak[kk] = l_pk;
            st.sum_wx[kk] = swx;
            st.sum_wy[kk] = swy;
          } else if (narrow) {  // 32-bit sums, area without kSums64 (Stats::sx32)
            st.area[kk] = l_sw;
            st.sx32[kk] = uint32_t(swx);
            st.sy32[kk] = uint32_t(swy);
          } else {
            st.area[kk] = l_sw | kSums64;  // the weight sum is the area
            st.sum_wx[kk] = swx;
            st.sum_wy[kk] = swy;
          }
          st.xmin[kk] = xmn;
          st.xmax[kk] = xmx;
          st.ymin[kk] = uint32_t(y0) + top;
          st.ymax[kk] = ymx;
        }
      } else {
        const BorderSums<kWeighted> v{sw, kWeighted ? l_area : l_sw, l_pk, swx, swy, xmn, xmx, ymx};
        if (!table || (same & (same - 1)) == 0 || !bt.add(id, v)) add_border_sums(st, kk, v);
      }
    }
    if (table) {
      __syncthreads();
      bt.flush(st, capacity);
    }
    if (pass + 1 < passes) __syncthreads();
  }
}

}  // namespace

template <class K>
void allow_shared(K kernel, size_t bytes) {
  SWL_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

void prepare_finish() {
  static const bool done = [] {
    allow_shared(tile_finish_kernel<false, true>, kFinishShared<false>);
    allow_shared(tile_finish_kernel<false, false>, kFinishShared<false>);
    allow_shared(tile_finish_kernel<true, true>, kFinishShared<true>);
    return true;
  }();
  (void)done;
}

void number_components(const Workspace& ws, bool weighted, cudaStream_t stream) {
  if (numbering_fused(ws)) {
    auto kernel = ws.with_stats ? border_scan_kernel<true> : border_scan_kernel<false>;
    kernel<<<int(ws.seg_nblocks), 256, 0, stream>>>(
        ws.root_bits, ws.bord_bits, ws.seg_offsets, ws.seg_blocks, ws.seg_scan, ws.count, ws.wpr,
        ws.words, ws.seg_nblocks, ws.stats, ws.capacity, weighted);
    SWL_CUDA_CHECK_LAUNCH();
    return;
  }
  scan_block_counts(ws.seg_blocks, ws.seg_blocks, ws.seg_nblocks, ws.count, stream);
  if (ws.with_stats) {
    border_init_kernel<<<blocks_for(ws.words, 256), 256, 0, stream>>>(
        ws.root_bits, ws.bord_bits, ws.seg_offsets, ws.seg_blocks, ws.wpr, ws.tiles_x, ws.words,
        ws.stats, ws.capacity, weighted);
    SWL_CUDA_CHECK_LAUNCH();
  }
}

void finish_tiles(const Workspace& ws, const uint8_t* d_intensity, cudaStream_t stream) {
  const bool weighted = d_intensity != nullptr;
  // Without an intensity image, components inside a tile store 32-bit coordinate sums (see
  // Stats::sx32): area <= kTilePixels, so they fit while both sides are below kNarrowMaxSide.
  const bool narrow = !weighted && ws.w < kNarrowMaxSide && ws.h < kNarrowMaxSide;
  const uint32_t* seg_blocks = numbering_fused(ws) ? ws.seg_scan : ws.seg_blocks;
  const dim3 tiles(unsigned(ws.tiles_x), unsigned(ws.tiles_y));
  auto launch = [&](auto kernel, size_t shared, const uint8_t* intensity) {
    kernel<<<tiles, kTileThreads, shared, stream>>>(
        ws.labels, ws.uf, ws.on_bits, ws.root_bits, ws.bord_bits, ws.seg_offsets, seg_blocks,
        intensity, ws.w, ws.h, ws.wpr, ws.tiles_x, ws.stats, ws.capacity, narrow);
  };
  if (!ws.with_stats)
    launch(tile_finish_kernel<false, false>, kFinishShared<false>, nullptr);
  else if (weighted)
    launch(tile_finish_kernel<true, true>, kFinishShared<true>, d_intensity);
  else
    launch(tile_finish_kernel<false, true>, kFinishShared<false>, nullptr);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda::ccl_detail
