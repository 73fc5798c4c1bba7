#include "gpu/cuda/video_kernels.hpp"

#include <algorithm>

#include "app/common/check.hpp"
#include "gpu/cuda/cuda_check.hpp"
#include "gpu/land_words.hpp"
#include "gpu/video_math.hpp"

namespace sweepline::gpu::cuda {

namespace {

// One launch does the whole stage for the dirty rows (docs/decisions/0019 has the design): a
// block takes one row and one chunk of whole range bands, with a halo of kHalo cells each side
// (the rain window and the land runs look that far). Each thread owns 8 consecutive cells (one
// 8-byte load per row), so per-cell work is registers and a few shared-memory reads; the halo's
// clutter map is recomputed, not read back, because the map is double-buffered by row parity
// (a row's map is read from one copy and written to the other), so a block never sees a
// neighbour chunk's update.
constexpr int kThreads = 128;
constexpr int kPer = 8;                           // cells a thread owns
constexpr int kChunkMax = kThreads * kPer;        // 1024
constexpr int kHalo = kRainHalfMaxCells;          // 128
constexpr int kExt = kChunkMax + 2 * kHalo;       // 1280 cells a block sees
constexpr int kGroups = kExt / kPer;              // 160
constexpr int kHaloGroups = kHalo / kPer;         // 16
constexpr int kExtraGroups = kGroups - kThreads;  // 32 groups a second pass takes
static_assert(kVideoSmoothHalf == 1, "the kernel assumes a 3 x 3 mean");
static_assert(kHalo % kPer == 0 && kExtraGroups <= kThreads, "group layout");

struct Shared {
  uint16_t col[kExt + 2];  // column sums of the 3 rows, cells e0 - 1 .. e0 + kExt
  uint8_t clip[kExt];      // gained level clipped for the rain window (0 outside range)
  uint8_t level[kExt];     // gained level as it is, for the censoring (0 outside range)
  alignas(
      4) uint8_t steady[kGroups];  // 8 steady flags a group, bit i = cell 8q + i (read as words)
  uint32_t stats[kVideoBands][kVideoStatFields];
};

struct Row {
  const uint8_t* raw[3];
  int a, age;
  int parity;  // which copy of the clutter map holds the row
};

__device__ __forceinline__ void unpack8(uint2 v, int out[8]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    out[i] = int((v.x >> (8 * i)) & 0xFFu);
    out[4 + i] = int((v.y >> (8 * i)) & 0xFFu);
  }
}
__device__ __forceinline__ uint2 pack8(const int in[8]) {
  uint2 v{0u, 0u};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    v.x |= uint32_t(in[i]) << (8 * i);
    v.y |= uint32_t(in[4 + i]) << (8 * i);
  }
  return v;
}
// 8 bytes at p + c .. c + 7 of a row of B cells: one load when aligned and inside, else bytes
// (0 past either end).
__device__ __forceinline__ void load8(const uint8_t* p, int c, int B, bool vec, int out[8]) {
  if (vec && c >= 0 && c + kPer <= B) {
    unpack8(__ldg(reinterpret_cast<const uint2*>(p + c)), out);
    return;
  }
#pragma unroll
  for (int i = 0; i < kPer; ++i) out[i] = c + i >= 0 && c + i < B ? int(__ldg(p + c + i)) : 0;
}
__device__ __forceinline__ void load8_u16(const uint16_t* p, int c, int B, bool vec, int out[8]) {
  if (vec && c >= 0 && c + kPer <= B) {
    const uint4 v = *reinterpret_cast<const uint4*>(p + c);
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      out[2 * i] = int(w[i] & 0xFFFFu);
      out[2 * i + 1] = int(w[i] >> 16);
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < kPer; ++i) out[i] = c + i >= 0 && c + i < B ? int(p[c + i]) : 0;
}

// The steady bit of window cell k (bits past the window read as breaks).
__device__ __forceinline__ uint32_t steady_word(const Shared& sh, int w) {
  return reinterpret_cast<const uint32_t*>(sh.steady)[w];
}
// The land flags of group q's 8 cells (bit i): steady cells in a run of at least `run` steady
// cells. The nearest breaks before and after the group are found in the window's bit mask (its
// ends count as breaks: a run reaching them is at least kHalo long, which no run length
// exceeds), then the cells are walked once each way.
__device__ uint32_t land_bits(const Shared& sh, int q, int run) {
  constexpr int kWords = kGroups / 4;
  const uint32_t steady = sh.steady[q];
  if (steady == 0) return 0;
  const int k0 = kPer * q;
  int w = k0 >> 5;
  uint32_t brk = ~steady_word(sh, w) & ((1u << (k0 & 31)) - 1u);
  while (brk == 0 && w > 0) brk = ~steady_word(sh, --w);
  int lo[kPer];
  int last = brk ? 32 * w + 31 - __clz(brk) : -1;
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    if (!((steady >> i) & 1u)) last = k0 + i;
    lo[i] = last;
  }
  const int k7 = k0 + kPer - 1;
  w = k7 >> 5;
  brk = (k7 & 31) == 31 ? 0u : ~steady_word(sh, w) & ~((2u << (k7 & 31)) - 1u);
  while (brk == 0 && w + 1 < kWords) brk = ~steady_word(sh, ++w);
  int next = brk ? 32 * w + __ffs(int(brk)) - 1 : kExt;
  uint32_t land = 0;
#pragma unroll
  for (int i = kPer - 1; i >= 0; --i) {
    if (!((steady >> i) & 1u)) {
      next = k0 + i;
      continue;
    }
    if (next - lo[i] - 1 >= run) land |= 1u << i;
  }
  return land;
}

// Phase 1 of a group: the column sums of its 8 cells into shared memory.
__device__ __forceinline__ void column_sums(Shared& sh, const Row& r, int e0, int q, int B,
                                            bool vec) {
  const int c = e0 + kPer * q;
  int v0[kPer], v1[kPer], v2[kPer];
  load8(r.raw[0], c, B, vec, v0);
  load8(r.raw[1], c, B, vec, v1);
  load8(r.raw[2], c, B, vec, v2);
#pragma unroll
  for (int i = 0; i < kPer; ++i) sh.col[1 + kPer * q + i] = uint16_t(v0[i] + v1[i] + v2[i]);
}

// Phase 2 of a group: smoothed levels, the clutter map (written back for the chunk's cells), the
// steady flags and the clipped levels for the rain window. s, m and d are left for phase 3.
__device__ __forceinline__ void smooth_and_map(Shared& sh, const VideoSetup& su,
                                               const VideoBuffers& b, const Row& r, int e0, int q,
                                               int c0, int c1, bool vec, int s[kPer], int m[kPer],
                                               int d[kPer]) {
  const int B = su.bins, c = e0 + kPer * q;
  const size_t row_off = size_t(r.a) * size_t(B);
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    const int cc = c + i, k = 1 + kPer * q + i;
    const int n = 3 * (1 + (cc > 0) + (cc + 1 < B));
    s[i] = cc >= 0 && cc < B ? video_smooth(sh.col[k - 1] + sh.col[k] + sh.col[k + 1], n) : 0;
  }
  uint32_t steady = 0;
  if (su.clutter_map) {
    int old[kPer];
    load8_u16(b.map[r.parity] + row_off, c, B, vec, old);
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      uint8_t mm = uint8_t(old[i] & 0xFF), dd = uint8_t(old[i] >> 8);
      map_update(s[i], r.age, mm, dd);
      m[i] = mm;
      d[i] = dd;
      const int cc = c + i;
      if (cc >= 0 && cc < B && map_is_steady(mm, dd, r.age + 1, su.land_min)) steady |= 1u << i;
    }
    // The chunk's own cells go to the other copy (the halo's belong to other blocks).
    uint16_t* out = b.map[r.parity ^ 1] + row_off;
    if (vec && c >= c0 && c + kPer <= c1) {
      uint32_t w[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        w[i] = uint32_t(m[2 * i] | d[2 * i] << 8) | uint32_t(m[2 * i + 1] | d[2 * i + 1] << 8)
                                                        << 16;
      *reinterpret_cast<uint4*>(out + c) = uint4{w[0], w[1], w[2], w[3]};
    } else {
#pragma unroll
      for (int i = 0; i < kPer; ++i)
        if (c + i >= c0 && c + i < c1) out[c + i] = uint16_t(m[i] | d[i] << 8);
    }
  } else if (c + kPer > c0 && c < c1) {
    // The map is off: it stays as it was, in the copy the row reads next time.
    const uint16_t* in = b.map[r.parity] + row_off;
    uint16_t* out = b.map[r.parity ^ 1] + row_off;
    for (int i = 0; i < kPer; ++i)
      if (c + i >= c0 && c + i < c1) out[c + i] = in[c + i];
  }
  sh.steady[q] = uint8_t(steady);
  const uint8_t* clip_row = b.sea + kVideoClipPlane + size_t(r.a / su.sector_rows) * kVideoBands;
  const bool mature = video_mature(su.clutter_map, r.age);
  // One division a group: the band of its first cell in range, then its end.
  int band = max(c, 0) / su.band_bins, band_end = (band + 1) * su.band_bins;
#pragma unroll
  for (int i = 0; i < kPer; ++i) {
    const int cc = c + i;
    if (cc >= band_end) {
      ++band;
      band_end += su.band_bins;
    }
    int g = 0, v = 0;
    if (cc >= 0 && cc < B) {
      g = video_gain(s[i], su.gain_q8);
      v = mature ? min(g, int(clip_row[band])) : g;
    }
    sh.clip[kPer * q + i] = uint8_t(v);
    sh.level[kPer * q + i] = uint8_t(g);
  }
}

__global__ void __launch_bounds__(kThreads)
    video_kernel(VideoSetup su, VideoBuffers b, int first, int chunk) {
  __shared__ Shared sh;
  const int A = su.azimuths, B = su.bins, t = int(threadIdx.x);
  Row r;
  r.a = (first + int(blockIdx.x)) % A;
  r.raw[0] = b.polar + size_t((r.a + A - 1) % A) * B;
  r.raw[1] = b.polar + size_t(r.a) * B;
  r.raw[2] = b.polar + size_t((r.a + 1) % A) * B;
  r.age = b.row_age[r.a];
  r.parity = b.row_parity[r.a] & 1;
  const int c0 = int(blockIdx.y) * chunk, c1 = min(B, c0 + chunk), e0 = c0 - kHalo;
  const bool vec = (B % kPer) == 0 && (c0 % kPer) == 0;

  for (int i = t; i < kVideoBands * kVideoStatFields; i += kThreads) (&sh.stats[0][0])[i] = 0;
  // The thread's own group (16 + t: the chunk, when it is full-size) and one of the 32 others.
  const int q_own = kHaloGroups + t;
  const int q_extra = t < kHaloGroups ? t : kThreads + t;  // 0..15, then 144..159
  column_sums(sh, r, e0, q_own, B, vec);
  if (t < kExtraGroups) column_sums(sh, r, e0, q_extra, B, vec);
  if (t < 2) {  // the smoothing's neighbours past the window's ends
    const int k = t == 0 ? 0 : kExt + 1, c = t == 0 ? e0 - 1 : e0 + kExt;
    int v = 0;
    if (c >= 0 && c < B) v = r.raw[0][c] + r.raw[1][c] + r.raw[2][c];
    sh.col[k] = uint16_t(v);
  }
  __syncthreads();
  int s[kPer], m[kPer], d[kPer];
  {
    int s2[kPer], m2[kPer], d2[kPer];
    if (t < kExtraGroups) smooth_and_map(sh, su, b, r, e0, q_extra, c0, c1, vec, s2, m2, d2);
  }
  smooth_and_map(sh, su, b, r, e0, q_own, c0, c1, vec, s, m, d);
  __syncthreads();

  // Phase 3: the thread's own cells inside the chunk.
  const int c = e0 + kPer * q_own, k0 = kPer * q_own;
  if (c < c1) {
    const int G = su.rain_guard, W = 1 << su.rain_log2, H = G + W, L2 = su.rain_log2 + 1;
    const bool settled = su.clutter_map && r.age + 1 >= kMapSettle;
    const bool mature = video_mature(su.clutter_map, r.age);
    const uint8_t* sea_row = b.sea + size_t(r.a / su.sector_rows) * kVideoBands;
    // The window sums of the first cell, then slid one cell at a time.
    // clipped (rain) and plain (censoring) sums of the window
    int left = 0, right = 0, left_raw = 0, right_raw = 0;
#pragma unroll 8
    for (int j = 0; j < W; ++j) {
      left += sh.clip[k0 - H + j];
      right += sh.clip[k0 + G + 1 + j];
      left_raw += sh.level[k0 - H + j];
      right_raw += sh.level[k0 + G + 1 + j];
    }
    int band = c / su.band_bins, band_end = (band + 1) * su.band_bins;
    const uint32_t land_mask = su.clutter_map ? land_bits(sh, q_own, su.land_run) : 0u;
    uint32_t f[kVideoStatFields] = {0, 0, 0, 0};
    int out[kPer];
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int cc = c + i, k = k0 + i;
      if (i > 0) {
        left += sh.clip[k - G - 1] - sh.clip[k - H - 1];
        right += sh.clip[k + H] - sh.clip[k + G];
        left_raw += sh.level[k - G - 1] - sh.level[k - H - 1];
        right_raw += sh.level[k + H] - sh.level[k + G];
      }
      out[i] = 0;
      if (cc >= c1) continue;
      if (cc >= band_end) {  // the next band: flush the partial sums
        for (int x = 0; x < kVideoStatFields; ++x) {
          if (f[x]) atomicAdd(&sh.stats[band][x], f[x]);
          f[x] = 0;
        }
        ++band;
        band_end += su.band_bins;
      }
      const int sum = left_raw + right_raw;
      const int n = (max(0, cc - G) - max(0, cc - H)) + (min(B, cc + H + 1) - min(B, cc + G + 1));
      const int g = video_gain(s[i], su.gain_q8);
      const int rain = su.rain_q8 > 0 ? video_rain(left + right, L2, su.rain_q8) : 0;
      const bool land = (land_mask >> i) & 1u;
      if (!land && !(mature && video_censored(g, sum, n))) {
        f[kStatSum] += uint32_t(s[i]);
        f[kStatCount] += 1;
        if (settled && !(mature && video_censored(video_gain(m[i], su.gain_q8), sum, n))) {
          f[kStatDevSum] += uint32_t(d[i]);
          f[kStatDevCount] += 1;
        }
      }
      out[i] = video_out(g, sea_row[band], rain, land);
    }
    for (int x = 0; x < kVideoStatFields; ++x)
      if (f[x]) atomicAdd(&sh.stats[band][x], f[x]);
    uint8_t* video = b.video + size_t(r.a) * size_t(B);
    if (vec && c + kPer <= c1) {
      *reinterpret_cast<uint2*>(video + c) = pack8(out);
    } else {
      for (int i = 0; i < kPer; ++i)
        if (c + i < c1) video[c + i] = uint8_t(out[i]);
    }
  }
  __syncthreads();
  // The chunk owns whole bands: its sums are the row's (plain stores, nothing to clear first).
  uint32_t* row_stats = b.row_stats + size_t(r.a) * kVideoBands * kVideoStatFields;
  const int band0 = c0 / su.band_bins, band1 = min(kVideoBands, (c1 - 1) / su.band_bins + 1);
  for (int i = t; i < (band1 - band0) * kVideoStatFields; i += kThreads)
    row_stats[band0 * kVideoStatFields + i] = (&sh.stats[band0][0])[i];
}

// One block a sector: its rows' band statistics summed (one thread a band's statistic), then the
// processed rows of the sector have been seen once more.
__global__ void sector_kernel(VideoBuffers b, int azimuths, int sector_rows, int first, int count) {
  constexpr int kRow = kVideoBands * kVideoStatFields;
  const int sec = int(blockIdx.x), i = int(threadIdx.x);
  const int a0 = sec * sector_rows, a1 = min(azimuths, a0 + sector_rows);
  unsigned long long sum = 0;
  for (int a = a0; a < a1; ++a) sum += b.row_stats[size_t(a) * kRow + i];
  b.sector_stats[size_t(sec) * kRow + i] = sum;
  for (int a = a0 + i; a < a1; a += kRow) {
    const int off = (a - first + azimuths) % azimuths;
    if (off >= count) continue;
    if (b.row_age[a] < 255) b.row_age[a] = uint8_t(b.row_age[a] + 1);
    b.row_parity[a] ^= 1;
  }
}

// One warp a word: lane l reads cells 8l .. 8l + 7 of the word's 256 (one 8-byte load when the
// row allows it), and the ballot of "any land" is the word.
__global__ void land_words_kernel(const uint8_t* video, int azimuths, int bins, int first,
                                  int count, int words_per_row, uint32_t* land) {
  const int warp = int((blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = int(threadIdx.x % 32);
  if (warp >= count * words_per_row) return;  // whole warps: blockDim is a multiple of 32
  const int a = (first + warp / words_per_row) % azimuths, w = warp % words_per_row;
  const uint8_t* row = video + size_t(a) * size_t(bins);
  const int c = w * kLandWordCells + lane * kLandGroupCells;
  bool any = false;
  if (c + kLandGroupCells <= bins && (bins % 8) == 0) {
    const uint2 v = *reinterpret_cast<const uint2*>(row + c);
    for (int i = 0; i < 4; ++i)
      any |= ((v.x >> (8 * i)) & 0xFFu) == uint32_t(kVideoLand) ||
             ((v.y >> (8 * i)) & 0xFFu) == uint32_t(kVideoLand);
  } else {
    for (int i = 0; i < kLandGroupCells && c + i < bins; ++i) any |= row[c + i] == kVideoLand;
  }
  const uint32_t word = __ballot_sync(0xFFFFFFFFu, any);
  if (lane == 0) land[size_t(a) * size_t(words_per_row) + size_t(w)] = word;
}

}  // namespace

void VideoDeviceState::reset(int azimuths, int bins, cudaStream_t stream) {
  const size_t n = size_t(azimuths) * size_t(bins), az = size_t(azimuths);
  video.resize(n);
  for (auto& m : map) m.resize(n);
  row_age.resize(az);
  row_parity.resize(az);
  row_stats.resize(az * kVideoBands * kVideoStatFields);
  sea.resize(size_t(kVideoTableSize));
  sector_stats.resize(size_t(kVideoSectors) * kVideoBands * kVideoStatFields);
  SWL_CUDA_CHECK(cudaMemsetAsync(video.get(), 0, n, stream));
  for (auto& m : map) SWL_CUDA_CHECK(cudaMemsetAsync(m.get(), 0, n * sizeof(uint16_t), stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(row_age.get(), 0, az, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(row_parity.get(), 0, az, stream));
  SWL_CUDA_CHECK(cudaMemsetAsync(row_stats.get(), 0, row_stats.size() * sizeof(uint32_t), stream));
  land.resize(az * size_t(land_words_per_row(bins)));
  SWL_CUDA_CHECK(cudaMemsetAsync(land.get(), 0, land.size() * sizeof(uint32_t), stream));
}

VideoBuffers VideoDeviceState::buffers(const uint8_t* d_polar) {
  VideoBuffers b;
  b.polar = d_polar;
  b.video = video.get();
  b.map[0] = map[0].get();
  b.map[1] = map[1].get();
  b.row_age = row_age.get();
  b.row_parity = row_parity.get();
  b.row_stats = row_stats.get();
  b.sea = sea.get();
  b.sector_stats = sector_stats.get();
  return b;
}

int video_chunk_cells(int band_bins) {
  return std::max(1, kChunkMax / std::max(1, band_bins)) * std::max(1, band_bins);
}

void launch_video(const VideoSetup& su, const VideoBuffers& b, int first, int count,
                  cudaStream_t stream) {
  SWL_CHECK(su.rain_guard + (1 << su.rain_log2) <= kHalo && su.land_run <= kHalo,
            "video: windows larger than the kernel's halo");
  SWL_CHECK(su.band_bins <= kChunkMax, "video: range bands wider than the kernel's chunk");
  if (count > 0) {
    const int chunk = video_chunk_cells(su.band_bins);
    const dim3 grid(unsigned(count), unsigned((su.bins + chunk - 1) / chunk));
    video_kernel<<<grid, kThreads, 0, stream>>>(su, b, first, chunk);
    SWL_CUDA_CHECK_LAUNCH();
  }
  sector_kernel<<<kVideoSectors, kVideoBands * kVideoStatFields, 0, stream>>>(
      b, su.azimuths, su.sector_rows, first, std::max(0, count));
  SWL_CUDA_CHECK_LAUNCH();
}

void launch_land_words(const uint8_t* video, int azimuths, int bins, int first, int count,
                       uint32_t* land, cudaStream_t stream) {
  count = std::min(count, azimuths);
  if (count <= 0 || bins <= 0) return;
  constexpr int kBlock = 256;  // 8 warps, 8 words
  const int wpr = land_words_per_row(bins);
  const int64_t threads = int64_t(count) * wpr * 32;
  land_words_kernel<<<unsigned((threads + kBlock - 1) / kBlock), kBlock, 0, stream>>>(
      video, azimuths, bins, first, count, wpr, land);
  SWL_CUDA_CHECK_LAUNCH();
}

}  // namespace sweepline::gpu::cuda
