#include "gpu/cuda/ccl_scratch.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/ccl/ccl_detail.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

void StageEvents::start(cudaStream_t s) {
  if (ev.empty()) {
    ev.reserve(kMax);
    for (int i = 0; i < kMax; ++i) ev.emplace_back();
  }
  used = 0;
  mark("start", s);
}

void StageEvents::mark(const char* stage, cudaStream_t s) {
  if (used >= kMax || used >= int(ev.size())) return;
  name[used] = stage;
  SWL_CUDA_CHECK(cudaEventRecord(ev[size_t(used)].get(), s));
  ++used;
}

int device_sm_count() {
  int dev = 0, sms = 0;
  SWL_CUDA_CHECK(cudaGetDevice(&dev));
  SWL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return std::max(sms, 1);
}

void CclScratch::allocate(int w, int h) {
  if (!reallocate_ && ws_.w == w && ws_.h == h && uf_.get()) return;
  reallocate_ = false;
  ++generation_;
  Workspace n;
  n.w = w;
  n.h = h;
  n.n = int64_t(w) * h;
  n.wpr = (w + 31) / 32;
  n.words = int64_t(n.wpr) * h;
  n.blocks = (n.words + kScanWords - 1) / kScanWords;
  n.capacity = std::max<int64_t>(1, std::min<int64_t>(n.n / 2 + 2, capacity_limit_));
  int64_t id_words = (n.capacity + 31) / 32;
  n.id_blocks = (id_words + kWordsPerBlock - 1) / kWordsPerBlock;
  size_t blob_bytes = std::max<size_t>((size_t(n.n) + 4) * 4 + size_t(n.n),
                                       size_t(n.capacity) * kStatsBytesPerComponent);
  uf_.resize(size_t(n.n));
  // The label image: compressible where asked for and granted (plain memory otherwise).
  labels_comp_ = CompressibleMemory();
  if (compressible_) labels_comp_ = CompressibleMemory::allocate(size_t(n.n) * sizeof(int32_t));
  labels_plain_.resize(labels_comp_ ? 0 : size_t(n.n));
  count_.resize(4);
  on_bits_.resize(size_t(n.words));
  root_bits_.resize(size_t(n.words));
  n.tiles_x = (n.wpr + kTileWords - 1) / kTileWords;
  n.tiles_y = (h + kTileRows - 1) / kTileRows;
  n.segs = int64_t(h) * n.tiles_x;
  // `fast` keeps its segment offsets in block_counts and its border bits in newid (both free
  // until the area filter, which runs after them).
  n.seg_nblocks = (n.segs + 31) / 32;
  block_counts_.resize(size_t(std::max({n.blocks, n.id_blocks, n.segs + 2 * n.seg_nblocks})));
  newid_.resize(size_t(std::max(n.capacity, n.words)));
  keep_bits_.resize(size_t(id_words));
  blob_.resize(blob_bytes);
  n.uf = uf_.get();
  n.labels = labels_comp_ ? static_cast<int32_t*>(labels_comp_.get()) : labels_plain_.get();
  n.count = count_.get();
  n.flags = count_.get();  // the propagation's flags: count[0..2] before the numbering writes them
  n.on_bits = on_bits_.get();
  n.root_bits = root_bits_.get();
  n.block_counts = block_counts_.get();
  n.newid = newid_.get();
  n.bord_bits = newid_.get();
  n.seg_offsets = block_counts_.get();
  n.seg_blocks = block_counts_.get() + n.segs;
  n.seg_scan = n.seg_blocks + n.seg_nblocks;
  n.keep_bits = keep_bits_.get();
  n.blob = blob_.get();
  n.blob_bytes = blob_bytes;
  size_t c = size_t(n.capacity);
  auto* u64 = reinterpret_cast<unsigned long long*>(blob_.get());
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
  auto* rec = reinterpret_cast<uint32_t*>(blob_.get());
  record_stats_ = Stats{};
  record_stats_.rec = rec;
  record_stats_.area = rec + kRecordWords * c;
  record_stats_.xmin = record_stats_.area + c;
  record_stats_.xmax = record_stats_.area + 2 * c;
  record_stats_.ymax = record_stats_.area + 3 * c;
  span_stats_ = Stats{};
  span_stats_.rec = rec;
  array_stats_ = n.stats;
  ws_ = n;
}

size_t CclScratch::scratch_bytes() const {
  return uf_.bytes() + count_.bytes() + on_bits_.bytes() + root_bits_.bytes() +
         block_counts_.bytes() + newid_.bytes() + keep_bits_.bytes() + blob_.bytes();
}

void CclScratch::set_statistics_capacity_limit(int64_t limit) {
  capacity_limit_ = std::max<int64_t>(1, limit);
  reallocate_ = true;
}

void CclScratch::set_compressible_memory(bool on) {
  if (compressible_ == on) return;
  compressible_ = on;
  reallocate_ = true;
}

CclScratch::Input CclScratch::begin_frame(const uint8_t* d_image, const uint8_t* d_intensity,
                                          int width, int height, const ccl::LabelParams& params,
                                          cudaStream_t stream) {
  SWL_CHECK(params.connectivity == 4 || params.connectivity == 8, "connectivity must be 4 or 8");
  SWL_CHECK(width > 0 && height > 0 && int64_t(width) * height < (int64_t(1) << 31) - 1,
            "CUDA labelling: bad image size");
  SWL_CHECK(d_image != nullptr, "CUDA labelling: no image");
  allocate(width, height);
  stream_ = stream;
  params_ = params;
  d_intensity_ = d_intensity;
  pending_ = true;
  ws_.with_stats = true;
  ws_.stats = array_stats_;
  events_.start(stream);
  Input in{d_image, params.threshold};
  if (params.fill_holes) {
    in.image =
        fill_holes(ws_, d_image, in.threshold, params.connectivity, params.hole_max_area, stream);
    in.threshold = 0;
    events_.mark("fill_holes", stream);
  }
  return in;
}

void CclScratch::set_layout(StatsLayout layout) {
  ws_.stats = layout == StatsLayout::SpanRecords ? span_stats_
              : layout == StatsLayout::Records   ? record_stats_
                                                 : array_stats_;
}

StageTimes CclScratch::stage_times() {
  SWL_CHECK(pending_, "CUDA labeller: no label() call to time");
  SWL_CUDA_CHECK(cudaStreamSynchronize(stream_));
  StageTimes t;
  for (int i = 1; i < events_.used; ++i) {
    float ms = 0;
    SWL_CUDA_CHECK(
        cudaEventElapsedTime(&ms, events_.ev[size_t(i - 1)].get(), events_.ev[size_t(i)].get()));
    t.push_back({events_.name[i], double(ms)});
  }
  return t;
}

std::array<int32_t, 4> CclScratch::counts() {
  SWL_CHECK(pending_, "CUDA labeller: no label() call to read");
  SWL_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::array<int32_t, 4> c{};
  SWL_CUDA_CHECK(cudaMemcpy(c.data(), ws_.count, sizeof(c), cudaMemcpyDeviceToHost));
  return c;
}

ccl::LabelResult CclScratch::fetch(bool with_label_image) {
  ccl::LabelResult r;
  r.times = stage_times();
  const Workspace& ws = ws_;
  const ccl::LabelParams& p = params_;
  const std::array<int32_t, 4> counts = this->counts();
  const int64_t n = counts[0];
  r.found = n;
  if (ws.with_stats && p.max_components > 0 && n > p.max_components) {
    // Too many to collect (ccl.hpp): none, and a label image to match (all background).
    r.limit_exceeded = true;
    SWL_CUDA_CHECK(cudaMemsetAsync(ws.labels, 0, size_t(ws.n) * sizeof(int32_t), stream_));
    SWL_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (with_label_image) r.labels = ImageI32(ws.w, ws.h, 0);
    pending_ = false;
    return r;
  }
  const bool filter = p.min_area > 0 || p.max_area > 0;
  const bool has_int = d_intensity_ != nullptr;
  bool have_labels = false;
  auto download_labels = [&] {
    r.labels = ImageI32(ws.w, ws.h);
    SWL_CUDA_CHECK(
        cudaMemcpy(r.labels.pixels.data(), ws.labels, size_t(ws.n) * 4, cudaMemcpyDeviceToHost));
    have_labels = true;
  };
  if (!ws.with_stats) {
    r.count = int32_t(n);  // labels and ids only (`fast` without statistics)
  } else if (n <= ws.capacity) {
    // The device statistics, component by component, through the area filter's rule.
    int32_t kept = 0;
    auto take = [&](const ccl::detail::Accumulator& acc) {
      if (ccl::detail::keep_area(acc.area, p))
        r.components.push_back(ccl::detail::make_component(++kept, acc, p.geometry, has_int));
    };
    auto get = [&](auto& v, const auto* d) {
      if (n > 0)
        SWL_CUDA_CHECK(cudaMemcpy(v.data(), d, v.size() * sizeof(v[0]), cudaMemcpyDeviceToHost));
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
      SWL_CUDA_CHECK(
          cudaMemcpy(intensity.pixels.data(), d_intensity_, size_t(ws.n), cudaMemcpyDeviceToHost));
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
      SWL_CUDA_CHECK(
          cudaMemcpy(ws.labels, r.labels.pixels.data(), size_t(ws.n) * 4, cudaMemcpyHostToDevice));
    }
  }
  if (with_label_image && !have_labels) download_labels();
  if (!with_label_image) r.labels = ImageI32{};
  pending_ = false;
  return r;
}

}  // namespace sweepline::gpu::cuda::ccl_detail
