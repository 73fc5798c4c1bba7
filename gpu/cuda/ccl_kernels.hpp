#pragma once
// Shared by the CUDA labelling files (host-side declarations; C++17, since nvcc builds the
// kernels as C++17): error checks, the workspace layout and the device helpers
// that every algorithm's output goes through (union-find forest in `uf`, roots = minimum raster
// index, then root bits -> scan -> consecutive ids -> labels and statistics).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "app/common/check.hpp"
#include "gpu/cuda/env_switch.hpp"

#define CCL_CUDA_CHECK(call)                                                              \
  do {                                                                                    \
    cudaError_t ccl_err_ = (call);                                                        \
    if (ccl_err_ != cudaSuccess)                                                          \
      ::sweepline::throw_error(__FILE__, __LINE__,                                        \
                               std::string(#call) + ": " + cudaGetErrorString(ccl_err_)); \
  } while (0)

#define CCL_CUDA_CHECK_NOTHROW(call)                                                            \
  do {                                                                                          \
    cudaError_t ccl_err_ = (call);                                                              \
    if (ccl_err_ != cudaSuccess)                                                                \
      ::sweepline::log_error_nothrow(__FILE__, __LINE__,                                        \
                                     std::string(#call) + ": " + cudaGetErrorString(ccl_err_)); \
  } while (0)

namespace sweepline::gpu::cuda::ccl_detail {

// Threads per block of the pixel-per-thread word kernels (area filter): 32 warps, one 32-pixel
// row segment ("word") or 32 ids each.
constexpr int kBlock = 1024;
constexpr int kWordsPerBlock = kBlock / 32;
// Root numbering: one thread per word, kScanWords words per block (one block count each).
constexpr int kScanWords = 256;

// Per-component statistics, structure of arrays, indexed by id - 1. Without an intensity image
// the weight sum is the area: only the 32-bit area is written then (sum_w and peak are not), and
// the area's bit kSums64 says where the coordinate sums are: set, in sum_wx/sum_wy (64 bits; every
// reset slot has it); clear, in sx32/sy32 (32 bits: components inside one `fast` tile, whose
// sums fit while both sides are below kNarrowMaxSide; fewer bytes stored).
constexpr uint32_t kSums64 = 0x80000000u;
constexpr int kNarrowMaxSide = 1 << 19;
struct Stats {
  uint32_t* area = nullptr;
  uint32_t* xmin = nullptr;
  uint32_t* xmax = nullptr;
  uint32_t* ymin = nullptr;
  uint32_t* ymax = nullptr;
  uint32_t* peak = nullptr;
  unsigned long long* sum_w = nullptr;
  unsigned long long* sum_wx = nullptr;
  unsigned long long* sum_wy = nullptr;
  uint32_t* sx32 = nullptr;  // unweighted only: aliases peak
  uint32_t* sy32 = nullptr;  // unweighted only: aliases sum_w
  // When set (tiled `fast` without an intensity image, both sides <= kRecordMaxSide), each
  // component has a 32-byte record (RecordWord): a component inside one tile keeps all of its
  // statistics there, so that its store fills one whole DRAM sector where seven arrays left seven
  // partial ones. A component that spans tiles keeps in its record either everything
  // (SpanWord: area packed above the sum of x, when span_record_fits; `area` is null then), so
  // that its reset is one sector and its global atomics go to one sector a tile, or (`area` set)
  // its top row and 64-bit sums, with its area and the rest of its box in area/xmin/xmax/ymax
  // after the records (five sectors).
  uint32_t* rec = nullptr;
};
constexpr size_t kStatsBytesPerComponent = 6 * 4 + 3 * 8;
// A record's words. Inside one tile: area (<= one tile's pixels), box, 32-bit coordinate sums.
enum RecordWord : int { kRecArea, kRecXmin, kRecXmax, kRecYmin, kRecYmax, kRecSx, kRecSy };
// Spanning tiles, with the arrays: kRecSpanning, the top row, then the sums of x and y as two
// 64-bit words.
enum SpanningWord : int { kSpanYmin = 1, kSpanSx = 2, kSpanSy = 4 };
constexpr uint32_t kRecSpanning = 0xffffffffu;
// Spanning tiles, all in the record: kSpanFlag | top row, the rest of the box, then two 64-bit
// words: area << kSpanAreaShift | sum of x, and the sum of y. Word 0 of a component inside a tile
// is its area (<= 8192), so bit 31 tells the two apart in either layout.
enum SpanWord : int { kSpanTop, kSpanXmin, kSpanXmax, kSpanYmax, kSpanAreaSx, kSpanSumY = 6 };
constexpr uint32_t kSpanFlag = 0x80000000u;
constexpr int kSpanAreaShift = 36;
constexpr int kRecordWords = 8;
// Inside one tile (<= 8192 pixels) the coordinate sums then stay below 2^29 + 2^21: 32 bits.
constexpr int kRecordMaxSide = 1 << 16;
// The sum of x of a w x h frame's component stays below w * h * w, its area below w * h: while
// that is <= 2^36 and < 2^28 the packed word of SpanWord holds both without a carry between them
// (max(w, h) in place of w: the bound the GPU tests ran with, a little stricter).
constexpr bool span_record_fits(int64_t w, int64_t h) {
  return w * h < (int64_t(1) << 28) && w * h * (w > h ? w : h) <= (int64_t(1) << kSpanAreaShift);
}
static_assert(span_record_fits(4096, 4096) && !span_record_fits(4097, 4096), "4096^2 fits");
static_assert(kRecordWords * 4 + 4 * 4 <= kStatsBytesPerComponent,
              "records and the spanning components' four arrays fit the statistics' blob");

struct Workspace {
  int w = 0, h = 0;
  int64_t n = 0;                     // pixels
  int wpr = 0;                       // 32-pixel words per row
  int64_t words = 0;                 // wpr * h
  int64_t blocks = 0;                // numbering blocks: ceil(words / kScanWords)
  int32_t* uf = nullptr;             // union-find forest: -1 off, else parent (roots: themselves)
  int32_t* labels = nullptr;         // the output label image (also scratch before the end)
  uint32_t* on_bits = nullptr;       // words of on pixels
  uint32_t* root_bits = nullptr;     // words of root pixels
  uint32_t* block_counts = nullptr;  // roots per block, then exclusive offsets
  int32_t* count = nullptr;          // [0] components, [1] kept after the filter, [2] kang count
  int32_t* flags = nullptr;          // device-side convergence flags (propagate)
  uint8_t* blob = nullptr;           // statistics, or hole-filling scratch before them
  size_t blob_bytes = 0;
  int64_t capacity = 0;  // components the statistics hold
  Stats stats;
  uint32_t* newid = nullptr;  // area filter's renumbering table / kang's box locks
  uint32_t* keep_bits = nullptr;
  int64_t id_blocks = 0;  // blocks over keep_bits words
  // `fast` (tiled): tiles of kTileRows x kTileWords words; a segment is one tile's row.
  int tiles_x = 0, tiles_y = 0;
  int64_t segs = 0;                 // h * tiles_x
  uint32_t* bord_bits = nullptr;    // per word: tile roots of components touching another tile
  uint32_t* seg_offsets = nullptr;  // per segment: roots before it in its block of 32 segments
  uint32_t* seg_blocks = nullptr;   // per block of 32 segments: roots, then exclusive offsets
  uint32_t* seg_scan = nullptr;     // per block of 32 segments: exclusive offsets (fused scan)
  int64_t seg_nblocks = 0;
  // `fast` (tiled) only: false skips the statistics (labels and ids 1..n only; benchmarks).
  bool with_stats = true;
};

// `fast` tiles: 32 rows x 8 words (256 pixels), one thread per word.
constexpr int kTileWords = 8;
constexpr int kTileRows = 32;

// Hole filling (paper 003, simultaneous fore/background propagation): writes a 0/1 mask with the
// holes on into the blob's tail and returns it.
const uint8_t* fill_holes(const Workspace& ws, const uint8_t* d_image, uint8_t threshold,
                          int connectivity, int64_t hole_max_area, cudaStream_t stream);

// The algorithms. Each leaves `uf` flattened enough for the finish (roots = minimum index,
// every pixel reaches its root by following parents) and, for `fast`, the root bits and block
// counts too (returns true then).
struct StageEvents;
// `fast` labels 32 x 256 tiles in shared memory and unites only contacts across tiles globally
// (ccl_tiles.cu, ccl_tiles_finish.cu), then numbers and measures per tile; the untiled variant
// (ccl_fast.cu + the common finish) stays selectable: SWEEPLINE_CCL_TILES=0/1 overrides this
// default once per process.
constexpr bool kFastTilesDefault = true;
bool fast_tiles_enabled();
// Untiled: leaves the forest, root bits and block counts for assign_ids/finalize.
bool fast_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev = nullptr);
// Tiled, the whole frame: labels, ids 1..n in raster order, statistics (boxes included).
void fast_tiled(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                const uint8_t* d_intensity, cudaStream_t stream, StageEvents* ev = nullptr);
// The tile labelling runs on row pairs (ccl_tiles_pairs.cu: nodes are the runs of row 2k | row
// 2k + 1, with 4-connectivity cut where neither row continues; same outputs);
// SWEEPLINE_CCL_PAIRS=0/1 overrides this default once per process (0: the row-run tile kernel).
constexpr bool kFastPairsDefault = true;
bool fast_pairs_enabled();
// Row pairs for 4-connectivity too (else the row-run kernel labels it); SWEEPLINE_CCL_PAIRS4=0/1
// overrides this default once per process.
constexpr bool kFastPairs4Default = true;
bool fast_pairs4_enabled();
// The pair kernel's compact shared layout (8 blocks an SM instead of 6, measured 4-8 us faster
// at densities 0.3-0.6); SWEEPLINE_CCL_PAIRS_COMPACT=0/1 overrides this default once per process.
constexpr bool kPairsCompactDefault = true;
bool pairs_compact_enabled();
// The tile kernels hand the finish one int16 local root a pair column (rows 2m and 2m + 1 of a
// tile: their on pixels share a tile component), in row 2m's part of the label image: half the
// bytes of one a pixel; SWEEPLINE_CCL_PAIR_LOC=0/1 overrides this default once per process (0:
// one a pixel, both rows from one lookup in the pair kernel).
constexpr bool kPairLocDefault = true;
bool pair_loc_enabled();
// The tile kernels' unions: each warp's contacts handed out evenly over its lanes instead of a
// loop per thread over its own word. Measured 10:42 UTC on the H100: pairs (8-connectivity)
// 331 -> 266 us at 0.5, rows (4-connectivity) 1-8 us slower, so on for pairs only;
// SWEEPLINE_CCL_BALANCE=0/1 overrides both defaults once per process.
constexpr bool kPairsBalanceDefault = true;
constexpr bool kRowsBalanceDefault = false;
bool tiles_balance_enabled(bool pairs);
void tile_pairs_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, bool eight,
                      cudaStream_t stream);
// Its second half (ccl_tiles_finish.cu): scan of the segment counts, statistics of components
// that span tiles initialised, then per tile the label image and statistics.
void tiled_finish(const Workspace& ws, const uint8_t* d_intensity, cudaStream_t stream,
                  StageEvents* ev);
// Without an intensity image the finish may keep fewer slots per pass so that four blocks fit an
// SM; SWEEPLINE_CCL_FINISH4=0/1 overrides this default once per process.
constexpr bool kFinishFourDefault = true;
bool finish_four_enabled();
// Five blocks an SM (1152 slots a pass, 48 registers) before four; SWEEPLINE_CCL_FINISH5=0/1
// overrides this default once per process.
constexpr bool kFinishFiveDefault = true;
bool finish_five_enabled();
// With five blocks enabled, six blocks an SM and 1088 slots instead (either connectivity;
// SWEEPLINE_CCL_FINISH6).
constexpr bool kFinishSixDefault = true;
bool finish_six_enabled();
// The finish writes the labels of two rows a step, one slot lookup a column (a tile's vertically
// adjacent on pixels share their component); SWEEPLINE_CCL_FINISH_PAIRS=0/1 overrides this.
constexpr bool kFinishPairsDefault = true;
bool finish_pairs_enabled();
// The finish adds up the statistics of components that span tiles in a per-tile table before
// the global atomics (SWEEPLINE_CCL_BORDER_TABLE).
constexpr bool kBorderTableDefault = true;
bool border_table_enabled();
// Statistics records (Stats::rec) where they apply; SWEEPLINE_CCL_RECORDS=0/1 overrides this
// default once per process (0: the arrays).
constexpr bool kStatsRecordsDefault = true;
bool stats_records_enabled();
// Spanning components' statistics all in their record where span_record_fits;
// SWEEPLINE_CCL_SPAN_RECORD=0/1 overrides this default once per process (0: the four arrays).
constexpr bool kSpanRecordDefault = true;
bool span_record_enabled();
// The labelling's L2 hints (CacheHints in ccl_device.cuh, bits); SWEEPLINE_CCL_CACHE_HINTS=N
// overrides this default once per process.
constexpr int kCacheHintsDefault = 3;
int cache_hints();
// Once per process before any capture: the finish kernel's dynamic shared-memory limit.
void tiled_prepare();
void kang_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, int connectivity,
                cudaStream_t stream, StageEvents* ev);
void propagate_label(const Workspace& ws, const uint8_t* d_image, uint8_t threshold,
                     int connectivity, cudaStream_t stream);
// kang's bounding boxes (Alg. 6, Alg. 7 or plain atomics) from the final labels.
// method: 0 atomics, 1 Alg. 6, 2 Alg. 7.
void kang_boxes(const Workspace& ws, int method, cudaStream_t stream);
// kang's countBlobs (Alg. 5) over a forest whose roots are themselves.
void kang_count(const Workspace& ws, cudaStream_t stream);

// Named event marks for per-stage times (kang and propagate run outside the graph).
struct StageEvents {
  static constexpr int kMax = 24;
  cudaEvent_t ev[kMax] = {};
  const char* name[kMax] = {};
  int used = 0;
  void mark(const char* stage, cudaStream_t s);  // records the end of `stage`
};

// The common finish.
void root_flags(const Workspace& ws, cudaStream_t stream);  // root bits + block counts from uf
void scan_block_counts(const uint32_t* counts_in, uint32_t* offsets, int64_t n, int32_t* total,
                       cudaStream_t stream);
// root_ymin: a component's ymin is its root's row (not for kang, whose box kernels find it).
// weighted: an intensity image is given (else sum_w and peak are not kept).
void assign_ids(const Workspace& ws, bool init_stats, bool root_ymin, bool weighted,
                cudaStream_t stream);
// run_starts: the forest has entries at `fast`'s run starts only (found from the on bits).
void finalize(const Workspace& ws, const uint8_t* d_intensity, bool boxes, bool run_starts,
              cudaStream_t stream);
// on_bits: ws.on_bits holds the frame's on pixels (`fast`), so the renumbering reads only those
// (SWEEPLINE_CCL_REMAP_ON=0: every pixel).
void area_filter(const Workspace& ws, int64_t min_area, int64_t max_area, bool on_bits,
                 cudaStream_t stream);
constexpr bool kRemapOnDefault = true;
bool remap_on_enabled();
// The current device's multiprocessors (grids sized to stay resident).
int device_sm_count();

// Defines `bool fn()`: the switch NAME (env_switch) read once per process, `fallback` when unset.
#define SWL_CCL_SWITCH(fn, name, fallback)             \
  bool fn() {                                          \
    static const bool on = env_switch(name, fallback); \
    return on;                                         \
  }

inline int blocks_for(int64_t n, int threads) {
  return int((n + threads - 1) / threads);
}

}  // namespace sweepline::gpu::cuda::ccl_detail
