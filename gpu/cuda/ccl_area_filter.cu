// The area filter of `fast` and the scan of block counts that the numbering (rows not of whole
// tiles) and the filter share: keep bits over ids, their scan, the new ids, then the renumbering
// of the on pixels only. Everything skips frames with more components than the statistics hold
// (the host finishes those).
#include <algorithm>

#include "gpu/cuda/ccl_device.cuh"

namespace sweepline::gpu::cuda::ccl_detail {

namespace {

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

// The renumbering where the on bits are known (`fast`): an off pixel's label is 0 and is not read.
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

void scan_block_counts(const uint32_t* counts_in, uint32_t* offsets, int64_t n, int32_t* total,
                       cudaStream_t stream) {
  if (counts_in != offsets)
    SWL_CUDA_CHECK(
        cudaMemcpyAsync(offsets, counts_in, size_t(n) * 4, cudaMemcpyDeviceToDevice, stream));
  scan_kernel<<<1, 1024, 0, stream>>>(offsets, n, total);
  SWL_CUDA_CHECK_LAUNCH();
}

void area_filter_ids(const Workspace& ws, int64_t min_area, int64_t max_area, cudaStream_t stream) {
  int64_t id_words = (ws.capacity + 31) / 32;
  keep_kernel<<<int(ws.id_blocks), kBlock, 0, stream>>>(
      ws.count, ws.stats, ws.capacity, id_words, min_area, max_area, ws.keep_bits, ws.block_counts);
  SWL_CUDA_CHECK_LAUNCH();
  scan_block_counts(ws.block_counts, ws.block_counts, ws.id_blocks, ws.count + 1, stream);
  newid_kernel<<<int(ws.id_blocks), kBlock, 0, stream>>>(ws.count, ws.keep_bits, ws.block_counts,
                                                         id_words, ws.capacity, ws.newid);
  SWL_CUDA_CHECK_LAUNCH();
}

void area_filter(const Workspace& ws, int64_t min_area, int64_t max_area, cudaStream_t stream) {
  area_filter_ids(ws, min_area, max_area, stream);
  const int grid = int(
      std::min<int64_t>(blocks_for(ws.words, 256), int64_t(device_sm_count()) * kRemapBlocksPerSm));
  remap_on_kernel<<<grid, 256, 0, stream>>>(ws.count, ws.capacity, ws.newid, ws.labels, ws.on_bits,
                                            ws.w, ws.wpr, ws.words);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda::ccl_detail
