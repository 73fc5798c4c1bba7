// The product labeller, `fast`: the frame's steps in order (ccl_fast_tiles.cu, ccl_fast_merge.cu,
// ccl_fast_finish.cu, ccl_area_filter.cu), captured as one CUDA graph per (buffers, parameters)
// and replayed; the shared scratch, hole filling and fetch() are CclScratch's (ccl_scratch.cpp).
#include "gpu/cuda/ccl_cuda.hpp"

#include <string>
#include <utility>

#include "gpu/ccl/ccl_detail.hpp"
#include "gpu/cuda/ccl_kernels.hpp"
#include "gpu/cuda/ccl_scratch.hpp"
#include "gpu/cuda/cuda_resources.hpp"

namespace sweepline::gpu::cuda {

using namespace ccl_detail;

namespace {

// Owns an instantiated graph.
class GraphExec {
 public:
  GraphExec() = default;
  ~GraphExec() { reset(); }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  void reset() noexcept {
    if (g_) SWL_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(g_));
    g_ = nullptr;
  }
  cudaGraphExec_t* put() {
    reset();
    return &g_;
  }
  cudaGraphExec_t get() const { return g_; }

 private:
  cudaGraphExec_t g_ = nullptr;
};

// `fast`'s kernels for one frame, in order; with `ev`, an event after each kernel group.
void enqueue_fast(const Workspace& ws, const uint8_t* img, uint8_t thr, const ccl::LabelParams& p,
                  const uint8_t* d_intensity, cudaStream_t s, StageEvents* ev) {
  const bool eight = p.connectivity == 8;
  label_tiles(ws, img, thr, eight, s);
  if (ev) ev->mark("init", s);
  unite_tile_borders(ws, eight, s);
  if (ev) ev->mark("merge", s);
  flatten_tile_roots(ws, s);
  if (ev) ev->mark("roots", s);
  number_components(ws, d_intensity != nullptr, s);
  if (ev) ev->mark("numbering", s);
  finish_tiles(ws, d_intensity, s);
  if (ev) ev->mark("labels_stats", s);
  if (p.min_area > 0 || p.max_area > 0) {
    area_filter(ws, p.min_area, p.max_area, s);
    if (ev) ev->mark("area_filter", s);
  }
}

}  // namespace

struct CclState {
  CclScratch scratch;
  bool profile = false;
  bool stats = true;
  // The captured graph and what it was captured for.
  GraphExec graph;
  struct Key {
    const uint8_t* img = nullptr;
    const uint8_t* intensity = nullptr;
    uint8_t thr = 0;
    int conn = 0;
    int64_t min_area = 0, max_area = 0;
    int w = 0, h = 0;
    bool stats = true;
    cudaStream_t stream = nullptr;
    uint64_t generation = 0;  // of the scratch's buffers
    bool operator==(const Key&) const = default;
  } key;

  void drop_graph() {
    graph.reset();
    key = {};
  }
};

CclLabeller::CclLabeller() : s_(std::make_unique<CclState>()) {}
CclLabeller::~CclLabeller() = default;

const int32_t* CclLabeller::d_labels() const {
  return s_->scratch.d_labels();
}
size_t CclLabeller::scratch_bytes() const {
  return s_->scratch.scratch_bytes();
}
int64_t CclLabeller::statistics_capacity() const {
  return s_->scratch.statistics_capacity();
}
StageTimes CclLabeller::stage_times() {
  return s_->scratch.stage_times();
}
ccl::LabelResult CclLabeller::fetch(bool with_label_image) {
  return s_->scratch.fetch(with_label_image);
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
  s_->scratch.set_compressible_memory(on);
}
bool CclLabeller::compressible_memory() const {
  return s_->scratch.compressible_memory();
}
void CclLabeller::set_statistics_capacity_limit(int64_t limit) {
  s_->scratch.set_statistics_capacity_limit(limit);
}

void CclLabeller::label(const uint8_t* d_image, const uint8_t* d_intensity, int width, int height,
                        const ccl::LabelParams& params, cudaStream_t stream) {
  SWL_CHECK(params.algorithm == ccl::Algorithm::Fast,
            std::string("the product CUDA labeller runs `fast` only; `") +
                ccl::to_string(params.algorithm) +
                "` is a reference algorithm (gpu/reference: reference::make_cuda_labeller)");
  CclState& s = *s_;
  const bool filter = params.min_area > 0 || params.max_area > 0;
  SWL_CHECK(s.stats || !filter, "CUDA labelling: an area filter needs the statistics");
  prepare_finish();  // before any capture
  const CclScratch::Input in =
      s.scratch.begin_frame(d_image, d_intensity, width, height, params, stream);
  Workspace& ws = s.scratch.ws();
  ws.with_stats = s.stats;
  // Without an intensity image, one 32-byte record a component (Stats::rec) where the frame's
  // sides allow it, with the spanning components' area and box in it too where they fit.
  if (d_intensity == nullptr && width <= kRecordMaxSide && height <= kRecordMaxSide)
    s.scratch.set_layout(span_record_fits(width, height) ? StatsLayout::SpanRecords
                                                         : StatsLayout::Records);
  StageEvents& ev = s.scratch.events();
  const char* stage = filter ? "label_stats_numbering_filter" : "label_stats_numbering";
  // The whole frame as one graph: captured once per (buffers, parameters), then replayed.
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  SWL_CUDA_CHECK(cudaStreamIsCapturing(stream, &st));
  const bool use_graph = stream != nullptr && st == cudaStreamCaptureStatusNone && !s.profile;
  if (!use_graph) {
    enqueue_fast(ws, in.image, in.threshold, params, d_intensity, stream,
                 s.profile ? &ev : nullptr);
    if (!s.profile) ev.mark(stage, stream);
    return;
  }
  const CclState::Key k{in.image,
                        d_intensity,
                        in.threshold,
                        params.connectivity,
                        params.min_area,
                        params.max_area,
                        width,
                        height,
                        s.stats,
                        stream,
                        s.scratch.generation()};
  if (!s.graph.get() || !(k == s.key)) {
    s.drop_graph();
    cudaGraph_t g = nullptr;
    SWL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue_fast(ws, in.image, in.threshold, params, d_intensity, stream, nullptr);
    } catch (...) {
      cudaStreamEndCapture(stream, &g);
      if (g) cudaGraphDestroy(g);
      throw;
    }
    SWL_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
    const cudaError_t e = cudaGraphInstantiate(s.graph.put(), g, 0);
    SWL_CUDA_CHECK_NOTHROW(cudaGraphDestroy(g));
    SWL_CUDA_CHECK(e);
    s.key = k;
  }
  SWL_CUDA_CHECK(cudaGraphLaunch(s.graph.get(), stream));
  ev.mark(stage, stream);
}

std::unique_ptr<CudaLabeller> make_product_labeller(ccl::Algorithm algorithm) {
  SWL_CHECK(algorithm == ccl::Algorithm::Fast,
            std::string("the product CUDA labeller runs `fast` only; `") +
                ccl::to_string(algorithm) +
                "` is a reference algorithm (gpu/reference: reference::make_cuda_labeller)");
  return std::make_unique<CclLabeller>();
}

SelectedLabeller::SelectedLabeller(LabellerFactory factory)
    : factory_(factory ? std::move(factory) : LabellerFactory(make_product_labeller)) {}

void SelectedLabeller::label(const uint8_t* d_image, const uint8_t* d_intensity, int width,
                             int height, const ccl::LabelParams& params, cudaStream_t stream) {
  if (!current_ || current_->algorithm() != params.algorithm) {
    current_.reset();  // its scratch goes before the next one's is allocated
    current_ = factory_(params.algorithm);
    SWL_CHECK(
        current_ && current_->algorithm() == params.algorithm,
        std::string("the labeller factory has no `") + ccl::to_string(params.algorithm) + "`");
  }
  current_->label(d_image, d_intensity, width, height, params, stream);
}

const int32_t* SelectedLabeller::d_labels() const {
  return current_ ? current_->d_labels() : nullptr;
}

ccl::LabelResult SelectedLabeller::fetch(bool with_label_image) {
  SWL_CHECK(current_ != nullptr, "CUDA labeller: no label() call to fetch");
  return current_->fetch(with_label_image);
}

}  // namespace sweepline::gpu::cuda

namespace sweepline::ccl {

LabelResult label_cuda(const Image8& binary, const LabelParams& params, const Image8* intensity,
                       const gpu::cuda::LabellerFactory& make) {
  detail::validate(binary, params, intensity);
  auto labeller =
      make ? make(params.algorithm) : gpu::cuda::make_product_labeller(params.algorithm);
  SWL_CHECK(labeller && labeller->algorithm() == params.algorithm,
            std::string("the labeller factory has no `") + to_string(params.algorithm) + "`");
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
  gpu::cuda::Stream stream;
  gpu::cuda::DeviceBuffer<uint8_t> d_img(binary.size()), d_int;
  SWL_CUDA_CHECK(cudaMemcpyAsync(d_img.get(), binary.pixels.data(), binary.size(),
                                 cudaMemcpyHostToDevice, stream.get()));
  if (intensity) {
    d_int.resize(intensity->size());
    SWL_CUDA_CHECK(cudaMemcpyAsync(d_int.get(), intensity->pixels.data(), intensity->size(),
                                   cudaMemcpyHostToDevice, stream.get()));
  }
  labeller->label(d_img.get(), intensity ? d_int.get() : nullptr, binary.width, binary.height,
                  params, stream.get());
  return labeller->fetch(true);
}

}  // namespace sweepline::ccl
