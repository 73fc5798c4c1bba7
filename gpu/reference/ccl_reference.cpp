// The reference labellers: `kang` and `propagate` on the product's scratch (CclScratch: the
// same allocation, hole filling, statistics arrays and fetch()), each with its own sequence of
// kernels and the numbering they share (ccl_reference_finish.cu).
#include "gpu/reference/ccl_reference.hpp"

#include <string>

#include "gpu/cuda/ccl_scratch.hpp"
#include "gpu/reference/ccl_reference_kernels.hpp"

namespace sweepline::gpu::reference {

namespace {

using cuda::ccl_detail::CclScratch;

// What both reference labellers share: everything but the kernels of a frame.
class ReferenceLabeller : public cuda::CudaLabeller {
 public:
  explicit ReferenceLabeller(ccl::Algorithm algorithm) : algorithm_(algorithm) {}
  ccl::Algorithm algorithm() const override { return algorithm_; }
  void label(const uint8_t* d_image, const uint8_t* d_intensity, int width, int height,
             const ccl::LabelParams& params, cudaStream_t stream) override {
    SWL_CHECK(params.algorithm == algorithm_, std::string("this labeller runs `") +
                                                  ccl::to_string(algorithm_) + "`, not `" +
                                                  ccl::to_string(params.algorithm) + "`");
    const CclScratch::Input in =
        scratch_.begin_frame(d_image, d_intensity, width, height, params, stream);
    enqueue(scratch_.ws(), in, params, d_intensity, stream, scratch_.events());
    if (params.min_area > 0 || params.max_area > 0) {
      cuda::ccl_detail::area_filter_ids(scratch_.ws(), params.min_area, params.max_area, stream);
      remap_labels(scratch_.ws(), stream);
      scratch_.events().mark("area_filter", stream);
    }
  }
  const int32_t* d_labels() const override { return scratch_.d_labels(); }
  ccl::LabelResult fetch(bool with_label_image) override {
    check_counts(scratch_.counts());
    return scratch_.fetch(with_label_image);
  }
  StageTimes stage_times() override { return scratch_.stage_times(); }
  size_t scratch_bytes() const override { return scratch_.scratch_bytes(); }
  int64_t statistics_capacity() const override { return scratch_.statistics_capacity(); }
  void set_statistics_capacity_limit(int64_t limit) override {
    scratch_.set_statistics_capacity_limit(limit);
  }
  void set_compressible_memory(bool on) override { scratch_.set_compressible_memory(on); }
  bool compressible_memory() const override { return scratch_.compressible_memory(); }

 protected:
  // The frame's labelling, numbering and statistics (without the area filter).
  virtual void enqueue(const Workspace& ws, const CclScratch::Input& in,
                       const ccl::LabelParams& params, const uint8_t* d_intensity,
                       cudaStream_t stream, StageEvents& ev) = 0;
  // The device's counts after a frame ([0] components, [2] kang's own count).
  virtual void check_counts(const std::array<int32_t, 4>&) {}

 private:
  ccl::Algorithm algorithm_;
  CclScratch scratch_;
};

// Papers 000/001 (ccl_kang.cu), then the shared numbering (a component's top row comes from the
// box kernel) and the boxes by the chosen method.
class KangLabeller final : public ReferenceLabeller {
 public:
  KangLabeller() : ReferenceLabeller(ccl::Algorithm::Kang) {}

 private:
  void enqueue(const Workspace& ws, const CclScratch::Input& in, const ccl::LabelParams& p,
               const uint8_t* d_intensity, cudaStream_t s, StageEvents& ev) override {
    kang_label(ws, in.image, in.threshold, p.connectivity, s, &ev);
    root_flags(ws, s);
    assign_ids(ws, false, d_intensity != nullptr, s);
    ev.mark("numbering", s);
    finalize(ws, d_intensity, false, s);
    ev.mark("labels_stats", s);
    kang_boxes(ws, p.box_method, s);
    ev.mark(p.box_method == ccl::BoxMethod::Atomic       ? "boxes_atomic"
            : p.box_method == ccl::BoxMethod::LockPerBox ? "boxes_alg6"
                                                         : "boxes_alg7",
            s);
  }
  void check_counts(const std::array<int32_t, 4>& c) override {
    SWL_CHECK(c[2] == c[0], "kang: countBlobs (" + std::to_string(c[2]) +
                                ") disagrees with the numbering (" + std::to_string(c[0]) + ")");
  }
};

// Paper 003's propagation on the foreground (gpu/cuda/ccl_holes.cu's loop), then the shared
// numbering.
class PropagateLabeller final : public ReferenceLabeller {
 public:
  PropagateLabeller() : ReferenceLabeller(ccl::Algorithm::Propagate) {}

 private:
  void enqueue(const Workspace& ws, const CclScratch::Input& in, const ccl::LabelParams& p,
               const uint8_t* d_intensity, cudaStream_t s, StageEvents& ev) override {
    cuda::ccl_detail::run_propagation(in.image, in.threshold, ws.w, ws.h, p.connectivity,
                                      p.connectivity, false, ws.uf, ws.flags, s);
    ev.mark("propagate", s);
    root_flags(ws, s);
    assign_ids(ws, true, d_intensity != nullptr, s);
    ev.mark("numbering", s);
    finalize(ws, d_intensity, true, s);
    ev.mark("labels_stats", s);
  }
};

}  // namespace

std::unique_ptr<cuda::CudaLabeller> make_cuda_labeller(ccl::Algorithm algorithm) {
  switch (algorithm) {
    case ccl::Algorithm::Fast:
      return std::make_unique<cuda::CclLabeller>();
    case ccl::Algorithm::Kang:
      return std::make_unique<KangLabeller>();
    case ccl::Algorithm::Propagate:
      return std::make_unique<PropagateLabeller>();
  }
  SWL_CHECK(false, "unknown labelling algorithm");
  return nullptr;
}

ccl::LabelResult label_cuda(const Image8& binary, const ccl::LabelParams& params,
                            const Image8* intensity) {
  return ccl::label_cuda(binary, params, intensity, make_cuda_labeller);
}

}  // namespace sweepline::gpu::reference
