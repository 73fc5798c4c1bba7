#pragma once
// The tuning constants of the CUDA labelling (`fast`, the product path), one place for all of
// them, each with the reason for its value. The figures behind them: docs/perf/labelling.md; the
// choices and the alternatives measured against them: docs/decisions/0001-0009.
#include <cstdint>

namespace sweepline::gpu::cuda::ccl_detail {

// A tile is 32 rows x 8 words (256 pixels) wide: one 256-thread block, a warp per word column,
// a thread per word, and a local index (< 8192) that fits the int16 local roots (0002).
constexpr int kTileWords = 8;
constexpr int kTileRows = 32;

// The pair tile kernel's compact shared layout (26.6 KB, 32 registers) holds 8 blocks an SM, so
// a 4096^2 frame's 2048 tiles run in 2 waves; the larger layout held 6 and was 4-8 us slower at
// densities 0.3-0.6 (0003).
constexpr int kTileBlocksPerSm = 8;

// The finish without an intensity image: six blocks an SM with 1088 slots a pass (a tile with
// more components takes another pass). Five (1152 slots) or four (1280) were 1-9 us slower on
// every image but 4-connected noise at 0.3 (0004).
constexpr int kFinishBlocksPerSm = 6;
constexpr int kFinishSlots = 1088;
// With an intensity image a slot keeps three more words (sum of y, area, peak): three blocks an
// SM with 1280 slots (the weighted finish was not retuned with the unweighted one) (0004).
constexpr int kFinishBlocksPerSmWeighted = 3;
constexpr int kFinishSlotsWeighted = 1280;

// The finish's per-tile table of components that span tiles: 16 entries fit the dead row-root
// bits (no shared memory added); a 256-entry table gained as much at 4-conn 0.6 but cost 2-8 us
// elsewhere (0005).
constexpr int kBorderTableEntries = 16;

// The roots kernel steps four finds together so that their dependent loads overlap; 8 or 16 were
// up to 10 us slower (0006).
constexpr int kRootChases = 4;

// The numbering's scan runs inside the border-reset kernel while the frame's segment blocks are
// at most this many (every block sums its predecessors' totals: 4096 keeps that sum cheap;
// 4096^2 has 2048).
constexpr int64_t kMaxFusedBlocks = 4096;

// The area filter's renumbering of on pixels: a grid-stride loop over this many blocks an SM
// (a whole-image pass launched 65536 blocks and was 42 us slower on a radar frame) (0006).
constexpr int kRemapBlocksPerSm = 8;

// Threads of the word-per-thread kernels over ids (the area filter): 32 warps, 32 ids each.
constexpr int kBlock = 1024;
constexpr int kWordsPerBlock = kBlock / 32;
// Words per block of the numbering's block counts (the reference algorithms' root numbering and
// the scratch's count array): one block count per 256 words.
constexpr int kScanWords = 256;

// Components the on-device statistics hold at most: keeps the scratch beyond the label image at
// 196.7 MB at 4096^2 (the budget is 200 MB); beyond it fetch() measures on the host.
constexpr int64_t kStatisticsCapacity = 2'400'000;

// The label image in memory the L2 may keep compressed, where the device offers it: 3-5 us off
// the radar frames (nearly all zeros), 0-2 us off random images (0007).
constexpr bool kCompressibleLabelImage = true;

}  // namespace sweepline::gpu::cuda::ccl_detail
