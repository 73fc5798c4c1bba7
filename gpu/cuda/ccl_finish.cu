// The finish every algorithm shares: root bits and per-block counts, a scan of the counts (no
// host synchronisation), consecutive ids in raster order, the label image with statistics
// reduced per warp before any global atomic, and the area filter.
#include <algorithm>

#include "gpu/cuda/ccl_device.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

constexpr unsigned kFull = 0xffffffffu;

// One thread per word (kang, propagate: every on pixel has a forest entry).
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

// One block: exclusive scan in place, total into *total.
__global__ void scan_kernel(uint32_t* counts, int64_t n, int32_t* total) {
  __shared__ uint32_t s[1024];
  int64_t per = (n + blockDim.x - 1) / blockDim.x;
  int64_t b = per * threadIdx.x, e = min(n, b + per);
  uint32_t sum = 0;
  for (int64_t i = b; i < e; ++i) sum += counts[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int off = 1; off < int(blockDim.x); off *= 2) {  // Hillis-Steele inclusive scan
    uint32_t v = threadIdx.x >= unsigned(off) ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  uint32_t run = s[threadIdx.x] - sum;
  for (int64_t i = b; i < e; ++i) {
    uint32_t c = counts[i];
    counts[i] = run;
    run += c;
  }
  if (threadIdx.x == blockDim.x - 1) *total = int32_t(s[threadIdx.x]);
}

// Ranks of set bits in raster order: offset of the block + popcounts of earlier words in the
// block + popcount of earlier lanes. Returns 0 for a clear bit, else the 1-based rank.
__device__ __forceinline__ uint32_t bit_rank(const uint32_t* bits_words, const uint32_t* offsets,
                                             int64_t words, uint32_t& word_out) {
  __shared__ uint32_t s_pop[kWordsPerBlock];
  int wi = threadIdx.x / 32, lane = threadIdx.x & 31;
  int64_t gw = int64_t(blockIdx.x) * kWordsPerBlock + wi;
  uint32_t word = gw < words ? bits_words[gw] : 0u;
  if (lane == 0) s_pop[wi] = __popc(word);
  __syncthreads();
  if (wi == 0) {
    uint32_t v = s_pop[lane], inc = v;
    for (int off = 1; off < 32; off *= 2) {
      uint32_t o = __shfl_up_sync(kFull, inc, off);
      if (lane >= off) inc += o;
    }
    s_pop[lane] = inc - v;
  }
  __syncthreads();
  word_out = word;
  if (!((word >> lane) & 1u)) return 0;
  return offsets[blockIdx.x] + s_pop[wi] + __popc(word & ((1u << lane) - 1u)) + 1u;
}

// One thread per word: ids in raster order = block offset + roots of earlier words in the block
// (a block scan) + rank inside the word.
__global__ void assign_kernel(const uint32_t* root_bits, const uint32_t* offsets, int w, int wpr,
                              int64_t words, int32_t* uf, Stats st, int64_t capacity,
                              bool init_stats, bool root_ymin, bool weighted) {
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
    if (init_stats && root_ymin && int64_t(id) <= capacity) st.ymin[id - 1] = y;
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

// kRunStarts (`fast`): only run starts have forest entries; a pixel finds its run start from the
// on bits. Otherwise every on pixel has an entry.
template <bool kRunStarts>
__global__ void finalize_kernel(const int32_t* __restrict__ uf,
                                const uint32_t* __restrict__ on_bits, int32_t* labels, int w, int h,
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
    if (kRunStarts) {
      uint32_t bits = on_bits[int64_t(y) * wpr + seg];
      if ((bits >> lane) & 1u) {
        int32_t v = uf[p - lane + run_start(bits, lane)];
        while (v >= 0) v = uf[v];
        id = -v - 1;
      }
      if (x < uint32_t(w)) labels[p] = id;
    } else if (x < uint32_t(w)) {
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

// Area filter: keep bits over ids, block counts, scan, new ids, remap. All skip when the count
// exceeds the statistics capacity (the host finishes those frames).
__global__ void keep_kernel(const int32_t* count, Stats st, int64_t capacity, int64_t id_words,
                            int64_t min_area, int64_t max_area, uint32_t* keep_bits,
                            uint32_t* block_counts) {
  __shared__ uint32_t s_count;
  int64_t n = count[0];
  // The grid covers the capacity (2.4 M ids at 4096^2); a radar frame has a few thousand.
  if (int64_t(blockIdx.x) * kBlock >= n) {
    if (threadIdx.x == 0) block_counts[blockIdx.x] = 0;
    return;
  }
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  int64_t gw = int64_t(blockIdx.x) * kWordsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (gw < id_words && n <= capacity) {
    int64_t id = gw * 32 + lane + 1;
    bool keep = false;
    if (id <= n) {
      const uint32_t* r = st.rec ? st.rec + kRecordWords * (id - 1) : nullptr;
      int64_t a;
      if (r && !(r[kRecArea] & kSpanFlag))  // inside a tile (either record layout)
        a = int64_t(r[kRecArea]);
      else if (r && !st.area)  // spanning, all in the record
        a = int64_t(reinterpret_cast<const unsigned long long*>(r)[kSpanAreaSx / 2] >>
                    kSpanAreaShift);
      else
        a = int64_t(st.area[id - 1] & ~kSums64);
      keep = !(min_area > 0 && a < min_area) && !(max_area > 0 && a > max_area);
    }
    uint32_t bits = __ballot_sync(kFull, keep);
    if (lane == 0) {
      keep_bits[gw] = bits;
      atomicAdd(&s_count, uint32_t(__popc(bits)));
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) block_counts[blockIdx.x] = s_count;
}

__global__ void newid_kernel(const int32_t* count, const uint32_t* keep_bits,
                             const uint32_t* offsets, int64_t id_words, int64_t capacity,
                             uint32_t* newid) {
  int64_t n = count[0];
  if (n > capacity || int64_t(blockIdx.x) * kBlock >= n) return;  // block-uniform
  uint32_t word;
  uint32_t r = bit_rank(keep_bits, offsets, id_words, word);
  int64_t gw = int64_t(blockIdx.x) * kWordsPerBlock + threadIdx.x / 32;
  int64_t id = gw * 32 + (threadIdx.x & 31) + 1;
  if (gw < id_words && id <= n) newid[id - 1] = r;
}

__global__ void remap_kernel(const int32_t* count, int64_t capacity, const uint32_t* newid,
                             int32_t* labels, int64_t n) {
  if (int64_t(count[0]) > capacity) return;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t l = labels[i];
  if (l > 0) labels[i] = int32_t(newid[l - 1]);
}

// remap_kernel where the on bits are known (`fast`): an off pixel's label is 0 and is not read.
// A warp takes 32 words at a time (a grid-stride loop over a few blocks an SM), skips the empty
// ones and reads each other word's labels together, one pixel a lane. A radar frame is a few per
// cent on (the whole-image pass's 65536 blocks cost more to launch than its reads), land makes
// whole words on (a thread walking its own word's pixels read them 32 sectors an instruction).
__global__ void remap_on_kernel(const int32_t* count, int64_t capacity, const uint32_t* newid,
                                int32_t* labels, const uint32_t* __restrict__ on_bits, int w,
                                int wpr, int64_t words) {
  if (int64_t(count[0]) > capacity) return;
  const int lane = int(threadIdx.x) & 31;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;  // words a round, 32 a warp
  for (int64_t w0 = int64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); w0 < words;
       w0 += stride) {
    const uint32_t mine = w0 + lane < words ? on_bits[w0 + lane] : 0u;
    for (unsigned nz = __ballot_sync(kFull, mine != 0u); nz; nz &= nz - 1) {
      const int j = __ffs(nz) - 1;
      const uint32_t m = __shfl_sync(kFull, mine, j);
      if (!((m >> lane) & 1u)) continue;
      const int64_t gw = w0 + j;
      int32_t* p = labels + (gw / wpr) * w + (gw % wpr) * 32 + lane;
      const int32_t l = *p;
      if (l > 0) *p = int32_t(newid[l - 1]);
    }
  }
}

}  // namespace

void root_flags(const Workspace& ws, cudaStream_t stream) {
  root_flags_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(ws.uf, ws.w, ws.wpr, ws.words,
                                                               ws.root_bits, ws.block_counts);
  CCL_CUDA_CHECK(cudaGetLastError());
}

void scan_block_counts(const uint32_t* counts_in, uint32_t* offsets, int64_t n, int32_t* total,
                       cudaStream_t stream) {
  if (counts_in != offsets)
    CCL_CUDA_CHECK(
        cudaMemcpyAsync(offsets, counts_in, size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
  scan_kernel<<<1, 1024, 0, stream>>>(offsets, n, total);
  CCL_CUDA_CHECK(cudaGetLastError());
}

void assign_ids(const Workspace& ws, bool init_stats, bool root_ymin, bool weighted,
                cudaStream_t stream) {
  scan_block_counts(ws.block_counts, ws.block_counts, ws.blocks, ws.count, stream);
  if (init_stats) {
    constexpr int kThreads = 256;
    const int grid = int(std::min<int64_t>(blocks_for(ws.capacity, kThreads), 2048));
    if (grid > 0) {
      stats_init_kernel<<<grid, kThreads, 0, stream>>>(ws.count, ws.stats, ws.capacity, root_ymin,
                                                       weighted);
      CCL_CUDA_CHECK(cudaGetLastError());
    }
  }
  assign_kernel<<<int(ws.blocks), kScanWords, 0, stream>>>(
      ws.root_bits, ws.block_counts, ws.w, ws.wpr, ws.words, ws.uf, ws.stats, ws.capacity,
      init_stats, root_ymin, weighted);
  CCL_CUDA_CHECK(cudaGetLastError());
}

void finalize(const Workspace& ws, const uint8_t* d_intensity, bool boxes, bool run_starts,
              cudaStream_t stream) {
  constexpr int kThreads = 256;
  int chunks = (ws.wpr + kChunk - 1) / kChunk;
  int grid = blocks_for(int64_t(ws.h) * chunks * 32, kThreads);
  if (run_starts)
    finalize_kernel<true><<<grid, kThreads, 0, stream>>>(ws.uf, ws.on_bits, ws.labels, ws.w, ws.h,
                                                         ws.wpr, chunks, d_intensity, ws.stats,
                                                         ws.capacity, boxes);
  else
    finalize_kernel<false><<<grid, kThreads, 0, stream>>>(ws.uf, ws.on_bits, ws.labels, ws.w, ws.h,
                                                          ws.wpr, chunks, d_intensity, ws.stats,
                                                          ws.capacity, boxes);
  CCL_CUDA_CHECK(cudaGetLastError());
}

void area_filter(const Workspace& ws, int64_t min_area, int64_t max_area, bool on_bits,
                 cudaStream_t stream) {
  int64_t id_words = (ws.capacity + 31) / 32;
  keep_kernel<<<int(ws.id_blocks), kBlock, 0, stream>>>(
      ws.count, ws.stats, ws.capacity, id_words, min_area, max_area, ws.keep_bits, ws.block_counts);
  CCL_CUDA_CHECK(cudaGetLastError());
  scan_block_counts(ws.block_counts, ws.block_counts, ws.id_blocks, ws.count + 1, stream);
  newid_kernel<<<int(ws.id_blocks), kBlock, 0, stream>>>(ws.count, ws.keep_bits, ws.block_counts,
                                                         id_words, ws.capacity, ws.newid);
  CCL_CUDA_CHECK(cudaGetLastError());
  if (on_bits && remap_on_enabled()) {
    const int grid =
        int(std::min<int64_t>(blocks_for(ws.words, 256), int64_t(device_sm_count()) * 8));
    remap_on_kernel<<<grid, 256, 0, stream>>>(ws.count, ws.capacity, ws.newid, ws.labels,
                                              ws.on_bits, ws.w, ws.wpr, ws.words);
  } else {
    remap_kernel<<<blocks_for(ws.n, 256), 256, 0, stream>>>(ws.count, ws.capacity, ws.newid,
                                                            ws.labels, ws.n);
  }
  CCL_CUDA_CHECK(cudaGetLastError());
}

int device_sm_count() {
  int dev = 0, sms = 0;
  CCL_CUDA_CHECK(cudaGetDevice(&dev));
  CCL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return std::max(sms, 1);
}

SWL_CCL_SWITCH(remap_on_enabled, "SWEEPLINE_CCL_REMAP_ON", kRemapOnDefault)

void StageEvents::mark(const char* stage, cudaStream_t s) {
  if (used >= kMax) return;
  name[used] = stage;
  CCL_CUDA_CHECK(cudaEventRecord(ev[used], s));
  ++used;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
