// The owner of the CUDA labelling scratch: allocation per size, the per-frame sequence (hole
// filling, algorithm, shared finish, area filter), the `fast` path captured in a CUDA graph, and
// fetch() with its host fallback for frames with more components than the statistics hold.
#include "gpu/cuda/ccl_cuda.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "gpu/ccl/ccl_detail.hpp"
#include "gpu/cuda/ccl_kernels.hpp"
#include "gpu/cuda/compressible_memory.hpp"

namespace sweepline::gpu::cuda {

using namespace ccl_detail;

namespace {

// Statistics capacity at most: keeps the scratch near 197 MB at 4096x4096.
constexpr int64_t kDefaultCapacity = 2'400'000;

// The label image in compressible memory by default. Measured (H100, 2026-11-26,
// docs/perf/labelling.md): 3-5 us off the radar frames, 0-2 us off random images. The forest
// compressible too changed nothing for `fast` and made `propagate` 10 % slower on dense images
// (which fill it); every array compressible made 4-connectivity at 0.4-0.5 8-10 us slower.
SWL_CCL_SWITCH(compressible_default, "SWEEPLINE_CCL_COMPRESSIBLE", true)

template <class T>
struct DeviceArray {
  T* p = nullptr;
  size_t count = 0;
  CompressibleMemory comp;
  // compressible: try CompressibleMemory first (plain cudaMalloc where it is refused).
  void reset(size_t n, bool compressible = false) {
    release();
    if (n == 0) return;
    if (compressible) comp = CompressibleMemory::allocate(n * sizeof(T));
    if (comp)
      p = static_cast<T*>(comp.get());
    else
      CCL_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)));
    count = n;
  }
  void release() noexcept {
    if (comp)
      comp = CompressibleMemory();
    else if (p)
      CCL_CUDA_CHECK_NOTHROW(cudaFree(p));
    p = nullptr;
    count = 0;
  }
  size_t bytes() const { return count * sizeof(T); }
  ~DeviceArray() { release(); }
};

}  // namespace

struct CclState {
  Workspace ws;
  DeviceArray<int32_t> uf, labels, count;
  DeviceArray<uint32_t> on_bits, root_bits, block_counts, newid, keep_bits;
  DeviceArray<uint8_t> blob;
  // The layouts of the statistics in `blob`: arrays, records with the spanning components'
  // arrays, records alone (span_stats).
  Stats array_stats, record_stats, span_stats;
  int64_t capacity_limit = kDefaultCapacity;
  bool compressible = compressible_default();
  bool profile = false;
  bool stats = true;
  StageEvents events;
  // The frame as last enqueued.
  cudaStream_t stream = nullptr;
  ccl::LabelParams params;
  const uint8_t* d_intensity = nullptr;
  bool pending = false;
  // The captured `fast` graph and what it was captured for.
  cudaGraphExec_t graph = nullptr;
  struct Key {
    const uint8_t* img = nullptr;
    const uint8_t* intensity = nullptr;
    uint8_t thr = 0;
    int conn = 0;
    int64_t min_area = 0, max_area = 0;
    int w = 0, h = 0;
    bool stats = true;
    cudaStream_t stream = nullptr;
    bool operator==(const Key&) const = default;
  } key;

  CclState() {
    for (auto& e : events.ev) CCL_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~CclState() {
    if (graph) CCL_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(graph));
    for (auto& e : events.ev)
      if (e) CCL_CUDA_CHECK_NOTHROW(cudaEventDestroy(e));
  }

  void drop_graph() {
    if (graph) CCL_CUDA_CHECK(cudaGraphExecDestroy(graph));
    graph = nullptr;
    key = {};
  }

  void allocate(int w, int h) {
    if (ws.w == w && ws.h == h && uf.p) return;
    tiled_prepare();
    drop_graph();
    Workspace n;
    n.w = w;
    n.h = h;
    n.n = int64_t(w) * h;
    n.wpr = (w + 31) / 32;
    n.words = int64_t(n.wpr) * h;
    n.blocks = (n.words + kScanWords - 1) / kScanWords;
    n.capacity = std::max<int64_t>(1, std::min<int64_t>(n.n / 2 + 2, capacity_limit));
    int64_t id_words = (n.capacity + 31) / 32;
    n.id_blocks = (id_words + kWordsPerBlock - 1) / kWordsPerBlock;
    size_t blob_bytes = std::max<size_t>((size_t(n.n) + 4) * 4 + size_t(n.n),
                                         size_t(n.capacity) * kStatsBytesPerComponent);
    uf.reset(size_t(n.n));
    labels.reset(size_t(n.n), compressible);
    count.reset(4);
    on_bits.reset(size_t(n.words));
    root_bits.reset(size_t(n.words));
    n.tiles_x = (n.wpr + kTileWords - 1) / kTileWords;
    n.tiles_y = (h + kTileRows - 1) / kTileRows;
    n.segs = int64_t(h) * n.tiles_x;
    // `fast` keeps its segment offsets in block_counts and its border bits in newid (both free
    // until the area filter, which runs after them).
    n.seg_nblocks = (n.segs + 31) / 32;
    block_counts.reset(size_t(std::max({n.blocks, n.id_blocks, n.segs + 2 * n.seg_nblocks})));
    newid.reset(size_t(std::max(n.capacity, n.words)));
    keep_bits.reset(size_t(id_words));
    blob.reset(blob_bytes);
    n.uf = uf.p;
    n.labels = labels.p;
    n.count = count.p;
    n.flags = count.p;  // propagate's flags: count[0..2] before the numbering writes them
    n.on_bits = on_bits.p;
    n.root_bits = root_bits.p;
    n.block_counts = block_counts.p;
    n.newid = newid.p;
    n.bord_bits = newid.p;
    n.seg_offsets = block_counts.p;
    n.seg_blocks = block_counts.p + n.segs;
    n.seg_scan = n.seg_blocks + n.seg_nblocks;
    n.keep_bits = keep_bits.p;
    n.blob = blob.p;
    n.blob_bytes = blob_bytes;
    size_t c = size_t(n.capacity);
    auto* u64 = reinterpret_cast<unsigned long long*>(blob.p);
    n.stats.sum_w = u64;
    n.stats.sum_wx = u64 + c;
    n.stats.sum_wy = u64 + 2 * c;
    auto* u32 = reinterpret_cast<uint32_t*>(u64 + 3 * c);
    n.stats.area = u32;
    n.stats.xmin = u32 + c;
    n.stats.xmax = u32 + 2 * c;
    n.stats.ymin = u32 + 3 * c;
    n.stats.ymax = u32 + 4 * c;
    n.stats.peak = u32 + 5 * c;
    n.stats.sx32 = n.stats.peak;
    n.stats.sy32 = reinterpret_cast<uint32_t*>(n.stats.sum_w);
    // The record layout (Stats::rec): records first, then the spanning components' arrays.
    auto* rec = reinterpret_cast<uint32_t*>(blob.p);
    record_stats = Stats{};
    record_stats.rec = rec;
    record_stats.area = rec + kRecordWords * c;
    record_stats.xmin = record_stats.area + c;
    record_stats.xmax = record_stats.area + 2 * c;
    record_stats.ymax = record_stats.area + 3 * c;
    span_stats = Stats{};
    span_stats.rec = rec;
    array_stats = n.stats;
    ws = n;
  }

  size_t scratch_bytes() const {
    return uf.bytes() + count.bytes() + on_bits.bytes() + root_bits.bytes() + block_counts.bytes() +
           newid.bytes() + keep_bits.bytes() + blob.bytes();
  }

  void enqueue_fast_finish(const uint8_t* img, uint8_t thr, const ccl::LabelParams& p,
                           const uint8_t* d_int, cudaStream_t s, StageEvents* ev) {
    if (fast_tiles_enabled()) {
      fast_tiled(ws, img, thr, p.connectivity, d_int, s, ev);
    } else {
      fast_label(ws, img, thr, p.connectivity, s, ev);
      assign_ids(ws, true, true, d_int != nullptr, s);
      if (ev) ev->mark("numbering", s);
      finalize(ws, d_int, true, true, s);
      if (ev) ev->mark("labels_stats", s);
    }
    if (p.min_area > 0 || p.max_area > 0) {
      area_filter(ws, p.min_area, p.max_area, true, s);
      if (ev) ev->mark("area_filter", s);
    }
  }
};

CclLabeller::CclLabeller() : s_(std::make_unique<CclState>()) {}
CclLabeller::~CclLabeller() = default;
CclLabeller::CclLabeller(CclLabeller&&) noexcept = default;
CclLabeller& CclLabeller::operator=(CclLabeller&&) noexcept = default;

const int32_t* CclLabeller::d_labels() const {
  return s_->labels.p;
}
size_t CclLabeller::scratch_bytes() const {
  return s_->scratch_bytes();
}
int64_t CclLabeller::statistics_capacity() const {
  return s_->ws.capacity;
}
void CclLabeller::set_profile_stages(bool on) {
  s_->profile = on;
  s_->drop_graph();
}
void CclLabeller::set_statistics(bool on) {
  s_->stats = on;
  s_->drop_graph();
}
void CclLabeller::set_compressible_memory(bool on) {
  if (s_->compressible == on) return;
  s_->compressible = on;
  s_->ws = {};  // reallocate at the next label()
  s_->drop_graph();
}
bool CclLabeller::compressible_memory() const {
  return s_->labels.comp.compressed();
}
void CclLabeller::set_statistics_capacity_limit(int64_t limit) {
  s_->capacity_limit = std::max<int64_t>(1, limit);
  s_->ws = {};  // reallocate at the next label()
  s_->drop_graph();
}

void CclLabeller::label(const uint8_t* d_image, const uint8_t* d_intensity, int width, int height,
                        const ccl::LabelParams& params, cudaStream_t stream) {
  SWL_CHECK(params.connectivity == 4 || params.connectivity == 8, "connectivity must be 4 or 8");
  SWL_CHECK(width > 0 && height > 0 && int64_t(width) * height < (int64_t(1) << 31) - 1,
            "CUDA labelling: bad image size");
  SWL_CHECK(d_image != nullptr, "CUDA labelling: no image");
  CclState& s = *s_;
  s.allocate(width, height);
  Workspace& ws = s.ws;
  s.stream = stream;
  s.params = params;
  s.d_intensity = d_intensity;
  s.pending = true;
  StageEvents& ev = s.events;
  ev.used = 0;
  ev.mark("start", stream);

  const uint8_t* img = d_image;
  uint8_t thr = params.threshold;
  if (params.fill_holes) {
    img = fill_holes(ws, d_image, thr, params.connectivity, params.hole_max_area, stream);
    thr = 0;
    ev.mark("fill_holes", stream);
  }
  const bool filter = params.min_area > 0 || params.max_area > 0;
  SWL_CHECK(s.stats || !filter, "CUDA labelling: an area filter needs the statistics");
  ws.with_stats = s.stats || params.algorithm != ccl::Algorithm::Fast;
  // The tiled `fast` without an intensity image keeps one record a component (Stats::rec).
  const bool records = stats_records_enabled() && params.algorithm == ccl::Algorithm::Fast &&
                       fast_tiles_enabled() && d_intensity == nullptr && width <= kRecordMaxSide &&
                       height <= kRecordMaxSide;
  const bool span = records && span_record_enabled() && span_record_fits(width, height);
  ws.stats = span ? s.span_stats : records ? s.record_stats : s.array_stats;
  switch (params.algorithm) {
    case ccl::Algorithm::Fast: {
      // The whole frame as one graph: captured once per (buffers, parameters), then replayed.
      cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
      CCL_CUDA_CHECK(cudaStreamIsCapturing(stream, &st));
      bool use_graph = stream != nullptr && st == cudaStreamCaptureStatusNone && !s.profile;
      if (use_graph) {
        CclState::Key k{img,
                        d_intensity,
                        thr,
                        params.connectivity,
                        params.min_area,
                        params.max_area,
                        width,
                        height,
                        s.stats,
                        stream};
        if (!s.graph || !(k == s.key)) {
          s.drop_graph();
          cudaGraph_t g = nullptr;
          CCL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
          try {
            s.enqueue_fast_finish(img, thr, params, d_intensity, stream, nullptr);
          } catch (...) {
            cudaStreamEndCapture(stream, &g);
            if (g) cudaGraphDestroy(g);
            throw;
          }
          CCL_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
          cudaError_t e = cudaGraphInstantiate(&s.graph, g, 0);
          CCL_CUDA_CHECK_NOTHROW(cudaGraphDestroy(g));
          CCL_CUDA_CHECK(e);
          s.key = k;
        }
        CCL_CUDA_CHECK(cudaGraphLaunch(s.graph, stream));
        ev.mark(filter ? "label_stats_numbering_filter" : "label_stats_numbering", stream);
      } else {
        s.enqueue_fast_finish(img, thr, params, d_intensity, stream, s.profile ? &ev : nullptr);
        if (!s.profile)
          ev.mark(filter ? "label_stats_numbering_filter" : "label_stats_numbering", stream);
      }
      break;
    }
    case ccl::Algorithm::Kang: {
      kang_label(ws, img, thr, params.connectivity, stream, &ev);
      root_flags(ws, stream);
      assign_ids(ws, true, false, d_intensity != nullptr, stream);
      ev.mark("numbering", stream);
      finalize(ws, d_intensity, false, false, stream);
      ev.mark("labels_stats", stream);
      kang_boxes(ws,
                 int(params.box_method == ccl::BoxMethod::Atomic       ? 0
                     : params.box_method == ccl::BoxMethod::LockPerBox ? 1
                                                                       : 2),
                 stream);
      ev.mark(params.box_method == ccl::BoxMethod::Atomic       ? "boxes_atomic"
              : params.box_method == ccl::BoxMethod::LockPerBox ? "boxes_alg6"
                                                                : "boxes_alg7",
              stream);
      if (filter) {
        area_filter(ws, params.min_area, params.max_area, false, stream);
        ev.mark("area_filter", stream);
      }
      break;
    }
    case ccl::Algorithm::Propagate: {
      propagate_label(ws, img, thr, params.connectivity, stream);
      ev.mark("propagate", stream);
      root_flags(ws, stream);
      assign_ids(ws, true, true, d_intensity != nullptr, stream);
      ev.mark("numbering", stream);
      finalize(ws, d_intensity, true, false, stream);
      ev.mark("labels_stats", stream);
      if (filter) {
        area_filter(ws, params.min_area, params.max_area, false, stream);
        ev.mark("area_filter", stream);
      }
      break;
    }
  }
}

StageTimes CclLabeller::stage_times() {
  CclState& s = *s_;
  SWL_CHECK(s.pending, "CclLabeller: no label() call to time");
  CCL_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  StageTimes t;
  for (int i = 1; i < s.events.used; ++i) {
    float ms = 0;
    CCL_CUDA_CHECK(cudaEventElapsedTime(&ms, s.events.ev[i - 1], s.events.ev[i]));
    t.push_back({s.events.name[i], double(ms)});
  }
  return t;
}

ccl::LabelResult CclLabeller::fetch(bool with_label_image) {
  CclState& s = *s_;
  ccl::LabelResult r;
  r.times = stage_times();
  const Workspace& ws = s.ws;
  const ccl::LabelParams& p = s.params;
  int32_t counts[4] = {};
  CCL_CUDA_CHECK(cudaMemcpy(counts, ws.count, sizeof(counts), cudaMemcpyDeviceToHost));
  const int64_t n = counts[0];
  if (p.algorithm == ccl::Algorithm::Kang)
    SWL_CHECK(counts[2] == n, "kang: countBlobs (" + std::to_string(counts[2]) +
                                  ") disagrees with the numbering (" + std::to_string(n) + ")");
  const bool filter = p.min_area > 0 || p.max_area > 0;
  const bool has_int = s.d_intensity != nullptr;
  bool have_labels = false;
  auto download_labels = [&] {
    r.labels = ImageI32(ws.w, ws.h);
    CCL_CUDA_CHECK(
        cudaMemcpy(r.labels.pixels.data(), ws.labels, size_t(ws.n) * 4, cudaMemcpyDeviceToHost));
    have_labels = true;
  };
  if (!ws.with_stats) {
    r.count = int32_t(n);  // labels and ids only (set_statistics(false))
  } else if (n <= ws.capacity) {
    // The device statistics, component by component, through the area filter's rule.
    int32_t kept = 0;
    auto take = [&](const ccl::detail::Accumulator& acc) {
      if (ccl::detail::keep_area(acc.area, p))
        r.components.push_back(ccl::detail::make_component(++kept, acc, p.geometry, has_int));
    };
    auto get = [&](auto& v, const auto* d) {
      if (n > 0)
        CCL_CUDA_CHECK(cudaMemcpy(v.data(), d, v.size() * sizeof(v[0]), cudaMemcpyDeviceToHost));
    };
    if (ws.stats.rec) {
      // With ws.stats.area the spanning components' area and box are in the arrays.
      const bool arrays = ws.stats.area != nullptr;
      const size_t na = arrays ? size_t(n) : 0;
      std::vector<uint32_t> rec(size_t(n) * kRecordWords), a(na), x0(na), x1(na), y1(na);
      get(rec, ws.stats.rec);
      if (arrays) {
        get(a, ws.stats.area);
        get(x0, ws.stats.xmin);
        get(x1, ws.stats.xmax);
        get(y1, ws.stats.ymax);
      }
      for (int64_t k = 0; k < n; ++k) {
        const uint32_t* v = rec.data() + k * kRecordWords;
        ccl::detail::Accumulator acc;
        if (!arrays && (v[kSpanTop] & kSpanFlag)) {
          uint64_t area_sx = 0, sy = 0;
          std::memcpy(&area_sx, v + kSpanAreaSx, 8);
          std::memcpy(&sy, v + kSpanSumY, 8);
          acc.area = int64_t(area_sx >> kSpanAreaShift);
          acc.xmin = int32_t(v[kSpanXmin]);
          acc.xmax = int32_t(v[kSpanXmax]);
          acc.ymin = int32_t(v[kSpanTop] & ~kSpanFlag);
          acc.ymax = int32_t(v[kSpanYmax]);
          acc.sum_wx = area_sx & ((uint64_t(1) << kSpanAreaShift) - 1);
          acc.sum_wy = sy;
        } else if (v[kRecArea] == kRecSpanning) {
          acc.area = int64_t(a[k]);
          acc.xmin = int32_t(x0[k]);
          acc.xmax = int32_t(x1[k]);
          acc.ymin = int32_t(v[kSpanYmin]);
          acc.ymax = int32_t(y1[k]);
          std::memcpy(&acc.sum_wx, v + kSpanSx, 8);
          std::memcpy(&acc.sum_wy, v + kSpanSy, 8);
        } else {
          acc.area = int64_t(v[kRecArea]);
          acc.xmin = int32_t(v[kRecXmin]);
          acc.xmax = int32_t(v[kRecXmax]);
          acc.ymin = int32_t(v[kRecYmin]);
          acc.ymax = int32_t(v[kRecYmax]);
          acc.sum_wx = v[kRecSx];
          acc.sum_wy = v[kRecSy];
        }
        acc.sum_w = uint64_t(acc.area);
        take(acc);
      }
    } else {
      std::vector<uint32_t> a(n), x0(n), x1(n), y0(n), y1(n), pk(n);
      std::vector<unsigned long long> sw(has_int ? n : 0), swx(n), swy(n);
      get(a, ws.stats.area);
      get(x0, ws.stats.xmin);
      get(x1, ws.stats.xmax);
      get(y0, ws.stats.ymin);
      get(y1, ws.stats.ymax);
      get(pk, ws.stats.peak);
      std::vector<uint32_t> sy32(has_int ? 0 : n);
      if (has_int)
        get(sw, ws.stats.sum_w);
      else
        get(sy32, ws.stats.sy32);  // the weight sum is the area; sx32 is in pk
      get(swx, ws.stats.sum_wx);
      get(swy, ws.stats.sum_wy);
      for (int64_t k = 0; k < n; ++k) {
        ccl::detail::Accumulator acc;
        const bool sums64 = has_int || (a[k] & kSums64);
        acc.area = int64_t(a[k] & ~kSums64);
        acc.xmin = int32_t(x0[k]);
        acc.xmax = int32_t(x1[k]);
        acc.ymin = int32_t(y0[k]);
        acc.ymax = int32_t(y1[k]);
        acc.peak = has_int ? pk[k] : 0u;
        acc.sum_w = has_int ? sw[k] : uint64_t(acc.area);
        acc.sum_wx = sums64 ? swx[k] : pk[k];
        acc.sum_wy = sums64 ? swy[k] : sy32[k];
        take(acc);
      }
    }
    r.count = kept;
    if (filter)
      SWL_CHECK(counts[1] == kept, "area filter: device kept " + std::to_string(counts[1]) +
                                       ", host " + std::to_string(kept));
  } else {
    // More components than the device statistics hold: finish on the host from the labels.
    download_labels();
    Image8 intensity;
    if (has_int) {
      intensity = Image8(ws.w, ws.h);
      CCL_CUDA_CHECK(
          cudaMemcpy(intensity.pixels.data(), s.d_intensity, size_t(ws.n), cudaMemcpyDeviceToHost));
    }
    ccl::LabelParams all = p;
    all.min_area = all.max_area = 0;
    auto comps = ccl::detail::components_from_labels(r.labels, int32_t(n), all,
                                                     has_int ? &intensity : nullptr);
    std::vector<int32_t> renum(size_t(n) + 1, 0);
    int32_t kept = 0;
    for (auto& c : comps) {
      if (!ccl::detail::keep_area(c.area, p)) continue;
      renum[size_t(c.label)] = ++kept;
      c.label = kept;
      r.components.push_back(c);
    }
    r.count = kept;
    if (filter) {
      for (auto& l : r.labels.pixels) l = renum[size_t(l)];
      CCL_CUDA_CHECK(
          cudaMemcpy(ws.labels, r.labels.pixels.data(), size_t(ws.n) * 4, cudaMemcpyHostToDevice));
    }
  }
  if (with_label_image && !have_labels) download_labels();
  if (!with_label_image) r.labels = ImageI32{};
  s.pending = false;
  return r;
}

}  // namespace sweepline::gpu::cuda

namespace sweepline::ccl {

LabelResult label_cuda(const Image8& binary, const LabelParams& params, const Image8* intensity) {
  detail::validate(binary, params, intensity);
  if (binary.width == 0 || binary.height == 0) {
    LabelResult r;
    r.labels = ImageI32(binary.width, binary.height);
    return r;
  }
  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e != cudaSuccess || ndev == 0) {
    cudaGetLastError();
    SWL_CHECK(false, std::string("no usable CUDA device: ") +
                         (e != cudaSuccess ? cudaGetErrorString(e) : "none present"));
  }
  struct Stream {
    cudaStream_t s = nullptr;
    Stream() { CCL_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
    ~Stream() { CCL_CUDA_CHECK_NOTHROW(cudaStreamDestroy(s)); }
  } stream;
  gpu::cuda::DeviceArray<uint8_t> d_img, d_int;
  d_img.reset(binary.size());
  CCL_CUDA_CHECK(cudaMemcpyAsync(d_img.p, binary.pixels.data(), binary.size(),
                                 cudaMemcpyHostToDevice, stream.s));
  if (intensity) {
    d_int.reset(intensity->size());
    CCL_CUDA_CHECK(cudaMemcpyAsync(d_int.p, intensity->pixels.data(), intensity->size(),
                                   cudaMemcpyHostToDevice, stream.s));
  }
  gpu::cuda::CclLabeller labeller;
  labeller.label(d_img.p, intensity ? d_int.p : nullptr, binary.width, binary.height, params,
                 stream.s);
  return labeller.fetch(true);
}

}  // namespace sweepline::ccl
