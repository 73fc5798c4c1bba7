#include "gpu/cuda/video_kernels.hpp"

#include <cub/block/block_scan.cuh>

#include "app/common/check.hpp"
#include "gpu/cuda/cuda_check.hpp"
#include "gpu/video_math.hpp"

namespace sweepline::gpu::cuda {

namespace {

// The row is cut into chunks of kChunk cells, one block each, with a halo of kHalo cells each
// side (the rain window and the land runs look that far), so any range length fits in a fixed
// amount of shared memory and a frame gives many short blocks. Three launches: the clutter map
// (a land run needs the map of cells in other chunks), then the video, then the rows' ages.
constexpr int kThreads = 256;
constexpr int kChunk = 1024;
constexpr int kHalo = kRainHalfMaxCells;
constexpr int kExt = kChunk + 2 * kHalo;  // cells whose values a chunk's windows see
constexpr int kItems = (kExt + kThreads - 1) / kThreads;
constexpr int kRaw = kExt + 2;  // plus the smoothing's neighbour each side
static_assert(kVideoSmoothHalf == 1, "the kernels assume a 3 x 3 mean");

struct Shared {
  uint8_t raw[3][kRaw];
  int pre[kThreads * kItems + 1];  // prefix sums of the gained levels
  int brk_lo[kThreads * kItems];   // nearest non-steady cell at or before (window index)
  int brk_hi[kThreads * kItems];   // and at or after
  uint8_t s[kExt];                 // smoothed levels
  uint8_t brk[kExt];               // 1 where a cell breaks a run of steady cells
  uint32_t stats[kVideoBands][kVideoStatFields];
};

struct MaxOp {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct MinOp {
  __device__ int operator()(int a, int b) const { return a < b ? a : b; }
};

// The 3 x 3 mean at cell c of row a from the raw frame (rows wrap, cells past the range are left
// out), read through the cache.
__device__ __forceinline__ int smooth_at(const uint8_t* const rows[3], int c, int B) {
  int sum = 0, n = 0;
#pragma unroll
  for (int r = 0; r < 3; ++r) {
    sum += __ldg(rows[r] + c);
    if (c > 0) sum += __ldg(rows[r] + c - 1);
    if (c + 1 < B) sum += __ldg(rows[r] + c + 1);
  }
  n = 3 * (1 + (c > 0) + (c + 1 < B));
  return video_smooth(sum, n);
}

__device__ __forceinline__ void row_pointers(const VideoBuffers& b, int a, int A, int B,
                                             const uint8_t* rows[3]) {
  rows[0] = b.polar + size_t((a + A - 1) % A) * B;
  rows[1] = b.polar + size_t(a) * B;
  rows[2] = b.polar + size_t((a + 1) % A) * B;
}

// Pass 1: the clutter map, and the row's statistics cleared. Grid: (rows, chunks).
__global__ void __launch_bounds__(kThreads) map_kernel(VideoSetup su, VideoBuffers b, int first) {
  const int A = su.azimuths, B = su.bins, t = int(threadIdx.x);
  const int a = (first + int(blockIdx.x)) % A;
  const uint8_t* rows[3];
  row_pointers(b, a, A, B, rows);
  const int age = b.row_age[a];
  if (blockIdx.y == 0)
    for (int i = t; i < kVideoBands * kVideoStatFields; i += kThreads)
      b.row_stats[size_t(a) * kVideoBands * kVideoStatFields + i] = 0;
  if (!su.clutter_map) return;
  const int c0 = int(blockIdx.y) * kChunk;
  uint8_t* mean = b.map_mean + size_t(a) * size_t(B);
  uint8_t* dev = b.map_dev + size_t(a) * size_t(B);
  for (int c = c0 + t; c < min(B, c0 + kChunk); c += kThreads) {
    uint8_t m = mean[c], d = dev[c];
    map_update(smooth_at(rows, c, B), age, m, d);
    mean[c] = m;
    dev[c] = d;
  }
}

// Pass 2: rain, land, the video and the band statistics. Grid: (rows, chunks).
__global__ void __launch_bounds__(kThreads) video_kernel(VideoSetup su, VideoBuffers b, int first) {
  using Scan = cub::BlockScan<int, kThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ Shared sh;

  const int A = su.azimuths, B = su.bins, t = int(threadIdx.x);
  const int a = (first + int(blockIdx.x)) % A;
  const uint8_t* rows[3];
  row_pointers(b, a, A, B, rows);
  const int age = b.row_age[a];
  const uint8_t* sea_row = b.sea + size_t(a / su.sector_rows) * kVideoBands;
  const uint8_t* mean = b.map_mean + size_t(a) * size_t(B);
  const uint8_t* dev = b.map_dev + size_t(a) * size_t(B);
  uint8_t* out = b.video + size_t(a) * size_t(B);
  for (int i = t; i < kVideoBands * kVideoStatFields; i += kThreads) (&sh.stats[0][0])[i] = 0;
  const bool settled = su.clutter_map && age + 1 >= kMapSettle;
  const int c0 = int(blockIdx.y) * kChunk, e0 = c0 - kHalo;

  // The raw rows over the window, then the smoothed levels and (map on) the break flags.
  const int w0 = e0 - 1;
  for (int i = t; i < kRaw; i += kThreads) {
    const int c = w0 + i;
    const bool in = c >= 0 && c < B;
    sh.raw[0][i] = in ? rows[0][c] : 0;
    sh.raw[1][i] = in ? rows[1][c] : 0;
    sh.raw[2][i] = in ? rows[2][c] : 0;
  }
  __syncthreads();
  for (int k = t; k < kExt; k += kThreads) {
    const int c = e0 + k, i = k + 1;
    uint8_t v = 0;
    if (c >= 0 && c < B) {
      int sum = sh.raw[0][i] + sh.raw[1][i] + sh.raw[2][i], n = 3;
      if (c > 0) sum += sh.raw[0][i - 1] + sh.raw[1][i - 1] + sh.raw[2][i - 1], n += 3;
      if (c + 1 < B) sum += sh.raw[0][i + 1] + sh.raw[1][i + 1] + sh.raw[2][i + 1], n += 3;
      v = uint8_t(video_smooth(sum, n));
    }
    sh.s[k] = v;
    if (su.clutter_map)
      sh.brk[k] = c < 0 || c >= B || !map_is_steady(mean[c], dev[c], age + 1, su.land_min);
  }
  __syncthreads();

  int v[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int k = t * kItems + j, c = e0 + k;
    v[j] = k < kExt && c >= 0 && c < B ? video_gain(sh.s[k], su.gain_q8) : 0;
  }
  int total = 0;
  Scan(scan_tmp).ExclusiveSum(v, v, total);
#pragma unroll
  for (int j = 0; j < kItems; ++j) sh.pre[t * kItems + j] = v[j];
  if (t == 0) sh.pre[kThreads * kItems] = total;
  if (su.clutter_map) {
    // Nearest non-steady cell at or before each cell (a running max of break positions), then
    // at or after (a running min over the reversed window). Cells outside the range break.
    auto brk = [&](int k) { return k >= kExt || sh.brk[k] != 0; };
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int k = t * kItems + j;
      v[j] = brk(k) ? k : -1;
    }
    Scan(scan_tmp).InclusiveScan(v, v, MaxOp());
#pragma unroll
    for (int j = 0; j < kItems; ++j) sh.brk_lo[t * kItems + j] = v[j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int k = kThreads * kItems - 1 - (t * kItems + j);
      v[j] = brk(k) ? k : kThreads * kItems;
    }
    Scan(scan_tmp).InclusiveScan(v, v, MinOp());
#pragma unroll
    for (int j = 0; j < kItems; ++j) sh.brk_hi[kThreads * kItems - 1 - (t * kItems + j)] = v[j];
  }
  __syncthreads();

  // A warp takes 32 consecutive cells, so its statistics usually fall in one band: they are
  // summed across the warp first and added to shared memory once (32 lanes adding to one
  // address would serialise).
  const int G = su.rain_guard, H = G + (1 << su.rain_log2), L2 = su.rain_log2 + 1;
  const int lane = t & 31;
  for (int base = 0; base < kChunk && c0 + base < B; base += kThreads) {
    const int i = base + t, c = c0 + i, k = i + kHalo;
    uint32_t f_sum = 0, f_count = 0, f_dsum = 0, f_dcount = 0;
    const int band = c < B ? c / su.band_bins : -1;
    if (c < B) {
      const int sc = sh.s[k];
      const int gc = video_gain(sc, su.gain_q8);
      int rain = 0;
      if (su.rain_q8 > 0) {
        const int l0 = max(0, c - H), l1 = max(0, c - G);
        const int r0 = min(B, c + G + 1), r1 = min(B, c + H + 1);
        const int sum = sh.pre[l1 - e0] - sh.pre[l0 - e0] + sh.pre[r1 - e0] - sh.pre[r0 - e0];
        rain = video_rain(sum, L2, su.rain_q8);
      }
      const bool land =
          su.clutter_map && sh.brk_lo[k] != k && sh.brk_hi[k] - sh.brk_lo[k] - 1 >= su.land_run;
      if (!land) {
        f_sum = uint32_t(sc);
        f_count = 1;
        if (settled) {
          f_dsum = dev[c];
          f_dcount = 1;
        }
      }
      out[c] = uint8_t(video_out(gc, sea_row[band], rain, land));
    }
    const int band0 = __shfl_sync(0xFFFFFFFFu, band, 0);
    if (__all_sync(0xFFFFFFFFu, band == band0 || band < 0)) {
      for (int o = 16; o > 0; o >>= 1) {
        f_sum += __shfl_down_sync(0xFFFFFFFFu, f_sum, o);
        f_count += __shfl_down_sync(0xFFFFFFFFu, f_count, o);
        f_dsum += __shfl_down_sync(0xFFFFFFFFu, f_dsum, o);
        f_dcount += __shfl_down_sync(0xFFFFFFFFu, f_dcount, o);
      }
      if (lane == 0 && band0 >= 0) {
        atomicAdd(&sh.stats[band0][kStatSum], f_sum);
        atomicAdd(&sh.stats[band0][kStatCount], f_count);
        atomicAdd(&sh.stats[band0][kStatDevSum], f_dsum);
        atomicAdd(&sh.stats[band0][kStatDevCount], f_dcount);
      }
    } else if (band >= 0) {
      atomicAdd(&sh.stats[band][kStatSum], f_sum);
      atomicAdd(&sh.stats[band][kStatCount], f_count);
      atomicAdd(&sh.stats[band][kStatDevSum], f_dsum);
      atomicAdd(&sh.stats[band][kStatDevCount], f_dcount);
    }
  }
  __syncthreads();
  // The chunk's bands into the row's statistics (the chunk touches a few bands only).
  uint32_t* row_stats = b.row_stats + size_t(a) * kVideoBands * kVideoStatFields;
  for (int i = t; i < kVideoBands * kVideoStatFields; i += kThreads) {
    const uint32_t x = (&sh.stats[0][0])[i];
    if (x) atomicAdd(row_stats + i, x);
  }
}

// Pass 3: each processed row has been seen once more.
__global__ void age_kernel(VideoBuffers b, int azimuths, int first, int count) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  const int a = (first + i) % azimuths;
  const int age = b.row_age[a];
  if (age < 255) b.row_age[a] = uint8_t(age + 1);
}

// One block a sector, one thread a band's statistic.
__global__ void sector_kernel(VideoBuffers b, int azimuths, int sector_rows) {
  constexpr int kRow = kVideoBands * kVideoStatFields;
  const int sec = int(blockIdx.x), i = int(threadIdx.x);
  const int a0 = sec * sector_rows, a1 = min(azimuths, a0 + sector_rows);
  unsigned long long sum = 0;
  for (int a = a0; a < a1; ++a) sum += b.row_stats[size_t(a) * kRow + i];
  b.sector_stats[size_t(sec) * kRow + i] = sum;
}

}  // namespace

void VideoDeviceState::reset(int azimuths, int bins, cudaStream_t stream) {
  const size_t n = size_t(azimuths) * size_t(bins), az = size_t(azimuths);
  video.resize(n);
  map_mean.resize(n);
  map_dev.resize(n);
  row_age.resize(az);
  row_stats.resize(az * kVideoBands * kVideoStatFields);
  sea.resize(size_t(kVideoSectors) * kVideoBands);
  sector_stats.resize(size_t(kVideoSectors) * kVideoBands * kVideoStatFields);
  SWL_CUDA_CHECK(cudaMemsetAsync(video.get(), 0, n, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(map_mean.get(), 0, n, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(map_dev.get(), 0, n, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(row_age.get(), 0, az, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(row_stats.get(), 0, row_stats.size() * sizeof(uint32_t), stream));
}

VideoBuffers VideoDeviceState::buffers(const uint8_t* d_polar) {
  VideoBuffers b;
  b.polar = d_polar;
  b.video = video.get();
  b.map_mean = map_mean.get();
  b.map_dev = map_dev.get();
  b.row_age = row_age.get();
  b.row_stats = row_stats.get();
  b.sea = sea.get();
  b.sector_stats = sector_stats.get();
  return b;
}

void launch_video(const VideoSetup& su, const VideoBuffers& b, int first, int count,
                  cudaStream_t stream) {
  SWL_CHECK(su.rain_guard + (1 << su.rain_log2) <= kHalo && su.land_run <= kHalo,
            "video: windows larger than the kernel's halo");
  if (count > 0) {
    const dim3 grid(unsigned(count), unsigned((su.bins + kChunk - 1) / kChunk));
    map_kernel<<<grid, kThreads, 0, stream>>>(su, b, first);
    SWL_CUDA_CHECK_LAUNCH();
    video_kernel<<<grid, kThreads, 0, stream>>>(su, b, first);
    SWL_CUDA_CHECK_LAUNCH();
    age_kernel<<<unsigned((count + 255) / 256), 256, 0, stream>>>(b, su.azimuths, first, count);
    SWL_CUDA_CHECK_LAUNCH();
  }
  sector_kernel<<<kVideoSectors, kVideoBands * kVideoStatFields, 0, stream>>>(b, su.azimuths,
                                                                              su.sector_rows);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda
