#pragma once
// The CUDA labelling's host-side declarations, shared by its files: the workspace, the
// statistics' layouts and the launches of `fast`'s steps, the hole filling and the area filter.
// gpu/reference/ccl_reference_kernels.hpp adds the papers' algorithms on the same workspace.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "app/common/check.hpp"
#include "gpu/cuda/ccl_tuning.hpp"
#include "gpu/cuda/cuda_resources.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

// Pixels per tile row, threads per tile (one per word) and pixels per tile.
constexpr int kTilePix = kTileWords * 32;
constexpr int kTileThreads = kTileWords * kTileRows;
constexpr int kTilePixels = kTilePix * kTileRows;
static_assert(kTileThreads == 256 && kTileWords == 8, "one warp per word column of a tile");

inline int blocks_for(int64_t n, int threads) {
  return int((n + threads - 1) / threads);
}

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
  // When set (`fast` without an intensity image, both sides <= kRecordMaxSide), each component
  // has a 32-byte record (RecordWord): a component inside one tile keeps all of its statistics
  // there, so that its store fills one whole DRAM sector where seven arrays left seven partial
  // ones. A component that spans tiles keeps in its record either everything (SpanWord: area
  // packed above the sum of x, when span_record_fits; `area` is null then), so that its reset is
  // one sector and its global atomics go to one sector a tile, or (`area` set) its top row and
  // 64-bit sums, with its area and the rest of its box in area/xmin/xmax/ymax after the records
  // (five sectors). docs/decisions/0005.
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
  int64_t blocks = 0;                // blocks of kScanWords words: ceil(words / kScanWords)
  int32_t* uf = nullptr;             // union-find forest: -1 off, else parent (roots: themselves)
  int32_t* labels = nullptr;         // the output label image (also scratch before the end)
  uint32_t* on_bits = nullptr;       // words of on pixels
  uint32_t* root_bits = nullptr;     // words of root pixels
  uint32_t* block_counts = nullptr;  // roots per block, then exclusive offsets (reference)
  int32_t* count = nullptr;          // [0] components, [1] kept after the filter, [2] kang count
  int32_t* flags = nullptr;          // device-side convergence flags (propagation)
  uint8_t* blob = nullptr;           // statistics, or hole-filling scratch before them
  size_t blob_bytes = 0;
  int64_t capacity = 0;  // components the statistics hold
  Stats stats;
  uint32_t* newid = nullptr;  // area filter's renumbering table / kang's box locks
  uint32_t* keep_bits = nullptr;
  int64_t id_blocks = 0;  // blocks over keep_bits words
  // `fast`: tiles of kTileRows x kTileWords words; a segment is one tile's row.
  int tiles_x = 0, tiles_y = 0;
  int64_t segs = 0;                 // h * tiles_x
  uint32_t* bord_bits = nullptr;    // per word: tile roots of components touching another tile
  uint32_t* seg_offsets = nullptr;  // per segment: roots before it in its block of 32 segments
  uint32_t* seg_blocks = nullptr;   // per block of 32 segments: roots, then exclusive offsets
  uint32_t* seg_scan = nullptr;     // per block of 32 segments: exclusive offsets (fused scan)
  int64_t seg_nblocks = 0;
  // `fast` only: false skips the statistics (labels and ids 1..n only; benchmarks).
  bool with_stats = true;
};

// Hole filling (paper 003, simultaneous fore/background propagation): writes a 0/1 mask with the
// holes on into the blob's tail and returns it.
const uint8_t* fill_holes(const Workspace& ws, const uint8_t* d_image, uint8_t threshold,
                          int connectivity, int64_t hole_max_area, cudaStream_t stream);
// Paper 003's propagation labelling (the loop on the device, a cooperative kernel): the forest
// `uf` ends with every pixel (foreground only unless `both`) pointing at the minimum raster index
// of its component; conn_fg / conn_bg: the foreground's and the background's connectivity.
void run_propagation(const uint8_t* img, uint8_t thr, int w, int h, int conn_fg, int conn_bg,
                     bool both, int32_t* uf, int32_t* flags, cudaStream_t stream);

// `fast`, step by step (docs/labelling.md, "How `fast` works"):
// 1. Tile labelling (ccl_fast_tiles.cu): on bits, the int16 local roots in the label image, root
//    and border bits, forest entries for the pixels that touch another tile.
void label_tiles(const Workspace& ws, const uint8_t* d_image, uint8_t threshold, bool eight,
                 cudaStream_t stream);
// 2. Unions of the contacts across tile borders (ccl_fast_merge.cu).
void unite_tile_borders(const Workspace& ws, bool eight, cudaStream_t stream);
// 3. Flattens the border tile roots, marks the global roots, counts roots per segment.
void flatten_tile_roots(const Workspace& ws, cudaStream_t stream);
// 4. Numbering (ccl_fast_finish.cu): the scan of the segment counts and, with statistics, the
//    reset of the components that span tiles.
void number_components(const Workspace& ws, bool weighted, cudaStream_t stream);
// 5. Per tile: labels, ids and statistics.
void finish_tiles(const Workspace& ws, const uint8_t* d_intensity, cudaStream_t stream);
// Once per process before any capture: the finish kernels' dynamic shared-memory limits.
void prepare_finish();
// Rows of whole tiles with few enough segment blocks: the numbering's scan runs inside its reset
// kernel (one launch fewer), and its offsets land in seg_scan instead of seg_blocks.
inline bool numbering_fused(const Workspace& ws) {
  return ws.wpr % kTileWords == 0 && ws.seg_nblocks == blocks_for(ws.words, 256) &&
         ws.seg_nblocks <= kMaxFusedBlocks;
}

// Exclusive scan of n block counts into offsets (in place when equal), the total into *total;
// one block, no host synchronisation (ccl_area_filter.cu).
void scan_block_counts(const uint32_t* counts_in, uint32_t* offsets, int64_t n, int32_t* total,
                       cudaStream_t stream);
// The area filter's new ids: keep bits over ids 1..count, their scan (kept count into count[1])
// and ws.newid (0: dropped). Skips frames with more components than the statistics hold.
void area_filter_ids(const Workspace& ws, int64_t min_area, int64_t max_area, cudaStream_t stream);
// The whole area filter of `fast`: the new ids, then the renumbering of the on pixels only
// (ws.on_bits holds the frame's).
void area_filter(const Workspace& ws, int64_t min_area, int64_t max_area, cudaStream_t stream);

// Named event marks for per-stage times (around a graph launch, each kernel group in a
// benchmark's profile, each phase of the papers' algorithms).
struct StageEvents {
  static constexpr int kMax = 24;
  std::vector<Event> ev;  // created by the first start()
  const char* name[kMax] = {};
  int used = 0;
  void start(cudaStream_t s);                    // forgets the marks, then marks "start"
  void mark(const char* stage, cudaStream_t s);  // records the end of `stage`
};

// The current device's multiprocessors (grids sized to stay resident).
int device_sm_count();

}  // namespace sweepline::gpu::cuda::ccl_detail
